"""No message of the referee ever shows a seat a card it may not see.

Every message each player receives over whole matches (both variants, several seeds, a dropped
and resumed socket, a seat handed to a bot) is checked against the full deal at the moment it
was sent: see :func:`test_referee_helpers.find_leaks` for the rule, and its own tests there.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from coinche_referee.referee import Config
from coinche_referee.server import running
from test_referee_helpers import Player, find_leaks, seat_two

CONFIG = Config(bot_delay=0, level="easy", grace=0.3, rate=1000, burst=1000)


def run(scenario):
    async def main():
        async with running(CONFIG) as served:
            return await asyncio.wait_for(scenario(f"ws://127.0.0.1:{served.port}", served.referee), 300)

    return asyncio.run(main())


@pytest.mark.parametrize("variant", ["coinche", "classic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_matches_leak_nothing(variant, seed):
    async def scenario(url, referee):
        a, b = await seat_two(url, variant, 1000)
        [table] = referee.tables
        await asyncio.gather(a.play(random.Random(seed)), b.play(random.Random(-seed)))
        snapshot = table.session.snapshot()
        leaks = find_leaks({0: a.log, 1: b.log}, snapshot)
        assert leaks == []
        assert table.session.match.deal_index >= 2 and len(a.log) > 60

    run(scenario)


def test_a_resumed_seat_and_a_replaced_seat_leak_nothing():
    async def scenario(url, referee):
        a, b = await seat_two(url, "coinche", 1000)
        [table] = referee.tables
        rng_a, rng_b = random.Random(7), random.Random(8)
        half = dict(until=lambda p: p.state["seq"] >= 15)
        await asyncio.gather(a.play(rng_a, **half), b.play(rng_b, **half))
        await a.ws.close()
        back = await Player.join(url)
        await back.send(type="resume", token=a.token)
        await back.recv("resumed")
        later = dict(until=lambda p: p.state["seq"] >= 45)
        await asyncio.gather(back.play(rng_a, **later), b.play(rng_b, **later))
        await b.ws.close()  # and never comes back: a bot takes seat 1
        await back.recv("opponent")
        assert (await back.recv("opponent", timeout=3))["status"] == "replaced"
        await back.play(rng_a)
        assert table.session.humans == (0,)
        leaks = find_leaks({0: a.log + back.log, 1: b.log}, table.session.snapshot())
        assert leaks == []

    run(scenario)
