"""A table: four seats, each held by a person or a bot, and the match played at it.

Three kinds of table (:attr:`Table.kind`):

- ``"queue"``: two players paired by the queue, in seats 0 and 1 (opponents), each with a bot partner;
- ``"private"``: the same, the second player coming with the creator's code (``create`` / ``join``);
- ``"friends"``: a private table for two to four people.  It opens in a **lobby**: whoever comes with the
  code takes a free seat (and may move to another free one, or leave, which frees it); the host (its
  creator, or the next person seated if the creator left) starts the match, and every empty seat gets a
  bot.  During the match a person who leaves, or does not come back within the grace period, is replaced
  by a bot at once, and may take the seat back with their own token while the match goes on.

A seat (:class:`Seat`) is human or not, with the person's token, name and connection.  Nothing here does
I/O: a client is anything with ``send(message)``, and the timers run on the referee's event loop; the bots
think in the referee's worker processes, never in the event loop.  Each person only ever receives
:meth:`Table.state_for` their own seat and :meth:`Table.public_event` of what happened, both built field
by field (:mod:`coinche_referee.messages`).

With a durable store (``--redis``) nothing a table decides is told to anyone before it is stored: the
match when it starts (:meth:`Table.record`), then every action.  While a write is under way the table
is ``busy`` and the requests for it wait in ``backlog``, in order.  A table waiting for its players (a
friends' lobby, a 1v1 private table) is stored too, with every change of its seats, before anyone is told.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Protocol

from coinche.deal import Phase
from coinche.errors import IllegalActionError, OutOfTurnError
from coinche.session import Session

import coinche_referee.messages as messages  # not `from . import`, which imports this package's __init__
from .chat import ChatLimit, parse_phrase
from .clock import DEFAULT as DEFAULT_CLOCK
from .clock import ClockSettings, TurnClock
from .protocol import RefereeError
from .store import NotOwner, StoreError, StoreUnavailable, TableRecord, hash_token


# What a table uses of its referee and of a player's connection (coinche_referee.referee's Referee and
# Client are these): described here, not imported, since the referee imports this module.
class Client(Protocol):
    name: str | None
    table: "Table | None"
    seat: int

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self, code: int = 1000, reason: str = "") -> None: ...


class Referee(Protocol):
    config: Any  # coinche_referee.referee.Config: grace, bot_delay
    loop: Any  # the asyncio event loop: call_later, create_task
    tokens: dict[str, Any]  # a token's hash -> its table
    tables: set["Table"]
    table_ids: dict[str, "Table"]
    actions: int
    store: Any  # coinche_referee.store.Store: where the table is written
    failures: Any  # coinche_referee.failures.FailureLog: the store's failures, once per interval
    draining: bool  # the referee stops: no bot starts to think

    def think(self, fn: Callable[..., Any], *args: Any, urgent: bool = False) -> Any: ...

    def watch(self, client: Client) -> None: ...

    def uncount(self, address: str) -> None: ...

    def drain(self, table: "Table") -> None: ...

    def forget_code(self, code: str, table: "Table") -> None: ...


log = logging.getLogger("coinche_referee")

SEATS = (0, 1, 2, 3)
PAIR = (0, 1)  # the seats of the two players at a queued or 1v1 private table
KINDS = ("queue", "private", "friends", "public")
MIN_FRIENDS = 2  # people seated before a friends' table may start


def decide(bot, view) -> str:
    """A bot's action for its view, in a worker process (``--bot-workers``)."""
    return str(bot.act(view))


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class Seat:
    """One seat.  ``human``: a person holds it (else it is empty in the lobby, a bot in the match).
    ``token`` proves the person's seat; at a friends' table it outlives a bot's taking over, so that its
    owner, and only they, can take the seat back.  ``client`` is the person's connection (``None``: away)."""

    human: bool = False
    token: str | None = None  # None also at a table taken over from the store until its owner is back
    name: str | None = None
    client: "Client | None" = None
    hash: str | None = None  # the token's hash: what the referee (and its store) know the seat by

    @property
    def connected(self) -> bool:
        return self.client is not None

    def describe(self) -> dict[str, Any]:
        return {"human": self.human, "token": self.token, "name": self.name,
                "client": None if self.client is None else self.client.id, "hash": self.hash}


class Table:
    remote = False  # the table is here (coinche_referee.cluster.RemoteTable stands for one that is not)

    def __init__(self, referee: "Referee", kind: str, settings: dict[str, Any], code: str | None = None,
                 table_id: str | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        self.referee = referee
        self.kind = kind
        self.settings = dict(settings)  # variant, target, level (the creator's choice: one object)
        self.code = code
        self.seats = [Seat() for _ in SEATS]
        self.host = 0
        self.session: Session | None = None  # None while the table waits for its players (the lobby)
        self.away: dict[int, Any] = {}  # seat -> the timer that ends its grace period
        self.bot_timer = None
        self.clock: TurnClock | None = None  # the turn clock, once the match is on
        self.clock_timer = None  # the timer of the decision timed, then the bot's thinking when it runs out
        self.clock_fired: int | None = None  # the action number whose time ran out: the person may no longer act
        self.watchers: set = set()  # the spectators' connections (a friends' table's match)
        self.chat: dict[int, ChatLimit] = {}  # each seat's allowance of quick-chat phrases
        self.deadline = None  # the timer that gives up a table still waiting for its players
        self.counted: str | None = None  # the address this waiting table counts against (its creator's)
        self.closed = False
        self.id = table_id if table_id is not None else secrets.token_hex(8)
        self.hashes: set[str] = set()  # every token hash it ever had: forgotten by the store at the end
        self.stored = False  # the store has it (its match started there, or it was taken over from there)
        self.busy = False  # a write is under way: nothing more is decided or told until it is stored
        self.backlog: deque = deque()  # (client, request) that came while busy
        self._writing: asyncio.Task | None = None

    # ------------------------------------------------------------ what it is
    @property
    def friends(self) -> bool:
        return self.kind in ("friends", "public")  # a public table of four strangers plays as one

    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def finished(self) -> bool:
        return self.session is not None and self.session.match.is_over

    @property
    def tokens(self) -> dict[int, str]:
        """The tokens that still work, by seat."""
        return {seat: s.token for seat, s in enumerate(self.seats) if s.token is not None}

    def seat_of(self, token: str) -> int:
        token_hash = hash_token(token)
        return next(seat for seat, s in enumerate(self.seats) if s.hash == token_hash)

    def to_move(self, seat: int) -> bool:
        """It is the person in ``seat`` who must act now."""
        session = self.session
        return session is not None and seat in session.humans and session.match.current_player == seat

    def record(self) -> TableRecord:
        """What the store keeps of the table besides its actions (never a token: their hashes)."""
        kept = {k: self.settings[k] for k in ("clock", "spectators") if k in self.settings}
        settings = self.settings if self.session is None else dict(self.session.settings, **kept)
        until = None
        if self.session is None and self.deadline is not None:
            until = round(time.time() + max(0.0, self.deadline.when() - self.referee.loop.time()), 3)
        return TableRecord(self.id, self.kind, dict(settings), self.code, [s.name for s in self.seats],
                           {seat: s.hash for seat, s in enumerate(self.seats) if s.hash is not None}, self.host,
                           self.session is None, until)

    @classmethod
    def waiting(cls, referee: "Referee", record: TableRecord) -> "Table":
        """A friends' lobby taken over from the store: its seats, names and host (people away until they
        resume with their tokens), waiting under its code until the time it had left."""
        table = cls(referee, record.kind, record.settings, record.code, table_id=record.id)
        table.host = record.host
        for seat, s in enumerate(table.seats):
            s.name = record.names[seat]
            s.hash = record.tokens.get(seat)
            s.human = s.hash is not None
            if s.hash is not None:
                table.hashes.add(s.hash)
        left = referee.config.private_timeout if record.until is None else record.until - time.time()
        table.deadline = referee.loop.call_later(max(0.0, left), table.expire)
        table.stored = True
        return table

    @classmethod
    def restore(cls, referee: "Referee", record: TableRecord, session: Session) -> "Table":
        """A table taken over from the store: its match, its people (away until they resume)."""
        settings = session.settings
        kept = {k: settings[k] for k in ("variant", "target", "level", "rules") if k in settings}
        kept["clock"] = record.settings.get("clock", DEFAULT_CLOCK)
        if "spectators" in record.settings:
            kept["spectators"] = record.settings["spectators"]
        table = cls(referee, record.kind, kept, record.code, table_id=record.id)
        table.session = session
        table.clock = TurnClock.parse(table.clock_settings(), record.clock)
        for seat, s in enumerate(table.seats):
            s.name = record.names[seat]
            s.hash = record.tokens.get(seat)
            s.human = seat in session.humans
            if s.hash is not None:
                table.hashes.add(s.hash)
        table.stored = True
        return table

    def free_seats(self) -> list[int]:
        return [seat for seat, s in enumerate(self.seats) if not s.human]

    def people(self) -> list[int]:
        """Seats held by people (connected or away)."""
        return [seat for seat, s in enumerate(self.seats) if s.human]

    def _player(self, s: Seat) -> str:
        return "human" if s.human else ("bot" if self.started else "empty")

    def public_seats(self) -> list[dict[str, Any]]:
        """Who sits where, as everyone at the table may see it (never a token)."""
        return [{"player": self._player(s), "name": s.name, "connected": s.connected} for s in self.seats]

    def names(self) -> list[str | None]:
        names = [s.name for s in self.seats]
        return names if self.friends else names[:2]

    # ------------------------------------------------------------ messages
    def state_for(self, seat: int) -> dict[str, Any]:
        return messages.seat_state(self.session, seat, None if self.clock is None else self.clock.view(time.time()))

    def spectator_state(self) -> dict[str, Any]:
        return messages.spectator_state(self.session, None if self.clock is None else self.clock.view(time.time()))

    # ------------------------------------------------------------ quick chat
    def say(self, seat: int, phrase: str, rid: int | str | None) -> None:
        """A phrase of ``seat`` to every person at the table and its spectators; refused (and nothing said)
        when it is not a phrase, or past the seat's allowance."""
        phrase = parse_phrase(phrase)
        if not self.seats[seat].human:
            raise RefereeError("seat_lost", id=rid)
        wait = self.chat.setdefault(seat, ChatLimit()).allow()
        if wait:
            raise RefereeError("chat_limited", id=rid, retry_after=int(wait))
        for other in self.people():
            self._send(other, "said", id=rid if other == seat else None, seat=seat, phrase=phrase)
        for client in list(self.watchers):
            client.send(messages.message("said", seat=seat, phrase=phrase))

    # ------------------------------------------------------------ spectators
    def watch(self, client: "Client", rid: int | str | None = None) -> None:
        """A spectator watches the match from now on: told only what every seat sees."""
        self.watchers.add(client)
        client.watching = self
        self.send_watching(client, rid)

    def send_watching(self, client: "Client", rid: int | str | None = None, kind: str = "watching") -> None:
        if kind == "state":
            client.send(messages.message("state", id=rid, state=self.spectator_state()))
            return
        client.send(messages.message("watching", id=rid, code=self.code, names=self.names(),
                                     seats=self.public_seats(), state=self.spectator_state()))

    def unwatch(self, client: "Client") -> None:
        self.watchers.discard(client)
        client.watching = None
        self.referee.watch(client)

    def public_event(self, event: dict[str, Any], deal_index: int) -> dict[str, Any]:
        return messages.event(event, deal_index)

    def _send(self, to: int, kind: str, /, **fields: Any) -> None:
        client = self.seats[to].client
        if client is not None:
            client.send(messages.message(kind, **fields))

    def _send_state(self, to: int, kind: str, /, **fields: Any) -> None:
        client = self.seats[to].client
        if client is not None:
            client.send(messages.message(kind, **fields, state=self.state_for(to)))

    def _send_seated(self, to: int, kind: str, rid: int | str | None = None) -> None:
        """``start`` or ``resumed``: the seat, its token, the names; at a friends' table, the seats too."""
        extra = {"seats": self.public_seats()} if self.friends else {}
        self._send_state(to, kind, id=rid, seat=to, token=self.seats[to].token, code=self.code,
                         names=self.names(), **extra)

    def _tell_others(self, seat: int, status: str, **fields: Any) -> None:
        """A person's presence, to the other people: ``opponent`` at a 1v1 table, ``presence`` (with the
        whole seating) at a friends' table."""
        if not self.friends:
            self._send(1 - seat, "opponent", status=status, seat=seat, **fields)
            return
        seats = self.public_seats()
        for other in self.people():
            if other != seat:
                self._send(other, "presence", status=status, seat=seat, seats=seats, **fields)
        for client in list(self.watchers):
            client.send(messages.message("presence", status=status, seat=seat, seats=seats, **fields))

    def _broadcast(self, event: dict, deal_index: int, actor: int = -1, rid: int | str | None = None) -> None:
        public = self.public_event(event, deal_index)
        for seat in SEATS:
            self._send_state(seat, "update", id=rid if seat == actor else None, event=public)
        if self.watchers:
            update = messages.message("update", event=public, state=self.spectator_state())
            for client in list(self.watchers):
                client.send(update)
        if self.finished:  # the players' connections are now idle ones
            self._watch_all()

    def _watch_all(self) -> None:
        for client in [s.client for s in self.seats if s.client is not None] + list(self.watchers):
            self.referee.watch(client)

    # ------------------------------------------------------------ the lobby (before the start)
    def lobby_message(self, seat: int, rid: int | str | None = None) -> dict[str, Any]:
        """What a person waiting at the table is told of it: ``lobby`` at a friends' table, ``created`` (its
        code, and the creator's token to resume with) at a 1v1 private table."""
        if self.kind == "private":
            return messages.message("created", id=rid, code=self.code, variant=self.settings["variant"],
                                    target=self.settings["target"], token=self.seats[seat].token)
        left = 0.0 if self.deadline is None else max(0.0, self.deadline.when() - self.referee.loop.time())
        return messages.message("lobby", id=rid, code=self.code, seat=seat, token=self.seats[seat].token,
                                host=self.host, settings=dict(self.settings), seats=self.public_seats(),
                                expires=round(left, 1))

    def send_lobby(self, answer: int = -1, rid: int | str | None = None) -> None:
        """The lobby as it is now, to every person at the table (``rid`` in ``answer``'s copy); with a
        durable store, stored there first (another process takes it over if this one goes)."""
        if self.stored and self.session is None and not self.closed:
            self._persist_record(then=lambda: self._tell_lobby(answer, rid), blocking=True)
        else:
            self._tell_lobby(answer, rid)

    def _tell_lobby(self, answer: int, rid: int | str | None) -> None:
        for seat in self.people():
            client = self.seats[seat].client
            if client is not None:
                client.send(self.lobby_message(seat, rid if seat == answer else None))

    def sit(self, client: "Client", seat: int | None = None) -> int:
        """A newcomer takes ``seat`` (the first free one if ``None``); raises when it is not free."""
        free = self.free_seats()
        if seat is None:
            if not free:
                raise RefereeError("table_full")
            seat = free[0]
        elif seat not in free:
            raise RefereeError("seat_taken", seat=seat)
        token = new_token()
        self.seats[seat] = Seat(human=True, token=token, name=client.name, hash=hash_token(token))
        self.hashes.add(self.seats[seat].hash)
        self._bind(seat, client)
        self.referee.tokens[self.seats[seat].hash] = self
        return seat

    def move(self, seat: int, to: int) -> None:
        """A person in the lobby moves to another free seat (their token goes with them)."""
        if to != seat and to not in self.free_seats():
            raise RefereeError("seat_taken", seat=to)
        if to == seat:
            return
        self.seats[to], self.seats[seat] = self.seats[seat], Seat()
        if self.seats[to].client is not None:
            self.seats[to].client.seat = to
        timer = self.away.pop(seat, None)
        if timer is not None:
            self.away[to] = timer
        if self.host == seat:
            self.host = to

    def _free_seat(self, seat: int) -> None:
        """Before the start: the seat is empty again; the host passes to the next person seated."""
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._forget_token(seat)
        self.seats[seat] = Seat()
        people = self.people()
        if not people:
            self.close()
            return
        if self.host == seat:
            connected = [p for p in people if self.seats[p].connected]
            self.host = (connected or people)[0]
        self.send_lobby()

    def begin(self, seed: str, rid: int | str | None = None) -> None:
        """The match starts with the people seated now; a bot of the table's level sits in every other seat.
        With a durable store, nobody is told before the match is stored (:meth:`_not_stored` if it cannot be)."""
        humans = tuple(self.people())
        self.session = Session.new(self.settings["variant"], self.settings["target"], self.settings["level"],
                                   seed=seed, humans=humans, rules=self.settings.get("rules"))
        if not self.referee.store.durable:
            self._started(rid)
            return
        self._store_created(lambda: self._started(rid), lambda: self._not_stored(rid))

    def store_lobby(self, rid: int | str | None) -> None:
        """A new friends' table or 1v1 private table, written to a durable store before its creator is told
        of it: a process that takes it over (this one stopped or died) goes on waiting under its code."""
        self._store_created(lambda: self._lobby_stored(rid), lambda: self._lobby_not_stored(rid))

    def _store_created(self, stored: Callable[[], None], refused: Callable[[], None]) -> None:
        """The table's record created in the store (the table ``busy`` meanwhile), then ``stored()``, or
        ``refused()`` if the store cannot take it."""
        self.busy = True

        async def create() -> None:
            try:
                await self.referee.store.create(self.record())
            except StoreError as e:
                self.referee.failures.add("store a new table", e)
                self.busy = False
                refused()
            else:
                self.busy, self.stored = False, True
                stored()
            self.referee.drain(self)

        self.referee.loop.create_task(create())

    def _lobby_stored(self, rid: int | str | None) -> None:
        if self.referee.cluster is not None:
            self.referee.cluster.lobby_stored(self)
        client = self.seats[self.host].client
        if client is not None:
            client.send(self.lobby_message(self.host, rid))

    def _lobby_not_stored(self, rid: int | str | None) -> None:
        client = self.seats[self.host].client
        self.close(finished=False)
        if client is not None:
            client.table, client.seat = None, -1
            client.send(messages.message("error", id=rid, error=messages.error(RefereeError("unavailable"))))
            self.referee.watch(client)

    def _started(self, rid: int | str | None) -> None:
        self._stop_waiting()
        if self.kind == "friends" and self.referee.cluster is not None:  # its code finds it for spectators
            self.referee.cluster.code_kept(self)
        self.clock = TurnClock(self.clock_settings())
        self._time_decision()
        self._arm_clock()
        if self.kind == "private":
            self.referee.forget_code(self.code, self)
        for seat in self.people():
            self._send_seated(seat, "start", rid if seat == self.host else None)
        self._watch_all()
        self._schedule_bot()

    def _not_stored(self, rid: int | str | None) -> None:
        """The store could not take the new match: it does not start.  A friends' table stays in its lobby
        (the host's ``begin`` is refused); a 1v1 private table's joiner stands up again (its creator waits
        on); a queued pair both stand up."""
        self.session = None
        refusal = messages.message("error", error=messages.error(RefereeError("unavailable")))
        if self.kind == "friends":
            client = self.seats[self.host].client
            if client is not None:
                client.send(dict(refusal, **({"id": rid} if rid is not None else {})))
            return
        standing = [1] if self.kind == "private" else self.people()
        for seat in standing:
            client = self.seats[seat].client
            self._forget_token(seat)
            self.seats[seat] = Seat()
            if client is not None:
                client.table, client.seat = None, -1
                client.send(refusal)
                self.referee.watch(client)
        if not self.people():
            self.close()

    def _stop_waiting(self) -> None:
        """No longer a waiting table: its deadline goes, and it no longer counts against its creator."""
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        if self.counted is not None:
            self.referee.uncount(self.counted)
            self.counted = None

    def expire(self) -> None:
        """Nobody started it in time: everyone at the table is told (``expired``) and the table goes."""
        self.deadline = None
        clients = [s.client for s in self.seats if s.client is not None]
        for client in clients:
            client.send(messages.message("expired", code=self.code))
            client.table, client.seat = None, -1
        self.close()
        for client in clients:
            self.referee.watch(client)

    # ------------------------------------------------------------ seating, connections
    def _bind(self, seat: int, client: "Client") -> None:
        self.seats[seat].client = client
        client.table, client.seat = self, seat

    def resume(self, seat: int, client: "Client", rid: int | str | None, token: str | None = None) -> None:
        """A person back with their token: a new connection takes the seat over; at a friends' table during
        the match, a seat a bot took from them is theirs again."""
        s = self.seats[seat]
        if token is not None:
            s.token = token  # known again at a table taken over from the store
        old = s.client
        if old is not None and old is not client:
            old.table, old.seat = None, -1
            old.send(messages.message("error", error=messages.error(RefereeError("superseded"))))
            old.close(4000, "superseded")
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        returned = self.started and not s.human
        if returned:  # only a friends' table keeps the token of a replaced seat
            s.human = True
            self.session.take_back(seat)
            self.clock.forgive(seat)
            self._time_decision()
            self._arm_clock()
            self._persist_record()
        self._bind(seat, client)
        if not self.started:
            self.send_lobby(seat, rid)
            return
        if returned:
            self._tell_others(seat, "returned")
            self._cancel_bot_for(seat)
        elif timer is not None:
            self._tell_others(seat, "back")
        self._send_seated(seat, "resumed", rid)

    def drop(self, seat: int) -> None:
        """The seat's connection is gone: it has ``grace`` seconds to come back (before the start, before
        its seat frees; during the match, before a bot sits)."""
        s = self.seats[seat]
        s.client = None
        if self.kind == "private" and not self.started:  # a 1v1 table by code: its creator gave up
            self._free_seat(seat)
            return
        if not s.human or self.finished:
            if not self.friends or self.finished:
                self._forget_token(seat)
            self._close_if_empty()
            return
        grace = self.referee.config.grace
        self.away[seat] = self.referee.loop.call_later(grace, self._grace_over, seat)
        if self.started:
            self._tell_others(seat, "away", grace=grace)
        else:
            self.send_lobby()

    def _grace_over(self, seat: int) -> None:
        self.away.pop(seat, None)
        if self.started:
            self.replace(seat)
        else:
            self._free_seat(seat)

    def leave(self, seat: int) -> None:
        """The person gives up the seat: before the start it frees; during the match a bot takes it at once."""
        s = self.seats[seat]
        s.client = None
        if not self.started:
            self._free_seat(seat)
        elif not self.finished and s.human:
            self.replace(seat)
        else:
            self._forget_token(seat)
            self._close_if_empty()

    def replace(self, seat: int) -> None:
        """A bot takes the seat (for the rest of the match at a 1v1 table), and the others are told."""
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self.seats[seat].human = False
        self.seats[seat].client = None
        self.session.replace_by_bot(seat)
        self._drop_clock_bot()
        self._time_decision()
        self._arm_clock()
        if not self.friends:
            self._forget_token(seat)
        self._persist_record()
        self._tell_others(seat, "replaced")
        self._schedule_bot()
        self._close_if_empty()

    def _forget_token(self, seat: int) -> None:
        s = self.seats[seat]
        if s.hash is not None:
            self.referee.tokens.pop(s.hash, None)
        s.token = s.hash = None

    def _close_if_empty(self) -> None:
        """Nobody at the table and nobody who may come back within a grace period: the table goes."""
        if any(s.client is not None for s in self.seats) or self.away:
            return
        self.close()

    def close(self, finished: bool = True) -> None:
        """The table ends here; ``finished``: for good (the store keeps it a while, then expires it), else
        only in this process (it stops, or another one took the table over)."""
        if self.closed:
            return
        self.closed = True
        if finished and self.stored:
            store, record, hashes = self.referee.store, self.record(), tuple(self.hashes)
            self._persist(lambda: store.finish(record, forget=hashes), blocking=False)
        self._stop_waiting()
        for timer in (*self.away.values(), self.bot_timer):
            if timer is not None:
                timer.cancel()
        self.away.clear()
        self.bot_timer = None
        if self.clock_timer is not None:
            self.clock_timer.cancel()
            self.clock_timer = None
        for seat in SEATS:
            self._forget_token(seat)
        if self.code is not None:  # a stored table left to another process keeps its shared code
            self.referee.forget_code(self.code, self, shared=finished or not self.stored)
        for client in list(self.watchers):  # a table that moves: its spectators watch it again where it goes
            self.unwatch(client)
            if not finished:
                client.close(1012, "the table moved, watch it again")
        self.referee.tables.discard(self)
        if self.referee.table_ids.get(self.id) is self:
            del self.referee.table_ids[self.id]

    def restored(self) -> None:
        """Taken over from the store by this process: the people's connections are elsewhere or gone, so
        each of them has the grace period to come back; the bots move on."""
        if not self.finished:
            for seat in self.people():
                self.away[seat] = self.referee.loop.call_later(self.referee.config.grace, self._grace_over, seat)
        if self.clock is not None:  # the decision stored goes on with its deadline; another one starts now
            self._time_decision()
            self._arm_clock()
        self._schedule_bot()
        self._close_if_empty()

    def lost(self, why: str = "moved") -> None:
        """Another process decides this table now (or its store refused it): its people here are
        disconnected, and their pages resume with their tokens wherever the table is."""
        log.warning("table %s %s: its players reconnect", self.id, why)
        for s in self.seats:
            client, s.client = s.client, None
            if client is not None:
                client.table, client.seat = None, -1
                client.close(1012, "the table moved, reconnect")
        self.close(finished=False)
        self.referee.drain(self)

    # ------------------------------------------------------------ the store
    def _persist_record(self, then: Callable[[], None] | None = None, blocking: bool = False) -> None:
        if self.stored:
            store, record = self.referee.store, self.record()
            gone = tuple(self.hashes - set(record.tokens.values()))  # their keys go: those tokens no longer work
            self._persist(lambda: store.update(record, forget=gone), then, blocking)

    def _persist(self, write: Callable[[], Awaitable[None]], then: Callable[[], None] | None = None,
                 blocking: bool = True) -> None:
        """``write()`` to the store, after the table's earlier writes, then ``then()``.  ``blocking``: the
        table is ``busy`` (nobody is told anything) until it is stored.  The in-memory store writes
        nothing: ``then()`` at once."""
        if not self.referee.store.durable:
            if then is not None:
                then()
            return
        if blocking:
            self.busy = True
        self._writing = self.referee.loop.create_task(self._write(self._writing, write, then, blocking))

    async def _write(self, previous: asyncio.Task | None, write, then, blocking: bool) -> None:
        if previous is not None:
            try:
                await previous
            except Exception:  # noqa: BLE001 - it logged its own failure
                pass
        if not await self._stored(write):
            return
        if blocking:
            self.busy = False
        if then is not None and not self.closed:
            then()
        if not self.busy and not self.closed:
            self.referee.drain(self)
            self._schedule_bot()

    async def _stored(self, write) -> bool:
        """Write until it is stored; ``False`` if the table is no longer this process's.  Meanwhile its
        people are told the server reconnects (once), and the failure is logged once per interval."""
        told, delay = False, 0.25
        while True:
            try:
                await write()
                break
            except StoreUnavailable as e:
                self.referee.failures.add("store write", e)
                if not told and not self.closed:
                    told = True
                    self.tell_all("server", status="reconnecting")
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
            except NotOwner:
                self.lost("was taken over by another process")
                return False
            except StoreError as e:
                log.error("table %s: %s", self.id, e)
                self.lost("could not be stored")
                return False
        if told and not self.closed:
            self.tell_all("server", status="back")
        return True

    def tell_all(self, kind: str, /, **fields: Any) -> None:
        for seat in SEATS:
            self._send(seat, kind, **fields)

    def _committed(self, seq: int, deal_index: int, event: dict, actor: int = -1,
                   rid: int | str | None = None, after: Callable[[], None] | None = None) -> None:
        """Actions from number ``seq`` on were applied (a bot's first card at a table of announcements comes
        with its declaration): stored (with a durable store) with the clock of the next decision, before
        anyone hears of them; then ``after()``."""
        actions = tuple(self.session.actions[seq:])
        self.referee.actions += len(actions)
        store = self.referee.store
        self._time_decision()
        clock = None if self.clock is None else self.clock.format()
        self._persist(lambda: store.append(self.id, seq, *actions, clock=clock),
                      then=lambda: self._told(event, deal_index, actor, rid, after))

    def _told(self, event: dict, deal_index: int, actor: int, rid: int | str | None,
              after: Callable[[], None] | None = None) -> None:
        self._arm_clock()
        self._broadcast(event, deal_index, actor=actor, rid=rid)
        if after is not None:
            after()
        self._schedule_bot()

    # ------------------------------------------------------------ play
    def act(self, seat: int, action: str, seq: int | None, rid: int | str | None) -> None:
        """A player's call or card, checked; raises and changes nothing when it is refused."""
        session = self.session
        if self.closed:  # it has just moved to another process: the page resumes there
            raise RefereeError("unavailable", id=rid)
        if session is None:
            raise RefereeError("not_started", id=rid)
        match = session.match
        if seat not in session.humans:
            raise RefereeError("seat_lost", id=rid)
        if seq is not None and seq != len(session.actions):
            if self.clock is not None and self.clock.played == [seq, seat]:
                raise RefereeError("too_late", id=rid, seq=seq)
            raise RefereeError("stale", id=rid, seq=len(session.actions), sent=seq)
        if match.is_over:
            raise IllegalActionError("match_over")
        if match.current_player != seat:
            raise OutOfTurnError("out_of_turn", seat=seat, expected=match.current_player)
        if self.clock_fired == len(session.actions):  # the bot is choosing in the person's stead
            raise RefereeError("too_late", id=rid, seq=len(session.actions))
        seq, deal_index = len(session.actions), match.deal_index
        event = session.act(seat, action)
        if self.clock is not None:
            self.clock.acted(seat, time.time())
        if self.clock_timer is not None:
            self.clock_timer.cancel()
            self.clock_timer = None
        self._committed(seq, deal_index, event, actor=seat, rid=rid)

    def send_state(self, seat: int, rid: int | str | None) -> None:
        if self.session is None:
            self.seats[seat].client.send(self.lobby_message(seat, rid))
        else:
            self._send_state(seat, "state", id=rid)

    # ------------------------------------------------------------ the turn clock
    def clock_settings(self) -> ClockSettings:
        return ClockSettings.preset(self.settings.get("clock", DEFAULT_CLOCK), self.referee.config.clock_scale)

    def _time_decision(self) -> None:
        """The clock times the decision now due, if a person is to make it (the same one keeps its deadline)."""
        session = self.session
        if self.clock is None or session is None:
            return
        match = session.match
        seat = match.current_player
        timed = seat if seat >= 0 and seat in session.humans and not match.is_over else None
        self.clock.begin(len(session.actions), timed, match.deal_index, match.deal.phase == Phase.AUCTION,
                         time.time())

    def _arm_clock(self) -> None:
        """The timer of the decision timed (none if nobody is), unless the bot is already choosing for it."""
        if isinstance(self.clock_timer, asyncio.Future):
            return
        if self.clock_timer is not None:
            self.clock_timer.cancel()
            self.clock_timer = None
        if self.clock is not None and self.clock.due is not None and not self.closed:
            left = self.clock.due - time.time()
            self.clock_timer = self.referee.loop.call_later(max(0.0, left), self._clock_fired, self.clock.seq,
                                                            self.clock.seat, left <= 0)

    def _drop_clock_bot(self) -> None:
        """A bot choosing for a person whose time ran out is dropped (the seat changed hands meanwhile)."""
        if isinstance(self.clock_timer, asyncio.Future):
            self.clock_timer.cancel()
            self.clock_timer = None
        self.clock_fired = None

    def _clock_fired(self, seq: int, seat: int, overdue: bool = False) -> None:
        """The time of decision ``seq`` ran out: the table's bot chooses for the seat at once (in a worker,
        before any other bot's move waiting there; no ``bot_delay``: the person has had their time).  A timer
        of a decision no longer due (a stale one) does nothing.  ``overdue``: the deadline had passed when
        the timer was set (a table taken over from the store), which the referee's figures count apart."""
        self.clock_timer = None
        session = self.session
        if self.closed or session is None or self.referee.draining:
            return
        if (self.clock.seq, self.clock.seat) != (seq, seat) or len(session.actions) != seq \
                or session.match.current_player != seat or seat not in session.humans:
            return
        if self.busy:  # a write under way: the table decides nothing until it is stored
            self.clock_timer = self.referee.loop.call_later(0.05, self._clock_fired, seq, seat, overdue)
            return
        self.clock_fired = seq
        due = None if overdue else self.clock.due
        if overdue:
            self.referee.clock_refired += 1
        else:
            self.referee.clock_late.append(time.time() - due)
        future = self.referee.think(decide, session.bot_for(seat), session.match.deal.view(seat), urgent=True)
        self.clock_timer = future
        future.add_done_callback(lambda done: self._clock_decided(seq, seat, done, due))

    def _clock_decided(self, seq: int, seat: int, future, due: float | None = None) -> None:
        if self.clock_timer is not future:  # dropped meanwhile
            return
        if due is not None:
            self.referee.clock_thought.append(time.time() - due)
        self.clock_timer, self.clock_fired = None, None
        session = self.session
        if self.closed or future.cancelled() or len(session.actions) != seq or seat not in session.humans:
            return
        deal_index = session.match.deal_index
        try:
            session.replace_by_bot(seat)
            try:
                event = session.bot_apply(seat, future.result())
            finally:
                session.take_back(seat)
        except Exception as e:  # a bot's bug must not take the referee down: end this table
            self._fail(e)
            return
        strikes = self.clock.timed_out(seat, seq)
        event["timeout"] = True
        self._committed(seq, deal_index, event, after=lambda: self._timed_out(seat, strikes, due))

    def _timed_out(self, seat: int, strikes: int, due: float | None = None) -> None:
        """The clock's move is stored (and told): the person is told their time ran out (``clock``); after
        ``clock_strikes`` in a row a bot takes the seat as when they leave (at a friends' table they take it
        back with their token).  ``due``: the deadline, for the referee's figures."""
        if due is not None:
            self.referee.clock_stored.append(time.time() - due)
        limit = self.referee.config.clock_strikes
        replaced = strikes >= limit and self.seats[seat].human and not self.finished
        self._send(seat, "clock", seat=seat, status="replaced" if replaced else "played", strikes=strikes,
                   limit=limit)
        if replaced:
            client = self.seats[seat].client
            if client is not None:
                client.table, client.seat = None, -1
            self.replace(seat)
            if client is not None:
                self.referee.watch(client)

    def _schedule_bot(self) -> None:
        if self.closed or self.busy or self.bot_timer is not None or self.session is None or self.referee.draining:
            return
        player = self.session.match.current_player
        if player < 0 or player in self.session.humans:
            return
        self.bot_timer = self.referee.loop.call_later(self.referee.config.bot_delay, self._bot_tick)

    def _cancel_bot_for(self, seat: int) -> None:
        """Its owner took the seat back: a bot's move for it, pending or thinking, is dropped."""
        if self.bot_timer is not None and self.session.match.current_player == seat:
            self.bot_timer.cancel()
            self.bot_timer = None

    def _bot_tick(self) -> None:
        self.bot_timer = None
        if self.closed or self.busy or self.referee.draining:
            return
        turn = self.session.bot_turn()
        if turn is None:
            return
        seat, bot, view = turn
        future = self.referee.think(decide, bot, view)
        self.bot_timer = future  # nobody else moves meanwhile: it is the bot's turn
        future.add_done_callback(lambda done: self._bot_decided(seat, done))

    def _bot_decided(self, seat: int, future) -> None:
        if self.bot_timer is not future:  # dropped meanwhile (its seat taken back)
            return
        self.bot_timer = None
        if not self.closed and not future.cancelled():
            self._bot_acts(seat, future.result)

    def _bot_acts(self, seat: int, decide: Callable[[], Any]) -> None:
        seq, deal_index = len(self.session.actions), self.session.match.deal_index
        try:
            event = self.session.bot_apply(seat, decide())
        except Exception as e:  # a bot's bug must not take the referee down: end this table
            self._fail(e)
            return
        self._committed(seq, deal_index, event)

    def _fail(self, error: Exception) -> None:
        """A bot could not act: every player is told (``internal``) and the table ends."""
        log.error("bot failed at table %s: %r", self.session.settings.get("seed"), error, exc_info=error)
        for seat in SEATS:
            self._send(seat, "error", error=messages.error(RefereeError("internal", detail=type(error).__name__)))
        self.close()

    # ------------------------------------------------------------ inspection (tests, stats)
    def describe(self) -> dict[str, Any]:
        """Everything this table holds, as plain values: two equal descriptions, the same table."""
        return {
            "kind": self.kind,
            "settings": dict(self.settings),
            "session": None if self.session is None else self.session.snapshot(),
            "code": self.code,
            "host": self.host,
            "seats": [s.describe() for s in self.seats],
            "away": sorted(self.away),
            "bot_pending": self.bot_timer is not None,
            "clock": None if self.clock is None else self.clock.describe(),
            "clock_pending": self.clock_timer is not None,
            "watchers": sorted(c.id for c in self.watchers),
            "waiting": self.deadline is not None,
            "counted": self.counted,
            "closed": self.closed,
            "id": self.id,
            "busy": self.busy,
            "backlog": len(self.backlog),
        }
