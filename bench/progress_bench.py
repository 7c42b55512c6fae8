#!/usr/bin/env python3
"""The progress page's speed in headless Chromium with a full history (2,000 deals by default).

    .venv/bin/python bench/progress_bench.py [--deals 2000] [--runs 5] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port. The history is a made-up one
(coinche_lab.history: random play, 80% of the deals with a review of the player's decisions), imported once
into the page's IndexedDB by the page's own code; then progress.html is opened --runs times, and each visit
reports, from the page's performance marks:
- read: from the navigation's start to "progress-read" (the page's scripts and catalogue, the history read
  from IndexedDB and migrated);
- drawn: from "progress-read" to "progress-drawn" (the figures computed and the page drawn: both plots and
  their tables). Goal: under 300 ms for 2,000 deals;
- painted: to the next frame after "progress-drawn" (style, layout and paint of what was drawn);
- unfolded: the table beside the line (a row a reviewed deal, with its links), made when first unfolded, to
  the next frame.
Also the import of the whole file and the file's size.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from coinche_lab.history import history_text
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from conftest import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

IMPORT = """async (text) => {
    const { importEntries, wipeHistory } = await import('./js/history.js');
    const { parseExport } = await import('./js/history-format.js');
    await wipeHistory();
    const start = performance.now();
    const { entries, errors } = parseExport(text);
    const done = await importEntries(entries);
    return { ms: performance.now() - start, added: done.added, errors: errors.length };
}"""

TIMES = """async () => {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const mark = (name) => performance.getEntriesByName(name)[0].startTime;
    const painted = performance.now() - mark("progress-read");
    const start = performance.now();
    document.querySelector("#plot-line summary").click();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return { read: mark("progress-read"), drawn: mark("progress-drawn") - mark("progress-read"), painted,
             unfolded: performance.now() - start, points: document.querySelectorAll("#plot-line tbody tr").length };
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    args = parser.parse_args()

    started = time.perf_counter()
    text = history_text(args.deals, seed="progress-bench")
    print(f"history: {args.deals} deals, {len(text) / 1e6:.2f} MB as JSON lines "
          f"(made in {time.perf_counter() - started:.1f} s)")
    server, base = load_tool("serve").serve_in_background(args.dist)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1366, "height": 800})
            page = context.new_page()
            page.goto(base + "progress.html")
            page.wait_for_selector("body[data-state=ready]")
            imported = page.evaluate(IMPORT, text)
            print(f"import: {imported['added']} deals in {imported['ms']:.0f} ms ({imported['errors']} bad lines)")
            page.close()
            runs = []
            for _ in range(args.runs):
                page = context.new_page()
                page.goto(base + "progress.html")
                page.wait_for_selector("body[data-state=ready]", timeout=60_000)
                runs.append(page.evaluate(TIMES))
                page.close()
            browser.close()
    finally:
        server.shutdown()
    for name in ("read", "drawn", "painted", "unfolded"):
        values = [r[name] for r in runs]
        print(f"{name:>8}: median {statistics.median(values):6.0f} ms, max {max(values):6.0f} ms "
              f"({', '.join(f'{v:.0f}' for v in values)})")
    print(f"points drawn: {runs[-1]['points']} reviewed deals of {args.deals}")


if __name__ == "__main__":
    main()
