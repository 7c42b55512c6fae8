// The history's entries and its file (web/js/history-format.js) without a browser: an entry written to a line
// reads back the same, a bad line is named with its error key while the good ones are read, an older
// version's entry is migrated and a later version's is left unread.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ENTRY_VERSION, counted, dealIdentity, entryLine, exportText, finishedPar, makeEntry, migrateEntry, parseExport,
  recordProblem, seatsOf, wantsPar,
} from "../../web/js/history-format.js";

// A deal as `coinche simulate --deals 1 --seed 3` writes it.
const RECORD = {
  format: "coinche-deal/2", variant: "coinche", rules: "own", dealer: 0,
  deck: "Th,Qd,7c,Jd,7s,Ks,9h,8s,Ad,Js,Qc,Jh,9s,9c,Qh,7h,Qs,Kc,7d,Kd,Td,Ah,8c,8h,9d,Jc,Ac,8d,As,Tc,Ts,Kh",
  hands: ["Ts,Js,Jh,Kh,7d,Kd,Tc,Qc", "9s,Th,Ah,Td,Qd,7c,8c,9c", "7s,Ks,7h,8h,Qh,9d,Jd,Jc", "8s,Qs,As,9h,8d,Ad,Kc,Ac"],
  turned: null, calls: ["pass", "pass", "pass", "80h", "pass", "140c", "pass", "pass", "pass"],
  plays: ["9s", "7s", "As", "Js", "Kc", "Tc", "9c", "Jc", "9d", "8d", "Kd", "Td", "Qd", "Jd", "Ad", "7d", "8s", "Ts", "8c",
    "Ks", "7c", "8h", "Ac", "Qc", "9h", "Jh", "Ah", "7h", "Th", "Qh", "Qs", "Kh"],
  result: { void: false, contract: { declarer: 2, trump: "c", value: 140, multiplier: 1 }, cards: [48, 114], belote: null,
    tricks: [1, 7], made: false, scores: [0, 302] },
  seed: "4600502960833644624",
};

const REVIEW = {
  decisions: [{ index: 0, seat: 1, kind: "call", type: "pass", action: "pass", loss: 25, mark: "inaccuracy" }],
  summary: { decisions: 1, lost: 25, marks: { inaccuracy: 1, mistake: 0, blunder: 0 }, luck: { unlucky: 0, lucky: 0 } },
};

const other = (dealer) => ({ ...RECORD, dealer });

test("an entry written as a line of the file reads back the same, its review and match with it", () => {
  const entry = makeEntry({
    record: RECORD, seat: 1, level: "expert", online: false, match: { id: "m1", number: 3 },
    matchOver: { winner: 1, totals: [480, 1010] }, review: REVIEW, at: 1_700_000_000_000,
  });
  assert.equal(entry.v, ENTRY_VERSION);
  const line = JSON.parse(entryLine(entry));
  assert.equal(line.format, "coinche-deal/2"); // the record itself: `coinche replay` reads the line
  assert.equal(line.history.level, "expert");
  assert.deepEqual(line.review, REVIEW);
  const { entries, errors } = parseExport(exportText([entry, makeEntry({ record: other(2), seat: 0, at: 5 })]));
  assert.deepEqual(errors, []);
  assert.deepEqual(entries[0], { ...entry, checked: false }); // read from a file: the engine is yet to check it
  assert.equal(entries[1].review, null);
  assert.equal(entries[1].deal, dealIdentity(other(2)));
});

test("a file with bad lines: the good ones read, each bad one named by its line and error key", () => {
  const good = entryLine(makeEntry({ record: RECORD, seat: 0, at: 1 }));
  const text = [
    good,
    "{not json",
    "",
    JSON.stringify([1, 2]),
    JSON.stringify({ ...RECORD, format: "coinche-deal/9" }),
    JSON.stringify({ ...RECORD, dealer: 7 }),
    JSON.stringify({ ...RECORD, result: { void: false } }),
    entryLine(makeEntry({ record: other(3), seat: 2, at: 2 })),
  ].join("\n");
  const { entries, errors } = parseExport(text);
  assert.deepEqual(entries.map((e) => [e.record.dealer, e.seat]), [[0, 0], [3, 2]]);
  assert.deepEqual(errors, [
    { line: 2, key: "progress.import.not_json" },
    { line: 4, key: "progress.import.not_record" },
    { line: 5, key: "progress.import.bad_format" },
    { line: 6, key: "progress.import.bad_deal" },
    { line: 7, key: "progress.import.bad_deal" },
  ]);
});

test("a line of `coinche simulate` (no history, no review) imports as seat 0's deal", () => {
  const { entries, errors } = parseExport(`${JSON.stringify(RECORD)}\n`);
  assert.deepEqual(errors, []);
  assert.equal(entries[0].seat, 0);
  assert.equal(entries[0].level, null);
  assert.equal(entries[0].review, null);
  assert.deepEqual(entries[0].record, RECORD);
});

test("an older version's entry is migrated, a later version's left unread, a bad review dropped", () => {
  const old = { ...RECORD, history: { seat: 2, level: "normal", at: 9 }, review: REVIEW }; // version 0: the line
  const migrated = migrateEntry(old);
  assert.equal(migrated.v, ENTRY_VERSION);
  assert.equal(migrated.seat, 2);
  assert.deepEqual(migrated.review, REVIEW);
  assert.equal(migrateEntry({ v: ENTRY_VERSION + 1, anything: true }), null);
  assert.equal(migrateEntry("text"), null);
  const current = makeEntry({ record: RECORD, seat: 1, review: { decisions: "nope" } });
  assert.equal(current.review, null);
  assert.equal(migrateEntry(current), current);
  assert.equal(recordProblem(RECORD), null);
  assert.equal(recordProblem({ ...RECORD, plays: "Jh" }), "progress.import.bad_deal");
  for (const variant of [undefined, "", 3, "Coinche", "coinche<b>", "x".repeat(17)]) {
    assert.equal(recordProblem({ ...RECORD, variant }), "progress.import.bad_deal", String(variant));
  }
});

test("an online deal's record, as the referee shows it (no format, no deck), is kept and read for its figures", () => {
  const { format, deck, rules, seed, ...shown } = RECORD;
  const entry = makeEntry({ record: shown, seat: 2, online: true });
  assert.equal(recordProblem(shown), null);
  assert.equal(migrateEntry(entry), entry);
  assert.notEqual(entry.deal, dealIdentity({ ...shown, hands: [...shown.hands].reverse() }));
  assert.deepEqual(parseExport(entryLine(entry)).entries[0].record, shown);
  assert.equal(recordProblem({ ...shown, deck: "Jh" }), "progress.import.bad_format"); // a deck without a format
});

const PAR = { par: -41.5, result: 302, difference: 343.5, k: 12, stderr: 30.2 };

test("a version 1 entry is migrated unchecked and without a par; nothing of it is lost", () => {
  const v1 = { v: 1, deal: dealIdentity(RECORD), at: 7, seat: 2, level: "normal", online: false, match: { id: "m", number: 2 },
    match_over: null, record: RECORD, review: REVIEW, id: 4 };
  const migrated = migrateEntry(v1);
  assert.equal(migrated.v, ENTRY_VERSION);
  assert.equal(migrated.checked, false);
  assert.equal(migrated.par, null);
  assert.equal(counted(migrated), false);
  const { v, checked, par, ...kept } = migrated;
  const { v: old, ...before } = v1;
  assert.deepEqual(kept, before);
  assert.equal(migrateEntry({ ...v1, record: { ...RECORD, plays: "Jh" } }), null); // not a record: left unread
});

test("an entry's par: kept finished or under way, written to the file only when finished, read back unchecked", () => {
  assert.deepEqual(finishedPar({ ...PAR, extra: 1 }), PAR);
  for (const bad of [null, {}, { ...PAR, k: 0 }, { ...PAR, par: "1" }, { ...PAR, stderr: Infinity }]) {
    assert.equal(finishedPar(bad), null, JSON.stringify(bad));
  }
  const done = makeEntry({ record: RECORD, seat: 1, level: "expert", par: PAR, at: 3 });
  assert.deepEqual(done.par, PAR);
  assert.equal(wantsPar(done), false);
  const line = JSON.parse(entryLine(done));
  assert.deepEqual(line.history.par, PAR);
  assert.equal("checked" in line.history, false); // the engine's word is not the file's to carry
  const [back] = parseExport(entryLine(done)).entries;
  assert.deepEqual(back.par, PAR);
  assert.equal(back.checked, false);
  const going = makeEntry({ record: RECORD, seat: 1, level: "expert", par: { scores: [10, -20] } });
  assert.deepEqual(going.par, { scores: [10, -20] });
  assert.equal(wantsPar(going), true);
  assert.equal("par" in JSON.parse(entryLine(going)).history, false); // a par under way is made again
  assert.deepEqual(makeEntry({ record: RECORD, seat: 0, par: { scores: [1, "x"] } }).par, null);
  assert.equal(wantsPar(makeEntry({ record: RECORD, seat: 0, level: "easy", par: { failed: "malformed_record" } })), false);
});

test("which deals get a par: solo, read by the engine, the seats known from the record or the entry's level", () => {
  const entry = (fields) => makeEntry({ record: RECORD, seat: 2, level: "normal", ...fields });
  assert.deepEqual(seatsOf(entry({})), ["normal", "normal", "person", "normal"]);
  const seats = ["person", "easy", "expert", "easy"];
  assert.deepEqual(seatsOf(entry({ record: { ...RECORD, seats }, level: null })), seats);
  assert.equal(seatsOf(entry({ level: null })), null); // a line of `coinche simulate` without seats
  assert.equal(wantsPar(entry({})), true);
  assert.equal(wantsPar(entry({ checked: false })), false);
  assert.equal(wantsPar(entry({ checked: { key: "malformed_record", params: {} } })), false);
  assert.equal(wantsPar(entry({ online: true })), false);
  const { format, deck, ...shown } = RECORD;
  assert.equal(wantsPar(entry({ record: shown })), false); // an online deal's record: no deck
  assert.deepEqual(entry({ checked: { key: "malformed_record" } }).checked, { key: "malformed_record", params: {} });
  assert.equal(entry({ checked: "yes" }).checked, false);
  assert.equal(counted({ record: RECORD }), true); // an entry made before the engine's word was kept
});
