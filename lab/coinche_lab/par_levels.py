"""Does the par mean something?  The three levels in seat 0 measured against it, on the same deals.

``coinche par-levels --deals N --seed S [--k K] [--levels easy,normal,expert] [--jobs 2] [--out FILE]``

Deal ``i`` is shuffled from ``derive_seed(S, i)`` with dealer ``i % 4`` under the game's own rules.  It is
played once per level with that level in seat 0 and Normal bots in seats 1 to 3, every seat seeded the same
way for every level (so the auctions, in which every level knows the same, are the same, and the levels
differ in their card play); its record says so (``seats``).  The deal's par for seat 0 (coinche.par, ``K``
Expert replays with Normal bots around) is the same for every level (it depends on the cards and the
bots, not on who played), and each level's **duplicate difference** is seat 0's side score minus it.

Printed: per level the mean difference and its 95% confidence interval (normal approximation); per pair
of levels the mean of their paired difference on the same deals and its interval (the par cancels out:
it is the mean of the score differences).  What the par promises: the Expert's own mean difference is 0
within its interval (it is one more replay of the par, with other seeds), and the levels are ordered
easy < normal < expert.  ``K`` may be smaller than the page's (:data:`coinche.par.PAR_DEALS`): the par's
own noise only widens the intervals of the levels' differences, which it leaves unbiased.

>>> result = run_par_levels(deals=1, seed="doc", k=1, levels=("easy", "expert"), jobs=1)
>>> [row["level"] for row in result["levels"]], result["deals"], [p["pair"] for p in result["pairs"]]
(['easy', 'expert'], 1, ['expert - easy'])
>>> d = result["per_deal"][0]
>>> d["differences"] == [s - d["par"] for s in d["scores"]]
True
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations

from coinche.bots import bot_turn, make_bot
from coinche.deal import Deal
from coinche.par import PAR_DEALS, par, side_score
from coinche.record import LEVELS, deal_to_record
from coinche.rng import derive_seed

from .stats import mean_ci

#: The bots around seat 0.
OTHERS = "normal"


def deal_of(seed: str, index: int) -> Deal:
    return Deal.new("coinche", index & 3, derive_seed(seed, index))


def play_level(seed: str, index: int, level: str) -> dict:
    """Deal ``index`` played with ``level`` in seat 0 and Normal bots elsewhere: its record (with ``seats``)."""
    deal = deal_of(seed, index)
    seats = [level, OTHERS, OTHERS, OTHERS]
    bots = [make_bot(who, seed=derive_seed(seed, 1_000_000 + index * 4 + s)) for s, who in enumerate(seats)]
    while not deal.is_over:
        bot_turn(deal, bots[deal.turn])
    return {**deal_to_record(deal), "seats": seats}


def measure_deal(job: tuple[str, int, int, tuple[str, ...]]) -> dict:
    """One deal: each level's score for seat 0's side, the par and each level's difference from it."""
    seed, index, k, levels = job
    records = [play_level(seed, index, level) for level in levels]
    p = par(records[0], 0, k=k)
    scores = [side_score(r["result"]["scores"], 0) for r in records]
    return {"deal": index, "par": p.mean, "scores": scores, "differences": [s - p.mean for s in scores]}


def run_par_levels(deals: int, seed: str, k: int = PAR_DEALS, levels: tuple[str, ...] = LEVELS, jobs: int = 2,
                   progress=None) -> dict:
    jobs_list = [(seed, i, k, tuple(levels)) for i in range(deals)]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            per_deal = []
            for row in pool.map(measure_deal, jobs_list):
                per_deal.append(row)
                if progress:
                    progress(len(per_deal), deals, row)
    else:
        per_deal = []
        for job in jobs_list:
            per_deal.append(measure_deal(job))
            if progress:
                progress(len(per_deal), deals, per_deal[-1])
    return summarize(per_deal, seed, k, levels)


def summarize(per_deal: list[dict], seed: str, k: int, levels: tuple[str, ...]) -> dict:
    """The figures of deals measured (:func:`measure_deal`'s rows, in order): those of ``--deals len(per_deal)``."""
    rows = []
    for n, level in enumerate(levels):
        mean, ci, sd = mean_ci([d["differences"][n] for d in per_deal])
        rows.append({"level": level, "mean": mean, "ci": ci, "sd": sd,
                     "score": sum(d["scores"][n] for d in per_deal) / len(per_deal)})
    pairs = []
    for (a, level_a), (b, level_b) in combinations(enumerate(levels), 2):
        mean, ci, sd = mean_ci([d["scores"][b] - d["scores"][a] for d in per_deal])
        pairs.append({"pair": f"{level_b} - {level_a}", "mean": mean, "ci": ci, "sd": sd})
    return {"deals": len(per_deal), "seed": seed, "k": k, "par": sum(d["par"] for d in per_deal) / len(per_deal),
            "levels": rows, "pairs": pairs, "per_deal": per_deal}


def _ci(row: dict) -> str:
    low, high = row["ci"]
    return f"{row['mean']:+.1f} ({low:+.1f} .. {high:+.1f})"


def cmd_par_levels(args: argparse.Namespace) -> int:
    levels = tuple(args.levels.split(","))
    if not levels or not all(level in LEVELS for level in levels):
        print(f"coinche par-levels: --levels: each one of {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    out = open(args.out, "w", encoding="utf-8") if args.out else None

    def progress(done: int, total: int, row: dict) -> None:
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
        if not args.quiet:
            print(f"\r{done}/{total} deals", end="", file=sys.stderr)

    try:
        result = run_par_levels(args.deals, args.seed, args.k, levels, args.jobs, progress)
    finally:
        if out:
            out.close()
    if not args.quiet:
        print(file=sys.stderr)
    print(f"{result['deals']} deals (--seed {args.seed}), seat 0 against its par (K = {args.k} Expert replays, "
          f"Normal bots around; mean par {result['par']:+.1f}), {time.perf_counter() - start:.0f} s")
    print("level: mean duplicate difference (95% CI), mean score")
    for row in result["levels"]:
        print(f"  {row['level']}: {_ci(row)}, {row['score']:+.1f}")
    print("paired, on the same deals (95% CI):")
    for pair in result["pairs"]:
        print(f"  {pair['pair']}: {_ci(pair)}")
    return 0


def add_par_levels_parser(subparsers) -> None:
    parser = subparsers.add_parser("par-levels", help="the bot levels in seat 0 against the par of the same deals")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--k", type=int, default=PAR_DEALS, help=f"Expert replays per par (default {PAR_DEALS})")
    parser.add_argument("--levels", default=",".join(LEVELS), help="the levels in seat 0 (default: all three)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--out", metavar="FILE", help="write each deal's figures there as it is measured (JSON lines)")
    parser.set_defaults(func=cmd_par_levels)
