"""Every worked example and argued position of docs/rules.md (from ../shared/RULES.md), and hand-made cases
for each rule, reason, scoring formula, auction and taking rule, the dealing, and the match."""

from __future__ import annotations

import pytest

from coinche import (CARDS, Call, Contract, Deal, IllegalActionError, Match, OutOfTurnError, Phase,
                     Position, Rules, Suit, match_winner, parse_cards, score_classic, score_coinche, trick_winner)
from coinche.errors import CoincheError

import naive
from helpers import INDEX, NAMES, names


def ruling(text: str):
    """(rule, legal cards, {forbidden card: (rule, key, params)}, note) of a position in the judge's notation."""
    r = Position.parse(text).ruling()
    return (r.rule, {NAMES[c] for c in r.legal_cards},
            {NAMES[f.card]: (f.rule, f.key, f.params) for f in r.forbidden}, r.note)


def follow(suit):
    return (1, "must_follow", {"suit": suit})


# ---------------------------------------------------------------- the two positions every table argues about
# Trump hearts, you play fourth, your partner played second.
def test_argued_overtrump_even_over_partner():
    assert ruling("trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s") == (
        2, {"Jh"}, {"Kd": follow("h"), "7s": follow("h")}, "overtrump_partner")


def test_argued_no_undertrump():
    # docs/rules.md, "The positions tables argue about": "All four may be played: rule 5, no one must undertrump."
    assert ruling("trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac") == (5, {"7h", "8h", "Kd", "Ac"}, {}, "no_undertrump")


def test_argued_partner_trumped_and_master_frees_you():
    # A plain suit led, the partner has trumped and is winning, you hold only trumps, above and below his.
    assert ruling("trump=h&trick=As,9h,7s&hand=7h,8h,Jh") == (3, {"7h", "8h", "Jh"}, {}, "partner_master")


@pytest.mark.parametrize("trick, rule", [("8h,Ah,7c", 3), ("8h,7h,Jh", 5), ("Jh", 5), ("7h,Ah", 5)])
def test_argued_trump_led_and_no_trump_any_card(trick, rule):
    # Rule 3 decides when the partner is winning, rule 5 otherwise: any card either way.
    assert ruling(f"trump=h&trick={trick}&hand=Kd,7s,As") == (rule, {"Kd", "7s", "As"}, {}, None)


# ---------------------------------------------------------------- docs/rules.md's table: which rule decides
# One position per row of "Which rule decides each situation, and which rule a forbidden card is blamed on"
# (docs/rules.md, "Which card may be played"; trump hearts).
TABLE = [
    # you hold the suit led (plain suit): 1, forbidden cards name 1
    ("trump=h&trick=Ks&hand=7s,Jh", (1, {"7s"}, {"Jh": (1, "must_follow", {"suit": "s"})}, None)),
    # trump led, you hold trumps: 2; non-trumps name 1, trumps too low name 2
    ("trump=h&trick=9h&hand=7h,Jh,Ks", (2, {"Jh"}, {"7h": (2, "must_go_over", {"card": "9h"}),
                                                   "Ks": (1, "must_follow", {"suit": "h"})}, None)),
    # void, partner winning: 3 (free), nothing forbidden
    ("trump=h&trick=7s,As,8s&hand=Kd,7h", (3, {"Kd", "7h"}, {}, None)),
    # void, an opponent winning with a plain card, you hold a trump: 3, every non-trump names 3
    ("trump=h&trick=As&hand=Kd,7h", (3, {"7h"}, {"Kd": (3, "must_trump", {"suit": "h"})}, None)),
    # void, an opponent winning with a trump, you hold a higher trump: 4, every other card names 4
    ("trump=h&trick=As,7s,9h&hand=Jh,8h,Kd", (4, {"Jh"}, {"8h": (4, "must_overtrump", {"card": "9h"}),
                                                         "Kd": (4, "must_overtrump", {"card": "9h"})}, None)),
    # void, an opponent winning with a trump, no higher trump in hand: 5 (no undertrump), nothing forbidden
    ("trump=h&trick=As,7s,9h&hand=8h,Kd", (5, {"8h", "Kd"}, {}, "no_undertrump")),
    # void, no trump in hand (trump led or not), partner not winning: 5
    ("trump=h&trick=As&hand=Kd,7c", (5, {"Kd", "7c"}, {}, None)),
    ("trump=h&trick=7h,Jh&hand=Kd,7c", (5, {"Kd", "7c"}, {}, None)),
]


@pytest.mark.parametrize("text, expected", TABLE)
def test_rules_md_table_which_rule_decides(text, expected):
    assert ruling(text) == expected
    p = Position.parse(text)
    j = naive.judge(names(p.hand), names(p.trick), str(p.trump))
    assert (j.rule, j.legal, j.forbidden, j.note) == expected


def test_rules_md_worked_examples_name_their_rule():
    # docs/rules.md, "The positions tables argue about": "Only Jh may be played: rule 2 ...", "All four may be
    # played: rule 5 ...", "(rule 3: your partner is winning ...)", "Trump led and you hold no trump: any card."
    assert ruling("trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s")[:2] == (2, {"Jh"})
    assert ruling("trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac")[:2] == (5, {"7h", "8h", "Kd", "Ac"})
    assert ruling("trump=h&trick=As,9h,7s&hand=7h,8h,Jh")[:2] == (3, {"7h", "8h", "Jh"})
    assert ruling("trump=h&trick=8h,7h,Ah&hand=As,Kd,7c")[1] == {"As", "Kd", "7c"}


# ---------------------------------------------------------------- the five rules, one by one
def test_the_leader_plays_any_card():
    assert ruling("trump=h&trick=&hand=Jh,Kd,7s") == (0, {"Jh", "Kd", "7s"}, {}, None)


def test_rule_1_follow_suit_even_with_a_trump_in_hand():
    assert ruling("trump=h&trick=Ks&hand=7s,As,Jh,7d") == (1, {"7s", "As"}, {"Jh": follow("s"), "7d": follow("s")}, None)


def test_rule_1_any_card_of_the_suit_even_below_and_after_a_trump():
    # A plain suit led: following low is fine, and nobody must beat the trick.
    assert ruling("trump=h&trick=Ks,7h&hand=7s,Jh") == (1, {"7s"}, {"Jh": follow("s")}, None)
    assert ruling("trump=h&trick=Ks,As,Ts&hand=7s,Qs,8c") == (1, {"7s", "Qs"}, {"8c": follow("s")}, None)


def test_rule_1_comes_before_rule_3():
    # The partner is winning, but we hold the suit led: we must follow.
    assert ruling("trump=h&trick=7s,As,8s&hand=Ks,Jh") == (1, {"Ks"}, {"Jh": follow("s")}, None)


def test_rule_2_go_over_the_highest_trump():
    over = (2, "must_go_over", {"card": "9h"})
    # The ace is below the nine in trump.
    assert ruling("trump=h&trick=9h&hand=7h,Jh,Ah,Ks") == (2, {"Jh"}, {"7h": over, "Ah": over, "Ks": follow("h")}, None)


def test_rule_2_highest_trump_on_the_table_is_not_the_led_card():
    # The partner's 9 is the highest: go over it, partner or not.
    assert ruling("trump=d&trick=7d,9d,8d&hand=Ad,Jd") == (
        2, {"Jd"}, {"Ad": (2, "must_go_over", {"card": "9d"})}, "overtrump_partner")
    # Nothing goes over the jack: any trump.
    assert ruling("trump=h&trick=8h,Jh&hand=9h,7h,Ac") == (2, {"9h", "7h"}, {"Ac": follow("h")}, None)


def test_rule_2_no_higher_trump_any_trump():
    assert ruling("trump=h&trick=Jh&hand=7h,9h,Ks") == (2, {"7h", "9h"}, {"Ks": follow("h")}, None)


def test_rule_3_partner_winning_any_card():
    assert ruling("trump=h&trick=7s,As,8s&hand=Kd,7h,Jh") == (3, {"Kd", "7h", "Jh"}, {}, None)
    # Two cards on the table: the partner is the leader.
    assert ruling("trump=h&trick=As,7s&hand=Kd,7h") == (3, {"Kd", "7h"}, {}, None)


def test_rule_3_must_trump():
    trump = (3, "must_trump", {"suit": "h"})
    assert ruling("trump=h&trick=As&hand=Kd,7h,Jh") == (3, {"7h", "Jh"}, {"Kd": trump}, None)
    # The partner played, but an opponent is winning: we must trump.
    assert ruling("trump=h&trick=7s,8s,As&hand=Kd,Qc,8h") == (3, {"8h"}, {"Kd": trump, "Qc": trump}, None)


def test_rule_4_must_overtrump():
    over = (4, "must_overtrump", {"card": "9h"})
    assert ruling("trump=h&trick=As,7s,9h&hand=Jh,8h,Kd") == (4, {"Jh"}, {"8h": over, "Kd": over}, None)
    # The partner trumped, an opponent overtrumped.
    over = (4, "must_overtrump", {"card": "Ah"})
    assert ruling("trump=h&trick=As,8h,Ah&hand=9h,7h,Kd") == (4, {"9h"}, {"7h": over, "Kd": over}, None)


def test_rule_5_opponent_trumped_high_no_undertrump():
    assert ruling("trump=h&trick=As,9h,Jh&hand=7h,Ah,Kd") == (5, {"7h", "Ah", "Kd"}, {}, "no_undertrump")


def test_rule_5_no_suit_no_trump_any_card():
    assert ruling("trump=h&trick=As&hand=Kd,7c") == (5, {"Kd", "7c"}, {}, None)
    assert ruling("trump=s&trick=Ah,Jc,7d&hand=Kd,7c") == (5, {"Kd", "7c"}, {}, None)


def test_every_position_here_agrees_with_naive():
    """The positions of this file, judged again by tests/naive.py."""
    texts = [
        "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s", "trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac",
        "trump=h&trick=As,9h,7s&hand=7h,8h,Jh", "trump=h&trick=9h&hand=7h,Jh,Ah,Ks",
        "trump=h&trick=As,7s,9h&hand=Jh,8h,Kd", "trump=h&trick=As&hand=Kd,7h,Jh",
    ]
    for text in texts:
        p = Position.parse(text)
        j = naive.judge(names(p.hand), names(p.trick), str(p.trump))
        assert ruling(text) == (j.rule, j.legal, j.forbidden, j.note), text


# ---------------------------------------------------------------- cards and tricks
# docs/rules.md, "The cards": rank -> (order in trump, points in trump, order outside trump, points outside trump)
TABLE = {
    "J": (1, 20, 5, 2), "9": (2, 14, 6, 0), "A": (3, 11, 1, 11), "T": (4, 10, 2, 10),
    "K": (5, 4, 3, 4), "Q": (6, 3, 4, 3), "8": (7, 0, 7, 0), "7": (8, 0, 8, 0),
}


@pytest.mark.parametrize("trump", range(4))
def test_card_points_and_orders(trump):
    for card in CARDS:
        order_t, points_t, order_p, points_p = TABLE[str(card)[0]]
        assert card.points(trump) == (points_t if card.suit == trump else points_p), card
    assert sum(c.points(trump) for c in CARDS) == 152
    # Orders: a card beats another of its suit in a trick exactly when the table says so.
    for suit in range(4):
        for a in CARDS[suit * 8:suit * 8 + 8]:
            for b in CARDS[suit * 8:suit * 8 + 8]:
                if a == b:
                    continue
                column = 0 if suit == trump else 2
                a_wins = TABLE[str(a)[0]][column] < TABLE[str(b)[0]][column]
                assert trick_winner([b, a], trump) == (1 if a_wins else 0), (str(b), str(a), trump)


@pytest.mark.parametrize("trick, trump, winner", [
    ("As,9s,9h,Ts", "h", 2),  # the trump wins
    ("7s,As,Ts,Kd", "h", 1),  # the highest of the suit led
    ("7s,Ad,Ac,Ah", "c", 2),  # the trump (Ac) over the suit led, whatever the other aces
    ("7s,Ad", "h", 0),  # a higher card of another suit does not win
    ("9h,Jh,Ah", "h", 1),  # trump order: J > 9 > A
    ("Ah,9h", "h", 1),
    ("8c,7h,Jh,Qc", "s", 3),  # no trump: the highest club
    ("7d,8h,7h,9h", "h", 3),  # the highest trump, not the first
])
def test_trick_winner(trick, trump, winner):
    assert trick_winner(parse_cards(trick), Suit.parse(trump)) == winner


# ---------------------------------------------------------------- scoring a coinche deal
def coinche(value, cards, belote=None, tricks=(5, 3), m=1, declarer=0):
    c = Contract("coinche", declarer, 1, value, m)
    if declarer & 1:
        cards, tricks = cards[::-1], tricks[::-1]  # given as (declarer, defence)
    s = score_coinche(c, cards=cards, belote_side=belote, tricks=tricks)
    return s.scores if declarer & 1 == 0 else s.scores[::-1]


def test_worked_example_made_and_down():
    assert coinche(110, (124, 38), tricks=(6, 2)) == (234, 38)
    assert coinche(110, (96, 66)) == (0, 272)
    # The same from the other side of the table.
    assert coinche(110, (124, 38), tricks=(6, 2), declarer=1) == (234, 38)
    assert score_coinche(Contract("coinche", 3, 1, 110), (38, 124), None, (2, 6)).scores == (38, 234)


@pytest.mark.parametrize("m, made, down", [(1, (234, 38), (0, 272)), (2, (468, 0), (0, 544)), (4, (936, 0), (0, 1088))])
def test_coinched_and_surcoinched(m, made, down):
    assert coinche(110, (124, 38), m=m) == made
    assert coinche(110, (96, 66), m=m) == down


def test_made_exactly_at_the_bid():
    assert coinche(80, (80, 82)) == (160, 82)
    assert coinche(90, (89, 73)) == (0, 252)


def test_belote_to_declarer_and_to_defence():
    assert coinche(80, (82, 80), belote=0) == (182, 80)
    assert coinche(80, (82, 80), belote=1) == (162, 100)
    # Down: the belote is kept by whoever holds it.
    assert coinche(110, (82, 80), belote=0) == (20, 272)
    assert coinche(110, (82, 80), belote=1) == (0, 292)


def test_belote_is_never_multiplied():
    assert coinche(110, (124, 38), belote=0, m=2) == (488, 0)
    assert coinche(110, (124, 38), belote=1, m=2) == (468, 20)
    assert coinche(120, (96, 66), belote=0, m=4) == (20, 1128)
    assert coinche(120, (96, 66), belote=1, m=4) == (0, 1148)


def test_belote_counts_toward_making_the_contract():
    assert coinche(90, (72, 90), belote=0) == (182, 90)  # 72 + 20 >= 90: made
    assert coinche(90, (72, 90)) == (0, 252)  # without it, down
    assert coinche(90, (72, 90), belote=1) == (0, 272)  # the defence's belote does not help the declarer


def test_capot_contract():
    assert coinche(250, (162, 0), tricks=(8, 0)) == (412, 0)
    assert coinche(250, (162, 0), tricks=(8, 0), m=2) == (824, 0)
    assert coinche(250, (162, 0), belote=0, tricks=(8, 0)) == (432, 0)
    # Seven tricks are not a capot, however many points.
    assert coinche(250, (160, 2), belote=0, tricks=(7, 1)) == (20, 412)
    assert coinche(250, (150, 12), tricks=(7, 1), m=2) == (0, 824)


def test_capot_contract_flag():
    assert Contract("coinche", 0, 1, 250).is_capot and not Contract("coinche", 0, 1, 160).is_capot
    assert score_coinche(Contract("coinche", 0, 1, 250), (162, 0), None, (8, 0)).made
    assert not score_coinche(Contract("coinche", 0, 1, 250), (160, 2), 0, (7, 1)).made


# ---------------------------------------------------------------- scoring a classic deal
def classic(cards, belote=None, tricks=(5, 3), taker=0):
    return score_classic(Contract("classic", taker, 2), cards=cards, belote_side=belote, tricks=tricks)


def test_classic_made_down_and_equal():
    assert classic((100, 62)).scores == (100, 62) and classic((100, 62)).made
    assert classic((62, 100)).scores == (0, 162) and not classic((62, 100)).made
    assert classic((81, 81)).scores == (0, 162) and not classic((81, 81)).made  # equal is down
    assert classic((81, 81), taker=1).scores == (162, 0)


def test_classic_belote_included():
    assert classic((75, 87), belote=0).scores == (95, 87)  # 95 > 87: made with the belote
    assert classic((71, 91), belote=0).scores == (20, 162)  # 91 = 91: down, the taker keeps its belote
    assert classic((90, 72), belote=1).scores == (0, 182)  # 90 < 72 + 20: the defence's belote sinks it
    assert not classic((90, 72), belote=1).made


def test_classic_capot_250_for_either_side():
    assert classic((162, 0), tricks=(8, 0)).scores == (250, 0)
    assert classic((162, 0), belote=0, tricks=(8, 0)).scores == (270, 0)
    assert classic((0, 162), belote=1, tricks=(0, 8)).scores == (0, 270)
    assert classic((0, 162), belote=0, tricks=(0, 8)).scores == (20, 250)
    assert classic((0, 162), tricks=(0, 8), taker=1).scores == (0, 250)  # the taker is side 1: it took all


# ---------------------------------------------------------------- building deals by hand
def engine_deck(hands, dealer, variant="coinche", turned=None, taker=None):
    deck = naive.deck_for_hands([h.split(",") for h in hands], dealer, variant, turned, taker)
    return [INDEX[c] for c in deck]


def hand_made_deal(hands, calls, variant="coinche", dealer=3, turned=None, taker=None):
    """A deal of these hands (given seat by seat), the auction or taking done with ``calls``."""
    deal = Deal(variant, dealer, engine_deck(hands, dealer, variant, turned, taker))
    apply_all(deal, calls)
    return deal


def play_out(deal, pick=lambda cards: cards[0]):
    """Play to the end, each player choosing ``pick(legal cards)``, checked."""
    while not deal.is_over:
        deal.apply(pick(deal.legal_cards()), deal.current_player)
    return deal


def hand_of(deal, seat):
    return {NAMES[c] for c in range(32) if deal.hands[seat] >> c & 1}


def apply_all(deal, actions):
    for a in actions.split():
        deal.apply(a)


def test_dealing_packets_coinche_3_2_3():
    for dealer in range(4):
        deal = Deal("coinche", dealer, list(range(32)))
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            want = set(range(3 * i, 3 * i + 3)) | set(range(12 + 2 * i, 14 + 2 * i)) | set(range(20 + 3 * i, 23 + 3 * i))
            assert {c for c in range(32) if deal.hands[seat] >> c & 1} == want


def test_dealing_packets_classic_3_2_turned_then_3_or_2():
    for dealer in range(4):
        for taker_i in range(4):
            deal = Deal("classic", dealer, list(range(32)))
            assert deal.turned == 20
            for i in range(4):
                seat = (dealer + 1 + i) % 4
                want = set(range(3 * i, 3 * i + 3)) | set(range(12 + 2 * i, 14 + 2 * i))
                assert {c for c in range(32) if deal.hands[seat] >> c & 1} == want
            for _ in range(taker_i):
                deal.apply("pass")
            deal.apply("take" + NAMES[20][1])
            taker = (dealer + 1 + taker_i) % 4
            pos = 21
            for i in range(4):
                seat = (dealer + 1 + i) % 4
                first_five = set(range(3 * i, 3 * i + 3)) | set(range(12 + 2 * i, 14 + 2 * i))
                more = 2 if seat == taker else 3
                want = first_five | set(range(pos, pos + more)) | ({20} if seat == taker else set())
                pos += more
                assert {c for c in range(32) if deal.hands[seat] >> c & 1} == want, (dealer, seat, taker)


def test_player_after_dealer_speaks_first_and_leads():
    for dealer in range(4):
        deal = Deal.new("coinche", dealer, seed=dealer)
        assert deal.current_player == (dealer + 1) % 4
        apply_all(deal, "pass 80s pass pass pass")
        assert deal.phase == Phase.PLAY and deal.current_player == (dealer + 1) % 4
        assert deal.contract.declarer == (dealer + 2) % 4


# ---------------------------------------------------------------- the coinche auction
def auction(calls="", dealer=3):
    deal = Deal.new("coinche", dealer, seed=11)
    apply_all(deal, calls)
    return deal


def legal(deal):
    return {str(c) for c in deal.legal_calls()}


def test_first_call_may_be_any_bid_or_pass():
    assert legal(auction()) == {"pass"} | {f"{v}{s}" for v in range(80, 161, 10) for s in "shdc"} | {
        f"capot{s}" for s in "shdc"}


def test_bids_must_increase():
    deal = auction("100h")
    assert legal(deal) == {"pass", "coinche", "capots", "capoth", "capotd", "capotc"} | {
        f"{v}{s}" for v in range(110, 161, 10) for s in "shdc"}
    for call in ("100s", "90c", "80h", "100h"):
        with pytest.raises(IllegalActionError) as e:
            deal.apply(call)
        assert e.value.key == "illegal_call"
    deal.apply("110s")
    assert deal.high_bid == Call.parse("110s")


def test_pass_then_bid_later():
    deal = auction("pass 80h pass pass 90s pass")
    assert deal.phase == Phase.AUCTION and deal.high_seat == 0
    apply_all(deal, "pass pass")
    assert deal.phase == Phase.PLAY and str(deal.contract) == "90s by 0"


def test_coinche_only_by_the_other_side():
    deal = auction("80h")  # seat 0 bids
    assert "coinche" in legal(deal)  # seat 1, an opponent
    deal.apply("pass")
    assert "coinche" not in legal(deal)  # seat 2, the partner
    with pytest.raises(IllegalActionError):
        deal.apply("coinche")
    deal.apply("pass")
    assert "coinche" in legal(deal)  # seat 3, an opponent
    # Before any bid there is nothing to coinche.
    assert "coinche" not in legal(auction()) and "surcoinche" not in legal(auction("80h"))


def test_coinche_against_the_side_of_the_highest_bid():
    assert "coinche" in legal(auction("80h 90s"))  # seat 2: seat 1 of the other side holds the highest bid
    assert "coinche" not in legal(auction("80h 90s pass"))  # seat 3, seat 1's partner
    assert "coinche" in legal(auction("80h 90s pass pass"))  # seat 0, whose own bid was overcalled


def test_after_coinche_the_bidding_side_speaks_in_order():
    deal = auction("80h coinche")  # seat 0 bids, seat 1 coinches
    assert deal.current_player == 2 and legal(deal) == {"pass", "surcoinche"}
    for call in ("90h", "coinche"):
        with pytest.raises(IllegalActionError):
            deal.apply(call)
    with pytest.raises(OutOfTurnError):
        deal.apply("pass", seat=3)  # the defence speaks no more
    deal.apply("pass")
    assert deal.current_player == 0 and legal(deal) == {"pass", "surcoinche"}
    deal.apply("pass")  # the second pass ends the auction
    assert deal.phase == Phase.PLAY and deal.contract.multiplier == 2 and deal.contract.declarer == 0
    assert deal.current_player == 0  # the player after the dealer leads


def test_coinche_by_the_last_seat_then_the_bidders():
    deal = auction("80h pass pass coinche")  # seat 3 coinches seat 0's bid
    assert deal.current_player == 0
    deal.apply("pass")
    assert deal.current_player == 2
    deal.apply("surcoinche")
    assert deal.phase == Phase.PLAY and str(deal.contract) == "80h surcoinche by 0"


@pytest.mark.parametrize("calls, seat", [("pass 90d coinche surcoinche", 3), ("pass 90d coinche pass surcoinche", 1)])
def test_surcoinche_ends_the_auction(calls, seat):
    deal = auction(calls)
    assert deal.phase == Phase.PLAY and deal.contract.multiplier == 4 and deal.contract.declarer == 1
    assert deal.calls[-1] == (seat, Call.parse("surcoinche"))


def test_three_passes_after_a_bid_end_it():
    deal = auction("80h pass pass")
    assert deal.phase == Phase.AUCTION
    deal.apply("pass")
    assert deal.phase == Phase.PLAY and str(deal.contract) == "80h by 0"
    with pytest.raises(IllegalActionError) as e:
        deal.apply(Call.parse("pass"))
    assert e.value.key == "wrong_phase"


def test_three_passes_then_a_bid():
    deal = auction("pass pass pass 80c")
    assert deal.phase == Phase.AUCTION and not deal.void
    apply_all(deal, "pass pass pass")
    assert str(deal.contract) == "80c by 3"


def test_four_passes_void():
    deal = auction("pass pass pass pass")
    assert deal.void and deal.is_over and deal.scores == (0, 0) and deal.contract is None
    assert deal.legal_actions() == [] and deal.current_player == -1
    with pytest.raises(IllegalActionError) as e:
        deal.apply("80h")
    assert e.value.key == "deal_over"


def test_capot_bid():
    deal = auction("160s capoth")
    assert legal(deal) == {"pass", "coinche"}  # nothing is higher than capot
    apply_all(deal, "pass pass pass")
    assert deal.contract.value == 250 and deal.contract.is_capot and str(deal.contract) == "capoth by 1"
    assert Call.parse("250h") == Call.parse("capoth")


def test_capot_cannot_be_outbid_by_capot():
    deal = auction("capots")
    with pytest.raises(IllegalActionError):
        deal.apply("capoth")


# ---------------------------------------------------------------- the classic taking
def taking(calls="", dealer=3, seed=5):
    deal = Deal.new("classic", dealer, seed)
    apply_all(deal, calls)
    return deal


def test_classic_round_one_takes_only_the_turned_suit():
    deal = taking()
    turned = NAMES[deal.turned]
    assert all(bin(h).count("1") == 5 for h in deal.hands)
    assert legal(deal) == {"pass", "take" + turned[1]}
    for s in "shdc".replace(turned[1], ""):
        with pytest.raises(IllegalActionError):
            deal.apply("take" + s)


def test_classic_round_two_names_another_suit():
    deal = taking("pass pass pass pass")
    turned = NAMES[deal.turned]
    assert deal.current_player == 0
    assert legal(deal) == {"pass"} | {"take" + s for s in "shdc" if s != turned[1]}
    with pytest.raises(IllegalActionError):
        deal.apply("take" + turned[1])
    other = next(s for s in "shdc" if s != turned[1])
    apply_all(deal, "pass take" + other)  # seat 1 takes
    assert deal.phase == Phase.PLAY and deal.contract.declarer == 1 and deal.trump == "shdc".index(other)
    assert turned in hand_of(deal, 1) and deal.current_player == 0


def test_classic_the_taker_gets_the_turned_card_and_two_more():
    for taker in range(4):
        deal = taking()
        before = [hand_of(deal, s) for s in range(4)]
        turned = NAMES[deal.turned]
        apply_all(deal, "pass " * taker + "take" + turned[1])
        assert deal.contract.declarer == taker and deal.trump == "shdc".index(turned[1])
        for seat in range(4):
            after = hand_of(deal, seat)
            assert len(after) == 8 and before[seat] < after
            assert (turned in after) == (seat == taker)
        assert set().union(*(hand_of(deal, s) for s in range(4))) == set(NAMES)


def test_classic_all_pass_twice_void():
    deal = taking("pass " * 7)
    assert deal.phase == Phase.AUCTION
    deal.apply("pass")
    assert deal.void and deal.is_over and deal.scores == (0, 0)


# ---------------------------------------------------------------- belote and rebelote
def announcements_as_played(deal, pick):
    """Play the deal to its end; (seat, card, announcement) for every card that made one."""
    seen = []
    while not deal.is_over:
        seat, card = deal.current_player, pick(deal.legal_cards())
        before = len(deal.announcements)
        deal.apply(card, seat)
        if len(deal.announcements) > before:
            assert deal.announcements[-1][0] == seat and deal.announcements[-1][2] == card
            seen.append((seat, NAMES[card], deal.announcements[-1][1]))
    return seen


def test_belote_then_rebelote_on_the_first_and_second_card():
    hands = ["Kh,Qh,7s,8s,9s,Ts,Js,Qs", "7h,8h,9h,Th,Jh,Ah,Ks,As",
             "7d,8d,9d,Td,Jd,Qd,Kd,Ad", "7c,8c,9c,Tc,Jc,Qc,Kc,Ac"]
    deal = hand_made_deal(hands, "80h pass pass pass")
    assert deal.belote_seat == 0 and deal.announcements == []
    deal.apply("Qh")
    assert deal.announcements == [(0, "belote", INDEX["Qh"])]
    assert announcements_as_played(deal, lambda cards: cards[0]) == [(0, "Kh", "rebelote")]
    assert deal.score.belote_side == 0 and sum(deal.score.cards) == 162


def test_belote_is_announced_by_whoever_holds_it_in_either_order():
    hands = ["7s,8s,9s,Ts,Js,Qs,Ks,As", "7h,8h,9h,Th,Jh,Ah,Kd,Qd",
             "7d,8d,9d,Td,Jd,Kh,Qh,Ad", "7c,8c,9c,Tc,Jc,Qc,Kc,Ac"]
    deal = hand_made_deal(hands, "80h pass pass pass")  # seat 0 plays hearts; seat 2 (its partner) has the belote
    assert announcements_as_played(deal, lambda cards: cards[-1]) == [(2, "Kh", "belote"), (2, "Qh", "rebelote")]
    assert deal.score.belote_side == 0


def test_belote_when_the_king_and_queen_are_split_is_nobodys():
    hands = ["Kh,Jd,7s,8s,9s,Ts,Js,Qs", "7h,8h,9h,Th,Jh,Ah,Ks,As",
             "7d,8d,9d,Td,Qh,Qd,Kd,Ad", "7c,8c,9c,Tc,Jc,Qc,Kc,Ac"]
    deal = play_out(hand_made_deal(hands, "80h pass pass pass"))
    assert deal.announcements == [] and deal.score.belote_side is None


def test_classic_belote_completed_by_the_turned_card():
    hands = ["Qh,Kh,7s,8s,9s,Ts,Js,Qs", "7h,8h,9h,Th,Jh,Ah,As,Ks",
             "7d,8d,9d,Td,Jd,Qd,Kd,Ad", "7c,8c,9c,Tc,Jc,Qc,Kc,Ac"]
    deal = Deal("classic", 3, engine_deck(hands, 3, "classic", turned="Kh", taker=0))
    assert NAMES[deal.turned] == "Kh" and "Qh" in hand_of(deal, 0) and "Kh" not in hand_of(deal, 0)
    deal.apply("takeh")
    assert hand_of(deal, 0) == set(hands[0].split(",")) and deal.belote_seat == 0
    seen = announcements_as_played(deal, lambda cards: cards[-1])
    assert [(seat, kind) for seat, _, kind in seen] == [(0, "belote"), (0, "rebelote")]
    assert deal.score.belote_side == 0


ALL_HEARTS = ["7h,8h,9h,Th,Jh,Qh,Kh,Ah", "7s,8s,9s,Ts,Js,Qs,Ks,As",
              "7d,8d,9d,Td,Jd,Qd,Kd,Ad", "7c,8c,9c,Tc,Jc,Qc,Kc,Ac"]


@pytest.mark.parametrize("calls, scores", [
    ("capoth pass pass pass", (432, 0)),  # 162 + 250, and the belote
    ("capoth coinche pass pass", (844, 0)),  # 2 * (162 + 250) + 20: the belote is not doubled
    ("160h pass pass pass", (342, 0)),  # all eight tricks on a 160 bid: no capot bonus
])
def test_a_capot_played_out(calls, scores):
    deal = play_out(hand_made_deal(ALL_HEARTS, calls))
    assert deal.tricks_won == [8, 0] and deal.score.made and deal.scores == scores


def test_a_capot_contract_one_trick_short_is_down():
    hands = ["7h,8h,9h,Th,Jh,Qh,Kh,7s", "Ah,8s,9s,Ts,Js,Qs,Ks,As",
             "7d,8d,9d,Td,Jd,Qd,Kd,Ad", "7c,8c,9c,Tc,Jc,Qc,Kc,Ac"]
    deal = play_out(hand_made_deal(hands, "capoth pass pass pass"), lambda cards: cards[-1])
    assert deal.tricks_won[0] < 8 and not deal.score.made and deal.scores == (20, 412)


def test_a_classic_capot_played_out():
    deal = play_out(hand_made_deal(ALL_HEARTS, "takeh", "classic", turned="7h", taker=0), lambda cards: cards[-1])
    assert deal.tricks_won == [8, 0] and deal.scores == (270, 0)


# ---------------------------------------------------------------- the match
def test_match_targets():
    for variant in ("coinche", "classic"):
        for target in (501, 701, 1000):
            assert Rules(variant, target).target == target
    for bad in (500, 0, 1001):
        with pytest.raises(CoincheError):
            Rules("coinche", bad)
    with pytest.raises(CoincheError):
        Rules("tarot", 501)


@pytest.mark.parametrize("totals, target, winner", [
    ((0, 0), 501, None), ((500, 500), 501, None), ((501, 0), 501, 0), ((0, 501), 501, 1),
    ((700, 690), 701, None), ((702, 1400), 701, 1), ((1000, 999), 1000, 0),
    ((510, 520), 501, 1), ((530, 520), 501, 0), ((520, 520), 501, None), ((1000, 1000), 1000, None),
])
def test_match_winner(totals, target, winner):
    assert match_winner(totals, target) == winner == naive.match_winner(totals, target)


def simple_action(deal):
    """The first speaker bids 80 spades (or takes), everyone else passes; then the first legal card."""
    actions = deal.legal_actions()
    return actions[1] if deal.phase == Phase.AUCTION and not deal.calls else actions[0]


def _scores_of_next_deal(match):
    """Play a copy of the match's current deal as :func:`_play_deal_of` will; the scores it gives."""
    deal = match.deal.clone()
    while not deal.is_over:
        action = simple_action(deal)
        deal.call(action) if isinstance(action, Call) else deal.play(action)
    return deal.scores


def _play_deal_of(match):
    index = match.deal_index
    while match.deal_index == index and not match.is_over:
        match.apply(simple_action(match.deal), match.current_player)


@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_dealer_rotates_every_deal_void_ones_too(variant):
    match = Match(Rules(variant, 1000), seed=3, first_dealer=2)
    for k in range(6):
        assert match.deal.dealer == (2 + k) % 4 and match.deal_index == k
        assert match.current_player == (2 + k + 1) % 4
        if k % 2:
            for _ in range(4 if variant == "coinche" else 8):
                match.apply("pass")  # a void deal: the next dealer deals
        else:
            _play_deal_of(match)
    assert [h["dealer"] for h in match.history] == [2, 3, 0, 1, 2, 3]
    assert [h["result"]["void"] for h in match.history] == [False, True] * 3
    assert match.totals == [sum(h["result"]["scores"][s] for h in match.history) for s in (0, 1)]


@pytest.mark.parametrize("target", [501, 701, 1000])
def test_match_first_to_target_wins(target):
    match = Match(Rules("coinche", target), seed="first")
    while not match.is_over:
        _play_deal_of(match)
    a, b = match.totals
    assert max(a, b) >= target and match.winner == (0 if a > b else 1)
    # It did not go on past the deal where a side reached the target.
    before = [sum(h["result"]["scores"][s] for h in match.history[:-1]) for s in (0, 1)]
    assert max(before) < target
    with pytest.raises(IllegalActionError) as e:
        match.apply("pass")
    assert e.value.key == "match_over" and match.legal_actions() == [] and match.current_player == -1


def test_match_exact_tie_over_target_plays_another_deal_then_higher_wins():
    target = 501
    match = Match(Rules("coinche", target), seed=7)
    # Find a deal in which both sides score (the defence keeps its points when not coinched).
    while True:
        a, b = _scores_of_next_deal(match)
        if a > 20 and b > 20:
            break
        _play_deal_of(match)
        match.totals = [0, 0]
    final = target + 9
    match.totals = [final - a, final - b]  # both below the target, both reach it exactly tied
    index = match.deal_index
    _play_deal_of(match)
    assert match.totals == [final, final]
    assert not match.is_over and match.winner is None and match.deal_index == index + 1
    assert match.deal.dealer == (index + 1) % 4 and match.deal.phase == Phase.AUCTION
    while True:
        a, b = _scores_of_next_deal(match)
        if a != b:
            break
        _play_deal_of(match)  # a tie again: on again
    _play_deal_of(match)
    assert match.is_over and match.winner == (0 if a > b else 1)
    assert match.totals == [final + a, final + b]
