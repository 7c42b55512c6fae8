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
  // A first visit (no snapshot saved, no service worker yet): Pyodide's two big files start downloading now,
  // a few round trips before the worker asks for them, into the HTTP cache the worker then reads (the same
  // URLs; the files are cached as immutable; e2e/test_boot.py checks each travels once). The build writes the
  // version and the standard library's name in (tools/build_site.py). blob(): the body goes to the browser's
  // blob store without passing through this page's JavaScript chunk by chunk (read so, it took some 70 ms of
  // the page's main thread).
  if (!saved && !navigator.serviceWorker?.controller) {
    for (const name of ["pyodide.asm.wasm", "@PYODIDE_STDLIB@"]) {
      fetch(new URL(`../pyodide/${"@PYODIDE_VERSION@"}/${name}`, here))
        .then((response) => response.blob())
        .catch(() => {}); // the worker's own request reports any failure
    }
  }
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
