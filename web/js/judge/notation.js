// The judge's position notation, read leniently for the editor: `trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s`.
//
// The same text as `coinche judge` and engine/coinche/position.py. This file knows only the notation,
// never a rule: the engine validates the text and rules on it. readPosition() keeps what it can read of a
// bad link and lists what it left out, so that a broken link still fills the editor.
//
//   readPosition("trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s", options.position)
//     -> {trump: "h", trick: ["8h", "Ah", "7c"], hand: ["Jh", "Kd", "7s"], dropped: [], tooLong: null}
// Its canonical text is js/notation.js formatPosition. The limits are the engine's (js/options.js
// options.position: {trick, hand, max_length}), never written here.

import { excerpt, EXCERPT } from "../errors.js";
import { CONTRACT_KINDS, SUITS, isCard } from "../notation.js";

export const FIELDS = ["trump", "trick", "hand"];

// The position a link's fragment (or query) holds, read as the engine reads it (coinche.position.link_text,
// for the judge page and `coinche judge` alike): the spaces around and a leading "#" or "?" left out, the
// percent-escapes decoded once (all or none, as decodeURIComponent), then a leading mark left out again, so
// that `#%23trump=h&hand=Jh` reads as `trump=h&hand=Jh`. tests/test_engine_options.py holds the two together.
export function fragmentText(hash) {
  let text = withoutMark(String(hash ?? ""));
  try {
    text = decodeURIComponent(text);
  } catch {
    // a stray "%" or bytes that are not UTF-8: read as written, the engine says what is wrong with it
  }
  return withoutMark(text);
}

function withoutMark(text) {
  const trimmed = text.trim();
  return trimmed.startsWith("#") || trimmed.startsWith("?") ? trimmed.slice(1) : trimmed;
}

// What the editor can use of `text`, the notation as written (already read by fragmentText when it came
// from a URL: it is never decoded again, so `%254Ah` in a link is the card `%4Ah`, as
// `coinche judge` reads it). `dropped` lists each part left out: {what, text}, where `what` is
// "field" (unknown or repeated field, or a part without "="), "trump", "card", "duplicate" or "extra"
// (beyond 3 cards on the table or 8 in hand). `droppedCount` counts them all; `dropped` keeps the first
// DROPPED_KEPT different ones. A link is read up to READ_LIMIT characters (no position is longer than
// about 70): the parts beyond are counted, not read, so that a huge link costs no more than a short one.
// `tooLong` is {length, limit} when the text is longer than the engine reads (`max_length`, counted after
// fragmentText's reading, as coinche.position counts): the engine would refuse it as position_too_long before reading
// anything, so the page says so without asking it.
export const DROPPED_KEPT = 5;
export const READ_LIMIT = 2000;

export function readPosition(notation, { trick: trickLimit, hand: handLimit, max_length: maxLength }) {
  let text = String(notation ?? "").trim();
  const { length } = text;
  const tooLong = length > maxLength ? { length, limit: maxLength } : null;
  const position = { trump: null, trick: [], hand: [], dropped: [], droppedCount: 0, tooLong };
  if (text.length > READ_LIMIT) {
    const last = Math.max(text.lastIndexOf("&", READ_LIMIT), text.lastIndexOf(",", READ_LIMIT));
    const cut = last > 0 ? last : READ_LIMIT; // at a separator, else inside one huge part
    let separators = 0;
    for (let i = cut + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 38 || c === 44) separators += 1; // "&" or ","
    }
    position.droppedCount = separators + (last > 0 ? 1 : 0);
    text = text.slice(0, cut);
  }
  const told = new Set(); // what was dropped, listed once however often it repeats
  const drop = (what, part) => {
    position.droppedCount += 1;
    if (position.dropped.length >= DROPPED_KEPT) return;
    const key = `${what} ${part.length > 2 * EXCERPT ? part.slice(0, 2 * EXCERPT) : part}`;
    if (told.has(key)) return;
    told.add(key);
    position.dropped.push({ what, text: excerpt(part) });
  };
  const seenFields = new Set();
  const seenCards = new Set();
  for (const part of text ? text.split("&") : []) {
    const eq = part.indexOf("=");
    const name = eq < 0 ? "" : part.slice(0, eq);
    const value = eq < 0 ? "" : part.slice(eq + 1);
    if (!FIELDS.includes(name) || seenFields.has(name)) {
      if (part) drop("field", part);
      continue;
    }
    seenFields.add(name);
    if (name === "trump") {
      if (SUITS.includes(value) || CONTRACT_KINDS.includes(value)) position.trump = value; // sa, ta: contracts=all
      else drop("trump", value);
      continue;
    }
    const limit = name === "trick" ? trickLimit : handLimit;
    for (const token of value ? value.split(",") : []) {
      const card = token.trim();
      if (!isCard(card)) drop("card", token);
      else if (seenCards.has(card)) drop("duplicate", card);
      else if (position[name].length >= limit) drop("extra", card);
      else {
        seenCards.add(card);
        position[name].push(card);
      }
    }
  }
  return position;
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
