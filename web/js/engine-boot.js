// Run from index.html's head as a classic async script, before anything else: the engine's worker starts
// with the page's first bytes, while the page's own modules load; js/engine.js adopts it from
// globalThis.coincheEarlyEngine. No module: no import to wait for.
// Its name (see engine-worker.js) says whether a memory snapshot was saved before: if none was ("fresh"),
// Python starts at once, without looking in the Cache Storage first.
"use strict";
{
  let saved = false;
  try {
    saved = localStorage.getItem("coinche.snapshot-saved") === "1"; // js/engine.js SNAPSHOT_SAVED_KEY
  } catch {
    // storage blocked: look for a snapshot anyway
  }
  const here = document.currentScript.src;
  // No early download of Pyodide's big files from here: it took two of the six connections a browser opens
  // to a host over HTTP/1.1 while the worker fetched its own modules, and its second read and unpacking cost
  // CPU on two cores; measured, the first deal came about 0.1 s later with it than without
  // (bench/web_boot_bench.py).
  const url = new URL("engine-worker.js", here);
  const worker = new Worker(url, { type: "module", name: saved ? "coinche-engine" : "coinche-engine fresh" });
  const held = [];
  worker.onmessage = (event) => held.push(event);
  worker.onerror = (event) => {
    event.preventDefault();
    held.push(event);
  };
  globalThis.coincheEarlyEngine = { worker, held };
  performance.mark("engine-boot");
}
