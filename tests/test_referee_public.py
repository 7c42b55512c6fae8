"""Public tables of four (referee/PROTOCOL.md, "Public tables of four"): four strangers seeking the same preset
sit together at once, in the order they came; someone whose wait is over sits with whoever waits, bots in the
other seats (``wait`` 0: at once); a cancelled seeker is out of the queue; an unknown preset, a second seek and
a bad wait are refused and change nothing.  (Across processes on Redis: tests/test_referee_cluster.py.)"""

from __future__ import annotations

import asyncio

from coinche_referee.referee import Config
from test_referee_helpers import Player, serve

FAST = Config(bot_delay=0, level="easy", lobby_timeout=5, grace=5, rate=1000, burst=1000)


def test_four_strangers_sit_together_in_the_order_they_came():
    async def scenario(url, referee):
        people = [await Player.join(url) for _ in range(5)]
        for k, p in enumerate(people[:4]):
            reply = await p.ask(type="seek", preset="german", wait=60, name=f"P{k}")
            assert reply["type"] in ("seeking", "start"), reply
            if k < 3:
                assert reply == {"type": "seeking", "id": p.rid, "preset": "german", "wait": 60, "variant": "coinche",
                                 "target": 2000}
        for p in people[:4]:
            if p.state is None:
                await p.recv("start")
        assert [p.seat for p in people[:4]] == [0, 1, 2, 3]
        [table] = referee.tables
        assert table.kind == "public" and table.session.humans == (0, 1, 2, 3)
        start = next(m for m in people[0].log if m["type"] == "start")
        assert start["names"] == ["P0", "P1", "P2", "P3"] and start["code"] is None
        assert start["state"]["rules"] == "de-2000" and start["state"]["target"] == 2000
        assert not referee.seekers  # nobody waits any more
        late = await people[4].ask(type="seek", preset="german", wait=60)
        assert late["type"] == "seeking" and [len(q) for q in referee.seekers.values()] == [1]
        assert (await people[4].ask(type="cancel"))["type"] == "cancelled" and not referee.seekers

    serve(scenario, FAST, timeout=60)


def test_a_wait_over_seats_whoever_waits_with_bots_and_refusals_change_nothing():
    async def scenario(url, referee):
        ana, bob, cy = [await Player.join(url) for _ in range(3)]
        before = referee.describe()
        for request, key in (({"preset": "bridge"}, "unknown_preset"), ({"preset": "coinche", "wait": -1}, "bad_message"),
                             ({"preset": "coinche", "wait": 301}, "bad_message"), ({}, "bad_message")):
            assert (await ana.ask(type="seek", **request))["error"]["key"] == key, request
        assert referee.describe() == before
        assert (await ana.ask(type="seek", preset="classic", wait=1))["type"] == "seeking"
        assert (await ana.ask(type="seek", preset="classic"))["error"]["key"] == "already_seated"
        assert (await bob.ask(type="seek", preset="classic", wait=60))["type"] == "seeking"
        await asyncio.gather(ana.recv("start", timeout=10), bob.recv("start", timeout=10))  # Ana's wait is over
        [table] = referee.tables
        assert table.session.humans == (0, 1) and table.settings["variant"] == "classic"
        assert [s["player"] for s in ana.log[-1]["seats"]] == ["human", "human", "bot", "bot"]
        assert (await cy.ask(type="seek", preset="coinche-501", wait=0))["type"] == "seeking"  # at once
        assert (await cy.recv("start", timeout=10))["state"]["humans"] == [0]

    serve(scenario, FAST, timeout=60)
