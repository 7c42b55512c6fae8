"""The duplicate bidding arena: two bidders, one card player at all four seats.

``coinche bidding BIDDER_A BIDDER_B --deals N --seed S [--player expert] [--rules TEXT] [--jobs 2]``

Bidders (:data:`BIDDERS`): ``auction-v2``, the bots' bidding (:mod:`coinche.bots.auction`), and
``auction-v1``, the bidding before issue 15, frozen (:mod:`coinche_lab.auction_v1`).  Every seat
plays its cards with the same bot level (``--player``); only the calls differ.  Deal ``i`` is dealt
from ``derive_seed(S, i)`` with dealer ``i % 4`` at two tables, bidder A holding seats 0 and 2 at the
first and seats 1 and 3 at the second; a deal's difference is half of A's score minus B's over both
tables.  Printed: the mean difference per deal with its 95% confidence interval, and per bidder the
contracts declared and made, their mean value, how many were coinched, how short the failed ones
fell (card points, belote included, under the bid) and the coinches won and lost.

>>> r = run_bidding_arena("auction-v1", "auction-v1", deals=1, seed=1, player="easy", jobs=1)
>>> r["mean"], r["deals"]
(0.0, 1)
"""

from __future__ import annotations

import argparse
import sys
import time

from coinche.bots import Bot
from coinche.bots.auction import choose_call, evaluate_calls
from coinche.bots.knowledge import LEVELS, remember
from coinche.deal import Deal
from coinche.rng import derive_seed
from coinche.rules import Rules

from . import auction_v1
from .arena import play_table, run_jobs
from .stats import mean_ci

BIDDERS = ("auction-v2", "auction-v1")
STATS = ("declared", "made", "value", "coinched", "failed", "short", "coinche_won", "coinche_lost")


class BiddingSeat:
    """One seat: ``bidder`` makes the calls, a bot of level ``player`` plays the cards.

    Decisions are remembered in ``memo`` by what decides them (the bidder or the player, the seed and
    the knowledge): the second table replays the first for free wherever it follows it.  It changes
    no decision, only the time the arena takes."""

    def __init__(self, bidder: str, player: str, seed: int, memo: dict | None = None) -> None:
        if bidder not in BIDDERS:
            raise ValueError(f"unknown bidder {bidder!r}")
        self.bidder, self.seed = bidder, seed
        self.player = Bot(player, seed)
        self.memo = {} if memo is None else memo

    def act(self, view):
        auction = view.phase == "auction"
        know = remember(view, "normal" if auction else self.player.level)
        key = (self.bidder if auction else self.player.level, self.seed, know.fingerprint())
        action = self.memo.get(key)
        if action is None:
            action = self.memo[key] = self._decide(view, know)
        return action

    def _decide(self, view, know):
        if view.phase != "auction":
            return self.player.act(view)
        if self.bidder == "auction-v1":
            return auction_v1.explain_call(know, self.seed)[0]
        return choose_call(know, evaluate_calls(know, self.seed))


def contract_stats(deal: Deal, a_side: int) -> dict:
    """This table's contract counts: index 0 for bidder A, 1 for bidder B."""
    out = {key: [0, 0] for key in STATS}
    contract, result = deal.contract, deal.score
    if contract is None or result is None:
        return out
    team = 0 if contract.side == a_side else 1
    out["declared"][team] += 1
    out["value"][team] += contract.value
    out["made"][team] += result.made
    if contract.multiplier > 1:
        out["coinched"][team] += 1
        out["coinche_lost" if result.made else "coinche_won"][1 - team] += 1
    if not result.made and not contract.is_capot:
        own = result.cards[contract.side] + (20 if result.belote_side == contract.side else 0)
        out["failed"][team] += 1
        out["short"][team] += contract.value - own
    return out


def play_bidding_duplicate(job: tuple) -> dict:
    bidder_a, bidder_b, player, seed, index, *rules = job  # the rules last (the game's own when absent)
    rules = rules[0] if rules else Rules()
    deal_seed = derive_seed(seed, index)
    seeds = [derive_seed(seed, 1_000_000 + s) for s in range(4)]
    diff = 0
    stats = {key: [0, 0] for key in STATS}
    memo: dict = {}
    for a_side in (0, 1):
        seats = [BiddingSeat(bidder_a if (s & 1) == a_side else bidder_b, player, seeds[s], memo) for s in range(4)]
        deal = play_table(rules, index & 3, deal_seed, seats)
        scores = deal.scores
        diff += scores[a_side] - scores[1 - a_side]
        for key, pair in contract_stats(deal, a_side).items():
            stats[key][0] += pair[0]
            stats[key][1] += pair[1]
    return {"diff": diff / 2, **stats}


def run_bidding_arena(bidder_a: str, bidder_b: str, deals: int, seed: int | str = 0, player: str = "expert",
                      jobs: int = 1, progress=None, results: list | None = None, rules: Rules = Rules()) -> dict:
    """Play ``deals`` duplicate deals; ``progress(done, total, mean)`` is called as each one comes in,
    after it is appended to ``results``.  ``rules``: the tables' (the frozen ``auction-v1`` still prices
    its calls by the game's own)."""
    job_list = [(bidder_a, bidder_b, player, seed, i, rules) for i in range(deals)]
    results = [] if results is None else results
    for result in run_jobs(play_bidding_duplicate, job_list, jobs):
        results.append(result)
        if progress is not None:
            progress(len(results), deals, sum(r["diff"] for r in results) / len(results))
    return summarise(bidder_a, bidder_b, player, seed, results, rules)


def summarise(bidder_a: str, bidder_b: str, player: str, seed, results: list[dict], rules: Rules = Rules()) -> dict:
    totals = {key: [sum(r[key][0] for r in results), sum(r[key][1] for r in results)] for key in STATS}
    mean, ci, sd = mean_ci([r["diff"] for r in results])
    return {"bidder_a": bidder_a, "bidder_b": bidder_b, "player": player, "deals": len(results),
            "seed": str(seed), "rules": str(rules), "mean": mean, "ci": ci, "sd": sd, **totals}


def format_bidding(r: dict) -> str:
    lo, hi = r["ci"]
    house = "" if r.get("rules", "own") == "own" else f", rules {r['rules']}"
    lines = [
        f"{r['deals']} duplicate coinche deals (x2 tables{house}), seed {r['seed']}, cards played by {r['player']} "
        f"at every seat: {r['bidder_a']} (A) vs {r['bidder_b']} (B)",
        f"mean score difference A - B per deal: {r['mean']:+.1f}  (95% CI {lo:+.1f} .. {hi:+.1f}; sd {r['sd']:.1f})",
        "",
        "| side | bidder | declared | made | made % | mean value | coinched | failed: mean points short "
        "| coinches won / lost |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for i, name in enumerate(("A", "B")):
        declared, made, failed = r["declared"][i], r["made"][i], r["failed"][i]
        pct = f"{100 * made / declared:.0f}%" if declared else "-"
        value = f"{r['value'][i] / declared:.1f}" if declared else "-"
        short = f"{r['short'][i] / failed:.1f}" if failed else "-"
        lines.append(f"| {name} | {r['bidder_' + name.lower()]} | {declared} | {made} | {pct} | {value} | "
                     f"{r['coinched'][i]} | {short} | {r['coinche_won'][i]} / {r['coinche_lost'][i]} |")
    return "\n".join(lines)


def cmd_bidding(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    step = max(1, args.deals // 100)

    def progress(done: int, total: int, mean: float) -> None:
        if args.partial and done % 50 == 0:
            with open(args.partial, "w", encoding="utf-8") as out:
                out.write(format_bidding(partial(done)) + "\n")
        if not args.quiet and (done % step == 0 or done == total):
            rate = done / max(time.perf_counter() - start, 1e-9)
            print(f"\r{done}/{total} deals  mean {mean:+.1f}  {rate:.2f} deals/s", end="", file=sys.stderr)

    seen: list[dict] = []

    rules = Rules.for_table(args.rules)

    def partial(done: int) -> dict:
        return summarise(args.bidder_a, args.bidder_b, args.player, args.seed, seen[:done], rules)

    result = run_bidding_arena(args.bidder_a, args.bidder_b, args.deals, args.seed, args.player, args.jobs,
                               progress, seen, rules)
    if not args.quiet:
        print(f"\n{time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(format_bidding(result))
    return 0


def add_bidding_parser(subparsers) -> None:
    bidding = subparsers.add_parser("bidding", help="duplicate deals between two bidders, one card player")
    names = ", ".join(BIDDERS)
    bidding.add_argument("bidder_a", metavar="BIDDER_A", choices=BIDDERS, help=f"side A: one of {names}")
    bidding.add_argument("bidder_b", metavar="BIDDER_B", choices=BIDDERS, help="side B")
    bidding.add_argument("--player", choices=LEVELS, default="expert", help="the level playing the cards")
    bidding.add_argument("--deals", type=int, default=200, help="duplicate deals (each played at two tables)")
    bidding.add_argument("--seed", default="0")
    bidding.add_argument("--rules", metavar="TEXT", help="the tables' rules (see `coinche rules`; default: the game's own)")
    bidding.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    bidding.add_argument("--quiet", action="store_true", help="no progress on stderr")
    bidding.add_argument("--partial", metavar="FILE", help="write the results so far to FILE every 50 deals")
    bidding.set_defaults(func=cmd_bidding)
