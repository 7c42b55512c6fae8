"""House rules (issue 24): the Rules value and its notation, each option's worked examples and properties,
the deal, the match, records, saves, the command line, and the bots pricing by the table's rules.

The worked examples are the ones of docs/rules.md, "Worked examples of house rules" (a test reads that table:
it fails if the two drift apart).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from coinche import Contract, Deal, Match, parse_cards
from coinche.calls import Call
from coinche.cards import mask_of
from coinche.errors import CoincheError
from coinche.play import legal_mask, rule_position
from coinche.record import FORMAT, RecordError, check, deal_to_record, replay
from coinche.rules import DE_2000, OPTIONS, OWN, PRESETS, Rules, RulesError, describe
from coinche.scoring import score, score_coinche
from coinche.session import Session

rules_values = st.builds(Rules, **{o.field: st.sampled_from(o.values) for o in OPTIONS})


# ---------------------------------------------------------------- the value and its notation
@given(rules_values)
def test_notation_round_trips(rules):
    text = str(rules)
    assert Rules.parse(text) == rules
    assert Rules.parse(rules.options_text()) == rules
    assert str(Rules.parse(text)) == text


@given(rules_values, st.randoms())
def test_notation_reads_any_order_case_and_spacing(rules, rng):
    items = [i for i in rules.options_text().split(",") if i]
    rng.shuffle(items)
    assert Rules.parse(" , ".join(i.upper() for i in items)) == rules


def test_the_game_s_own_rules_are_the_default_everywhere():
    assert Rules() == OWN == Rules.parse("") == Rules.parse("own") and str(Rules()) == "own"
    assert Rules().is_own and Rules("classic", 501).is_own and not DE_2000.is_own
    assert Rules("classic", 501).changes() == [] and str(Rules("classic", 501)) == "variant=classic,target=501"
    assert set(PRESETS) == {"own", "de-2000"} and str(DE_2000) == "de-2000"


@pytest.mark.parametrize("text, key, params", [
    ("pisser=yes", "unknown_rule_option", {"name": "pisser"}),
    ("de-2001", "unknown_rule_option", {"name": "de-2001"}),
    ("open=85", "bad_rule_value", {"name": "open", "value": "85", "allowed": "80, 82"}),
    ("target=900", "bad_rule_value", {"name": "target", "value": "900", "allowed": "1000, 501, 701, 1500, 2000"}),
    ("round=", "bad_rule_value", {"name": "round", "value": "", "allowed": "none, 5up, 5down"}),
])
def test_an_unknown_option_or_value_is_named(text, key, params):
    with pytest.raises(RulesError) as e:
        Rules.parse(text)
    assert e.value.key == key and e.value.params == params
    assert e.value.to_json()["key"] == key


def test_describe_lists_every_option_and_preset():
    data = describe()
    assert [o["name"] for o in data["options"]] == [o.name for o in OPTIONS]
    assert data["presets"]["de-2000"]["options"] == DE_2000.options_text()
    assert Rules.parse(data["presets"]["de-2000"]["options"]) == DE_2000


# ---------------------------------------------------------------- scoring: worked examples (docs/rules.md)
def coinche(value, multiplier=1, declarer=0):
    return Contract("coinche", declarer, 1, value, multiplier)


EXAMPLES = [
    # (notation, contract value, multiplier, cards, belote side, tricks, scores)
    ("own", 110, 1, (124, 38), None, (6, 2), (234, 38)),
    ("own", 110, 1, (96, 66), None, (5, 3), (0, 272)),
    ("down=160bid", 110, 1, (96, 66), None, (5, 3), (0, 270)),
    ("down=160", 110, 1, (96, 66), None, (5, 3), (0, 160)),
    ("down=bid", 110, 1, (96, 66), None, (5, 3), (0, 110)),
    ("down=bid", 110, 2, (96, 66), None, (5, 3), (0, 220)),
    ("surcoinche=3", 110, 3, (124, 38), None, (6, 2), (702, 0)),
    ("own", 110, 4, (124, 38), None, (6, 2), (936, 0)),
    ("multiply=contract", 110, 2, (124, 38), None, (6, 2), (344, 38)),
    ("multiply=contract", 110, 2, (96, 66), None, (5, 3), (0, 382)),
    ("capot=500", 250, 1, (162, 0), 0, (8, 0), (520, 0)),
    ("capot=500", 250, 1, (150, 12), None, (7, 1), (0, 500)),
    ("capot=500", 120, 1, (162, 0), None, (8, 0), (370, 0)),
    ("own", 250, 1, (162, 0), 0, (8, 0), (432, 0)),
    ("round=5up", 90, 1, (95, 67), None, (5, 3), (190, 70)),
    ("round=5up", 100, 1, (105, 57), None, (5, 3), (210, 60)),
    ("round=5down", 100, 1, (105, 57), None, (5, 3), (200, 60)),
    ("belote=defence", 100, 1, (70, 92), 0, (3, 5), (0, 282)),
    ("own", 100, 1, (70, 92), 0, (3, 5), (20, 262)),
    ("de-2000", 100, 2, (70, 92), 0, (3, 5), (20, 360)),
    ("de-2000", 100, 1, (104, 58), None, (6, 2), (200, 60)),
    ("de-2000", 82, 1, (85, 77), None, (5, 3), (170, 80)),
]


@pytest.mark.parametrize("notation, value, m, cards, belote, tricks, scores", EXAMPLES)
def test_worked_examples(notation, value, m, cards, belote, tricks, scores):
    result = score(Rules.parse(notation), coinche(value, m), cards, belote, tricks)
    assert result.scores == scores
    again = naive.coinche_score(0, value, m, cards, belote, tricks, naive.house_options(notation))
    assert again == scores


def documented_examples() -> list[tuple]:
    """The rows of docs/rules.md's "Worked examples of house rules" as EXAMPLES writes them (tricks aside)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    table = text.split("### Worked examples of house rules", 1)[1].split("\n### ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if not line.startswith("| ") or cells[0] in ("rules", "---"):
            continue
        notation, contract, cards, belote, scores = cells[0].strip("`"), cells[1], cells[2], cells[3], cells[4]
        value, _, doubled = contract.partition(" ")
        rows.append((notation, 250 if value == "capot" else int(value),
                     {"": 1, "coinched": 2, "surcoinched": Rules.parse(notation).multiplier(2)}[doubled],
                     tuple(int(n) for n in cards.split(" (")[0].split(" – ")), {"us": 0, "–": None}[belote],
                     tuple(int(n) for n in scores.split(" – "))))
    return rows


def test_the_worked_examples_are_the_documents():
    assert sorted(documented_examples(), key=repr) == sorted([e[:5] + e[6:] for e in EXAMPLES], key=repr)


def test_the_parts_say_which_rule_gave_which_points():
    result = score(DE_2000, coinche(100, 2), (70, 92), 0, (3, 5))
    parts = {(p.side, p.key, p.rule): p.points for p in result.parts}
    assert parts == {(1, "down", "down=160bid"): 160, (1, "contract", "multiply=contract"): 200, (0, "belote", None): 20}
    result = score(DE_2000, coinche(82), (85, 77), None, (5, 3))
    assert [(p.side, p.key, p.points, p.rule) for p in result.parts] == [
        (0, "cards", 85, None), (0, "contract", 82, "multiply=contract"), (1, "cards", 77, None),
        (0, "rounding", 3, "round=5up"), (1, "rounding", 3, "round=5up")]


# ---------------------------------------------------------------- scoring: properties of every option
@st.composite
def outcomes(draw):
    declarer_tricks = draw(st.integers(0, 8))
    if declarer_tricks == 8:
        d_cards = 162
    elif declarer_tricks == 0:
        d_cards = 0
    else:
        d_cards = draw(st.integers(0, 162))
    value = draw(st.sampled_from((80, 82, 90, 100, 110, 120, 130, 140, 150, 160, 250)))
    return (d_cards, 162 - d_cards), (declarer_tricks, 8 - declarer_tricks), value, \
        draw(st.sampled_from((None, 0, 1))), draw(st.sampled_from((1, 2, 3, 4)))


@settings(max_examples=400)
@given(rules_values, outcomes(), st.sampled_from((0, 1, 2, 3)))
def test_score_properties(rules, outcome, declarer):
    cards, tricks, value, belote, m = outcome
    side = declarer & 1
    if side:
        cards, tricks = cards[::-1], tricks[::-1]
        belote = None if belote is None else 1 - belote
    contract = Contract(rules.variant, declarer, 2, value, m)
    result = score(rules, contract, cards, belote, tricks)
    assert sum(result.cards) == 162
    for s in (0, 1):  # the parts add up to each side's score
        assert sum(p.points for p in result.parts if p.side == s) == result.scores[s]
    assert all(p.points for p in result.parts)
    # rounding never changes made or failed, and moves a score by at most 5
    unrounded = score(Rules.parse(rules.options_text() + ",round=none"), contract, cards, belote, tricks)
    assert unrounded.made == result.made
    assert all(abs(a - b) <= 5 and a % 10 == 0 for a, b in zip(result.scores, unrounded.scores)
               if rules.rounding != "none")
    # the belote's 20 are never multiplied and never lost
    no_belote = score(rules, contract, cards, None, tricks)
    if rules.rounding == "none" and (no_belote.made == result.made):
        assert sum(result.scores) - sum(no_belote.scores) == (20 if belote is not None else 0)
    assert naive.coinche_score(side, value, m, cards, belote, tricks, naive.house_options(str(rules))) == \
        score_coinche(contract, cards, belote, tricks, rules.with_match("coinche", rules.target)).scores or \
        rules.variant == "classic"


@settings(max_examples=300)
@given(outcomes())
def test_zero_sum_where_the_options_make_it_so(outcome):
    """With 162 + contract to a defence, unmultiplied and unrounded, a deal hands out 162 + contract + belote
    whoever wins it (the points only change hands); with 160 + contract a failed contract hands out 2 fewer."""
    cards, tricks, value, belote, _ = outcome
    if value == 250:
        return
    bel = 0 if belote is None else 20
    for notation, lost in (("own", 0), ("down=160bid", 2), ("belote=defence", 0)):
        result = score(Rules.parse(notation), coinche(value), cards, belote, tricks)
        assert sum(result.scores) == 162 + value + bel - (0 if result.made else lost)


# ---------------------------------------------------------------- the deal: auction and card play
def test_open_82_bids_82_then_90():
    deal = Deal.new(Rules(opening=82), dealer=3, seed=1)
    values = sorted({c.value for c in deal.legal_calls() if c.is_bid})
    assert values == [82, 90, 100, 110, 120, 130, 140, 150, 160, 250]
    deal.apply("82h")
    assert min(c.value for c in deal.legal_calls() if c.is_bid) == 90
    with pytest.raises(CoincheError):
        Deal.new(Rules(), dealer=3, seed=1).apply("82h")


def test_a_capot_that_may_not_be_coinched_ends_the_auction():
    deal = Deal.new(Rules(capot_coinche=False), dealer=3, seed=1)
    deal.apply("pass")
    deal.apply("capoth")
    assert deal.phase.name == "PLAY" and str(deal.contract) == "capoth by 1"
    own = Deal.new(Rules(), dealer=3, seed=1)
    own.apply("pass")
    own.apply("capoth")
    assert own.phase.name == "AUCTION" and Call.parse("coinche") in own.legal_calls()


def test_surcoinche_multiplies_by_3():
    deal = Deal.new(Rules(surcoinche=3), dealer=3, seed=1)
    for call in ("90h", "coinche", "surcoinche"):
        deal.apply(call)
    assert deal.contract.multiplier == 3 and str(deal.contract) == "90h surcoinche by 0"


def test_undertrump_makes_a_lower_trump_compulsory():
    hand, trick = mask_of(parse_cards("7h,8h,Kd,Ac")), parse_cards("As,9s,9h")
    assert legal_mask(hand, trick, 1) == hand
    assert legal_mask(hand, trick, 1, undertrump=True) == mask_of(parse_cards("7h,8h"))
    ruling = rule_position(hand, trick, 1, undertrump=True)
    assert ruling.rule == 4 and {(str(f.card), f.key, f.params["card"]) for f in ruling.forbidden} == {
        ("Kd", "must_undertrump", "9h"), ("Ac", "must_undertrump", "9h")}
    # nothing else changes: a partner winning still frees, a hand without trump still discards
    assert legal_mask(hand, parse_cards("As,9h,7c"), 1, undertrump=True) == hand
    assert legal_mask(mask_of(parse_cards("Kd,Ac")), trick, 1, undertrump=True) == mask_of(parse_cards("Kd,Ac"))


def test_the_judge_rules_by_the_game_s_own():
    from coinche.webcommands import judge

    assert set(judge("trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac")["legal"]) == {"7h", "8h", "Kd", "Ac"}


# ---------------------------------------------------------------- the match
def test_the_end_and_the_tie():
    from coinche.match import match_winner

    assert match_winner((1000, 990), 1000) == 0 and match_winner((1000, 990), 1000, end="pass") is None
    assert match_winner((1001, 990), 1000, end="pass") == 0
    assert match_winner((2010, 2010), 2000) is None
    assert match_winner((2010, 2010), 2000, tie="declarer", declarer_side=0) == 0
    for totals in ((1000, 990), (1001, 990), (1010, 1010), (990, 1010)):
        for house in ({}, {"end": "pass"}, {"tie": "declarer"}):
            engine = match_winner(totals, 1000, house.get("end", "reach"), house.get("tie", "again"), 1)
            assert engine == naive.match_winner(totals, 1000, house, 1)


def test_a_match_plays_to_its_target_by_its_rules():
    m = Match(DE_2000, seed="house")
    while not m.is_over:
        m.apply_unchecked(m.legal_actions()[-1])
    assert max(m.totals) >= 2000 and all(t % 10 == 0 for t in m.totals)
    assert all(r["rules"] == "de-2000" for r in m.history)


# ---------------------------------------------------------------- records, saves
def played(rules, seed=3):
    deal = Deal.new(rules, dealer=seed & 3, seed=seed)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[-1 if deal.phase.name == "AUCTION" else 0])
    return deal


def test_a_record_carries_its_rules():
    record = deal_to_record(played(DE_2000))
    assert record["format"] == FORMAT == "coinche-deal/2" and record["rules"] == "de-2000"
    assert replay(record).rules == DE_2000 and deal_to_record(check(record)) == record


def test_a_first_format_record_reads_as_the_game_s_own():
    record = deal_to_record(played(Rules()))
    old = {k: v for k, v in record.items() if k != "rules"} | {"format": "coinche-deal/1"}
    assert check(old).rules == Rules()


@pytest.mark.parametrize("rules, detail", [
    ("pisser=yes", "unknown rule option 'pisser'"), ("variant=classic", "not of the variant"), (None, "'rules'")])
def test_a_record_with_unknown_rules_is_refused(rules, detail):
    record = deal_to_record(played(Rules()))
    if rules is None:
        del record["rules"]
    else:
        record["rules"] = rules
    with pytest.raises(RecordError, match=detail):
        replay(record)


def test_a_save_keeps_its_rules_and_a_default_save_is_as_before():
    s = Session.new(rules="de-2000", level="easy", seed="keep")
    assert s.settings["target"] == 2000 and s.settings["rules"] == "de-2000"
    for _ in range(30):
        if s.bot_step() is None:
            s.act(0, str(s.match.legal_actions()[0]))
    again = Session.from_snapshot(json.loads(json.dumps(s.snapshot())))
    assert again.match.rules == DE_2000 and again.state(0) == s.state(0)
    assert "rules" not in Session.new("classic", 501, seed="plain").settings
    assert Session.new("classic", 501, seed="plain").state(0)["rules"] == "variant=classic,target=501"


def test_a_save_with_an_unknown_option_is_refused_naming_it():
    snapshot = Session.new(rules="open=82", seed="x").snapshot()
    snapshot["settings"]["rules"] = "open=82,pisser=yes"
    with pytest.raises(RulesError) as e:
        Session.from_snapshot(snapshot)
    assert e.value.key == "unknown_rule_option" and e.value.params == {"name": "pisser"}


def test_the_deal_end_says_which_rule_gave_which_points():
    s = Session.new(rules="round=5up,down=160bid", level="easy", seed="parts", humans=())
    event = None
    while event is None or "deal_end" not in event or event["deal_end"]["record"]["result"]["void"]:
        event = s.bot_step()
    parts = event["deal_end"]["parts"]
    scores = event["deal_end"]["record"]["result"]["scores"]
    assert [sum(p["points"] for p in parts if p["side"] == side) for side in (0, 1)] == scores


# ---------------------------------------------------------------- the command line
def test_cli_simulate_replay_and_rules(tmp_path, capsys):
    from coinche.cli import main

    out = tmp_path / "deals.jsonl"
    assert main(["simulate", "--deals", "30", "--seed", "h", "--rules", "de-2000", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["rules"] for r in records} == {"de-2000"}
    assert all(s % 10 == 0 for r in records for s in r["result"]["scores"])
    assert main(["replay", str(out)]) == 0
    capsys.readouterr()
    assert main(["simulate", "--deals", "1", "--rules", "open=85"]) == 2
    assert "open" in capsys.readouterr().err
    assert main(["rules", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == describe()
    assert main(["rules", "de-2000"]) == 0
    assert "undertrump=yes" in capsys.readouterr().out


# ---------------------------------------------------------------- the bots price by the table's rules
def auction_knowledge(rules, hand, calls=(), seat=0):
    """The Normal bot's knowledge for ``seat`` holding ``hand`` after ``calls`` (dealer 3: seat 0 speaks first)."""
    from coinche.bots.knowledge import remember

    others = [c for c in naive.DECK if c not in hand]
    hands = [others[0:8], others[8:16], others[16:24]]
    hands.insert(seat, hand)
    deck = parse_cards(",".join(naive.deck_for_hands(hands, dealer=3)))
    deal = Deal(rules, 3, deck)
    for call in calls:
        deal.apply(call)
    assert deal.turn == seat
    return remember(deal.view(seat), "normal")


def priced(rules, hand, calls=(), seat=0):
    from coinche.bots.auction import price_calls

    return {str(c): v for c, v in price_calls(auction_knowledge(rules, hand, calls, seat), seed=7).values.items()}


STRONG = ["Jh", "9h", "Ah", "Th", "Kh", "As", "Ad", "Ac"]


def test_a_bid_capot_is_priced_higher_with_the_500_bonus():
    own, bonus = priced(Rules(), STRONG), priced(Rules(capot=500), STRONG)
    assert own["capoth"].make_chance > 50
    assert bonus["capoth"].score > own["capoth"].score


def test_a_surcoinche_is_priced_lower_at_x3():
    """Seat 0 bids 110h, seat 1 coinches; seat 2, holding the strong hand, may surcoinche."""
    own = priced(Rules(), STRONG, ("110h", "coinche"), seat=2)
    three = priced(Rules(surcoinche=3), STRONG, ("110h", "coinche"), seat=2)
    assert own["surcoinche"].make_chance > 50
    assert 0 < three["surcoinche"].score < own["surcoinche"].score


def test_a_coinche_is_priced_lower_when_a_failed_contract_gives_the_contract_alone():
    """Seat 1 bids 80h; seat 2, with the side suits' aces and tens, weighs a coinche."""
    hand = ["As", "Ts", "Ad", "Td", "Ac", "Tc", "Kc", "7h"]
    own = priced(Rules(), hand, ("pass", "80h"), seat=2)
    alone = priced(Rules(down="bid"), hand, ("pass", "80h"), seat=2)
    assert alone["coinche"].score < own["coinche"].score


def test_rounding_changes_the_price_of_a_close_contract():
    """Rounded scores are worth other amounts: the same bid is priced differently, by at most 10 a side."""
    own, rounded = priced(Rules(), STRONG), priced(Rules(rounding="5up"), STRONG)
    assert own["80h"].score != rounded["80h"].score
    assert abs(own["80h"].score - rounded["80h"].score) <= 10


def test_a_coinche_and_a_surcoinche_are_priced_lower_when_only_the_contract_is_multiplied():
    """``multiply=contract`` doubles the contract, not the cards (and the defence keeps its own): the coinche
    of a contract likely to fail, and the surcoinche of one likely to be made, swing less."""
    hand = ["Jh", "9h", "Ah", "As", "Ad", "Ac", "Ts", "7d"]  # seat 1 bids 80h over the trumps' top three
    own = priced(Rules(), hand, ("pass", "80h"), seat=2)
    contract = priced(Rules(multiply="contract"), hand, ("pass", "80h"), seat=2)
    assert own["coinche"].make_chance < 50
    assert 0 < contract["coinche"].score < own["coinche"].score
    assert contract["coinche"].score - contract["pass"].score < own["coinche"].score - own["pass"].score
    own = priced(Rules(), STRONG, ("110h", "coinche"), seat=2)
    contract = priced(Rules(multiply="contract"), STRONG, ("110h", "coinche"), seat=2)
    assert own["surcoinche"].make_chance > 50
    assert 0 < contract["surcoinche"].score < own["surcoinche"].score


def test_a_capot_that_may_not_be_coinched_takes_the_defences_best_call_away():
    """Seat 1 bids a capot in hearts; seat 2 holds the jack of trumps, so the capot fails whatever the
    others hold. By the game's own rules the coinche is priced far above passing; with ``capot_coinche=no``
    the auction is over and the defence has no call left to price (the bid capot is played undoubled)."""
    hand = ["Jh", "9h", "As", "Ad", "Ac", "Ts", "Td", "Tc"]
    own = priced(Rules(), hand, ("pass", "capoth"), seat=2)
    assert own["coinche"].make_chance == 0 and own["coinche"].score > own["pass"].score + 250
    others = [c for c in naive.DECK if c not in hand]
    deck = parse_cards(",".join(naive.deck_for_hands([others[0:8], others[8:16], hand, others[16:24]], dealer=3)))
    deal = Deal(Rules(capot_coinche=False), 3, deck)
    deal.apply("pass")
    deal.apply("capoth")
    assert deal.phase.name == "PLAY" and deal.contract.multiplier == 1
