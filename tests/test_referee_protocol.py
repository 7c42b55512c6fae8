"""The referee's pieces on their own: request parsing, codes, the token bucket, what a seat is sent."""

from __future__ import annotations

import doctest
import json

import pytest

import coinche_referee
from coinche.session import Session
from coinche_referee import addresses, codes, limits, messages, protocol, referee, server, table
from coinche_referee.messages import event as public_event, seat_state as public_state
from coinche_referee.protocol import RefereeError, parse_request


@pytest.mark.parametrize("module", [protocol, codes, limits, server, referee, table, messages, addresses,
                                    coinche_referee])
def test_doctests(module):
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


@pytest.mark.parametrize("frame, key", [
    ("", "bad_json"), ("[]", "bad_json"), ("{", "bad_json"), ("[" * 4000, "bad_json"),
    (b"{}", "binary"), ('{"type": 1}', "bad_message"), ("{}", "bad_message"),
    ('{"type": "dance"}', "unknown_type"), ('{"type": "act", "action": 80}', "bad_message"),
    ('{"type": "act", "action": "80h", "extra": 1}', "bad_message"),
    ('{"type": "act", "action": "80h", "seq": -1}', "bad_message"),
    ('{"type": "act", "action": "80h", "seq": true}', "bad_message"),
    ('{"type": "queue", "target": 500}', "bad_message"), ('{"type": "queue", "variant": ["coinche"]}', "bad_message"),
    ('{"type": "ping", "id": [1]}', "bad_message"), ('{"type": "ping", "id": 9007199254740993}', "bad_message"),
    ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"), ('"' + "é" * 2100 + '"', "too_large"),
])
def test_bad_frames_are_refused_with_a_stable_key(frame, key):
    with pytest.raises(RefereeError) as refused:
        parse_request(frame)
    assert refused.value.key == key
    assert set(refused.value.to_json()) == {"key", "params", "message"}


def test_the_longest_declaration_of_announcements_is_an_action():
    """Two sequences and a carré, the most a hand holds, declared in one ``act`` (16 characters refused it)."""
    from coinche.announce import format_announcements, held
    from coinche.cards import mask_of, parse_cards

    action = "announce:" + format_announcements(held(mask_of(parse_cards("9s,Ts,Js,9h,Th,Jh,Jd,Jc"))))
    assert len(action) == 23 and parse_request(json.dumps({"type": "act", "action": action})).fields == {"action": action}
    with pytest.raises(RefereeError) as refused:
        parse_request(json.dumps({"type": "act", "action": "announce:" + "x" * 24}))
    assert refused.value.key == "bad_message"


def test_the_id_is_known_as_soon_as_it_is_read():
    with pytest.raises(RefereeError) as refused:
        parse_request('{"type": "dance", "id": "q1"}')
    assert refused.value.id == "q1" and refused.value.to_json()["params"] == {"type": "dance"}


def test_good_frames():
    assert parse_request('{"type": "queue", "variant": "classic", "target": 701}').fields == {
        "variant": "classic", "target": 701}
    assert parse_request('{"type": "join", "code": "k7m2qx", "id": null}').id is None
    for kind in protocol.FIELDS:
        required = {name: 0 if name == "seat" else "x" for name, (_, needed) in protocol.FIELDS[kind].items() if needed}
        assert parse_request(json.dumps({"type": kind, **required})).type == kind


def test_codes_round_trip_and_refuse_lookalikes():
    import random

    rng = random.Random(0)
    for _ in range(200):
        code = codes.new_code(rng)
        assert codes.parse_code(code.lower()) == code
    assert codes.parse_code("K7M2Q0") is None and codes.parse_code("K7M2QI") is None
    assert not set("01OIL") & set(codes.ALPHABET) and len(set(codes.ALPHABET)) == 31


def test_a_seat_is_never_sent_the_seed():
    session = Session.new("coinche", 501, "easy", seed="secret-seed", humans=(0, 1))
    state = public_state(session, 1)
    assert "secret-seed" not in json.dumps(state) and "deal_seed" not in state
    assert state["settings"] == {"variant": "coinche", "target": 501, "level": "easy", "humans": [0, 1]}
    assert state["seq"] == 0 and state["deal"]["seat"] == 1


def test_the_end_of_a_deal_is_sent_without_the_deck_nor_the_hands_of_a_void_deal():
    session = Session.new("coinche", 501, "easy", seed="void", humans=(0, 1, 2, 3))
    for seat in (1, 2, 3):
        session.act(seat, "pass")
    event = public_event(session.act(0, "pass"), 0)
    record = event["deal_end"]["record"]
    assert record["result"]["void"] and "deck" not in record and "hands" not in record
    assert record["calls"] == ["pass"] * 4 and event["deal_index"] == 0


def test_the_end_of_a_played_deal_keeps_the_hands_everyone_saw_played():
    session = Session.new("coinche", 501, "easy", seed="played", humans=(0, 1, 2, 3))
    event = None
    while session.match.deal_index == 0:
        seat = session.match.current_player
        legal = [str(a) for a in session.match.legal_actions()]
        event = session.act(seat, "80h" if "80h" in legal else ("pass" if session.match.deal.phase.name == "AUCTION" else legal[0]))
    record = public_event(event, 0)["deal_end"]["record"]
    assert "deck" not in record and len(record["plays"]) == 32
    assert sorted(",".join(record["hands"]).split(",")) == sorted(record["plays"])
