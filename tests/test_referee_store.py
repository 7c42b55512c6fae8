"""The Redis store's scripts on a real ``redis-server``: an action written once and only at its place
(a retried write is not applied twice), only by the table's owner (a process whose lease lapsed and
whose table was taken over can no longer write), leases taken over once they end or at once when given
up, a finished table's tokens gone and its record expiring, the shared queue taken by one player only."""

from __future__ import annotations

import asyncio
import hashlib

import pytest

from coinche_referee.redis_store import RedisStore, entry
from coinche_referee.store import NotOwner, StoreError, StoreUnavailable, TableRecord, hash_token
from redis_server import RedisServer, free_port, need_redis

SETTINGS = {"variant": "coinche", "target": 1000, "level": "easy", "seed": "s3cret", "humans": [0, 1]}


@pytest.fixture
def redis_url():
    need_redis()
    server = RedisServer().start()
    yield server.url
    server.cleanup()


def record(table_id: str = "t1", tokens=("tok-a", "tok-b")) -> TableRecord:
    return TableRecord(table_id, "queue", dict(SETTINGS), None, ["Ana", "Bob", None, None],
                       {seat: hash_token(t) for seat, t in enumerate(tokens)})


def run(scenario, url: str):
    async def main():
        stores = [RedisStore(url, name, lease=0.3, keep=60) for name in ("one", "two")]
        try:
            return await scenario(*stores)
        finally:
            for store in stores:
                await store.close()

    return asyncio.run(main())


def test_an_action_is_stored_once_at_its_place_and_only_by_the_owner(redis_url):
    async def scenario(one: RedisStore, two: RedisStore):
        one.lease = two.lease = 2.0  # long enough to run on a loaded machine until the claim below
        await one.create(record())
        await one.append("t1", 0, "pass")
        await one.append("t1", 1, "80h")
        await one.append("t1", 1, "80h")  # the same write again (its answer was lost): not twice
        with pytest.raises(StoreError):
            await one.append("t1", 1, "90h")  # another action at a place already taken
        with pytest.raises(StoreError):
            await one.append("t1", 5, "pass")  # not the next place
        with pytest.raises(NotOwner):
            await two.append("t1", 2, "pass")  # not its table
        assert await one.load("t1") == (record(), ["pass", "80h"])
        assert await one.token(hash_token("tok-b")) == ("t1", 1) and await one.token("tok-b") is None
        assert await two.claim() == []  # the lease runs
        await asyncio.sleep(2.1)  # it lapses: nobody renewed it
        assert await two.claim() == ["t1"]
        with pytest.raises(NotOwner):
            await one.append("t1", 2, "pass")  # the old owner can no longer write
        assert await one.renew() == set() and await two.renew() == {"t1"}
        await two.append("t1", 2, "pass")
        assert (await two.load("t1"))[1] == ["pass", "80h", "pass"]

    run(scenario, redis_url)


def test_a_bot_s_declaration_and_its_card_are_stored_together_once(redis_url):
    """A bot's first card at a table of announcements comes with its declaration: two actions, one write."""
    async def scenario(one: RedisStore, two: RedisStore):
        await one.create(record())
        await one.append("t1", 0, "pass")
        await one.append("t1", 1, "announce:Jh-Ah", "7s")
        await one.append("t1", 1, "announce:Jh-Ah", "7s")  # the same write again: not twice
        with pytest.raises(StoreError):
            await one.append("t1", 1, "announce:", "7s")  # other actions at places already taken
        with pytest.raises(StoreError):
            await one.append("t1", 2, "7s", "8s")  # one place taken, one free: neither is written
        assert (await one.load("t1"))[1] == ["pass", "announce:Jh-Ah", "7s"]

    run(scenario, redis_url)


def test_leases_given_up_are_taken_at_once_and_a_finished_table_expires(redis_url):
    async def scenario(one: RedisStore, two: RedisStore):
        one.lease = two.lease = 30.0
        await one.create(record("t1"))
        await one.create(record("t2", ("c", "d")))
        await one.renew()
        assert await two.claim() == []
        assert await one.release(["t1"]) == 1
        assert await two.claim() == ["t1"]
        assert await two.release(who="one") == 1  # "one" is gone (its channel reached nobody)
        assert await two.claim() == ["t2"]
        await two.finish(record("t2", ("c", "d")))
        assert await two.token(hash_token("c")) is None  # its tokens stop working at once
        ttl = await two.redis.ttl(two.key("t", "t2"))
        assert 0 < ttl <= 60 and await two.redis.ttl(two.key("a", "t2")) in (-2, *range(1, 61))
        assert await two.owners(["t1", "t2"]) == ["two", None]
        stored = [await two.redis.get(k) async for k in two.redis.scan_iter(two.key("*"))
                  if await two.redis.type(k) == "string"]
        assert not any("tok-a" in (v or "") or "tok-b" in (v or "") for v in stored)  # hashes only

    run(scenario, redis_url)


def test_lapsed_tables_are_shared_out_among_the_living_processes_then_anyone_s(redis_url):
    """Each living process claims the lapsed tables whose hash falls to it (the processes sorted by name),
    all of its share in one call; a share its process has not taken is anyone's after ``share`` seconds;
    a process found gone no longer has a share."""
    async def main():
        dead = RedisStore(redis_url, "dead", lease=0.2)
        living = [RedisStore(redis_url, name, lease=60) for name in ("p1", "p2", "p3")]
        try:
            for store in living:
                await store.renew()
            ids = [f"t{k}" for k in range(60)]
            for table_id in ids:
                await dead.create(record(table_id, (f"{table_id}a", f"{table_id}b")))
            await asyncio.sleep(0.4)  # the dead process's leases end (a loaded machine only waits longer)

            def share(names: list[str], name: str, among: list[str]) -> list[str]:
                return sorted(t for t in among if int(hashlib.sha1(t.encode()).hexdigest()[:8], 16) % len(names)
                              == sorted(names).index(name))

            p1, p2, p3 = living
            assert sorted(await p1.claim(100, share=60)) == share(["p1", "p2", "p3"], "p1", ids)
            assert sorted(await p2.claim(100, share=60)) == share(["p1", "p2", "p3"], "p2", ids)
            assert await p1.claim(100, share=60) == []  # p3's share waits for p3
            left = share(["p1", "p2", "p3"], "p3", ids)
            assert 10 <= len(left) <= 30
            await p1.release(who="p3")  # p3 is gone: its share is shared by the two left
            assert sorted(await p1.claim(100, share=60)) == share(["p1", "p2"], "p1", left)
            some = await p2.claim(3, share=0)  # at most 3 (with share=0 each is anyone's)
            assert len(some) == 3 and set(some) < set(share(["p1", "p2"], "p2", left))
            late = await p1.claim(100, share=0)  # ended more than 0 s ago: anyone's
            assert sorted(late + some) == share(["p1", "p2"], "p2", left)
            assert await p2.owners(ids) == [
                "p1" if t in share(["p1", "p2", "p3"], "p1", ids) + share(["p1", "p2"], "p1", left) + late
                else "p2" for t in ids]
        finally:
            for store in (dead, *living):
                await store.close()

    asyncio.run(main())


def test_a_living_process_whose_channel_nobody_listens_to_is_found_deaf(redis_url):
    async def scenario(one: RedisStore, two: RedisStore):
        one.lease = two.lease = 60.0
        await one.renew()
        await two.renew()
        listening = one.redis.pubsub()
        await listening.subscribe(one.channel("one"))
        assert await one.deaf() == ["two"] and await two.deaf() == []
        await listening.aclose()  # its connections closed, as a killed process's are
        for _ in range(50):
            if await two.deaf() == ["one"]:
                break
            await asyncio.sleep(0.05)
        assert await two.deaf() == ["one"]
        await two.release(who="one")  # gone: no longer counted among the living
        assert await two.deaf() == [] and await two.redis.zrange(two.key("procs"), 0, -1) == ["two"]

    run(scenario, redis_url)


def test_the_queue_pairs_each_waiting_player_once_and_skips_gone_processes(redis_url):
    async def scenario(one: RedisStore, two: RedisStore):
        one.lease = two.lease = 30.0  # "one" must stay alive however slow the machine (0.3 s lapsed in CI)
        await one.renew()  # "one" is alive; "ghost" never was
        ghost = entry("ghost", 1, None)
        await one.redis.rpush(one.key("q", "coinche:1000"), ghost)
        a = entry("one", 1, "Ana")
        assert await one.pair("coinche:1000", a) is None  # the ghost is skipped, Ana waits
        results = await asyncio.gather(*(two.pair("coinche:1000", entry("two", n, None)) for n in (2, 3)))
        assert sorted(map(str, results)) == sorted([a, "None"])  # one of them got Ana, the other waits
        assert not await one.unqueue("coinche:1000", a)  # taken: cancelling finds nothing
        assert await one.offer_code("K7M2QX", entry("one", 0, None), 5)
        assert not await two.offer_code("K7M2QX", entry("two", 0, None), 5)  # a code is taken once
        assert await two.code_holder("K7M2QX") == entry("one", 0, None)

    run(scenario, redis_url)


def test_a_store_out_of_reach_says_so():
    async def main():
        store = RedisStore(f"redis://127.0.0.1:{free_port()}/0", "alone", timeout=0.5)
        try:
            with pytest.raises(StoreUnavailable):
                await store.append("t1", 0, "pass")
        finally:
            await store.close()

    asyncio.run(main())
