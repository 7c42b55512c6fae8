#!/usr/bin/env python3
"""How long a what-if branch takes to compute in CPython (CPU time of coinche.whatif.what_if): a finished deal
branched at a card of its trick 1, 4 or 7 (another allowed card there) and played out by the Expert bots or
double dummy (the solver from EXACT_CARDS cards left, the Expert before).

    .venv/bin/python bench/whatif_bench.py [--deals 6] [--seed whatif-bench] [--exact N]
    node tools/pyodide_node.mjs bench/whatif_bench.py [...]     the same under Pyodide (the browser's Python,
                                                                 wall time: it has no process clock)

The deals are random legal play after a seeded auction (tests/test_whatif.py played_record's way).
--exact tries another `coinche.whatif.EXACT_CARDS` (cards left from which double dummy is exact; 32: every
card of the branch).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from coinche.deal import Deal
from coinche.record import deal_to_record
from coinche import whatif
from coinche.whatif import choices, what_if

PYODIDE = sys.platform == "emscripten"
CLOCK = time.perf_counter if PYODIDE else time.process_time


def played_record(rng: random.Random, index: int) -> dict:
    deal = Deal.new("coinche", dealer=index % 4, seed=rng.randrange(10**9))
    for call in (rng.choice(("80", "90", "100")) + rng.choice("shdc"), "pass", "pass", "pass"):
        deal.apply(call)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_cards()))
    return deal_to_record(deal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", default="whatif-bench")
    parser.add_argument("--exact", type=int, default=whatif.EXACT_CARDS)
    args = parser.parse_args()
    whatif.EXACT_CARDS = args.exact
    rng = random.Random(args.seed)
    records = [played_record(rng, i) for i in range(args.deals)]
    where = "Pyodide, wall time" if PYODIDE else "CPython, CPU time"
    print(f"what-if branches of {args.deals} deals ({where}) per branch (dd exact from {args.exact} cards left)")
    for by in ("expert", "dd"):
        for trick in (1, 4, 7):
            times = []
            for record in records:
                ply = len(record["calls"]) + 4 * (trick - 1)
                allowed = choices(record, ply)
                move = next((m for m in allowed["moves"] if m != allowed["real"]), allowed["real"])
                start = CLOCK()
                what_if(record, [(ply, move)], by=by)
                times.append(CLOCK() - start)
            print(f"  by {by:6} from trick {trick}: median {statistics.median(times) * 1000:7.0f} ms, "
                  f"max {max(times) * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
