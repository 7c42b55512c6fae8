// The history's entries and its JSON-lines file, as pure functions (no storage, no DOM): tested under Node
// (tests/js/history.test.mjs). The store itself is js/history.js.
//
// An entry (schema version ENTRY_VERSION) is one finished deal as the player saw it:
//
//   {v: 1, deal: identity, at: ms since 1970, seat: 0..3, level: "expert" | null, online: bool,
//    match: {id, number} | null, match_over: {winner: side, totals: [a, b]} | null,
//    record: a coinche-deal/2 record, review: {decisions, summary | null} | null}
//
// The file (export and import) holds one deal a line: its record as the engine wrote it, with the entry's
// other fields under "history" and the review under "review" (a record's extra keys, which `coinche replay`
// and `coinche review` read past), so the command line reads the file as it is. An online deal's record is
// the one the referee shows the player (isPublicRecord: without the deck), which the command line refuses.

export const ENTRY_VERSION = 1;
export const RECORD_FORMATS = ["coinche-deal/2", "coinche-deal/1"];
// A variant's name, as the records write it: which variants there are is the engine's to say (options.json),
// and a deal of a variant it does not play is refused by the engine when it is replayed or reviewed.
const VARIANT_NAME = /^[a-z]{1,16}$/;

// The deal's identity: two entries of the same deal (played once, imported twice) have the same one.
export function dealIdentity(record) {
  const cards = record.deck ?? (Array.isArray(record.hands) ? record.hands.join("/") : "");
  return [record.variant, record.rules ?? "", record.dealer, cards, record.calls.join(","), record.plays.join(",")].join("|");
}

// Whether a record is an online deal's as the referee shows it to a player (referee/PROTOCOL.md): no format
// and never the deck, so it cannot be replayed, but its calls, cards, hands and result count in the figures.
export function isPublicRecord(record) {
  return record.format === undefined && record.deck === undefined;
}

// What an entry's record must hold to be read: null when it does, else the error key.
export function recordProblem(record) {
  if (!record || typeof record !== "object" || Array.isArray(record)) return "progress.import.not_record";
  if (!RECORD_FORMATS.includes(record.format) && !isPublicRecord(record)) return "progress.import.bad_format";
  const result = record.result;
  const ok = typeof record.variant === "string" && VARIANT_NAME.test(record.variant)
    && Number.isInteger(record.dealer) && record.dealer >= 0 && record.dealer <= 3
    && (typeof record.deck === "string" || isPublicRecord(record))
    && Array.isArray(record.calls) && record.calls.every((c) => typeof c === "string")
    && Array.isArray(record.plays) && record.plays.every((c) => typeof c === "string")
    && result && typeof result === "object" && typeof result.void === "boolean"
    && Array.isArray(result.scores) && result.scores.length === 2 && result.scores.every(Number.isFinite);
  return ok ? null : "progress.import.bad_deal";
}

function reviewOrNull(review) {
  return review && typeof review === "object" && Array.isArray(review.decisions)
    && review.decisions.every((item) => item && typeof item === "object") ? review : null;
}

function seatOf(value) {
  return Number.isInteger(value) && value >= 0 && value <= 3 ? value : 0;
}

// A new entry for a deal just finished.
export function makeEntry({ record, seat, level = null, online = false, match = null, matchOver = null, review = null, at = Date.now() }) {
  return {
    v: ENTRY_VERSION, deal: dealIdentity(record), at, seat: seatOf(seat), level, online: Boolean(online),
    match, match_over: matchOver, record, review: reviewOrNull(review),
  };
}

// An entry as stored by this or an older version, in this version's form; null for what is not one (never
// thrown away by the store: it is kept as it is, and counted as unread). Version 0 had no `v`: a bare record
// with its extra keys ("history", "review"), the file's line.
export function migrateEntry(stored) {
  if (!stored || typeof stored !== "object") return null;
  if (stored.v === ENTRY_VERSION) return recordProblem(stored.record) ? null : stored;
  if (stored.v === undefined) return entryOfLine(stored).entry;
  return null; // a later version's: this one cannot read it
}

// ------------------------------------------------------------------ the file
// One entry as one line of the file.
export function entryLine(entry) {
  const { record, review, v, deal, ...history } = entry;
  const line = { ...record, history: { v, ...history } };
  delete line.history.id; // the store's own key
  if (review) line.review = review;
  return JSON.stringify(line);
}

export function exportText(entries) {
  return entries.map((entry) => `${entryLine(entry)}\n`).join("");
}

// A parsed line ({...record, history?, review?}) as {entry} or {error: key}.
function entryOfLine(value) {
  const problem = recordProblem(value);
  if (problem) return { error: problem };
  const { history: about, review, ...record } = value;
  const h = about && typeof about === "object" ? about : {};
  return {
    entry: makeEntry({
      record, review, seat: h.seat, level: typeof h.level === "string" ? h.level : null, online: h.online,
      match: h.match && typeof h.match === "object" && typeof h.match.id === "string" ? h.match : null,
      matchOver: h.match_over && [0, 1].includes(h.match_over.winner) ? h.match_over : null,
      at: Number.isFinite(h.at) ? h.at : 0,
    }),
  };
}

// The file's text read: {entries, errors: [{line, key}]}; a bad line is named and the others are read.
export function parseExport(text) {
  const entries = [];
  const errors = [];
  String(text).split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    let value;
    try {
      value = JSON.parse(raw);
    } catch {
      errors.push({ line: i + 1, key: "progress.import.not_json" });
      return;
    }
    const { entry, error } = entryOfLine(value);
    if (error) errors.push({ line: i + 1, key: error });
    else entries.push(entry);
  });
  return { entries, errors };
}
