"""What the browser tests (e2e/conftest.py), the benches (bench/) and tools/pyodide_browser.py share: Debian's
Chromium and its flags, tools/ loaded by name, and the built site served beside a headless Chromium.

A plain module, not a conftest: a script imports it with e2e/ on its path (`sys.path.insert(0, ROOT / "e2e")`)."""
from __future__ import annotations

import importlib.util
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Chromium 156 builds a WebUI renderer for the address bar's popup with every window, headless too: 0.65 s
    # of CPU per new page, for a part of the browser no test (and no page) ever sees (CONTRIBUTING.md).
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
]


def load_tool(name: str):
    """Import tools/NAME.py (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextmanager
def served_chromium(dist: str | Path = DIST):
    """`dist` served by tools/serve.py on a free localhost port, and headless Chromium: yields ``(browser, base
    URL)``; the browser closed and the server stopped after."""
    from playwright.sync_api import sync_playwright

    server, base = load_tool("serve").serve_in_background(dist)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                yield browser, base
            finally:
                browser.close()
    finally:
        server.shutdown()
