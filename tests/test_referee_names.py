"""Display names: given with queue, create or join, each player is told both in ``start`` and ``resumed``;
a bad name is refused like any bad field, and a name is cleaned of control characters."""

from __future__ import annotations

import asyncio

from coinche_referee.protocol import MAX_NAME, clean_name
from coinche_referee.referee import Config
from coinche_referee.server import running
from test_referee_helpers import Player

FAST = Config(bot_delay=0, level="easy", lobby_timeout=5, grace=5, rate=1000, burst=1000)


def run(scenario):
    async def main():
        async with running(FAST) as served:
            return await asyncio.wait_for(scenario(f"ws://127.0.0.1:{served.port}"), 60)

    return asyncio.run(main())


def test_both_players_learn_both_names_in_a_queued_table():
    async def scenario(url):
        a, b = await Player.join(url), await Player.join(url)
        await a.send(type="queue", target=501, name="Ana")
        await a.recv("waiting")
        await b.send(type="queue", target=501, name="  Bo\u0007b  ")
        start_a, start_b = await a.recv("start"), await b.recv("start")
        assert start_a["names"] == start_b["names"] == ["Ana", "Bob"]
        await a.close()
        back = await Player.join(url)
        await back.send(type="resume", token=start_a["token"])
        assert (await back.recv("resumed"))["names"] == ["Ana", "Bob"]
        await back.close(), await b.close()

    run(scenario)


def test_a_private_table_without_names_and_a_bad_name():
    async def scenario(url):
        a, b = await Player.join(url), await Player.join(url)
        await a.send(type="create", name="x" * (MAX_NAME + 1), id=1)
        error = await a.recv()
        assert error["id"] == 1 and error["error"]["key"] == "bad_message"
        await a.send(type="create", target=501)
        code = (await a.recv("created"))["code"]
        await b.send(type="join", code="NOPE22", name="Cy", id=2)
        assert (await b.recv())["error"]["key"] == "no_such_table"
        await b.send(type="join", code=code.lower(), name="Cy")
        assert (await a.recv("start"))["names"] == [None, "Cy"]
        assert (await b.recv("start"))["names"] == [None, "Cy"]
        await a.close(), await b.close()

    run(scenario)


def test_clean_name():
    assert clean_name(" A\u200b\tB ") == "A B"  # a zero-width space is not printable
    assert clean_name("\n\r") is None
    assert clean_name(42) is None
