#!/usr/bin/env python3
"""How fast the judge page tells a bad link, whatever its size, in headless Chromium.

    .venv/bin/python bench/judge_links_bench.py [--runs 7] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port. Each link is opened in
a new page --runs times; the figure is the page's measure "judge-link-read" (reading the fragment and
drawing the editor and the link's message, web/js/judge/main.js), median and minimum, with the height of
the message box. Then, for each bad link, the engine's word on it ("judge-link-told": from the page's first
look at the link to the engine's message drawn), the link followed --runs times from a judge page whose engine
is up (a good link followed between two tries). Goal: under 100 ms for any link, both
(issue 12: 100,000 characters once took about 4 s to read; issue 25: the engine's word on 33,000 cards). A
link longer than any position (coinche.position.MAX_LENGTH) is told "too long" by the page itself, in the
same reading, as the engine would tell it: its two figures are the same reading; a shorter one waits for the
worker's round trip.
Last, the engine's own `Position.parse` of each bad link in this CPython, best of --runs.
The machine's load is printed: on a shared machine the minimum is the page's own cost.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

from coinche import Position  # noqa: E402
from coinche.errors import CoincheError  # noqa: E402

LINKS = {
    "a good position": "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s",
    "a short bad link": "trump=h&trick=8h&hand=Jh,Xx,7s",
    "a card twice": "trump=h&trick=8h,Ah&hand=Jh,Kd,8h",
    "a hand of 20 cards": "trump=h&trick=&hand=" + ",".join(["Jh"] * 20),
    "100,000 characters": "x" * 100_000,
    "a hand of 33,000 cards": "trump=h&trick=&hand=" + ",".join(["Jh"] * 33_000),
    "20,000 bad cards": "trump=h&trick=&hand=" + ",".join(f"Q{i}" for i in range(20_000)),
}


def parse_times(fragment: str, runs: int) -> tuple[float, str]:
    """The best time of the engine's Position.parse of the link, in this process, and what it says."""
    best, said = float("inf"), "parsed"
    for _ in range(runs):
        start = time.perf_counter()
        try:
            Position.parse(fragment)
        except CoincheError as error:
            said = str(error)
        best = min(best, time.perf_counter() - start)
    return best * 1000, said


def told_times(page, fragment: str, runs: int) -> tuple[list[float], str]:
    """The engine's word on a bad link followed from the open page: its times, and the message."""
    times = []
    for _ in range(runs):
        page.evaluate("() => { location.hash = 'trump=h&hand=Jh'; }")  # another link between two tries
        page.evaluate("(f) => { performance.clearMeasures(); location.hash = f; }", fragment)
        page.wait_for_function('() => performance.getEntriesByName("judge-link-told").length > 0')
        times.append(page.evaluate('() => performance.getEntriesByName("judge-link-told").at(-1).duration'))
    return times, page.evaluate('() => document.getElementById("link-problem-head").textContent')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    server, site = load_tool("serve").serve_in_background(args.dist)
    url = f"{site}judge.html#"
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name, fragment in LINKS.items():
            times, height = [], 0.0
            for _ in range(args.runs):
                page = browser.new_page()
                page.goto(url + fragment)
                page.wait_for_selector("#picker button")
                times.append(page.evaluate('() => performance.getEntriesByName("judge-link-read")[0].duration'))
                height = page.evaluate('() => document.getElementById("link-problem").getBoundingClientRect().height')
                page.close()
            print(f"{name:24s} median {statistics.median(times):6.1f} ms  min {min(times):6.1f} ms  "
                  f"message box {height:.0f} px")
        print("the engine's word on a bad link, followed from a page whose engine is up:")
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function('() => document.body.dataset.engine === "ready"', timeout=120_000)
        for name, fragment in LINKS.items():
            if name == "a good position":
                continue
            times, message = told_times(page, fragment, args.runs)
            print(f"{name:24s} median {statistics.median(times):6.1f} ms  min {min(times):6.1f} ms  {message!r}")
        page.close()
        browser.close()
    server.shutdown()
    print("the engine's Position.parse of each bad link, CPython, best of --runs:")
    for name, fragment in LINKS.items():
        if name == "a good position":
            continue
        best, said = parse_times(fragment, args.runs)
        print(f"{name:24s} {best:6.2f} ms  {said!r}")


if __name__ == "__main__":
    main()
