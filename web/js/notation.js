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
export const ALL_CARDS = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));

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

// ------------------------------------------------------------------ the deal of the day and challenges
// `index.html#daily=2026-12-05`: that day's set of deals (the engine's `daily`, from the UTC date alone).
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

// Whether `text` is a calendar day written YYYY-MM-DD (2026-02-30 is not).
export function isDay(text) {
  const match = typeof text === "string" ? DAY.exec(text) : null;
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

export function formatDailyLink(day) {
  return `index.html#daily=${day}`;
}

// The day of a `#daily=` fragment, or null when it is no such link.
export function parseDailyLink(hash) {
  const match = /^#daily=(.*)$/.exec(String(hash ?? ""));
  return match && isDay(match[1]) ? match[1] : null;
}

// A challenge: the deals a player played, for a friend to play the same cards in the same seat against the
// same bots, with the results of who played them already (the challenger's, then whoever sends theirs back):
//
//   index.html#challenge=1&day=2026-12-05&d=<seed>~<dealer>~<level>~<rules>&d=…&p=Ann&r=34:12.5,-12:-&p=…&r=…
//
// challenge: the notation's version (CHALLENGE_VERSION; a later one is refused, "newer"); day: the deal of
// the day's date when the deals are that day's set (optional); d: one per deal, in order, its deal seed,
// dealer (0-3), the bots' level and the rules' notation (the engine's; whether it knows them is its to say);
// p and r: one pair per player, the name (may be empty) and, per deal, the score of the player's side and the
// par ("-" when not yet known). The player sits in seat 0, as in a shared deal.
export const CHALLENGE_VERSION = 1;
export const CHALLENGE_LIMITS = { deals: 4, players: 4, name: 24, rules: 120 };
const LEVEL = /^[a-z]{1,16}$/;
const DEAL_SEED = /^[\w.-]{1,48}$/; // a shared deal's digits, or a deal of the day's seed
const SCORE = /^-?\d{1,5}$/;
const PAR = /^(-|-?\d{1,5}(\.\d)?)$/;

// A player's name as a link carries it: no control characters, spaces folded, at most `name` characters.
export function cleanPlayerName(text) {
  return String(text ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").replace(/\s+/g, " ").trim().slice(0, CHALLENGE_LIMITS.name).trim();
}

// A par as the link writes it: one decimal, "-" when unknown.
export function formatPar(par) {
  return Number.isFinite(par) ? String(Math.round(par * 10) / 10) : "-";
}

// `challenge`: {day?, deals: [{seed, dealer, level, rules}], players: [{name, results: [{score, par}]}]};
// `base`: the page's address.
export function formatChallengeLink({ day = null, deals, players = [] }, base) {
  const params = new URLSearchParams({ challenge: String(CHALLENGE_VERSION) });
  if (day) params.set("day", day);
  for (const { seed, dealer, level, rules } of deals) params.append("d", [seed, dealer, level, rules].join("~"));
  for (const { name, results } of players) {
    params.append("p", cleanPlayerName(name));
    params.append("r", results.map(({ score, par }) => `${Math.round(score)}:${formatPar(par)}`).join(","));
  }
  return new URL(`index.html#${params}`, base).href;
}

// The challenge of a fragment ("#challenge=…") as formatChallengeLink takes it (par null when unknown); null
// when the fragment is no challenge; {error: "malformed"} when it is one that does not read, {error: "newer"}
// when a later version wrote it. Which rules the engine plays is not checked here.
export function parseChallengeLink(hash) {
  const params = new URLSearchParams(String(hash ?? "").replace(/^#/, ""));
  const version = params.get("challenge");
  if (version === null) return null;
  if (!/^[1-9]\d{0,5}$/.test(version)) return { error: "malformed" };
  if (Number(version) > CHALLENGE_VERSION) return { error: "newer" };
  const malformed = { error: "malformed" };
  const day = params.get("day");
  if (day !== null && !isDay(day)) return malformed;
  const deals = [];
  for (const text of params.getAll("d")) {
    const [seed, dealer, level, ...rest] = text.split("~");
    const rules = rest.join("~");
    if (!DEAL_SEED.test(seed ?? "") || !/^[0-3]$/.test(dealer ?? "") || !LEVEL.test(level ?? "")) return malformed;
    if (!rules || rules.length > CHALLENGE_LIMITS.rules || /\s/.test(rules)) return malformed;
    deals.push({ seed, dealer: Number(dealer), level, rules });
  }
  const names = params.getAll("p");
  const rows = params.getAll("r");
  if (!deals.length || deals.length > CHALLENGE_LIMITS.deals || names.length !== rows.length
      || names.length > CHALLENGE_LIMITS.players) return malformed;
  const players = [];
  for (let i = 0; i < names.length; i++) {
    const results = [];
    for (const item of rows[i].split(",")) {
      const [score, par, ...extra] = item.split(":");
      if (extra.length || !SCORE.test(score ?? "") || !PAR.test(par ?? "")) return malformed;
      results.push({ score: Number(score), par: par === "-" ? null : Number(par) });
    }
    if (results.length !== deals.length) return malformed;
    players.push({ name: cleanPlayerName(names[i]), results });
  }
  return { day, deals, players };
}

// The identity of a challenge's deals: two links of the same deals (a challenge and its answer) share it.
export function challengeKey(deals) {
  return deals.map(({ seed, dealer, level, rules }) => [seed, dealer, level, rules].join("~")).join("|");
}
