// Baseline for bench/web_boot_bench.py: the time Pyodide alone takes to start in a module worker
// (loadPyodide, then runPython("1+1")): no engine, no snapshot; with ?stdlib=stock, with the standard library
// of Pyodide's release instead of the site's precompiled one. Marks "bare-start" when the worker is made
// and "pyodide-ready" when it answers (its detail: when the worker began, its module ran and Python
// answered, in ms from this page's navigation), and sets <body data-state="ready">.
performance.mark("bare-start");
// ?stdlib=stock: Pyodide's own standard library, sources only (bare-worker.js)
const stock = new URLSearchParams(location.search).get("stdlib") === "stock";
const worker = new Worker(new URL("bare-worker.js", import.meta.url), { type: "module", name: stock ? "stock" : "" });
worker.onmessage = ({ data }) => {
  const began = data.origin - performance.timeOrigin;
  const detail = data.ok ? { worker: began, module: began + data.module, python: began + data.python } : null;
  performance.mark("pyodide-ready", { detail });
  document.body.dataset.state = data.ok ? "ready" : "error";
  document.body.dataset.detail = data.detail;
};
