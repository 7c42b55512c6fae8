#!/usr/bin/env python3
"""The Expert's par of a deal in headless Chromium, on the review helper, as the game's page makes it.

    .venv/bin/python bench/par_web_bench.py [--level expert] [--deals 2] [--bot-steps 120] [--think 1500] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port, opens the game's page and
plays --deals deals at the table's engine (bots of --level, the player's seat taking its first legal action),
each kept in the page's history as a finished deal is. Then:
- par: each deal's par made by the page's own scheduler (js/table/background-pars.js) on the review helper,
  nothing else running: the wall time from waking it to the par kept (the helper's start included for the
  first), and the replays made. Goal: within 20 s a deal.
- the table's Expert moves (`bot_step` round trips through the table's engine worker, as bench/web_table_bench.py
  times them), first alone, then while a par is made as the page schedules it: a replay decision only while
  the player is to move (here: a --think ms pause at each of their turns), never while the table's engine
  computes a bot's move (at most the one decision in hand when the player moves goes on meanwhile). Budget:
  an Expert card's p95 under 400 ms in the browser (docs/performance.md). Also, for the record, the same while
  the helper makes pars without a pause (the scheduler's gate always open: the worst case the page avoids).
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

# Each kept deal's par by the page's scheduler, the gate always open: [{ms, k}].
PARS = """async (deals) => {
    const { BackgroundPars } = await import("/js/table/background-pars.js");
    const pars = new BackgroundPars({ quiet: () => true, idle: () => false });
    const times = [];
    for (const deal of deals) {
        const started = performance.now();
        const par = await new Promise((resolve) => {
            pars.watch(deal, (state) => { if (state.par || state.failed) resolve(state.par ?? state); });
            pars.wake(deal);
        });
        times.push({ ms: performance.now() - started, k: par.k, par: par.par, failed: par.failed ?? null });
    }
    return times;
}"""

# `steps` Expert moves timed at the table's engine, the player's seat taking its first legal action after
# `think` ms; with `deal`, its par made meanwhile by the page's scheduler, its gate open while the player
# thinks (`gated`) or always.
BOTS = """async ({ steps, level, deal, think, gated }) => {
    const { engine } = await import("/js/main.js");
    const { BackgroundPars } = await import("/js/table/background-pars.js");
    const { keepPar, readHistory } = await import("/js/history.js");
    let thinking = false;
    let replays = 0;
    let stop = () => {};
    if (deal) {
        const [entry] = (await readHistory()).entries.filter((e) => e.deal === deal);
        await keepPar(entry.id, null);
        const pars = new BackgroundPars({ quiet: () => !gated || thinking, idle: () => false });
        stop = pars.watch(deal, (state) => { replays = state.done ?? replays; });
        pars.wake(deal);
    }
    const times = { auction: [], play: [] };
    let answer = await engine.call("new_match", { variant: "coinche", target: 2000, level, seed: "bench-par-table" });
    let taken = 0;
    while (taken < steps && answer.state.winner === null) {
        const d = answer.state.deal;
        if (d.current_player === 0) {
            thinking = true;
            await new Promise((resolve) => setTimeout(resolve, think));
            thinking = false;
            answer = await engine.call("act", { action: d.legal[0] });
            continue;
        }
        const started = performance.now();
        answer = await engine.call("bot_step");
        times[d.phase].push(performance.now() - started);
        taken += 1;
    }
    stop();
    return { times, replays };
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", choices=("easy", "normal", "expert"))
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--bot-steps", type=int, default=120, help="Expert moves timed alone and while a par is made")
    parser.add_argument("--think", type=int, default=1500, help="ms the player takes at each of their turns")
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    args = parser.parse_args()

    with desktop_page(args.dist, "?speed=test") as (page, _):
            cores = page.evaluate("() => navigator.hardwareConcurrency")
            started = time.perf_counter()
            deals = page.evaluate(PLAY, {"deals": args.deals, "level": args.level})
            print(f"{len(deals)} deals played at level {args.level} in {time.perf_counter() - started:.1f} s; "
                  f"{cores} cores seen by the page")
            for i, par in enumerate(page.evaluate(PARS, deals)):
                print(f"par of deal {i + 1}: {par['ms'] / 1000:5.1f} s for {par['k']} replays "
                      f"(par {par['par']}{', failed ' + par['failed'] if par['failed'] else ''})"
                      + (" (the helper's start included)" if i == 0 else ""))
            bots = {}
            if args.bot_steps:
                common = {"steps": args.bot_steps, "level": "expert", "think": args.think}
                bots["alone"] = page.evaluate(BOTS, {**common, "deal": None, "gated": True})
                bots["par, gated"] = page.evaluate(BOTS, {**common, "deal": deals[0], "gated": True})
                bots["par, no pause"] = page.evaluate(BOTS, {**common, "deal": deals[-1], "gated": False})
    for name, result in bots.items():
        print(expert_times(name, result["times"], f"par replays made meanwhile: {result['replays']}"))

if __name__ == "__main__":
    main()
