"""The engine against the naive implementation of tests/naive.py, on many random positions and deals.

The counts come from the ``counts`` fixture (tests/conftest.py): small by default, at least 200,000
positions and 20,000 deals with ``pytest --full``.  A mismatch is reported with what reproduces it
(a position in the judge's notation, or a deal's variant and seed).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import islice
from typing import Iterable

import pytest

from coinche import Call, Deal, Position, legal_mask, rule_position, trick_winner
from coinche.announce import held
from coinche.cards import TRUMP_LETTERS
from coinche.rules import Rules
from coinche.cli import error_json, ruling_json
from coinche.errors import CoincheError

import naive
from helpers import (INDEX, NAMES, SUITS, biased_position, mask_of_names, name_set, names, position_line,
                     random_action, uniform_position)

pytestmark = pytest.mark.full

MAX_REPORTED = 5


def assert_agree(problems: Iterable[str | None]) -> None:
    """Fail with the first few problems of a lazy stream of checks (``None`` is agreement)."""
    mismatches = list(islice(filter(None, problems), MAX_REPORTED))
    assert not mismatches, "\n".join(mismatches)


def engine_judgement(hand: list[str], trick: list[str], trump: str):
    """The engine's ruling in the naive's terms, and whether ``legal_mask`` agrees with it."""
    hand_mask = mask_of_names(hand)
    trick_ix = [INDEX[c] for c in trick]
    t = SUITS.index(trump)
    ruling = rule_position(hand_mask, trick_ix, t)
    forbidden = {NAMES[f.card]: (f.rule, f.key, f.params) for f in ruling.forbidden}
    return (ruling.rule, name_set(ruling.legal), forbidden, ruling.note), legal_mask(hand_mask, trick_ix, t) == ruling.legal


def naive_judgement(hand, trick, trump, undertrump=False):
    j = naive.judge(hand, trick, trump, undertrump)
    return j.rule, j.legal, j.forbidden, j.note


def check_position(trump: str, trick: list[str], hand: list[str]) -> str | None:
    """None when the engine agrees with the naive rules on this position, else what differs."""
    engine, mask_agrees = engine_judgement(hand, trick, trump)
    expected = naive_judgement(hand, trick, trump)
    line = position_line(trump, trick, hand)
    if engine != expected:
        return f"{line}: engine {engine} != naive {expected}"
    if not mask_agrees:
        return f"{line}: legal_mask disagrees with rule_position"
    # The legal and forbidden cards split the hand.
    if set(engine[2]) | engine[1] != set(hand) or set(engine[2]) & engine[1] or not engine[1]:
        return f"{line}: legal {engine[1]} and forbidden {set(engine[2])} do not split the hand"
    t = SUITS.index(trump)
    for cards in (trick, trick + hand[:1] if len(trick) == 3 else []):
        if cards and trick_winner([INDEX[c] for c in cards], t) != naive.winner(cards, trump):
            return f"trick {cards} trump {trump}: engine winner {trick_winner([INDEX[c] for c in cards], t)}"
    return None


def test_positions_agree_with_naive(counts):
    rng = random.Random(counts.seed)
    generators = (biased_position, uniform_position)
    assert_agree(check_position(*generators[i % 2](rng)) for i in range(counts.positions))


def test_every_case_of_the_rules_is_reached(counts):
    """The random positions do reach every rule and every note (else the differential proves little)."""
    rng = random.Random(counts.seed + 1)
    seen = set()
    keys = set()
    for i in range(5000):
        trump, trick, hand = (uniform_position if i % 2 else biased_position)(rng)
        j = naive.judge(hand, trick, trump)
        seen.add((j.rule, j.note))
        keys |= {(rule, key) for rule, key, _ in j.forbidden.values()}
    assert seen >= {(0, None), (1, None), (2, None), (2, "overtrump_partner"), (3, None), (3, "partner_master"),
                    (4, None), (5, "no_undertrump"), (5, None)}
    assert keys == {(1, "must_follow"), (2, "must_go_over"), (3, "must_trump"), (4, "must_overtrump")}


# ---------------------------------------------------------------- whole deals
def play_and_compare(variant: str, seed: int, checked: bool, notation: str = "own") -> str | None:
    """Play a seeded random deal in the engine, noting every step; replay it naively; compare.

    ``notation``: the table's rules; the naive side reads it with its own reader (``naive.house_options``)."""
    rng = random.Random(seed)
    house = naive.house_options(notation)
    deal = Deal.new(Rules.parse(notation).with_match(variant, 1000), rng.randrange(4), seed)
    style = rng.choice(("random", "random", "first", "last"))
    steps = []
    rulings = []
    declared: dict[int, list[str]] = {}
    while not deal.is_over:
        if deal.may_declare:
            holds = held(deal.hands[deal.turn])
            chosen = [a for a in holds if rng.random() < 0.8]
            declared[deal.turn] = [str(a) for a in chosen]
            deal.declare(chosen, deal.turn) if checked else deal.announce(chosen)
        actions = deal.legal_actions()
        texts = [str(a) for a in actions]
        if len(set(texts)) != len(texts):
            return f"{variant} seed {seed}: repeated legal actions {texts}"
        steps.append((deal.current_player, deal.phase.name.lower(), set(texts)))
        if deal.phase.name == "PLAY":
            rulings.append((names(deal.trick), name_set(deal.hands[deal.turn]), deal.ruling()))
        action = random_action(deal, rng, style)
        if checked:
            deal.apply(action, deal.current_player)
        elif isinstance(action, Call):
            deal.call(action)
        else:
            deal.play(action)
    where = f"{variant} seed {seed} dealer {deal.dealer} rules {notation}"
    calls = [str(c) for _, c in deal.calls]
    plays = names(deal.plays)
    try:
        n = naive.play_deal(names(deal.deck), deal.dealer, variant, calls, plays, house, declared)
    except naive.NaiveIllegal as e:
        return f"{where}: the naive rules refuse the engine's deal: {e}"
    naive_steps = [(s.seat, s.phase, s.legal) for s in n.steps]
    if naive_steps != steps:
        k = next(i for i, (a, b) in enumerate(zip(steps, naive_steps)) if a != b) if len(steps) == len(naive_steps) \
            else min(len(steps), len(naive_steps))
        return (f"{where}: step {k}: engine {steps[k] if k < len(steps) else None} != "
                f"naive {naive_steps[k] if k < len(naive_steps) else None} (calls {calls})")
    trump = None if n.auction is None else n.auction.trump
    for trick, hand, ruling in rulings:
        got = (ruling.rule, name_set(ruling.legal),
               {NAMES[f.card]: (f.rule, f.key, f.params) for f in ruling.forbidden}, ruling.note)
        if got != naive_judgement(hand, trick, trump, house["undertrump"] == "yes"):
            return f"{where}: ruling of {position_line(trump, trick, hand)}: {got}"
    if n.void != deal.void:
        return f"{where}: void {deal.void} != naive {n.void}"
    dealt = deal.dealt if deal.dealt is not None else deal.hands
    if [name_set(h) for h in dealt] != n.dealt:
        return f"{where}: hands {[name_set(h) for h in dealt]} != naive {n.dealt}"
    turned = None if deal.turned < 0 else NAMES[deal.turned]
    if turned != n.turned:
        return f"{where}: turned {turned} != naive {n.turned}"
    if tuple(deal.scores) != n.scores:
        return f"{where}: scores {deal.scores} != naive {n.scores} (calls {calls})"
    if deal.void:
        return None
    c = deal.contract
    got = (c.declarer, TRUMP_LETTERS[c.suit], c.value, c.multiplier)
    want = (n.auction.declarer, n.auction.trump, n.auction.bid, n.auction.multiplier)
    if got != want:
        return f"{where}: contract {got} != naive {want}"
    got_tricks = [(leader, names(cards), w) for leader, cards, w in deal.tricks]
    if got_tricks != n.tricks:
        return f"{where}: tricks {got_tricks} != naive {n.tricks}"
    s = deal.score
    got = (s.cards, s.tricks, s.belote_side, s.made, s.announced)
    want = (n.cards_won, n.tricks_won, n.belote_side, n.made, n.announced)
    if got != want or sum(s.cards) != 162:
        return f"{where}: cards, tricks, belote, made {got} != naive {want}"
    announcements = [(seat, kind, NAMES[card]) for seat, kind, card in deal.announcements]
    if announcements != n.announcements:
        return f"{where}: announcements {announcements} != naive {n.announcements}"
    return None


@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_deals_agree_with_naive(variant, counts):
    base = counts.seed * 1_000_003 + (0 if variant == "coinche" else 500_000_000)
    assert_agree(play_and_compare(variant, base + i, checked=i % 4 == 0) for i in range(counts.deals // 2))


#: The presets, and option mixes that together set every option to each of its values at least once.
HOUSE_NOTATIONS = ["de-2000", "open=82,surcoinche=3,capot_coinche=no,round=5down",
                   "down=160,multiply=contract,belote=defence,undertrump=yes",
                   "down=bid,capot=500,round=5up,surcoinche=3", "down=160bid,capot=500,multiply=contract,belote=defence",
                   "contracts=all,announce=yes", "contracts=all,announce=yes,announce_make=no,announce_multiply=yes",
                   "announce=yes,down=160,multiply=contract,round=5up,belote=defence"]


@pytest.mark.parametrize("notation", HOUSE_NOTATIONS)
@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_house_rule_deals_agree_with_naive(variant, notation, counts):
    base = counts.seed * 1_000_003 + 700_000_000 + HOUSE_NOTATIONS.index(notation) * 10_000_000
    deals = max(50, counts.deals // 8)
    assert_agree(play_and_compare(variant, base + i, checked=i % 4 == 0, notation=notation) for i in range(deals))


def test_house_notations_cover_every_value():
    from coinche.rules import OPTIONS

    seen = {(name, value) for n in HOUSE_NOTATIONS for name, value in naive.house_options(n).items()}
    want = {(o.name, v) for o in OPTIONS[2:] for v in o.texts if o.name not in ("end", "tie")}
    assert want <= seen


def test_random_deals_reach_every_ending(counts):
    """The random driver reaches void deals, coinche and surcoinche, made and down, belote, both variants."""
    seen = set()
    for seed in range(600):
        variant = ("coinche", "classic")[seed % 2]
        rng = random.Random(seed)
        deal = Deal.new(variant, rng.randrange(4), seed)
        style = rng.choice(("random", "random", "first", "last"))
        while not deal.is_over:
            action = random_action(deal, rng, style)
            deal.call(action) if isinstance(action, Call) else deal.play(action)
        if deal.void:
            seen.add((variant, "void"))
        else:
            seen.add((variant, deal.contract.multiplier, deal.score.made))
            if deal.score.belote_side is not None:
                seen.add((variant, "belote"))
    assert seen >= {("coinche", "void"), ("classic", "void"), ("coinche", "belote"), ("classic", "belote"),
                    ("coinche", 1, True), ("coinche", 1, False), ("coinche", 2, True), ("coinche", 2, False),
                    ("coinche", 4, True), ("coinche", 4, False), ("classic", 1, True), ("classic", 1, False)}


# ---------------------------------------------------------------- through the command line
INVALID_LINES = [
    "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,Xs",  # unknown card
    "trump=h&trick=8h,8h&hand=Jh",  # a card twice
    "trump=h&trick=8h&hand=8h",  # a card twice, across trick and hand
    "trump=h&trick=7s,8s,9s,Ts&hand=Jh",  # too many on the table
    "trump=h&hand=7s,8s,9s,Ts,Js,Qs,Ks,As,7h",  # too many in hand
    "trump=x&hand=Jh",  # unknown trump
    "trump=h&trick=8h",  # no hand
    "trump=h&hand=",  # an empty hand
    "garbage",
    "trump=h&hand=Jh&trump=s",
    "colour=h&hand=Jh",
]


def noncanonical_line(rng: random.Random, trump: str, trick: list[str], hand: list[str]) -> str:
    """A valid position written otherwise than ``str(Position)`` does: fields in another order, no empty
    trick, a URL fragment's ``#``."""
    fields = [f"trump={trump}", f"hand={','.join(hand)}"] + ([f"trick={','.join(trick)}"] if trick else [])
    rng.shuffle(fields)
    return rng.choice(["", "#", "?"]) + "&".join(fields)


def test_judge_batch_equals_in_process_ruling(counts, tmp_path):
    rng = random.Random(counts.seed + 7)
    lines = []
    for i in range(counts.cli_lines):
        if i % 97 == 13:
            lines.append(rng.choice(INVALID_LINES))
        elif i % 50 == 7 and lines:
            lines.append(rng.choice(lines))  # repeated lines take the cache
        elif i % 11 == 5:
            lines.append(noncanonical_line(rng, *uniform_position(rng)))
        else:
            lines.append(position_line(*(uniform_position if i % 2 else biased_position)(rng)))
    source = tmp_path / "positions.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with source.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "coinche.cli", "judge", "--batch"], stdin=stdin,
                              capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode().splitlines()
    assert len(out) == len(lines)
    assert_agree(compare_batch_line(line, got) for line, got in zip(lines, out))


def compare_batch_line(line: str, got_text: str) -> str | None:
    got = json.loads(got_text)
    try:
        position = Position.parse(line)
    except CoincheError as e:
        want = error_json(e, line)
    else:
        want = ruling_json(position)
        n = naive.judge(names(position.hand), names(position.trick), SUITS[position.trump])
        forbidden = {c: (f["rule"], f["key"], f["params"]) for c, f in got["forbidden"].items()}
        if set(got["legal"]) != n.legal or forbidden != n.forbidden:
            return f"{line}: batch {got_text} disagrees with naive {n}"
    if got != json.loads(json.dumps(want)):
        return f"{line}: batch {got_text} != in process {want}"
    return None


def test_naive_doctests():
    import doctest

    failures, attempted = doctest.testmod(naive)
    assert attempted > 0 and failures == 0
