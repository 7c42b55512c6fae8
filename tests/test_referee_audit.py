"""The whole-match audit of what the referee sends: nothing secret ever leaves it.

Recorded once per module: every message of every connection over whole matches of both variants,
one by the queue and one by private code, with a dropped socket resumed, a second connection taking
a seat over, a player who leaves and one who never comes back (both replaced by bots), and a tour of
refused requests (every error and its parameters); then three friends' tables, of four, two and three
people, through their lobbies (seats taken, moved and freed, a drop and a resume, the host leaving) and
their whole matches (a drop resumed, a person replaced by a bot who takes the seat back with their
token, one who never comes back); and a fourth friends' table, of three people and a bot, at house rules
(``contracts=all,announce=yes``: no trumps and all trumps bid and played, announcements declared or not by
the people and by the bot, a drop in a first trick resumed).  Three checks run over the recording:

(a) no card that another seat holds at that moment appears anywhere in a message to a seat (keys,
    nested values, error texts), nor another person's token, nor the match seed; the cards of the
    announcements declared are public from the end of the first trick on, never before, and no other;
(b) every number and every numeric string of every message (and every text, as a match seed) tried
    through the engine as a deal seed and as a match seed re-deals none of the match's hands;
(c) the set of field paths seen, per message type, is exactly the one PROTOCOL.md documents, the rows
    of the house rule ``announce=yes`` at its table only.

Each check is shown to fire on a referee double that plants a leak of its kind.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from coinche.announce import held
from coinche.cards import cards_of
from coinche.deal import Deal
from coinche.match import Match
from coinche.session import settings_rules
from coinche.view import announcement_json
from coinche_referee.referee import Config, Referee
from coinche_referee.server import running
from coinche_referee.table import Table
from test_referee_helpers import CARD, SPECTATOR, Player, find_leaks

PROTOCOL_MD = Path(__file__).resolve().parent.parent / "referee" / "PROTOCOL.md"
#: Clocks a tenth of their times (a decision has 2.5 s at least; ``fast``: 1 s a card, 1 s reserve), two
#: timeouts in a row give the seat to a bot.
CONFIG = Config(bot_delay=0, level="easy", grace=0.3, lobby_timeout=0.3, private_timeout=1.0, idle_timeout=0.5,
                rate=1000, burst=1000, max_per_address=8, guesses=3, clock_scale=0.1, clock_strikes=2)
#: Fixed match seeds (the referee draws secret ones): deals with belote and every kind of forbidden card; the
#: sixth, the table of ``HOUSE_RULES``, a first deal where a person holds two announcements and the bot one.
SEEDS = ["audit-1", "audit-2", "audit-3", "audit-4", "audit-5", "audit-578", "audit-7"]
#: Messages only a referee with a durable store sends (tests/test_referee_cluster.py records them).
DURABLE_ONLY = {"server"}
#: Rows of PROTOCOL.md's "Every field" that add fields to another row at the tables of a house rule (the
#: friends' table of ``HOUSE_RULES`` sends them): each row and the row it adds to.
HOUSE_ROWS = {"(state announce=yes)": "(state)", "(update announce=yes)": "update"}
#: The house rules of one friends' table: no trumps and all trumps bid, announcements declared.
HOUSE_RULES = "contracts=all,announce=yes"


class SeededReferee(Referee):
    """The referee with known match seeds, so the recording is the same each run."""

    seeds: list[str] = []

    def match_seed(self) -> str:
        return self.seeds.pop(0)


# ---------------------------------------------------------------- scripted players

class Auditor(Player):
    """A player who plays whole matches and, on the way, sends what a careless or hostile page would."""

    def __init__(self, ws) -> None:
        super().__init__(ws)
        self.rid = 0
        self.toured: set[str] = set()

    async def ask(self, **message: Any) -> dict[str, Any]:
        """Send with a fresh id; the answer carrying that id (messages in between are logged)."""
        self.rid += 1
        await self.send(id=self.rid, **message)
        while True:
            reply = await self.recv()
            if reply.get("id") == self.rid:
                return reply

    async def refused(self, key: str, frame: Any = None, **message: Any) -> dict[str, Any]:
        if frame is not None:
            await self.ws.send(frame)
            while (reply := await self.recv())["type"] != "error":
                pass
        else:
            reply = await self.ask(**message)
        assert reply["type"] == "error" and reply["error"]["key"] == key, (key, reply)
        return reply

    async def tour_seated(self) -> None:
        """Refusals any time at the table."""
        await self.refused("bad_json", frame="{")
        await self.refused("binary", frame=b"\x00")
        await self.refused("too_large", frame=json.dumps({"type": "ping", "pad": "x" * 5000}))
        await self.refused("bad_message", type="act")
        await self.refused("unknown_type", type="dance")
        await self.refused("already_seated", type="queue")
        await self.refused("not_waiting", type="cancel")
        assert (await self.ask(type="ping"))["type"] == "pong"
        assert (await self.ask(type="state"))["type"] == "state"

    async def tour_turn(self) -> None:
        """Refusals on this seat's turn: wrong phase, unknown text, illegal call or card, stale seq; a bid of
        all trumps where the table plays suits only; an announcement where the table plays none, out of its
        time, unknown or not held."""
        deal = self.state["deal"]
        await self.tour_house_rules(deal)
        if deal["phase"] == "auction" and "auction" not in self.toured:
            self.toured.add("auction")
            await self.refused("unknown_call", type="act", action=deal["hand"][0])
            if "surcoinche" not in deal["legal"]:
                await self.refused("illegal_call", type="act", action="surcoinche")
            await self.refused("stale", type="act", action="pass", seq=self.state["seq"] + 7)
        if deal["phase"] == "play" and "play" not in self.toured:
            self.toured.add("play")
            await self.refused("unknown_card", type="act", action="zz")
        if deal["phase"] == "play":
            by_reason = {}
            for card, why in deal["ruling"]["forbidden"].items():
                by_reason.setdefault(why["key"], card)
            for key, card in by_reason.items():
                if key not in self.toured:
                    self.toured.add(key)
                    await self.refused("illegal_card", type="act", action=card)

    async def tour_house_rules(self, deal: dict[str, Any]) -> None:
        if "announceable" not in deal:  # the game's own rules
            if deal["phase"] == "auction" and deal["variant"] == "coinche" and "all trumps" not in self.toured:
                self.toured.add("all trumps")
                await self.refused("contract_not_played", type="act", action="160ta")
            if deal["phase"] == "play" and "announce" not in self.toured:
                self.toured.add("announce")
                await self.refused("announce_not_played", type="act", action="announce:")
        elif deal["phase"] == "auction" and "announce early" not in self.toured:
            self.toured.add("announce early")
            await self.refused("announce_wrong_time", type="act", action="announce:")
        elif deal["announceable"] and "announce unheld" not in self.toured:
            self.toured.add("announce unheld")
            await self.refused("unknown_announcement", type="act", action="announce:4x")
            mine = {a["announcement"] for a in deal["announceable"]}
            unheld = next(text for text in ("4J", "49", "7s-9s") if text not in mine)
            await self.refused("announcement_not_held", type="act", action=f"announce:{unheld}")

    def choose(self, rng: random.Random) -> str:
        """At a table of ``HOUSE_RULES``: no trumps and all trumps bid as often as a suit, and with the first
        card some of the announcements held declared (or none, or nothing said); elsewhere a Player's choice."""
        deal = self.state["deal"]
        legal = deal["legal"]
        if deal.get("announceable"):
            if rng.random() < 0.2:
                return super().choose(rng)
            return "announce:" + ",".join(a["announcement"] for a in deal["announceable"] if rng.random() < 0.7)
        if deal["phase"] == "auction" and any(call.endswith("ta") for call in legal):
            if rng.random() < 0.7:
                return "pass"
            return rng.choice([call for call in legal if call[0].isdigit()][:6] or legal)
        return super().choose(rng)

    async def play(self, rng: random.Random, until=None) -> None:
        acted = -1
        while self.state["winner"] is None and not (until and until(self)):
            if self.my_turn and acted != self.state["seq"]:
                acted = self.state["seq"]
                await self.tour_turn()
                if not self.my_turn or self.state["seq"] != acted:
                    continue
                self.rid += 1
                await self.send(type="act", action=self.choose(rng), seq=acted, id=self.rid)
            elif not self.my_turn and "out_of_turn" not in self.toured and self.state["deal"]["phase"] == "play":
                self.toured.add("out_of_turn")
                await self.send(type="act", action="pass", id=0)
            message = await self.recv()
            assert message["type"] != "error" or message.get("id") == 0, message


async def stranger_tour(url: str, table_code: str) -> list[list[dict]]:
    """What a client with no seat is told: not seated, bad token, wrong codes until refused, the
    per-address limit, a private table that expires, and the close of an idle connection."""
    s = await Auditor.join(url)
    await s.refused("not_seated", type="state")
    await s.refused("bad_token", type="resume", token="x" * 24)
    for code in ("ZZZZZZ", "ZZZZZY", "ZZZZZX"):
        assert (await s.refused("no_such_table", type="join", code=code))["error"]["params"]["code"] == code
    retry = (await s.refused("too_many_guesses", type="join", code=table_code))["error"]["params"]["retry_after"]
    assert 0 < retry <= 61
    assert (await s.ask(type="create", variant="classic"))["type"] == "created"
    await s.recv("expired", timeout=3)
    assert (await s.ask(type="queue", target=701))["type"] == "waiting"
    assert (await s.ask(type="cancel"))["type"] == "cancelled"
    crowd = []
    while True:  # up to the per-address limit: the next one is refused and closed
        extra = Auditor(await __import__("websockets").asyncio.client.connect(url))
        first = await extra.recv()
        crowd.append(extra)
        if first["type"] == "error":
            assert first["error"]["key"] == "too_many_connections"
            break
        assert len(crowd) <= CONFIG.max_per_address
    for extra in crowd:
        await extra.close()
    idle = await Auditor.join(url)
    assert (await idle.recv(timeout=3))["error"]["key"] == "idle"
    await s.close()
    return [s.log, idle.log, *(extra.log for extra in crowd)]


async def record(url: str, referee: Referee) -> dict[str, Any]:
    """The matches described at the top; every log, the tables' snapshots and tokens."""
    logs: list[tuple[str, int | None, list[dict]]] = []
    matches = []

    # A coinche match through the queue: A alone long enough to hear "no_opponent". B connects only then: a
    # connection that neither plays nor waits is closed after CONFIG.idle_timeout, which a B connected
    # beside A would meet when A's wait took longer (under load).
    a = await Auditor.join(url)
    assert (await a.ask(type="queue", variant="coinche", target=1000, name="Ana"))["type"] == "waiting"
    await a.recv("no_opponent", timeout=3)
    b = await Auditor.join(url)
    await b.send(type="queue", variant="coinche", target=1000, name="Bob")
    await a.recv("start")
    await b.recv("start")
    a, b = (a, b) if a.seat == 0 else (b, a)
    [table] = referee.tables
    tokens = {0: a.token, 1: b.token}  # the referee keeps only their hashes
    await a.tour_seated()
    ra, rb = random.Random(1), random.Random(2)
    await asyncio.gather(a.play(ra, until=lambda p: p.state["seq"] >= 20), b.play(rb, until=lambda p: p.state["seq"] >= 20))
    await a.close()  # dropped: B hears "away", then "back"
    back = await Auditor.join(url)
    assert (await back.ask(type="resume", token=tokens[0]))["type"] == "resumed"
    again = await Auditor.join(url)  # a second connection takes the seat over: the first is superseded
    assert (await again.ask(type="resume", token=tokens[0]))["type"] == "resumed"
    await back.recv("error")
    until = dict(until=lambda p: p.state["seq"] >= 60)
    await asyncio.gather(again.play(ra, **until), b.play(rb, **until))
    assert (await b.ask(type="leave"))["type"] == "left"  # gone for good: a bot plays seat 1
    await b.refused("not_seated", type="act", action="pass")
    await again.play(ra)
    assert table.session.humans == (0,) and table.session.match.is_over
    matches.append((table.session.snapshot(), tokens))
    logs += [("coinche", 0, a.log + back.log + again.log, 0), ("coinche", 1, b.log, 0)]
    await again.close()
    await b.close()

    # A classic match by private code: B drops and never comes back.
    a = await Auditor.join(url)
    code = (await a.ask(type="create", variant="classic", target=1000))["code"]
    b = await Auditor.join(url)
    await b.send(type="join", code=code.lower())
    await a.recv("start")
    await b.recv("start")
    [table] = [t for t in referee.tables if t.code == code]
    tokens = {a.seat: a.token, b.seat: b.token}
    await b.tour_seated()
    ra, rb = random.Random(3), random.Random(4)
    until = dict(until=lambda p: p.state["seq"] >= 30)
    await asyncio.gather(a.play(ra, **until), b.play(rb, **until))
    await b.close()
    await a.recv("opponent")
    while (await a.recv("opponent", timeout=3))["status"] != "replaced":
        pass
    await a.play(ra)
    assert table.session.humans == (0,) and table.session.match.is_over
    matches.append((table.session.snapshot(), tokens))
    logs += [("classic", 0, a.log, 1), ("classic", 1, b.log, 1)]
    await a.close()

    for scenario in (four_friends, two_friends, three_friends, friends_at_house_rules):
        table, people = await scenario(url, referee)
        matches.append((table.session.snapshot(), dict(table.tokens)))
        logs += [(f"{scenario.__name__}", seat, log, len(matches) - 1) for seat, log in people]

    # a public table of four: two strangers seek it, the second at once (bots in the empty seats); both leave
    pia, quin = await Auditor.join(url), await Auditor.join(url)
    assert (await pia.ask(type="seek", preset="classic", wait=60, name="Pia"))["type"] == "seeking"
    assert (await quin.ask(type="seek", preset="classic", wait=0))["type"] == "seeking"
    await pia.recv("start")
    await quin.recv("start")
    table = next(t for t in referee.tables if t.kind == "public")
    tokens = {pia.seat: pia.token, quin.seat: quin.token}
    for p in (pia, quin):
        assert (await p.ask(type="leave"))["type"] == "left"
        await p.close()
    matches.append((table.session.snapshot(), tokens))
    logs += [("public", pia.seat, pia.log, len(matches) - 1), ("public", quin.seat, quin.log, len(matches) - 1)]

    strangers = await stranger_tour(url, code)
    strangers.append(await alone_in_a_lobby(url))
    for entry in [e for e in logs if e[1] == -1]:  # the friends' tables' visitors without a seat
        logs.remove(entry)
        strangers.append(entry[2])
    return {"logs": logs, "matches": matches, "strangers": strangers}


# ---------------------------------------------------------------- friends' tables

async def open_friends(url: str, names: list[str], variant: str = "coinche",
                       rules: str | None = None, clock: str | None = None) -> tuple[list[Auditor], str]:
    """The first name opens a friends' table (to 501, easy bots, ``rules`` and ``clock`` if given), the others
    join in the first free seats."""
    host = await Auditor.join(url)
    settings = {"variant": variant, "target": 501, "level": "easy", **({"rules": rules} if rules else {}),
                **({"clock": clock} if clock else {})}
    opened = await host.ask(type="open", settings=settings, name=names[0])
    people = [host]
    for name in names[1:]:
        person = await Auditor.join(url)
        assert (await person.ask(type="join", code=opened["code"], name=name, lobby=True))["type"] == "lobby"
        people.append(person)
    return people, opened["code"]


async def begin(host: Auditor, others: list[Auditor]) -> None:
    assert (await host.ask(type="begin"))["type"] == "start"
    for person in others:
        await person.recv("start")


def the_table(referee: Referee, code: str) -> Table:
    return next(t for t in referee.tables if t.code == code)


async def four_friends(url: str, referee: Referee):
    """Four people: refusals in the lobby, seats freed, moved and taken again, a drop resumed there; in
    the match a drop resumed and a person replaced by a bot who takes the seat back with their token."""
    (ana, bob, cy, di), code = await open_friends(url, ["Ana", "Bob", "Cy", "Di"])
    old = await Auditor.join(url)
    await old.refused("update_page", type="join", code=code)
    await old.close()
    fifth = await Auditor.join(url)
    await fifth.refused("table_full", type="join", code=code, lobby=True)
    await fifth.close()
    await bob.refused("seat_taken", type="sit", seat=0)
    await bob.refused("not_host", type="begin")
    await bob.refused("not_started", type="act", action="pass")
    assert (await bob.ask(type="state"))["type"] == "lobby"
    assert (await di.ask(type="leave"))["type"] == "left"  # seat 3 frees
    assert (await cy.ask(type="sit", seat=3))["seat"] == 3  # seat 2 frees
    di = await Auditor.join(url)
    assert (await di.ask(type="join", code=code, name="Di", lobby=True))["seat"] == 2
    bob_token = bob.token
    await bob.close()  # a drop in the lobby: the seat waits for its grace period
    bob_again = await Auditor.join(url)
    assert (await bob_again.ask(type="resume", token=bob_token))["type"] == "lobby"
    await begin(ana, [bob_again, cy, di])
    table = the_table(referee, code)
    assert table.session.humans == (0, 1, 2, 3)
    rngs = [random.Random(20 + i) for i in range(4)]
    seats = [ana, bob_again, di, cy]  # by seat
    until = dict(until=lambda p: p.state["seq"] >= 20)
    await asyncio.gather(*(p.play(r, **until) for p, r in zip(seats, rngs)))
    await cy.close()  # seat 3 drops and comes back
    cy_again = await Auditor.join(url)
    assert (await cy_again.ask(type="resume", token=cy.token))["type"] == "resumed"
    await bob_again.refused("not_in_lobby", type="sit", seat=2)
    di_token = di.token
    assert (await di.ask(type="leave"))["type"] == "left"  # seat 2: a bot at once
    until = dict(until=lambda p: p.state["seq"] >= 40)
    seats = [ana, bob_again, cy_again]
    await asyncio.gather(*(p.play(r, **until) for p, r in zip(seats, rngs)))
    late = await Auditor.join(url)
    await late.refused("match_started", type="join", code=code, lobby=True)
    await late.close()
    di_back = await Auditor.join(url)
    assert (await di_back.ask(type="resume", token=di_token))["type"] == "resumed"
    assert table.session.humans == (0, 1, 2, 3)
    await asyncio.gather(*(p.play(r) for p, r in zip([ana, bob_again, di_back, cy_again], rngs)))
    assert table.session.match.is_over
    people = [(0, ana.log), (1, bob.log + bob_again.log), (2, di.log + di_back.log), (3, cy.log + cy_again.log)]
    strangers = [old.log, fifth.log, late.log]
    for p in (ana, bob_again, di_back, cy_again, old, fifth, late):
        await p.close()
    return table, people + [(-1, log) for log in strangers]


async def two_friends(url: str, referee: Referee):
    """Two partners against two bots (classic, the ``fast`` clock).  Bob idles: the clock plays his
    decision (his late act refused), then again, and a bot takes his seat; he takes it back with his token.
    Later he drops and never comes back."""
    (ana, bob), code = await open_friends(url, ["Ana", "Bob"], variant="classic", clock="fast")
    assert (await bob.ask(type="sit", seat=2))["seat"] == 2
    await begin(ana, [bob])
    table = the_table(referee, code)
    ra, rb = random.Random(30), random.Random(31)

    async def idle() -> None:
        played = await bob.recv("clock", timeout=10)
        assert (played["status"], played["strikes"], played["limit"]) == ("played", 1, 2)
        update = next(m for m in reversed(bob.log) if m["type"] == "update")
        assert update["event"]["timeout"] is True and update["event"]["seat"] == 2
        late = await bob.refused("too_late", type="act", action="pass", seq=update["state"]["seq"] - 1)
        assert late["error"]["params"] == {"seq": update["state"]["seq"] - 1}
        assert (await bob.recv("clock", timeout=10))["status"] == "replaced"

    await asyncio.gather(ana.play(ra, until=lambda p: 2 not in table.session.humans), idle())
    await bob.refused("not_seated", type="act", action="pass")
    assert (await bob.ask(type="resume", token=bob.token))["type"] == "resumed"
    until = dict(until=lambda p: p.state["seq"] >= 20)
    await asyncio.gather(ana.play(ra, **until), bob.play(rb, **until))
    await bob.close()
    while (await ana.recv("presence", timeout=3))["status"] != "replaced":
        pass
    await ana.play(ra)
    assert table.session.humans == (0,) and table.session.match.is_over
    await ana.close()
    return table, [(0, ana.log), (2, bob.log)]


async def three_friends(url: str, referee: Referee):
    """Three people; the host leaves the lobby (the host passes on) and comes back as a newcomer."""
    (ana, bob, cy), code = await open_friends(url, ["Ana", "Bob", "Cy"])
    assert (await ana.ask(type="cancel"))["type"] == "cancelled"  # seat 0 frees; Bob (seat 1) is host
    ana = await Auditor.join(url)
    assert (await ana.ask(type="join", code=code, name="Ana", lobby=True))["seat"] == 0
    await begin(bob, [ana, cy])
    table = the_table(referee, code)
    rngs = [random.Random(40 + i) for i in range(3)]
    await asyncio.gather(*(p.play(r) for p, r in zip([ana, bob, cy], rngs)))
    assert table.session.humans == (0, 1, 2) and table.session.match.is_over
    for p in (ana, bob, cy):
        await p.close()
    return table, [(0, ana.log), (1, bob.log), (2, cy.log)]


async def friends_at_house_rules(url: str, referee: Referee):
    """Three people at a table of ``HOUSE_RULES``, a bot in seat 3: no trumps and all trumps bid and played,
    announcements declared (all, some or none) by the people and the bot; one drops in a first trick and
    resumes there."""
    (eve, fay, gus), code = await open_friends(url, ["Eve", "Fay", "Gus"], rules=HOUSE_RULES)
    await begin(eve, [fay, gus])
    table = the_table(referee, code)
    sam = await Auditor.join(url)  # a spectator from the first call to the end: no hand, no card held
    assert (await sam.ask(type="watch", code=code))["type"] == "watching"
    await sam.refused("spectator", type="act", action="pass")
    assert (await eve.ask(type="say", phrase="good_luck"))["type"] == "said"  # quick chat: to Sam too
    rngs = [random.Random(67 + i) for i in range(3)]
    until = dict(until=lambda p: not p.state["deal"]["tricks"] and len(p.state["deal"]["trick"]) == 2)
    await asyncio.gather(*(p.play(r, **until) for p, r in zip([eve, fay, gus], rngs)))
    await gus.close()
    gus_again = await Auditor.join(url)
    assert (await gus_again.ask(type="resume", token=gus.token))["type"] == "resumed"
    await asyncio.gather(*(p.play(r) for p, r in zip([eve, fay, gus_again], rngs)))
    assert table.session.humans == (0, 1, 2) and table.session.match.is_over
    while sam.state["winner"] is None:
        await sam.recv("update", timeout=10)
    for p in (eve, fay, gus_again, sam):
        await p.close()
    return table, [(0, eve.log), (1, fay.log), (2, gus.log + gus_again.log), (SPECTATOR, sam.log)]


async def alone_in_a_lobby(url: str) -> list[dict]:
    """A host alone cannot start; the lobby then expires.  Its table plays house rules, after two refused."""
    host = await Auditor.join(url)
    await host.refused("unknown_rule_option", type="open", settings={"rules": "pisser=yes"})
    await host.refused("bad_rule_value", type="open", settings={"rules": "round=6up"})
    await host.ask(type="open", settings={"rules": "undertrump=yes"})
    await host.refused("too_few_players", type="begin")
    await host.recv("expired", timeout=3)
    await host.close()
    return host.log


def recorded(referee_class=SeededReferee, seeds=SEEDS, redis: str | None = None) -> dict[str, Any]:
    """The whole recording; ``redis``: on a referee that stores its tables there (tests/test_referee_cluster.py)."""
    class Recording(referee_class):
        pass

    Recording.seeds = list(seeds)

    async def main():
        async with running(CONFIG, referee_class=Recording, redis=redis) as served:
            return await asyncio.wait_for(record(f"ws://127.0.0.1:{served.port}", served.referee), 600)

    return asyncio.run(main())


@pytest.fixture(scope="module")
def corpus():
    return recorded()


# ---------------------------------------------------------------- (a) cards, tokens, the seed

def own_tokens(log: list[dict]) -> set[str]:
    """The tokens a person was given (in their own lobby, start and resumed messages)."""
    return {m["token"] for m in log if isinstance(m.get("token"), str)}


def card_leaks(corpus: dict[str, Any]) -> list[str]:
    """Cards another seat holds, another person's token, the match seed: wherever they appear."""
    leaks = []
    logs = corpus["logs"]
    for label, seat, log, index in logs:
        snapshot, tokens = corpus["matches"][index]
        leaks += [f"{label}: {leak}" for leak in find_leaks({seat: log}, snapshot)]
        others = {t for s, t in tokens.items() if s != seat}
        for other_label, other_seat, other_log, other_index in logs:
            if other_log is not log:
                others |= own_tokens(other_log)
        others -= own_tokens(log)
        leaks += [f"{label} seat {seat}: another person's token in {m['type']}"
                  for m in log if any(token in json.dumps(m) for token in others)]
    for log in corpus["strangers"]:
        for m in log:
            leaks += [f"stranger: {card} in {m['type']}" for card in CARD.findall(json.dumps(m))]
    return leaks


def test_a_no_hidden_card_no_token_no_seed_in_any_message(corpus):
    assert card_leaks(corpus) == []
    assert sum(len(log) for _, _, log, _ in corpus["logs"]) > 500
    humans = [len(snapshot["settings"]["humans"]) for snapshot, _ in corpus["matches"]]
    assert {len({s for _, s, _, i in corpus["logs"] if i == k}) for k in range(len(humans))} == {2, 3, 4}


def test_a_the_house_rules_match_shows_announced_cards_still_held(corpus):
    """What (a) met at the table of ``HOUSE_RULES``: contracts of no trumps and all trumps, announcements
    declared by people and by the bot, one of them declaring one of the two it held, and announced cards the
    others were shown while still held."""
    [snapshot] = [snapshot for snapshot, _ in corpus["matches"] if plays_announcements(snapshot)]
    shown: dict[int, set[str]] = {}  # by seq: the cards of others' announcements a person was shown
    for _, seat, log, index in corpus["logs"]:
        if corpus["matches"][index][0] is snapshot:
            for message in log:
                if "state" in message:
                    shown.setdefault(message["state"]["seq"], set()).update(
                        card for entry in message["state"]["deal"]["declared"] if entry["seat"] != seat
                        for card in entry["cards"])
    match = Match(settings_rules(snapshot["settings"]), seed=snapshot["settings"]["seed"])
    declared_by, partly, held_then = set(), False, 0
    for seq, action in enumerate(snapshot["actions"], 1):
        if action.startswith("announce:") and action != "announce:":
            declared_by.add(match.deal.turn)
            partly |= action.count(",") + 1 < len(held(match.deal.hands[match.deal.turn]))
        match.apply(action)
        held_then += bool(shown.get(seq, set()) & {str(c) for hand in match.deal.hands for c in cards_of(hand)})
    assert {r["result"]["contract"]["trump"] for r in match.history} >= {"sa", "ta"}
    assert 3 in declared_by and declared_by - {3} and partly and held_then


# ---------------------------------------------------------------- (b) numbers as seeds

def values(message: Any) -> Iterator[Any]:
    """Every key and scalar value, nested."""
    if isinstance(message, dict):
        for key, value in message.items():
            yield key
            yield from values(value)
    elif isinstance(message, list):
        for value in message:
            yield from values(value)
    else:
        yield message


def candidates(logs) -> tuple[set[int], set[str]]:
    """The numbers (numbers, numeric strings, digit runs in texts) and the texts of every message."""
    numbers, texts = set(), set()
    for log in logs:
        for message in log:
            for value in values(message):
                if isinstance(value, bool) or value is None:
                    continue
                if isinstance(value, (int, float)):
                    if float(value).is_integer():
                        numbers.add(int(value))
                    continue
                texts.add(value)
                numbers.update(int(run) for run in re.findall(r"\d+", value))
                try:
                    numbers.add(int(value, 16))
                except ValueError:
                    pass
    return numbers, texts


def seed_leaks(corpus: dict[str, Any]) -> list[str]:
    """Every candidate that, as a deal seed or a match seed, re-deals a hand of a recorded match."""
    leaks = []
    all_logs = [log for _, _, log, _ in corpus["logs"]] + corpus["strangers"]
    numbers, texts = candidates(all_logs)
    for snapshot, _ in corpus["matches"]:
        settings = snapshot["settings"]
        rules = settings_rules(settings)
        match = Match(rules, seed=settings["seed"])
        for action in snapshot["actions"]:
            match.apply(action)
        deals = match.deal_index + (0 if match.is_over else 1)
        # a deal as its four hands, whoever holds which (a seed re-deals all four: a classic deal's 5-card
        # hands alone would meet by chance among thousands of candidates)
        dealt = {frozenset(Deal.new(rules.variant, i & 3, match.deal_seed(i)).hands) for i in range(deals)}

        def redeals(deal_seed: int) -> bool:
            return any(frozenset(Deal.new(rules.variant, dealer, deal_seed).hands) in dealt for dealer in range(4))

        for n in numbers:
            if redeals(n):
                leaks.append(f"{n} is a deal seed")
        for seed in [*numbers, *texts]:
            as_match = Match(rules, seed=seed)
            if any(redeals(as_match.deal_seed(i)) for i in range(deals)):
                leaks.append(f"{seed!r} is the match seed")
    return leaks


def test_b_no_number_of_any_message_re_deals_a_hand(corpus):
    numbers, texts = candidates([log for _, _, log, _ in corpus["logs"]])
    assert len(numbers) > 50 and len(texts) > 50  # the check has something to chew on
    assert seed_leaks(corpus) == []


# ---------------------------------------------------------------- (c) the field paths

def paths(value: Any, prefix: str = "") -> Iterator[str]:
    """``a.b``, ``a.list[].c`` and, for maps keyed by data (a card), ``a.*.c``."""
    if isinstance(value, dict):
        data_keys = prefix.endswith("forbidden")
        for key, inner in value.items():
            path = f"{prefix}.{'*' if data_keys else key}" if prefix else key
            yield path
            yield from paths(inner, path)
    elif isinstance(value, list):
        for inner in value:
            yield from paths(inner, prefix + "[]")


def seen_paths(logs) -> dict[str, set[str]]:
    """Per message type, the paths seen; a ``state`` object's own paths, whatever message carried it,
    under ``(state)``."""
    seen: dict[str, set[str]] = {}
    for log in logs:
        for message in log:
            for path in paths(message):
                if path.startswith("state."):
                    seen.setdefault("(state)", set()).add(path[len("state."):])
                elif path != "type":
                    seen.setdefault(message["type"], set()).add(path)
    return seen


def documented_paths(text: str) -> dict[str, set[str]]:
    """The table "Every field" of PROTOCOL.md: one row per message type, and the row ``(state)`` for
    the state object that start, update, resumed and state carry."""
    section = text.split("## Every field", 1)[1].split("\n## ", 1)[0]
    return {kind: set(re.findall(r"`([^`]+)`", cells))
            for kind, cells in re.findall(r"^\| `([^`]+)` \| (.+) \|$", section, re.M)}


def plays_announcements(snapshot: dict[str, Any]) -> bool:
    return settings_rules(snapshot["settings"]).announce


def field_mismatches(corpus: dict[str, Any]) -> list[str]:
    """The field paths sent but not documented, documented but never seen, and those of ``HOUSE_ROWS`` sent
    at a table of the game's own rules (``server`` apart: only a referee with a durable store sends it)."""
    documented = documented_paths(PROTOCOL_MD.read_text())
    own = {kind: fields for kind, fields in documented.items() if kind not in DURABLE_ONLY and kind not in HOUSE_ROWS}
    house = {kind: set(fields) for kind, fields in own.items()}
    for row, base in HOUSE_ROWS.items():
        house[base] |= documented[row] - {base}
    own_logs, house_logs = [*corpus["strangers"]], []
    for _, _, log, index in corpus["logs"]:
        (house_logs if plays_announcements(corpus["matches"][index][0]) else own_logs).append(log)
    seen_own, seen_house = seen_paths(own_logs), seen_paths(house_logs)
    mismatches = []
    for kind in sorted(set(house) | set(seen_own) | set(seen_house)):
        seen = seen_own.get(kind, set()) | seen_house.get(kind, set())
        mismatches += [f"{kind}: {path} sent but not documented" for path in sorted(seen - house.get(kind, set()))]
        mismatches += [f"{kind}: {path} documented but never seen" for path in sorted(house.get(kind, set()) - seen)]
        mismatches += [f"{kind}: {path} sent at a table of the game's own rules"
                       for path in sorted(seen_own.get(kind, set()) & house.get(kind, set()) - own.get(kind, set()))]
    return mismatches


def test_c_the_fields_seen_are_exactly_those_protocol_md_documents(corpus):
    assert field_mismatches(corpus) == []


def test_the_paths_and_the_table_reader():
    assert sorted(paths({"a": [{"b": 1}], "forbidden": {"Jh": {"k": 1}}, "c": [1, 2]})) == [
        "a", "a[].b", "c", "forbidden", "forbidden.*", "forbidden.*.k"]
    text = "## Every field\n\n| `(state)` | `seq` |\n| `state` | `id`, `state` |\n| `pong` | `id` |\n\n## Next\n| `x` | `y` |"
    assert documented_paths(text) == {"(state)": {"seq"}, "state": {"id", "state"}, "pong": {"id"}}
    assert seen_paths([[{"type": "state", "id": 1, "state": {"seq": 2}}]]) == {"state": {"id", "state"},
                                                                              "(state)": {"seq"}}


# ---------------------------------------------------------------- planted leaks: each check fires

class PeekingTable(Table):
    """(a): the next seat's hand, in a nested field of the state."""

    def state_for(self, seat):
        state = super().state_for(seat)
        state["peek"] = {"hand": [str(c) for c in self.session.match.deal.view((seat + 1) % 4).hand]}
        return state


class SeedingTable(Table):
    """(b): the current deal's seed, as the engine's state once sent it."""

    def state_for(self, seat):
        state = super().state_for(seat)
        match = self.session.match
        state["deal_seed"] = str(match.deal_seed(match.deal_index))
        return state


class SettingsTable(Table):
    """(b): the match seed, in a field of the settings (where the engine keeps it)."""

    def state_for(self, seat):
        state = super().state_for(seat)
        state["settings"]["seed"] = self.session.settings["seed"]
        return state


class ChattyTable(Table):
    """(c): an innocent field PROTOCOL.md does not list."""

    def state_for(self, seat):
        state = super().state_for(seat)
        state["debug"] = {"tables": 1}
        return state


class WhisperingReferee(SeededReferee):
    """(a) in an error text: the refusal mentions a card of the next seat."""

    def _error(self, client, error, rid=None):
        table = client.table
        if table is not None and table.session is not None and table.session.match.deal.phase.name != "OVER":
            hand = table.session.match.deal.view((client.seat + 1) % 4).hand
            if hand:
                error.english = lambda text=f"refused ({hand[0]} is with your left)": text
        super()._error(client, error, rid)


class TellingTable(Table):
    """(a) in the lobby: every person's token shown with their name."""

    def public_seats(self):
        seats = super().public_seats()
        for seat, entry in zip(self.seats, seats):
            if seat.token is not None:
                entry["name"] = f"{entry['name']} {seat.token}"
        return seats


class EarlyTable(Table):
    """(a) at a table of announcements: every declared announcement, cards and all, to every seat before the
    first trick is over."""

    def state_for(self, seat):
        state = super().state_for(seat)
        deal = self.session.match.deal
        if not deal.tricks:
            state["deal"]["declared"] = [announcement_json(s, a) for s, a in deal.declared]
        return state


class OneCardMoreTable(Table):
    """(a) at a table of announcements: beside each announcement's cards, the next card its declarer holds."""

    def state_for(self, seat):
        state = super().state_for(seat)
        hands = self.session.match.deal.hands
        for entry in state["deal"]["declared"]:
            entry["cards"] += [str(c) for c in cards_of(hands[entry["seat"]]) if str(c) not in entry["cards"]][:1]
        return state


async def planted_queue(url, referee):
    """A 1v1 table from the queue: an auction and a few tricks, a refusal."""
    a = await Auditor.join(url)
    await a.ask(type="queue", target=501)
    b = await Auditor.join(url)
    await b.send(type="queue", target=501)
    await a.recv("start")
    await b.recv("start")
    a, b = (a, b) if a.seat == 0 else (b, a)
    [table] = referee.tables
    until = dict(until=lambda p: p.state["seq"] >= 16)
    await asyncio.gather(a.play(random.Random(5), **until), b.play(random.Random(6), **until))
    await a.refused("unknown_type", type="dance")
    return {"logs": [("coinche", 0, a.log, 0), ("coinche", 1, b.log, 0)],
            "matches": [(table.session.snapshot(), dict(table.tokens))], "strangers": []}


async def planted_friends(url, referee):
    """A friends' table of four: its lobby, an auction and a few tricks, a refusal."""
    people, code = await open_friends(url, ["Ana", "Bob", "Cy", "Di"])
    await begin(people[0], people[1:])
    table = the_table(referee, code)
    until = dict(until=lambda p: p.state["seq"] >= 16)
    await asyncio.gather(*(p.play(random.Random(50 + i), **until) for i, p in enumerate(people)))
    await people[1].refused("unknown_type", type="dance")
    return {"logs": [("friends", p.seat, p.log, 0) for p in people],
            "matches": [(table.session.snapshot(), dict(table.tokens))], "strangers": []}


async def planted_house(url, referee):
    """A friends' table of two people and two bots at ``HOUSE_RULES``: a deal's auction, announcements
    declared and two tricks."""
    people, code = await open_friends(url, ["Ana", "Bob"], rules=HOUSE_RULES)
    await begin(people[0], people[1:])
    table = the_table(referee, code)
    until = dict(until=lambda p: len(p.state["deal"]["tricks"]) >= 2)
    await asyncio.gather(*(p.play(random.Random(70 + i), **until) for i, p in enumerate(people)))
    return {"logs": [("house", p.seat, p.log, 0) for p in people],
            "matches": [(table.session.snapshot(), dict(table.tokens))], "strangers": []}


def planted(table_class=Table, referee_class=SeededReferee, scenario=planted_queue) -> dict[str, Any]:
    """A short recording from a referee double (``scenario``: at a 1v1 table, a friends' table, a friends'
    table of house rules)."""

    class Double(referee_class):
        pass

    Double.table_class = table_class
    Double.seeds = ["plant"]

    async def main():
        async with running(CONFIG, referee_class=Double) as served:
            return await asyncio.wait_for(scenario(f"ws://127.0.0.1:{served.port}", served.referee), 120)

    return asyncio.run(main())


SCENARIOS = pytest.mark.parametrize("scenario", [planted_queue, planted_friends], ids=["1v1", "friends"])


@SCENARIOS
def test_a_fires_on_a_hand_in_a_nested_field_and_on_a_card_in_an_error_text(scenario):
    assert any("in update" in leak or "in start" in leak for leak in card_leaks(planted(PeekingTable, scenario=scenario)))
    whispered = card_leaks(planted(referee_class=WhisperingReferee, scenario=scenario))
    assert any("in error" in leak for leak in whispered)


def test_a_fires_on_another_persons_token_in_the_lobby():
    told = card_leaks(planted(TellingTable, scenario=planted_friends))
    assert any("another person's token in lobby" in leak for leak in told)
    assert card_leaks(planted(scenario=planted_friends)) == []


@SCENARIOS
def test_b_fires_on_the_deal_seed_and_c_on_a_field_nobody_documented(scenario):
    seeded = planted(SeedingTable, scenario=scenario)
    assert any("is a deal seed" in leak for leak in seed_leaks(seeded))
    assert card_leaks(seeded) == []  # a seed shows no card: only (b) sees it
    settings_leak = planted(SettingsTable, scenario=scenario)
    assert "'plant' is the match seed" in seed_leaks(settings_leak)
    documented = documented_paths(PROTOCOL_MD.read_text())
    chatty = seen_paths([log for _, _, log, _ in planted(ChattyTable, scenario=scenario)["logs"]])
    assert "debug.tables" in chatty["(state)"] - documented["(state)"]
    clean = seen_paths([log for _, _, log, _ in planted(scenario=scenario)["logs"]])
    assert all(clean[kind] <= documented[kind] for kind in clean)


def announced(snapshot: dict[str, Any]) -> set[str]:
    """The cards of every announcement declared in a recorded match."""
    match = Match(settings_rules(snapshot["settings"]), seed=snapshot["settings"]["seed"])
    cards = set()
    for action in snapshot["actions"]:
        match.apply(action)
        cards.update(str(card) for _, announcement in match.deal.declared for card in announcement.cards)
    return cards


def test_a_fires_on_announced_cards_before_the_first_trick_is_over_and_on_a_card_more_after_it():
    """(i) the others' announcements, cards and all, before the first trick is over: those cards are named;
    (ii) a card beside each announcement after it: only cards that nobody announced are named."""
    clean = planted(scenario=planted_house)
    assert card_leaks(clean) == []
    early = planted(EarlyTable, scenario=planted_house)
    shown = announced(early["matches"][0][0])
    leaked = {card for leak in card_leaks(early) for card in CARD.findall(leak)}
    assert leaked and leaked <= shown  # the other seats' announced cards, which they still held
    more = planted(OneCardMoreTable, scenario=planted_house)
    leaked = {card for leak in card_leaks(more) for card in CARD.findall(leak)}
    assert leaked and not leaked & announced(more["matches"][0][0])
