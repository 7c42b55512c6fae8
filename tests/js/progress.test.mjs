// The progress page's pure parts (web/js/progress/figures.js) without a browser; its figures against the
// records are checked from Python (tests/test_progress_figures.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { movingAverage, tableKey, tables } from "../../web/js/progress/figures.js";

test("the moving average keeps the last deals of its window, its band one standard error either side", () => {
  const shown = movingAverage([10, 20, 30, 40], 2);
  assert.deepEqual(shown.map((p) => p.mean), [10, 15, 25, 35]);
  assert.deepEqual(shown[0], { mean: 10, low: 10, high: 10 }); // one deal: no band
  assert.deepEqual(shown[3], { mean: 35, low: 30, high: 40 }); // sd 7.07 over 2 deals: error 5
  assert.deepEqual(movingAverage([]), []);
});

test("the kinds of table: the game, the bots' level and the house rules, the most played first", () => {
  const entry = (variant, level, rules) => ({ level, record: { variant, rules } });
  const found = tables([entry("classic", "easy", "own"), entry("coinche", null, "own"), entry("coinche", null, "own")]);
  assert.deepEqual(found.map((t) => [t.key, t.deals]), [["coinche|unknown|own", 2], ["classic|easy|own", 1]]);
  assert.equal(tableKey({ game: "coinche", level: "expert", rules: "de-2000" }), "coinche|expert|de-2000");
});
