// The rules page: the catalogue's rules.* texts in rules.html, plus what a picture says better — card orders
// with their points, the rank table, the two argued positions with links to the judge, belote's pair.
// Everything is built with the DOM and textContent; it renders again whenever the language changes.
// The house rules' options are the engine's, as the build wrote them (js/options.js). The page needs no engine: the positions' legal cards are stated here as the rules page states them in
// words (docs/rules.md, "The positions tables argue about"), and the judge checks them with the engine.
import {
  cardName, detectLanguage, languagePicker, onLanguageChange, setLanguage, t,
} from "./i18n.js";
import { el } from "./dom.js";
import { positionLink } from "./notation.js";
import { options } from "./options.js";
import { houseOptions } from "./table/house.js";

// Strongest first, with points (docs/rules.md, "The cards"): the engine's (js/options.js).
const TRUMP_ORDER = options.cards.trump;
const PLAIN_ORDER = options.cards.plain;
// the cards that climb in trump (the jack and the nine): higher in trump than in a plain suit
const LIFTED = new Set(TRUMP_ORDER.map(([rank]) => rank)
  .filter((rank, i) => i < PLAIN_ORDER.findIndex(([plain]) => plain === rank)));

// The positions every table argues about: hearts trump, you play fourth, your partner played second.
const POSITIONS = {
  "overtrump-partner": { trump: "h", trick: ["8h", "Ah", "7c"], hand: ["Jh", "Kd", "7s"], legal: ["Jh"] },
  "no-undertrump": { trump: "h", trick: ["As", "9s", "9h"], hand: ["7h", "8h", "Kd", "Ac"], legal: ["7h", "8h", "Kd", "Ac"] },
};
const TRICK_SEATS = ["opponent", "partner", "opponent"]; // who played the trick's cards, in order


// A small card: rank and suit in the corner, the suit large in the middle; its name for screen readers.
function card(code, extraClass = "") {
  const [rank, suit] = code;
  const node = el("span", `card suit-${suit} ${extraClass}`.trim());
  node.dataset.card = code; // the canonical notation, as the judge's URL writes it
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(code));
  node.title = cardName(code);
  const corner = el("span", "card-corner");
  corner.append(el("span", "card-rank", t(`rank.short.${rank}`)), el("span", "card-pip", t(`suit.symbol.${suit}`)));
  node.append(corner, el("span", "card-centre", t(`suit.symbol.${suit}`)));
  for (const part of node.children) part.setAttribute("aria-hidden", "true");
  return node;
}

// A card with a caption below it.
function labelled(cardEl, caption, captionClass = "") {
  const cell = el("div", "cell");
  cell.append(cardEl, el("span", `caption ${captionClass}`.trim(), caption));
  return cell;
}

function renderOrders(root) {
  const rows = [
    { order: TRUMP_ORDER, suit: "h", title: "rules.cards.trumpRow" },
    { order: PLAIN_ORDER, suit: "s", title: "rules.cards.plainRow" },
  ];
  for (const { order, suit, title } of rows) {
    const total = order.reduce((sum, [, points]) => sum + points, 0); // 62 and 30
    const figure = el("figure", "order");
    const caption = el("figcaption", "", t(title));
    caption.append(el("span", "total", t("rules.cards.total", { n: total })));
    const row = el("div", "card-row");
    for (const [rank, points] of order) {
      const lifted = suit === "h" && LIFTED.has(rank) ? "lifted" : "";
      row.append(labelled(card(rank + suit, lifted), String(points), "points"));
    }
    figure.append(caption, row);
    root.append(figure);
  }
}

function renderRankTable(root) {
  const table = el("table", "ranks");
  table.append(el("caption", "", t("rules.cards.table.caption")));
  const head = el("thead");
  const headRow = el("tr");
  for (const key of ["rank", "trumpOrder", "trumpPoints", "plainOrder", "plainPoints"]) {
    const th = el("th", "", t(`rules.cards.table.${key}`));
    th.scope = "col";
    headRow.append(th);
  }
  head.append(headRow);
  const body = el("tbody");
  TRUMP_ORDER.forEach(([rank, trumpPoints], i) => {
    const plainIndex = PLAIN_ORDER.findIndex(([r]) => r === rank);
    const tr = el("tr");
    const th = el("th", "rank-name", t(`rank.${rank}`));
    th.scope = "row";
    tr.append(th);
    for (const value of [i + 1, trumpPoints, plainIndex + 1, PLAIN_ORDER[plainIndex][1]]) tr.append(el("td", "", String(value)));
    body.append(tr);
  });
  table.append(head, body);
  root.append(table);
}

function renderBoard(root, position) {
  const trump = el("p", "trump-badge", t("rules.board.trump", { suit: position.trump }));
  trump.prepend(el("span", `trump-symbol suit-${position.trump}`, t(`suit.symbol.${position.trump}`)));

  const trick = el("div", "trick");
  trick.append(el("span", "row-label", t("rules.board.trick")));
  const trickCards = el("div", "card-row");
  position.trick.forEach((code, i) => trickCards.append(labelled(card(code), t(`rules.board.${TRICK_SEATS[i]}`))));
  const yours = el("div", "cell you");
  yours.append(el("span", "card card-slot", "?"), el("span", "caption", t("rules.board.you")));
  yours.firstChild.setAttribute("aria-hidden", "true");
  trickCards.append(yours);
  trick.append(trickCards);

  const hand = el("div", "hand");
  hand.append(el("span", "row-label", t("rules.board.hand")));
  const handCards = el("div", "card-row");
  for (const code of position.hand) {
    const legal = position.legal.includes(code);
    handCards.append(labelled(card(code, legal ? "legal" : "forbidden"),
      t(legal ? "rules.board.legal" : "rules.board.forbidden"), legal ? "legal" : "forbidden"));
  }
  hand.append(handCards);
  root.append(trump, trick, hand);
}

function renderBelote(root) {
  root.append(card("Kh"), el("span", "plus", "+"), card("Qh"), el("span", "plus", `= ${t("points", { n: 20 })}`));
}

// The house rules a table may set: each option of the engine's with its values, the game's own first.
function renderHouseRules(root) {
  for (const option of houseOptions()) {
    root.append(el("dt", { text: t(`house.option.${option.name}`) }), el("dd", {}, el("ul", {},
      ...option.values.map((value) => el("li", { text: t(`house.value.${option.name}.${value}`) })))));
  }
}

function render() {
  for (const root of document.querySelectorAll("[data-render]")) {
    if (root.dataset.render === "position") continue; // a container: its parts render themselves
    if (root.dataset.render !== "judge-link") root.replaceChildren();
  }
  for (const root of document.querySelectorAll('[data-render="orders"]')) renderOrders(root);
  for (const root of document.querySelectorAll('[data-render="rank-table"]')) renderRankTable(root);
  for (const root of document.querySelectorAll('[data-render="belote"]')) renderBelote(root);
  for (const root of document.querySelectorAll('[data-render="house-rules"]')) renderHouseRules(root);
  for (const figure of document.querySelectorAll('[data-render="position"]')) {
    const position = POSITIONS[figure.dataset.position];
    renderBoard(figure.querySelector('[data-render="board"]'), position);
    figure.querySelector('[data-render="judge-link"]').href = positionLink(position);
  }
}

const select = document.getElementById("language");
await setLanguage(detectLanguage(), { remember: false });
languagePicker(select);
render();
onLanguageChange(render);
document.body.dataset.state = "ready";
