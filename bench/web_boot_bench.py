#!/usr/bin/env python3
"""How long the built site takes to boot in headless Chromium, cold and warm. Medians over runs.

    .venv/bin/python bench/web_boot_bench.py [--runs 5] [--warm 3] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port. Each run opens a new
Chromium profile per page: the first visit is "cold" (empty HTTP cache, no Pyodide snapshot), the next
--warm visits are "warm". Times are from navigation start, read from the page's own performance entries:
- bare Pyodide (bench/bare.html): Pyodide started in a module worker, nothing else ("pyodide-ready").
- index: first contentful paint ("visible") and the engine worker ready, its ping answered
  ("engine-worker-ready", marked by web/js/engine.js); a warm visit restores the memory snapshot that
  the first visit saved.
- index, no snapshot: the same, with the saved snapshot deleted before each warm visit.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from conftest import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

SNAPSHOTS = "coinche-pyodide-snapshots"
ENTRIES = """() => Object.fromEntries(performance.getEntries()
    .filter((e) => e.entryType === "mark" || e.entryType === "paint")
    .map((e) => [e.name, e.startTime]))"""
SNAPSHOT_KEYS = "async (name) => (await (await caches.open(name)).keys()).length"
DELETE_SNAPSHOTS = "async (name) => caches.delete(name)"


def visit(context, url: str, fetched: list[str] | None = None, timeout_s: float = 120) -> dict[str, float]:
    """Open url in a new page, wait for <body data-state> to leave "loading"; its performance entries.

    The URLs of the responses it got are added to `fetched` if given.
    """
    page = context.new_page()
    if fetched is not None:
        page.on("response", lambda response: fetched.append(response.url))
    try:
        page.goto(url)
        deadline = time.monotonic() + timeout_s
        while (state := page.evaluate("() => document.body.dataset.state")) == "loading":
            if time.monotonic() > deadline:
                raise SystemExit(f"bench: {url} did not boot within {timeout_s} s")
            time.sleep(0.05)
        if state != "ready":
            raise SystemExit(f"bench: {url} ended in state {state!r}")
        return page.evaluate(ENTRIES)
    finally:
        page.close()


def wait_for_snapshot(context, url: str) -> None:
    page = context.new_page()
    page.goto(url + "bench/bare.html")  # any page of the origin will do
    for _ in range(100):
        if page.evaluate(SNAPSHOT_KEYS, SNAPSHOTS):
            break
        time.sleep(0.1)
    else:
        raise SystemExit("bench: the first visit saved no Pyodide snapshot")
    page.close()


def delete_snapshots(context, url: str) -> None:
    page = context.new_page()
    page.goto(url + "bench/bare.html")
    page.evaluate(DELETE_SNAPSHOTS, SNAPSHOTS)
    page.close()


SCENARIOS = {
    # name: (path, marks to report, what to do before each warm visit)
    "bare Pyodide": ("bench/bare.html", ("pyodide-ready",), lambda context, url: None),
    "index": ("", ("first-contentful-paint", "engine-worker-ready"), wait_for_snapshot),
    "index, no snapshot": ("", ("first-contentful-paint", "engine-worker-ready"), delete_snapshots),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="new profiles per page (default 5)")
    parser.add_argument("--warm", type=int, default=3, help="warm visits per profile (default 3)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    if not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {args.dist} is not built: run `make build`")

    server = load_tool("serve").make_server(args.dist, port=0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://{}:{}/".format(*server.server_address[:2])
    samples: dict[tuple[str, str, str], list[float]] = {}
    fetched: list[str] = []
    with sync_playwright() as playwright:
        for run in range(args.runs):
            for name, (path, marks, before_warm) in SCENARIOS.items():
                with tempfile.TemporaryDirectory() as profile:
                    context = playwright.chromium.launch_persistent_context(
                        profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
                    for visit_index in range(1 + args.warm):
                        kind = "cold" if visit_index == 0 else "warm"
                        if kind == "warm":
                            before_warm(context, url)
                        first_visit = run == 0 and kind == "cold" and name == "index"
                        entries = visit(context, url + path, fetched if first_visit else None)
                        for mark in marks:
                            samples.setdefault((name, kind, mark), []).append(entries[mark] / 1000)
                    context.close()
            print(f"bench: run {run + 1}/{args.runs} done", file=sys.stderr, flush=True)
    server.shutdown()

    print(f"\nboot times from navigation, median of {args.runs} cold and {args.runs * args.warm} warm visits "
          "(headless Chromium, localhost)\n")
    files = sorted({urlsplit(u).path.lstrip("/") or "index.html" for u in fetched if u.startswith(url)})
    raw = [(args.dist / f).read_bytes() for f in files if (args.dist / f).is_file()]
    print(f"first visit of index: {len(raw)} files, {sum(map(len, raw)) / 1e6:.2f} MB, "
          f"{sum(len(gzip.compress(b, 6)) for b in raw) / 1e6:.2f} MB gzipped\n")
    print(f"| {'page':20} | visit | {'visible (FCP)':>13} | {'ready':>7} |")
    print(f"|{'-' * 22}|-------|{'-' * 15}|{'-' * 9}|")
    for name, (_, marks, _) in SCENARIOS.items():
        for kind in ("cold", "warm"):
            fcp = samples.get((name, kind, "first-contentful-paint"))
            ready = samples[(name, kind, marks[-1])]
            fcp_text = f"{statistics.median(fcp):.2f} s" if fcp else "-"
            print(f"| {name:20} | {kind:5} | {fcp_text:>13} | {statistics.median(ready):5.2f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
