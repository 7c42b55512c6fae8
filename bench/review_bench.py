#!/usr/bin/env python3
"""How long the Expert's review of a whole deal takes: in CPython (CPU time) and in the browser (wall time of
the page's own review, js/table/review.js: `review_plan`, one `review_decision` per decision, `review_summary`
through the engine worker, postMessage included), for the player's seat and for every seat.

    .venv/bin/python bench/review_bench.py [--deals 8] [--seed review-bench] [--dist dist] [--no-browser]
                                           [--exact N] [--exact-worlds N] [--hindsight N]

The browser runs each review twice: with the table's engine alone (a device with one core) and as the page
does it where there are two cores or more, the review helper (js/table/review-helper.js) taking decisions
too; the helper is stopped before every deal, so each deal's time counts the helper's start, as the first
review of a visit does.

The deals are played by Expert bots (`coinche simulate --bots expert`); a deal passed out is skipped (it has
no card to review), so --deals counts deals played. Serves dist/ (run `make build` first) with tools/serve.py
on a free localhost port. Goal: a whole deal reviewed within 10 s in the browser.

--exact and --exact-worlds try another `coinche.review.REVIEW_EXACT` (cards left from which the sampled deals
are solved double dummy) and `EXACT_WORLDS` (how many are then solved), --hindsight `HINDSIGHT_CARDS` (cards
left from which a card gets its cost in hindsight), in CPython only: the browser runs the engine as built in
--dist.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))

from coinche import Deal  # noqa: E402
from coinche.bots import make_bot  # noqa: E402
from coinche.record import deal_to_record  # noqa: E402
from coinche import review as review_module  # noqa: E402
from coinche.review import review  # noqa: E402
from coinche.rng import derive_seed  # noqa: E402

GOAL_S = 10.0
SEATS = {"seat 0": [0], "every seat": [0, 1, 2, 3]}

# In the page: each record reviewed afresh by the page's own review (nothing kept read), timed.
IN_PAGE = """async ({ records, seats, helper }) => {
  const { engine } = await import("/js/main.js");
  const { forgetReviews, jobFor } = await import("/js/table/review.js");
  const { allowHelper, stopHelper } = await import("/js/table/review-helper.js");
  allowHelper(helper);
  const out = [];
  for (const record of records) {
    forgetReviews();
    stopHelper();
    const started = performance.now();
    const job = jobFor(engine, record, seats);
    await new Promise((resolve) => {
      const check = () => { if (job.status !== "running") resolve(); };
      job.listeners.add(check);
      check();
    });
    if (job.status !== "done") throw new Error(`review ${job.status}: ${job.error}`);
    out.push({ ms: performance.now() - started, decisions: job.items.length });
  }
  allowHelper(true);
  return out;
}"""
#: The browser's runs: (label, seats, whether the review helper takes decisions too).
BROWSER_RUNS = tuple((label, seats, helper) for helper in (False, True) for label, seats in SEATS.items())


def expert_records(count: int, seed: str, level: str = "expert") -> list[dict]:
    """``count`` deals played by bots of ``level`` (the Expert by default), passed-out deals skipped."""
    records = []
    i = 0
    while len(records) < count:
        deal = Deal.new("coinche", i & 3, derive_seed(seed, i))
        bots = [make_bot(level, seed=derive_seed(seed, 1000 + s)) for s in range(4)]
        while not deal.is_over:
            deal.apply(bots[deal.turn].act(deal.view(deal.turn)))
        if deal.plays:
            records.append(deal_to_record(deal))
        i += 1
    return records


def cpython_times(records: list[dict], seats: list[int]) -> list[tuple[float, int]]:
    out = []
    for record in records:
        start = time.process_time()
        result = review(record, seats)
        out.append((time.process_time() - start, len(result["decisions"])))
    return out


def browser_times(records: list[dict], dist: Path) -> dict[tuple[str, bool], list[tuple[float, int]]]:
    from chromium import CHROMIUM, CHROMIUM_ARGS, load_tool
    from playwright.sync_api import sync_playwright

    server, url = load_tool("serve").serve_in_background(dist)
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-state=ready]", timeout=120_000)
        for label, seats, helper in BROWSER_RUNS:
            rows = page.evaluate(IN_PAGE, {"records": records, "seats": seats, "helper": helper})
            out[label, helper] = [(row["ms"] / 1000, row["decisions"]) for row in rows]
        browser.close()
    server.shutdown()
    return out


def line(label: str, rows: list[tuple[float, int]]) -> str:
    seconds = [s for s, _ in rows]
    decisions = sum(n for _, n in rows)
    return (f"  {label:12} median {statistics.median(seconds):6.2f} s   max {max(seconds):6.2f} s   "
            f"per decision {1000 * sum(seconds) / max(1, decisions):6.1f} ms   ({decisions} decisions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", default="review-bench")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--no-browser", action="store_true", help="CPython only")
    parser.add_argument("--exact", type=int, help="REVIEW_EXACT in CPython (default: the engine's)")
    parser.add_argument("--exact-worlds", type=int, help="EXACT_WORLDS in CPython (default: the engine's)")
    parser.add_argument("--hindsight", type=int, help="HINDSIGHT_CARDS in CPython (default: the engine's)")
    args = parser.parse_args()
    if args.exact is not None:
        review_module.REVIEW_EXACT = args.exact
    if args.exact_worlds is not None:
        review_module.EXACT_WORLDS = args.exact_worlds
    if args.hindsight is not None:
        review_module.HINDSIGHT_CARDS = args.hindsight
    if not args.no_browser and not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {args.dist} is not built: run `make build` (or pass --no-browser)")

    records = expert_records(args.deals, args.seed)
    print(f"review bench: {args.deals} deals played by Expert bots (seed {args.seed!r}); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"CPython: sampled deals solved exactly from {review_module.REVIEW_EXACT} cards left "
          f"({review_module.EXACT_WORLDS} of them above {review_module.CHEAP_EXACT} cards), hindsight from "
          f"{review_module.HINDSIGHT_CARDS} cards left")
    cpython = {label: cpython_times(records, seats) for label, seats in SEATS.items()}
    print("CPython, CPU time per deal:")
    for label, rows in cpython.items():
        print(line(label, rows))
    if args.no_browser:
        return
    browser = browser_times(records, args.dist)
    for helper in (False, True):
        print("the browser (Pyodide), wall time per deal, " + ("with the review helper (its start counted):" if helper
              else "the table's engine alone:"))
        for label in SEATS:
            print(line(label, browser[label, helper]))
    alone = sum(s for s, _ in browser["every seat", False])
    print(f"  browser (engine alone) / CPython: {alone / sum(s for s, _ in cpython['every seat']):.2f}x; "
          f"with the helper / alone: {sum(s for s, _ in browser['every seat', True]) / alone:.2f}x")
    for helper in (False, True):
        worst = max(s for s, _ in browser["every seat", helper])
        print(f"  goal: a whole deal within {GOAL_S:.0f} s in the browser, "
              f"{'with the helper' if helper else 'engine alone'}: {'met' if worst <= GOAL_S else 'MISSED'} "
              f"(worst deal, every seat: {worst:.2f} s)")


if __name__ == "__main__":
    main()
