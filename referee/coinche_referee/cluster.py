"""Several referee processes sharing one Redis (``--redis URL``): one game.

Each process has a name and a lease (``alive:NAME``), and each table an owner whose lease on it is
renewed every ``lease / 3`` seconds while the owner lives (:data:`LEASE`, 3 s by default).  Exactly one
process decides a table at a time: it alone may append its actions (the store checks it), and when its
lease ends (the process was killed: the others end its leases as soon as they find nobody listening on
its channel, else they lapse) the living processes share its tables out and take them over from Redis.

A player may be connected to any process.  The queue and the private codes are in Redis, so the
process that pairs two players makes the table and owns it; a player whose connection is elsewhere
sits there as a :class:`RemoteClient`, and the process holding the connection forwards the player's
requests for the table to its owner (a :class:`RemoteTable` stands in for it there).  The processes
talk through Redis pub/sub, each on its own channel, one sender a process (so messages keep their
order).  When a table moves (its owner stops or dies) the players' connections to it are closed with
1012; the pages reconnect by themselves, resume with their tokens and play on from their ``seq``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import secrets
import socket
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from coinche.session import FORMAT as SESSION_FORMAT
from coinche.session import Session

from .codes import new_code
from .limits import TokenBucket
from .protocol import RefereeError, Request, dumps
from .redis_store import RedisStore, entry
from .referee import Client
from .store import StoreError, StoreUnavailable, hash_token

if TYPE_CHECKING:
    from .referee import Referee

log = logging.getLogger("coinche_referee")

#: Seconds a lease lasts; renewed every third of it.  A killed process's leases end at most this long
#: after the kill; in practice within two claim rounds (:data:`CLAIM_EVERY`), when the living processes
#: see that nobody listens on its channel any more (Redis closed a killed process's connections), or at
#: once when a player's request for one of its tables reaches a living process and finds its channel
#: deaf.  Then each living process takes its share of them in its next claim round (a share its process
#: has not taken within :data:`SHARE_WAIT` is anyone's), and replays them one after another in its replay
#: thread: each table plays on as soon as its own replay ends, a table a player asks for first.  So: at
#: most the lease (a process that hangs but keeps its connections), plus a claim round, plus the replay
#: of the tables before it in that process's share (about 4 ms each on an idle core).
LEASE = 3.0
CLAIM_EVERY = 0.5
#: Seconds a lapsed table waits for the process whose share it is before any process may take it.
SHARE_WAIT = 2 * CLAIM_EVERY
#: Tables claimed by one call (one short script in Redis); a claim round calls again at once while a call
#: comes back full, so a round takes the process's whole share.
CLAIM_BATCH = 50
#: Seconds a finished table is kept in Redis (then expired).
KEEP = 86400.0


def replay(settings: dict[str, Any], actions: list[str]) -> Session:
    """A stored match rebuilt by replaying every action: run in :attr:`Cluster.replayer`'s thread, never
    on the event loop (a takeover of many long matches would stall every ping meanwhile)."""
    return Session.from_snapshot({"format": SESSION_FORMAT, "settings": settings, "actions": actions})


def process_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class RemoteClient(Client):
    """A player whose connection another process holds: what the table sends goes there."""

    remote = True

    def __init__(self, cluster: "Cluster", process: str, number: int, name: str | None) -> None:
        self._table = None
        self._watching = None
        self.cluster, self.process, self.number = cluster, process, number
        # its own process keeps the per-address limits; here each one is its own "address"
        super().__init__(cluster.referee.config, peer=f"{process}/{number}", address=f"remote:{process}/{number}")
        self.bucket = TokenBucket(float("inf"), float("inf"))  # the connection's own process limits it
        self.name = name

    @property
    def table(self):
        return self._table

    @table.setter
    def table(self, table) -> None:
        if table is not self._table:
            self._table = table
            self.cluster.post(self.process, {"k": "bind", "c": self.number, "t": None if table is None else table.id,
                                             "o": self.cluster.me})

    @property
    def watching(self):
        return self._watching

    @watching.setter
    def watching(self, table) -> None:
        if table is not self._watching:
            self._watching = table
            self.cluster.post(self.process, {"k": "watchbind", "c": self.number, "o": self.cluster.me,
                                             "t": None if table is None else table.id})

    def send(self, message: dict[str, Any]) -> None:
        self.cluster.post(self.process, {"k": "m", "c": self.number, "m": message})

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.cluster.post(self.process, {"k": "close", "c": self.number, "code": code, "reason": reason})
        self.cluster.remotes.pop((self.process, self.number), None)


class RemoteTable:
    """Here, the table of a player connected here that another process decides: requests go there."""

    remote = True

    def __init__(self, cluster: "Cluster", table_id: str, owner: str, number: int) -> None:
        self.cluster, self.id, self.owner, self.number = cluster, table_id, owner, number
        self.state: dict[str, Any] | None = None
        self.busy = False

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.get("winner") is not None

    def to_move(self, seat: int) -> bool:
        deal = (self.state or {}).get("deal") or {}
        return deal.get("current_player") == seat and bool(deal.get("legal"))

    def seen(self, client: "Client", message: dict[str, Any]) -> None:
        """A message of the table on its way to the player: what this process needs of it."""
        if "state" in message:
            self.state = message["state"]
        if message.get("type") in ("start", "resumed", "lobby"):
            client.seat = message["seat"]

    def forward(self, client: "Client", request: Request) -> None:
        self.cluster.post(self.owner, {"k": "f", "p": self.cluster.me, "c": client.id, "r": dumps(_frame(request))},
                          unheard=lambda: self.cluster.owner_gone(self.owner, client))

    def drop(self, seat: int) -> None:
        self.cluster.post(self.owner, {"k": "gone", "p": self.cluster.me, "c": self.number})


class RemoteWatch:
    """Here, the table a spectator connected here watches, which another process decides."""

    remote = True
    finished = False

    def __init__(self, cluster: "Cluster", table_id: str, owner: str, number: int) -> None:
        self.cluster, self.id, self.owner, self.number = cluster, table_id, owner, number

    def send_watching(self, client: "Client", rid, kind: str = "watching") -> None:
        frame = {"type": "state", **({"id": rid} if rid is not None else {})}
        self.cluster.post(self.owner, {"k": "f", "p": self.cluster.me, "c": client.id, "r": dumps(frame)})

    def unwatch(self, client: "Client") -> None:
        client.watching = None
        self.cluster.post(self.owner, {"k": "unwatch", "p": self.cluster.me, "c": self.number})
        self.cluster.referee.watch(client)


class Cluster:
    """This process's part in the cluster: its lease, its channel, the shared lobby, the tables it
    takes over."""

    def __init__(self, referee: "Referee", url: str, lease: float = LEASE, keep: float = KEEP,
                 prefix: str = "coinche:") -> None:
        self.referee = referee
        self.me = process_name()
        self.lease = lease
        self.store = RedisStore(url, self.me, lease=lease, keep=keep, prefix=prefix)
        referee.store, referee.cluster = self.store, self
        self.remotes: dict[tuple[str, int], Any] = {}  # (process, client number) -> RemoteClient
        self.codes: dict[str, str] = {}  # the private codes this process reserved -> their entry
        self._outbox: dict[str, list[tuple[str, Any]]] = {}
        self._wake = asyncio.Event()
        self._tasks: dict[str, asyncio.Task] = {}
        self._pubsub = None
        # takeovers are replayed here, one table at a time, the event loop answering meanwhile
        self.replayer = ThreadPoolExecutor(1, thread_name_prefix="coinche-replay")
        self._adopting: dict[str, asyncio.Future] = {}  # tables taken over, not yet replayed -> their table
        self._to_adopt: deque[str] = deque()  # in the order they are replayed (a player's first)
        self._loaded: dict[str, Any] = {}  # read from the store ahead of their replay
        self._adopter: asyncio.Task | None = None
        self._claim_now = asyncio.Event()
        self._deaf: set[str] = set()  # processes whose channel reached nobody at the last claim round
        self.claim_after = 0.0  # after an outage, one lease passes before tables are taken over
        self.down_since: float | None = None

    # ------------------------------------------------------------ start and stop
    async def start(self) -> None:
        """Subscribe to this process's channel and take its lease; raises ``StoreUnavailable``."""
        try:
            await self.store.redis.ping()
            self._pubsub = self.store.redis.pubsub(ignore_subscribe_messages=True)
            await self._pubsub.subscribe(self.store.channel(self.me))
        except Exception as e:  # noqa: BLE001 - any failure here means no Redis
            raise StoreUnavailable(f"redis at {self.store.url}: {e}") from None
        await self.store.renew()
        loop = asyncio.get_running_loop()
        self._tasks = {name: loop.create_task(getattr(self, name)())
                       for name in ("_listen", "_send_loop", "_renew_loop", "_claim_loop")}

    async def stop(self, grace: float = 5.0) -> None:
        """SIGTERM: no new table, no bot starts; the writes and bots in flight finish (at most ``grace``
        seconds); the leases are given up at once so the others take the tables over; then the players'
        connections here close with 1012 (their pages resume elsewhere)."""
        referee = self.referee
        referee.draining = True
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(t.busy or isinstance(t.bot_timer, asyncio.Future)
                                                  or isinstance(t.clock_timer, asyncio.Future)
                                                  for t in referee.tables):
            await asyncio.sleep(0.05)
        owned = [t.id for t in referee.tables]
        for table in list(referee.tables):
            table.close(finished=False)
        for task in (self._tasks["_renew_loop"], self._tasks["_claim_loop"], self._adopter):
            if task is not None:  # no lease renewed (it would count this process as living again) or taken
                task.cancel()
        for future in self._adopting.values():
            future.cancel()
        try:
            await self.store.release(who=self.me)
        except StoreError as e:
            log.warning("could not give up the leases (%s): the others wait for them to lapse", e)
        log.info("stopped: %d table(s) left to the other processes", len(owned))
        for client in list(referee.clients):
            client.close(1012, "the referee restarts, reconnect")
        await self.flush()
        for task in self._tasks.values():
            task.cancel()
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except Exception:  # noqa: BLE001
                pass
        self.replayer.shutdown(wait=False, cancel_futures=True)
        await self.store.close()

    # ------------------------------------------------------------ messages between processes
    def post(self, process: str, message: dict[str, Any], unheard=None) -> None:
        """``message`` to ``process``, after the ones posted before it; ``unheard()`` if nobody listens
        on its channel any more (that process is gone)."""
        if process == self.me:
            self.loop_call(self._receive, message)
            return
        self._outbox.setdefault(process, []).append((dumps(message), unheard))
        self._wake.set()

    def loop_call(self, fn, *args) -> None:
        self.referee.loop.call_soon(fn, *args)

    async def flush(self) -> None:
        while self._outbox:
            await self._send_once()

    async def _send_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._send_once()

    async def _send_once(self) -> None:
        outbox, self._outbox = self._outbox, {}
        for process, items in outbox.items():
            while True:
                try:
                    heard = await self.store.publish(process, [text for text, _ in items])
                    break
                except StoreUnavailable as e:
                    self.referee.failures.add("redis publish", e)
                    await asyncio.sleep(0.5)
            if heard == 0:
                for _, unheard in items:
                    if unheard is not None:
                        unheard()

    async def _listen(self) -> None:
        while True:
            try:
                async for item in self._pubsub.listen():
                    if item.get("type") == "message":
                        try:
                            self._receive(json.loads(item["data"]))
                        except Exception:  # noqa: BLE001 - one bad message must not stop the rest
                            log.exception("cluster message failed")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - Redis gone: subscribe again when it is back
                self.referee.failures.add("redis subscribe", e)
                await asyncio.sleep(0.5)
                try:
                    await self._pubsub.subscribe(self.store.channel(self.me))
                except Exception:  # noqa: BLE001
                    pass

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        referee = self.referee
        if kind == "f":  # a player elsewhere asks something of a table here
            key = (message["p"], message["c"])
            client = self.remotes.get(key)
            if client is None:
                client = self.remotes[key] = RemoteClient(self, message["p"], message["c"], None)
            referee.handle(client, message["r"])
        elif kind == "gone":
            client = self.remotes.pop((message["p"], message["c"]), None)
            if client is not None:
                referee.disconnect(client)
        elif kind == "m":  # a table elsewhere tells a player here
            client = referee.by_id.get(message["c"])
            if client is None:
                return
            if getattr(client.table, "remote", False):
                client.table.seen(client, message["m"])
            error = message["m"].get("error") if message["m"].get("type") == "error" else None
            if error is not None and error.get("key") == "no_such_table":  # a wrong code, counted here
                referee.guesses.failed(client.address)
            client.send(message["m"])
            referee.watch(client)
        elif kind == "bind":
            self._bind(message)
        elif kind == "watchbind":  # a table elsewhere has a spectator connected here (or no longer)
            client = referee.by_id.get(message["c"])
            if client is not None:
                client.watching = None if message["t"] is None else RemoteWatch(self, message["t"], message["o"],
                                                                                client.id)
                referee.watch(client)
        elif kind == "unwatch":  # a spectator elsewhere stops watching a table here
            client = self.remotes.pop((message["p"], message["c"]), None)
            if client is not None and client.watching is not None:
                client.watching.unwatch(client)
        elif kind == "close":
            client = referee.by_id.get(message["c"])
            if client is not None:
                client.close(message["code"], message["reason"])

    def _bind(self, message: dict[str, Any]) -> None:
        """A table elsewhere seats a player connected here (``t``), or lets them go (``t`` null)."""
        referee = self.referee
        client = referee.by_id.get(message["c"])
        owner = message["o"]
        if message["t"] is None:
            if client is not None and getattr(client.table, "remote", False):
                client.table, client.seat = None, -1
                referee.watch(client)
            return
        if client is None or (client.waiting is None and client.table is not None
                              and getattr(client.table, "id", None) != message["t"]):
            self.post(owner, {"k": "gone", "p": self.me, "c": message["c"]})
            return
        if client.waiting is not None:
            referee._stop_waiting(client, shared=False)
        client.table = RemoteTable(self, message["t"], owner, client.id)
        referee.watch(client)

    def owner_gone(self, owner: str, client: "Client") -> None:
        """A player's table was decided by a process that is gone: its leases end now, and the player's
        page reconnects (it resumes where the table is taken over)."""
        self.referee.loop.create_task(self._reap(owner))
        if client.table is not None and getattr(client.table, "owner", None) == owner:
            client.table, client.seat = None, -1
            client.close(1012, "the table moved, reconnect")

    async def _reap(self, owner: str) -> None:
        try:
            await self.release(owner)
        except StoreError as e:
            self.referee.failures.add("redis release", e)

    async def release(self, owner: str) -> None:
        """``owner`` is gone (its channel reaches nobody): its leases end now, and this process takes its
        share of its tables at once (the others in their next claim round); the players here at its
        tables reconnect now (their pages resume wherever each table is taken over)."""
        if await self.store.release(who=owner):
            log.info("process %s is gone: its tables are free", owner)
            self._claim_now.set()
        for client in [c for c in self.referee.clients if getattr(c.table, "owner", None) == owner]:
            client.table, client.seat = None, -1
            client.close(1012, "the table moved, reconnect")
        for client in [c for c in self.referee.clients if getattr(c.watching, "owner", None) == owner]:
            client.watching = None
            client.close(1012, "the table moved, watch it again")

    # ------------------------------------------------------------ leases
    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self._renew()
            except StoreError as e:
                if self.down_since is None:
                    self.down_since = time.monotonic()
                self.referee.failures.add("redis lease", e)

    async def _renew(self) -> None:
        referee = self.referee
        mine = [t for t in referee.tables if t.stored]
        owned = await self.store.renew()
        if self.down_since is not None:
            log.warning("redis is back after %.1f s", time.monotonic() - self.down_since)
            self.down_since = None
            self.claim_after = time.monotonic() + self.lease
        for table in mine:
            if table.id not in owned and not table.closed:
                table.lost("was taken over by another process")
        proxied = [(c, c.table) for c in referee.clients if getattr(c.table, "remote", False)]
        proxied += [(c, c.watching) for c in referee.clients if getattr(c.watching, "remote", False)]
        if proxied:  # players and spectators here at a table elsewhere: has it moved, or has its process gone?
            owners = await self.store.owners([table.id for _, table in proxied])
            living = await self.store.living({table.owner for _, table in proxied})
            for (client, table), owner in zip(proxied, owners):
                if client.table is not table and client.watching is not table:
                    continue
                if (owner is not None and owner != table.owner) or table.owner not in living:
                    if client.table is table:
                        client.table, client.seat = None, -1
                    else:
                        client.watching = None
                    client.close(1012, "the table moved, reconnect")

    async def _claim_loop(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._claim_now.wait(), CLAIM_EVERY)
            except asyncio.TimeoutError:
                pass
            self._claim_now.clear()
            if self.referee.draining or time.monotonic() < self.claim_after or self.down_since is not None:
                continue
            try:
                await self._reap_deaf()
                await self.claim()
            except StoreError as e:
                self.referee.failures.add("redis claim", e)

    async def _reap_deaf(self) -> None:
        """A living process whose channel nobody has listened to at two claim rounds in a row (killed: Redis
        closed its connections) is gone: its leases end now, without waiting for them to lapse.  (Two
        rounds: a process that lost Redis for a moment subscribes again within one.)"""
        deaf = set(await self.store.deaf())
        for owner in deaf & self._deaf:
            await self.release(owner)
        self._deaf = deaf

    async def claim(self) -> int:
        """One claim round: this process's whole share of the lapsed tables (batch after batch), each put
        in the replay queue at once; how many."""
        taken = 0
        while True:
            claimed = await self.store.claim(CLAIM_BATCH, share=SHARE_WAIT)
            for table_id in claimed:
                self.adopt(table_id)
            taken += len(claimed)
            if len(claimed) < CLAIM_BATCH:
                return taken

    def adopt(self, table_id: str, first: bool = False) -> asyncio.Future:
        """A table this process has just taken over, to be rebuilt from the store (its table, or ``None`` if
        it cannot be, once it is): read with the tables queued after it, every stored action replayed in
        the replay thread (:func:`replay`), so the loop goes on answering pings and moves meanwhile.
        ``first``: a player waits for it, it is replayed next."""
        loop = self.referee.loop
        existing = self.referee.table_ids.get(table_id)
        if existing is not None:
            future = loop.create_future()
            future.set_result(existing)
            return future
        future = self._adopting.get(table_id)
        if future is None:
            future = self._adopting[table_id] = loop.create_future()
            self._to_adopt.append(table_id)
        if first and self._to_adopt[0] != table_id and table_id in self._to_adopt:
            self._to_adopt.remove(table_id)
            self._to_adopt.appendleft(table_id)
        if self._adopter is None or self._adopter.done():
            self._adopter = loop.create_task(self._adopt_queued())
        return future

    async def _adopt_queued(self) -> None:
        """The tables taken over, rebuilt one after another (each one playing as soon as it is)."""
        while self._to_adopt:
            table_id = self._to_adopt[0]
            try:
                if table_id not in self._loaded:
                    batch = [t for t in itertools.islice(self._to_adopt, CLAIM_BATCH) if t not in self._loaded]
                    self._loaded.update(await self.store.load_many(batch))
                table = await self._rebuild(table_id, self._loaded.pop(table_id))
            except StoreUnavailable as e:  # read it again when Redis answers (the lease stays this process's)
                self.referee.failures.add("redis takeover", e)
                await asyncio.sleep(0.5)
                continue
            if self._to_adopt and self._to_adopt[0] == table_id:
                self._to_adopt.popleft()
            else:
                self._to_adopt.remove(table_id)
            future = self._adopting.pop(table_id, None)
            if future is not None and not future.done():
                future.set_result(table)

    async def _rebuild(self, table_id: str, stored):
        referee = self.referee
        existing = referee.table_ids.get(table_id)
        if existing is not None:
            return existing
        try:
            if isinstance(stored, StoreError):
                raise stored
            record, actions = stored
            if record.lobby:
                return await self._adopt_lobby(record)
            session = await referee.loop.run_in_executor(self.replayer, replay, record.settings, actions)
        except StoreUnavailable:
            raise
        except Exception as e:  # noqa: BLE001 - a corrupt table must not stop the others
            log.error("table %s cannot be taken over: %s", table_id, e)
            return None
        if table_id in referee.table_ids:
            return referee.table_ids[table_id]
        table = referee.table_class.restore(referee, record, session)
        referee.add_table(table)
        if table.kind == "friends" and table.code is not None and not table.finished \
                and referee.private.get(table.code) is None:  # its spectators find it here by its code
            referee.private[table.code] = table
            self.codes[table.code] = entry(self.me, 0, None, t=table.id)
            self.code_kept(table)
        log.info("took table %s over at action %d", table_id, len(actions))
        table.restored()
        return table

    async def _adopt_lobby(self, record):
        """A friends' lobby taken over: it waits here under its code (now pointing here) for the time it
        had left; its people resume with their tokens, newcomers join with the code on any process."""
        referee = self.referee
        if record.code is None or (record.code in referee.private and referee.private[record.code].id != record.id):
            return None
        table = referee.table_class.waiting(referee, record)
        mine = entry(self.me, 0, None, t=record.id)
        left = max(1.0, (record.until or time.time() + referee.config.private_timeout) - time.time())
        await self.store.call("set", self.store.key("code", record.code), mine, px=int(left * 1000))
        if record.id in referee.table_ids:
            return referee.table_ids[record.id]
        referee.add_table(table)
        referee.private[record.code] = table
        self.codes[record.code] = mine
        log.info("took the lobby of table %s over", record.id)
        table.restored()
        return table

    def lobby_stored(self, table) -> None:
        """A new friends' lobby is in the store: its shared code says which table it is (a process that
        finds the code's holder gone takes that table over)."""
        code, mine = table.code, entry(self.me, 0, None, t=table.id)
        previous = self.codes.get(code)
        if previous is None:
            return
        self.codes[code] = mine
        self._background(self.store.call("set", self.store.key("code", code), mine, xx=True, keepttl=True))

    def code_kept(self, table) -> None:
        """A friends' match on here: its shared code points here as long as a finished table is kept (a
        spectator's ``watch`` on any process finds it; the code goes when the match ends)."""
        code = table.code
        mine = self.codes.get(code)
        if mine is None:
            return
        self._background(self.store.call("set", self.store.key("code", code), mine, px=int(self.store.keep * 1000)))

    # ------------------------------------------------------------ the lobby
    def _options_key(self, key: tuple[str, int]) -> str:
        return f"{key[0]}:{key[1]}"

    def _spawn(self, client: "Client", request: Request, coroutine) -> None:
        """A request answered once Redis has: ``unavailable`` if it cannot be reached."""
        async def run():
            try:
                await coroutine
            except StoreError as e:
                self.referee.failures.add("redis lobby", e)
                if client.waiting is not None:
                    self.referee._stop_waiting(client, shared=False)
                self.referee._error(client, RefereeError("unavailable"), request.id)
                self.referee.watch(client)
            except Exception as e:  # a bug must not leave the player without an answer (as dispatch)
                log.exception("request failed")
                self.referee._error(client, RefereeError("internal", detail=type(e).__name__), request.id)
                self.referee.watch(client)

        self.referee.loop.create_task(run())

    def queue(self, client: "Client", request: Request, key: tuple[str, int]) -> None:
        if self.referee.draining:
            raise RefereeError("unavailable", id=request.id)
        client.waiting = ("queue", key)
        client.entry = entry(self.me, client.id, client.name)
        self._spawn(client, request, self._queue(client, request, key, client.entry))

    async def _queue(self, client: "Client", request: Request, key: tuple[str, int], mine: str) -> None:
        referee = self.referee
        while True:
            other = await self.store.pair(self._options_key(key), mine)
            if client.waiting != ("queue", key) or client.entry != mine:  # cancelled meanwhile
                if other is None:
                    await self.store.unqueue(self._options_key(key), mine)
                else:
                    await self.store.redis.lpush(self.store.key("q", self._options_key(key)), other)
                return
            if other is None:
                referee._reply(client, request, "waiting", variant=key[0], target=key[1])
                client.timer = referee.loop.call_later(referee.config.lobby_timeout, referee._no_opponent, client)
                return
            partner = self._partner(other, ("queue", key))
            if partner is not None:
                break
        referee._stop_waiting(client, shared=False)
        referee.pair(partner, client, key)

    def _partner(self, text: str, waiting: tuple[str, Any]):
        """The player a queue entry stands for, taken out of the queue: here, or a :class:`RemoteClient`."""
        data = json.loads(text)
        if data["p"] != self.me:
            client = RemoteClient(self, data["p"], data["c"], data.get("n"))
            self.remotes[(data["p"], data["c"])] = client
            return client
        client = self.referee.by_id.get(data["c"])
        if client is None or client.waiting != waiting or client.entry != text:
            return None
        self.referee._stop_waiting(client, shared=False)
        return client

    def seek(self, client: "Client", request: Request, name: str, wait: int) -> None:
        """The shared public queue of ``name``: seated by whichever process completes a table (or ends a wait)."""
        if self.referee.draining:
            raise RefereeError("unavailable", id=request.id)
        client.waiting = ("public", name)
        client.entry = entry(self.me, client.id, client.name)
        self._spawn(client, request, self._seek(client, request, name, wait, client.entry))

    async def _seek(self, client: "Client", request: Request, name: str, wait: int, mine: str) -> None:
        referee = self.referee
        group = await self.store.seek(name, mine, "take" if wait == 0 else "push")
        if client.waiting != ("public", name) or client.entry != mine:  # cancelled meanwhile
            if not group:
                await self.store.unseek(name, mine)
            return
        referee.tell_seeking(client, request, name, wait)
        if group:
            self._seat_group(name, group)
        else:
            client.timer = referee.loop.call_later(wait, self._seek_over, client, name, mine)

    def _seek_over(self, client: "Client", name: str, mine: str) -> None:
        client.timer = None
        if client.waiting == ("public", name) and client.entry == mine:
            self._background(self._seek_now(name, mine))

    async def _seek_now(self, name: str, mine: str) -> None:
        group = await self.store.seek(name, mine, "now")
        if group:
            self._seat_group(name, group)

    def _seat_group(self, name: str, group: list[str]) -> None:
        """The people a public queue gave this process, seated here (those whose connection is elsewhere as
        :class:`RemoteClient`; one gone meanwhile leaves a seat to a bot)."""
        people = [p for p in (self._partner(text, ("public", name)) for text in group) if p is not None]
        if people:
            self.referee.seat_public(name, people)

    def reserve_code(self, client: "Client", request: Request, make) -> None:
        """A private code reserved in Redis for a table to be made here (``make(client, request, code)``):
        a friend connected to any process finds it there."""
        if self.referee.draining:
            raise RefereeError("unavailable", id=request.id)
        client.waiting = ("reserving", None)
        self._spawn(client, request, self._reserve(client, request, make))

    async def _reserve(self, client: "Client", request: Request, make) -> None:
        referee = self.referee
        mine = entry(self.me, 0, None)
        code = new_code()
        while code in referee.private or not await self.store.offer_code(code, mine, referee.config.private_timeout):
            code = new_code()
        if client.waiting != ("reserving", None) or client not in referee.clients:
            await self.store.drop_code(code, mine)
            return
        client.waiting = None
        self.codes[code] = mine
        referee.run(client, request, lambda: make(client, request, code))
        if referee.private.get(code) is None:  # refused after all (the address's limit)
            self.forget_code(code)

    def forget_code(self, code: str) -> None:
        mine = self.codes.pop(code, None)
        if mine is not None:
            self._background(self.store.drop_code(code, mine))

    def join(self, client: "Client", request: Request, code: str) -> None:
        """A code this process does not hold: the process holding its table gets the ``join``."""
        if getattr(client, "remote", False):  # forwarded here, and the table is gone meanwhile
            self.referee.guesses.failed(client.address)
            raise RefereeError("no_such_table", id=request.id, code=request.get("code"))
        self._spawn(client, request, self._join(client, request, code))

    async def _join(self, client: "Client", request: Request, code: str) -> None:
        referee = self.referee
        wait = await self.store.guess_blocked(client.address)
        if wait > 0:  # too many wrong codes, counted on every process
            referee.guesses.refuse(client.address, wait)
            referee._error(client, RefereeError("too_many_guesses", retry_after=int(wait) + 1), request.id)
            referee.watch(client)
            return
        if referee.private.get(code) is not None:  # the table waits here
            try:
                referee.join_here(client, request, code)
            except RefereeError as e:
                referee._error(client, e, e.id if e.id is not None else request.id)
            referee.watch(client)
            return
        found = await self.store.code_holder(code)
        holder = None if found is None else json.loads(found).get("p")
        if holder is None and await self._take_lobby(code):
            referee.dispatch(client, request)  # the lobby waits here now
            return
        if holder is None or holder == self.me:
            referee.guesses.failed(client.address)
            await self._count_guess(client.address)
            referee._error(client, RefereeError("no_such_table", code=request.get("code")), request.id)
            referee.watch(client)
            return

        def unheard() -> None:  # nobody listens there: that process is gone, its stored lobby moves here
            self._spawn(client, request, self._join_orphan(client, request, code, holder))

        self.post(holder, {"k": "f", "p": self.me, "c": client.id, "r": dumps(_frame(request))}, unheard=unheard)

    def watch(self, client: "Client", request: Request, code: str) -> None:
        """A spectator's code this process does not hold: the process holding its table gets the ``watch``."""
        self._spawn(client, request, self._watch(client, request, code))

    async def _watch(self, client: "Client", request: Request, code: str, orphan: bool = True) -> None:
        """The ``watch`` goes to the process holding the code's table.  If that process is gone (nobody listens
        on its channel, or its lease has ended), the table is taken over here, or found where another
        process took it (``orphan``: once)."""
        referee = self.referee
        found = await self.store.code_holder(code)
        holder = None if found is None else json.loads(found).get("p")

        def unknown() -> None:
            referee.guesses.failed(client.address)
            referee._error(client, RefereeError("no_such_table", code=request.get("code")), request.id)
            referee.watch(client)

        def unheard() -> None:
            self._spawn(client, request, self._watch_orphan(client, request, code, holder))

        if holder is not None and holder != self.me:
            self.post(holder, {"k": "f", "p": self.me, "c": client.id, "r": dumps(_frame(request))},
                      unheard=unheard if orphan else unknown)
            return
        if holder is None and orphan and await self._take_lobby(code):
            referee.dispatch(client, request)  # the table of a process gone, taken over here
            return
        if holder is None and orphan:
            await self._watch(client, request, code, orphan=False)  # taken over elsewhere meanwhile?
            return
        await self._count_guess(client.address)
        unknown()

    async def _watch_orphan(self, client: "Client", request: Request, code: str, holder: str) -> None:
        await self.release(holder)
        if await self._take_lobby(code):
            self.referee.dispatch(client, request)
        else:
            await self._watch(client, request, code, orphan=False)

    async def _count_guess(self, address: str) -> None:
        """A wrong code from ``address`` counted in Redis for every process; past the limit, refused here too."""
        referee = self.referee
        try:
            wait = await self.store.guess_failed(address, referee.config.guesses, referee.guesses.window,
                                                 referee.config.guess_block)
        except StoreError as e:  # the player still learns the code was wrong; this process counted it
            referee.failures.add("redis guesses", e)
            return
        if wait > 0:
            referee.guesses.refuse(address, wait)

    async def _join_orphan(self, client: "Client", request: Request, code: str, holder: str) -> None:
        await self.release(holder)
        if await self._take_lobby(code):
            self.referee.dispatch(client, request)
        else:
            self.referee._error(client, RefereeError("no_such_table", code=request.get("code")), request.id)

    async def _take_lobby(self, code: str) -> bool:
        """The process holding a stored lobby's code is gone: its table is taken over here (waiting at most
        one lease for it to lapse), unless another process has taken it meanwhile."""
        deadline = time.monotonic() + self.lease + 2 * CLAIM_EVERY
        while True:
            text = await self.store.call("get", self.store.key("code", code))
            table_id = None if text is None else json.loads(text).get("t")
            if table_id is None:
                return False
            if self.referee.private.get(code) is not None:
                return True
            holder = json.loads(text).get("p")
            if holder != self.me and await self.store.living({holder}) and await self.store.owner(table_id) == holder:
                return False
            if await self.store.claim(table_id=table_id):
                return await self.adopt(table_id, first=True) is not None
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(CLAIM_EVERY)

    def unwait(self, client: "Client", waiting: tuple[str, Any]) -> None:
        """``client`` stopped waiting in the queue here: its shared entry goes (if nobody took it)."""
        kind, value = waiting
        mine, client.entry = client.entry, None
        if kind == "queue" and mine is not None:
            self._background(self.store.unqueue(self._options_key(value), mine))
        if kind == "public" and mine is not None:
            self._background(self.store.unseek(value, mine))

    def _background(self, job) -> None:
        async def run():
            try:
                await job
            except StoreError as e:
                self.referee.failures.add("redis lobby", e)

        self.referee.loop.create_task(run())

    # ------------------------------------------------------------ resume, wherever the table is
    def resume(self, client: "Client", request: Request) -> None:
        client.waiting = ("resuming", None)
        self._spawn(client, request, self._resume(client, request))

    async def _resume(self, client: "Client", request: Request) -> None:
        referee = self.referee
        token = request.fields["token"]
        found = await self.store.token(hash_token(token))
        for _ in range(3):
            if client.waiting != ("resuming", None):
                return
            owner = None if found is None else await self.store.owner(found[0])
            if owner is None:
                client.waiting = None
                referee._error(client, RefereeError("bad_token"), request.id)
                return
            table_id = found[0]
            if owner == self.me or await self.store.claim(table_id=table_id):
                table = await self.adopt(table_id, first=True)
                client.waiting = None
                if table is None:
                    referee._error(client, RefereeError("bad_token"), request.id)
                else:
                    referee.dispatch(client, request)
                return
            heard = await self.store.publish(owner, [dumps({"k": "f", "p": self.me, "c": client.id,
                                                            "r": dumps(_frame(request))})])
            if heard:
                client.waiting = None  # the owner answers; its bind seats the player here
                return
            await self.release(owner)  # nobody listens there: that process is gone
        client.waiting = None
        referee._error(client, RefereeError("unavailable"), request.id)

    # ------------------------------------------------------------ figures
    def stats(self) -> dict[str, Any]:
        return {"process": self.me, "remote_players": len(self.remotes)}


def _frame(request: Request) -> dict[str, Any]:
    frame = {"type": request.type, **request.fields}
    if request.id is not None:
        frame["id"] = request.id
    return frame


__all__ = ["Cluster", "RemoteClient", "RemoteTable", "LEASE", "KEEP", "process_name"]
