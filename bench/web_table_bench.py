#!/usr/bin/env python3
"""The table in headless Chromium: how soon the page is visible and playable, cold and warm, and how long
the bots take to decide, measured inside the browser.

    .venv/bin/python bench/web_table_bench.py [--runs 3] [--warm 3] [--steps 150] [--levels easy,normal,expert]
                                              [--rules contracts=all,announce=yes] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port. Each run opens a new
Chromium profile: its first visit is "cold" (empty HTTP cache, no Pyodide snapshot), the next --warm visits
in the same profile are "warm". Times are from navigation start, read from the page's performance marks:
- visible: the home screen drawn with its texts ("home-visible", web/js/main.js); first contentful paint too;
- playable: "Play coinche" pressed as soon as it shows, the engine ready and `new_match` answered
  ("match-ready", web/js/table/game.js).
Bot decisions: for each level, a match driven through the page's engine worker (`bot_step` round trips,
postMessage included, the human seat playing its first legal action), timed with performance.now(), at a
table of the game's own rules or of the house rules given with --rules; --runs 0 times the bots alone.
Goal: visible within 300 ms.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from coinche_lab.stats import median, percentile
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

GOAL_VISIBLE_MS = 300
MARKS = """() => Object.fromEntries(performance.getEntries()
    .filter((e) => e.entryType === "mark" || e.entryType === "paint")
    .map((e) => [e.name, e.startTime]))"""
HAS_MARK = "(name) => performance.getEntriesByName(name).length > 0"

# In the page: a match per level through the engine worker; every bot_step timed.
BOT_TIMES = """async ({ levels, steps, rules }) => {
  const { engine } = await import("/js/main.js");
  const out = {};
  for (const level of levels) {
    const times = { auction: [], play: [] };
    let answer = await engine.call("new_match", { variant: "coinche", target: 1000, level, seed: "bench-" + level,
                                                  ...(rules ? { rules } : {}) });
    let taken = 0;
    while (taken < steps && answer.state.winner === null) {
      const deal = answer.state.deal;
      if (deal.current_player === 0) {
        const opening = deal.legal[0] === "pass" && deal.legal.length > 1 && deal.calls.length === 0;
        answer = await engine.call("act", { action: opening ? deal.legal[1] : deal.legal[0] });
        continue;
      }
      const started = performance.now();
      answer = await engine.call("bot_step");
      times[deal.phase].push(performance.now() - started);
      taken += 1;
    }
    out[level] = times;
  }
  return out;
}"""


def wait_mark(page, name: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(HAS_MARK, name):
        if page.evaluate("() => document.body.dataset.state") == "error":
            raise SystemExit("bench: the engine failed to boot")
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: no {name!r} mark within {timeout_s} s")
        time.sleep(0.02)


def visit(context, url: str) -> dict[str, float]:
    """One visit: home visible, then Play coinche pressed as soon as possible; the page's marks."""
    page = context.new_page()
    try:
        page.goto(url)
        page.locator("#btn-play-coinche").click()
        wait_mark(page, "match-ready")
        marks = page.evaluate(MARKS)
        page.evaluate("() => localStorage.removeItem('coinche.match')")  # no saved match offered at the next visit
        return marks
    finally:
        page.close()


def bot_times(context, url: str, levels: list[str], steps: int, rules: str | None = None) -> dict:
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_selector("body[data-state=ready]", timeout=120_000)
        return page.evaluate(BOT_TIMES, {"levels": levels, "steps": steps, "rules": rules})
    finally:
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="new profiles (cold visits)")
    parser.add_argument("--warm", type=int, default=3, help="warm visits per profile")
    parser.add_argument("--steps", type=int, default=150, help="bot decisions timed per level")
    parser.add_argument("--levels", default="easy,normal,expert", help="the bots timed, comma-separated")
    parser.add_argument("--rules", default=None, help="the table's house rules in their notation (default: the game's own)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    if not (args.dist / "build-info.json").is_file():
        raise SystemExit(f"bench: {args.dist} is not built: run `make build`")

    server, url = load_tool("serve").serve_in_background(args.dist)

    rows: dict[str, dict[str, list[float]]] = {"cold": {}, "warm": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        for run in range(args.runs):
            context = browser.new_context()  # a new profile: empty cache and storage
            for i in range(1 + args.warm):
                marks = visit(context, url)
                kind = "cold" if i == 0 else "warm"
                for name in ("first-contentful-paint", "home-visible", "engine-ready", "match-ready"):
                    if name in marks:
                        rows[kind].setdefault(name, []).append(marks[name])
                if i == 0:
                    time.sleep(1.0)  # let the first visit finish saving its Pyodide snapshot
            context.close()
        context = browser.new_context()
        bots = bot_times(context, url, args.levels.split(","), args.steps, args.rules)
        context.close()
        browser.close()
    server.shutdown()

    labels = {
        "first-contentful-paint": "first paint",
        "home-visible": "visible (home shown)",
        "engine-ready": "engine ready",
        "match-ready": "playable (new match answered)",
    }
    if args.runs:
        print(f"web table bench: {url} ({args.runs} profiles, {args.warm} warm visits each); medians, ms from navigation")
        print(f"  {'':32} {'cold':>8} {'warm':>8}")
        for name, label in labels.items():
            cold, warm = rows["cold"].get(name, []), rows["warm"].get(name, [])
            print(f"  {label:32} {median(cold):8.0f} {median(warm):8.0f}")
        visible = rows["cold"].get("home-visible", []) + rows["warm"].get("home-visible", [])
        worst = max(visible) if visible else float("nan")
        verdict = "met" if worst <= GOAL_VISIBLE_MS else "MISSED"
        print(f"  goal: visible within {GOAL_VISIBLE_MS} ms: {verdict} (worst visit {worst:.0f} ms)")
    rules = args.rules or "the game's own"
    print(f"bot decisions in the browser (bot_step round trip, ms), rules {rules}: median / p90 / p95 / max (count)")
    for level, phases in bots.items():
        parts = []
        for phase in ("auction", "play"):
            v = phases[phase]
            figures = (median(v), percentile(v, 0.9), percentile(v, 0.95), max(v) if v else float("nan"))
            parts.append(f"{phase} " + " / ".join(f"{x:6.1f}" for x in figures) + f" ({len(v)})")
        print(f"  {level:7} " + "   ".join(parts))


if __name__ == "__main__":
    main()
