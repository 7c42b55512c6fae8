"""The duplicate arena: two bot levels play the same deals twice, seats swapped, so the cards' luck cancels.

``coinche arena LEVEL_A LEVEL_B --deals N --seed S [--variant coinche|classic] [--rules TEXT] [--jobs 2]``

Deal ``i`` is shuffled from ``derive_seed(S, i)`` with dealer ``i % 4``.  At the first table side A
holds seats 0 and 2, at the second seats 1 and 3.  The difference of deal ``i`` is half of what A
scored minus what B scored over both tables (so a deal's difference is on the scale of one deal).
Printed: the mean difference per deal and its 95% confidence interval (normal approximation), under
``announce=yes`` the same over the deals where a seat declared an announcement (where two levels that differ
only in what they make of announcements can differ most), and per side the contracts bid and made, and the
coinches won (the contract went down) and lost.

>>> result = run_arena("baseline", "baseline", deals=2, seed=1, jobs=1)
>>> result["mean"], result["deals"]
(0.0, 2)
"""

from __future__ import annotations

import argparse
import sys
import time

from coinche.bots import ALL_LEVELS, bot_turn, make_bot
from coinche.deal import Deal, Phase
from coinche.rng import derive_seed
from coinche.rules import Rules

from .stats import mean_ci


def play_table(rules: Rules | str, dealer: int, deal_seed: int, players: list) -> Deal:
    deal = Deal.new(rules, dealer, deal_seed)
    while deal.phase != Phase.OVER:
        bot_turn(deal, players[deal.turn])
    return deal


def _side_stats(deal: Deal, a_side: int) -> dict:
    """This table's counts, from A's and B's point of view: index 0 is A, 1 is B."""
    out = {"bid": [0, 0], "made": [0, 0], "coinche_won": [0, 0], "coinche_lost": [0, 0]}
    contract = deal.contract
    if contract is None or deal.score is None:
        return out
    team = 0 if contract.side == a_side else 1
    out["bid"][team] += 1
    out["made"][team] += deal.score.made
    if contract.multiplier > 1:
        coincher = 1 - team
        key = "coinche_lost" if deal.score.made else "coinche_won"
        out[key][coincher] += 1
    return out


class MemoBot:
    """A search bot whose calls are remembered by (seed, knowledge): a bot's call is a function of
    these alone, and every level knows the same in the auction, so the second table's auction costs
    nothing when it follows the first.  It changes no decision, only the time an arena takes."""

    def __init__(self, bot, memo: dict) -> None:
        self.bot, self.memo = bot, memo

    def announce(self, view):
        return self.bot.announce(view)

    def act(self, view):
        if view.phase != "auction":
            return self.bot.act(view)
        key = (self.bot.seed, self.bot.knowledge(view).fingerprint())
        call = self.memo.get(key)
        if call is None:
            call = self.memo[key] = self.bot.act(view)
        return call


def _seat(level: str, seed: int, memo: dict):
    bot = make_bot(level, seed=seed)
    return MemoBot(bot, memo) if hasattr(bot, "knowledge") else bot


def play_duplicate(job: tuple) -> dict:
    """Deal ``index`` at both tables; A's difference and the counts."""
    level_a, level_b, variant, seed, index = job
    deal_seed = derive_seed(seed, index)
    dealer = index & 3
    # the same seed per seat for both levels: where two levels know the same, they decide the same
    seeds = [derive_seed(seed, 1_000_000 + s) for s in range(4)]
    memo: dict = {}
    bots_a = [_seat(level_a, seeds[s], memo) for s in range(4)]
    bots_b = [_seat(level_b, seeds[s], memo) for s in range(4)]
    diff = 0
    announced = False
    stats = {"bid": [0, 0], "made": [0, 0], "coinche_won": [0, 0], "coinche_lost": [0, 0]}
    for a_side in (0, 1):
        players = [bots_a[s] if (s & 1) == a_side else bots_b[s] for s in range(4)]
        deal = play_table(variant, dealer, deal_seed, players)
        announced = announced or bool(deal.declared)
        scores = deal.scores
        diff += scores[a_side] - scores[1 - a_side]
        for key, pair in _side_stats(deal, a_side).items():
            stats[key][0] += pair[0]
            stats[key][1] += pair[1]
    return {"diff": diff / 2, "announced": announced, **stats}


def run_jobs(work, job_list: list, jobs: int = 1):
    """``work(job)`` for each job, in order, over ``jobs`` processes."""
    if jobs <= 1:
        yield from map(work, job_list)
        return
    import multiprocessing
    import signal
    import threading

    pool = multiprocessing.Pool(jobs)
    # a run stopped by SIGTERM (kill, a CI's timeout) stops its workers too, as Ctrl-C does
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stop) if main else None
    try:
        yield from pool.imap(work, job_list, chunksize=4)
    except BaseException:  # an interrupted run stops its workers at once
        pool.terminate()
        raise
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
        pool.close()
        pool.join()


def _stop(signum, frame) -> None:
    raise SystemExit(128 + signum)


def run_arena(level_a: str, level_b: str, deals: int, seed: int | str = 0, variant: Rules | str = "coinche",
              jobs: int = 1, progress=None) -> dict:
    """Play ``deals`` duplicate deals; ``progress(done, total, diffs, announced)`` is called as results come in
    (``diffs``: the differences of the deals done, in deal order; ``announced``: those of the deals where a seat
    declared an announcement).
    ``variant``: the tables' rules, or a variant's name for its own rules."""
    rules = Rules(variant) if isinstance(variant, str) else variant
    job_list = [(level_a, level_b, rules, seed, i) for i in range(deals)]
    diffs: list[float] = []
    announced: list[float] = []
    totals = {"bid": [0, 0], "made": [0, 0], "coinche_won": [0, 0], "coinche_lost": [0, 0]}
    for result in run_jobs(play_duplicate, job_list, jobs):
        diffs.append(result["diff"])
        if result["announced"]:
            announced.append(result["diff"])
        for key in totals:
            totals[key][0] += result[key][0]
            totals[key][1] += result[key][1]
        if progress is not None:
            progress(len(diffs), deals, diffs, announced)
    mean, ci, sd = mean_ci(diffs)
    out = {"level_a": level_a, "level_b": level_b, "variant": rules.variant, "rules": str(rules),
           "deals": len(diffs), "seed": str(seed),
           "mean": mean, "ci": ci, "sd": sd, **totals}
    if rules.announce and announced:
        # the deals where a seat announced (the others' differences are often 0: both sides knew the same)
        out["announced"] = {"deals": len(announced), **dict(zip(("mean", "ci", "sd"), mean_ci(announced)))}
    return out


def format_result(r: dict) -> str:
    a, b = r["level_a"], r["level_b"]
    lo, hi = r["ci"]
    house = "" if r.get("rules", "own") in ("own", f"variant={r['variant']}") else f", rules {r['rules']}"
    lines = [
        f"{r['deals']} duplicate {r['variant']} deals (x2 tables{house}), seed {r['seed']}: {a} (A) vs {b} (B)",
        f"mean score difference A - B per deal: {r['mean']:+.1f}  (95% CI {lo:+.1f} .. {hi:+.1f}; sd {r['sd']:.1f})",
    ]
    if "announced" in r:
        a_r = r["announced"]
        lo_a, hi_a = a_r["ci"]
        lines.append(f"over the {a_r['deals']} deals with an announcement: {a_r['mean']:+.1f}  "
                     f"(95% CI {lo_a:+.1f} .. {hi_a:+.1f}; sd {a_r['sd']:.1f})")
    lines += [
        "",
        "| side | level | contracts bid | made | made % | coinches won | coinches lost |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for i, (name, level) in enumerate((("A", a), ("B", b))):
        bid, made = r["bid"][i], r["made"][i]
        pct = f"{100 * made / bid:.0f}%" if bid else "-"
        lines.append(f"| {name} | {level} | {bid} | {made} | {pct} | {r['coinche_won'][i]} | {r['coinche_lost'][i]} |")
    return "\n".join(lines)


def cmd_arena(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    step = max(1, args.deals // 100)

    def progress(done: int, total: int, diffs: list[float], announced: list[float]) -> None:
        # one line per step, the partial figure with its CI, so an interrupted run still reports
        if not args.quiet and (done % step == 0 or done == total):
            elapsed = max(time.perf_counter() - start, 1e-9)
            mean, (lo, hi), _ = mean_ci(diffs)
            told = ""
            if announced:
                m_a, (lo_a, hi_a), _ = mean_ci(announced)
                told = f"  announced {len(announced)}: {m_a:+.1f} ({lo_a:+.1f} .. {hi_a:+.1f})"
            print(f"{done}/{total} deals  mean {mean:+.1f}  (95% CI {lo:+.1f} .. {hi:+.1f}){told}  "
                  f"{elapsed:.0f} s, {done / elapsed * 60:.1f} deals/min", file=sys.stderr, flush=True)

    rules = Rules.for_table(args.rules, args.variant)
    result = run_arena(args.level_a, args.level_b, args.deals, args.seed, rules, args.jobs, progress)
    if not args.quiet:
        print(f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(format_result(result))
    return 0


def add_arena_parser(subparsers) -> None:
    arena = subparsers.add_parser("arena", help="duplicate deals between two bot levels")
    levels = ", ".join(ALL_LEVELS)
    arena.add_argument("level_a", metavar="LEVEL_A", choices=ALL_LEVELS, help=f"side A: one of {levels}")
    arena.add_argument("level_b", metavar="LEVEL_B", choices=ALL_LEVELS, help="side B")
    arena.add_argument("--deals", type=int, default=200, help="duplicate deals (each played at two tables)")
    arena.add_argument("--seed", default="0")
    arena.add_argument("--variant", choices=("coinche", "classic"), help="replaces the rules' variant")
    arena.add_argument("--rules", metavar="TEXT", help="the tables' rules (see `coinche rules`; default: the game's own)")
    arena.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    arena.add_argument("--quiet", action="store_true", help="no progress on stderr")
    arena.set_defaults(func=cmd_arena)
