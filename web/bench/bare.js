// Baseline for bench/web_boot_bench.py: the time Pyodide alone takes to start in a module worker, no
// engine and no snapshot. Marks "pyodide-ready" and sets <body data-state="ready">.
performance.mark("bare-start");
const worker = new Worker(new URL("bare-worker.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  performance.mark("pyodide-ready");
  document.body.dataset.state = data.ok ? "ready" : "error";
  document.body.dataset.detail = data.detail;
};
