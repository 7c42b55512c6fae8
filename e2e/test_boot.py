"""The site boots the engine in its worker under the production headers, and nothing leaves localhost."""
from __future__ import annotations

import json
import re
import sys
import time
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from conftest import load_tool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BOOT_TIMEOUT_MS = 60_000


def netlify_header(name: str, path: str = "/*") -> str:
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    return next(block["values"][name] for block in config["headers"] if block["for"] == path)


def test_page_reaches_ready_with_the_engine_answering(guarded_page, site_url, build_info):
    """A first visit, its catalogue held until the worker has reported its boot: the progress waits for its
    words (a text looked up sooner is a `missing message` on the console, which fails a guarded page)."""
    page = guarded_page
    held = []
    page.route("**/i18n/*.json", lambda route: route.continue_() if held is None else held.append(route))
    page.goto(site_url, wait_until="commit")
    deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
    while page.evaluate("document.querySelector('#boot-progress')?.value ?? 0") < 0.2:  # Python is starting
        assert time.monotonic() < deadline, "no boot progress reported"
        time.sleep(0.05)
    page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))")
    expect(page.locator("#boot-status")).to_have_text("")
    routes, held = held, None
    for route in routes:
        route.continue_()
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#boot-status")).to_contain_text(f"coinche {build_info['version']}")


def test_every_response_carries_the_production_headers(guarded_page, site_url):
    page = guarded_page
    page.goto(site_url)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT_MS)
    csp = netlify_header("Content-Security-Policy")
    by_path = {}
    for response in page.responses:
        headers = response.all_headers()
        path = re.sub(r"^https?://[^/]+", "", response.url)
        assert headers.get("content-security-policy") == csp, path
        assert headers.get("x-content-type-options") == "nosniff", path
        by_path[path] = headers
    info = json.loads((DIST / "build-info.json").read_text())["pyodide"]
    pyodide = "/" + info["url"]
    for path in ("/", "/js/main.js", "/js/engine.js", "/js/engine-worker.js", "/build-info.json",
                 "/js/pyodide-current.mjs", pyodide + "pyodide.mjs", pyodide + "pyodide.asm.wasm",
                 pyodide + info["stdlib"]):
        assert path in by_path, f"{path} was not requested during boot"
    assert by_path[pyodide + "pyodide.asm.wasm"]["content-type"] == "application/wasm"
    assert "immutable" in by_path[pyodide + "pyodide.asm.wasm"]["cache-control"]
    assert "immutable" not in by_path["/js/pyodide-current.mjs"]["cache-control"]
    assert by_path["/"]["cache-control"] == "no-cache"


def test_engine_calls_answer_results_and_coded_errors(guarded_page, site_url):
    page = guarded_page
    page.goto(site_url)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT_MS)
    answers = page.evaluate("""async () => {
        const { engine } = await import("/js/main.js");
        const outcome = (promise) => promise.then(
            (result) => ({ result }), (error) => ({ code: error.code, message: error.message }));
        return {
            ping: await outcome(engine.call("ping")),
            unknown: await outcome(engine.call("no-such-command", { x: 1 })),
            badArgs: await outcome(engine.call("ping", { extra: true })),
        };
    }""")
    assert answers["ping"]["result"]["pong"] is True
    assert answers["unknown"]["code"] == "unknown_command"
    assert answers["badArgs"]["code"] == "bad_args"


def test_boot_timeout_gives_a_clear_error(page, site_url):
    # A .wasm served with the wrong type makes Pyodide hang: the client must give up with a clear error.
    page.route("**/*.wasm", lambda route: route.fulfill(
        response=route.fetch(), headers={"content-type": "text/plain"}))
    try:
        page.goto(site_url)
        error = page.evaluate("""async () => {
            const { Engine } = await import("/js/engine.js");
            const engine = new Engine({ bootTimeoutMs: 3000 });
            return engine.ready.then(() => null, (e) => ({ code: e.code, message: e.message }));
        }""")
    finally:
        # the page's own engine may still be fetching its .wasm through the route: the handler must finish
        # before the page closes, or its route.fetch fails in the next test's set-up
        page.unroute_all(behavior="wait")
    assert error == {"code": "boot_timeout", "message": "The game engine did not start within 3 s."}


class _InlineFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = {name for name, _ in attrs}
        if tag == "style":
            self.found.append("<style>")
        if "style" in names or any(name.startswith("on") for name in names):
            self.found.append(f"<{tag} {' '.join(sorted(names))}>")
        self._in_script = tag == "script" and "src" not in names

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.found.append(f"inline <script>: {data.strip()[:40]}")

    def handle_endtag(self, tag):
        self._in_script = False


def test_no_inline_script_or_style_in_web_pages():
    for html in sorted((ROOT / "web").rglob("*.html")):
        finder = _InlineFinder()
        finder.feed(html.read_text())
        assert not finder.found, f"{html.relative_to(ROOT)}: {finder.found} (the CSP forbids them)"


SNAPSHOTS = "coinche-pyodide-snapshots"
ENGINE = "async () => (await import('/js/main.js')).engine"


def boot_and_timings(page, url: str) -> dict:
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT_MS)
    return page.evaluate("async () => (await import('/js/main.js')).engine.timings")


def snapshot_saved(page) -> dict:
    """The snapshot worker's last message (engine.js starts it after a boot that found no snapshot)."""
    return page.evaluate("async () => await (await import('/js/main.js')).engine.snapshotSaved")


def saved_snapshots(page) -> list[dict]:
    """The snapshot cache's entries: {url, bytes, engine}."""
    return page.evaluate("""async (name) => {
        const cache = await caches.open(name);
        return Promise.all((await cache.keys()).map(async (request) => {
            const response = await cache.match(request);
            return { url: request.url, bytes: response.headers.get("X-Snapshot-Bytes"),
                     engine: response.headers.get("X-Snapshot-Engine") };
        }));
    }""", SNAPSHOTS)


def put_snapshot(page, key: str, engine: str) -> None:
    """A whole entry (js/snapshot-store.js pack) whose bytes are no Pyodide snapshot."""
    page.evaluate("""async ([name, key, engine]) => {
        const { pack } = await import("/js/snapshot-store.js");
        const junk = pack(new Uint8Array(4096).fill(7));
        const headers = { "X-Snapshot-Bytes": "4096", "X-Snapshot-Stored": String(junk.length),
                          "X-Snapshot-Engine": engine };
        await (await caches.open(name)).put(key, new Response(junk, { headers }));
    }""", [SNAPSHOTS, key, engine])


def test_a_first_boot_imports_the_engine_afresh_and_saves_a_snapshot_of_it_for_the_next(guarded_page, site_url,
                                                                                          build_info):
    page = guarded_page
    assert boot_and_timings(page, site_url)["snapshot"] == "missing"
    outcome = snapshot_saved(page)
    assert outcome["type"] == "snapshot-saved", outcome
    [entry] = saved_snapshots(page)
    assert entry["engine"] == snapshot_of(build_info) and int(entry["bytes"]) == outcome["bytes"] > 1_000_000
    timings = boot_and_timings(page, site_url)
    assert timings["snapshot"] == "restored" and "snapshotError" not in timings
    # The restored engine plays: a new match, the player first, a bot answering after the player's call.
    answer = page.evaluate("""async () => {
        const { engine } = await import('/js/main.js');
        const first = await engine.call("new_match", { variant: "coinche", target: 501, level: "expert", seed: "snap" });
        const after = await engine.call("act", { action: "pass" });
        const bot = await engine.call("bot_step");
        return { first: first.state.deal.current_player, bot: bot.event.seat, judge: (await engine.call("judge",
            { position: "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s" })).legal };
    }""")
    assert answer == {"first": 0, "bot": 1, "judge": ["Jh"]}
    assert page.evaluate("async () => (await import('/js/main.js')).engine.snapshotSaved") is None


def snapshot_of(build_info) -> str:
    """What a snapshot of this build holds, as saved beside it: the engine wheel's and the library's sha256."""
    return f"{build_info['wheel']['sha256']} {build_info['pyodide']['stdlib_sha256']}"


@pytest.mark.parametrize("holds, error", [("build", "magic"), ("another engine", "another engine"),
                                          ("another library", "another engine or library")])
def test_a_broken_or_stale_snapshot_is_replaced_and_the_engine_still_boots(guarded_page, site_url, build_info,
                                                                          holds, error):
    page = guarded_page
    boot_and_timings(page, site_url)
    assert snapshot_saved(page)["type"] == "snapshot-saved"
    [entry] = saved_snapshots(page)
    wheel, stdlib = snapshot_of(build_info).split()
    put_snapshot(page, entry["url"], {"build": f"{wheel} {stdlib}", "another engine": f"{'0' * 64} {stdlib}",
                                      "another library": f"{wheel} {'0' * 64}"}[holds])
    timings = boot_and_timings(page, site_url)
    assert timings["snapshot"] == "missing"
    assert error in timings["snapshotError"]
    assert snapshot_saved(page)["type"] == "snapshot-saved"
    [entry] = saved_snapshots(page)
    assert entry["engine"] == snapshot_of(build_info) and int(entry["bytes"]) > 1_000_000


def test_a_snapshot_is_stored_without_its_zero_pages_and_read_back_whole_or_not_at_all(guarded_page, site_url):
    page = guarded_page
    page.goto(site_url + "bench/bare.html")  # a page of the site that neither saves nor reads snapshots
    outcome = page.evaluate("""async () => {
        const { SnapshotStore, pack, unpack } = await import("/js/snapshot-store.js");
        const page = 65536, memory = new Uint8Array(5 * page + 4 * 1001 + 3);  // a short last page
        memory[7] = 1; memory[3 * page + 5] = 2; memory[memory.length - 1] = 3;  // pages 0, 3 and the last
        const same = (a, b) => a !== null && a.length === b.length && a.every((x, i) => x === b[i]);
        const packed = pack(memory);
        const shifted = new Uint8Array(memory.length + 1);
        shifted.set(memory, 1);
        const store = new SnapshotStore(new URL("/test-snapshot.bin", location.href).href);
        await store.write(memory, "test");
        const saved = await store.read();
        const back = await saved.bytes;
        const cache = await caches.open("coinche-pyodide-snapshots");
        const entry = await cache.match("/test-snapshot.bin");
        const headers = Object.fromEntries(["X-Snapshot-Bytes", "X-Snapshot-Stored"].map((h) => [h, entry.headers.get(h)]));
        await cache.put("/test-snapshot.bin", new Response(packed.slice(0, -1), { headers }));  // cut short
        const cut = await store.read().then((s) => s.bytes).then(() => "read", (error) => error.message);
        return {
            kept: packed.length - 8 - 4 * 3, roundTrip: same(unpack(packed.buffer), memory),
            misaligned: same(unpack(pack(shifted.subarray(1)).buffer), memory),
            truncated: unpack(packed.slice(0, -1).buffer), junk: unpack(new Uint8Array([9, 9, 9]).buffer),
            engine: saved.engine, stored: same(back, memory), headers, cut, left: (await cache.keys()).length,
        };
    }""")
    assert outcome == {
        "kept": 65536 + 65536 + 4004 + 3, "roundTrip": True, "misaligned": True, "truncated": None, "junk": None,
        "engine": "test", "stored": True, "headers": {"X-Snapshot-Bytes": str(5 * 65536 + 4007),
                                                       "X-Snapshot-Stored": str(8 + 12 + 2 * 65536 + 4007)},
        "cut": f"the saved snapshot is not whole ({8 + 12 + 2 * 65536 + 4007 - 1} bytes)", "left": 0,
    }


def test_engine_without_snapshot_neither_restores_nor_saves(guarded_page, site_url):
    page = guarded_page
    page.goto(site_url + "bench/bare.html")  # a page of the site that neither saves nor reads snapshots
    timings = page.evaluate("""async () => {
        const { Engine } = await import("/js/engine.js");
        const engine = new Engine({ snapshot: false });
        await engine.ready;
        return engine.timings;
    }""")
    assert timings["snapshot"] == "off"
    assert page.evaluate("async (name) => (await caches.keys()).includes(name)", SNAPSHOTS) is False


def test_a_wheel_from_another_deploy_makes_the_worker_read_build_info_again(guarded_page, site_url):
    page = guarded_page
    served = []

    def stale_first(route):  # the first build-info.json names a wheel that a new deploy replaced
        response = route.fetch()
        info = response.json()
        if not served:
            info["wheel"]["sha256"] = "0" * 64
        served.append(info["wheel"]["sha256"])
        route.fulfill(response=response, json=info)

    page.route("**/build-info.json", stale_first)
    page.goto(site_url)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT_MS)
    assert len(served) == 2 and served[0] != served[1]


def test_text_and_webassembly_are_served_compressed_with_their_own_type(site_url, build_info):
    import gzip
    import urllib.request

    def get(path, accept):
        request = urllib.request.Request(site_url + path, headers={"Accept-Encoding": accept} if accept else {})
        with urllib.request.urlopen(request) as response:
            return response.headers, response.read()

    wasm = build_info["pyodide"]["url"] + "pyodide.asm.wasm"
    for path, kind in [(wasm, "application/wasm"), ("js/main.js", "text/javascript"), ("index.html", "text/html"),
                       ("build-info.json", "application/json")]:
        headers, body = get(path, "gzip, deflate")
        assert headers["Content-Type"] == kind and headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in headers["Vary"] and int(headers["Content-Length"]) == len(body)
        assert gzip.decompress(body) == (DIST / path).read_bytes(), path
        plain_headers, plain = get(path, None)
        assert plain_headers["Content-Encoding"] is None and plain == (DIST / path).read_bytes(), path
        refused, _ = get(path, "gzip;q=0, identity")
        assert refused["Content-Encoding"] is None, path
    for path in [build_info["pyodide"]["url"] + build_info["pyodide"]["stdlib"], build_info["wheel"]["url"],
                 "icons/icon-192.png"]:
        headers, body = get(path, "gzip, deflate, br")
        assert headers["Content-Encoding"] is None and body == (DIST / path).read_bytes(), path


def test_the_table_page_gets_its_styles_in_one_file_in_their_order():
    source = (ROOT / "web" / "index.html").read_text()
    sheets = re.findall(r'<link rel="stylesheet" href="(css/[\w-]+\.css)">', source)
    assert len(sheets) > 1
    built = (DIST / "index.html").read_text()
    assert re.findall(r'rel="stylesheet" href="([^"]+)"', built) == ["css/index.css"]
    assert built.index("css/index.css") < built.index("js/main.js")  # where the first stylesheet was
    bundle = (DIST / "css" / "index.css").read_text()
    positions = [bundle.index((ROOT / "web" / name).read_text()) for name in sheets]
    assert positions == sorted(positions)  # the cascade keeps its order


def test_a_page_without_its_stylesheet_lines_fails_the_build(tmp_path):
    build_site = load_tool("build_site")
    page = tmp_path / "index.html"
    page.write_text('<head><link href="css/a.css" rel="stylesheet"></head>')
    with pytest.raises(build_site.BuildError, match="stylesheets"):
        build_site.bundle_styles(page, "css/index.css")


def recording_server(folder):
    """tools/serve.py serving folder on a free port, recording (path, TCP_NODELAY, conditional) for each
    request (conditional: a revalidation, If-None-Match or If-Modified-Since); started."""
    import functools
    import socket
    import threading

    server = load_tool("serve").make_server(folder, port=0, quiet=True)
    server.seen = []
    configured = server.RequestHandlerClass  # functools.partial(handler class, directory=...)

    class Recording(configured.func):
        def parse_request(self):
            parsed = super().parse_request()
            if parsed:
                conditional = "If-None-Match" in self.headers or "If-Modified-Since" in self.headers
                nodelay = self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                server.seen.append((self.path, nodelay, conditional))
            return parsed

    server.RequestHandlerClass = functools.partial(Recording, *configured.args, **configured.keywords)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    server.url = "http://{}:{}/".format(*server.server_address[:2])
    return server


def test_the_server_sends_without_nagle_delays(tmp_path):
    # A real host sets TCP_NODELAY: with Nagle's algorithm each small file's body waited ~40 ms for the
    # browser's delayed ACK, and the boot bench's figures carried that wait at every step of a module chain.
    import urllib.request

    (tmp_path / "a.txt").write_text("a")
    server = recording_server(tmp_path)
    try:
        with urllib.request.urlopen(server.url + "a.txt") as response:
            assert response.read() == b"a"
    finally:
        server.shutdown()
    assert server.seen and all(nodelay for _, nodelay, _ in server.seen), server.seen


def test_a_first_visit_downloads_pyodides_big_files_once(page, build_info):
    # Whatever starts them (the worker, or an early download from the page), the two big files travel once;
    # the service worker's precache then only revalidates them.
    server = recording_server(DIST)
    try:
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT_MS)
    finally:
        server.shutdown()
    for name in ("pyodide.asm.wasm", build_info["pyodide"]["stdlib"]):
        path = "/" + build_info["pyodide"]["url"] + name
        downloads = [seen for seen, _, conditional in server.seen if seen == path and not conditional]
        assert len(downloads) == 1, (name, len(downloads))


def test_the_browser_gets_pyodide_compressed_and_boots(guarded_page, site_url, build_info):
    page = guarded_page
    page.goto(site_url)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT_MS)
    wasm = next(r for r in page.responses if r.url.endswith("pyodide.asm.wasm"))
    headers = wasm.all_headers()
    assert headers["content-encoding"] == "gzip" and headers["content-type"] == "application/wasm"
    assert int(headers["content-length"]) < (DIST / build_info["pyodide"]["url"] / "pyodide.asm.wasm").stat().st_size / 2
