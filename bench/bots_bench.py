"""Decision time of the bots, per level, for calls and for cards (CPython, one core).

    python bench/bots_bench.py [--deals 12] [--variant coinche] [--levels easy,normal,expert]

Seats four bots of a level and plays deals; times (CPU time of this process) every decision that has a choice (a card with
two or more legal cards, any call) and prints the median and the 95th percentile.  The goals:
expert p95 under 150 ms, normal under 50 ms (the browser runs Python about 2.5 times slower).
"""

from __future__ import annotations

import argparse
import time

from coinche.bots import make_bot
from coinche.deal import Deal, Phase
from coinche.rng import derive_seed
from coinche.rules import Rules
from coinche_lab.stats import percentile


def bench_level(level: str, deals: int, variant: str, rules: str | None = None) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"call": [], "card": []}
    bots = [make_bot(level, seed=s) for s in range(4)]
    clock = time.process_time  # CPU time: the figure stays fair on a busy machine
    for i in range(deals):
        deal = Deal.new(Rules.for_table(rules, variant), i & 3, derive_seed("bench", i))
        while deal.phase != Phase.OVER:
            if deal.may_declare:
                deal.declare(bots[deal.turn].announce(deal.view(deal.turn)))
            view = deal.view(deal.turn)
            start = clock()
            action = bots[deal.turn].act(view)
            elapsed = clock() - start
            if view.phase == "auction" or len(view.legal) > 1:
                times["call" if view.phase == "auction" else "card"].append(elapsed)
            deal.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--variant", choices=("coinche", "classic"), default="coinche")
    parser.add_argument("--levels", default="easy,normal,expert")
    parser.add_argument("--rules", default=None, help="house rules in their notation (default: the game's own)")
    args = parser.parse_args()
    print(f"{args.variant}, {args.deals} deals per level; times in ms")
    print(f"{'level':8} {'kind':5} {'n':>5} {'median':>8} {'p95':>8} {'max':>8}")
    for level in args.levels.split(","):
        for kind, values in bench_level(level, args.deals, args.variant, args.rules).items():
            if values:
                print(f"{level:8} {kind:5} {len(values):5d} {1000 * percentile(values, 0.5):8.1f} "
                      f"{1000 * percentile(values, 0.95):8.1f} {1000 * max(values):8.1f}")


if __name__ == "__main__":
    main()
