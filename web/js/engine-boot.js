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
  // a few hundred ms before the worker asks for them, into the HTTP cache the worker then reads (the same
  // URLs and request mode as Pyodide's own fetch; the files are cached as immutable). The build writes the
  // version in (tools/build_site.py).
  if (!saved && !navigator.serviceWorker?.controller) {
    for (const name of ["pyodide.asm.wasm", "python_stdlib.zip"]) {
      fetch(new URL(`../pyodide/${"@PYODIDE_VERSION@"}/${name}`, here))
        .then((response) => response.body?.pipeTo(new WritableStream()))
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
