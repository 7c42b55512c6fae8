"""Puzzles (coinche.puzzle, docs/puzzles.md): the two notations round trip, every bad input is told by its key,
the solution is re-solved by the double-dummy solver, a seat's mistake becomes a puzzle of its own."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.cards import POINTS, Card
from coinche.errors import CoincheError
from coinche.puzzle import THEMES, Puzzle, best_cards, check_puzzle, played_out, solve_puzzle
from coinche.rules import Rules
from coinche.scoring import Contract
from coinche.webapi import handle
import naive_solver
from helpers import ISSUE_42

# Seat 0 leads with two cards left each: the jack of hearts (trumps) draws the nine and makes both tricks; the
# ace of clubs first lets the nine of hearts ruff it.
SMALL = "contract=80h1-0&hands=Jh,Ac/9h,As/Ts,Tc/7h,Ad&trick=0:&won=32,33/3,3&to=0&solution=Jh&margin=20&rating=1200"


def naive_values(p: Puzzle) -> dict[Card, int]:
    """Each legal card's final score for the side to play, by tests/naive_solver.py (the whole tree, no pruning)."""
    letter = ("s", "h", "d", "c", "sa", "ta")[p.trump]
    leaf = naive_solver.score_leaf(p.rules.variant, p.contract.declarer & 1, p.contract.value, p.contract.multiplier,
                                   p.belote)
    found = naive_solver.each_card([{str(c) for c in h} for h in p.hands], p.leader, [str(c) for c in p.trick],
                                   letter, p.points, p.tricks, leaf)
    sign = 1 if p.to_play % 2 == 0 else -1
    return {Card.parse(c): sign * v for c, v in found.items()}


def call(cmd: str, **args) -> dict:
    return json.loads(handle(cmd, json.dumps(args)))


# ---------------------------------------------------------------- random puzzles that hold together
@st.composite
def puzzles(draw, late: bool = False) -> Puzzle:
    """A position that holds together (not solved: the solution is any legal cards) with every field used;
    ``late``: three tricks left or fewer."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    rules = draw(st.sampled_from([Rules(), Rules.parse("variant=classic"), Rules.parse("contracts=all,surcoinche=3")]))
    trump = rng.choice(list(rules.bid_kinds))
    if rules.kind.turned_card:
        value, multiplier = 0, 1
    else:
        value, multiplier = rng.choice(rules.bid_values), rng.choice((1, 2, rules.surcoinche))
    done, leader, on_table = rng.randrange(5 if late else 0, 8), rng.randrange(4), rng.randrange(4)
    deck = list(range(32))
    rng.shuffle(deck)
    hands, trick = [], [Card(deck.pop()) for _ in range(on_table)]
    for seat in range(4):
        count = 8 - done - ((seat - leader) & 3 < on_table)
        hands.append(tuple(Card(deck.pop()) for _ in range(count)))
    gone = sum(POINTS[trump][c] for c in deck)
    if done == 0:
        points, tricks = (0, 0), (0, 0)
    else:
        t0 = rng.randrange(done + 1) if gone else rng.randrange(done + 1)
        t1 = done - t0
        p0 = 0 if t0 == 0 else gone if t1 == 0 else rng.randrange(gone + 1)
        points, tricks = (p0, gone - p0), (t0, t1)
    if done == 0 and gone:  # no trick done: every card still in the hands or on the table
        return draw(puzzles(late))
    base = Puzzle.of(rules=rules, contract=Contract(rules.variant, rng.randrange(4), trump, value, multiplier),
                     hands=tuple(hands), leader=leader, trick=tuple(trick), points=points, tricks=tricks,
                     solution=())
    legal = base.legal()
    line, at = [], base
    for _ in range(rng.randrange(6)):
        if not any(at.hands):
            break
        card = rng.choice(at.legal())
        line.append(card)
        at = at.after([card])
    return Puzzle.of(rules=rules, contract=base.contract, hands=base.hands, leader=leader, trick=base.trick,
                     points=points, tricks=tricks, solution=tuple(rng.sample(legal, rng.randint(1, len(legal)))),
                     id=rng.choice(["", "o-1", f"open-{rng.randrange(10**6)}"]), margin=rng.randrange(300),
                     themes=tuple(rng.sample(THEMES, rng.randrange(4))), rating=rng.randrange(400, 3000),
                     line=tuple(line), announced=rng.choice([(0, 0), (20, 0), (0, 150)]))


@settings(max_examples=60, deadline=None)
@given(puzzles())
def test_the_link_and_the_json_line_round_trip(p):
    assert Puzzle.parse(str(p)) == p
    assert Puzzle.parse("#" + str(p)) == p
    assert Puzzle.from_json(p.to_json()) == p
    assert Puzzle.from_json(json.loads(p.to_json())) == p
    assert "\n" not in p.to_json() and len(str(p)) <= 1000
    assert call("puzzle_parse", text=str(p)) == {"result": p.to_dict()}
    assert call("puzzle_format", puzzle=p.to_dict()) == {"result": str(p)}


# ---------------------------------------------------------------- bad input
BAD_LINKS = [
    (SMALL.replace("hands=Jh,Ac", "hands=Jh,Jh"), "duplicate_card", {"card": "Jh"}),
    (SMALL.replace("hands=Jh,Ac", "hands=Jh,Ts"), "duplicate_card", {"card": "Ts"}),
    (SMALL.replace("hands=Jh,Ac", "hands=Jh,Ac,Kc"), "puzzle_hand_count", {"seat": 0, "count": 3, "expected": 2}),
    (SMALL.replace("/7h,Ad", "/7h"), "puzzle_hand_count", {"seat": 3, "count": 1, "expected": 2}),
    (SMALL.replace("won=32,33", "won=32,34"), "puzzle_points", {"points": "32,34", "expected": 65}),
    (SMALL.replace("won=32,33/3,3", "won=65,0/6,0"), None, None),  # fine: one side took every trick
    (SMALL.replace("won=32,33/3,3", "won=32,33/6,0"), "puzzle_tricks", {"tricks": "6,0"}),
    (SMALL.replace("won=32,33/3,3", "won=32,33/4,4"), "puzzle_tricks", {"tricks": "4,4"}),
    (SMALL.replace("won=32,33/3,3", "won=32,33/3,2"), "puzzle_hand_count", {"seat": 0, "count": 2, "expected": 3}),
    (SMALL.replace("to=0", "to=1"), "puzzle_turn", {"to": 1, "expected": 0}),
    (SMALL.replace("to=0", "to=5"), "puzzle_malformed", {"field": "to", "text": "5"}),
    (SMALL.replace("solution=Jh", "solution=9h"), "puzzle_not_legal", {"card": "9h", "seat": 0}),
    (SMALL.replace("solution=Jh", "solution=Xh"), "unknown_card", {"text": "Xh"}),
    (SMALL.replace("contract=80h1-0", "contract=85h1-0"), "puzzle_malformed", {"field": "contract", "text": "85h1"}),
    (SMALL.replace("contract=80h1-0", "contract=80x1-0"), "puzzle_malformed", {"field": "contract", "text": "80x1-0"}),
    (SMALL.replace("contract=80h1-0", "contract=80sa1-0"), "contract_not_played", {"kind": "sa"}),
    (SMALL.replace("trick=0:", "trick=4:"), "puzzle_malformed", {"field": "trick", "text": "4:"}),
    (SMALL.replace("won=32,33/3,3", "won=32;33"), "puzzle_malformed", {"field": "won", "text": "32;33"}),
    (SMALL.replace("hands=Jh,Ac/", "hands="), "puzzle_malformed", {"field": "hands", "text": "9h,As/Ts,Tc/7h,Ad"}),
    (SMALL + "&themes=squeeze", "puzzle_unknown_theme", {"theme": "squeeze"}),
    (SMALL + "&colour=red", "unknown_field", {"field": "colour"}),
    (SMALL + "&to=0", "malformed_position", {"text": "to given twice"}),
    (SMALL.replace("&to=0", ""), "missing_field", {"field": "to"}),
    (SMALL + "&line=Ac", None, None),
    (SMALL + "&line=Jh,As", "puzzle_not_legal", {"card": "As", "seat": 1}),
    (SMALL.replace("rating=1200", "rating=99999"), "puzzle_malformed", {"field": "rating", "text": "99999"}),
    (SMALL + "&belote=1", None, None),  # nobody holds both the king and queen: any side may have had it
    (SMALL + "&id=<b>", "puzzle_malformed", {"field": "id", "text": "<b>"}),
    (SMALL + "&" + "x" * 1000, "puzzle_too_long", {"length": len(SMALL) + 1001, "limit": 1000}),
    ("contract=80h1-0&hands=Kh,Qh/9h,As/Ts,Tc/7h,Ad&trick=0:&won=44,45/3,3&to=0&solution=Kh&belote=1",
     "puzzle_belote", {"side": 1}),
]


@pytest.mark.parametrize("text, key, params", BAD_LINKS)
def test_a_bad_link_is_told_by_its_key(text, key, params):
    answer = call("puzzle_parse", text=text)
    if key is None:
        assert "result" in answer, answer
        return
    assert answer["error"]["code"] == key and answer["error"]["params"] == params, answer


@pytest.mark.parametrize("line, key", [
    ("not json {", "puzzle_corrupt"), ("[1, 2]", "puzzle_corrupt"),
    ('{"contract": {}}', "missing_field"),
    ('{"hands": [], "contract": {}, "trick": {}, "won": {}, "to_play": 0, "solution": [], "shoe": 1}', "unknown_field"),
])
def test_a_bad_json_line_is_told_by_its_key(line, key):
    with pytest.raises(CoincheError) as e:
        Puzzle.from_json(line)
    assert e.value.key == key


def test_every_field_of_the_json_line_is_checked():
    good = Puzzle.parse(SMALL).to_dict()
    for name, value, key in [("hands", [["Jh", "Ac"]], "puzzle_malformed"), ("to_play", 2, "puzzle_turn"),
                             ("margin", -1, "puzzle_malformed"), ("kind", "closed", "puzzle_malformed"),
                             ("rules", "pisser=yes", "unknown_rule_option"), ("themes", "ruff", "puzzle_malformed"),
                             ("values", [], "puzzle_malformed"), ("values", {"Jh": 5}, "puzzle_malformed"),
                             ("counts", [2, 2, 2, 2], "puzzle_malformed")]:
        with pytest.raises(CoincheError) as e:
            Puzzle.from_json({**good, name: value})
        assert e.value.key == key, (name, e.value.key)
    for name, inner, value in [("contract", "trump", "x"), ("contract", "multiplier", 3), ("trick", "leader", 7),
                               ("won", "points", [1]), ("won", "belote", 2)]:
        with pytest.raises(CoincheError):
            Puzzle.from_json({**good, name: {**good[name], inner: value}})


# ---------------------------------------------------------------- solved
def test_a_small_puzzle_is_solved_and_holds():
    p = Puzzle.parse(SMALL)
    assert {str(c): v for c, v in solve_puzzle(p).items()} == {"Jh": 176, "Ac": 84}
    assert check_puzzle(p) is None
    answer = call("puzzle_solve", puzzle=SMALL)["result"]
    assert answer["best"] == ["Jh"] and answer["margin"] == 92 and answer["holds"] is None
    assert answer["line"][0] == "Jh" and len(answer["line"]) == 8
    wrong = call("puzzle_solve", puzzle=SMALL.replace("solution=Jh", "solution=Ac"))["result"]["holds"]
    assert wrong == {"key": "puzzle_not_best", "params": {"cards": "Ac", "best_cards": "Jh"}}
    assert check_puzzle(Puzzle.parse(SMALL.replace("margin=20", "margin=100"))) == {
        "key": "puzzle_margin", "params": {"margin": 100, "found": 92}}


@settings(max_examples=25, deadline=None)
@given(puzzles(late=True))
def test_the_values_are_a_naive_solvers(p):
    # a deliberately naive second solver (tests/naive_solver.py: plain minimax, no table, no ordering) gives the
    # same final score for every legal card, from positions of at most three tricks left
    if p.announced != (0, 0) or p.rules.surcoinche != 4:  # announcements and a surcoinche of 3: not naive's
        p = replace(p, announced=(0, 0), rules=Rules(p.rules.variant), contract=replace(p.contract,
                    multiplier=min(p.contract.multiplier, 2), suit=p.contract.suit % 4))
    values = solve_puzzle(p)
    assert set(values) == set(p.legal())
    assert values == naive_values(p)
    best, gap = best_cards(values)
    assert all(values[c] == max(values.values()) for c in best) and (gap is None or gap > 0)


def test_the_line_played_out_ends_the_deal_and_each_move_is_legal():
    p = Puzzle.parse(SMALL)
    line = played_out(p)
    assert line[0] == Card.parse("Jh") and not any(p.after(line).hands)
    assert call("puzzle_play", puzzle=SMALL, cards=["Jh", "9h"])["result"]["trick"] == {"leader": 0,
                                                                                         "cards": ["Jh", "9h"]}
    assert call("puzzle_play", puzzle=SMALL, cards=["Ac", "Jh"])["error"]["code"] == "puzzle_not_legal"


# ---------------------------------------------------------------- from the player's own mistakes
def test_issue_42s_blunder_becomes_a_puzzle_of_the_seat():
    answer = call("puzzle_from_review", record=ISSUE_42, index=27)["result"]
    p = Puzzle.from_json(answer)
    assert p.kind == "seat" and p.to_play == 0 and [str(c) for c in p.solution] == ["8s"]
    assert {str(c) for c, _ in p.values} == {"8s", "As", "Jd", "Jc"} and p.counts == (4, 3, 3, 3)
    assert p.hands[1:] == ((), (), ()) and check_puzzle(p) is None  # only what the seat knew
    assert Puzzle.parse(str(p)) == p
    solved = call("puzzle_solve", puzzle=answer)["result"]
    assert solved["best"] == ["8s"] and solved["values"]["Jd"] < solved["values"]["Jc"] < solved["values"]["8s"]
    assert call("puzzle_from_review", record=ISSUE_42, index=26)["error"]["code"] in ("malformed_record",
                                                                                      "puzzle_not_a_mistake")
    assert call("puzzle_from_review", record=ISSUE_42, index=0)["error"]["code"] == "puzzle_not_a_mistake"


# ---------------------------------------------------------------- the shipped set and its check
SHIPPED = Path(__file__).resolve().parent.parent / "web" / "puzzles" / "open.jsonl"


def shipped_lines() -> list[str]:
    return [line for line in SHIPPED.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("full", [pytest.param(False), pytest.param(True, marks=pytest.mark.full_only)])
def test_every_shipped_puzzle_holds(full):
    # a sample of 30 by default (spread over the file), the whole set in the full tier: each re-solved, its
    # solution exactly the best cards, its margin held, each move of its line forced again
    lines = shipped_lines()
    assert len(lines) >= (800 if full else 100)
    sample = lines if full else lines[::max(1, len(lines) // 30)][:30]
    ids = [json.loads(line)["id"] for line in lines]
    assert len(set(ids)) == len(ids)
    for line in sample:
        p = Puzzle.from_json(line)
        assert p.kind == "open" and p.margin >= 20 and set(p.themes) <= set(THEMES), line
        assert check_puzzle(p) is None, (p.id, check_puzzle(p))
        assert Puzzle.parse(str(p)) == p


def test_the_check_command_names_each_line_that_does_not_hold(tmp_path, capsys):
    from coinche.cli import main

    good = Puzzle.parse(SMALL.replace("&rating", "&id=small&rating"))
    wrong = Puzzle.parse(SMALL.replace("solution=Jh", "solution=Ac").replace("&rating", "&id=wrong&rating"))
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join([good.to_json(), "{not json", wrong.to_json(), good.to_json(), ""]) + "\n")
    assert main(["puzzles", "--check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        f"{path}:2: skipped: unreadable puzzle: not JSON",
        f"{path}:3: wrong: the solution Ac is not the best cards: Jh",
        f"{path}:4: small: the puzzle id small is given twice",
    ]
    assert out[3].startswith("3 puzzles re-solved: 1 hold, 2 do not; 1 lines skipped (") and len(out) == 4
    path.write_text(good.to_json() + "\n")
    assert main(["puzzles", "--check", str(path)]) == 0


# ---------------------------------------------------------------- themes (the lab's generator)
def hand_made(hands: str, trick: str = "", leader: int = 0, contract: str = "80h1-0", tricks=None,
              belote: int | None = None) -> Puzzle:
    """A hand-made position, its points won those of the cards gone (shared between the sides unless one took
    every trick so far), solved: its solution the solver's best cards."""
    from coinche.cards import TRUMP_LETTERS

    trump = TRUMP_LETTERS.index(re.match(r"\d+(sa|ta|[shdc])", contract)[1])
    cards = [Card.parse(c) for c in hands.replace("/", ",").split(",") + trick.split(",") if c]
    gone = 152 - sum(POINTS[trump][c] for c in cards)
    done = 8 - max(len(h.split(",")) for h in hands.split("/"))
    tricks = tricks or (done - done // 2, done // 2)
    mine = gone if tricks[1] == 0 else 0 if tricks[0] == 0 else gone // 2
    to = (leader + len([c for c in trick.split(",") if c])) % 4
    text = (f"contract={contract}&hands={hands}&trick={leader}:{trick}&won={mine},{gone - mine}/{tricks[0]},{tricks[1]}"
            f"&to={to}&solution=" + (f"&belote={belote}" if belote is not None else ""))
    p = Puzzle.parse(text)
    return replace(p, solution=tuple(best_cards(solve_puzzle(p))[0]))


THEMED = [
    # seat 0 leads: the jack of hearts draws West's last trump before the two aces, which it would ruff
    (hand_made("Jh,Ac,Ad/7h,8s,9s/7c,8c,7d/Ts,Ks,Qs"), "Jh", {"draw_trumps", "endgame"}, {"capot", "ruff"}),
    # the same, North-South having taken every trick so far: drawing the trump takes them all
    (hand_made("Jh,Ac,Ad/7h,8s,9s/7c,8c,7d/Ts,Ks,Qs", tricks=(5, 0)), "Jh", {"draw_trumps", "capot"}, set()),
    # the partner's ace of spades wins: the king under it lets the partner's queen and jack take the rest
    (hand_made("Ks,7s,7d/9s,7c,8c/Qs,Js/9d,8d", "As,8s", leader=2), "Ks", {"unblock", "dix_de_der"},
     {"draw_trumps", "ruff"}),
    # East (3) leads the ten of spades for West's king of diamonds (trumps) to ruff
    (hand_made("As,9c,Tc/Kd,Qc,Kc/8s,Jh,8d/Ts,Jd,Ad", leader=3, contract="100d1-3"), "Ts",
     {"ruff", "partner_lead"}, {"draw_trumps"}),
    # two tricks left: the ruff also makes the contract, which the ace of diamonds first would lose
    (hand_made("As,9c/Kd,Qc/8s,Jh/Ts,Ad", leader=3, contract="100d1-3"), "Ts", {"ruff", "contract", "dix_de_der"},
     set()),
    # North (2) holds the belote (the king and queen of diamonds) and the last trumps: the seven it gives
    (hand_made("Qs,9h/9s,Th/7h,Qd,Kd/Ts,Js,Kh", "As,7s", leader=0, contract="80d1-2", belote=0), "7h",
     {"keep_belote", "last_trump", "partner_lead"}, {"draw_trumps"}),
]


@pytest.mark.parametrize("p, solution, themes, not_themes", THEMED)
def test_themes_are_detected_on_hand_made_positions(p, solution, themes, not_themes):
    from coinche_lab.puzzles import themes_of

    assert [str(c) for c in p.solution] == [solution]
    found = set(themes_of(p))
    assert themes <= found and not found & not_themes, found
    assert found <= set(THEMES)


def test_the_themes_detected_cover_at_least_six_of_the_list():
    from coinche_lab.puzzles import themes_of

    assert len(set().union(*(themes_of(p) for p, *_ in THEMED))) >= 6
