// The baseline's worker: Pyodide alone, as the site ships it: loadPyodide() then runPython("1+1").
import { loadPyodide, indexURL } from "../js/pyodide-current.mjs";

loadPyodide({ indexURL }).then(
  (pyodide) => postMessage({ ok: true, detail: String(pyodide.runPython("1+1")) }),
  (error) => postMessage({ ok: false, detail: String(error) }),
);
