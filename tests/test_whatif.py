"""What if (coinche.whatif): a deal branched at a decision and played out by the Expert bots or double dummy."""

from __future__ import annotations

import random

import naive_solver
import pytest
from hypothesis import given, settings, strategies as st

from coinche.cards import SUIT_LETTERS, Card, card_name, cards_of
from coinche.deal import Deal
from coinche.errors import IllegalActionError
from coinche.record import check, deal_to_record, replay
from coinche.solver import solve
from coinche.whatif import EXACT_CARDS, WhatIfError, branch_seed, format_line, parse_line, what_if


def played_record(seed: int, variant: str = "coinche") -> dict:
    """A seeded deal with a contract, played to the end by random legal cards."""
    rng = random.Random(seed)
    deal = Deal.new(variant, dealer=seed % 4, seed=seed)
    if variant == "classic":
        calls = [f"take{SUIT_LETTERS[deal.turned >> 3]}"]
    else:
        calls = [rng.choice(("80", "90", "100")) + rng.choice("shdc"), "pass", "pass", "pass"]
    for call in calls:
        deal.apply(call)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_cards()))
    return deal_to_record(deal)


def at(record: dict, ply: int) -> Deal:
    """The real deal standing at decision ``ply``."""
    deal = Deal(replay(record).rules, record["dealer"], [int(c) for c in map(Card.parse, record["deck"].split(","))])
    actions = record["calls"] + record["plays"]
    for action in actions[:ply]:
        deal.apply(action)
    return deal


def late_branch(record: dict, rng: random.Random, left: int) -> tuple[int, str, Deal]:
    ply = len(record["calls"]) + 32 - left
    deal = at(record, ply)
    return ply, card_name(rng.choice(deal.legal_cards())), deal


# ---------------------------------------------------------------- the line's notation
def test_line_round_trips():
    assert parse_line("3:pass,12:Jh") == [(3, "pass"), (12, "Jh")]
    assert format_line(parse_line("3:pass,12:Jh")) == "3:pass,12:Jh"


@pytest.mark.parametrize("text", ["", "12", "12:", ":Jh", "x:Jh", "12:Jh,12:As", "12:Jh,4:As", "-1:Jh", None, 5,
                                  "1234:Jh", ",".join(f"{i}:Jh" for i in range(70))])
def test_malformed_lines_name_the_problem(text):
    with pytest.raises(WhatIfError) as e:
        parse_line(text)
    assert e.value.key == "whatif_malformed" and e.value.params["detail"]


@given(st.lists(st.tuples(st.integers(0, 999), st.sampled_from(["Jh", "7s", "pass", "80h", "coinche"])),
                min_size=1, max_size=8, unique_by=lambda p: p[0]))
def test_format_then_parse_is_identity(points):
    points = sorted(points)
    assert parse_line(format_line(points)) == points


# ---------------------------------------------------------------- legality
def test_a_forbidden_card_raises_the_rules_reason():
    for seed in range(50):
        record = played_record(seed)
        for ply in range(len(record["calls"]) + 1, len(record["calls"]) + 32):
            deal = at(record, ply)
            legal = deal.legal_mask()
            forbidden = [c for c in cards_of(deal.hands[deal.turn]) if not legal >> c & 1]
            if forbidden:
                card = forbidden[0]
                with pytest.raises(IllegalActionError) as e:
                    what_if(record, [(ply, card_name(card))], by="dd")
                assert e.value.key == "illegal_card"
                assert e.value.params["ply"] == ply
                assert e.value.params["reason"] == deal.ruling().reason(card).key
                assert e.value.params["rule"] == deal.ruling().reason(card).rule
                return
    pytest.fail("no forbidden card found")


def test_other_bad_points():
    record = played_record(1)
    n = len(record["calls"])
    with pytest.raises(IllegalActionError) as e:  # a card of another hand
        other = at(record, n).hands[(at(record, n).turn + 1) & 3]
        what_if(record, [(n, card_name(cards_of(other)[0]))], by="dd")
    assert e.value.key == "card_not_in_hand"
    with pytest.raises(IllegalActionError) as e:  # a call below the standing bid
        what_if(record, [(1, "80s")], by="dd")
    assert e.value.key == "illegal_call"
    with pytest.raises(WhatIfError) as e:  # a call where a card is due
        what_if(record, [(n, "pass")], by="dd")
    assert e.value.key == "whatif_bad_move"
    with pytest.raises(WhatIfError) as e:  # past the end
        what_if(record, [(n + 32, "Jh")], by="dd")
    assert e.value.key == "whatif_no_decision"
    with pytest.raises(WhatIfError) as e:
        what_if(record, [(n + 31, card_name(at(record, n + 31).legal_cards()[0]))], by="bogus")
    assert e.value.key == "bad_option"


# ---------------------------------------------------------------- double dummy
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["coinche", "classic"]), st.integers(1, EXACT_CARDS // 4 * 4 - 8))
def test_dd_branch_ends_on_the_solvers_value_of_the_chosen_card(seed, variant, left):
    """Both sides playing best after the branch, the deal ends where the solver says the chosen card leads."""
    record = played_record(seed, variant)
    ply, move, deal = late_branch(record, random.Random(seed), left)
    expected = solve(deal)[Card.parse(move)]
    branch = what_if(record, [(ply, move)], by="dd")
    assert branch["result"]["cards"] == list(expected.points)
    assert branch["result"]["scores"] == list(expected.score.scores)
    assert branch["exact_from"] == ply + 1 or left == 1 and branch["exact_from"] is None


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 16))
def test_a_branch_keeps_the_real_deal_before_it_and_replays(seed, left):
    record = played_record(seed)
    ply, move, _ = late_branch(record, random.Random(seed), left)
    branch = what_if(record, [(ply, move)], by="dd")
    out = branch["record"]
    assert (out["calls"] + out["plays"])[:ply] == (record["calls"] + record["plays"])[:ply]
    assert (out["calls"] + out["plays"])[ply] == move
    assert check(out) is not None
    assert branch["real"] == record["result"] and branch["branch"] == ply


def test_dd_differential_against_the_naive_search():
    """An 8-card ending: the branch's final score difference is the naive full-tree value of the card."""
    for seed in range(6):
        record = played_record(seed)
        ply, move, deal = late_branch(record, random.Random(seed), 8)
        c = deal.contract
        belote = (deal.belote_seat & 1) if deal.belote_seat >= 0 else None
        leaf = naive_solver.score_leaf(deal.variant, c.side, c.value, c.multiplier, belote)
        hands = [{card_name(x) for x in cards_of(h)} for h in deal.hands]
        values = naive_solver.each_card(hands, deal.leader, [card_name(x) for x in deal.trick],
                                        SUIT_LETTERS[deal.trump], tuple(deal.cards_won), tuple(deal.tricks_won), leaf)
        scores = what_if(record, [(ply, move)], by="dd")["result"]["scores"]
        assert scores[0] - scores[1] == values[move]


def test_a_line_of_two_points():
    record = played_record(3)
    n = len(record["calls"])
    first = what_if(record, [(n + 24, at(record, n + 24).legal_cards()[-1].__str__())], by="dd")
    branch_deal = replay(first["record"])
    again = Deal(branch_deal.rules, branch_deal.dealer, branch_deal.deck)
    for action in (first["record"]["calls"] + first["record"]["plays"])[:n + 28]:
        again.apply(action)
    move = card_name(again.legal_cards()[0])
    two = what_if(record, [(n + 24, first["record"]["plays"][24]), (n + 28, move)], by="dd")
    assert two["record"]["plays"][:28] == first["record"]["plays"][:28] and two["record"]["plays"][28] == move
    assert two["line"] == f"{n + 24}:{first['record']['plays'][24]},{n + 28}:{move}"


# ---------------------------------------------------------------- the Expert bots
def test_expert_branch_is_deterministic_and_seeded_by_the_line():
    record = played_record(5)
    n = len(record["calls"])
    deal = at(record, n + 20)
    moves = [card_name(c) for c in deal.legal_cards()]
    one = what_if(record, [(n + 20, moves[0])])
    assert one == what_if(record, [(n + 20, moves[0])])
    assert check(one["record"]) is not None and one["exact_from"] is None
    assert branch_seed(record, [(n + 20, moves[0])], "expert") != branch_seed(record, [(n + 21, moves[0])], "expert")
    assert branch_seed(record, [(n + 20, moves[0])], "expert") != branch_seed(record, [(n + 20, moves[0])], "dd")


def test_a_branch_in_the_auction_is_bid_and_played_by_the_bots():
    record = played_record(2)
    branch = what_if(record, [(0, "pass")], by="expert", level="easy")
    assert branch["record"]["calls"][0] == "pass"
    assert check(branch["record"]) is not None


# ---------------------------------------------------------------- every branch is a whole deal
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["coinche", "classic"]), st.integers(1, 12))
def test_a_branch_is_a_legal_deal_whose_card_points_are_162(seed, variant, left):
    """The branch replays card by card under the rules (check), every card is played once, and its card
    points (the last trick's ten included, the belote apart) add up to 162, as the scoring counts them."""
    record = played_record(seed, variant)
    ply, move, _ = late_branch(record, random.Random(seed), left)
    for by in ("dd", "expert"):
        out = what_if(record, [(ply, move)], by=by, level="easy" if by == "expert" else "expert")["record"]
        check(out)
        assert sorted(out["plays"]) == sorted(record["plays"])
        assert sum(out["result"]["cards"]) == 162


def test_the_real_card_by_dd_ends_on_the_solvers_value():
    """Branching with the card really played and best play after it gives solve()'s value of that card."""
    for seed in range(4):
        record = played_record(seed)
        ply = len(record["calls"]) + 24
        real = record["plays"][24]
        expected = solve(at(record, ply))[Card.parse(real)]
        branch = what_if(record, [(ply, real)], by="dd")
        assert branch["result"]["cards"] == list(expected.points)
        assert branch["result"]["scores"] == list(expected.score.scores)


# ---------------------------------------------------------------- the page's command and the CLI
def test_the_web_command_answers_the_branch_and_its_steps():
    from coinche.webcommands import COMMANDS

    record = played_record(4)
    ply = len(record["calls"]) + 28
    move = card_name(at(record, ply).legal_cards()[-1])
    out = COMMANDS["what_if"](record, f"{ply}:{move}", "dd")
    assert out["line"] == f"{ply}:{move}" and out["by"] == "dd"
    assert len(out["steps"]) == 1 + len(record["calls"]) + 32
    assert out["steps"][ply + 1]["action"] == move and out["steps"][-1]["phase"] == "over"
    with pytest.raises(WhatIfError) as e:
        COMMANDS["what_if"](record, "28;Jh", "dd")
    assert e.value.to_json()["key"] == "whatif_malformed"


def test_the_cli_branches_a_record(tmp_path):
    import json
    import subprocess
    import sys

    record = played_record(6)
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(record) + "\n")
    ply = len(record["calls"]) + 28
    move = card_name(at(record, ply).legal_cards()[0])
    run = [sys.executable, "-m", "coinche.cli", "replay", str(path), "--what-if", f"{ply}:{move}", "--by", "dd"]
    done = subprocess.run(run + ["--json"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == what_if(record, [(ply, move)], by="dd")
    done = subprocess.run(run[:-4] + ["--what-if", f"{ply}:pass"], capture_output=True, text=True)
    assert done.returncode == 1 and "'pass' is not a card" in done.stderr


def test_the_choices_at_a_decision_are_the_rules_legal_moves():
    from coinche.whatif import choices

    record = played_record(8)
    n = len(record["calls"])
    for ply in range(0, n + 32, 3):
        deal = at(record, ply)
        got = choices(record, ply)
        assert got["seat"] == deal.turn and got["real"] == (record["calls"] + record["plays"])[ply]
        legal = [str(c) for c in deal.legal_calls()] if ply < n else [card_name(c) for c in deal.legal_cards()]
        assert got["moves"] == legal and got["real"] in got["moves"]
    for ply in (-1, n + 32, "3", True):
        with pytest.raises(WhatIfError) as e:
            choices(record, ply)
        assert e.value.key == "whatif_no_decision"
