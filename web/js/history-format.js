// The history's entries and its JSON-lines file, as pure functions (no storage, no DOM): tested under Node
// (tests/js/history.test.mjs). The store itself is js/history.js.
//
// An entry (schema version ENTRY_VERSION) is one finished deal as the player saw it:
//
//   {v: 2, deal: identity, at: ms since 1970, seat: 0..3, level: "expert" | null, online: bool,
//    match: {id, number} | null, match_over: {winner: side, totals: [a, b]} | null,
//    record: a coinche-deal/2 record, review: {decisions, summary | null} | null,
//    checked: true | false | {key, params}, par: null | {scores: [..]} | {par, result, difference, k, stderr} | {failed: key}}
//
// checked: the engine's word on the record: true once it has read it (a deal played here, or an imported line
// it accepted: coinche.webcommands check_records), false until it has, or the reason it refused it (kept, never
// dropped, but counted in no figure and given no par, as an unchecked one).
// par: the Expert's par of the deal from the player's seat (js/table/background-pars.js): the replays'
// scores while they are made (K in all, par_plan), then the engine's par_summary; {failed} for a record the
// engine would not replay. Version 1 had neither: migrated as unchecked (its lines may have been imported
// before the engine checked imports), without a par.
//
// The file (export and import) holds one deal a line: its record as the engine wrote it, with the entry's
// other fields under "history" and the review under "review" (a record's extra keys, which `coinche replay`
// and `coinche review` read past), so the command line reads the file as it is. An online deal's record is
// the one the referee shows the player (isPublicRecord: without the deck), which the command line refuses.

export const ENTRY_VERSION = 2;
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

function checkedOf(checked) {
  if (checked === true || checked === false) return checked;
  return checked && typeof checked === "object" && typeof checked.key === "string"
    ? { key: checked.key, params: checked.params && typeof checked.params === "object" ? checked.params : {} } : false;
}

// A par as the engine's par_summary gives it, or null.
export function finishedPar(par) {
  return par && typeof par === "object" && ["par", "result", "difference", "k", "stderr"].every((key) => Number.isFinite(par[key]))
    && par.k > 0 ? { par: par.par, result: par.result, difference: par.difference, k: par.k, stderr: par.stderr } : null;
}

// An entry's par as stored: finished, replays under way (their scores), failed, or null.
function parOrNull(par) {
  if (!par || typeof par !== "object") return null;
  if (Array.isArray(par.scores) && par.scores.every(Number.isFinite)) return { scores: par.scores };
  if (typeof par.failed === "string") return { failed: par.failed };
  return finishedPar(par);
}

// A new entry for a deal just finished (checked: a deal the engine played; an imported line is not, until
// the engine has read it).
export function makeEntry({
  record, seat, level = null, online = false, match = null, matchOver = null, review = null, at = Date.now(),
  checked = true, par = null,
}) {
  return {
    v: ENTRY_VERSION, deal: dealIdentity(record), at, seat: seatOf(seat), level, online: Boolean(online),
    match, match_over: matchOver, record, review: reviewOrNull(review), checked: checkedOf(checked), par: parOrNull(par),
  };
}

// Whether an entry counts in the figures: one the engine has read and accepted.
export function counted(entry) {
  return entry.checked === true || entry.checked === undefined;
}

// Who sat in each seat of an entry's deal, as the engine's par needs it: the record's own "seats", else (a
// record kept before records said it) the person in the entry's seat and its level's bots in the others; null
// when neither tells (an imported line of `coinche simulate` without a level).
export function seatsOf(entry) {
  const seats = entry.record.seats;
  if (Array.isArray(seats) && seats.length === 4 && seats.every((s) => typeof s === "string")) return seats;
  if (typeof entry.level !== "string" || entry.online) return null;
  return [0, 1, 2, 3].map((seat) => (seat === entry.seat ? "person" : entry.level));
}

// Whether the Expert's par of an entry is yet to be made: a solo deal the engine has read, not done, not failed.
export function wantsPar(entry) {
  const par = entry.par;
  return counted(entry) && !entry.online && entry.record.deck !== undefined && seatsOf(entry) !== null
    && !(par && (par.failed || finishedPar(par)));
}

// An entry as stored by this or an older version, in this version's form; null for what is not one (never
// thrown away by the store: it is kept as it is, and counted as unread). Version 0 had no `v`: a bare record
// with its extra keys ("history", "review"), the file's line.
export function migrateEntry(stored) {
  if (!stored || typeof stored !== "object") return null;
  if (stored.v === ENTRY_VERSION) return recordProblem(stored.record) ? null : stored;
  if (stored.v === 1) return recordProblem(stored.record) ? null : { ...stored, v: ENTRY_VERSION, checked: false, par: null };
  if (stored.v === undefined) return entryOfLine(stored).entry;
  return null; // a later version's: this one cannot read it
}

// ------------------------------------------------------------------ the file
// One entry as one line of the file.
export function entryLine(entry) {
  const { record, review, v, deal, checked, par, ...history } = entry;
  const line = { ...record, history: { v, ...history } };
  delete line.history.id; // the store's own key
  if (finishedPar(par)) line.history.par = finishedPar(par);
  if (review) line.review = review;
  return JSON.stringify(line);
}

export function exportText(entries) {
  return entries.map((entry) => `${entryLine(entry)}\n`).join("");
}

// A parsed line ({...record, history?, review?}) as {entry} or {error: key}: not checked by the engine yet;
// its finished par kept (a par under way is made again).
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
      at: Number.isFinite(h.at) ? h.at : 0, checked: false, par: finishedPar(h.par),
    }),
  };
}

// The file's text read: {entries, errors: [{line, key}], lines: each entry's line number}; a bad line is named
// and the others are read.
export function parseExport(text) {
  const entries = [];
  const errors = [];
  const lines = [];
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
    if (error) {
      errors.push({ line: i + 1, key: error });
    } else {
      entries.push(entry);
      lines.push(i + 1);
    }
  });
  return { entries, errors, lines };
}
