"""The deal of the day (coinche.daily): from the date alone, valid and distinct deals, the same set for the same
date, the cards a session deals from its seed, a worked example pinned, and bad dates refused with a key."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinche import webapi
from coinche.cards import parse_cards
from coinche.daily import FIRST_DATE, LAST_DATE, daily_set, parse_date, today
from coinche.errors import CoincheError
from coinche.record import dealt
from coinche.rng import shuffled_deck
from coinche.session import Session

DAYS = st.dates(min_value=FIRST_DATE, max_value=LAST_DATE)


def handle(cmd: str, **args) -> dict:
    return json.loads(webapi.handle(cmd, json.dumps(args)))


@given(DAYS)
def test_a_days_set_is_four_valid_distinct_deals_from_the_date_alone(day):
    deals = daily_set(day)
    assert daily_set(day.isoformat()) == deals == daily_set(datetime(day.year, day.month, day.day, 23, 59))
    assert [d.number for d in deals] == [1, 2, 3, 4] and {d.date for d in deals} == {day.isoformat()}
    assert len({d.deal_seed for d in deals}) == 4
    starts = [d.start_record() for d in deals]
    assert len({s["deck"] for s in starts}) == 4
    for d, start in zip(deals, starts):
        assert d.dealer == 3 and d.level == "normal" and d.seats == ("person", "normal", "normal", "normal")
        assert 0 <= int(d.deal_seed) < 2**64 and str(int(d.deal_seed)) == d.deal_seed
        assert parse_cards(start["deck"]) == shuffled_deck(int(d.deal_seed))
        assert dealt(start).hands == d.deal().hands  # a start record the engine reads
        assert start["daily"] == f"{d.date}/{d.number}" and start["seats"] == list(d.seats)
    assert [s["variant"] for s in starts] == ["coinche"] * 3 + ["classic"]


@given(DAYS, DAYS)
def test_two_days_share_no_deal(a, b):
    if a != b:
        assert not {d.deal_seed for d in daily_set(a)} & {d.deal_seed for d in daily_set(b)}


def test_a_session_started_from_a_daily_deal_deals_its_cards_to_the_same_seats():
    for d in daily_set("2026-12-05"):
        session = Session.new(rules=d.rules, level=d.level, deal_seed=d.deal_seed, first_dealer=d.dealer, seed="x")
        start = d.start_record()
        state = session.state(0)
        assert session.match.deal.deck == d.deal().deck
        assert state["deal"]["dealer"] == 3 and state["deal"]["current_player"] == 0
        assert ",".join(state["deal"]["hand"]) == ",".join(sorted(start["hands"][0].split(","), key=lambda c: parse_cards(c)[0]))
        assert state["rules"] == d.rules


# The worked example: 2026-12-05's set, as `coinche daily --date 2026-12-05` prints it (tests/test_cli.py).
# Seat 0's hand and the turned card: what the player sees first.
DECEMBER_5 = [
    ("2026-12-05/1", "own", "15718515337127547993", "7s,Ts,Js,Ks,9h,Td,Jd,Ad", None),
    ("2026-12-05/2", "own", "10503598486067281293", "8s,Js,Qh,Kh,9d,Jd,Ad,Ac", None),
    ("2026-12-05/3", "own", "16404990464196268204", "Ks,7h,Th,8d,Jd,Ad,8c,Ac", None),
    ("2026-12-05/4", "variant=classic", "7938341890491585036", "Jh,Td,Kd,8c,Jc", "Qc"),
]


def test_the_worked_example():
    deals = daily_set("2026-12-05")
    assert [(d.daily, d.rules, d.deal_seed, d.start_record()["hands"][0], d.start_record()["turned"])
            for d in deals] == DECEMBER_5


@pytest.mark.parametrize("text", ["2026-02-30", "2026-13-01", "2026-12-5", "05/12/2026", "1999-12-31",
                                  "2100-01-01", "２０２６-12-05", "2026-12-05T00:00", "", None, 20261205, [], True])
def test_bad_dates_are_refused_with_a_key(text):
    with pytest.raises(CoincheError) as error:
        parse_date(text)
    assert error.value.key == "daily_bad_date"
    if text is not None:  # null is today in the web command
        assert handle("daily", date=text)["error"]["code"] == "daily_bad_date"


def test_the_daily_command():
    answer = handle("daily", date="2026-12-05")["result"]
    assert answer["date"] == "2026-12-05"
    assert answer["deals"] == [d.to_json() for d in daily_set("2026-12-05")]
    assert set(answer["deals"][0]) >= {"number", "rules", "dealer", "deal_seed", "level", "seats"}
    now = handle("daily")["result"]["date"]
    assert now in {today().isoformat(), (datetime.now(timezone.utc) - timedelta(seconds=5)).date().isoformat()}
    assert parse_date(date(2026, 12, 5)) == date(2026, 12, 5)
