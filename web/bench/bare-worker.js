import { loadPyodide, indexURL } from "../js/pyodide-current.mjs";

loadPyodide({ indexURL }).then(
  (pyodide) => postMessage({ ok: true, detail: pyodide.runPython("import sys; sys.version.split()[0]") }),
  (error) => postMessage({ ok: false, detail: String(error) }),
);
