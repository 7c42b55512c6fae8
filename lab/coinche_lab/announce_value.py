"""What the announcements are worth to the Expert's card play, decision by decision (issue 33).

``python -m coinche_lab.announce_value --deals N --seed S [--rules TEXT]``

The arena (:mod:`coinche_lab.arena`) measures whole deals, whose noise swamps a few points.  This measure
is finer: Expert bots play deals under ``--rules`` (default ``contracts=all,announce=yes``); at each card
decision after the first trick (when the announcements are on the table) with a choice, three Experts choose
from the same view, with the same seed: ``blind`` (``announced=False``: the announcements ignored in its
worlds), ``cards`` (``expert-cards``: each announced card with its holder, and nothing of what they rule out) and
``told`` (the Expert: also what the declarations rule out).  Where their cards differ, each card is solved
double dummy on the real hands (:func:`coinche.solver.solve_cards`, both sides playing their best from
there), and a variant's gain is its card's score difference for the seat's side minus the blind card's.
The deal goes on with the Expert's card.  Printed per variant: the decisions where it chose otherwise
than ``blind`` (how many of its cards solve better, how many worse), and its gain per deal (mean and 95%
CI over the deals), on all deals and on those with an announcement.
"""

from __future__ import annotations

import argparse
import sys
import time

from coinche.bots import Bot, bot_turn, make_bot
from coinche.bots.search import choose_card
from coinche.cards import CARDS
from coinche.deal import Deal, Phase
from coinche.rng import derive_seed
from coinche.rules import Rules
from coinche.solver import announced_side_points, belote_side, solve_cards

from .stats import mean_ci

VARIANTS = ("cards", "told")


def knowledges(view) -> dict:
    """The three Experts' knowledge of ``view``: ``blind``, ``cards`` and ``told``."""
    return {name: Bot("expert", announced=announced).knowledge(view)
            for name, announced in (("blind", False), ("cards", "cards"), ("told", True))}


def play_deal(rules: Rules, seed: str, index: int) -> dict:
    """One deal: per variant, its gain over ``blind`` summed over the deal and the decisions it changed."""
    deal = Deal.new(rules, index & 3, derive_seed(seed, index))
    seeds = [derive_seed(seed, 1_000_000 + s) for s in range(4)]
    bots = [make_bot("expert", seed=seeds[s]) for s in range(4)]
    gain = {v: 0.0 for v in VARIANTS}
    changed = {v: 0 for v in VARIANTS}
    better = {v: [0, 0] for v in VARIANTS}  # decisions where the variant's card solves better, worse than blind's
    decisions = 0
    while deal.phase != Phase.OVER:
        seat = deal.turn
        view = deal.view(seat)
        if deal.phase != Phase.PLAY or not deal.tricks or len(view.legal) < 2:
            bot_turn(deal, bots[seat])
            continue
        decisions += 1
        chosen = {v: choose_card(k, seeds[seat]) for v, k in knowledges(view).items()}
        if len(set(chosen.values())) > 1:
            outcomes = solve_cards(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won,
                                   deal.tricks_won, set(chosen.values()), deal.contract, belote_side(deal),
                                   rules=deal.rules, announced=announced_side_points(deal))
            base = outcomes[chosen["blind"]].difference(seat & 1)
            for v in VARIANTS:
                if chosen[v] != chosen["blind"]:
                    changed[v] += 1
                    delta = outcomes[chosen[v]].difference(seat & 1) - base
                    gain[v] += delta
                    if delta:
                        better[v][delta < 0] += 1
        deal.apply(CARDS[chosen["told"]])
    return {"gain": gain, "changed": changed, "better": better, "decisions": decisions, "announced": bool(deal.declared)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--rules", default="contracts=all,announce=yes")
    args = parser.parse_args(argv)
    rules = Rules.for_table(args.rules, None)
    start = time.perf_counter()
    results = []
    for i in range(args.deals):
        results.append(play_deal(rules, args.seed, i))
        if (i + 1) % 10 == 0 or i + 1 == args.deals:
            print(f"{i + 1}/{args.deals} deals, {time.perf_counter() - start:.0f} s: " + report_line(results),
                  file=sys.stderr, flush=True)
    print(f"{len(results)} deals, seed {args.seed}, rules {rules}; decisions after the first trick with a choice: "
          f"{sum(r['decisions'] for r in results)}")
    for subset, rows in (("all deals", results), ("deals with an announcement", [r for r in results if r["announced"]])):
        if not rows:
            continue
        print(f"{subset} ({len(rows)}):")
        for v in VARIANTS:
            mean, (lo, hi), _ = mean_ci([r["gain"][v] for r in rows])
            up, down = sum(r["better"][v][0] for r in rows), sum(r["better"][v][1] for r in rows)
            print(f"  {v:6} vs blind: {sum(r['changed'][v] for r in rows)} decisions changed "
                  f"({up} better, {down} worse solved double dummy), "
                  f"gain {mean:+.2f} a deal (95% CI {lo:+.2f} .. {hi:+.2f})")
    return 0


def report_line(results: list[dict]) -> str:
    parts = []
    for v in VARIANTS:
        mean, (lo, hi), _ = mean_ci([r["gain"][v] for r in results])
        up, down = sum(r["better"][v][0] for r in results), sum(r["better"][v][1] for r in results)
        parts.append(f"{v} {mean:+.2f} ({lo:+.2f} .. {hi:+.2f}) {up} better / {down} worse of "
                     f"{sum(r['changed'][v] for r in results)} changed")
    return ", ".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
