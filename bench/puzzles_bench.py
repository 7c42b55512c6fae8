#!/usr/bin/env python3
"""The puzzle page's speed in headless Chromium, once its engine is up.

    .venv/bin/python bench/puzzles_bench.py [--next 40] [--checks 60] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port, opens puzzles.html and
waits for its first puzzle, then
- next -> shown: --next times, a card of the puzzle answered and "Next puzzle" pressed; the page's measure
  "puzzle-next", from the press to the next puzzle drawn (its figures asked for ahead: js/puzzles/main.js),
  and the time until a frame is drawn after it. Goal: 100 ms. The same presses give the page's measure
  "puzzle-check", from a card pressed to the answer shown, the figures having been asked for ahead.
- an open puzzle's check: the engine's `puzzle_solve` (every legal card's value, solved double dummy) on the
  first --checks open puzzles of the shipped set, each asked once from the page, timed in the page from the
  call to its answer. Goal: 1 s.
Median, 95th percentile and maximum of each, in milliseconds.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

# One "next", timed in the page: the current puzzle answered with its first card, then Next pressed; the
# page's own measure and the time to the next frame.
NEXT = """async () => {
    const section = document.getElementById("puzzle");
    const before = section.dataset.id;
    const answered = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
            if (section.dataset.state === "answered") { observer.disconnect(); resolve(); }
        });
        observer.observe(section, { attributes: true });
    });
    document.querySelector('.puzzle-seat.is-mine .card[data-card]').click();
    await answered;
    const checked = performance.getEntriesByName("puzzle-check").at(-1).duration;
    const start = performance.now();
    document.getElementById("next").click();
    while (section.dataset.state !== "ready" || section.dataset.id === before) {
        await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const drawn = performance.now() - start;
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return [performance.getEntriesByName("puzzle-next").at(-1).duration, drawn, performance.now() - start, checked];
}"""

CHECKS = """async (n) => {
    const { engine } = await import("./js/puzzles/main.js");
    const text = await (await fetch("puzzles/open.jsonl")).text();
    const puzzles = text.split("\\n").filter((l) => l.trim()).map((l) => JSON.parse(l))
        .filter((p) => p.kind !== "seat").slice(0, n);
    const times = [];
    for (const puzzle of puzzles) {
        const start = performance.now();
        await engine.call("puzzle_solve", { puzzle });
        times.push([performance.now() - start, puzzle.hands[puzzle.to_play].length]);
    }
    return times;
}"""


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):7.1f}  p95 {p95:7.1f}  max {ordered[-1]:7.1f}  (n={len(ordered)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--next", type=int, default=40)
    parser.add_argument("--checks", type=int, default=60)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    server, base = load_tool("serve").serve_in_background(args.dist)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(base + "puzzles.html")
            deadline = time.monotonic() + 180
            while page.evaluate("() => document.getElementById('puzzle').dataset.state") != "ready":
                if time.monotonic() > deadline:
                    raise SystemExit("bench: no puzzle within 180 s")
                time.sleep(0.05)
            nexts = [page.evaluate(NEXT) for _ in range(args.next)]
            print(f"next -> shown (page measure), ms:  {summary([n[0] for n in nexts])}")
            print(f"next -> drawn, ms:                 {summary([n[1] for n in nexts])}")
            print(f"next -> next frame, ms:            {summary([n[2] for n in nexts])}")
            print(f"card pressed -> answer shown (page measure, solved ahead), ms: {summary([n[3] for n in nexts])}")
            checks = page.evaluate(CHECKS, args.checks)
            print(f"open puzzle check (puzzle_solve), ms: {summary([c[0] for c in checks])}")
            by_size: dict[int, list[float]] = {}
            for ms, cards in checks:
                by_size.setdefault(cards, []).append(ms)
            print("  by cards in hand: " + json.dumps({k: round(max(v)) for k, v in sorted(by_size.items())}) + " (max ms)")
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
