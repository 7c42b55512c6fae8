"""The par of a deal (coinche.par) and its web commands: deterministic, independent of what was played,
``par_next`` stepped to the end equal to ``par_replay``, the seats' bots as documented, and bad arguments
answered with error keys, never a crash.  Replays cost about 0.4 s each (the Expert plays one seat): the
default tier plays a handful."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche import webapi, webcommands
from coinche.bots import bot_turn, make_bot
from coinche.deal import Deal
from coinche.par import (PAR_DEALS, Par, ParError, par, par_bots, par_next, par_replay, replay_score, replay_seed,
                         side_score)
from coinche.record import RecordError, check, deal_to_record, dealt
from coinche.rng import derive_seed
from coinche.rules import Rules
from coinche.session import Session


def played(seed: int, rules: str = "own", seats=("person", "easy", "easy", "easy"), dealer: int = 3) -> dict:
    """A finished deal played by easy bots (cheap), its record saying who sat where."""
    deal = Deal.new(Rules.parse(rules), dealer, seed)
    bots = [make_bot("easy", seed=derive_seed(seed, s)) for s in range(4)]
    while not deal.is_over:
        bot_turn(deal, bots[deal.turn])
    return {**deal_to_record(deal), "seats": list(seats)}


@lru_cache(maxsize=None)
def _record_json(seed: int, rules: str = "own") -> str:
    return json.dumps(played(seed, rules))


def record_of(seed: int, rules: str = "own") -> dict:
    return json.loads(_record_json(seed, rules))


def handle(cmd: str, **args) -> dict:
    return json.loads(webapi.handle(cmd, json.dumps(args)))


# ---------------------------------------------------------------- the score and the bots
def test_side_score_is_the_sides_points_minus_the_opponents():
    for seat in range(4):
        assert side_score([250, 0], seat) == (250 if seat % 2 == 0 else -250)
    assert side_score([82, 80], 1) == -2


def test_par_bots_put_the_expert_in_the_seat_and_for_a_person_elsewhere():
    record = {"seats": ["person", "easy", "person", "normal"]}
    assert par_bots(record, 0) == ("expert", "easy", "expert", "normal")
    assert par_bots(record, 1) == ("expert", "expert", "expert", "normal")
    assert par_bots(record, 3, bots="easy") == ("easy", "easy", "easy", "expert")
    assert par_bots({}, 0, bots=["normal", "easy", "easy", "easy"]) == ("expert", "easy", "easy", "easy")
    with pytest.raises(ParError) as error:
        par_bots({}, 0)
    assert error.value.key == "par_no_seats"
    with pytest.raises(RecordError):
        par_bots({"seats": ["person", "easy"]}, 0)


def test_a_session_writes_who_sat_where_into_every_finished_deal():
    session = Session.new(level="easy", seed="seats", humans=(0,))
    events = []
    while not session.match.history:
        event = session.bot_step()
        if event is None:
            event = session.act(0, str(session.match.legal_actions()[0]))
        events.append(event)
    record = events[-1]["deal_end"]["record"]
    assert record["seats"] == ["person", "easy", "easy", "easy"]
    check(record)
    again = Session.from_snapshot(session.snapshot())
    assert again.match.history[0]["seats"] == record["seats"]


# ---------------------------------------------------------------- the seeds
def test_replay_seeds_depend_on_the_deal_not_on_its_play():
    record = record_of(1)
    other_play = {**record, "calls": ["pass"] * 4, "plays": [], "result": {}}
    seeds = {(seat, index): replay_seed(record, seat, index) for seat in range(4) for index in range(3)}
    assert len(set(seeds.values())) == len(seeds)  # fresh for every seat and replay
    assert all(replay_seed(other_play, seat, index) == seed for (seat, index), seed in seeds.items())
    moved = {**record, "dealer": (record["dealer"] + 1) & 3}
    assert replay_seed(moved, 0, 0) != seeds[0, 0]
    assert replay_seed({**record, "seats": ["person", "normal", "easy", "easy"]}, 0, 0) != seeds[0, 0]


# ---------------------------------------------------------------- the replays
def test_par_next_stepped_to_the_end_is_par_replay_and_the_web_commands_agree():
    record = record_of(2)
    actions: list[str] = []
    while (action := par_next(record, 1, 0, actions)) is not None:
        if len(actions) in (0, 5, 20):  # the page's command gives the same actions
            assert handle("par_step", record=record, seat=1, index=0, actions=actions)["result"] == {"action": action}
        actions.append(action)
    score = replay_score(record, 1, actions)
    assert par_replay(record, 1, 0) == score
    assert handle("par_step", record=record, seat=1, index=0, actions=actions)["result"] == {"done": True,
                                                                                             "score": score}


def test_a_table_of_announcements_declares_in_the_replays():
    record = record_of(3, "announce=yes")
    actions: list[str] = []
    while (action := par_next(record, 0, 0, actions)) is not None:
        actions.append(action)
    assert sum(a.startswith("announce:") for a in actions) == 4  # each seat speaks (perhaps nothing) once
    assert par_replay(record, 0, 0) == replay_score(record, 0, actions)


def test_the_par_is_deterministic_and_ignores_what_was_played():
    record = record_of(4)
    p = par(record, 0, k=2)
    assert p.k == 2 and p.scores[1] == par_replay(record, 0, 1)
    assert p.mean == sum(p.scores) / 2 and p.difference == p.result - p.mean
    assert p.result == side_score(record["result"]["scores"], 0)
    # the same cards, played otherwise (all pass): another result, the same par
    deal = dealt(record)
    for _ in range(4):
        deal.apply("pass")
    other = {**record, **{k: v for k, v in deal_to_record(deal).items() if k in ("calls", "plays", "result")}}
    again = par(other, 0, k=2)
    assert again.scores == p.scores and again.result == 0
    summary = handle("par_summary", record=other, seat=0, scores=list(p.scores))["result"]
    assert summary == again.to_json()
    assert {"par", "result", "difference", "k", "stderr"} <= set(summary)


def test_the_par_begun_from_the_deal_as_dealt_is_the_finished_deals():
    """The table's ``par_deal`` at a deal's start gives what its par's replays need (never its calls nor cards):
    the same seeds and the same first steps as the finished deal's record, for every seat's side."""
    answer = handle("new_match", level="normal", seed="par-deal", rules="announce=yes")["result"]
    assert answer["state"]["deal"]["current_player"] == 0
    start = handle("par_deal")["result"]
    assert start["seat"] == 0 and handle("par_k")["result"] == {"k": PAR_DEALS}
    assert start["record"]["calls"] == start["record"]["plays"] == []
    assert start["record"]["seats"] == ["person", "normal", "normal", "normal"]
    session = webcommands._session
    while (end := session._apply(str(session.match.deal.legal_actions()[0]))).get("deal_end") is None:
        pass
    finished = end["deal_end"]["record"]
    assert finished["calls"] and dealt(start["record"]).deck == dealt(finished).deck
    for seat in range(4):
        assert par_bots(start["record"], seat) == par_bots(finished, seat)
        assert [replay_seed(start["record"], seat, i) for i in range(3)] == [replay_seed(finished, seat, i) for i in range(3)]
    assert handle("par_step", record=start["record"], seat=0, index=1, actions=[]) == handle(
        "par_step", record=finished, seat=0, index=1, actions=[])
    assert handle("par_deal")["result"]["record"]["deck"] != start["record"]["deck"]  # the next deal's


def test_a_replay_plays_a_seat_as_the_table_played_it():
    """The par's stepping (par_step's _next_action, the page's) with the bots and seeds of a record's own deal
    gives back that deal's calls, announcements and cards: a replay differs from the record's deal by its
    seeds alone, so the Expert's own duplicate difference is 0 in expectation."""
    from coinche.par import _next_action

    seeds = [derive_seed(12, s) for s in range(4)]
    deal = Deal.new(Rules.parse("announce=yes"), 2, 12)
    bots = [make_bot("easy", seed=seeds[s]) for s in range(4)]  # the level does not matter here: cheap
    while not deal.is_over:
        bot_turn(deal, bots[deal.turn])
    record = {**deal_to_record(deal), "seats": ["easy"] * 4}
    again = dealt(record)
    while (action := _next_action(again, bots)) is not None:
        again.apply(action)
    assert deal_to_record(again) == deal_to_record(deal)


def test_par_figures():
    p = Par(0, ("expert", "easy", "easy", "easy"), (10, 30, 50), 20)
    assert (p.k, p.mean, p.difference) == (3, 30.0, -10.0)
    assert p.stderr == pytest.approx((((20 ** 2) * 2 / 2) / 3) ** 0.5)
    assert Par(0, p.bots, (7,), 0).to_json()["stderr"] is None
    assert p.to_json()["par"] == 30.0 and p.to_json()["difference"] == -10.0


def test_par_plan():
    record = record_of(5)
    plan = handle("par_plan", record=record, seat=2)["result"]
    assert plan == {"k": PAR_DEALS, "bots": ["expert", "easy", "expert", "easy"], "seat": 2,  # a person: Expert
                    "result": side_score(record["result"]["scores"], 2)}
    broken = {**record, "deck": ",".join([record["deck"].split(",")[0]] * 2 + record["deck"].split(",")[2:])}
    answer = handle("par_plan", record=broken, seat=2)["error"]
    assert answer["code"] == "malformed_record" and "32 cards once" in answer["params"]["detail"]
    no_seats = {k: v for k, v in record.items() if k != "seats"}
    assert handle("par_plan", record=no_seats, seat=0)["error"]["code"] == "par_no_seats"
    assert handle("par_plan", record=no_seats, seat=0, bots="normal")["result"]["bots"] == [
        "expert", "normal", "normal", "normal"]


# ---------------------------------------------------------------- bad arguments
JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 2**70) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=40)
@given(command=st.sampled_from(["par_plan", "par_step", "par_summary"]), record=JSON, seat=JSON, index=JSON,
       actions=JSON, scores=JSON)
def test_bad_par_arguments_are_refused_with_a_key(command, record, seat, index, actions, scores):
    args = {"record": record, "seat": seat}
    if command == "par_step":
        args.update(index=index, actions=actions)
    if command == "par_summary":
        args["scores"] = scores
    answer = handle(command, **args)
    assert "error" in answer and answer["error"]["code"] not in ("internal_error", "bad_args")


@pytest.mark.parametrize("args, code", [
    ({"seat": 4}, "par_bad_seat"), ({"seat": True}, "par_bad_seat"), ({"seat": "0"}, "par_bad_seat"),
    ({"index": -1}, "par_bad_index"), ({"index": 10**6}, "par_bad_index"), ({"index": 0.5}, "par_bad_index"),
    ({"actions": "80h"}, "par_bad_action"), ({"actions": ["pass", 7]}, "par_bad_action"),
    ({"actions": ["Jh"]}, "par_bad_action"), ({"actions": ["pass"] * 5}, "par_bad_action"),
    ({"bots": "hard"}, "par_bad_bots"), ({"bots": ["easy"] * 3}, "par_bad_bots"),
    ({"record": {"seats": 4}}, "malformed_record"), ({"record": []}, "malformed_record"),
    ({"banana": 1}, "bad_args"),
])
def test_par_step_refusals(args, code):
    record = record_of(6)
    base = {"record": record, "seat": 0, "index": 0, "actions": []}
    assert handle("par_step", **{**base, **args})["error"]["code"] == code


@pytest.mark.parametrize("scores", [[], [1.5], ["10"], [True], 12, [0] * 1001])
def test_par_summary_refuses_bad_scores(scores):
    answer = handle("par_summary", record=record_of(6), seat=0, scores=scores)
    assert answer["error"]["code"] == "par_bad_scores"


def test_check_records_names_each_bad_record_by_the_engines_rules():
    good = record_of(7)
    cards = good["deck"].split(",")
    twice = {**good, "deck": ",".join(cards[:7] + [cards[0]] + cards[8:])}  # the repro: 8th card = 1st
    wrong_result = {**good, "result": {**good["result"], "scores": [1, 2]}}
    bad_seats = {**good, "seats": ["person"]}
    answer = handle("check_records", records=[good, twice, wrong_result, bad_seats, "x", None, {}])["result"]
    assert answer[0] is None
    assert answer[1] == {"key": "malformed_record",
                         "params": {"reason": "deck_twice", "detail": "the deck must hold each of the 32 cards once"}}
    assert answer[2]["key"] == "malformed_record" and answer[2]["params"]["detail"].startswith("result is")
    assert all(a["key"] == "malformed_record" for a in answer[3:])
    without_seats = {k: v for k, v in good.items() if k != "seats"}
    assert handle("check_records", records=[without_seats])["result"] == [None]
    for records in ({}, "x", None, [0] * 50_001):
        assert handle("check_records", records=records)["error"]["code"] == "bad_records"
