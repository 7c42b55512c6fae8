// Cards as DOM: a face with corner indices and real pip layouts, a back, and the hand's sort order.
// Cards are canonical codes ("Jh", "Td"); names come from the catalogue (cardName).
import { cardName, t } from "../i18n.js";

export const SUITS = ["s", "h", "d", "c"];
const RED = new Set(["h", "d"]);
const TRUMP_ORDER = "J9ATKQ87";
const PLAIN_ORDER = "ATKQJ987";

export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];
export const isRed = (suit) => RED.has(suit);

// Pip positions (x %, y %) on the face for the number cards; pips below the middle are turned over.
const PIPS = {
  7: [[28, 12], [72, 12], [50, 31], [28, 50], [72, 50], [28, 88], [72, 88]],
  8: [[28, 12], [72, 12], [50, 31], [28, 50], [72, 50], [50, 69], [28, 88], [72, 88]],
  9: [[28, 12], [72, 12], [28, 37], [72, 37], [50, 50], [28, 63], [72, 63], [28, 88], [72, 88]],
  T: [[28, 12], [72, 12], [50, 24], [28, 37], [72, 37], [28, 63], [72, 63], [50, 76], [28, 88], [72, 88]],
};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A suit symbol (an SVG drawn in web/img, set by CSS from data-suit); decorative unless labelled.
export function suitIcon(suit, label = false) {
  const icon = el("span", "suit-icon");
  icon.dataset.suit = suit;
  if (label) {
    icon.setAttribute("role", "img");
    icon.setAttribute("aria-label", t(`suit.${suit}`));
  } else {
    icon.setAttribute("aria-hidden", "true");
  }
  return icon;
}

function corner(card, where) {
  const box = el("span", `corner ${where}`);
  box.append(el("span", "index", t(`rank.short.${rankOf(card)}`)), suitIcon(suitOf(card)));
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
  } else {
    // A court card: a framed panel, the letter and the suit twice, head to foot.
    const panel = el("span", "court");
    for (const half of ["top", "bottom"]) {
      const part = el("span", `court-half ${half}`);
      part.append(el("span", "court-letter", t(`rank.short.${rank}`)), suitIcon(suit));
      panel.append(part);
    }
    body.append(panel);
  }
  return body;
}

// A face-up card; tag "button" for a card of the player's hand.
export function buildCard(card, tag = "div") {
  const node = el(tag, "card");
  node.dataset.card = card;
  node.dataset.suit = suitOf(card);
  node.dataset.rank = rankOf(card);
  node.classList.add(isRed(suitOf(card)) ? "red" : "black");
  if (tag === "button") node.type = "button";
  node.setAttribute("aria-label", cardName(card));
  node.append(corner(card, "tl"), face(card), corner(card, "br"));
  return node;
}

export function buildBack() {
  const node = el("div", "card back");
  node.setAttribute("aria-hidden", "true");
  return node;
}

// The hand's order: suits grouped, black and red alternating as far as the suits held allow, trumps
// first in trump order (J 9 A T K Q 8 7), other suits strongest first (A T K Q J 9 8 7).
export function sortHand(hand, trump = null) {
  const held = SUITS.filter((s) => hand.some((c) => suitOf(c) === s));
  const order = bestSuitOrder(held, trump);
  const strength = (card) => (suitOf(card) === trump ? TRUMP_ORDER : PLAIN_ORDER).indexOf(rankOf(card));
  return [...hand].sort((a, b) => order.indexOf(suitOf(a)) - order.indexOf(suitOf(b)) || strength(a) - strength(b));
}

function bestSuitOrder(suits, trump) {
  let best = null;
  let bestScore = Infinity;
  for (const order of permutations(suits)) {
    let score = 0;
    for (let i = 1; i < order.length; i++) if (isRed(order[i]) === isRed(order[i - 1])) score += 10;
    if (trump && suits.includes(trump) && order[0] !== trump) score += 5;
    score += order.reduce((sum, s, i) => sum + (SUITS.indexOf(s) !== i ? 0.1 : 0), 0);
    if (score < bestScore) { best = order; bestScore = score; }
  }
  return best ?? [];
}

function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}
