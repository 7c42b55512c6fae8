"""The referee on localhost, at the protocol level: two websocket clients play whole matches,
the lonely-queue fallback, private tables, a dropped socket and its reconnection, a bot taking
the seat of a player who left, and bad input over the wire."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from websockets.exceptions import ConnectionClosed

from coinche.session import Session
from coinche_referee.referee import Config
from coinche_referee.server import running
from test_referee_helpers import Player, find_leaks, seat_two

# Clients answering at bot speed: a rate limit far above what a human sends.
FAST = Config(bot_delay=0, level="easy", lobby_timeout=0.2, grace=5, rate=1000, burst=1000)


def run(scenario, config: Config = FAST):
    async def main():
        async with running(config) as served:
            return await asyncio.wait_for(scenario(f"ws://127.0.0.1:{served.port}", served.referee), 120)

    return asyncio.run(main())


def test_two_clients_play_a_whole_match():
    async def scenario(url, referee):
        a, b = await seat_two(url)
        assert a.state["settings"]["humans"] == [0, 1] and "seed" not in a.state["settings"]
        [table] = referee.tables
        await asyncio.gather(a.play(random.Random(1)), b.play(random.Random(2)))
        assert a.state["winner"] == b.state["winner"] in (0, 1)
        assert a.state["totals"] == b.state["totals"] == table.session.match.totals
        assert max(a.state["totals"]) >= 501
        again = Session.from_snapshot(table.session.snapshot())
        assert again.match.totals == table.session.match.totals
        assert find_leaks({0: a.log, 1: b.log}, table.session.snapshot()) == []
        await a.close(), await b.close()
        await asyncio.sleep(0.05)
        assert not referee.tables and not referee.tokens

    run(scenario)


def test_bad_actions_over_the_wire_get_errors_and_change_nothing():
    async def scenario(url, referee):
        a, b = await seat_two(url)
        seq = a.state["seq"]
        assert a.state["deal"]["current_player"] == 1  # the dealer is seat 0: seat 1 speaks first
        await a.send(type="act", action="pass", id=1)
        assert (await a.recv())["error"]["key"] == "out_of_turn"
        await b.send(type="act", action="Jh", id="x")
        reply = await b.recv()
        assert reply["id"] == "x" and reply["error"]["key"] == "unknown_call"
        await b.send(type="act", action="80h", seq=seq + 3)
        assert (await b.recv())["error"]["key"] == "stale"
        await b.ws.send("{not json")
        assert (await b.recv())["error"]["key"] == "bad_json"
        await b.ws.send(b"\x00binary")
        assert (await b.recv())["error"]["key"] == "binary"
        await b.ws.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert (await b.recv())["error"]["key"] == "too_large"
        await b.send(type="state", id=2)
        reply = await b.recv()
        assert reply["type"] == "state" and reply["state"]["seq"] == seq
        await b.send(type="act", action="80h", seq=seq, id=3)
        mine, theirs = await b.recv(), await a.recv()
        assert mine["id"] == 3 and "id" not in theirs and mine["event"] == theirs["event"]
        assert mine["event"]["action"] == "80h" and mine["state"]["seq"] == seq + 1

    run(scenario)


def test_flooding_is_refused_then_cut_off():
    async def scenario(url, referee):
        p = await Player.join(url)
        for i in range(30):
            await p.send(type="ping", id=i)
        replies = [await p.recv() for _ in range(30)]  # every request answered, the refused ones too
        assert [r["type"] for r in replies] == ["pong"] * 20 + ["error"] * 10
        assert [r["id"] for r in replies] == list(range(30))
        assert {r["error"]["key"] for r in replies[20:]} == {"rate_limited"}
        for _ in range(60):
            await p.ws.send("{}")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await p.recv()
        assert closed.value.rcvd.code == 1008

    run(scenario, Config(bot_delay=0, rate=1, burst=20, flood_close=40))


def test_alone_in_the_queue_the_page_is_told_and_may_still_be_paired():
    async def scenario(url, referee):
        a = await Player.join(url)
        await a.send(type="queue", id=1)
        waiting = await a.recv()
        assert waiting == {"type": "waiting", "id": 1, "variant": "coinche", "target": 1000}
        assert (await a.recv(timeout=2)) == {"type": "no_opponent", "waited": 0.2}
        b = await Player.join(url)
        await b.send(type="queue")
        assert (await a.recv())["type"] == "start" and (await b.recv())["type"] == "start"
        assert (a.seat, b.seat) == (0, 1)
        c = await Player.join(url)
        await c.send(type="queue", variant="classic", target=701)
        await c.recv("waiting")
        await c.send(type="cancel")
        assert (await c.recv())["type"] == "cancelled"
        await asyncio.sleep(0.3)  # no no_opponent after cancelling
        await c.send(type="ping")
        assert (await c.recv())["type"] == "pong"
        assert not referee.queues

    run(scenario)


def test_private_table_by_code():
    async def scenario(url, referee):
        a, b = await Player.join(url), await Player.join(url)
        await a.send(type="create", variant="classic", target=501)
        created = await a.recv()
        code = created["code"]
        assert created["type"] == "created" and len(code) == 6
        await b.send(type="join", code="NOPE22")
        assert (await b.recv())["error"]["key"] == "no_such_table"
        await b.send(type="join", code=f" {code.lower()} ")
        start_a, start_b = await a.recv("start"), await b.recv("start")
        assert start_a["code"] == start_b["code"] == code and start_a["token"] != start_b["token"]
        assert start_a["state"]["variant"] == "classic" and start_a["state"]["target"] == 501
        assert code not in referee.private

    run(scenario)


def test_reconnect_after_a_dropped_socket():
    async def scenario(url, referee):
        a, b = await seat_two(url)
        rng_a, rng_b = random.Random(3), random.Random(4)
        await asyncio.gather(a.play(rng_a, until=lambda p: p.state["deal_index"] >= 1),
                             b.play(rng_b, until=lambda p: p.state["deal_index"] >= 1))
        hand = a.state["deal"]["hand"]
        await a.ws.close()  # the socket drops
        note = await b.recv("opponent")
        assert note == {"type": "opponent", "status": "away", "seat": 0, "grace": 5}
        back = await Player.join(url)
        await back.send(type="resume", token=a.token, id=9)
        resumed = await back.recv()
        assert resumed["type"] == "resumed" and resumed["id"] == 9 and resumed["seat"] == 0
        assert resumed["state"]["deal"]["hand"] == hand or resumed["state"]["seq"] > a.state["seq"]
        assert (await b.recv("opponent"))["status"] == "back"
        back.state = resumed["state"]
        b.state = b.state  # b goes on from its last state
        await asyncio.gather(back.play(rng_a), b.play(rng_b))
        assert back.state["winner"] == b.state["winner"] in (0, 1)

    run(scenario)


def test_resume_elsewhere_supersedes_the_old_connection():
    async def scenario(url, referee):
        a, b = await seat_two(url)
        other = await Player.join(url)
        await other.send(type="resume", token=a.token)
        assert (await other.recv())["type"] == "resumed"
        assert (await a.recv())["error"]["key"] == "superseded"
        with pytest.raises(ConnectionClosed):
            await a.recv()
        await other.send(type="resume", token=b.token)
        assert (await other.recv())["error"]["key"] == "already_seated"
        c = await Player.join(url)
        await c.send(type="resume", token="not-a-token")
        assert (await c.recv())["error"]["key"] == "bad_token"

    run(scenario)


def test_a_player_who_does_not_come_back_is_replaced_by_a_bot():
    async def scenario(url, referee):
        a, b = await seat_two(url)
        token = a.token
        await a.ws.close()
        assert (await b.recv("opponent"))["status"] == "away"
        replaced = await b.recv("opponent", timeout=3)
        assert replaced == {"type": "opponent", "status": "replaced", "seat": 0}
        await b.send(type="state")
        await b.recv("state")
        assert b.state["settings"]["humans"] == [1]
        await b.play(random.Random(5))  # three bots and one human to the end
        assert b.state["winner"] in (0, 1)
        late = await Player.join(url)
        await late.send(type="resume", token=token)
        assert (await late.recv())["error"]["key"] == "bad_token"

    run(scenario, Config(bot_delay=0, level="easy", grace=0.3, rate=1000, burst=1000))


def test_leaving_hands_the_seat_to_a_bot_at_once():
    async def scenario(url, referee):
        a, b = await seat_two(url)
        await b.send(type="leave", id=4)
        assert (await b.recv()) == {"type": "left", "id": 4}
        assert (await a.recv("opponent")) == {"type": "opponent", "status": "replaced", "seat": 1}
        await a.play(random.Random(6))
        assert a.state["winner"] in (0, 1)
        await b.send(type="act", action="pass")
        assert (await b.recv())["error"]["key"] == "not_seated"

    run(scenario)


def test_bots_thinking_in_a_worker_process_play_the_same_match():
    async def scenario(url, referee):
        assert referee.pool is not None
        a, b = await seat_two(url)
        [table] = referee.tables
        await asyncio.gather(a.play(random.Random(1)), b.play(random.Random(2)))
        assert a.state["winner"] in (0, 1)
        return table.session.snapshot()

    pooled = run(scenario, Config(bot_delay=0, level="easy", bot_workers=1, rate=1000, burst=1000))
    here = Session.from_snapshot(pooled)  # the same bots, thinking here, replay every action
    assert here.match.is_over and here.snapshot()["actions"] == pooled["actions"]
