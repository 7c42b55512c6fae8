"""Shared pieces of the referee tests: a scripted websocket player, and the leak checker (with its
own tests: a checker that never fires proves nothing).

The leak rule: at every moment, a message to a seat may hold no card that is in another seat's
hand at that moment, unless the card is public: the classic turned card, which everyone saw the
taker pick up, and, at a table of the house rule ``announce=yes``, from the end of the first trick
on (never before), the cards of the announcements declared, and no other.  The table's rules are
its snapshot's (``settings.rules``; the game's own without it).  A message's ``state`` belongs to
the moment ``state.seq`` (that many actions played); its ``event`` to the action that led there,
judged against the deal that action belonged to: when that action ended the deal, the cards still
in hands of that deal (none after a played deal, all of them after a void one).  A spectator (the seat
:data:`SPECTATOR`) may see no card in any hand, and its state's hand is empty.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import websockets
from websockets.asyncio.client import connect

from coinche.announce import held
from coinche.cards import card_name, cards_of
from coinche.match import Match, Rules
from coinche.record import deal_to_record
from coinche.session import Session, settings_rules

CARD = re.compile(r"(?<![\w-])([789TJQKA][shdc])(?![\w-])")
#: The "seat" of a spectator's log for :func:`find_leaks`: every hand is hidden from it.
SPECTATOR = 4  # the fifth chair, beside the table


class Player:
    """One page, scripted: every message it receives is kept in ``log``."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []
        self.seat = -1
        self.token: str | None = None
        self.state: dict[str, Any] | None = None

    @classmethod
    async def join(cls, url: str) -> "Player":
        player = cls(await connect(url))
        first = await player.recv()
        assert first["type"] == "welcome", first
        return player

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def ask(self, **message: Any) -> dict[str, Any]:
        """Send with a fresh id; the answer carrying that id (messages in between are logged)."""
        self.rid = getattr(self, "rid", 0) + 1
        await self.send(id=self.rid, **message)
        while True:
            reply = await self.recv()
            if reply.get("id") == self.rid:
                return reply

    async def read(self, timeout: float) -> dict[str, Any]:
        """The next message, logged, with the state, seat and token it carries kept."""
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.log.append(message)
        if "state" in message:
            self.state = message["state"]
        if message["type"] in ("start", "resumed", "lobby"):
            self.seat, self.token = message["seat"], message["token"]
        return message

    async def recv(self, *types: str, timeout: float = 30) -> dict[str, Any]:
        """The next message (of one of ``types`` if given; the others are logged and skipped)."""
        while True:
            message = await self.read(timeout)
            if not types or message["type"] in types:
                return message

    @property
    def my_turn(self) -> bool:
        deal = self.state["deal"]
        return self.state["winner"] is None and deal["current_player"] == self.seat and bool(deal["legal"])

    def choose(self, rng: random.Random) -> str:
        """A random legal action; in the auction mostly pass, else one of the four lowest calls."""
        legal = self.state["deal"]["legal"]
        if self.state["deal"]["phase"] == "auction":
            if rng.random() < 0.75:
                return "pass"
            return rng.choice([a for a in legal if a != "pass"][:4] or legal)
        return rng.choice(legal)

    async def play(self, rng: random.Random, until=None) -> None:
        """Answer every turn with a random legal action until the match is over (or ``until(self)``)."""
        acted = -1
        while self.state["winner"] is None and not (until and until(self)):
            if self.my_turn and acted != self.state["seq"]:
                acted = self.state["seq"]
                await self.send(type="act", action=self.choose(rng), seq=acted)
            message = await self.recv()
            assert message["type"] != "error", message

    async def close(self) -> None:
        await self.ws.close()


async def seat_two(url: str, variant: str = "coinche", target: int = 501) -> tuple[Player, Player]:
    """Two players through the queue, in seats 0 and 1."""
    a, b = await Player.join(url), await Player.join(url)
    await a.send(type="queue", variant=variant, target=target)
    assert (await a.recv())["type"] == "waiting"
    await b.send(type="queue", variant=variant, target=target)
    await a.recv("start")
    await b.recv("start")
    return (a, b) if a.seat == 0 else (b, a)


def serve(scenario, config, timeout: float = 120):
    """``scenario(url, referee)`` against a referee serving on a free local port."""
    from coinche_referee.server import running

    async def main():
        async with running(config) as served:
            return await asyncio.wait_for(scenario(f"ws://127.0.0.1:{served.port}", served.referee), timeout)

    return asyncio.run(main())


# ---------------------------------------------------------------- the leak checker

def _hidden(deal, seat: int) -> set[str]:
    """Cards of ``deal`` in the other seats' hands, less the public ones: the classic turned card and,
    once the first trick is over, the announced cards."""
    cards = set()
    for other in range(4):
        if other != seat:
            cards.update(card_name(c) for c in cards_of(deal.hands[other]))
    if deal.variant == "classic" and deal.turned >= 0:
        cards.discard(card_name(deal.turned))
    if deal.tricks:
        cards.difference_update(str(card) for _, announcement in deal.declared for card in announcement.cards)
    return cards


def find_leaks(logs: dict[int, list[dict]], snapshot: dict[str, Any]) -> list[str]:
    """Every card a seat was sent that it could not see then (see the module doc), as text."""
    settings, actions = snapshot["settings"], snapshot["actions"]
    seed = settings["seed"]
    by_seq: dict[int, list[tuple[int, dict]]] = {}
    for seat, log in logs.items():
        seq = 0
        for message in log:
            if "state" in message:
                seq = message["state"]["seq"]
            by_seq.setdefault(seq, []).append((seat, message))
    match = Match(settings_rules(settings), seed=seed)
    leaks = []
    for k in range(len(actions) + 1):
        if k:
            before = match.deal_index
            match.apply(actions[k - 1])
            ended = match.deal_index != before
        for seat, message in by_seq.get(k, ()):
            text = json.dumps({key: v for key, v in message.items() if key != "event"})
            if seed in json.dumps(message):
                leaks.append(f"seq {k} seat {seat}: the match seed in {message['type']}")
            now = _hidden(match.deal, seat)
            for card in set(CARD.findall(text)) & now:
                leaks.append(f"seq {k} seat {seat}: {card} in {message['type']}")
            if "event" in message:
                then = _hidden(match.last_deal, seat) if ended else now
                for card in set(CARD.findall(json.dumps(message["event"]))) & then:
                    leaks.append(f"seq {k} seat {seat}: {card} in the event of {message['type']}")
            if "state" in message:
                own = [] if seat == SPECTATOR else sorted(card_name(c) for c in cards_of(match.deal.hands[seat]))
                if sorted(message["state"]["deal"]["hand"]) != own:
                    leaks.append(f"seq {k} seat {seat}: the state's hand is not the seat's hand then")
    return leaks


def test_checker_finds_a_hand_of_another_seat():
    match = Match(Rules("coinche", 501), seed="leak")
    other = card_name(cards_of(match.deal.hands[3])[0])
    mine = [card_name(c) for c in cards_of(match.deal.hands[0])]
    state = {"seq": 0, "deal": {"hand": mine, "trick": [other]}}
    snapshot = {"settings": {"variant": "coinche", "target": 501, "seed": "leak"}, "actions": []}
    assert find_leaks({0: [{"type": "update", "state": state}]}, snapshot) == [f"seq 0 seat 0: {other} in update"]
    state["deal"]["trick"] = []
    assert find_leaks({0: [{"type": "update", "state": state}]}, snapshot) == []
    assert find_leaks({0: [{"type": "x", "note": "leak"}]}, snapshot) == ["seq 0 seat 0: the match seed in x"]


def test_checker_finds_the_hands_of_a_void_deal_in_its_end_event():
    match = Match(Rules("coinche", 501), seed="void")
    actions = ["pass"] * 4
    record = deal_to_record(match.deal)  # the engine's full record: every hand
    for a in actions:
        match.apply(a)
    mine = [card_name(c) for c in cards_of(match.deal.hands[0])]
    message = {"type": "update", "state": {"seq": 4, "deal": {"hand": mine}},
               "event": {"deal_end": {"record": {"hands": record["hands"]}}}}
    snapshot = {"settings": {"variant": "coinche", "target": 501, "seed": "void"}, "actions": actions}
    leaks = find_leaks({0: [message]}, snapshot)
    assert len(leaks) == 24 and all("in the event of update" in leak for leak in leaks)


def test_checker_shows_the_announced_cards_from_the_end_of_the_first_trick_and_no_other_card():
    """Seat 1 declares one announcement and leads another card: before the first trick is over its cards are
    secret to seat 0, after it they are public (still in seat 1's hand), and a card beside them is not."""
    from coinche_referee.messages import seat_state

    rules, everyone = "contracts=all,announce=yes", (0, 1, 2, 3)
    sessions = (Session.new(seed=f"shown-{i}", rules=rules, humans=everyone) for i in range(99))
    session = next(s for s in sessions if held(s.match.deal.hands[1]))
    deal = session.match.deal
    for call in ("100h", "pass", "pass", "pass"):
        session.act(deal.turn, call)
    announcement = held(deal.hands[1])[0]
    shown = {str(card) for card in announcement.cards}
    session.act(1, f"announce:{announcement}")
    early = seat_state(session, 0)
    while not deal.tricks:
        legal = [str(card) for card in deal.legal_cards()]
        session.act(deal.turn, next((card for card in legal if card not in shown), legal[0]))
    late = seat_state(session, 0)
    snapshot = session.snapshot()

    def leaks(state):
        return find_leaks({0: [{"type": "update", "state": state}]}, snapshot)

    assert {card for entry in late["deal"]["declared"] for card in entry["cards"]} == shown
    assert shown <= {card_name(c) for c in cards_of(deal.hands[1])} and leaks(late) == []
    early["deal"]["declared"] = late["deal"]["declared"]
    assert sorted(leaks(early)) == sorted(f"seq 5 seat 0: {card} in update" for card in shown)
    beside = next(card_name(c) for c in cards_of(deal.hands[1]) if card_name(c) not in shown)
    late["deal"]["declared"][0]["cards"].append(beside)
    assert leaks(late) == [f"seq {late['seq']} seat 0: {beside} in update"]


def test_card_pattern_skips_tokens_and_words():
    assert CARD.findall('"Jh","Kd,7s" x-Ah-y tok_Ts9 The Qc') == ["Jh", "Kd", "7s", "Qc"]


__all__ = ["Player", "seat_two", "serve", "find_leaks", "websockets", "SPECTATOR"]
