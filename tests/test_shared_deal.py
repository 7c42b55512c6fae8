"""A deal shared as a link: its seed and dealer deal the same cards in a new match (webcommands.new_match
with deal_seed and first_dealer), the save replays it, and matches without them are saved as before."""
from __future__ import annotations

import pytest

from coinche import webcommands
from coinche.errors import CoincheError
from coinche.session import Session


def hands(session: Session) -> list[list[str]]:
    return [session.state(seat)["deal"]["hand"] for seat in range(4)]


def bots_only(variant: str, seed: str) -> Session:
    return Session.new(variant, 1000, "easy", seed, humans=())


def play_to_deal(session: Session, index: int) -> None:
    while session.match.deal_index < index:
        assert session.match.winner is None, "the match ended first: choose another seed"
        session.bot_step()


@pytest.mark.parametrize("variant", ["coinche", "classic"])
@pytest.mark.parametrize("deal_index", [0, 1, 2])
def test_a_shared_deal_deals_the_same_cards(variant, deal_index):
    source = bots_only(variant, f"share-{variant}")
    play_to_deal(source, deal_index)
    state = source.state(0)
    shared = Session.new(variant, 1000, "normal", "someone-else", deal_seed=state["deal_seed"],
                         first_dealer=state["deal"]["dealer"])
    again = shared.state(0)
    assert hands(shared) == hands(source)
    assert again["deal"]["dealer"] == state["deal"]["dealer"]
    assert again["deal"]["current_player"] == state["deal"]["current_player"]
    assert again["deal"].get("turned") == state["deal"].get("turned")
    assert again["deal_seed"] == state["deal_seed"] and again["deal_index"] == 0


def test_the_save_of_a_shared_deal_replays_it():
    shared = Session.new("coinche", 501, "easy", "s", humans=(), deal_seed="12345678901234567890", first_dealer=2)
    for _ in range(9):
        shared.bot_step()
    snapshot = shared.snapshot()
    assert snapshot["settings"]["deal_seed"] == "12345678901234567890" and snapshot["settings"]["first_dealer"] == 2
    again = Session.from_snapshot(snapshot)
    assert again.state(0) == shared.state(0) and hands(again) == hands(shared)


def test_later_deals_come_from_the_match_seed():
    plain = bots_only("coinche", "m")
    shared = Session.new("coinche", 1000, "easy", "m", humans=(), deal_seed="7")
    assert hands(plain) != hands(shared)
    for session in (plain, shared):
        play_to_deal(session, 1)
    assert hands(plain) == hands(shared)  # deal 1 of both: the match seed's


def test_a_match_without_a_shared_deal_saves_as_before():
    settings = Session.new("coinche", 501, "easy", "x").snapshot()["settings"]
    assert set(settings) == {"variant", "target", "level", "seed", "humans"}


@pytest.mark.parametrize("deal_seed,first_dealer", [("-1", 0), ("abc", 0), (str(1 << 64), 0), ("5", 4)])
def test_a_bad_shared_deal_is_refused(deal_seed, first_dealer):
    with pytest.raises(CoincheError) as caught:
        webcommands.new_match("coinche", 501, "easy", None, deal_seed=deal_seed, first_dealer=first_dealer)
    assert caught.value.key == "bad_option"
