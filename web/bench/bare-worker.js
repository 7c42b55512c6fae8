import { loadPyodide } from "../pyodide/pyodide.mjs";

loadPyodide({ indexURL: new URL("../pyodide/", import.meta.url).href }).then(
  (pyodide) => postMessage({ ok: true, detail: pyodide.runPython("import sys; sys.version.split()[0]") }),
  (error) => postMessage({ ok: false, detail: String(error) }),
);
