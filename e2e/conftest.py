"""Browser tests of the built site: dist/ served by tools/serve.py, driven by Playwright in Debian's Chromium.

`make test` builds dist/ and installs Chromium first; run alone, `python -m pytest e2e` fails with a clear
message if either is missing. Never `playwright install`: the browser is /usr/bin/chromium.

Under pytest-xdist (`make test` runs `-n JOBS`) each worker is a process of its own, with its own session
fixtures: its own Chromium (pytest-playwright's `browser`) and its own site server.

Fixtures:
- `site_url`: the base URL of dist/ served with netlify.toml's headers on a free localhost port.
- `guarded_page`: a Playwright page that fails its test if the page or its workers log a console error
  or a missing message (a catalogue key looked up and not found, or looked up before a catalogue loaded),
  raise an uncaught error, request anything outside localhost, or get an HTTP error status.
  `guarded_page.responses` lists every Playwright Response it received.
- `returning_page`: the same for a returning visitor: a new page in a browser context shared by the tests
  (`returning_context`: one per worker and set of context options, the viewport and reduced motion apart,
  which each page sets for itself), so that only the first boots the engine
  from nothing. What a test leaves in the site's storage (the saved match, the settings, the language...) is
  wiped when it ends, all but the engine's memory snapshot and its marker: each test starts as a returning
  visitor with a fresh table. A module whose tests need other context options overrides
  `browser_context_args` at module scope.
Under the site's strict CSP, Playwright's `wait_for_function` cannot run (it evaluates a string): wait
with `expect(locator)` or poll `page.evaluate`.
"""
from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from chromium import CHROMIUM, CHROMIUM_ARGS, DIST, load_tool  # noqa: E402

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


@pytest.fixture(scope="session")
def build_info() -> dict:
    path = DIST / "build-info.json"
    if not path.is_file():
        pytest.fail(f"{path} is missing: the site is not built. Run `make build` (or `make test`).", pytrace=False)
    return json.loads(path.read_text())


@pytest.fixture(scope="session")
def site_url(build_info) -> str:
    server, url = load_tool("serve").serve_in_background(DIST)
    yield url
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
        elif "missing message:" in message.text:  # js/i18n.js t(): a raw key reached the page
            self.problems.append(f"console: {message.text} ({message.location.get('url', '?')})")

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


@contextmanager
def watched(page):
    """`page` watched while the block runs (its context's requests and responses too): the block gets the
    PageProblems seen, to judge itself."""
    seen = PageProblems()
    watches = ((page.context, "request", seen.request), (page.context, "response", seen.response),
               (page, "console", seen.console),  # workers' console messages included
               (page, "pageerror", seen.page_error))
    for target, event, handler in watches:
        target.on(event, handler)
    try:
        yield seen
    finally:
        for target, event, handler in watches:
            target.remove_listener(event, handler)


@contextmanager
def guarded(page):
    """`page` watched while the block runs (`watched`); fails after it if the page misbehaved."""
    with watched(page) as seen:
        page.responses = seen.responses
        yield page
    assert not seen.problems, "the page misbehaved:\n" + "\n".join(seen.problems)


@pytest.fixture
def guarded_page(page):
    with guarded(page):
        yield page


@pytest.fixture(scope="session")
def returning_contexts(browser):
    """The returning visitors' browser contexts of this worker, one per set of context options: kept for the
    whole session (a worker under xdist goes from module to module), closed at its end."""
    contexts: dict[str, object] = {}
    yield contexts
    for context in contexts.values():
        context.close()


# What a page may set for itself: these options of a module's `browser_context_args` are applied to each
# returning page rather than to its context, so that modules differing only in them share one context (and
# one first visit a worker).
PAGE_OPTIONS = ("viewport", "reduced_motion")
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's own default


@pytest.fixture(scope="module")
def returning_context(returning_contexts, browser, browser_context_args, site_url):
    """A browser context for a visitor who comes back (the HTTP cache, the service worker and the engine's
    memory snapshot kept from a first visit made when it opens, `save_a_snapshot`), for tests that open the
    page afresh but do not depend on a first visit's empty profile. The worker's one for the module's
    `browser_context_args` but for the options a page sets itself (PAGE_OPTIONS, see `returning_page`)."""
    shared = {k: v for k, v in browser_context_args.items() if k not in PAGE_OPTIONS}
    key = json.dumps(shared, sort_keys=True, default=str)
    if key not in returning_contexts:
        context = browser.new_context(**shared)
        save_a_snapshot(context, site_url)
        returning_contexts[key] = context
    return returning_contexts[key]


SNAPSHOT_SAVED = "() => localStorage.getItem('coinche.snapshot-saved') === '1'"  # js/engine.js SNAPSHOT_SAVED_KEY


def save_a_snapshot(context, site_url: str, seconds: float = 180) -> None:
    """A first visit in `context` that stays until the engine's memory snapshot is saved (engine.js makes it
    in a worker of its own once the engine is ready; a page closed sooner leaves none): every later page of
    the context is a returning visitor's, whose engine boots from the snapshot."""
    page = context.new_page()
    try:
        page.goto(f"{site_url}?speed=test")
        deadline = time.monotonic() + seconds
        while not page.evaluate(SNAPSHOT_SAVED):
            assert time.monotonic() < deadline, "no memory snapshot saved within the warm-up"
            time.sleep(0.2)
    finally:
        page.close()


# What a test leaves in the site's storage, wiped after it (the snapshot's marker kept: the engine's memory
# snapshot stays in the context's caches, which is what makes the next test's boot a returning one), the
# player's history (js/history.js, the deals of the day's results with it) too.
FORGET_STORAGE = """() => {
  const kept = localStorage.getItem("coinche.snapshot-saved");
  localStorage.clear();
  sessionStorage.clear();
  if (kept !== null) localStorage.setItem("coinche.snapshot-saved", kept);
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.deleteDatabase("coinche-history");
    } catch {
      resolve(); // a page that refused IndexedDB (a test's): nothing was kept
      return;
    }
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}"""


def forget_storage(page, site_url: str) -> None:
    """Wipe what the site keeps in `page`'s context's localStorage and sessionStorage (FORGET_STORAGE), from
    the site's manifest: a document of the site's origin that runs none of its scripts (no match is saved
    while the storage is wiped), and costs half the CPU of the rules page, which was used before."""
    page.goto(f"{site_url}manifest.webmanifest")
    page.evaluate(FORGET_STORAGE)


@pytest.fixture
def returning_page(returning_context, browser_context_args, site_url):
    """A new page of `returning_context` with the module's viewport and reduced motion, guarded as
    `guarded_page` is; the site's storage wiped after it."""
    page = returning_context.new_page()
    page.set_viewport_size(browser_context_args.get("viewport") or DEFAULT_VIEWPORT)
    page.emulate_media(reduced_motion=browser_context_args.get("reduced_motion", "no-preference"))
    try:
        with guarded(page):
            yield page
    finally:
        try:
            forget_storage(page, site_url)
        finally:
            page.close()


@pytest.fixture
def clipboard_page(returning_page):
    """A `returning_page` allowed the clipboard: granted to its shared context, taken back after."""
    context = returning_page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        yield returning_page
    finally:
        context.clear_permissions()
