#!/usr/bin/env python3
"""The Expert's par of a deal in headless Chromium, on the review helper, as the game's page makes it.

    .venv/bin/python bench/par_web_bench.py [--level expert] [--deals 2] [--think 1500] [--read 5000] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port, opens the game's page and
plays --deals deals at the table's engine (bots of --level, the player's seat taking its first legal action),
each kept in the page's history as a finished deal is. Then:
- raw par: each deal's par made by the page's own scheduler (js/table/background-pars.js), its gate always
  open, nothing else running: on the review helper alone, then on the helper and the table's engine at once
  (as while a deal's summary shows); the wall time from waking it to the par kept (the helper's start
  included for the first).
- a match as played (--deals deals, bots of --level), first without pars, then with them as the table
  schedules them: each deal's replays begin at the player's first turn, a replay decision on the helper only
  while the player is to move (a --think ms pause at each of their turns) or a summary shows (kept open until
  the par shows, --read ms at most), and on the table's engine beside it only while a summary shows. Printed:
  the bots' moves (`bot_step` round trips, as bench/web_table_bench.py times them; budget at an Expert table:
  a card's p95 under 400 ms in the browser, docs/performance.md) and, for each deal, the time from its end to
  its par shown (goal: within 20 s), with the replays already made when it ended.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from progress_bench import desktop_page, expert_times  # noqa: E402  (bench/, the script's folder)

# Deals played at the table's engine and kept in the history: their identities.
PLAY = """async ({ deals, level }) => {
    const { engine } = await import("/js/main.js");
    const { keepDeal, wipeHistory } = await import("/js/history.js");
    const { dealIdentity } = await import("/js/history-format.js");
    await wipeHistory();
    let answer = await engine.call("new_match", { variant: "coinche", target: 2000, level, seed: "bench-par" });
    const kept = [];
    while (kept.length < deals) {
        const deal = answer.state.deal;
        answer = deal.current_player === 0 ? await engine.call("act", { action: deal.legal[0] }) : await engine.call("bot_step");
        const end = answer.event?.deal_end;
        if (end && !end.record.result.void) {
            await keepDeal({ record: end.record, seat: 0, level, at: Date.now() });
            kept.push(dealIdentity(end.record));
        }
    }
    return kept;
}"""

# Each kept deal's par by the page's scheduler, the gate always open, on the helper alone or (`table`) on the
# helper and the table's engine at once (as while a summary shows): [{ms, k, par}].
PARS = """async ({ deals, table }) => {
    const { engine } = await import("/js/main.js");
    const { BackgroundPars } = await import("/js/table/background-pars.js");
    const { keepPar, readHistory } = await import("/js/history.js");
    const { entries } = await readHistory();
    for (const entry of entries) await keepPar(entry.id, null);
    const pars = new BackgroundPars({ quiet: () => true, idle: () => false, spare: () => table, table: () => engine });
    const { Engine } = await import("/js/engine.js");
    const call = Engine.prototype.call;
    const steps = { table: 0, all: 0 };
    Engine.prototype.call = function (name, args) {
        if (name === "par_step") { steps.all += 1; steps.table += this === engine ? 1 : 0; }
        return call.call(this, name, args);
    };
    const times = [];
    for (const deal of deals) {
        steps.table = steps.all = 0;
        const started = performance.now();
        const par = await new Promise((resolve) => {
            pars.watch(deal, (state) => { if (state.par || state.failed) resolve(state.par ?? state); });
            pars.wake(deal);
        });
        times.push({ ms: performance.now() - started, k: par.k, par: par.par, failed: par.failed ?? null, ...steps });
    }
    Engine.prototype.call = call;
    return times;
}"""

# A match played as the game's table plays it, with the page's scheduler (js/table/background-pars.js) as the
# table wires it (js/table/game.js): the player takes `think` ms at each turn, and each deal's par begins at its
# first turn (par_deal) on the helper while the player thinks; its summary stays open until its par shows or
# for `read` ms, the table's engine making replays beside the helper meanwhile. Timed: every bot move (with or
# without pars: `pars`), and for each deal the par from the deal's end to its showing, with the replays made
# by then. The table's bots are of `level`.
MATCH = """async ({ deals, level, think, read, pars: withPars }) => {
    const { engine } = await import("/js/main.js");
    const { BackgroundPars } = await import("/js/table/background-pars.js");
    const { keepDeal, wipeHistory } = await import("/js/history.js");
    const { dealIdentity } = await import("/js/history-format.js");
    await wipeHistory();
    let thinking = false;
    let summary = false;
    const pars = new BackgroundPars({ quiet: () => thinking || summary, idle: () => false, spare: () => summary,
                                      table: () => engine });
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const times = { auction: [], play: [] };
    const shown = [];
    let answer = await engine.call("new_match", { variant: "coinche", target: 2000, level, seed: "bench-par-match" });
    let begun = -1;
    while (shown.length < deals && answer.state.winner === null) {
        const d = answer.state.deal;
        if (d.current_player === 0) {
            if (withPars && begun !== answer.state.deal_index) {
                begun = answer.state.deal_index;
                pars.start(await engine.call("par_deal"));
            }
            thinking = true;
            await sleep(think);
            thinking = false;
            answer = await engine.call("act", { action: d.legal[0] });
        } else {
            const started = performance.now();
            answer = await engine.call("bot_step");
            times[d.phase].push(performance.now() - started);
        }
        const end = answer.event?.deal_end;
        if (!end || end.record.result.void) continue;
        const ended = performance.now();
        await keepDeal({ record: end.record, seat: 0, level, at: Date.now() });
        if (!withPars) {
            shown.push(null);
            await sleep(read);
            continue;
        }
        const deal = dealIdentity(end.record);
        let atEnd = null;
        const made = new Promise((resolve) => pars.watch(deal, (state) => {
            atEnd ??= state.done ?? null;
            if (state.par || state.failed) resolve(performance.now() - ended);
        }));
        summary = true;
        pars.wake(deal);
        const row = { atEnd: null, ms: null };
        shown.push(row);
        made.then((ms) => { row.ms = ms; row.atEnd = atEnd; });
        await Promise.race([made, sleep(read)]);
        summary = false;
    }
    while (withPars && shown.some((row) => row.ms === null)) {  // the last deal's par, the player thinking
        thinking = true;
        await sleep(250);
    }
    return { times, shown };
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", choices=("easy", "normal", "expert"))
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--think", type=int, default=1500, help="ms the player takes at each of their turns")
    parser.add_argument("--read", type=int, default=5000, help="ms at most the player keeps a summary open")
    parser.add_argument("--no-match", action="store_true", help="the raw pars only, no match played with them")
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    args = parser.parse_args()

    runs = {}
    with desktop_page(args.dist, "?speed=test") as (page, _):
        # the game's own background work (its reviews and pars of the history, woken 5 s after the engine is up:
        # js/main.js) finds an empty history and stops: nothing but the bench's own runs on the helper
        page.evaluate("async () => (await import('/js/history.js')).wipeHistory()")
        page.wait_for_timeout(7000)
        cores = page.evaluate("() => navigator.hardwareConcurrency")
        started = time.perf_counter()
        deals = page.evaluate(PLAY, {"deals": args.deals, "level": args.level})
        print(f"{len(deals)} deals played at level {args.level} in {time.perf_counter() - started:.1f} s; "
              f"{cores} cores seen by the page")
        for table, name in ((False, "the helper alone"), (True, "helper + table's engine")):
            for i, par in enumerate(page.evaluate(PARS, {"deals": deals, "table": table})):
                print(f"raw par of deal {i + 1}, {name}: {par['ms'] / 1000:5.1f} s for {par['k']} replays "
                      f"(par {par['par']}{', failed ' + par['failed'] if par['failed'] else ''}; "
                      f"{par['table']} of its {par['all']} steps on the table's engine)"
                      + (" (the helper's start included)" if i == 0 and not table else ""))
        if not args.no_match:
            common = {"deals": args.deals, "level": args.level, "think": args.think, "read": args.read}
            runs["alone"] = page.evaluate(MATCH, {**common, "pars": False})
            runs["with pars"] = page.evaluate(MATCH, {**common, "pars": True})
    for name, run in runs.items():
        shown = [row for row in run["shown"] if row]
        said = ", ".join(f"{row['ms'] / 1000:.1f} s ({row['atEnd']} replays made at its end)" for row in shown)
        print(expert_times(name, run["times"], f"deal end to par shown: {said}" if shown else "no par")
              .replace("Expert", f"{args.level.capitalize()} table,", 1))


if __name__ == "__main__":
    main()
