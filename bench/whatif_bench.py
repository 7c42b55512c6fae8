#!/usr/bin/env python3
"""How long a what-if branch takes to compute in CPython (CPU time of coinche.whatif.what_if): a finished deal
branched at a card of its trick 1, 4 or 7 (another allowed card there) and played out by the Expert bots or
double dummy (the solver from EXACT_CARDS cards left, the Expert before).

    .venv/bin/python bench/whatif_bench.py [--deals 6] [--seed whatif-bench] [--exact N]
    node tools/pyodide_node.mjs bench/whatif_bench.py [...]     the same under Pyodide (the browser's Python,
                                                                 wall time: it has no process clock)
    .venv/bin/python bench/whatif_bench.py --browser [...]      the same in headless Chromium: the page's engine
                                                                 worker's `what_if` round trip (make build first;
                                                                 the site's EXACT_CARDS, --exact not taken)

The deals are random legal play after a seeded auction (tests/test_whatif.py played_record's way).
--exact tries another `coinche.whatif.EXACT_CARDS` (cards left from which double dummy is exact; 32: every
card of the branch).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from coinche.deal import Deal
from coinche.record import deal_to_record
from coinche import whatif
from coinche.whatif import choices, what_if

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = sys.platform == "emscripten"
CLOCK = time.perf_counter if PYODIDE else time.process_time


def played_record(rng: random.Random, index: int) -> dict:
    deal = Deal.new("coinche", dealer=index % 4, seed=rng.randrange(10**9))
    for call in (rng.choice(("80", "90", "100")) + rng.choice("shdc"), "pass", "pass", "pass"):
        deal.apply(call)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_cards()))
    return deal_to_record(deal)


# In the page: each branch asked of the engine worker as the replay's What if asks it, timed with performance.now().
BROWSER_TIMES = """async (jobs) => {
  const { engine } = await import("/js/main.js");
  const out = [];
  for (const job of jobs) {
    const started = performance.now();
    await engine.call("what_if", job);
    out.push(performance.now() - started);
  }
  return out;
}"""


def branches(records: list[dict]) -> list[tuple[str, int, dict, int, str]]:
    """``(by, trick, record, ply, move)``: at the first card of trick 1, 4 and 7, another allowed card."""
    out = []
    for by in ("expert", "dd"):
        for trick in (1, 4, 7):
            for record in records:
                ply = len(record["calls"]) + 4 * (trick - 1)
                allowed = choices(record, ply)
                move = next((m for m in allowed["moves"] if m != allowed["real"]), allowed["real"])
                out.append((by, trick, record, ply, move))
    return out


def python_times(jobs: list) -> list[float]:
    times = []
    for by, _, record, ply, move in jobs:
        start = CLOCK()
        what_if(record, [(ply, move)], by=by)
        times.append(CLOCK() - start)
    return times


def browser_times(jobs: list, dist: Path) -> list[float]:
    """The same branches in headless Chromium, through the built site's engine worker (wall time)."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "e2e"))
    from chromium import CHROMIUM, CHROMIUM_ARGS, load_tool

    if not (dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {dist} is not built: run `make build`")
    server, url = load_tool("serve").serve_in_background(dist)
    asked = [{"record": record, "line": f"{ply}:{move}", "by": by} for by, _, record, ply, move in jobs]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-state=ready]", timeout=120_000)
            page.evaluate(BROWSER_TIMES, asked[:1])  # the first call imports the what-if modules: not timed
            times = [ms / 1000 for ms in page.evaluate(BROWSER_TIMES, asked)]
            browser.close()
    finally:
        server.shutdown()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", default="whatif-bench")
    parser.add_argument("--exact", type=int, default=whatif.EXACT_CARDS)
    parser.add_argument("--browser", action="store_true", help="in headless Chromium, the built site's engine")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    if args.browser and args.exact != whatif.EXACT_CARDS:
        parser.error("--exact is not taken with --browser: the site's engine uses its own EXACT_CARDS")
    whatif.EXACT_CARDS = args.exact
    rng = random.Random(args.seed)
    records = [played_record(rng, i) for i in range(args.deals)]
    jobs = branches(records)
    if args.browser:
        where, times = "Chromium, the engine worker's round trip, wall time", browser_times(jobs, args.dist)
    else:
        where, times = ("Pyodide, wall time" if PYODIDE else "CPython, CPU time"), python_times(jobs)
    print(f"what-if branches of {args.deals} deals ({where}) per branch (dd exact from {args.exact} cards left)")
    for by in ("expert", "dd"):
        for trick in (1, 4, 7):
            mine = [t for (b, k, *_), t in zip(jobs, times) if (b, k) == (by, trick)]
            print(f"  by {by:6} from trick {trick}: median {statistics.median(mine) * 1000:7.0f} ms, "
                  f"max {max(mine) * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
