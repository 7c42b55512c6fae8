// The excerpt of bad input cuts after a separator, as the engine's (coinche.errors.excerpt): no card in half.
import { test } from "node:test";
import assert from "node:assert/strict";

import { EXCERPT, excerpt } from "../../web/js/errors.js";

test("an excerpt of a list of cards ends on a whole card", () => {
  assert.equal(excerpt("Jh,".repeat(10_000)), "Jh,Jh,Jh,Jh,Jh,Jh,Jh,…");
  assert.equal(excerpt("trump=h&hand=Jh,Kd,7s,8s,9s"), "trump=h&hand=Jh,Kd,7s,…");
  assert.equal(excerpt("x".repeat(100_000)), `${"x".repeat(EXCERPT - 1)}…`, "no separator in reach: cut where it must");
  assert.equal(excerpt("Jh,Kd"), "Jh,Kd");
});
