"""Browser tests of the built site: dist/ served by tools/serve.py, driven by Playwright in Debian's Chromium.

`make test` builds dist/ and installs Chromium first; run alone, `python -m pytest e2e` fails with a clear
message if either is missing. Never `playwright install`: the browser is /usr/bin/chromium.

Fixtures:
- `site_url`: the base URL of dist/ served with netlify.toml's headers on a free localhost port.
- `guarded_page`: a Playwright page that fails its test if the page or its workers log a console error,
  raise an uncaught error, request anything outside localhost, or get an HTTP error status.
  `guarded_page.responses` lists every Playwright Response it received.
Under the site's strict CSP, Playwright's `wait_for_function` cannot run (it evaluates a string): wait
with `expect(locator)` or poll `page.evaluate`.
"""
from __future__ import annotations

import importlib.util
import json
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

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
]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


def load_tool(name: str):
    """Import tools/NAME.py (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def build_info() -> dict:
    path = DIST / "build-info.json"
    if not path.is_file():
        pytest.fail(f"{path} is missing: the site is not built. Run `make build` (or `make test`).", pytrace=False)
    return json.loads(path.read_text())


@pytest.fixture(scope="session")
def site_url(build_info) -> str:
    server = load_tool("serve").make_server(DIST, port=0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (Debian's package, never `playwright install`)",
                    pytrace=False)
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


class PageProblems:
    """What a page did wrong during a test, collected from the browser context's events."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.responses: list = []  # Playwright Response objects

    def console(self, message) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text} ({message.location.get('url', '?')})")

    def page_error(self, error) -> None:
        self.problems.append(f"uncaught error: {error}")

    def request(self, request) -> None:
        url = urlsplit(request.url)
        if url.scheme not in ("data", "blob") and url.hostname not in LOCAL_HOSTS:
            self.problems.append(f"external request: {request.method} {request.url}")

    def response(self, response) -> None:
        self.responses.append(response)
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")


@pytest.fixture
def guarded_page(page):
    seen = PageProblems()
    page.context.on("request", seen.request)
    page.context.on("response", seen.response)
    page.on("console", seen.console)  # workers' console messages included
    page.on("pageerror", seen.page_error)
    page.responses = seen.responses
    yield page
    assert not seen.problems, "the page misbehaved:\n" + "\n".join(seen.problems)


def pytest_addoption(parser):
    # --full, the long differential runs: declared by tests/conftest.py too, so that `pytest e2e --full`
    # works alone; whichever conftest loads first declares it.
    try:
        parser.getgroup("coinche").addoption(
            "--full", action="store_true", default=False,
            help="long differential runs: 200,000 random positions and 20,000 random deals")
    except ValueError:
        pass
