// The page's notations (web/js/notation.js) without a browser: every code of each wire format reads and
// writes back the same text, and what is not one reads as null.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  BID_VALUES, CAPOT, CONTRACT_KINDS, ALL_CARDS, RANKS, SUITS, formatBidValue, formatCall, formatCard, formatHistoryLink,
  formatPosition, formatShareLink, isCard, parseBid, parseCall, parseCard, parseHistoryLink, parseShareLink,
  positionLink,
} from "../../web/js/notation.js";
import { fragmentText, readPosition } from "../../web/js/judge/notation.js";

// The engine's position notation limits (coinche.webcommands.options()["position"]), as options.json has them
const LIMITS = { trick: 3, hand: 8, max_length: 100 };

// Every call of the engine (engine/coinche/calls.py): the words, the bids with capot, the classic takes.
const CALLS = [
  "pass", "coinche", "surcoinche",
  ...[...BID_VALUES, CAPOT].flatMap((value) => SUITS.map((suit) => `${value === CAPOT ? "capot" : value}${suit}`)),
  ...SUITS.map((suit) => `take${suit}`),
];

test("the deck: 32 different cards in the engine's order, each read and written back", () => {
  assert.equal(ALL_CARDS.length, 32);
  assert.equal(new Set(ALL_CARDS).size, 32);
  assert.deepEqual(ALL_CARDS.slice(0, 8), ["7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]);
  for (const card of ALL_CARDS) {
    assert.ok(isCard(card));
    assert.equal(formatCard(parseCard(card)), card);
  }
  assert.deepEqual(parseCard("Jh"), { rank: "J", suit: "h" });
});

test("what is not a card reads as null", () => {
  for (const text of ["", "J", "jh", "JH", "1h", "Jhh", " Jh", "10h", null, undefined, 7, ["J", "h"]]) {
    assert.equal(parseCard(text), null, String(text));
    assert.equal(isCard(text), false, String(text));
  }
});

test("every call reads and writes back, of the kind it says", () => {
  assert.equal(CALLS.length, 3 + 40 + 4);
  for (const call of CALLS) assert.equal(formatCall(parseCall(call)), call);
  assert.deepEqual(parseCall("pass"), { kind: "pass", value: 0, suit: null });
  assert.deepEqual(parseCall("110h"), { kind: "bid", value: 110, suit: "h" });
  assert.deepEqual(parseCall("capots"), { kind: "bid", value: CAPOT, suit: "s" });
  assert.deepEqual(parseCall("82h"), { kind: "bid", value: 82, suit: "h" });  // a table that opens at 82
  assert.deepEqual(parseCall("taked"), { kind: "take", value: 0, suit: "d" });
});

test("a bid is a value and a suit; words and takes are not bids", () => {
  const bids = CALLS.filter((call) => parseBid(call));
  assert.equal(bids.length, 40);
  assert.ok(bids.every((call) => /^(\d+|capot)[shdc]$/.test(call)));
  assert.equal(parseBid("takeh"), null);
  assert.equal(parseBid("pass"), null);
  assert.equal(formatBidValue(CAPOT), "capot");
  assert.equal(formatBidValue(90), "90");
});

test("no trumps and all trumps bids read and write back; there is no such take", () => {
  const bids = [...BID_VALUES, CAPOT].flatMap((value) => CONTRACT_KINDS.map((kind) => `${formatBidValue(value)}${kind}`));
  for (const call of bids) assert.equal(formatCall(parseBid(call)), call);
  assert.deepEqual(parseCall("120ta"), { kind: "bid", value: 120, suit: "ta" });
  assert.deepEqual(parseCall("capotsa"), { kind: "bid", value: CAPOT, suit: "sa" });
  for (const text of ["takesa", "taketa", "120tas", "120xa", "120t", "120TA"]) assert.equal(parseCall(text), null, text);
});

test("what is not a call reads as null", () => {
  for (const text of ["", "Pass", "70h", "170h", "85h", "100", "h", "capot", "take", "takex", "100x", "0100h", null, 3]) {
    assert.equal(parseCall(text), null, String(text));
  }
});

test("a position's canonical text reads back to the same position", () => {
  const positions = [
    { trump: "h", trick: ["8h", "Ah", "7c"], hand: ["Jh", "Kd", "7s"] },
    { trump: "s", trick: [], hand: ["As"] },
    { trump: null, trick: ["9d"], hand: [] },
    { trump: "c", trick: [], hand: ALL_CARDS.slice(24) },
  ];
  for (const position of positions) {
    const text = formatPosition(position);
    const read = readPosition(text, LIMITS);
    assert.deepEqual({ trump: read.trump, trick: read.trick, hand: read.hand }, position, text);
    assert.deepEqual(read.dropped, []);
    assert.equal(formatPosition(read), text);
  }
  assert.equal(formatPosition(positions[0]), "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s");
  assert.equal(formatPosition(positions[2]), "trick=9d&hand=");
  assert.equal(positionLink(positions[1]), "judge.html#trump=s&trick=&hand=As");
});

test("a text longer than the engine reads is too long, its start still read for the editor", () => {
  const longest = "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s,8s,9s,Ts,Qs,As";
  assert.equal(readPosition(longest, LIMITS).tooLong, null);
  assert.equal(readPosition(fragmentText(`#${"x".repeat(100)}`), LIMITS).tooLong, null, "a leading # is not counted, as the engine");
  const huge = `trump=h&trick=&hand=${Array(33_000).fill("Jh").join(",")},`;
  const read = readPosition(huge, LIMITS);
  assert.deepEqual(read.tooLong, { length: huge.length, limit: 100 });
  assert.deepEqual([read.trump, read.hand], ["h", ["Jh"]]);
  assert.deepEqual(readPosition(" ".repeat(100_000) + longest, LIMITS).tooLong, null, "spaces around are no part of it");
});

test("a link reads as the engine reads it: marks left out around one decoding", () => {
  const position = "trump=h&hand=Jh";
  for (const link of [position, `#${position}`, `%23${position}`, `#%23${position}`, ` ?${position} `, `#trump=h&hand=%4Ah`]) {
    assert.equal(fragmentText(link), link.endsWith("%4Ah") ? "trump=h&hand=Jh" : position, link);
  }
  assert.equal(fragmentText("#trump=h&hand=%254Ah"), "trump=h&hand=%4Ah", "decoded once");
  assert.equal(fragmentText("#trump=h%20&hand=Jh%"), "trump=h%20&hand=Jh%", "all escapes or none");
  assert.equal(fragmentText("#%E0%A4%A"), "%E0%A4%A");
});

test("a share link reads back to its deal", () => {
  const base = "https://example.org/coinche/index.html?seed=1#old";
  for (const deal of [
    { variant: "coinche", seed: "0", dealer: 0, rules: null },
    { variant: "classic", seed: "18446744073709551615", dealer: 3, rules: null },
    { variant: "coinche", seed: "42", dealer: 2, rules: null },
    { variant: "coinche", seed: "12345", dealer: 1, rules: "open=82,round=5up" }, // a house-rules table's deal
  ]) {
    const link = new URL(formatShareLink(deal, base));
    assert.equal(link.origin + link.pathname, "https://example.org/coinche/index.html");
    assert.deepEqual(parseShareLink(link.hash, ["coinche", "classic"]), deal);
  }
  assert.equal(formatShareLink({ variant: "coinche", seed: "42", dealer: 1 }, base),
    "https://example.org/coinche/index.html#play=coinche&seed=42&dealer=1");
  assert.equal(formatShareLink({ variant: "coinche", seed: "12345", dealer: 1, rules: "open=82,pisser=yes" }, base),
    "https://example.org/coinche/index.html#play=coinche&seed=12345&dealer=1&rules=open%3D82%2Cpisser%3Dyes");
  assert.deepEqual(parseShareLink("play=coinche&seed=7", ["coinche"]), { variant: "coinche", seed: "7", dealer: 0, rules: null });
});

test("what is not a share link reads as null", () => {
  const variants = ["coinche", "classic"];
  for (const hash of ["", "#", "#play=belote&seed=1", "#play=coinche", "#play=coinche&seed=x", "#play=coinche&seed=-1",
    "#play=coinche&seed=123456789012345678901", "#play=coinche&seed=1&dealer=4", "#play=coinche&seed=1&dealer=1.5",
    "#trump=h&trick=&hand=Jh", null]) {
    assert.equal(parseShareLink(hash, variants), null, String(hash));
  }
});

test("the ranks and suits are the engine's letters", () => {
  assert.deepEqual(RANKS, ["7", "8", "9", "T", "J", "Q", "K", "A"]);
  assert.deepEqual(SUITS, ["s", "h", "d", "c"]);
});

test("a history deal's link reads back what it was written from; anything else is no such link", () => {
  for (const link of [{ id: 1, review: false }, { id: 12, review: true }, { id: 987654321, review: false }]) {
    const text = formatHistoryLink(link);
    assert.ok(text.startsWith("index.html#history="));
    assert.deepEqual(parseHistoryLink(text.slice(text.indexOf("#"))), link);
  }
  for (const bad of ["", "#history=", "#history=0", "#history=-3", "#history=1&review=2", "#history=1x", "#join=ABC", null]) {
    assert.equal(parseHistoryLink(bad), null, bad);
  }
});

test("the judge reads no trumps and all trumps as a position's trump, and nothing else of two letters", () => {
  assert.equal(readPosition("trump=ta&trick=Ts&hand=Js,7s", LIMITS).trump, "ta");
  assert.equal(readPosition("trump=sa&hand=Ah", LIMITS).trump, "sa");
  for (const text of ["trump=xa&hand=Ah", "trump=hh&hand=Ah", "trump=TA&hand=Ah"]) {
    const read = readPosition(text, LIMITS);
    assert.equal(read.trump, null, text);
    assert.equal(read.dropped.length, 1, text);
  }
});
