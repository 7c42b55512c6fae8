// The puzzle page's pure parts: the set's lines read (a corrupt line skipped and named), the choice of the
// next puzzle, and the progress kept on the device (web/js/puzzles/set.js, store.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { pickPuzzle, readSet, setThemes, shapeProblem } from "../../web/js/puzzles/set.js";
import { afterPuzzle, START } from "../../web/js/puzzles/rating.js";
import { freshProgress, ratingSeries, readProgress, themeSuccess, withResult } from "../../web/js/puzzles/store.js";

// A hand-made open puzzle: the last trick of a deal, hearts trump, south (0) to lead.
const puzzle = (id, rating, themes = ["dix_de_der"]) => ({
  id, rules: "coinche", contract: { declarer: 0, trump: "h", value: 80, multiplier: 1 },
  hands: [["Jh", "7s"], ["Ac", "8c"], ["Td", "9d"], ["Ks", "Qs"]], trick: { leader: 0, cards: [] },
  won: { points: [60, 40], tricks: [4, 2] }, to_play: 0, solution: ["Jh"], margin: 10, themes, rating,
  kind: "open", line: [],
});

test("a set's lines: puzzles kept in order, a corrupt line skipped and named by its number", () => {
  const text = [
    JSON.stringify(puzzle("a", 1400)),
    "{not json",
    "",
    JSON.stringify({ ...puzzle("b", 1500), hands: [["Jh"], ["Ac"], ["Td"]] }),
    JSON.stringify(puzzle("a", 1600)),
    JSON.stringify({ ...puzzle("c", 1600), line: undefined, themes: undefined }),
  ].join("\n");
  const { puzzles, skipped } = readSet(text);
  assert.deepEqual(puzzles.map((p) => p.id), ["a", "c"]);
  assert.deepEqual(puzzles[1].themes, []);
  assert.deepEqual(puzzles[1].line, []);
  assert.deepEqual(skipped, [
    { line: 2, reason: "not_json" },
    { line: 4, reason: "bad_hands", id: "b" },
    { line: 5, reason: "duplicate_id", id: "a" },
  ]);
});

test("the shape of a puzzle: each missing or malformed field has its own reason", () => {
  assert.equal(shapeProblem(puzzle("a", 1500)), null);
  assert.equal(shapeProblem([]), "not_object");
  assert.equal(shapeProblem({ ...puzzle("a", 1500), solution: undefined }), "bad_solution");
  const { solution, ...noSolution } = puzzle("a", 1500);
  assert.equal(solution.length, 1);
  assert.equal(shapeProblem(noSolution), "missing_solution");
  assert.equal(shapeProblem({ ...puzzle("a", 1500), to_play: 4 }), "bad_to_play");
  assert.equal(shapeProblem({ ...puzzle("a", 1500), trick: { leader: 0 } }), "bad_trick");
  assert.equal(shapeProblem({ ...puzzle("a", 1500), solution: [] }), "bad_solution");
});

test("the next puzzle: of the theme, near the rating, never one excluded while others are left", () => {
  const set = [puzzle("easy", 1000), puzzle("mid", 1500, ["ruff"]), puzzle("hard", 2000), puzzle("mid2", 1550)];
  const first = () => 0;
  assert.equal(pickPuzzle(set, { rating: 1510, random: first }).id, "mid");
  assert.equal(pickPuzzle(set, { rating: 1510, theme: "dix_de_der", random: first }).id, "mid2");
  assert.equal(pickPuzzle(set, { rating: 1510, exclude: new Set(["mid"]), random: first }).id, "mid2");
  assert.equal(pickPuzzle(set, { rating: 1510, theme: "ruff", exclude: new Set(["mid"]) }).id, "mid"); // all seen
  assert.equal(pickPuzzle(set, { rating: 1500, theme: "belote" }), null);
  assert.deepEqual(setThemes(set), ["dix_de_der", "ruff"]);
  // every draw falls among the nearest: with a window wider than the set, any of them
  const seen = new Set(Array.from({ length: 40 }, (_, i) => pickPuzzle(set, { rating: 1500, random: () => i / 40 }).id));
  assert.equal(seen.size, 4);
});

test("a result: the rating moves once a puzzle, the runs count, a miss ends them", () => {
  let p = freshProgress();
  p = withResult(p, { id: "a", rating: 1500, themes: ["ruff"], solved: false, rated: true, at: 1 });
  assert.deepEqual(p.player, afterPuzzle(START, 1500, false));
  assert.ok(p.player.rating < 1500);
  const down = p.player;
  p = withResult(p, { id: "a", rating: 1500, themes: ["ruff"], solved: true, rated: true, at: 2 }); // tried before
  assert.deepEqual(p.player, down);
  p = withResult(p, { id: "b", rating: 1500, themes: ["ruff", "belote"], solved: true, rated: true, at: 3 });
  assert.ok(p.player.rating > down.rating);
  assert.equal(p.run, 2);
  p = withResult(p, { id: "c", rating: 1400, themes: [], solved: true, rated: false, streakMode: true, at: 4 });
  assert.equal(p.streak, 1);
  p = withResult(p, { id: "d", rating: 1400, themes: ["belote"], solved: false, rated: false, streakMode: true, at: 5 });
  assert.deepEqual([p.run, p.best_run, p.streak, p.best_streak], [0, 3, 0, 1]);
  assert.deepEqual(ratingSeries(p).map((s) => s.at), [1, 3]);
  assert.deepEqual(themeSuccess(p), [
    { theme: "ruff", tried: 3, solved: 2 }, { theme: "belote", tried: 2, solved: 1 },
  ]);
});

test("what is kept: read back as written; anything else is a fresh start, never an exception", () => {
  const p = withResult(freshProgress(), { id: "a", rating: 1500, solved: true, rated: true, at: 1 });
  assert.deepEqual(readProgress(JSON.stringify(p)), p);
  for (const bad of [null, "", "{", "[]", '{"v":2}', JSON.stringify({ ...p, player: { rating: "x" } })]) {
    assert.deepEqual(readProgress(bad), freshProgress());
  }
});
