"""Hostile and malformed messages change nothing (hypothesis).

The referee is driven in process, without sockets: two clients seated at a table in the middle
of a match (in the auction, then in the play), and a third with no seat.  Each example sends one
frame from one of them; the referee must not raise, must answer the sender alone with one
message (an error, unless the request was a harmless ``ping`` or ``state``), and its whole
description (lobby, tokens, every table's match, timers) must be the same before and after.
"""

from __future__ import annotations

import asyncio
import json
import random

from hypothesis import assume, given, strategies as st

from coinche.calls import BIDS, COINCHE, PASS, SURCOINCHE, TAKES
from coinche.cards import CARDS
from coinche_referee.chat import PHRASES
from coinche_referee.protocol import FIELDS
from coinche_referee.public import PRESETS
from coinche_referee.referee import Client, Config, Referee

HARMLESS = ("ping", "state")


class Recorder(Client):
    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self.inbox: list[dict] = []
        self.closed: tuple | None = None

    def send(self, message: dict) -> None:
        json.dumps(message)  # everything sent must be JSON
        self.inbox.append(message)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)


def settle(loop: asyncio.AbstractEventLoop, referee: Referee) -> None:
    """Run the bots until a human is to move (bot_delay is 0, so their timers are due at once)."""
    while any(t.bot_timer is not None for t in referee.tables):
        loop.run_until_complete(asyncio.sleep(0))


def build(phase: str):
    """A referee with two humans mid-match (``auction`` or ``play``) and a client with no seat."""
    loop = asyncio.new_event_loop()
    # the turn clock far away: no timeout may fire between an example's "before" and "after"
    config = Config(bot_delay=0, level="easy", rate=1e9, burst=1e9, clock_scale=1e6)
    referee = Referee(config, loop=loop)
    a, b, stranger = Recorder(config), Recorder(config), Recorder(config)
    for c in (a, b, stranger):
        referee.connect(c)
    referee.handle(a, '{"type": "queue"}')
    referee.handle(b, '{"type": "queue"}')
    [table] = referee.tables
    rng = random.Random(11)
    settle(loop, referee)
    match = table.session.match
    while phase == "play" and (match.deal.phase.name != "PLAY" or len(match.deal.tricks) < 2):
        seat = match.current_player
        legal = [str(x) for x in match.legal_actions()]
        choice = "80h" if "80h" in legal and rng.random() < 0.5 else ("pass" if "pass" in legal else rng.choice(legal))
        table.act(seat, choice, None, None)
        settle(loop, referee)
    assert match.current_player in (0, 1)
    return loop, referee, table, (a, b, stranger)


WORLDS = {}


def world(phase: str):
    if phase not in WORLDS:
        WORLDS[phase] = build(phase)
    return WORLDS[phase]


ACTIONS = [str(c) for c in CARDS] + [str(c) for c in (PASS, COINCHE, SURCOINCHE, *BIDS, *TAKES)]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
field_values = (json_values | st.sampled_from(ACTIONS) | st.sampled_from(["coinche", "classic", 501, 701, 1000])
                | st.sampled_from(PHRASES) | st.sampled_from(sorted(PRESETS)))
structured = st.builds(
    lambda kind, fields, rid: {"type": kind, **fields, **({} if rid is None else {"id": rid})},
    st.sampled_from(sorted(FIELDS)) | st.text(max_size=10) | json_values,
    st.dictionaries(st.sampled_from(["action", "seq", "code", "token", "variant", "target", "phrase", "preset", "x"]),
                    field_values, max_size=3),
    st.none() | json_values,
)
frames = st.one_of(
    structured.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=60),
    st.binary(max_size=40),
    st.sampled_from(["[" * 4000, "[" * 5000, '{"type": "ping", "id": 1e999}', '{"type": "act", "action": "\\ud800"}',
                     '{"type": "ping", "pad": "' + "x" * 5000 + '"}', "", "null", '{"type": "act", "action": 12}',
                     '{"id": 123456789012345678901234567890, "type": "ping"}', '"' + "é" * 3000 + '"']),
)


def would_change(referee: Referee, table, sender: Client, frame) -> bool:
    """Frames that legitimately change the state: a legal action by the seat to move, a seated
    player leaving, a seatless client entering the queue or opening a table."""
    try:
        data = json.loads(frame)
    except (TypeError, ValueError, RecursionError):
        return False
    if not isinstance(data, dict):
        return False
    kind = data.get("type")
    if kind == "leave" and sender.table is not None:
        return True
    if kind in ("queue", "create", "open", "seek") and sender.table is None:
        return True
    if kind == "say" and sender.table is not None and data.get("phrase") in PHRASES:
        return True  # said to everyone at the table (within the seat's allowance)
    if kind == "act" and sender.table is not None:
        match = table.session.match
        legal = [str(x) for x in match.legal_actions()]
        action = data.get("action")
        return (sender.seat == match.current_player and isinstance(action, str)
                and action.strip().lower() in [x.lower() for x in legal])
    return False


@given(phase=st.sampled_from(["auction", "play"]), who=st.sampled_from([0, 1, 2]), frame=frames)
def test_hostile_frames_change_nothing(phase, who, frame):
    loop, referee, table, clients = world(phase)
    sender = clients[who]
    assume(not would_change(referee, table, sender, frame))
    before = referee.describe()
    for c in clients:
        c.inbox.clear()
    referee.handle(sender, frame)
    settle(loop, referee)
    assert referee.describe() == before
    assert all(not c.inbox for c in clients if c is not sender)
    assert len(sender.inbox) == 1 and sender.closed is None
    reply = sender.inbox[0]
    if reply["type"] != "error":
        assert reply["type"] in ("pong", "state", "resumed")
        assert json.loads(frame)["type"] in HARMLESS + ("resume",)
    else:
        assert set(reply["error"]) == {"key", "params", "message"}


def test_the_fuzz_worlds_are_what_they_claim():
    for phase in ("auction", "play"):
        _, referee, table, (a, b, stranger) = world(phase)
        assert table.session.match.deal.phase.name == phase.upper()
        assert (a.table, b.table, stranger.table) == (table, table, None)
        assert referee.describe()["tables"]


def test_an_out_of_turn_card_and_an_illegal_card_are_refused_with_their_reasons():
    _, referee, table, clients = world("play")
    deal = table.session.match.deal
    mover = clients[deal.turn]
    other = clients[1 - deal.turn]
    before = referee.describe()
    hand = deal.hands[deal.turn]
    illegal = [c for c in CARDS if hand >> c & 1 and not deal.legal_mask() >> c & 1]
    referee.handle(other, json.dumps({"type": "act", "action": str(CARDS[0])}))
    assert other.inbox[-1]["error"]["key"] == "out_of_turn"
    if illegal:
        referee.handle(mover, json.dumps({"type": "act", "action": str(illegal[0]), "id": 5}))
        reply = mover.inbox[-1]
        assert reply["id"] == 5 and reply["error"]["key"] == "illegal_card"
        assert reply["error"]["params"]["card"] == str(illegal[0])
    assert referee.describe() == before
