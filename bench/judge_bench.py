#!/usr/bin/env python3
"""The judge page's speed in headless Chromium: from a link to its ruling, cold and warm, and per edit.

    .venv/bin/python bench/judge_bench.py [--runs 5] [--warm 3] [--edits 200] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port.
- link -> ruling: a judge link opened in a new page; times from navigation start to the page's marks
  "judge-editor" (the editor drawn) and "judge-ruled" (the first ruling shown). "cold" is the first
  visit of a fresh Chromium profile (empty HTTP cache, no Pyodide snapshot); "warm" the next --warm
  visits in the same profile. Medians over --runs profiles.
- edit -> ruling: in a loaded page, a card picked or taken back (a real click on the picker or on the
  hand), until the new ruling is in the page and a frame has been drawn. Goal: under 50 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

LINK = "judge.html#trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s"
MARKS = """() => Object.fromEntries(performance.getEntriesByType("mark")
    .filter((e) => e.name.startsWith("judge-")).map((e) => [e.name, e.startTime]))"""
SNAPSHOT_KEYS = """async () => {
    let n = 0;
    for (const name of await caches.keys()) n += (await (await caches.open(name)).keys()).length;
    return n;
}"""

# One edit, timed in the page: click `selector`, wait until the ruling of `expected` is shown, then a frame.
EDIT = """async ([selector, expected]) => {
    const ruling = document.getElementById("ruling");
    const start = performance.now();
    const done = new Promise((resolve) => {
        const check = () => ruling.dataset.position === expected && ruling.dataset.state === "ruled";
        const observer = new MutationObserver(() => {
            if (check()) { observer.disconnect(); resolve(); }
        });
        observer.observe(ruling, { attributes: true });
    });
    document.querySelector(selector).click();
    await done;
    const ruled = performance.now() - start;
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return [ruled, performance.now() - start];
}"""


def wait_ruled(page, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while page.evaluate("() => document.getElementById('ruling').dataset.state") != "ruled":
        if page.evaluate("() => document.body.dataset.engine") == "error":
            raise SystemExit(f"bench: the engine failed: {page.locator('#engine-text').inner_text()}")
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: no ruling within {timeout_s} s")
        time.sleep(0.02)


def visit(context, url: str) -> dict[str, float]:
    page = context.new_page()
    try:
        page.goto(url)
        wait_ruled(page)
        return page.evaluate(MARKS)
    finally:
        page.close()


def wait_for_snapshot(context, base: str) -> None:
    """Let the first visit finish saving its Pyodide snapshot (if the build makes one) before the warm ones."""
    page = context.new_page()
    page.goto(base + "judge.html")
    for _ in range(50):
        if page.evaluate(SNAPSHOT_KEYS):
            break
        time.sleep(0.1)
    page.close()


def edit_times(context, base: str, edits: int, seed: int = 1) -> list[tuple[float, float]]:
    page = context.new_page()
    page.goto(base + LINK)
    wait_ruled(page)
    rng = random.Random(seed)
    times = []
    for _ in range(edits):
        state = page.evaluate("""() => ({
            position: document.getElementById("ruling").dataset.position,
            free: [...document.querySelectorAll('#picker button[aria-disabled="false"]')].map((b) => b.dataset.card),
        })""")
        head, hand = state["position"].split("&hand=")
        cards = hand.split(",") if hand else []
        if len(cards) > 1 and (len(cards) == 8 or rng.random() < 0.45):
            card = rng.choice(cards)
            selector = f'#hand-cards li[data-card="{card}"] button'
            cards.remove(card)
        else:
            card = rng.choice(state["free"])
            selector = f'#picker button[data-card="{card}"]'
            cards.append(card)
        times.append(tuple(page.evaluate(EDIT, [selector, f"{head}&hand={','.join(cards)}"])))
    page.close()
    return times


def summary(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return f"median {statistics.median(values):7.1f} ms   p95 {p95:7.1f} ms   max {values[-1]:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh profiles (cold visits)")
    parser.add_argument("--warm", type=int, default=3, help="warm visits per profile")
    parser.add_argument("--edits", type=int, default=200, help="timed edits")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    if not (args.dist / "judge.html").is_file():
        raise SystemExit(f"bench: {args.dist}/judge.html is missing: run `make build` first")

    server, base = load_tool("serve").serve_in_background(args.dist)
    cold: dict[str, list[float]] = {"judge-editor": [], "judge-ruled": []}
    warm: dict[str, list[float]] = {"judge-editor": [], "judge-ruled": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for run in range(args.runs):
            context = browser.new_context()
            marks = visit(context, base + LINK)
            for name in cold:
                cold[name].append(marks[name])
            wait_for_snapshot(context, base)
            for _ in range(args.warm):
                marks = visit(context, base + LINK)
                for name in warm:
                    warm[name].append(marks[name])
            context.close()
            print(f"run {run + 1}/{args.runs}: cold ruled {cold['judge-ruled'][-1]:.0f} ms, "
                  f"warm ruled {statistics.median(warm['judge-ruled'][-args.warm:]):.0f} ms", flush=True)
        context = browser.new_context()
        edits = edit_times(context, base, args.edits)
        context.close()
        browser.close()
    server.shutdown()

    print(f"\nlink -> ruling, from navigation start ({args.runs} cold, {args.runs * args.warm} warm visits):")
    for label, data in (("cold", cold), ("warm", warm)):
        print(f"  {label}  editor drawn  {summary(data['judge-editor'])}")
        print(f"  {label}  ruling shown  {summary(data['judge-ruled'])}")
    ruled = [r for r, _ in edits]
    painted = [f for _, f in edits]
    print(f"\nedit -> ruling ({len(edits)} edits: picks and take-backs, goal < 50 ms):")
    print(f"  ruling in the page   {summary(ruled)}")
    print(f"  and a frame drawn    {summary(painted)}")
    over = sum(t >= 50 for t in painted)
    print(f"  {over} of {len(painted)} edits took 50 ms or more")


if __name__ == "__main__":
    main()
