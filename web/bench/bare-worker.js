// The baseline's worker: Pyodide alone, as the site ships it (its files, its precompiled standard library):
// loadPyodide() then runPython("1+1").
// Named "stock" (bare.html?stdlib=stock), it reads the standard library as Pyodide's release ships it, sources
// only, from stock/python_stdlib.zip beside this script: the bench puts that file there (`--stock`); the
// site does not ship it.
// Reports when it began (origin, ms epoch), when its module ran and when Python answered (ms from origin).
import { loadPyodide, indexURL, stdLibURL as siteStdLibURL } from "../js/pyodide-current.mjs";

const module = performance.now();
const stdLibURL = self.name === "stock" ? new URL("stock/python_stdlib.zip", import.meta.url).href : siteStdLibURL;
loadPyodide({ indexURL, stdLibURL }).then(
  (pyodide) => {
    const detail = String(pyodide.runPython("1+1"));
    postMessage({ ok: true, detail, origin: performance.timeOrigin, module, python: performance.now() });
  },
  (error) => postMessage({ ok: false, detail: String(error) }),
);
