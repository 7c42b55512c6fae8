// The engine's word on records the progress page did not see played (an imported file's lines, the entries of
// an older version): coinche.webcommands check_records, on an engine worker started for it and stopped once
// done. The page never reads a rule itself: a record the engine refuses is named by the engine's reason.
//
//   const verdicts = await checkRecords(records, (done, total) => ...);
//   // null when no engine can run here; else one per record: null (read) or {key, params} (refused)
import { Engine } from "../engine.js";

const CHUNK = 200; // records a call: the engine reads about 5 a ms in CPython, a few times fewer in the browser

export async function checkRecords(records, onProgress = () => {}) {
  if (!records.length) return [];
  let engine = null;
  try {
    engine = new Engine({ bootTimeoutMs: 90_000 });
    await engine.ready;
    const verdicts = [];
    onProgress(0, records.length);
    for (let i = 0; i < records.length; i += CHUNK) {
      verdicts.push(...await engine.call("check_records", { records: records.slice(i, i + CHUNK) }));
      onProgress(verdicts.length, records.length);
    }
    return verdicts;
  } catch (error) {
    console.warn("check_records:", error);
    return null;
  } finally {
    engine?.terminate();
  }
}
