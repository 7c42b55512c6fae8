// Cards as DOM: a face with corner indices and real pip layouts, a back, and the hand's sort order.
// Cards are canonical codes ("Jh", "Td"); names come from the catalogue (cardName).
//
// Two deck styles (the setting "deck"): "illustrated", the French portraits of David Bellot's SVG-cards
// (LGPL, cut at build time into img/cards/ by tools/card_art.py: a court's figure, the four suit shapes,
// the back), and "simple", lettered courts. Either way the corner indices are the page's own, in the
// reader's language, and every suit is drawn in the colour of its CSS custom property (--suit-s ... --suit-c).
import { el } from "../dom.js";
import { cardName, t } from "../i18n.js";
import { SUITS, rankOf, suitOf } from "../notation.js";

const RED = new Set(["h", "d"]);

export const isRed = (suit) => RED.has(suit);

export const DECK_STYLES = ["illustrated", "simple"];
let deckStyle = DECK_STYLES[0];

// The style the cards drawn from now on take (restyleCards redraws those drawn before).
export function setDeckStyle(style) {
  deckStyle = DECK_STYLES.includes(style) ? style : DECK_STYLES[0];
  document.documentElement.dataset.deck = deckStyle;
}

const COURTS = new Set(["J", "Q", "K"]);
const artURL = (name) => new URL(`img/cards/${name}.svg`, document.baseURI).href;
// What every illustrated card may show besides its court figure: the suit shapes of the pips, the back.
const SHARED_ART = ["suit-s", "suit-h", "suit-d", "suit-c", "back"];
const loaded = new Map(); // url -> {image, ready}: kept, so that the browser keeps them decoded

function loadImage(url) {
  if (!loaded.has(url)) {
    const image = new Image();
    image.src = url;
    loaded.set(url, { image, ready: image.decode().catch(() => {}) }); // missing art: the card shows without
  }
  return loaded.get(url).ready;
}

// Resolves once the art these cards need (their court figures and the shared shapes) is loaded and decoded,
// in the illustrated style (at once in the simple one): a hand drawn then shows its art in its first frame,
// never a card first drawn empty. Art once loaded stays loaded: loadArt(ALL_CARDS) readies every later deal's.
export function loadArt(cards) {
  if (deckStyle !== "illustrated") return Promise.resolve();
  const courts = new Set(cards.filter((card) => COURTS.has(rankOf(card))));
  return Promise.all([...SHARED_ART, ...courts].map((name) => loadImage(artURL(name)))).then(() => {});
}

// Pip positions (x %, y %) on the face for the number cards; pips below the middle are turned over.
const PIPS = {
  7: [[28, 12], [72, 12], [50, 31], [28, 50], [72, 50], [28, 88], [72, 88]],
  8: [[28, 12], [72, 12], [50, 31], [28, 50], [72, 50], [50, 69], [28, 88], [72, 88]],
  9: [[28, 12], [72, 12], [28, 37], [72, 37], [50, 50], [28, 63], [72, 63], [28, 88], [72, 88]],
  T: [[28, 12], [72, 12], [50, 24], [28, 37], [72, 37], [28, 63], [72, 63], [50, 76], [28, 88], [72, 88]],
};

// A suit symbol (an SVG drawn in web/img, set by CSS from data-suit); decorative unless labelled. No trumps
// and all trumps (a contract's "sa" and "ta") have no symbol: their short name in the reader's language.
export function suitIcon(suit, label = false) {
  const word = suit === "sa" || suit === "ta";
  const icon = el("span", word ? { class: "suit-icon suit-word", text: t(`suit.short.${suit}`) } : "suit-icon");
  icon.dataset.suit = suit;
  if (label) {
    icon.setAttribute("role", "img");
    icon.setAttribute("aria-label", t(`suit.${suit}`));
  } else {
    icon.setAttribute("aria-hidden", "true");
  }
  return icon;
}

// A rank's letter in the reader's language, drawn by CSS from data-letter: the card's name (aria-label)
// says the rank in words, and a letter in the text would not match it.
function letter(className, rank) {
  const node = el("span", className);
  node.dataset.letter = t(`rank.short.${rank}`);
  return node;
}

function corner(card, where) {
  const box = el("span", `corner ${where}`);
  box.setAttribute("aria-hidden", "true"); // the card's name says it
  box.append(letter("index", rankOf(card)), suitIcon(suitOf(card)));
  return box;
}

function face(card) {
  const rank = rankOf(card);
  const suit = suitOf(card);
  const body = el("span", "face");
  body.setAttribute("aria-hidden", "true");
  if (PIPS[rank]) {
    for (const [x, y] of PIPS[rank]) {
      const pip = el("span", y > 50 ? "pip down" : "pip");
      pip.dataset.suit = suit;
      pip.style.left = `${x}%`;
      pip.style.top = `${y}%`;
      body.append(pip);
    }
  } else if (rank === "A") {
    const pip = el("span", "pip ace");
    pip.dataset.suit = suit;
    body.append(pip);
  } else if (deckStyle === "illustrated") {
    // A court card: its figure, head to foot in its frame, with the suit's mark at two corners.
    const panel = el("span", "court");
    const figure = el("img", { class: "court-art", src: artURL(card), alt: "", draggable: "false" });
    panel.append(figure, suitMark("top", suit), suitMark("bottom", suit));
    body.append(panel);
  } else {
    // A court card: a framed panel, the letter and the suit twice, head to foot.
    const panel = el("span", "court");
    for (const half of ["top", "bottom"]) {
      const part = el("span", `court-half ${half}`);
      part.append(letter("court-letter", rank), suitIcon(suit));
      panel.append(part);
    }
    body.append(panel);
  }
  return body;
}

function suitMark(where, suit) {
  const mark = el("span", `court-mark ${where}`);
  mark.dataset.suit = suit;
  return mark;
}

// A face-up card; tag "button" for a card of the player's hand.
export function buildCard(card, tag = "div") {
  const node = el(tag, "card");
  node.dataset.card = card;
  node.dataset.suit = suitOf(card);
  node.dataset.rank = rankOf(card);
  node.classList.add(isRed(suitOf(card)) ? "red" : "black");
  if (deckStyle === "illustrated") node.classList.add("art");
  if (tag === "button") node.type = "button";
  else node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(card));
  node.append(corner(card, "tl"), face(card), corner(card, "br"));
  return node;
}

export function buildBack() {
  const node = el("div", deckStyle === "illustrated" ? "card back art" : "card back");
  node.setAttribute("aria-hidden", "true");
  return node;
}

// The hand's order, as players sort it: suits grouped; once the trump is known (or null), the trumps stand
// together at the left in trump order; the other suits, strongest first, with black and red alternating as
// far as the suits held allow (across the trumps' edge too). `cards` holds the engine's orders, strongest
// first, as options.cards has them ({trump: [[rank, points], …], plain: […]}: J 9 A T K Q 8 7 in trump,
// A T K Q J 9 8 7 otherwise); the callers pass options.cards, so this module reads no file of its own.
export function sortHand(hand, trump, cards) {
  const held = SUITS.filter((s) => hand.some((c) => suitOf(c) === s));
  const order = trump && held.includes(trump)
    ? [trump, ...alternating(held.filter((s) => s !== trump), trump)]
    : alternating(held, null);
  const trumpOrder = cards.trump.map(([rank]) => rank);
  const plainOrder = cards.plain.map(([rank]) => rank);
  const strength = (card) => (suitOf(card) === trump ? trumpOrder : plainOrder).indexOf(rankOf(card));
  return [...hand].sort((a, b) => order.indexOf(suitOf(a)) - order.indexOf(suitOf(b)) || strength(a) - strength(b));
}

// The order of `suits` with the fewest neighbours of one colour (after `before`, a suit or null); among
// equals, the nearest to the order of SUITS.
function alternating(suits, before) {
  let best = [];
  let bestScore = Infinity;
  for (const order of permutations(suits)) {
    const row = before ? [before, ...order] : order;
    let score = 0;
    for (let i = 1; i < row.length; i++) if (isRed(row[i]) === isRed(row[i - 1])) score += 10;
    score += order.reduce((sum, s, i) => sum + (SUITS.indexOf(s) !== i ? 0.1 : 0), 0);
    if (score < bestScore) { best = order; bestScore = score; }
  }
  return best;
}

function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

// The language changed: every card under `root` takes the new rank letters and names (the cards are not
// drawn again, so that nothing moves).
export function relabelCards(root) {
  for (const node of root.querySelectorAll(".card[data-card]")) {
    const card = node.dataset.card;
    for (const shown of node.querySelectorAll(".index, .court-letter")) shown.dataset.letter = t(`rank.short.${rankOf(card)}`);
    node.setAttribute("aria-label", cardName(card));
  }
  for (const icon of root.querySelectorAll(".suit-icon[role=img]")) icon.setAttribute("aria-label", t(`suit.${icon.dataset.suit}`));
}

// The deck style changed: every card under `root` drawn again in it, in place (its classes, its focus and its
// place in the hand kept).
export function restyleCards(root) {
  for (const node of root.querySelectorAll(".card[data-card]")) {
    const card = node.dataset.card;
    node.classList.toggle("art", deckStyle === "illustrated");
    node.replaceChildren(corner(card, "tl"), face(card), corner(card, "br"));
  }
  for (const node of root.querySelectorAll(".card.back")) node.classList.toggle("art", deckStyle === "illustrated");
}
