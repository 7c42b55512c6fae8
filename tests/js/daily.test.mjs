// The deal of the day's and challenges' pure parts (web/js/daily-format.js) and the challenge link's notation
// (web/js/notation.js) without a browser: a challenge written as a link reads back the same, what is not one
// reads as null, a damaged one as "malformed" and a later version's as "newer"; the shared text gives each
// result against the par and never a card.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

import {
  comparison, dayProgress, dayStateText, difference, pastDays, shareLine, shareText, signed, today, utcDay,
} from "../../web/js/daily-format.js";
import {
  CHALLENGE_VERSION, ALL_CARDS, challengeKey, cleanPlayerName, formatChallengeLink, formatDailyLink, isDay, parseChallengeLink, parseDailyLink,
} from "../../web/js/notation.js";

const BASE = "https://coinche.example/app/";
const hashOf = (url) => new URL(url).hash;

// The deals of 2026-12-05 as the engine's `daily` gives them (coinche.daily.daily_set), as a challenge has them.
const DEALS = [
  { seed: "15066350113312094231", dealer: 3, level: "normal", rules: "own" },
  { seed: "42", dealer: 0, level: "expert", rules: "open=82,round=5up" },
  { seed: "7", dealer: 1, level: "easy", rules: "variant=classic" },
];

test("a challenge written as a link reads back the same, whoever played it", () => {
  const cases = [
    { day: null, deals: DEALS.slice(0, 1), players: [] },
    { day: "2026-12-05", deals: DEALS, players: [{ name: "Ann", results: [{ score: 162, par: 80.5 }, { score: 0, par: null }, { score: -12, par: -3 }] }] },
    {
      day: null, deals: DEALS.slice(1, 2),
      players: [{ name: "", results: [{ score: 500, par: 251.2 }] }, { name: "Zoé & co=1~,:", results: [{ score: 0, par: 0 }] }],
    },
  ];
  for (const challenge of cases) {
    const url = formatChallengeLink(challenge, BASE);
    assert.ok(url.startsWith(`${BASE}index.html#challenge=${CHALLENGE_VERSION}&`), url);
    assert.deepEqual(parseChallengeLink(hashOf(url)), challenge);
  }
});

test("a par is carried to one decimal, a name cleaned and cut to 24 characters", () => {
  const url = formatChallengeLink({ deals: DEALS.slice(0, 1), players: [{ name: "  A\u0000nn\n  B ".repeat(9), results: [{ score: 3, par: 12.345 }] }] }, BASE);
  const { players } = parseChallengeLink(hashOf(url));
  assert.equal(players[0].results[0].par, 12.3);
  assert.ok(players[0].name.length > 20 && players[0].name.length <= 24, players[0].name);
  assert.equal(players[0].name, cleanPlayerName(players[0].name));
  assert.ok(!/[\u0000\n]/.test(players[0].name));
});

test("a fragment that is no challenge reads as null; a damaged one as malformed; a later version's as newer", () => {
  for (const hash of ["", "#", "#play=coinche&seed=1", "#history=3", "#daily=2026-12-05", null]) {
    assert.equal(parseChallengeLink(hash), null, String(hash));
  }
  const good = new URLSearchParams(hashOf(formatChallengeLink({ day: "2026-12-05", deals: DEALS, players: [
    { name: "Ann", results: [{ score: 1, par: 2 }, { score: 3, par: null }, { score: 5, par: 6 }] }] }, BASE)).slice(1));
  const broken = (change) => {
    const params = new URLSearchParams(good);
    change(params);
    return `#${params}`;
  };
  const damaged = [
    (p) => p.set("challenge", "one"), (p) => p.set("challenge", "0"), (p) => p.set("day", "2026-02-30"),
    (p) => p.delete("d"), (p) => p.set("d", "1~4~normal~own"), (p) => p.set("d", "1~0~Normal~own"),
    (p) => p.set("d", "1~0~normal~"), (p) => p.set("d", "1~0~normal~own rules"), (p) => p.set("d", "x y~0~normal~own"),
    (p) => p.append("d", "9~0~normal~own"), (p) => p.append("p", "Bob"), (p) => p.set("r", "1:2,3:-"),
    (p) => p.set("r", "1:2,3:-,5:6,7:8"), (p) => p.set("r", "1:2,x:-,5:6"), (p) => p.set("r", "1:2:3,3:-,5:6"),
    (p) => p.set("r", "1:2.25,3:-,5:6"), (p) => p.set("r", "1.5:2,3:-,5:6"),
    (p) => { for (let i = 0; i < 2; i++) p.append("d", `${i}~0~normal~own`); },
    (p) => { for (let i = 0; i < 4; i++) { p.append("p", "x"); p.append("r", "1:2,3:-,5:6"); } },
  ];
  for (const change of damaged) {
    const hash = broken(change);
    assert.deepEqual(parseChallengeLink(hash), { error: "malformed" }, hash);
  }
  assert.deepEqual(parseChallengeLink(broken((p) => p.set("challenge", String(CHALLENGE_VERSION + 1)))), { error: "newer" });
  assert.deepEqual(parseChallengeLink(broken((p) => p.set("challenge", "999999"))), { error: "newer" });
});

test("two links of the same deals share their key, whoever played them; other deals do not", () => {
  const a = parseChallengeLink(hashOf(formatChallengeLink({ deals: DEALS, players: [] }, BASE)));
  const b = parseChallengeLink(hashOf(formatChallengeLink({ deals: DEALS, players: [{ name: "B", results: DEALS.map(() => ({ score: 1, par: null })) }] }, BASE)));
  assert.equal(challengeKey(a.deals), challengeKey(b.deals));
  assert.notEqual(challengeKey(DEALS), challengeKey([...DEALS].reverse()));
  assert.notEqual(challengeKey(DEALS.slice(0, 1)), challengeKey([{ ...DEALS[0], level: "expert" }]));
});

test("a day's link reads back; days that are not read as null", () => {
  for (const day of ["2026-12-05", "2000-01-01", "2028-02-29"]) {
    const link = formatDailyLink(day);
    assert.equal(parseDailyLink(link.slice(link.indexOf("#"))), day);
  }
  for (const hash of ["#daily=2026-13-01", "#daily=2027-02-29", "#daily=26-12-05", "#daily=", "#daily=2026-12-05&x=1", "#day=2026-12-05"]) {
    assert.equal(parseDailyLink(hash), null, hash);
  }
  assert.equal(isDay("2026-12-05"), true);
  assert.equal(isDay(20261205), false);
});

test("the day in UTC, ?day= pretending one, the last days counted back across months and leap days", () => {
  assert.equal(utcDay(Date.UTC(2026, 11, 5, 23, 59, 59)), "2026-12-05");
  assert.equal(utcDay(Date.UTC(2026, 11, 6, 0, 0, 0)), "2026-12-06");
  assert.equal(today("?day=2026-01-02", Date.UTC(2030, 0, 1)), "2026-01-02");
  assert.equal(today("?day=2026-02-30", Date.UTC(2030, 0, 1, 12)), "2030-01-01");
  assert.equal(today("", Date.UTC(2030, 0, 1, 12)), "2030-01-01");
  assert.deepEqual(pastDays("2028-03-01", 3), ["2028-03-01", "2028-02-29", "2028-02-28"]);
  const thirty = pastDays("2026-01-15");
  assert.equal(thirty.length, 30);
  assert.equal(thirty.at(-1), "2025-12-17");
  assert.equal(new Set(thirty).size, 30);
});

test("a day's state: not played, in progress N of 4, done", () => {
  assert.deepEqual(dayProgress(null), { state: "new", played: 0 });
  const deals = [{ score: 10 }, { score: -3 }, {}, {}];
  assert.deepEqual(dayProgress({ deals }), { state: "progress", played: 2 });
  assert.deepEqual(dayProgress({ deals: deals.map((_, i) => ({ score: i })) }), { state: "done", played: 4 });
});

test("differences: a score minus its par, rounded; unknown while the par is", () => {
  assert.equal(difference(162, 80.4), 82);
  assert.equal(difference(0, 12.5), -12); // Math.round(-12.5) rounds towards +infinity
  assert.equal(difference(0, null), null);
  assert.equal(signed(34), "+34");
  assert.equal(signed(-12), "−12");
  assert.equal(signed(0), "0");
  assert.equal(shareLine([34, -12, 0, null]), "+34 ▲ −12 ▼ 0 = …");
  const rows = comparison([
    { name: "Ann", results: [{ score: 100, par: 80 }, { score: 0, par: 10 }] },
    { name: "You", you: true, results: [{ score: 50, par: 80 }, { score: 0, par: null }] },
  ]);
  assert.deepEqual(rows.map((r) => [r.total, r.complete]), [[10, true], [-30, false]]);
  assert.deepEqual(rows[1].deals.map((d) => d.difference), [-30, null]);
});

// The catalogues' own texts, as the page reads them, without a browser.
const CATALOGUES = Object.fromEntries(await Promise.all(["en", "fr", "de", "es"].map(async (lang) =>
  [lang, JSON.parse(await readFile(new URL(`../../web/i18n/${lang}.json`, import.meta.url)))])));

globalThis.fetch = async (url) => {
  const text = await readFile(new URL(url));
  return { ok: true, json: async () => JSON.parse(text) };
};
globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
const { setLanguage, t } = await import("../../web/js/i18n.js");

test("the shared text gives the day, each result against the par and the link, in every language, and no card", async () => {
  const cardNames = (lang) => Object.entries(CATALOGUES[lang]).filter(([key]) => /^(suit|rank)\./.test(key)).map(([, v]) => v);
  for (const lang of Object.keys(CATALOGUES)) {
    await setLanguage(lang, { remember: false });
    const url = "https://coinche.example/index.html#daily=2026-12-05";
    const text = shareText({ day: "2026-12-05", differences: [34, -12, 0, null], level: "normal" }, t, url);
    assert.ok(text.includes("2026-12-05"), text);
    assert.ok(text.includes("+34 ▲ −12 ▼ 0 = …"), text);
    assert.ok(text.endsWith(`\n${url}`), text);
    assert.ok(!/[{}]/.test(text), text);
    const words = text.split("\n")[0];
    for (const card of ALL_CARDS) assert.ok(!new RegExp(`\\b${card}\\b`).test(words), `${lang}: ${card} in ${words}`);
    assert.ok(!/[♠♥♦♣]/.test(words), words);
    for (const name of cardNames(lang).filter((n) => n.length > 3)) assert.ok(!words.includes(name), `${lang}: "${name}" in ${words}`);
    const state = dayStateText({ deals: [{ score: 1 }, {}, {}, {}] }, t);
    assert.ok(state.includes("1") && state.includes("4") && !/[{}]/.test(state), state);
  }
});
