"""The bidding coach online: the page rebuilds the seat's view from the referee's ``state.deal`` and
asks its own engine (web command ``coach_view``) for the Normal bot's call, as solo play does.

The view the referee sends must hold all the bot needs: rebuilt from its JSON it is equal to the
engine's own :class:`SeatView`, and the advice equals ``make_bot("normal", seed).explain_call(view)``
with the seed the command documents.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

import coinche.bots
from coinche.bots import make_bot
from coinche.errors import CoincheError
from coinche.session import Session
from coinche.webapi import handle
from coinche.webcommands import coach_view
from coinche_referee.messages import seat_state


def in_auction(variant: str, seed: int, calls: int) -> tuple[Session, int]:
    """A 1v1 session after up to ``calls`` random calls, and the seat to call."""
    session = Session.new(variant, 1000, "easy", seed=seed, humans=(0, 1, 2, 3))
    rng = random.Random(seed)
    for _ in range(calls):
        deal = session.match.deal
        if deal.phase.name != "AUCTION":
            break
        legal = [str(a) for a in deal.legal_actions()]
        session.act(deal.turn, "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal))
    return session, session.match.current_player


def documented_seed(view) -> str:
    return "/".join(["coach", view.variant, str(view.dealer), str(view.seat), ",".join(map(str, view.hand)),
                     ",".join(str(c) for _, c in view.calls)])


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(["coinche", "classic"]), seed=st.integers(0, 10**6), calls=st.integers(0, 6))
def test_the_view_the_referee_sends_rebuilds_exactly_and_gets_the_normal_bots_call(variant, seed, calls):
    session, seat = in_auction(variant, seed, calls)
    deal = session.match.deal
    if deal.phase.name != "AUCTION":
        return
    sent = json.loads(json.dumps(seat_state(session, seat)["deal"]))  # what the page holds
    real = deal.view(seat)
    seen = []
    normal = coinche.bots.make_bot

    def spy(level, seed):
        bot = normal(level, seed)
        original = bot.explain_call
        bot.explain_call = lambda view: (seen.append(view), original(view))[1]
        return bot

    with pytest.MonkeyPatch.context() as m:
        m.setattr(coinche.bots, "make_bot", spy)
        advice = coach_view(sent)
    assert seen == [real]  # the SeatView rebuilt from JSON is the engine's own, field for field
    call, key, params = make_bot("normal", documented_seed(real)).explain_call(real)
    assert advice == {"call": str(call), "key": key, "params": params}
    assert str(call) in sent["legal"]


def test_not_the_seats_turn_or_not_the_auction_no_advice():
    session, seat = in_auction("coinche", 3, 0)
    assert coach_view(seat_state(session, (seat + 1) % 4)["deal"]) is None
    while session.match.deal.phase.name == "AUCTION":
        deal = session.match.deal
        legal = [str(a) for a in deal.legal_actions()]
        session.act(deal.turn, "80h" if "80h" in legal else "pass")
    assert coach_view(seat_state(session, session.match.current_player)["deal"]) is None


@pytest.mark.parametrize("bad", [{}, {"seat": 0}, [], "x", None])
def test_a_view_that_is_not_one_is_refused_with_a_key(bad):
    with pytest.raises(CoincheError) as refused:
        coach_view(bad)
    assert refused.value.key == "bad_option"
    session, seat = in_auction("classic", 4, 1)
    broken = seat_state(session, seat)["deal"]
    broken["hand"] = ["Zz"]
    answer = json.loads(handle("coach_view", json.dumps({"view": broken})))
    assert answer["error"]["code"] == "bad_option"


def test_the_worker_answers_coach_view_as_a_command():
    session, seat = in_auction("coinche", 5, 2)
    view = seat_state(session, seat)["deal"]
    answer = json.loads(handle("coach_view", json.dumps({"view": view})))
    assert answer["result"] == coach_view(view) and answer["result"]["call"] in view["legal"]


def first_trick(seed: int) -> Session:
    """A session at a table of announcements where the player after the dealer bids 80♥ and the others pass:
    the play about to start, with seats to declare announcements or not."""
    session = Session.new("coinche", 1000, "easy", seed=seed, humans=(0, 1, 2, 3), rules="announce=yes")
    while session.match.deal.phase.name == "AUCTION":
        deal = session.match.deal
        session.act(deal.turn, "80h" if not deal.calls else "pass")
    return session


@pytest.mark.parametrize("seed", [1, 2, 4])  # seed 1: the first to play holds one; 2: nobody; 4: three seats
def test_at_the_first_card_the_coach_declares_what_the_hand_holds(seed):
    """announce=yes (issue 33): at a seat's first card the coach, solo (Session.coach) and online (coach_view on
    the referee's view), says to declare every announcement the hand holds, with their points; the advice is an
    action the engine takes. A seat that holds none gets no advice, and after its first card nobody does."""
    from coinche.announce import held

    session = first_trick(seed)
    for _ in range(4):
        deal = session.match.deal
        seat = deal.turn
        hand = held(deal.hands[seat])
        solo, online = session.coach(seat), coach_view(json.loads(json.dumps(seat_state(session, seat)["deal"])))
        if hand:
            expected = {"call": "announce:" + ",".join(map(str, hand)), "key": "coach_announce",
                        "params": {"points": sum(a.points for a in hand), "count": len(hand)}}
            assert solo == expected and online == expected
            session.act(seat, solo["call"])
            assert [str(a) for s, a in session.match.deal.declared if s == seat] == [str(a) for a in hand]
        else:
            assert solo is None and online is None
        assert session.coach(seat) is None  # declared, or nothing to declare: the card is all that is left
        session.act(seat, str(deal.legal_actions()[0]))
    assert session.match.deal.tricks and session.coach(session.match.deal.turn) is None


def test_the_coach_of_a_table_without_announcements_says_nothing_in_the_play():
    session = Session.new("coinche", 1000, "easy", seed=7, humans=(0, 1, 2, 3))
    while session.match.deal.phase.name == "AUCTION":
        deal = session.match.deal
        session.act(deal.turn, "80h" if not deal.calls else "pass")
    seat = session.match.deal.turn
    assert session.coach(seat) is None and coach_view(seat_state(session, seat)["deal"]) is None
