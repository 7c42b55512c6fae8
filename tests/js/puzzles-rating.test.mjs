// The puzzle rating (web/js/puzzles/rating.js) against the worked example of Glickman's "Example of the
// Glicko-2 system" (2013): a player rated 1500, RD 200, volatility 0.06, tau 0.5, beats a 1400 (RD 30), loses
// to a 1550 (RD 100) and to a 1700 (RD 300): 1464.06, RD 151.52, volatility 0.05999.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PUZZLE_RD, RD_FLOOR, START, afterPuzzle, update } from "../../web/js/puzzles/rating.js";

const close = (actual, expected, within, what) =>
  assert.ok(Math.abs(actual - expected) <= within, `${what}: ${actual}, expected ${expected} ± ${within}`);

test("Glickman's worked example: 1500/200/0.06 after a win and two losses is 1464.06/151.52/0.05999", () => {
  const after = update({ rating: 1500, rd: 200, vol: 0.06 }, [
    { rating: 1400, rd: 30, score: 1 },
    { rating: 1550, rd: 100, score: 0 },
    { rating: 1700, rd: 300, score: 0 },
  ], { tau: 0.5 });
  close(after.rating, 1464.06, 0.01, "rating");
  close(after.rd, 151.52, 0.01, "deviation");
  close(after.vol, 0.05999, 0.00001, "volatility");
});

test("a period without a result only widens the deviation: sqrt(phi^2 + sigma^2)", () => {
  const after = update({ rating: 1500, rd: 200, vol: 0.06 }, []);
  assert.equal(after.rating, 1500);
  close(after.rd, Math.sqrt((200 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178, 1e-9, "deviation");
});

test("one puzzle against an equal rating: a win moves up, a loss down, by the same amount", () => {
  const player = { rating: 1500, rd: 100, vol: 0.06 };
  const up = afterPuzzle(player, 1500, true);
  const down = afterPuzzle(player, 1500, false);
  assert.ok(up.rating > 1500 && down.rating < 1500);
  close(up.rating - 1500, 1500 - down.rating, 1e-6, "symmetry");
  // by hand, the paper's steps: phi = 100/173.7178 = 0.57565, phi_j = 80/173.7178 = 0.46052, g = 0.969246,
  // E = 0.5, v = 1/(g^2 E(1-E)) = 4.25787; sigma stays 0.06 to 4 decimals: phi* = sqrt(phi^2 + sigma^2) =
  // 0.578770, phi' = 1/sqrt(1/phi*^2 + 1/v) = 0.557263, mu' = phi'^2 g (1 - E) = 0.150496: +26.14 points
  close(up.rating - 1500, 26.14, 0.01, "the step");
  close(up.rd, 0.557263 * 173.7178, 0.01, "the deviation");
});

test("a harder puzzle solved gains more than an easier one; the deviation stays within its bounds", () => {
  const player = { ...START };
  assert.ok(afterPuzzle(player, 1800, true).rating - 1500 > afterPuzzle(player, 1200, true).rating - 1500);
  let p = { ...START };
  for (let i = 0; i < 200; i++) p = afterPuzzle(p, 1500, i % 2 === 0);
  assert.ok(p.rd >= RD_FLOOR && p.rd < 65, `deviation ${p.rd}`);
  assert.equal(afterPuzzle({ rating: 1500, rd: 30, vol: 0.06 }, 1500, true).rd, RD_FLOOR);
  assert.equal(afterPuzzle({ rating: 1500, rd: 350, vol: 0.06 }, 1500, true).rd <= START.rd, true);
  assert.ok(PUZZLE_RD > 0);
});
