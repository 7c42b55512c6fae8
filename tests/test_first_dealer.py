"""Who deals first: in a new solo match the player speaks first (the seat before them deals), the dealer
rotates from there, a shared deal keeps its dealer, and saves made before this rule still replay exactly."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche import webcommands
from coinche.session import Session, dealer_before

VARIANTS = ("coinche", "classic")


def play_until(session: Session, deal_index: int) -> list[int]:
    """Play the match (the human taking its first legal action) until deal ``deal_index``; the dealer of
    every deal met, in order."""
    dealers = [session.match.deal.dealer]
    while session.match.deal_index < deal_index:
        assert session.match.winner is None, "the match ended first: choose another seed"
        if session.match.current_player in session.humans:
            legal = session.state(session.match.current_player)["deal"]["legal"]
            session.act(session.match.current_player, legal[0])
        else:
            session.bot_step()
        if session.match.deal.dealer != dealers[-1] and session.match.deal_index == len(dealers):
            dealers.append(session.match.deal.dealer)
    return dealers


@given(variant=st.sampled_from(VARIANTS), seed=st.text(min_size=1, max_size=12))
@settings(max_examples=40, deadline=None)
def test_the_player_speaks_first_in_a_new_solo_match(variant, seed):
    state = webcommands.new_match(variant, 501, "easy", seed)["state"]
    assert state["deal"]["dealer"] == 3
    assert state["deal"]["current_player"] == 0
    assert state["deal"]["phase"] == "auction" and state["deal"]["legal"]


@pytest.mark.parametrize("humans,dealer", [((0,), 3), ((1,), 0), ((2, 3), 1), ((3, 0), 2), ((), 0)])
def test_the_dealer_is_the_seat_before_the_first_human(humans, dealer):
    assert dealer_before(humans) == dealer
    session = Session.new("coinche", 501, "easy", "before", humans=humans, first_dealer=None)
    assert session.match.deal.dealer == dealer
    if humans:
        assert session.match.current_player == humans[0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_dealer_rotates_from_the_first_one(variant):
    session = Session.new(variant, 1000, "easy", f"rotate-{variant}", first_dealer=None)
    assert play_until(session, 4) == [3, 0, 1, 2, 3]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_save_remembers_the_first_dealer_and_replays_exactly(variant):
    session = Session.new(variant, 501, "easy", f"save-{variant}", first_dealer=None)
    play_until(session, 1)
    for _ in range(5):
        if session.match.current_player not in session.humans:
            session.bot_step()
    snapshot = session.snapshot()
    assert snapshot["settings"]["first_dealer"] == 3
    again = webcommands.load(snapshot)
    assert again["state"] == session.state(0)
    assert again["snapshot"] == snapshot


def test_a_save_from_before_this_rule_still_replays_with_dealer_0():
    # What the page saved before: no first_dealer in the settings, seat 0 dealt, the three bots spoke first.
    old = Session.new("coinche", 501, "normal", "old-save", first_dealer=0)
    while old.match.current_player != 0:
        old.bot_step()
    snapshot = old.snapshot()
    assert "first_dealer" not in snapshot["settings"] and len(snapshot["actions"]) == 3
    loaded = webcommands.load(snapshot)["state"]
    assert loaded["deal"]["dealer"] == 0 and loaded["deal"]["current_player"] == 0
    assert loaded == old.state(0)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_a_shared_deal_keeps_its_dealer(dealer):
    state = webcommands.new_match("coinche", 501, "easy", None, deal_seed="424242", first_dealer=dealer)["state"]
    assert state["deal"]["dealer"] == dealer
    assert state["deal"]["current_player"] == (dealer + 1) % 4
    assert state["deal_seed"] == "424242"
