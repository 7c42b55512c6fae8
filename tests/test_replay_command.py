"""replay_steps: a finished deal's record replayed for the page's replay view, one snapshot per call and
card, every snapshot agreeing with the record (hands as dealt, cards as played) and the last with its result."""
from __future__ import annotations

import pytest

from coinche import webcommands
from coinche.deal import Deal
from coinche.errors import CoincheError
from coinche.record import deal_to_record
from coinche.session import Session


def finished_records(variant: str, seed: str, count: int = 3) -> list[dict]:
    session = Session.new(variant, 1000, "easy", seed, humans=())
    while len(session.match.history) < count:
        session.bot_step()
    return session.match.history[:count]


@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_every_call_and_card_is_a_step(variant):
    for record in finished_records(variant, f"replay-{variant}"):
        steps = webcommands.replay_steps(record)
        assert len(steps) == 1 + len(record["calls"]) + len(record["plays"])
        assert steps[0]["kind"] == "deal" and steps[0]["phase"] == "auction"
        calls = steps[1:1 + len(record["calls"])]
        cards = steps[1 + len(record["calls"]):]
        assert [s["action"] for s in calls] == record["calls"]
        assert [s["action"] for s in cards] == record["plays"]
        assert all(s["kind"] == "card" for s in cards)
        if record["result"]["void"]:
            assert not cards
            continue
        # the hands when the play begins are the record's hands, and each card leaves its player's hand
        assert [",".join(h) for h in calls[-1]["hands"]] == record["hands"]
        for before, after in zip([calls[-1], *cards], cards):
            assert after["action"] in before["hands"][after["seat"]]
            assert after["action"] not in after["hands"][after["seat"]]
        last = cards[-1]
        assert last["phase"] == "over" and last["hands"] == [[], [], [], []]
        assert last["points"] == record["result"]["cards"] and last["tricks"] == record["result"]["tricks"]
        assert last["contract"] == record["result"]["contract"]


def test_a_completed_trick_shows_its_winner_and_points():
    record = next(r for r in finished_records("coinche", "replay-trick") if not r["result"]["void"])
    steps = webcommands.replay_steps(record)
    cards = steps[1 + len(record["calls"]):]
    complete = [s for s in cards if s["trick"]["winner"] is not None]
    assert len(complete) == 8
    assert all(len(s["trick"]["cards"]) == 4 for s in complete)
    assert sum(s["trick"]["points"] for s in complete) == sum(record["result"]["cards"])
    for s in complete:  # the winner's side gained the trick's points at that step
        side = s["trick"]["winner"] & 1
        i = steps.index(s)
        assert s["points"][side] - steps[i - 1]["points"][side] == s["trick"]["points"]
    # a card opening a trick is alone on the table
    assert [len(s["trick"]["cards"]) for s in cards[:5]] == [1, 2, 3, 4, 1]


def test_a_classic_auction_shows_the_turned_card_and_five_cards():
    record = finished_records("classic", "replay-classic", 1)[0]
    first = webcommands.replay_steps(record)[0]
    assert first["turned"] == record["deck"].split(",")[20]
    assert [len(h) for h in first["hands"]] == [5, 5, 5, 5]


def test_a_bad_record_is_refused():
    record = dict(finished_records("coinche", "replay-bad", 1)[0])
    record["plays"] = record["plays"][:-1]
    with pytest.raises(CoincheError) as info:
        webcommands.replay_steps(record)
    assert info.value.key == "malformed_record"


def test_the_finished_deals_of_the_solo_match_newest_first():
    webcommands.new_match("coinche", 1000, "easy", seed="replay-list")
    session = webcommands._current()
    session.replace_by_bot(0)  # the bots play every seat
    while len(session.match.history) < 3:
        session.bot_step()
    deals = webcommands.finished_deals(count=2)
    assert [d["number"] for d in deals] == [3, 2]
    assert [d["record"] for d in deals] == session.match.history[:0:-1]
    for d in deals:  # the seed deals the same cards again
        again = Deal.new("coinche", d["record"]["dealer"], int(d["deal_seed"]))
        assert deal_to_record(again)["deck"] == d["record"]["deck"]
