"""The referee: the lobby (matchmaking and private tables), the tables, and every request checked.

:class:`Referee` does no I/O of its own.  The transport (:mod:`coinche_referee.server`) makes a
:class:`Client` per connection and calls :meth:`Referee.connect`, :meth:`Referee.handle` for each
frame and :meth:`Referee.disconnect`; the referee answers through ``client.send(message)``.
A refused request gets one ``error`` message and changes nothing.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable

from coinche import __version__ as ENGINE_VERSION
from coinche.deal import VARIANTS
from coinche.errors import CoincheError
from coinche.match import TARGETS
from coinche.rules import Rules
from coinche.session import LEVELS

import coinche_referee.messages as messages  # not `from . import`, which imports this package's __init__
import coinche_referee.public as public
from .clock import DEFAULT as DEFAULT_CLOCK
from .clock import PRESETS as CLOCKS
from .clock import STRIKES
from .codes import new_code, parse_code
from .failures import FailureLog
from .limits import GuessLimiter, TokenBucket
from .protocol import PROTOCOL, RefereeError, Request, clean_name, parse_request
from .store import MemoryStore, Store, hash_token
from .table import MIN_FRIENDS, Table

log = logging.getLogger("coinche_referee")

#: Requests that concern the table a client sits at: with a durable store they wait while it writes, and
#: for a table another process decides they go there.
TABLE_REQUESTS = ("act", "state", "leave", "resume", "sit", "begin", "cancel", "say")

#: What a spectator may not do (``spectator``): play, take a seat, or go to another table before ``leave``.
SPECTATOR_REFUSED = ("act", "sit", "begin", "resume", "queue", "create", "open", "join", "watch", "say")
#: Spectators at one table, at most.
MAX_SPECTATORS = 32

#: Open files the referee keeps for itself (its log, its listening socket, the bot workers' pipes).
RESERVED_FILES = 64


#: Timeouts whose lateness the referee keeps for ``--stats`` (the last ones).
CLOCK_FIGURES = 10_000

#: How much nicer (lower CPU priority) than the event loop the bots' worker processes run.
BOT_NICENESS = 10
#: The clock's worker (a person's time ran out: their move is due now) runs at the event loop's priority.
CLOCK_NICENESS = 0
#: How often a bot worker checks that its referee process still lives (seconds).
ORPHAN_CHECK_S = 1.0


def _bot_worker(referee: int, niceness: int = BOT_NICENESS) -> None:
    """A bot worker's set-up: its CPU priority (``niceness`` lower than the event loop's), and an end with the
    ``referee`` process (its pid): a worker whose referee was killed exits instead of idling on, orphaned."""
    try:
        if niceness:
            os.nice(niceness)
    except (AttributeError, OSError):
        pass
    threading.Thread(target=_exit_with, args=(referee,), name="exit-with-referee", daemon=True).start()


def _exit_with(referee: int) -> None:
    while os.getppid() == referee:
        time.sleep(ORPHAN_CHECK_S)
    os._exit(0)


def default_max_clients() -> int:
    """Connections at once: below this process's open-file limit (one file a connection), at most 10,000."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return 1000
    if soft == resource.RLIM_INFINITY:
        return 10_000
    return max(16, min(10_000, soft - RESERVED_FILES))


@dataclass(frozen=True)
class Config:
    """The referee's settings; every duration is in seconds."""

    grace: float = 60.0            # how long a dropped player may take to come back
    bot_delay: float = 0.8         # pause before each bot action, so humans can follow
    level: str = "normal"          # the bots' level
    lobby_timeout: float = 10.0    # waiting alone this long, the page is told (``no_opponent``)
    private_timeout: float = 900.0 # a private table nobody joins is given up
    max_message: int = 4096        # bytes in one frame
    rate: float = 10.0             # messages a second, sustained, per connection
    burst: int = 20                # messages at once, per connection
    flood_close: int = 200         # requests in a row over the rate before the connection is closed
    max_clients: int = field(default_factory=default_max_clients)  # connections at once
    max_per_address: int = 16      # connections at once from one address (one IPv6 /64)
    idle_timeout: float = 30.0     # a connection neither seated nor waiting this long is closed
    guesses: int = 10              # wrong private codes an address may try in a minute...
    guess_block: float = 60.0      # ...before its joins are refused this long
    bot_workers: int = 1           # processes in which bots think: never the event loop
    variant: str = "coinche"       # the default options of a table
    target: int = 1000
    clock: str = DEFAULT_CLOCK     # the turn clock of the queue's and 1v1 private tables (a friends' table: its own)
    clock_scale: float = 1.0       # every clock's times multiplied by this (tests: short clocks)
    clock_strikes: int = STRIKES   # timeouts in a row before a bot takes the seat

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}")
        if self.variant not in VARIANTS or self.target not in TARGETS:
            raise ValueError("unknown default variant or target")
        if min(self.grace, self.bot_delay, self.lobby_timeout, self.private_timeout, self.idle_timeout,
               self.guess_block) < 0:
            raise ValueError("durations must not be negative")
        if self.clock not in CLOCKS or self.clock_scale <= 0 or self.clock_strikes < 1:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, clock_scale above 0, clock_strikes at least 1")
        if self.bot_workers < 1:
            raise ValueError("bot_workers must be at least 1: bots never think in the event loop")
        if min(self.max_clients, self.max_per_address, self.guesses) < 1:
            raise ValueError("max_clients, max_per_address and guesses must be at least 1")


class Client:
    """One connection, as the referee sees it; the transport fills in ``send`` and ``close``."""

    _ids = itertools.count(1)
    remote = False  # its connection is here (coinche_referee.cluster.RemoteClient: on another process)

    def __init__(self, config: Config, peer: str = "", address: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.id = next(Client._ids)
        self.peer = peer
        self.address = address if address is not None else peer  # the key of the per-address limits
        self.bucket = TokenBucket(config.rate, config.burst, clock)
        self.strikes = 0
        self.table: Table | None = None
        self.seat = -1
        self.name: str | None = None  # the display name given with queue, create or join
        self.waiting: tuple[str, Any] | None = None  # ("queue", (variant, target)) while in the queue
        self.timer: asyncio.TimerHandle | None = None
        self.idle: asyncio.TimerHandle | None = None  # closes it if it neither sits nor waits in time
        self.entry: str | None = None  # what stands for it in the shared queue (with --redis)
        self.watching: Table | None = None  # the friends' table it watches, as a spectator

    def send(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    def close(self, code: int = 1000, reason: str = "") -> None:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {"table": None if self.table is None else id(self.table), "seat": self.seat, "name": self.name,
                "waiting": self.waiting, "timer": self.timer is not None}


class Referee:
    table_class = Table  # what a match is played at (a test double plants leaks in a subclass)

    def __init__(self, config: Config | None = None, loop: asyncio.AbstractEventLoop | None = None,
                 clock: Callable[[], float] = time.monotonic, store: Store | None = None) -> None:
        config = config if config is not None else Config()
        self.config = config
        self.loop = loop if loop is not None else asyncio.get_running_loop()
        self.store = store if store is not None else MemoryStore()
        self.cluster = None  # with --redis: the coinche_referee.cluster.Cluster this referee belongs to
        self.failures = FailureLog(log)
        self.draining = False  # stopping: no bot starts to think, no table starts
        self.by_id: dict[int, Client] = {}  # this process's connections, by number
        self.table_ids: dict[str, Table] = {}
        self.clients: set[Client] = set()
        self.per_address: dict[str, int] = {}
        self.guesses = GuessLimiter(config.guesses, 60.0, config.guess_block, clock)
        self.queues: dict[tuple[str, int], list[Client]] = {}
        self.seekers: dict[str, list[Client]] = {}  # preset -> the people waiting for a public table, in order
        self.private: dict[str, Table] = {}  # tables by code: waiting for players (or a friends' match on)
        self.tokens: dict[str, Table] = {}  # the hash of a person's token -> their table
        self.tables: set[Table] = set()
        self.actions = 0
        # each timeout of a clock armed before its deadline (the last CLOCK_FIGURES): seconds from the deadline
        # to the timer firing, to the bot's move back from its worker, and to the move stored (then told)
        self.clock_late: deque[float] = deque(maxlen=CLOCK_FIGURES)
        self.clock_thought: deque[float] = deque(maxlen=CLOCK_FIGURES)
        self.clock_stored: deque[float] = deque(maxlen=CLOCK_FIGURES)
        self.clock_refired = 0  # clocks whose deadline had passed when this process took their table over
        self.pool = self._new_pool()
        self.clock_pool: ProcessPoolExecutor | None = None  # the clock's worker, started for the first timeout
        self._waiting_jobs: dict[bool, deque] = {True: deque(), False: deque()}  # urgent?: (future, fn, args)
        self._working = 0  # jobs in the bots' workers now: at most one a worker
        self._clock_working = False  # a job in the clock's worker now

    def _new_pool(self, workers: int | None = None, niceness: int = BOT_NICENESS) -> ProcessPoolExecutor:
        """The bots' worker processes, at a lower CPU priority than the event loop: a busy host keeps
        answering its players at once and lets the bots wait."""
        return ProcessPoolExecutor(workers or self.config.bot_workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_bot_worker, initargs=(os.getpid(), niceness))

    def think(self, fn: Callable[..., Any], *args: Any, urgent: bool = False) -> asyncio.Future:
        """``fn(*args)`` in a bot worker process, its result in the future returned (cancel it: it is dropped).
        Each worker takes one job at a time; the others wait here in order.  An ``urgent`` job (a clock's
        move: the person's time is up) goes to the clock's own worker, which runs at the event loop's priority
        (the bots' workers run lower, and a busy host starves them first), or to the first bots' worker free,
        before every ordinary job waiting: it never waits behind a queue of bot moves."""
        future = self.loop.create_future()
        self._waiting_jobs[urgent].append((future, fn, args))
        self._feed_workers()
        return future

    def _feed_workers(self) -> None:
        urgent, ordinary = self._waiting_jobs[True], self._waiting_jobs[False]
        while urgent and not self._clock_working:
            self._start(urgent.popleft(), clock=True)
        while (urgent or ordinary) and self._working < self.config.bot_workers:
            self._start((urgent or ordinary).popleft(), clock=False)

    def _start(self, job: tuple, clock: bool) -> None:
        future, fn, args = job
        if future.done():  # cancelled while it waited
            return
        try:
            work = self._submit(fn, args, clock)
        except Exception as e:  # noqa: BLE001 - no worker could be started: the table that asked ends
            future.set_exception(e)
            return
        if clock:
            self._clock_working = True
        else:
            self._working += 1
        work.add_done_callback(lambda done: self._worked(future, done, clock))

    def _worked(self, future: asyncio.Future, job: asyncio.Future, clock: bool = False) -> None:
        if clock:
            self._clock_working = False
        else:
            self._working -= 1
        if not future.done():
            if job.cancelled():
                future.cancel()
            elif job.exception() is not None:
                future.set_exception(job.exception())
            else:
                future.set_result(job.result())
        self._feed_workers()

    def _submit(self, fn: Callable[..., Any], args: tuple, clock: bool) -> asyncio.Future:
        """``fn(*args)`` given to the bots' pool or the clock's; a pool broken by a dead worker is replaced first."""
        if clock and self.clock_pool is None:
            self.clock_pool = self._new_pool(1, CLOCK_NICENESS)
        pool = self.clock_pool if clock else self.pool
        try:
            return self.loop.run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            log.error("a bot worker died: starting new ones")
            pool.shutdown(wait=False, cancel_futures=True)
            if clock:
                self.clock_pool = pool = self._new_pool(1, CLOCK_NICENESS)
            else:
                self.pool = pool = self._new_pool()
            return self.loop.run_in_executor(pool, fn, *args)

    def close(self) -> None:
        """End every table here (a durable store keeps them for another process) and stop the bots'
        worker processes."""
        for table in list(self.tables):
            table.close(finished=not self.store.durable)
        for pool in (self.pool, self.clock_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------ connections
    def connect(self, client: Client) -> bool:
        """Welcome a new connection; ``False`` (after telling it why) when it may not stay: the referee
        is full (``server_full``), or its address has ``max_per_address`` connections already."""
        c = self.config
        if len(self.clients) >= c.max_clients:
            self._error(client, RefereeError("server_full"))
            return False
        if self.per_address.get(client.address, 0) >= c.max_per_address:
            self._error(client, RefereeError("too_many_connections", limit=c.max_per_address))
            return False
        self.clients.add(client)
        self.by_id[client.id] = client
        self.count(client.address)
        client.send(messages.message(
            "welcome", protocol=PROTOCOL, engine=ENGINE_VERSION, level=c.level,
            variants=list(VARIANTS), targets=list(TARGETS),
            defaults={"variant": c.variant, "target": c.target},
            grace=c.grace, lobby_timeout=c.lobby_timeout,
            limits={"max_message": c.max_message, "rate": c.rate, "burst": c.burst,
                    "idle": c.idle_timeout, "per_address": c.max_per_address, "guesses": c.guesses},
        ))
        self.watch(client)
        return True

    def disconnect(self, client: Client) -> None:
        if client in self.clients:
            self.clients.discard(client)
            self.by_id.pop(client.id, None)
            self.uncount(client.address)
        if client.idle is not None:
            client.idle.cancel()
            client.idle = None
        self._stop_waiting(client)
        if client.watching is not None:
            client.watching.unwatch(client)
        table = client.table
        if table is not None:
            client.table, seat, client.seat = None, client.seat, -1
            table.drop(seat)

    def watch(self, client: Client) -> None:
        """A connection neither playing nor waiting is closed after ``idle_timeout`` (it holds a file
        and counts against its address for nothing); playing or waiting, the clock stops.  At a table
        whose match is over, the clock runs: the players have seen the result."""
        table = client.table if client.watching is None else client.watching
        free = client.waiting is None and client in self.clients and (table is None or table.finished)
        if free and client.idle is None:
            client.idle = self.loop.call_later(self.config.idle_timeout, self._idle, client)
        elif not free and client.idle is not None:
            client.idle.cancel()
            client.idle = None

    def _idle(self, client: Client) -> None:
        client.idle = None
        table = client.table
        if client in self.clients and client.waiting is None and (table is None or table.finished):
            self._error(client, RefereeError("idle", seconds=self.config.idle_timeout))
            client.close(1000, "idle")

    def handle(self, client: Client, frame: str | bytes) -> None:
        """One frame from ``client``: answered (always, exactly once), and applied only if everything
        about it is right.  Over the rate, a request is refused with ``rate_limited`` (its ``id``
        echoed) unless it is an action of the seat to move: play is never held up as flooding."""
        within = client.bucket.take()
        client.strikes = 0 if within else client.strikes + 1
        try:
            request = parse_request(frame, self.config.max_message)
            if not within and not self._its_turn(client, request):
                raise RefereeError("rate_limited", id=request.id)
        except RefereeError as e:
            self._error(client, e, e.id)
            self.watch(client)
        else:
            self.dispatch(client, request)
        if client.strikes >= self.config.flood_close:  # answered, but it will not stop: cut it off
            client.close(1008, "flooding")

    def dispatch(self, client: Client, request: Request) -> None:
        """A request that may go ahead: applied, or refused with one error.  A request for a table that
        is writing waits until it is stored; one for a table another process decides goes there."""
        rid = request.id
        try:
            if client.watching is not None and request.type in SPECTATOR_REFUSED:
                raise RefereeError("spectator", id=rid)
            if request.type in TABLE_REQUESTS:
                table = client.table if request.type != "resume" else self._token_table(request, client)
                if table is not None and table.remote:
                    table.forward(client, request)
                    return
                if table is not None and table.busy:
                    table.backlog.append((client, request))
                    return
            getattr(self, "_on_" + request.type)(client, request)
        except RefereeError as e:
            self._error(client, e, e.id if e.id is not None else rid)
        except CoincheError as e:
            self._error(client, e, rid)
        except Exception as e:  # a bug must not take every table down with it
            log.exception("request failed")
            self._error(client, RefereeError("internal", detail=type(e).__name__), rid)
        finally:
            self.watch(client)

    def run(self, client: Client, request: Request, fn: Callable[[], None]) -> None:
        """``fn()`` for ``request``, answered like :meth:`dispatch` answers (one error if it refuses)."""
        try:
            fn()
        except RefereeError as e:
            self._error(client, e, e.id if e.id is not None else request.id)
        except CoincheError as e:
            self._error(client, e, request.id)
        finally:
            self.watch(client)

    def drain(self, table: Table) -> None:
        """The requests that waited while ``table`` wrote, in order, until it writes again (all of them
        if the table has ended: each gets its answer)."""
        while table.backlog and (table.closed or not table.busy):
            client, request = table.backlog.popleft()
            self.dispatch(client, request)

    def _token_table(self, request: Request, client: Client) -> Any:
        table = self.tokens.get(hash_token(request.fields["token"]))
        return table if table is not None else client.table

    @staticmethod
    def _its_turn(client: Client, request: Request) -> bool:
        table = client.table
        return request.type == "act" and table is not None and table.to_move(client.seat)

    @staticmethod
    def _error(client: Client, error: CoincheError, rid: int | str | None = None) -> None:
        client.send(messages.message("error", id=rid, error=messages.error(error)))

    @staticmethod
    def _reply(client: Client, request: Request, kind: str, **fields: Any) -> None:
        client.send(messages.message(kind, id=request.id, **fields))

    # ------------------------------------------------------------ the lobby
    def _options(self, request: Request) -> tuple[str, int]:
        return request.get("variant", self.config.variant), request.get("target", self.config.target)

    def _settings(self, given: dict[str, Any]) -> dict[str, Any]:
        """A table's settings: the creator's choice (one object), the referee's defaults for the rest; house
        rules (``rules``, a notation) are read here: an unknown option or value raises, naming it.  With
        rules, an omitted variant or target is the rules' own (``de-2000``: to 2000); a given one wins."""
        c = self.config
        rules = None if given.get("rules") is None else Rules.parse(given["rules"])
        own = (c.variant, c.target) if rules is None else (rules.variant, rules.target)
        settings = {"variant": given.get("variant", own[0]), "target": given.get("target", own[1]),
                    "level": given.get("level", c.level), "clock": given.get("clock", c.clock)}
        if rules is not None:
            rules = rules.with_match(settings["variant"], settings["target"])
            if not rules.is_own:
                settings["rules"] = str(rules)
        return settings

    def _free(self, client: Client, request: Request) -> None:
        if client.table is not None or client.waiting is not None:
            raise RefereeError("already_seated", id=request.id)

    def _lobby(self, client: Client, request: Request) -> None:
        """Checks common to queue, create, open and join; the name given (if any) goes with the player."""
        self._free(client, request)
        client.name = clean_name(request.get("name"))

    def count(self, address: str) -> None:
        self.per_address[address] = self.per_address.get(address, 0) + 1

    def uncount(self, address: str) -> None:
        left = self.per_address.get(address, 1) - 1
        if left > 0:
            self.per_address[address] = left
        else:
            self.per_address.pop(address, None)

    def _on_ping(self, client: Client, request: Request) -> None:
        self._reply(client, request, "pong")

    def _on_queue(self, client: Client, request: Request) -> None:
        """Sit with the next player waiting for the same options, or wait for one."""
        self._lobby(client, request)
        key = self._options(request)
        if self.cluster is not None:
            self.cluster.queue(client, request, key)
            return
        waiting = self.queues.setdefault(key, [])
        if waiting:
            other = waiting.pop(0)
            if not waiting:
                del self.queues[key]
            self._stop_waiting(other)
            self.pair(other, client, key)
            return
        waiting.append(client)
        client.waiting = ("queue", key)
        client.timer = self.loop.call_later(self.config.lobby_timeout, self._no_opponent, client)
        self._reply(client, request, "waiting", variant=key[0], target=key[1])

    def pair(self, first: Client, second: Client, key: tuple[str, int]) -> None:
        """A queued table for two players (``first`` waited): seats 0 and 1, the match starts."""
        table = self._table("queue", {"variant": key[0], "target": key[1], "level": self.config.level,
                                      "clock": self.config.clock})
        table.sit(first, 0)
        table.sit(second, 1)
        table.begin(self.match_seed())

    def _on_seek(self, client: Client, request: Request) -> None:
        """Wait for a public table of four of a preset: seated with the next three who come, or, after ``wait``
        seconds (0: at once), with whoever waits then, bots in the other seats."""
        self._free(client, request)
        name = public.preset(request.fields["preset"])
        self._lobby(client, request)
        wait = request.get("wait", public.DEFAULT_WAIT)
        if self.cluster is not None:
            self.cluster.seek(client, request, name, wait)
            return
        queue = self.seekers.setdefault(name, [])
        queue.append(client)
        client.waiting = ("public", name)
        self.tell_seeking(client, request, name, wait)
        if len(queue) >= public.SEATS or wait == 0:
            self.seat_public(name, queue[:public.SEATS])
        else:
            client.timer = self.loop.call_later(wait, self._seek_over, client, name)

    def tell_seeking(self, client: Client, request: Request, name: str, wait: int) -> None:
        variant, target, _ = public.PRESETS[name]
        self._reply(client, request, "seeking", preset=name, wait=wait, variant=variant, target=target)

    def _seek_over(self, client: Client, name: str) -> None:
        client.timer = None
        queue = self.seekers.get(name, [])
        if client.waiting == ("public", name) and client in queue:
            self.seat_public(name, queue[:public.SEATS])

    def seat_public(self, name: str, people: list[Client]) -> None:
        """A public table for ``people`` (in the order they came: seats 0, 1, 2, 3), bots in the other seats."""
        for client in people:
            self._stop_waiting(client, shared=False)
        variant, target, rules = public.PRESETS[name]
        given = {"variant": variant, "target": target, **({"rules": rules} if rules else {})}
        table = self._table("public", self._settings(given))
        for seat, client in enumerate(people):
            table.sit(client, seat)
        table.begin(self.match_seed())

    def _no_opponent(self, client: Client) -> None:
        client.timer = None
        if client.waiting is not None and client.waiting[0] == "queue":
            client.send(messages.message("no_opponent", waited=self.config.lobby_timeout))

    def _table(self, kind: str, settings: dict[str, Any], code: str | None = None) -> Table:
        return self.add_table(self.table_class(self, kind, settings, code))

    def add_table(self, table: Table) -> Table:
        self.tables.add(table)
        self.table_ids[table.id] = table
        for seat in table.seats:
            if seat.hash is not None:
                self.tokens[seat.hash] = table
        return table

    def forget_code(self, code: str, table: Table, shared: bool = True) -> None:
        """``table`` no longer waits under ``code`` (it started, or it ended); ``shared``: nor does the
        code in the store (not so for a stored lobby left to another process)."""
        if self.private.get(code) is table:
            del self.private[code]
            if self.cluster is not None and shared:
                self.cluster.forget_code(code)

    def _private(self, client: Client, request: Request, kind: str, settings: dict[str, Any],
                 code: str | None = None) -> Table:
        """A table waiting for its players with a fresh code, its creator in seat 0.  It waits at most
        ``private_timeout`` seconds, and meanwhile counts against its creator's address like a connection.
        Its creator is told of it (``created``, or a friends' table's ``lobby``) once it is stored.
        (``code``: one the cluster has already reserved for it.)"""
        if code is None:
            self._lobby(client, request)
        if self.per_address.get(client.address, 0) >= self.config.max_per_address:
            raise RefereeError("too_many_connections", id=request.id, limit=self.config.max_per_address)
        while code is None or code in self.private:
            code = new_code()
        table = self._table(kind, settings, code)
        self.private[code] = table
        table.sit(client, 0)
        table.counted = client.address
        self.count(client.address)
        table.deadline = self.loop.call_later(self.config.private_timeout, table.expire)
        if self.store.durable:  # stored before its creator is told of it (``created`` or ``lobby``)
            table.store_lobby(request.id)
        else:
            client.send(table.lobby_message(0, request.id))
        return table

    def _on_create(self, client: Client, request: Request, code: str | None = None) -> None:
        """A 1v1 private table: the code to share; the match starts when someone joins with it."""
        if self.cluster is not None and code is None:
            self._lobby(client, request)
            self.cluster.reserve_code(client, request, self._on_create)
            return
        settings = self._settings({k: request.get(k) for k in ("variant", "target", "rules") if k in request.fields})
        self._private(client, request, "private", settings, code)

    def _on_open(self, client: Client, request: Request, code: str | None = None) -> None:
        """A friends' table: its lobby, with the code to share; its creator is the host."""
        if self.cluster is not None and code is None:
            self._lobby(client, request)
            self.cluster.reserve_code(client, request, self._on_open)
            return
        given = request.get("settings", {})
        settings = self._settings(given)
        settings["spectators"] = given.get("spectators", True)
        self._private(client, request, "friends", settings, code)

    def _on_join(self, client: Client, request: Request) -> None:
        """Sit at the private table waiting with this code.  Wrong codes are counted per address: past
        ``guesses`` a minute, every join from it is refused for ``guess_block`` seconds."""
        self._free(client, request)
        wait = self.guesses.blocked(client.address)
        if wait > 0:
            raise RefereeError("too_many_guesses", id=request.id, retry_after=int(wait) + 1)
        code = parse_code(request.get("code"))
        if self.cluster is not None and code is not None and not client.remote:
            # the wrong codes are counted across the processes first; the table may wait on another one
            self.cluster.join(client, request, code)
            return
        self.join_here(client, request, code)

    def join_here(self, client: Client, request: Request, code: str | None) -> None:
        """Sit at the private table waiting here with ``code`` (``None``: not a code)."""
        table = None if code is None else self.private.get(code)
        if table is None and code is not None and self.cluster is not None:
            self.cluster.join(client, request, code)  # forwarded here, and the table is gone meanwhile
            return
        if table is None:
            self.guesses.failed(client.address)
            raise RefereeError("no_such_table", id=request.id, code=request.get("code"))
        if table.friends and not request.get("lobby", False):
            raise RefereeError("update_page", id=request.id, code=code)
        if table.started:
            raise RefereeError("match_started", id=request.id, code=code)
        if not table.free_seats():
            raise RefereeError("table_full", id=request.id, code=code)
        self._lobby(client, request)
        if not table.friends:
            table.sit(client, 1)
            table.begin(self.match_seed())
            return
        seat = table.sit(client)
        table.send_lobby(seat, request.id)

    def _in_lobby(self, client: Client, request: Request) -> Table:
        table = client.table
        if table is None or not table.friends or table.started:
            raise RefereeError("not_in_lobby", id=request.id)
        return table

    def _on_sit(self, client: Client, request: Request) -> None:
        """Move to another free seat of a friends' table before its start."""
        table = self._in_lobby(client, request)
        try:
            table.move(client.seat, request.fields["seat"])
        except RefereeError as e:
            e.id = request.id
            raise
        table.send_lobby(client.seat, request.id)

    def _on_begin(self, client: Client, request: Request) -> None:
        """The host starts the friends' table: bots sit in the empty seats."""
        table = self._in_lobby(client, request)
        if client.seat != table.host:
            raise RefereeError("not_host", id=request.id, seat=table.host)
        if len(table.people()) < MIN_FRIENDS:
            raise RefereeError("too_few_players", id=request.id, limit=MIN_FRIENDS)
        table.begin(self.match_seed(), request.id)

    def _on_watch(self, client: Client, request: Request) -> None:
        """Watch the match of a friends' table by its code, as a spectator: only what every seat sees."""
        self._free(client, request)
        wait = self.guesses.blocked(client.address)
        if wait > 0:
            raise RefereeError("too_many_guesses", id=request.id, retry_after=int(wait) + 1)
        code = parse_code(request.get("code"))
        table = None if code is None else self.private.get(code)
        if table is None and code is not None and self.cluster is not None:
            if client.remote:  # its code brought it here, and the table has just moved on: ask again
                raise RefereeError("unavailable", id=request.id)
            self.cluster.watch(client, request, code)  # the table may be on another process
            return
        if table is None or not table.friends:
            self.guesses.failed(client.address)
            raise RefereeError("no_such_table", id=request.id, code=request.get("code"))
        if not table.started:
            raise RefereeError("not_started", id=request.id)
        if not table.settings.get("spectators", True):
            raise RefereeError("no_spectators", id=request.id, code=code)
        if len(table.watchers) >= MAX_SPECTATORS:
            raise RefereeError("too_many_spectators", id=request.id, limit=MAX_SPECTATORS)
        table.watch(client, request.id)

    def _on_cancel(self, client: Client, request: Request) -> None:
        if client.watching is not None:
            client.watching.unwatch(client)
            self._reply(client, request, "cancelled")
            return
        table = client.table
        if client.waiting is None and (table is None or table.started):
            raise RefereeError("not_waiting", id=request.id)
        if table is not None:
            client.table, seat, client.seat = None, client.seat, -1
            table.leave(seat)
        self._stop_waiting(client)
        self._reply(client, request, "cancelled")

    def _stop_waiting(self, client: Client, shared: bool = True) -> None:
        """Out of the queue (a private table's waiting is the table's own business); ``shared``: out of
        the shared queue too (with --redis)."""
        if client.timer is not None:
            client.timer.cancel()
            client.timer = None
        waiting, client.waiting = client.waiting, None
        if waiting is None:
            return
        if self.cluster is not None:
            if shared:
                self.cluster.unwait(client, waiting)
            return
        pool = self.seekers if waiting[0] == "public" else self.queues
        queue = pool.get(waiting[1], [])
        if client in queue:
            queue.remove(client)
        if not queue:
            pool.pop(waiting[1], None)

    def match_seed(self) -> str:
        """A fresh secret seed for a match (it never leaves the referee)."""
        return secrets.token_hex(8)

    # ------------------------------------------------------------ at the table
    def _seated(self, client: Client, request: Request) -> Table:
        if client.table is None:
            raise RefereeError("not_seated", id=request.id)
        return client.table

    def _on_act(self, client: Client, request: Request) -> None:
        table = self._seated(client, request)
        table.act(client.seat, request.fields["action"], request.get("seq"), request.id)

    def _on_say(self, client: Client, request: Request) -> None:
        """A quick-chat phrase to everyone at the table (and its spectators)."""
        self._seated(client, request).say(client.seat, request.fields["phrase"], request.id)

    def _on_state(self, client: Client, request: Request) -> None:
        if client.watching is not None:
            client.watching.send_watching(client, request.id, "state")
            return
        self._seated(client, request).send_state(client.seat, request.id)

    def _on_resume(self, client: Client, request: Request) -> None:
        token = request.fields["token"]
        table = self.tokens.get(hash_token(token))
        if table is None:
            if self.cluster is not None:  # the table may be on another process, or in the store
                self._free(client, request)
                self.cluster.resume(client, request)
                return
            raise RefereeError("bad_token", id=request.id)
        seat = table.seat_of(token)
        if client.table is not table or client.seat != seat:
            self._free(client, request)
        table.resume(seat, client, request.id, token)

    def _on_leave(self, client: Client, request: Request) -> None:
        if client.watching is not None:
            client.watching.unwatch(client)
        elif client.waiting is not None:
            self._stop_waiting(client)
        elif client.table is not None:
            table, seat = client.table, client.seat
            client.table, client.seat = None, -1
            table.leave(seat)
        else:
            raise RefereeError("not_seated", id=request.id)
        self._reply(client, request, "left")

    # ------------------------------------------------------------ inspection
    def describe(self) -> dict[str, Any]:
        """The whole lobby and every table as plain values (tests compare two of them)."""
        return {
            "clients": sorted((c.id, repr(c.describe())) for c in self.clients),
            "queues": {f"{k[0]}/{k[1]}": [c.id for c in v] for k, v in self.queues.items()},
            "seekers": {k: [c.id for c in v] for k, v in self.seekers.items()},
            "private": {code: id(table) for code, table in self.private.items()},
            "tokens": sorted((t, table.id) for t, table in self.tokens.items()),
            "tables": sorted((repr(t.describe()) for t in self.tables)),
            "actions": self.actions,
        }

    def stats(self) -> dict[str, Any]:
        return {
            "clients": len(self.clients), "addresses": len(self.per_address), "tables": len(self.tables),
            "waiting": sum(map(len, self.queues.values())) + len(self.private), "actions": self.actions,
            "timeouts": len(self.clock_late), "clock_late_p99": _p99(self.clock_late),
            "clock_thought_p99": _p99(self.clock_thought),
            "clock_stored_p99": _p99(self.clock_stored), "clock_stored_max": _p99(self.clock_stored, 1.0),
            "clocks_refired": self.clock_refired,
        }


def _p99(values, q: float = 0.99) -> float | None:
    """The ``q`` quantile of ``values`` (None: none), rounded to the millisecond.

    >>> _p99(range(1, 201)), _p99([0.5, 0.25], 1.0), _p99([])
    (199, 0.5, None)
    """
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3) if ordered else None


__all__ = ["Config", "Client", "Referee", "default_max_clients"]
