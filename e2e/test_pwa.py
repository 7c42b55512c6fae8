"""Installable and updatable: the manifest and the service worker against each installability criterion
(and Chromium's own verdict), no CSP violation on any page, and a new release taken without losing the
match in progress."""
from __future__ import annotations

import json
import shutil
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from chromium import DIST, load_tool  # noqa: E402
from pwa_helpers import boot_ready, wait_for_control, wait_until  # noqa: E402
from test_table import ENGINE_STATE, UI, choose_settings, start  # noqa: E402

PAGES = ("index.html", "judge.html", "rules.html", "progress.html", "puzzles.html")
icons = load_tool("icons")
precache = load_tool("precache")


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def fetch(url: str):
    """(status, headers (case-insensitive), body) of a GET."""
    with urllib.request.urlopen(url) as response:
        return response.status, response.headers, response.read()


# ---------------------------------------------------------------- installability
def test_the_manifest_meets_the_installability_criteria(site_url):
    status, headers, body = fetch(site_url + "manifest.webmanifest")
    assert status == 200 and headers["Content-Type"] == "application/manifest+json"
    manifest = json.loads(body)
    manifest_url = site_url + "manifest.webmanifest"
    assert manifest["name"] and manifest["short_name"]
    assert manifest["display"] in ("standalone", "fullscreen", "minimal-ui")
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    scope = urljoin(manifest_url, manifest["scope"])
    start_url = urljoin(manifest_url, manifest["start_url"])
    assert start_url.startswith(scope) and urlsplit(start_url).netloc == urlsplit(site_url).netloc
    sizes = {}
    for icon in manifest["icons"]:
        status, headers, data = fetch(urljoin(manifest_url, icon["src"]))
        assert status == 200 and headers["Content-Type"] == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = icons.png_size(data)
            assert icon["sizes"] == f"{width}x{height}", (icon, width, height)  # declared = actual
            sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"] and 180 in sizes["any"]
    for page in PAGES:
        html = fetch(site_url + page)[2].decode()
        assert '<link rel="manifest" href="manifest.webmanifest">' in html, page
        assert '<link rel="apple-touch-icon" href="icons/apple-touch-icon.png">' in html, page
        assert '<meta name="theme-color"' in html, page


def test_the_service_worker_controls_the_site_and_serves_start_url_offline(guarded_page, site_url, context):
    page = guarded_page
    page.goto(site_url)
    boot_ready(page)
    assert page.evaluate("() => window.isSecureContext")  # localhost counts as secure, as HTTPS would
    assert wait_for_control(page) == site_url + "sw.js"
    context.set_offline(True)
    status = page.evaluate("async () => (await fetch('./', {mode: 'same-origin'})).status")
    assert status == 200
    navigated = page.goto(site_url)  # the start_url, offline
    assert navigated.status == 200 and navigated.from_service_worker


# What answered each request of the page and of its workers: the static route's source ("cache": the browser
# itself, from the precache) or the service worker's fetch handler ("fetch-event"), as resource timing reports it.
SOURCES = """() => Object.fromEntries(performance.getEntriesByType('resource')
    .map((e) => [new URL(e.name).pathname, e.workerMatchedSourceType ?? null]))"""


def test_a_later_visit_gets_the_precached_files_from_the_cache_without_running_the_service_worker(
        guarded_page, site_url, context):
    page = guarded_page
    page.goto(site_url)
    boot_ready(page)
    wait_for_control(page)
    page.goto(site_url + "?from=test")  # a navigation with a query: the fetch handler's (index.html)
    boot_ready(page)
    sources = page.evaluate(SOURCES)
    for path in ("/js/engine-boot.js", "/js/main.js", "/css/index.css"):
        assert sources.get(path) == "cache", (path, sources)
    navigation = page.evaluate("() => performance.getEntriesByType('navigation')[0].workerMatchedSourceType ?? null")
    assert navigation == "fetch-event"
    context.set_offline(True)  # and what the routes answer needs no network
    page.goto(site_url + "rules.html")
    expect(page.locator("main h1")).to_be_visible()
    assert page.evaluate(SOURCES).get("/js/rules.js") == "cache"


def test_chromium_finds_the_site_installable(browser_type, browser_type_launch_args, site_url, tmp_path):
    """Chromium's own verdict (DevTools' installability errors), in a real profile: Playwright's usual
    contexts are incognito, where nothing is installable."""
    context = browser_type.launch_persistent_context(tmp_path / "profile", **browser_type_launch_args)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site_url)
        boot_ready(page)
        wait_for_control(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest["errors"]
        assert manifest["url"] == site_url + "manifest.webmanifest"
    finally:
        context.close()


def test_the_precache_is_generated_and_matches_dist(build_info):
    sw = (DIST / "sw.js").read_text()
    listed = json.loads(sw.split("const PRECACHE = ", 1)[1].split("; /* END PRECACHE */", 1)[0])
    assert listed == precache.precache_manifest(DIST)
    files = listed["files"]
    for needed in ("index.html", "judge.html", "rules.html", "progress.html", "js/progress/main.js", "css/progress.css",
                   "build-info.json", "manifest.webmanifest",
                   build_info["pyodide"]["url"] + "pyodide.asm.wasm",
                   build_info["pyodide"]["url"] + build_info["pyodide"]["stdlib"],
                   build_info["wheel"]["url"]):
        assert needed in files, needed
    assert "sw.js" not in files and not any(name.startswith("bench/") for name in files)
    # the puzzle set is precached after the install, never in a first visit's downloads (docs/puzzles.md)
    assert "puzzles/open.jsonl" in listed["later"] and not any(name.startswith("puzzles/") for name in files)
    assert {"puzzles.html", "js/puzzles/main.js", "css/puzzles.css"} <= set(listed["later"]) and "puzzles.html" not in files


# ---------------------------------------------------------------- CSP
CSP_LISTENER = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI);
});
"""


def test_no_page_breaks_the_content_security_policy(guarded_page, site_url):
    page = guarded_page
    page.add_init_script(CSP_LISTENER)
    rules = load_tool("serve").load_header_rules(DIST.parent / "netlify.toml")
    csp = load_tool("serve").headers_for(rules, "/")["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "unsafe-inline" not in csp
    for name, ready in (("index.html", "body[data-state=ready]"), ("judge.html", "body[data-engine=ready]"),
                        ("rules.html", "body[data-state=ready]"), ("progress.html", "body[data-state=ready]"),
                        ("puzzles.html", "#puzzle[data-state=ready]")):
        response = page.goto(site_url + name + "?speed=test")
        assert response.headers["content-security-policy"] == csp, name
        expect(page.locator(ready)).to_have_count(1, timeout=60_000)
        if name == "index.html":
            start(page, "coinche")
            wait_until(page, f"() => {{ const ui = ({UI})(); return ui.bidding || ui.myTurn; }}")
        assert page.evaluate("() => window.__csp") == [], name


# ---------------------------------------------------------------- a new release
@pytest.fixture
def second_site(tmp_path):
    """A copy of dist/ on its own port, which the test turns into a new release."""
    folder = tmp_path / "site"
    shutil.copytree(DIST, folder)
    server, url = load_tool("serve").serve_in_background(folder)
    yield folder, url
    server.shutdown()
    server.server_close()


def release(folder: Path) -> str:
    """A new release of the site in folder: one changed file, a new precache; its version."""
    css = folder / "css" / "pwa.css"
    css.write_text(css.read_text() + f"\n/* release {time.time()} */\n")
    return precache.write_service_worker(folder)["version"]


# What a failure to switch to a new release needs to be understood.
SW_STATE = """async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return { controller: navigator.serviceWorker.controller?.scriptURL ?? null, installing: r?.installing?.state ?? null,
             waiting: r?.waiting?.state ?? null, active: r?.active?.state ?? null, loadedAt: performance.timeOrigin,
             flag: sessionStorage.getItem("coinche.resume-after-update"), readyState: document.readyState,
             screen: document.body.dataset.screen, url: location.href };
}"""


def test_a_new_release_is_offered_and_taken_without_losing_the_match(guarded_page, second_site):
    page = guarded_page
    folder, url = second_site
    page.goto(f"{url}?speed=test&seed=update")
    boot_ready(page)
    wait_for_control(page)
    old_caches = page.evaluate("async () => (await caches.keys()).filter((k) => k.startsWith('coinche-precache-'))")
    assert len(old_caches) == 1
    choose_settings(page, target="501", level="easy", speed="fast", coach=False)
    start(page, "coinche")
    wait_until(page, f"() => {{ const ui = ({UI})(); return ui.bidding; }}")
    before = page.evaluate(ENGINE_STATE)

    version = release(folder)
    first_new = len(page.responses)
    page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
    banner = page.locator(".pwa-update")
    expect(banner).to_be_visible(timeout=60_000)
    expect(banner).to_contain_text("A new version is ready.")
    # the new worker waits: the page is still the old release, the match untouched
    assert page.evaluate(ENGINE_STATE) == before
    fetched = [r.url for r in page.responses[first_new:]
               if r.request.service_worker is not None and not r.url.endswith("/sw.js")]
    assert fetched == [url + "css/pwa.css"], fetched  # only the changed file: the rest copied from the old cache

    loaded_at = page.evaluate("() => performance.timeOrigin")
    try:
        with page.expect_navigation(wait_until="load", timeout=60_000):  # the old page must be gone first
            banner.locator("button").click()
    except PlaywrightTimeoutError:
        state = page.evaluate(SW_STATE)
        raise AssertionError(f"no reload after Reload (page loaded at {loaded_at}): {state}") from None
    expect(page.locator("#table")).to_be_visible(timeout=60_000)  # resumed by itself
    wait_until(page, f"() => {{ const ui = ({UI})(); return ui.bidding; }}")
    after = page.evaluate(ENGINE_STATE)
    assert after["deal"] == before["deal"] and after["totals"] == before["totals"]
    caches = page.evaluate("async () => (await caches.keys()).filter((k) => k.startsWith('coinche-precache-'))")
    assert caches == [f"coinche-precache-{version}"]
    assert caches != old_caches
