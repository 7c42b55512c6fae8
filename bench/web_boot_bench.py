#!/usr/bin/env python3
"""From navigation to the player's first decision, against Pyodide's own boot: cold and warm, interleaved.

    .venv/bin/python bench/web_boot_bench.py [--runs 5] [--warm 2] [--dist dist] [--stock]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port, with the encodings Netlify
sends. Each run starts two fresh Chromium profiles, one for the bare baseline and one for the table, in
alternating order; each profile makes one cold visit (empty HTTP cache, no service worker, no Pyodide
snapshot) and --warm later visits. A freshly started Chromium spends its first second or so loading its own
pages (its omnibox's WebUI: some 300 chrome:// requests and a busy renderer), so the first visit waits
--settle seconds after the browser starts, as a user's browser would already be running. Times are from
navigation start, read from the pages' own marks:

- bare Pyodide: web/bench/bare.html, a module worker that runs loadPyodide() then runPython("1+1")
  ("pyodide-ready"), with the site's own Pyodide files (its standard library holding the bytecode of what
  the site imports, tools/precompile_stdlib.py);
- with --stock, a third page: the same, with the standard library as Pyodide's release ships it (sources
  only, bench/bare.html?stdlib=stock; the bench serves a copy of dist/ with that file added), to show what
  the precompiled library gains; the ratios stay against the site's own Pyodide;
- engine ready: the table's engine worker answering ("engine-worker-ready", web/js/engine.js);
- cards dealt: the first hand on screen ("cards-dealt", web/js/table/game.js), "Play coinche" having been
  pressed as soon as the home screen showed it;
- player can act: the player's first turn drawn, the bidding panel open ("player-can-act");
- engine's deal drawn: the engine's answer to the new match on screen ("match-ready"). Pressed while the engine
  boots, *Play* draws at once a first deal that the engine dealt when the site was built (first-deals.json,
  tools/first_deals.py) and the engine deals the same cards once it is up: "cards dealt" and "player can act"
  then come before "engine ready", and a call made meanwhile is sent when the engine's deal is drawn.

Prints the medians and the ratios to the bare boot of the same kind of visit (cold to cold, warm to warm),
with the machine's load average, since other work on the machine slows every figure.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from coinche_lab.stats import median
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

SNAPSHOTS = "coinche-pyodide-snapshots"
MARKS = """() => Object.fromEntries(performance.getEntries()
    .filter((e) => e.entryType === "mark" || e.entryType === "paint")
    .map((e) => [e.name, e.startTime]))"""
HAS_MARK = "(name) => performance.getEntriesByName(name).length > 0"
SNAPSHOT_SAVED = "async (name) => (await (await caches.open(name)).keys()).length > 0"
SW_READY = "async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)"
COLUMNS = {"bare": "pyodide-ready", "engine": "engine-worker-ready", "dealt": "cards-dealt", "act": "player-can-act",
           "answered": "match-ready"}
TITLES = {"bare": "bare Pyodide", "engine": "engine ready", "dealt": "cards dealt", "act": "player can act",
          "answered": "engine's deal drawn"}
GOALS = {("cold", "dealt"): 1.05, ("cold", "act"): 1.15, ("warm", "dealt"): 0.5, ("warm", "act"): 1.0}


def poll(page, script: str, arg, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(script, arg):
        if page.evaluate("() => document.body.dataset.state") == "error":
            raise SystemExit(f"bench: {what}: the page ended in error")
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: {what}: not within {timeout_s} s")
        time.sleep(0.02)


# Where the time goes inside the workers, in ms from navigation: the worker begun, its module running,
# Python up (and, in the table's, the engine imported).
BARE_PHASES = "() => performance.getEntriesByName('pyodide-ready')[0].detail"
TABLE_PHASES = """() => {
  const t = performance.getEntriesByName('engine-worker-ready')[0].detail;
  const began = t.origin - performance.timeOrigin, module = began + t.module;
  return { worker: began, module, python: module + t.pyodide, engine: module + t.engine };
}"""
PHASES = {"worker": "worker begun", "module": "its module running", "python": "Python up", "engine": "engine imported"}


def visit_bare(context, url: str, query: str = "") -> dict[str, float]:
    page = context.new_page()
    try:
        page.goto(url + "bench/bare.html" + query)
        poll(page, HAS_MARK, "pyodide-ready", 120, "bare Pyodide")
        if page.evaluate("() => document.body.dataset.state") != "ready":
            raise SystemExit(f"bench: bare Pyodide failed: {page.evaluate('() => document.body.dataset.detail')}")
        return {**page.evaluate(MARKS), "phases": page.evaluate(BARE_PHASES)}
    finally:
        page.close()


def visit_table(context, url: str, cold: bool) -> dict[str, float]:
    """Play coinche pressed as soon as it shows; the marks once the player can act. After a cold visit,
    waits for what a later visit uses: the Pyodide snapshot and the service worker."""
    page = context.new_page()
    try:
        page.goto(url)
        page.locator("#btn-play-coinche").click()
        poll(page, HAS_MARK, "player-can-act", 120, "the table")
        poll(page, HAS_MARK, "match-ready", 120, "the engine's first deal")
        marks = {**page.evaluate(MARKS), "phases": page.evaluate(TABLE_PHASES)}
        marks["preview"] = "first-deal-drawn" in marks
        if cold:
            poll(page, SNAPSHOT_SAVED, SNAPSHOTS, 60, "the Pyodide snapshot")
            poll(page, SW_READY, None, 60, "the service worker")
        page.evaluate("() => localStorage.removeItem('coinche.match')")  # no saved match: the next visit plays anew
        return marks
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh profiles per page (default 5)")
    parser.add_argument("--warm", type=int, default=2, help="later visits per profile (default 2)")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds between starting a profile's browser and its first visit (default 2)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--stock", action="store_true",
                        help="also boot Pyodide with the standard library of its release (sources only)")
    args = parser.parse_args(argv)
    if not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {args.dist} is not built: run `make build`")
    with tempfile.TemporaryDirectory() as folder:
        site = with_stock_stdlib(args.dist, Path(folder) / "site") if args.stock else args.dist
        return bench(args, site)


def with_stock_stdlib(dist: Path, site: Path) -> Path:
    """A copy of dist with Pyodide's own standard library at bench/stock/python_stdlib.zip (bare-worker.js)."""
    build = load_tool("build_site")
    tgz = build.CACHE / build.PYODIDE_TGZ
    if not tgz.is_file():
        raise SystemExit(f"bench: {tgz} is missing: run `make build`")
    shutil.copytree(dist, site)
    (site / "bench" / "stock").mkdir()
    (site / "bench" / "stock" / "python_stdlib.zip").write_bytes(build.pyodide_file(tgz, "python_stdlib.zip"))
    return site


def bench(args, site: Path) -> int:
    server, url = load_tool("serve").serve_in_background(site)
    by_run: dict[tuple[str, str], dict[int, list[float]]] = {}  # (kind, column) -> run -> its samples
    loads = [os.getloadavg()[0]]

    def profile(playwright, visit, run: int) -> None:
        with tempfile.TemporaryDirectory() as folder:
            context = playwright.chromium.launch_persistent_context(
                folder, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            time.sleep(args.settle)  # a user's browser is running already: its own start-up is not the page's
            try:
                for index in range(1 + args.warm):
                    kind = "cold" if index == 0 else "warm"
                    for column, seconds in visit(context, kind).items():
                        by_run.setdefault((kind, column), {}).setdefault(run, []).append(seconds)
            finally:
                context.close()

    def bare(context, kind):
        marks = visit_bare(context, url)
        return {"bare": marks["pyodide-ready"] / 1000, **phases("bare", marks)}

    def stock(context, kind):
        return {"stock": visit_bare(context, url, "?stdlib=stock")["pyodide-ready"] / 1000}

    def table(context, kind):
        marks = visit_table(context, url, kind == "cold")
        return {**{column: marks[mark] / 1000 for column, mark in COLUMNS.items() if column != "bare"},
                "preview": float(marks["preview"]), **phases("table", marks)}

    def phases(page, marks):
        return {f"{page}:{name}": value / 1000 for name, value in marks["phases"].items()}

    with sync_playwright() as playwright:
        for run in range(args.runs):
            pages = (bare, table, stock) if args.stock else (bare, table)
            order = pages[run % len(pages):] + pages[:run % len(pages)]  # each page in each place in turn
            for visit in order:
                profile(playwright, visit, run)
            loads.append(os.getloadavg()[0])
            print(f"bench: run {run + 1}/{args.runs} done", file=sys.stderr, flush=True)
    server.shutdown()
    samples = {key: [seconds for run in runs.values() for seconds in run] for key, runs in by_run.items()}

    print(f"\nseconds from navigation, medians of {args.runs} cold and {args.runs * args.warm} warm visits "
          f"per page, interleaved (headless Chromium settled {args.settle:g} s, localhost, gzip as served; "
          f"load average {min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} cores)\n")
    print("| visit | " + " | ".join(TITLES.values()) + " |")
    print("|---|" + "---:|" * len(TITLES))
    for kind in ("cold", "warm"):
        row = [f"{median(samples.get((kind, column), [])):.2f}" for column in TITLES]
        print(f"| {'first' if kind == 'cold' else 'later'} | " + " | ".join(row) + " |")
    print("\nratios to the bare Pyodide boot of the same kind of visit (goal in brackets):\n")
    for kind in ("cold", "warm"):
        bare_s = median(samples.get((kind, "bare"), []))
        parts = []
        for column in ("engine", "dealt", "act", "answered"):
            ratio = median(samples.get((kind, column), [])) / bare_s
            goal = GOALS.get((kind, column))
            verdict = "" if goal is None else f" (<= {goal:.2f}: {'met' if ratio <= goal else 'MISSED'})"
            parts.append(f"{TITLES[column]} {ratio:.2f}x{verdict}")
        print(f"  {'first visit' if kind == 'cold' else 'later visit'}: " + "; ".join(parts))
    for kind in ("cold", "warm"):
        drawn = samples.get((kind, "preview"), [])
        print(f"  {'first visits' if kind == 'cold' else 'later visits'} that drew the build's first deal before the "
              f"engine dealt it: {sum(drawn):.0f} of {len(drawn)}")

    # Each run's table against the bare boot of the same run (the two profiles back to back): the drift of
    # the machine between runs cancels; the spread says how far one run's figure can be trusted.
    print("\nthe same ratios run by run (each run's medians against its own bare boot): median [min .. max]\n")
    for kind in ("cold", "warm"):
        parts = []
        for column in ("dealt", "act"):
            bare_runs, table_runs = by_run.get((kind, "bare"), {}), by_run.get((kind, column), {})
            ratios = sorted(median(table_runs[r]) / median(bare_runs[r]) for r in table_runs if r in bare_runs)
            if ratios:
                parts.append(f"{TITLES[column]} {median(ratios):.2f}x [{ratios[0]:.2f} .. {ratios[-1]:.2f}]")
        print(f"  {'first visit' if kind == 'cold' else 'later visit'}: " + "; ".join(parts))

    print("\nwhere a first visit's time goes (seconds from navigation, medians):\n")
    print("| page | " + " | ".join(PHASES.values()) + " | ready |")
    print("|---|" + "---:|" * (len(PHASES) + 1))
    for page, ready in (("bare", "bare"), ("table", "engine")):
        row = [median(samples.get(("cold", f"{page}:{name}"), [])) for name in PHASES]
        cells = ["" if value != value else f"{value:.2f}" for value in row]  # nan: no such phase
        print(f"| {'bare Pyodide' if page == 'bare' else 'the table'} | " + " | ".join(cells)
              + f" | {median(samples.get(('cold', ready), [])):.2f} |")
    if args.stock:
        print("\nPyodide with its release's standard library (sources, compiled at each start), against the site's "
              "(bytecode of what the site imports), bare boots, medians:\n")
        for kind in ("cold", "warm"):
            stock_s, bare_s = median(samples.get((kind, "stock"), [])), median(samples.get((kind, "bare"), []))
            print(f"  {'first visit' if kind == 'cold' else 'later visit'}: {stock_s:.2f} s against {bare_s:.2f} s "
                  f"({stock_s / bare_s:.1f}x as long)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
