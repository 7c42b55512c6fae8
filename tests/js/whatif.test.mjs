// The what-if line of a replay's fragment (web/js/notation.js), the engine's whatif.parse_line notation.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ALL_CARDS, formatWhatIf, formatWhatIfLine, parseWhatIf, parseWhatIfLine } from "../../web/js/notation.js";

test("a line reads and writes back the same text", () => {
  for (const text of ["28:Jh", "3:pass,12:Jh", "0:coinche,4:80h,9:As", "12:capoth,40:7c"]) {
    assert.equal(formatWhatIfLine(parseWhatIfLine(text)), text);
  }
  assert.deepEqual(parseWhatIfLine("3:pass,12:Jh"), [{ ply: 3, move: "pass" }, { ply: 12, move: "Jh" }]);
});

test("every card of the deck at every ply reads back", () => {
  for (const [i, card] of ALL_CARDS.entries()) {
    const line = `${i}:${card},${i + 100}:pass`;
    assert.equal(formatWhatIfLine(parseWhatIfLine(line)), line);
  }
});

test("what is not a line reads as null", () => {
  const bad = ["", "12", "12:", ":Jh", "x:Jh", "12:Xx", "12:Jh,12:As", "20:Jh,4:As", "-1:Jh", "1234:Jh", "12: Jh",
    "12:jh", Array.from({ length: 65 }, (_, i) => `${i}:Jh`).join(","), null, 5, undefined];
  for (const text of bad) assert.equal(parseWhatIfLine(text), null, String(text));
});

test("the fragment's branch: read, defaults, errors, written back with the other parameters kept", () => {
  assert.equal(parseWhatIf("#play=coinche&seed=4"), null);
  assert.deepEqual(parseWhatIf("#whatif=28:Jh"), { line: "28:Jh", by: "expert" });
  assert.deepEqual(parseWhatIf("#replay=1&whatif=28%3AJh%2C32%3AAs&by=dd"), { line: "28:Jh,32:As", by: "dd" });
  assert.deepEqual(parseWhatIf("#whatif=28:Jh&by=oracle"), { error: "28:Jh" });
  assert.deepEqual(parseWhatIf("#whatif=" + "9".repeat(100)), { error: "9".repeat(24) });
  const hash = formatWhatIf({ line: "28:Jh,32:As", by: "dd" }, "#replay=1");
  assert.equal(hash, "#replay=1&whatif=28:Jh,32:As&by=dd");
  assert.deepEqual(parseWhatIf(hash), { line: "28:Jh,32:As", by: "dd" });
  assert.equal(formatWhatIf(null, hash), "#replay=1");
  assert.equal(formatWhatIf(null, "#whatif=1:Jh&by=dd"), "");
});
