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
Also the import of the whole file and the file's size, and the engine's check of its records (check_records on
an engine worker started for it, as an import on the page makes it: js/progress/check.js), its boot included.

Then the table while reviews run in the background (--bot-steps, 0 to skip): the Expert's moves (`bot_step`
round trips through the table's engine worker, as bench/web_table_bench.py times them), first alone, then
while the review helper (the second engine worker) reviews deals without a pause, decision after decision:
the worst case, since the page starts a background decision only while the table is idle. Budget: an
Expert card's p95 under 400 ms in the browser (docs/performance.md).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from coinche_lab.history import history_lines, history_text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import served_chromium  # noqa: E402

IMPORT = """async (text) => {
    const { importEntries, wipeHistory } = await import('./js/history.js');
    const { parseExport } = await import('./js/history-format.js');
    await wipeHistory();
    const start = performance.now();
    const { entries, errors } = parseExport(text);
    // taken as the engine has read them (the page's own check is timed apart: it boots an engine)
    const done = await importEntries(entries.map((entry) => ({ ...entry, checked: true })));
    return { ms: performance.now() - start, added: done.added, errors: errors.length };
}"""

CHECK = """async (text) => {
    const { parseExport } = await import('./js/history-format.js');
    const { checkRecords } = await import('./js/progress/check.js');
    const records = parseExport(text).entries.map((entry) => entry.record);
    const start = performance.now();
    const verdicts = await checkRecords(records);
    return { ms: performance.now() - start, records: records.length, refused: verdicts.filter(Boolean).length };
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


# In the game's page: `steps` Expert moves timed, the human seat playing its first legal action; with `records`,
# the review helper reviews them meanwhile, one decision after another, until the moves are timed.
BOTS_WHILE_REVIEWING = """async ({ steps, records }) => {
    const { engine } = await import("/js/main.js");
    const { borrowHelper, returnHelper } = await import("/js/table/review-helper.js");
    let timing = true;
    let reviewed = 0;
    let reviewing = Promise.resolve();
    if (records.length) {
        const helper = await borrowHelper();
        reviewing = (async () => {
            for (const record of records) {
                const plan = await helper.call("review_plan", { record, seats: [0] });
                for (const { index } of plan.decisions) {
                    if (!timing) return;
                    await helper.call("review_decision", { record, index });
                    reviewed += 1;
                }
            }
        })().finally(returnHelper);
    }
    const times = { auction: [], play: [] };
    let answer = await engine.call("new_match", { variant: "coinche", target: 1000, level: "expert", seed: "bench-progress" });
    let taken = 0;
    while (taken < steps && answer.state.winner === null) {
        const deal = answer.state.deal;
        if (deal.current_player === 0) {
            answer = await engine.call("act", { action: deal.legal[0] });
            continue;
        }
        const started = performance.now();
        answer = await engine.call("bot_step");
        times[deal.phase].push(performance.now() - started);
        taken += 1;
    }
    timing = false;
    await reviewing;
    return { times, reviewed };
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def expert_times(name: str, times: dict, meanwhile: str) -> str:
    """One line of the Expert's moves timed (`times`: {play, auction} in ms), and what was made meanwhile."""
    cards, calls = times["play"], times["auction"]
    return (f"Expert {name:>13}: cards median {percentile(cards, 0.5):5.0f} ms, p95 {percentile(cards, 0.95):5.0f}, "
            f"max {max(cards):5.0f} ({len(cards)}); calls median {percentile(calls, 0.5):5.0f}, "
            f"p95 {percentile(calls, 0.95):5.0f} ({len(calls)}); {meanwhile}")


@contextmanager
def desktop_page(dist: str, path: str):
    """`dist` served and a page of headless Chromium at a desktop's size opened at `path`, its page ready
    (body[data-state=ready]): yields ``(page, base URL)``; the benches of the page's background work share it."""
    with served_chromium(dist) as (browser, base):
        page = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
        page.goto(base + path)
        page.wait_for_selector("body[data-state=ready]", timeout=120_000)
        yield page, base


def bots_while_reviewing(context, base: str, steps: int, records: list[dict]) -> dict:
    page = context.new_page()
    try:
        page.goto(base + "?speed=test")
        page.wait_for_selector("body[data-state=ready]", timeout=120_000)
        return page.evaluate(BOTS_WHILE_REVIEWING, {"steps": steps, "records": records})
    finally:
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    parser.add_argument("--bot-steps", type=int, default=120, help="Expert moves timed alone and while reviewing")
    args = parser.parse_args()

    started = time.perf_counter()
    text = history_text(args.deals, seed="progress-bench")
    print(f"history: {args.deals} deals, {len(text) / 1e6:.2f} MB as JSON lines "
          f"(made in {time.perf_counter() - started:.1f} s)")
    with desktop_page(args.dist, "progress.html") as (page, base):
        imported = page.evaluate(IMPORT, text)
        print(f"import: {imported['added']} deals in {imported['ms']:.0f} ms ({imported['errors']} bad lines)")
        checked = page.evaluate(CHECK, text)
        print(f"check: {checked['records']} records read by the engine in {checked['ms'] / 1000:.1f} s, its boot "
              f"included ({checked['refused']} refused)")
        context = page.context
        page.close()
        runs = []
        for _ in range(args.runs):
            page = context.new_page()
            page.goto(base + "progress.html")
            page.wait_for_selector("body[data-state=ready]", timeout=60_000)
            runs.append(page.evaluate(TIMES))
            page.close()
        bots = {}
        if args.bot_steps:
            records = [{k: v for k, v in line.items() if k not in ("history", "review")}
                       for line in history_lines(12, seed="progress-bench-reviews")]
            bots = {"alone": bots_while_reviewing(context, base, args.bot_steps, []),
                    "reviewing": bots_while_reviewing(context, base, args.bot_steps, records)}
    for name in ("read", "drawn", "painted", "unfolded"):
        values = [r[name] for r in runs]
        print(f"{name:>8}: median {statistics.median(values):6.0f} ms, max {max(values):6.0f} ms "
              f"({', '.join(f'{v:.0f}' for v in values)})")
    print(f"points drawn: {runs[-1]['points']} reviewed deals of {args.deals}")
    for name, result in bots.items():
        print(expert_times(name, result["times"], f"review decisions made meanwhile: {result['reviewed']}"))


if __name__ == "__main__":
    main()
