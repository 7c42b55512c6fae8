"""A friends' table at the protocol level: two, three or four people take seats in its lobby, move, leave
(the seat frees, the host passes on), the host starts and bots fill the empty seats; during the match a
person who leaves is replaced by a bot at once and takes the seat back with their own token, never with
another's; a waiting table expires, and counts against its creator's address.  And the page of the previous
release: its 1v1 queue and private table get exactly the messages they always did."""

from __future__ import annotations

import asyncio
import random

from websockets.asyncio.client import connect

from coinche_referee.referee import Config
from test_referee_helpers import Player, find_leaks, serve

FAST = Config(bot_delay=0, level="easy", lobby_timeout=5, grace=5, rate=1000, burst=1000)


def run(scenario, config: Config = FAST):
    return serve(scenario, config, timeout=180)


async def lobby(url: str, names: list[str], target: int = 501, variant: str = "coinche") -> tuple[list[Player], str]:
    """The first name opens a friends' table, the others join it (each in the first free seat)."""
    host = await Player.join(url)
    opened = await host.ask(type="open", settings={"variant": variant, "target": target}, name=names[0])
    assert opened["type"] == "lobby" and opened["seat"] == 0 and opened["host"] == 0
    players = [host]
    for name in names[1:]:
        p = await Player.join(url)
        reply = await p.ask(type="join", code=opened["code"].lower(), name=name, lobby=True)
        assert reply["type"] == "lobby" and reply["code"] == opened["code"], reply
        players.append(p)
    return players, opened["code"]


async def settle(players: list[Player]) -> None:
    """Read what each player was sent until nothing more comes for a moment."""
    for p in players:
        try:
            while True:
                await p.recv(timeout=0.2)
        except asyncio.TimeoutError:
            pass


def last(p: Player, kind: str) -> dict:
    return next(m for m in reversed(p.log) if m["type"] == kind)


async def begin(players: list[Player]) -> None:
    host = next(p for p in players if p.seat == last(p, "lobby")["host"])
    started = await host.ask(type="begin")
    assert started["type"] == "start"
    for p in players:
        if p is not host:
            await p.recv("start")


def test_two_friends_partners_against_two_bots_play_a_whole_match():
    async def scenario(url, referee):
        (ana, bob), code = await lobby(url, ["Ana", "Bob"])
        assert bob.seat == 1
        moved = await bob.ask(type="sit", seat=2)  # opposite Ana: partners
        assert moved["seat"] == 2 and bob.seat == 2
        await settle([ana, bob])
        seats = last(ana, "lobby")["seats"]
        assert [s["player"] for s in seats] == ["human", "empty", "human", "empty"]
        assert [s["name"] for s in seats] == ["Ana", None, "Bob", None] and seats[2]["connected"]
        await begin([ana, bob])
        start = last(bob, "start")
        assert start["state"]["humans"] == [0, 2] and start["names"] == ["Ana", None, "Bob", None]
        assert [s["player"] for s in start["seats"]] == ["human", "bot", "human", "bot"]
        assert "id" in last(ana, "start") and "id" not in start  # the host's answer to begin
        [table] = referee.tables
        await asyncio.gather(ana.play(random.Random(1)), bob.play(random.Random(2)))
        assert ana.state["winner"] == bob.state["winner"] in (0, 1)
        assert find_leaks({0: ana.log, 2: bob.log}, table.session.snapshot()) == []
        await ana.close(), await bob.close()
        await asyncio.sleep(0.05)
        assert not referee.tables and not referee.tokens and not referee.private

    run(scenario)


def test_three_friends_one_leaves_and_takes_the_seat_back_with_their_own_token_only():
    async def scenario(url, referee):
        (ana, bob, cy), code = await lobby(url, ["Ana", "Bob", "Cy"], target=1000)
        assert [p.seat for p in (ana, bob, cy)] == [0, 1, 2]
        await begin([ana, bob, cy])
        assert ana.state["humans"] == [0, 1, 2]
        rngs = [random.Random(i) for i in range(3)]
        until = dict(until=lambda p: p.state["seq"] >= 12)
        await asyncio.gather(*(p.play(r, **until) for p, r in zip((ana, bob, cy), rngs)))
        token = cy.token
        assert (await cy.ask(type="leave"))["type"] == "left"  # a bot takes seat 2 at once
        for p in (ana, bob):
            note = await p.recv("presence")
            assert note["status"] == "replaced" and note["seat"] == 2
            assert note["seats"][2] == {"player": "bot", "name": "Cy", "connected": False}
        stranger = await Player.join(url)
        refused = await stranger.ask(type="join", code=code, lobby=True)  # nobody else takes a bot's seat
        assert refused["error"]["key"] == "match_started"
        assert (await stranger.ask(type="resume", token="x" * 24))["error"]["key"] == "bad_token"
        assert (await ana.ask(type="resume", token=token))["error"]["key"] == "already_seated"
        back = await Player.join(url)
        resumed = await back.ask(type="resume", token=token)
        assert resumed["type"] == "resumed" and resumed["seat"] == 2 and resumed["token"] == token
        assert resumed["state"]["humans"] == [0, 1, 2] and resumed["seats"][2]["player"] == "human"
        for p in (ana, bob):
            assert (await p.recv("presence"))["status"] == "returned"
        await asyncio.gather(*(p.play(r) for p, r in zip((ana, bob, back), rngs)))
        assert ana.state["winner"] == back.state["winner"] in (0, 1)
        [table] = referee.tables
        assert find_leaks({0: ana.log, 1: bob.log, 2: cy.log + back.log}, table.session.snapshot()) == []

    run(scenario)


def test_four_friends_fill_the_table_and_a_fifth_is_refused():
    async def scenario(url, referee):
        players, code = await lobby(url, ["Ana", "Bob", "Cy", "Di"])
        fifth = await Player.join(url)
        assert (await fifth.ask(type="join", code=code, lobby=True))["error"]["key"] == "table_full"
        assert (await players[1].ask(type="sit", seat=3))["error"] == {
            "key": "seat_taken", "params": {"seat": 3}, "message": "seat 3 is not free"}
        await begin(players)
        assert players[0].state["humans"] == [0, 1, 2, 3]
        assert all(s["player"] == "human" for s in last(players[3], "start")["seats"])
        rngs = [random.Random(10 + i) for i in range(4)]
        until = dict(until=lambda p: p.state["deal_index"] >= 1)
        await asyncio.gather(*(p.play(r, **until) for p, r in zip(players, rngs)))
        [table] = referee.tables
        logs = {p.seat: p.log for p in players}
        assert find_leaks(logs, table.session.snapshot()) == []
        assert table.session.match.deal_index >= 1

    run(scenario)


def test_the_lobby_seats_move_free_and_the_host_passes_on():
    async def scenario(url, referee):
        (ana, bob, cy), code = await lobby(url, ["Ana", "Bob", "Cy"])
        assert (await bob.ask(type="begin"))["error"]["key"] == "not_host"
        assert (await bob.ask(type="act", action="pass"))["error"]["key"] == "not_started"
        assert (await bob.ask(type="state"))["type"] == "lobby"
        assert (await cy.ask(type="sit", seat=3))["seat"] == 3
        assert (await cy.ask(type="sit", seat=3))["seat"] == 3  # where it already sits: nothing changes
        assert (await ana.ask(type="leave"))["type"] == "left"  # the host leaves: the seat frees
        await settle([bob, cy])
        now = last(bob, "lobby")
        assert now["host"] == 1 and [s["player"] for s in now["seats"]] == ["empty", "human", "empty", "human"]
        assert (await cy.ask(type="sit", seat=0))["seat"] == 0  # the freed seat is anyone's
        old = await Player.join(url)  # a page of the previous release cannot sit at a friends' table
        refused = await old.ask(type="join", code=code)
        assert refused["error"]["key"] == "update_page" and "up-to-date page" in refused["error"]["message"]
        await settle([bob, cy])
        alone = await cy.ask(type="leave")
        assert alone["type"] == "left"
        await settle([bob])
        assert (await bob.ask(type="begin"))["error"]["key"] == "too_few_players"
        assert (await bob.ask(type="cancel"))["type"] == "cancelled"  # the last one out: the table goes
        await asyncio.sleep(0.05)
        assert not referee.tables and not referee.private and not referee.tokens

    run(scenario)


def test_a_drop_in_the_lobby_keeps_the_seat_for_the_grace_period():
    async def scenario(url, referee):
        (ana, bob, cy), code = await lobby(url, ["Ana", "Bob", "Cy"])
        token = bob.token
        await bob.close()
        await settle([ana, cy])
        assert last(ana, "lobby")["seats"][1] == {"player": "human", "name": "Bob", "connected": False}
        back = await Player.join(url)
        reply = await back.ask(type="resume", token=token)
        assert reply["type"] == "lobby", reply
        await settle([ana, cy, back])
        assert last(ana, "lobby")["seats"][1]["connected"]
        await cy.close()  # never comes back: after the grace period the seat is free again
        await asyncio.sleep(1.6)
        await settle([ana, back])
        assert last(ana, "lobby")["seats"][2]["player"] == "empty"
        await begin([ana, back])
        assert ana.state["humans"] == [0, 1]

    run(scenario, Config(bot_delay=0, level="easy", grace=1.5, rate=1000, burst=1000))


async def connect_any(url: str) -> Player:
    """A connection whose first message may be a refusal (kept in its log)."""
    player = Player(await connect(url))
    await player.recv()
    return player


def test_a_waiting_table_expires_and_counts_against_its_creators_address():
    async def scenario(url, referee):
        host = await Player.join(url)
        opened = await host.ask(type="open", settings={"level": "expert"})
        assert opened["settings"] == {"variant": "coinche", "target": 1000, "level": "expert", "clock": "normal",
                                     "spectators": True}
        assert 0 < opened["expires"] <= 0.6
        assert referee.per_address["127.0.0.1"] == 2  # its connection and its waiting table
        third = await connect_any(url)  # the address holds its limit (2): another connection is refused...
        assert third.log[0]["error"]["key"] == "too_many_connections"
        await host.recv("expired", timeout=3)
        assert referee.per_address["127.0.0.1"] == 1 and not referee.tables
        again = await connect_any(url)  # ...until the table expired
        assert again.log[0]["type"] == "welcome"
        assert (await host.ask(type="open"))["error"]["key"] == "too_many_connections"

    run(scenario, Config(bot_delay=0, level="easy", private_timeout=0.6, max_per_address=2, rate=1000, burst=1000))


def test_a_page_of_the_previous_release_still_plays_a_1v1():
    """The queue and the 1v1 private table: the very messages, fields and values of before (``created`` has
    one field more, which such a page does not read)."""
    async def scenario(url, referee):
        a, b = await Player.join(url), await Player.join(url)
        await a.send(type="create", variant="classic", target=501, name="Ana")
        created = await a.recv()
        # the fields of before, with their values; and the creator's token, added (a page of the previous
        # release reads only the code; this one resumes a waiting table with the token)
        assert set(created) == {"type", "code", "variant", "target", "token"}
        assert (created["variant"], created["target"]) == ("classic", 501)
        await b.send(type="join", code=created["code"], name="Bob")
        start_a, start_b = await a.recv("start"), await b.recv("start")
        for start in (start_a, start_b):
            assert set(start) == {"type", "seat", "token", "code", "names", "state"}
            assert start["names"] == ["Ana", "Bob"] and start["state"]["humans"] == [0, 1]
        await b.close()
        note = await a.recv("opponent")
        assert note == {"type": "opponent", "status": "away", "seat": 1, "grace": 5}
        back = await Player.join(url)
        await back.send(type="resume", token=start_b["token"])
        resumed = await back.recv()
        assert set(resumed) == {"type", "seat", "token", "code", "names", "state"}
        assert (await a.recv("opponent"))["status"] == "back"
        await back.send(type="leave")
        assert (await back.recv())["type"] == "left"
        assert await a.recv("opponent") == {"type": "opponent", "status": "replaced", "seat": 1}
        late = await Player.join(url)
        await late.send(type="resume", token=start_b["token"])  # a 1v1 seat given to a bot is gone for good
        assert (await late.recv())["error"]["key"] == "bad_token"
        await a.play(random.Random(3))
        assert a.state["winner"] in (0, 1)
        c, d = await Player.join(url), await Player.join(url)  # a page of this release joins a 1v1 table
        await c.send(type="create")
        code = (await c.recv("created"))["code"]
        await d.send(type="join", code=code, lobby=True)
        assert set(await d.recv("start")) == {"type", "seat", "token", "code", "names", "state"}

    run(scenario)
