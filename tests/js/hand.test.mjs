// The hand's order (web/js/table/cards.js sortHand) and the error texts (web/js/errors.js), without a
// browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { EXCERPT, errorMessage, excerpt } from "../../web/js/errors.js";
import { ALL_CARDS, SUITS, suitOf } from "../../web/js/notation.js";
import { sortHand as sortHandBy } from "../../web/js/table/cards.js";

const RED = new Set(["h", "d"]);

// The engine's orders, strongest first, with points, as options.json has them (coinche.webcommands.options()
// ["cards"]); tests/test_engine_options.py sorts with the engine's own.
const CARDS = {
  trump: [["J", 20], ["9", 14], ["A", 11], ["T", 10], ["K", 4], ["Q", 3], ["8", 0], ["7", 0]],
  plain: [["A", 11], ["T", 10], ["K", 4], ["Q", 3], ["J", 2], ["9", 0], ["8", 0], ["7", 0]],
};
const sortHand = (hand, trump = null) => sortHandBy(hand, trump, CARDS);

// A small deterministic generator: the same hands at every run.
function* hands(count, seed = 7) {
  let x = seed;
  const next = () => { x = (x * 1103515245 + 12345) % 2 ** 31; return x; };
  for (let i = 0; i < count; i++) {
    const deck = [...ALL_CARDS];
    for (let j = deck.length - 1; j > 0; j--) {
      const k = next() % (j + 1);
      [deck[j], deck[k]] = [deck[k], deck[j]];
    }
    yield deck.slice(0, 1 + (next() % 8));
  }
}

const suitsInOrder = (hand) => hand.map(suitOf).filter((s, i, all) => all.indexOf(s) === i);

test("worked examples: no trump, then hearts trump", () => {
  const hand = ["7h", "As", "Jh", "Kd", "9c", "Ts", "Ah", "8d"];
  assert.deepEqual(sortHand(hand), ["As", "Ts", "Ah", "Jh", "7h", "9c", "Kd", "8d"]);
  assert.deepEqual(sortHand(hand, "h"), ["Jh", "Ah", "7h", "As", "Ts", "Kd", "8d", "9c"]);
});

test("a sorted hand holds the same cards, its suits grouped, whatever the trump", () => {
  for (const hand of hands(300)) {
    for (const trump of [null, ...SUITS]) {
      const sorted = sortHand(hand, trump);
      assert.deepEqual([...sorted].sort(), [...hand].sort());
      const suits = sortHand(hand, trump).map(suitOf);
      assert.equal(suitsInOrder(sorted).length, new Set(suits).size, "a suit in two groups");
      assert.deepEqual(sortHand(sorted, trump), sorted, "sorting twice changes nothing");
    }
  }
});

test("the trumps stand at the left in trump order; the other suits strongest first", () => {
  for (const hand of hands(300, 11)) {
    for (const trump of SUITS) {
      const sorted = sortHand(hand, trump);
      const trumps = sorted.filter((c) => suitOf(c) === trump);
      assert.deepEqual(sorted.slice(0, trumps.length), trumps);
      for (let i = 1; i < sorted.length; i++) {
        if (suitOf(sorted[i]) !== suitOf(sorted[i - 1])) continue;
        const order = suitOf(sorted[i]) === trump ? "J9ATKQ87" : "ATKQJ987";
        assert.ok(order.indexOf(sorted[i - 1][0]) < order.indexOf(sorted[i][0]), sorted.join(" "));
      }
    }
  }
});

test("colours alternate whenever the suits held allow it", () => {
  for (const hand of hands(300, 23)) {
    const suits = suitsInOrder(sortHand(hand));
    const reds = suits.filter((s) => RED.has(s)).length;
    const blacks = suits.length - reds;
    const possible = Math.abs(reds - blacks) <= 1;
    const alternates = suits.every((s, i) => i === 0 || RED.has(s) !== RED.has(suits[i - 1]));
    if (possible) assert.ok(alternates, suits.join(""));
  }
});

test("an error's text echoes bad input as an excerpt, never whole", () => {
  assert.equal(excerpt("Jh"), "Jh");
  const long = "Jh,".repeat(40_000);
  const cut = excerpt(long);
  assert.equal(cut, `${"Jh,".repeat(7)}…`); // at most EXCERPT characters, cut after a whole card
  assert.ok(Array.from(cut).length <= EXCERPT);
  assert.equal(excerpt("🂡".repeat(30)).length, 2 * (EXCERPT - 1) + 1, "whole code points");
  const { key, params } = errorMessage({ code: "unknown_card", params: { text: long }, message: long });
  assert.equal(key, "error.internal"); // no catalogue loaded here: the fallback
  assert.equal(params.text, cut);
  assert.ok(params.detail.length <= 160);
  const online = errorMessage({ code: "no_such_table", params: { code: "ABCD" } }, { keys: {}, fallback: "online.error" });
  assert.deepEqual(online, { key: "online.error", params: { detail: "no_such_table", code: "ABCD" } });
});
