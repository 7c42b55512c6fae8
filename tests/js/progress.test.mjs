// The progress page's pure parts (web/js/progress/figures.js) without a browser; its figures against the
// records are checked from Python (tests/test_progress_figures.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { duplicate, figures, movingAverage, tableKey, tables } from "../../web/js/progress/figures.js";

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

test("the duplicate differences: the deals with a finished par only, oldest first, their moving average", () => {
  const entry = (at, par, checked = true) => ({ at, checked, seat: 0, level: "expert", id: at, par,
    record: { variant: "coinche", rules: "own", result: { void: true, scores: [0, 0] } } });
  const done = (difference) => ({ par: 10, result: 10 + difference, difference, k: 12, stderr: 4.04 });
  const entries = [entry(1, done(20)), entry(2, { scores: [1, 2] }), entry(3, done(-40)), entry(4, null),
    entry(5, done(1000), false), entry(6, done(5), { key: "malformed_record", params: {} })];
  const d = duplicate(entries.filter((e) => e.checked === true));
  assert.deepEqual(d.series.map((x) => [x.id, x.difference, x.par, x.result, x.k, x.stderr]), [[1, 20, 10, 30, 12, 4], [3, -40, 10, -30, 12, 4]]);
  assert.equal(d.mean, -10);
  assert.deepEqual(d.moving, movingAverage([20, -40]));
  // the page's figures leave out what the engine has not read or refused: in every count, and in the par's
  const f = figures(entries);
  assert.equal(f.deals, 4);
  assert.deepEqual(f.duplicate, d);
  assert.deepEqual(tables(entries).map((t) => t.deals), [4]);
  assert.equal(duplicate([]).deals, 0);
});
