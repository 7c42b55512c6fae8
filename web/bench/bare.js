// Baseline for bench/web_boot_bench.py: the time Pyodide alone takes to start in a module worker
// (loadPyodide, then runPython("1+1")): no engine, no snapshot. Marks "bare-start" when the worker is made
// and "pyodide-ready" when it answers, and sets <body data-state="ready">.
performance.mark("bare-start");
const worker = new Worker(new URL("bare-worker.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  performance.mark("pyodide-ready");
  document.body.dataset.state = data.ok ? "ready" : "error";
  document.body.dataset.detail = data.detail;
};
