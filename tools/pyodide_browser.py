#!/usr/bin/env python3
"""Run a Python script under the built site's Pyodide in headless Chromium, with the engine wheel on sys.path
as the engine worker puts it there, and print what it printed: the browser's own Python, for benchmarks.

    .venv/bin/python tools/pyodide_browser.py [--dist dist] FILE [ARGS...]

For example `.venv/bin/python tools/pyodide_browser.py bench/solver_bench.py --deals 3`. Serves DIST (run
`make build` first) on a free localhost port, opens web/bench/bare.html (a page of the site that starts no
engine of its own; its baseline worker is let finish first), loads Pyodide on the page's main thread and
runs FILE as `__main__` with ARGS in sys.argv (FILE alone: a script that imports only the standard library
and the engine). Its output and errors come back when it ends; the exit status is the script's. Under Node,
tools/pyodide_node.mjs does the same.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from conftest import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

# The Python side, shared with tools/pyodide_node.mjs: fixed code; the script's text, name and arguments
# arrive as values.
RUNNER = (ROOT / "tools" / "pyodide_runner.py").read_text()

RUN = """async ({ runner, script, name, argv }) => {
  const { loadPyodide, indexURL, stdLibURL } = await import("/js/pyodide-current.mjs");
  const pyodide = await loadPyodide({ indexURL, stdLibURL });
  const info = await (await fetch("/build-info.json")).json();
  const wheel = new Uint8Array(await (await fetch("/" + info.wheel.url)).arrayBuffer());
  const wheelPath = "/tmp/" + info.wheel.file_name;
  pyodide.FS.writeFile(wheelPath, wheel);
  pyodide.FS.writeFile("/tmp/" + name, script);
  const out = [], err = [];
  pyodide.setStdout({ batched: (line) => out.push(line) });
  pyodide.setStderr({ batched: (line) => err.push(line) });
  pyodide.pyimport("sys").path.insert(0, wheelPath);
  if (info.later) {  // the engine's later modules, mounted as web/js/engine-worker.js mounts them
    pyodide.FS.writeFile("/tmp/" + info.later.file_name, new Uint8Array(await (await fetch("/" + info.later.url)).arrayBuffer()));
    pyodide.runPython(`import coinche\ncoinche.__path__.append("/tmp/${info.later.file_name}/coinche")`);
  }
  const path = "/tmp/" + name;
  const status = pyodide.runPython(runner)("file", path, pyodide.toPy([path, ...argv]), "/tmp");
  return { status, out, err };
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("file", type=Path)
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"pyodide_browser: {args.dist} is not built: run `make build`")
    server, url = load_tool("serve").serve_in_background(args.dist)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page()
            page.goto(f"{url}bench/bare.html")
            page.wait_for_selector("body[data-state=ready]", timeout=120_000)  # its own worker's 1+1 done
            result = page.evaluate(RUN, {"runner": RUNNER, "script": args.file.read_text(), "name": args.file.name,
                                         "argv": args.args})
            browser.close()
    finally:
        server.shutdown()
    for line in result["out"]:
        print(line)
    for line in result["err"]:
        print(line, file=sys.stderr)
    return int(result["status"])


if __name__ == "__main__":
    sys.exit(main())
