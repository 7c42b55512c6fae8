// The baseline's worker: Pyodide alone, as the site ships it: loadPyodide() then runPython("1+1").
// Reports when it began (origin, ms epoch), when its module ran and when Python answered (ms from origin).
import { loadPyodide, indexURL } from "../js/pyodide-current.mjs";

const module = performance.now();
loadPyodide({ indexURL }).then(
  (pyodide) => {
    const detail = String(pyodide.runPython("1+1"));
    postMessage({ ok: true, detail, origin: performance.timeOrigin, module, python: performance.now() });
  },
  (error) => postMessage({ ok: false, detail: String(error) }),
);
