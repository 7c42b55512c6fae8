// The judge's position notation, read leniently for the editor: `trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s`.
//
// The same text as `coinche judge` and engine/coinche/position.py. This file knows only the notation,
// never a rule: the engine validates the text and rules on it. readPosition() keeps what it can read of a
// bad link and lists what it left out, so that a broken link still fills the editor.
//
//   readPosition("#trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s")
//     -> {trump: "h", trick: ["8h", "Ah", "7c"], hand: ["Jh", "Kd", "7s"], dropped: []}
//   formatPosition({trump: "h", trick: ["8h"], hand: ["Jh"]}) -> "trump=h&trick=8h&hand=Jh"

export const RANKS = "789TJQKA";
export const SUITS = "shdc";
export const TRICK_LIMIT = 3;
export const HAND_LIMIT = 8;
export const FIELDS = ["trump", "trick", "hand"];

const CARD = /^[789TJQKA][shdc]$/;

// All 32 cards in the canonical order of the engine (suit by suit, 7 up to A).
export const DECK = Array.from(SUITS, (s) => Array.from(RANKS, (r) => r + s)).flat();

export function isCard(text) {
  return CARD.test(text);
}

// The fragment (or query) as the engine should read it: no leading "#", percent-escapes decoded.
export function fragmentText(hash) {
  let text = String(hash ?? "");
  if (text.startsWith("#") || text.startsWith("?")) text = text.slice(1);
  try {
    text = decodeURIComponent(text);
  } catch {
    // a stray "%": leave the text as it is, the engine says what is wrong with it
  }
  return text.trim();
}

// What the editor can use of `text`; `dropped` lists each part left out: {what, text}, where `what` is
// "field" (unknown or repeated field, or a part without "="), "suit", "card", "duplicate" or "extra"
// (beyond 3 cards on the table or 8 in hand).
export function readPosition(hash) {
  const text = fragmentText(hash);
  const position = { trump: null, trick: [], hand: [], dropped: [] };
  const seenFields = new Set();
  const seenCards = new Set();
  for (const part of text ? text.split("&") : []) {
    const eq = part.indexOf("=");
    const name = eq < 0 ? "" : part.slice(0, eq);
    const value = eq < 0 ? "" : part.slice(eq + 1);
    if (!FIELDS.includes(name) || seenFields.has(name)) {
      if (part) position.dropped.push({ what: "field", text: part });
      continue;
    }
    seenFields.add(name);
    if (name === "trump") {
      if (value.length === 1 && SUITS.includes(value)) position.trump = value;
      else position.dropped.push({ what: "suit", text: value });
      continue;
    }
    const limit = name === "trick" ? TRICK_LIMIT : HAND_LIMIT;
    for (const token of value ? value.split(",") : []) {
      const card = token.trim();
      if (!isCard(card)) position.dropped.push({ what: "card", text: token });
      else if (seenCards.has(card)) position.dropped.push({ what: "duplicate", text: card });
      else if (position[name].length >= limit) position.dropped.push({ what: "extra", text: card });
      else {
        seenCards.add(card);
        position[name].push(card);
      }
    }
  }
  return position;
}

// The canonical text of an editor position; a field with nothing in it is still written (trump only
// when chosen), as `coinche judge` prints it.
export function formatPosition({ trump, trick, hand }) {
  const parts = [];
  if (trump) parts.push(`trump=${trump}`);
  parts.push(`trick=${trick.join(",")}`, `hand=${hand.join(",")}`);
  return parts.join("&");
}

export function isEmpty({ trump, trick, hand }) {
  return !trump && trick.length === 0 && hand.length === 0;
}

// Which seat plays next, from the number of cards on the table alone: 0 leads, 3 plays fourth. The
// partner's card, when there is one, is the second before the player's turn.
export function seatToMove(trick) {
  return trick.length;
}

export function partnerIndex(trick) {
  return trick.length >= 2 ? trick.length - 2 : null;
}
