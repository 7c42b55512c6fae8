#!/usr/bin/env python3
"""How fast the double-dummy solver is: positions solved per second by cards left, and a whole deal from
its first card (every legal card of the first lead solved exactly, scored by the contract).

    .venv/bin/python bench/solver_bench.py [--deals 12] [--seed solver-bench] [--lefts 4,8,...,32]
    node tools/pyodide_node.mjs bench/solver_bench.py [...]     the same under Pyodide (the browser's Python)

The positions: deals of random contracts played by the baseline bot (the same positions under CPython and
Pyodide); at each count of cards left, every legal card of the seat to play is solved.  Times are CPU time
under CPython, wall time under Pyodide (which has no process clock of its own).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from coinche import Deal
from coinche.bots import make_bot
from coinche.cards import SUIT_LETTERS
from coinche.rng import derive_seed
from coinche.solver import solve

PYODIDE = sys.platform == "emscripten"
CLOCK = time.perf_counter if PYODIDE else time.process_time
BIDS = ("80", "90", "100", "110", "120")


def deal_at(seed: int, left: int) -> Deal:
    """A coinche deal of a random contract, played by baseline bots until ``left`` cards are in the hands."""
    rng = random.Random(seed)
    deal = Deal.new("coinche", seed & 3, seed)
    for call in [rng.choice(BIDS) + SUIT_LETTERS[rng.randrange(4)], "pass", "pass", "pass"]:
        deal.apply(call)
    bot = make_bot("baseline")
    while 32 - len(deal.plays) > left:
        deal.apply(bot.act(deal.view(deal.turn)))
    return deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", default="solver-bench")
    parser.add_argument("--lefts", default="4,8,12,16,20,24,28,32")
    args = parser.parse_args()
    where = "Pyodide (wall time)" if PYODIDE else "CPython (CPU time)"
    print(f"solver bench, {where}: {args.deals} deals (seed {args.seed!r}); every legal card solved exactly")
    print(f"{'cards left':>10} {'positions/s':>12} {'median ms':>10} {'max ms':>9}")
    for left in (int(x) for x in args.lefts.split(",")):
        times = []
        for i in range(args.deals):
            deal = deal_at(derive_seed(args.seed, i), left)
            start = CLOCK()
            solve(deal)
            times.append(CLOCK() - start)
        label = f"{left} (whole deal)" if left == 32 else str(left)
        print(f"{label:>10} {len(times) / sum(times):12.1f} {1000 * statistics.median(times):10.1f} "
              f"{1000 * max(times):9.1f}")


if __name__ == "__main__":
    main()
