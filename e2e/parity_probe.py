"""Print what the engine decides on seeded inputs, one JSON line per item, for the Pyodide parity test.

Run under CPython and under Pyodide (tools/pyodide_node.mjs), the output must be byte for byte the same:
rulings of random positions, whole random deals with their scores, a match played by seeded bots, the par
of a deal (K = 2) and a day's deals of the day, a sample of the shipped puzzles re-solved
(web/puzzles/open.jsonl), and the result of every docstring example of the engine.

    python e2e/parity_probe.py POSITIONS DEALS
"""

import doctest
import importlib
import json
import pkgutil
import sys

import coinche
from coinche.cli import RandomPlayer, play_deal
from coinche.deal import Deal
from coinche.play import rule_position
from coinche.record import deal_to_record
from coinche.rng import SplitMix64, derive_seed
from coinche.session import Session


def emit(kind, value):
    print(json.dumps([kind, value], sort_keys=True, separators=(",", ":")), flush=True)


def positions(count):
    rng = SplitMix64("parity-positions")
    for _ in range(count):
        deck = list(range(32))
        rng.shuffle(deck)
        table = deck[: rng.below(4)]
        hand = deck[len(table): len(table) + 1 + rng.below(8)]
        mask = sum(1 << c for c in hand)
        ruling = rule_position(mask, table, rng.below(4))
        forbidden = [[int(f.card), f.rule, f.key, f.params] for f in ruling.forbidden]
        emit("ruling", [table, hand, ruling.rule, ruling.legal, ruling.note, forbidden])


def deals(count):
    player = RandomPlayer("parity-deals")
    for i in range(count):
        variant = ("coinche", "classic")[i & 1]
        deal = play_deal(Deal.new(variant, i & 3, derive_seed("parity-deals", i)), player.choose)
        emit("deal", deal_to_record(deal))


def bot_match():
    session = Session.new("coinche", 501, "normal", seed="parity-bots", humans=())
    while not session.match.is_over:
        session.bot_step()
    emit("bot_match", {"actions": session.actions, "totals": session.match.totals})


#: How many of the shipped puzzles the probe re-solves, spread over the file.
PUZZLES = 12


def puzzles():
    from pathlib import Path

    from coinche.puzzle import Puzzle, check_puzzle, solve_puzzle

    lines = (Path(__file__).resolve().parent.parent / "web" / "puzzles" / "open.jsonl").read_text().splitlines()
    for line in lines[::max(1, len(lines) // PUZZLES)][:PUZZLES]:
        p = Puzzle.from_json(line)
        values = {str(c): v for c, v in solve_puzzle(p).items()}
        emit("puzzle", [p.id, values, check_puzzle(p)])


def par_and_daily():
    """The par of one deal (two Expert replays of seat 0, Easy bots around), and 2026-12-05's deals of the day."""
    from coinche.bots import bot_turn, make_bot
    from coinche.daily import daily_set
    from coinche.par import par

    deal = Deal.new("coinche", 3, derive_seed("parity-par", 0))
    bots = [make_bot("easy", seed=derive_seed("parity-par", 1 + s)) for s in range(4)]
    while not deal.is_over:
        bot_turn(deal, bots[deal.turn])
    record = {**deal_to_record(deal), "seats": ["person", "easy", "easy", "easy"]}
    emit("par", [record, par(record, 0, k=2).to_json()])
    emit("daily", [d.start_record() for d in daily_set("2026-12-05")])


def doctests():
    for name in sorted(m.name for m in pkgutil.walk_packages(coinche.__path__, prefix="coinche.")):
        if name.endswith("__main__"):
            continue
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, report=False)
        emit("doctest", [name, result.failed, result.attempted])


if __name__ == "__main__":
    positions(int(sys.argv[1]))
    deals(int(sys.argv[2]))
    bot_match()
    par_and_daily()
    puzzles()
    doctests()
