// The page's notations, one parse/format pair per wire format, the same text as the engine's
// (engine/coinche/cards.py, calls.py, position.py) and the share link's. This module knows the notations
// only, never a rule: what is legal is always the engine's answer.
//
//   parseCard("Jh") -> {rank: "J", suit: "h"}               formatCard({rank: "J", suit: "h"}) -> "Jh"
//   parseCall("capots") -> {kind: "bid", value: 250, suit: "s"}   formatCall(...) -> "capots"
//   formatPosition({trump: "h", trick: ["8h"], hand: ["Jh"]}) -> "trump=h&trick=8h&hand=Jh"
//   formatShareLink({variant: "coinche", seed: "42", dealer: 3}, base) -> base's index.html#play=coinche&seed=42&dealer=3

// ------------------------------------------------------------------ cards
export const RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
export const SUITS = ["s", "h", "d", "c"];

const CARD = /^([789TJQKA])([shdc])$/;

// All 32 cards in the canonical order of the engine (suit by suit, 7 up to A).
export const DECK = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));

export const isCard = (text) => typeof text === "string" && CARD.test(text);
export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];

// {rank, suit} of a card's code, or null if `text` is not one.
export function parseCard(text) {
  const match = typeof text === "string" ? CARD.exec(text) : null;
  return match ? { rank: match[1], suit: match[2] } : null;
}

export function formatCard({ rank, suit }) {
  return rank + suit;
}

// ------------------------------------------------------------------ calls
// "pass", "coinche", "surcoinche", a bid as its value and suit ("80h" … "160c", capot as "capoth"; no trumps
// "90sa" and all trumps "120ta" where a table plays them, house rule contracts=all), and in the classic variant
// "takeh" (take hearts as trump). The value of a capot is CAPOT, as the engine counts it.
export const BID_VALUES = [80, 90, 100, 110, 120, 130, 140, 150, 160];
export const CAPOT = 250;
export const WORD_CALLS = ["pass", "coinche", "surcoinche"];

// The contracts without a trump suit, after the four suits: no trumps, all trumps.
export const CONTRACT_KINDS = ["sa", "ta"];

const SUITED_CALL = /^(80|82|90|1[0-6]0|capot|take)([shdc]|sa|ta)$/; // 82: a table that opens at 82

// {kind, value, suit} of a call's code: kind "pass", "coinche", "surcoinche", "bid" or "take"; value the
// bid's (0 unless a bid); suit its letter (null for a word). null if `text` is not a call.
export function parseCall(text) {
  if (WORD_CALLS.includes(text)) return { kind: text, value: 0, suit: null };
  const match = typeof text === "string" ? SUITED_CALL.exec(text) : null;
  if (!match) return null;
  if (match[1] === "take") return match[2].length === 1 ? { kind: "take", value: 0, suit: match[2] } : null;
  return { kind: "bid", value: match[1] === "capot" ? CAPOT : Number(match[1]), suit: match[2] };
}

export function formatCall({ kind, value = 0, suit = null }) {
  if (kind === "bid") return formatBidValue(value) + suit;
  if (kind === "take") return `take${suit}`;
  return kind;
}

// A bid's value as the call writes it: "90", or "capot".
export function formatBidValue(value) {
  return value === CAPOT ? "capot" : String(value);
}

// The parsed call if `text` is a bid (a value and a suit, capot included), else null.
export function parseBid(text) {
  const call = parseCall(text);
  return call?.kind === "bid" ? call : null;
}

// ------------------------------------------------------------------ positions (the judge's)
// `trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s`, as `coinche judge` and engine/coinche/position.py write it. The
// judge's editor reads one leniently (js/judge/notation.js readPosition, which keeps what it can of a bad
// link); this is the canonical text: a field with nothing in it is still written (trump only when chosen).
export function formatPosition({ trump, trick, hand }) {
  const parts = [];
  if (trump) parts.push(`trump=${trump}`);
  parts.push(`trick=${trick.join(",")}`, `hand=${hand.join(",")}`);
  return parts.join("&");
}

// The judge's page on a position (relative to the site's root).
export function positionLink(position) {
  return `judge.html#${formatPosition(position)}`;
}

// ------------------------------------------------------------------ share links
// index.html#play=coinche&seed=<deal seed>&dealer=<0-3>[&rules=<notation>]: a new match whose first deal has
// those cards (the seed and dealer of a deal: a state's deal_seed and deal.dealer), played by the house rules
// of `rules` when given (the engine reads them, or names the option it refuses). `base`: the page's address.
const SEED = /^\d{1,20}$/;

export function formatShareLink({ variant, seed, dealer, rules = null }, base) {
  const params = new URLSearchParams({ play: variant, seed: String(seed), dealer: String(dealer) });
  if (rules) params.set("rules", rules);
  return new URL(`index.html#${params}`, base).href;
}

// {variant, seed, dealer, rules} of a share link's fragment (rules: the notation, or null) ("#play=…"), or null if it is not one of a variant
// in `variants` (a missing dealer is seat 0).
export function parseShareLink(hash, variants) {
  const params = new URLSearchParams(String(hash ?? "").replace(/^#/, ""));
  const variant = params.get("play");
  const seed = params.get("seed") ?? "";
  const dealer = Number(params.get("dealer") ?? "0");
  if (!variants.includes(variant) || !SEED.test(seed) || ![0, 1, 2, 3].includes(dealer)) return null;
  return { variant, seed, dealer, rules: params.get("rules") };
}

// ------------------------------------------------------------------ what-if lines (a replay's branch)
// `whatif=<ply>:<move>[,<ply>:<move>…]&by=expert|dd` in a replay's fragment, as engine/coinche/whatif.py
// parse_line reads the line: at decision <ply> (0-based, the calls first, then the cards) the seat to act
// chooses <move> (a card or a call) instead; the plies increase. Whether a move is allowed is the engine's.
export const WHATIF_BY = ["expert", "dd"];
const MAX_POINTS = 64; // the engine's whatif.MAX_POINTS
const POINT = /^(\d{1,3}):(\S+)$/;

// [{ply, move}] of a line's text, or null if it is not one.
export function parseWhatIfLine(text) {
  if (typeof text !== "string" || !text) return null;
  const points = [];
  for (const part of text.split(",")) {
    const match = POINT.exec(part);
    if (!match || !(isCard(match[2]) || parseCall(match[2]))) return null;
    const ply = Number(match[1]);
    if (points.length && ply <= points[points.length - 1].ply) return null;
    points.push({ ply, move: match[2] });
  }
  return points.length <= MAX_POINTS ? points : null;
}

export function formatWhatIfLine(points) {
  return points.map(({ ply, move }) => `${ply}:${move}`).join(",");
}

// {line, by} of a fragment's branch ("#…&whatif=28:Jh&by=dd"; by defaults to expert), null when it names
// none, or {error} when it names one that does not read (the page says so and shows the plain replay).
export function parseWhatIf(hash) {
  const params = new URLSearchParams(String(hash ?? "").replace(/^#/, ""));
  const text = params.get("whatif");
  if (text === null) return null;
  const by = params.get("by") ?? "expert";
  const points = parseWhatIfLine(text);
  if (!points || !WHATIF_BY.includes(by)) return { error: text.slice(0, 24) };
  return { line: formatWhatIfLine(points), by };
}

// The fragment `hash` with its branch set to {line, by} (or removed when `branch` is null), its other
// parameters kept in their order.
export function formatWhatIf(branch, hash = "") {
  const params = new URLSearchParams(String(hash ?? "").replace(/^#/, ""));
  params.delete("whatif");
  params.delete("by");
  if (branch) {
    params.set("whatif", branch.line);
    params.set("by", branch.by);
  }
  const text = params.toString().replace(/%3A/g, ":").replace(/%2C/g, ",");
  return text ? `#${text}` : "";
}

// A deal of the player's history (js/history.js) opened on the game's page, from the progress page:
// `index.html#history=12` its replay, `#history=12&review=1` its review. parseHistoryLink reads the fragment as
// {id, review}, or null when it is no such link.
export function formatHistoryLink({ id, review = false }) {
  return `index.html#history=${id}${review ? "&review=1" : ""}`;
}

export function parseHistoryLink(hash) {
  const match = /^#history=([1-9]\d{0,15})(&review=1)?$/.exec(String(hash ?? ""));
  return match ? { id: Number(match[1]), review: Boolean(match[2]) } : null;
}
