"""Spectators at a friends' table (referee/PROTOCOL.md, "Spectators"): watched by its code, a match is seen
as every seat sees it and no more (no hand, no legal action, no seed, no token: the leak checker with every
hand hidden, shown to fire on a planted leak); a spectator cannot act, take a seat or go elsewhere before
``leave``; the creator may forbid watching; and every refusal changes nothing."""

from __future__ import annotations

import asyncio
import random

from coinche_referee.referee import Config, Referee
from coinche_referee.table import Table
from test_referee_helpers import SPECTATOR, Player, find_leaks, serve

FAST = Config(bot_delay=0, level="easy", lobby_timeout=5, grace=5, rate=1000, burst=1000)


async def two_friends(url: str, settings: dict | None = None) -> tuple[Player, Player, str]:
    ana = await Player.join(url)
    opened = await ana.ask(type="open", settings={"target": 501, **(settings or {})}, name="Ana")
    bob = await Player.join(url)
    assert (await bob.ask(type="join", code=opened["code"], name="Bob", lobby=True))["type"] == "lobby"
    return ana, bob, opened["code"]


async def begin(ana: Player, bob: Player) -> None:
    assert (await ana.ask(type="begin"))["type"] == "start"
    await bob.recv("start")


def watched_match(table_class=Table, until=None):
    """A friends' table of two played whole (or ``until(player)``), watched from its start by Sam; what
    everyone was sent."""
    class Watched(Referee):
        pass

    Watched.table_class = table_class

    async def scenario(url, referee):
        ana, bob, code = await two_friends(url)
        sam = await Player.join(url)
        early = await sam.ask(type="watch", code=code)
        assert early["error"]["key"] == "not_started"
        await begin(ana, bob)
        watching = await sam.ask(type="watch", code=code.lower())
        [table] = referee.tables
        await asyncio.gather(ana.play(random.Random(1), until), bob.play(random.Random(2), until))
        while sam.state["seq"] < len(table.session.actions):
            await sam.recv("update", timeout=10)
        await ana.close(), await bob.close()
        return watching, sam, {0: ana.log, 1: bob.log, SPECTATOR: sam.log}, table.session.snapshot(), referee

    from coinche_referee.server import running

    async def main():
        async with running(FAST, referee_class=Watched) as served:
            return await asyncio.wait_for(scenario(f"ws://127.0.0.1:{served.port}", served.referee), 180)

    return asyncio.run(main())


def test_a_spectator_sees_the_match_as_every_seat_does_and_nothing_more():
    # the first deal and its end (its record shows the hands once played); a whole match: the audit's
    watching, sam, logs, snapshot, _ = watched_match(until=lambda p: p.state["deal_index"] >= 1)
    assert watching["type"] == "watching" and watching["names"] == ["Ana", "Bob", None, None]
    assert [s["player"] for s in watching["seats"]] == ["human", "human", "bot", "bot"]
    deal = watching["state"]["deal"]
    assert deal["seat"] is None and deal["hand"] == [] and deal["legal"] == [] and "ruling" not in deal
    assert sum(deal["hand_counts"]) == 32 and watching["state"]["clock"]["seat"] == deal["current_player"]
    assert "token" not in watching and "seat" not in watching
    updates = [m for m in sam.log if m["type"] == "update"]
    assert len(updates) == len(snapshot["actions"]) and sam.state["deal_index"] == 1
    assert any("deal_end" in m["event"] for m in updates)
    assert all("id" not in m for m in updates)
    assert find_leaks(logs, snapshot) == []


class PeekingSpectatorTable(Table):
    """A planted leak: the spectator is shown seat 0's hand."""

    def spectator_state(self):
        state = super().spectator_state()
        state["deal"]["hand"] = [str(c) for c in self.session.match.deal.view(0).hand]
        return state


def test_the_leak_check_fires_on_a_hand_shown_to_a_spectator():
    _, _, logs, snapshot, _ = watched_match(PeekingSpectatorTable, until=lambda p: p.state["seq"] >= 8)
    leaks = find_leaks({SPECTATOR: logs[SPECTATOR]}, snapshot)
    assert any("in watching" in leak for leak in leaks) and any("in update" in leak for leak in leaks)
    assert find_leaks({0: logs[0], 1: logs[1]}, snapshot) == []  # the players' own messages are as before


def test_a_spectator_cannot_act_sit_or_go_elsewhere_and_the_creator_may_forbid_watching():
    async def scenario(url, referee):
        ana, bob, code = await two_friends(url)
        await begin(ana, bob)
        [table] = referee.tables
        sam = await Player.join(url)
        assert (await sam.ask(type="watch", code=code))["type"] == "watching"
        before = referee.describe()
        for request in ({"type": "act", "action": "pass"}, {"type": "sit", "seat": 2}, {"type": "begin"},
                        {"type": "join", "code": code, "lobby": True}, {"type": "resume", "token": "x" * 24},
                        {"type": "queue"}, {"type": "open"}, {"type": "watch", "code": code}):
            assert (await sam.ask(**request))["error"]["key"] == "spectator", request
        assert referee.describe() == before
        assert (await sam.ask(type="state"))["state"]["deal"]["hand"] == []
        assert (await sam.ask(type="leave"))["type"] == "left"
        assert not table.watchers
        assert (await sam.ask(type="act", action="pass"))["error"]["key"] == "not_seated"

        cy, di, closed = await two_friends(url, {"spectators": False})
        assert (await cy.ask(type="begin"))["type"] == "start"
        refused = await sam.ask(type="watch", code=closed)
        assert refused["error"]["key"] == "no_spectators" and refused["error"]["params"] == {"code": closed}
        private = (await (await Player.join(url)).ask(type="create"))["code"]
        assert (await sam.ask(type="watch", code=private))["error"]["key"] == "no_such_table"
        assert (await sam.ask(type="watch", code="ZZZZZZ"))["error"]["key"] == "no_such_table"
        assert (await sam.ask(type="watch"))["error"]["key"] == "bad_message"

    serve(scenario, FAST, timeout=60)
