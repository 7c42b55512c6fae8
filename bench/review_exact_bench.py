#!/usr/bin/env python3
"""What the review's exact sampled deals buy: each card decision of some deals priced by playouts over 96
deals (the review above `REVIEW_EXACT`) and by 32, 48 and 96 deals solved double dummy, each compared with
the 96 exact deals' verdict (the mark of the loss, `coinche.review.mark_of`) and loss; CPU time of each.

    .venv/bin/python bench/review_exact_bench.py [--deals 25] [--cards 13-16] [--level easy] [--seed worlds-probe]

The deals are played by bots of --level (passed-out deals skipped); every seat's card decisions with that many
cards left in the hands (the card to play included) are priced. Figures: docs/solver.md.
"""
from __future__ import annotations

import argparse
import statistics
import time

from coinche.bots import remember
from coinche.bots.search import best_card, evaluate_cards
from coinche.review import REVIEW_SEED, _run_of, decisions, mark_of
from coinche.rng import seed_from
from review_bench import expert_records

#: (label, deals, solved exactly)
WAYS = (("playouts, 96 deals", 96, False), ("exact, 32 deals", 32, True), ("exact, 48 deals", 48, True),
        ("exact, 96 deals", 96, True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--cards", default="13-16", help="cards left in the hands, LOW-HIGH (at most 32)")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--seed", default="worlds-probe")
    args = parser.parse_args()
    low, high = (int(x) for x in args.cards.split("-"))
    losses, seconds = [], [0.0] * len(WAYS)
    for record in expert_records(args.deals, args.seed, args.level):
        for d in decisions(record):
            if d.kind != "card" or not low <= sum(h.bit_count() for h in d.position.hands) <= high:
                continue
            know = remember(d.view, "expert")
            row = []
            for i, (_, worlds, exact) in enumerate(WAYS):
                start = time.process_time()
                means = dict(evaluate_cards(know, seed_from(REVIEW_SEED), worlds, 32 if exact else 0))
                seconds[i] += time.process_time() - start
                stand = _run_of(int(d.action), means, know.trump)
                if stand is None:  # a lone trump on the partner's trick: not priced
                    break
                row.append(round(max(0.0, means[best_card(list(means.items()))] - means[stand]), 1))
            if len(row) == len(WAYS):
                losses.append(row)
    print(f"{len(losses)} card decisions with {low} to {high} cards left, {args.deals} deals played by {args.level} "
          f"bots; marks of the 96 exact deals: {[mark_of(r[-1]) for r in losses].count(None)} none")
    for i, (label, _, _) in enumerate(WAYS):
        off = [abs(r[i] - r[-1]) for r in losses]
        agree = sum(mark_of(r[i]) == mark_of(r[-1]) for r in losses)
        print(f"  {label:18} marks agree {agree}/{len(losses)}, loss off by {statistics.mean(off):5.1f} on average, "
              f"{max(off):5.1f} at most; CPU {seconds[i]:5.1f} s")


if __name__ == "__main__":
    main()
