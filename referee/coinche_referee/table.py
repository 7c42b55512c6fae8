"""One 1v1 table: the match (a :class:`coinche.session.Session` with humans in seats 0 and 1),
the two players' connections and tokens, and the timers that drive its bots and its grace periods.

Nothing here does I/O: a client is anything with ``send(message)``, and the timers run on the
referee's event loop; the bots think in the referee's worker processes, never in the event loop.
Each seat only ever receives :meth:`Table.state_for` its own seat and :meth:`Table.public_event`
of what happened, both built field by field (:mod:`coinche_referee.messages`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from coinche.errors import IllegalActionError, OutOfTurnError

from . import messages
from .protocol import RefereeError
from .store import NotOwner, StoreError, StoreUnavailable, TableRecord, hash_token

if TYPE_CHECKING:
    from .referee import Client, Referee

log = logging.getLogger("coinche_referee")

SEATS = (0, 1)


def decide(bot, view) -> str:
    """A bot's action for its view, in a worker process (``--bot-workers``)."""
    return str(bot.act(view))


class Table:
    """A table; with a durable store (``--redis``), nothing it does is told to anyone before it is
    stored: while a write is under way the table is ``busy`` and the requests for it wait in
    ``backlog``, in order."""

    remote = False  # the table is here (see coinche_referee.cluster.RemoteTable for one that is not)

    def __init__(self, referee: "Referee", session, code: str | None = None, table_id: str | None = None,
                 tokens: dict[int, str] | None = None, names: list[str | None] | None = None) -> None:
        self.referee = referee
        self.session = session
        self.code = code
        self.id = table_id if table_id is not None else secrets.token_hex(8)
        self.clients: dict[int, "Client | None"] = {seat: None for seat in SEATS}
        # the seats' tokens exist only until ``start`` is sent; the table keeps their hashes
        self.fresh_tokens = {} if tokens is not None else {seat: secrets.token_urlsafe(18) for seat in SEATS}
        self.tokens = dict(tokens) if tokens is not None else {s: hash_token(t) for s, t in self.fresh_tokens.items()}
        self.hashes = set(self.tokens.values())  # every token hash it ever had, forgotten at the end
        self.names: list[str | None] = list(names) if names is not None else [None for _ in SEATS]
        self.away: dict[int, Any] = {}  # seat -> the timer that gives it to a bot
        self.bot_timer = None
        self.closed = False
        self.stored = False  # the store has it (it was created there, or taken over from there)
        self.busy = False  # a write is under way: nothing more is decided or told until it is stored
        self.backlog: deque = deque()  # (client, request) that came while busy
        self._writing: asyncio.Task | None = None

    @property
    def over(self) -> bool:
        return self.session.match.is_over

    def to_move(self, seat: int) -> bool:
        """It is the human in ``seat`` who must act now."""
        return seat in self.session.humans and self.session.match.current_player == seat

    def record(self) -> TableRecord:
        return TableRecord(self.id, dict(self.session.settings), self.code, list(self.names), dict(self.tokens))

    # ------------------------------------------------------------ messages
    def state_for(self, seat: int) -> dict[str, Any]:
        return messages.seat_state(self.session, seat)

    def public_event(self, event: dict[str, Any], deal_index: int) -> dict[str, Any]:
        return messages.event(event, deal_index)

    def _send(self, to: int, kind: str, /, **fields: Any) -> None:
        client = self.clients[to]
        if client is not None:
            client.send(messages.message(kind, **fields))

    def _send_state(self, to: int, kind: str, /, **fields: Any) -> None:
        client = self.clients[to]
        if client is not None:
            client.send(messages.message(kind, **fields, state=self.state_for(to)))

    def _tell_opponent(self, seat: int, status: str, **fields: Any) -> None:
        self._send(1 - seat, "opponent", status=status, seat=seat, **fields)

    def _broadcast(self, event: dict, deal_index: int, actor: int = -1, rid: int | str | None = None) -> None:
        public = self.public_event(event, deal_index)
        for seat in SEATS:
            self._send_state(seat, "update", id=rid if seat == actor else None, event=public)
        if self.session.match.is_over:  # the players' connections are now idle ones
            for client in self.clients.values():
                if client is not None:
                    self.referee.watch(client)

    # ------------------------------------------------------------ seating
    def seat(self, clients: tuple["Client", "Client"]) -> None:
        """The players at their seats (nothing told yet: the table may still have to be stored)."""
        self.names = [client.name for client in clients]
        for seat, client in zip(SEATS, clients):
            self._bind(seat, client)

    def begin(self, clients: tuple["Client", "Client"] | None = None) -> None:
        """Tell both players their seat and token; the bots may move."""
        if clients is not None:
            self.seat(clients)
        for seat in SEATS:
            self._send_state(seat, "start", seat=seat, token=self.fresh_tokens[seat], code=self.code,
                             names=list(self.names))
        self.fresh_tokens = {}
        self._schedule_bot()

    def restored(self) -> None:
        """Taken over from the store by this process: the humans' connections are elsewhere or gone, so
        each human seat has its grace period to come back; the bots move on."""
        for seat in SEATS:
            if seat in self.session.humans and not self.over:
                self.away[seat] = self.referee.loop.call_later(self.referee.config.grace, self.replace, seat)
        self._schedule_bot()
        self._close_if_empty()

    def _bind(self, seat: int, client: "Client") -> None:
        self.clients[seat] = client
        client.table, client.seat = self, seat

    def resume(self, seat: int, client: "Client", rid: int | str | None, token: str) -> None:
        """A player back with their token: a new connection takes the seat over."""
        old = self.clients[seat]
        if old is not None and old is not client:
            old.table, old.seat = None, -1
            old.send(messages.message("error", error=messages.error(RefereeError("superseded"))))
            old.close(4000, "superseded")
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()
            self._tell_opponent(seat, "back")
        self._bind(seat, client)
        self._send_state(seat, "resumed", id=rid, seat=seat, token=token, code=self.code, names=list(self.names))

    def drop(self, seat: int) -> None:
        """The seat's connection is gone: it has ``grace`` seconds to come back before a bot sits."""
        self.clients[seat] = None
        if self.session.match.is_over or seat not in self.session.humans:
            self._forget_token(seat)
        else:
            grace = self.referee.config.grace
            self.away[seat] = self.referee.loop.call_later(grace, self.replace, seat)
            self._tell_opponent(seat, "away", grace=grace)
        self._close_if_empty()

    def leave(self, seat: int) -> None:
        """The player gives up the seat for good (a bot takes it at once)."""
        self.clients[seat] = None
        if not self.session.match.is_over and seat in self.session.humans:
            self.replace(seat)
        else:
            self._forget_token(seat)
            self._close_if_empty()

    def replace(self, seat: int) -> None:
        """A bot takes the seat for the rest of the match, and the other player is told."""
        self.away.pop(seat, None)
        self.session.replace_by_bot(seat)
        forgotten = self._forget_token(seat)
        store = self.referee.store
        self._persist(lambda: store.update(self.record(), forget=forgotten), blocking=False)
        self._tell_opponent(seat, "replaced")
        self._schedule_bot()
        self._close_if_empty()

    def _forget_token(self, seat: int) -> tuple[str, ...]:
        token = self.tokens.pop(seat, None)
        if token is None:
            return ()
        self.referee.tokens.pop(token, None)
        return (token,)

    def _close_if_empty(self) -> None:
        """Nobody at the table and nobody who may come back: the table goes."""
        if any(c is not None for c in self.clients.values()) or self.away:
            return
        self.close()

    def close(self, finished: bool = True) -> None:
        """The table ends here; ``finished``: for good (the store keeps it a while, then expires it), else
        only in this process (it stops, or another one took the table over)."""
        if self.closed:
            return
        self.closed = True
        if finished:
            store, record, hashes = self.referee.store, self.record(), tuple(self.hashes)
            self._persist(lambda: store.finish(record, forget=hashes), blocking=False)
        for timer in (*self.away.values(), self.bot_timer):
            if timer is not None:
                timer.cancel()
        self.away.clear()
        self.bot_timer = None
        for seat in SEATS:
            self._forget_token(seat)
        self.referee.tables.discard(self)
        if self.referee.table_ids.get(self.id) is self:
            del self.referee.table_ids[self.id]

    def lost(self, why: str = "moved") -> None:
        """Another process decides this table now (or its store refused it): its players here are
        disconnected, their pages resume with their tokens wherever the table is."""
        log.warning("table %s %s: its players reconnect", self.id, why)
        for client in self.clients.values():
            if client is not None:
                client.table, client.seat = None, -1
                client.close(1012, "the table moved, reconnect")
        self.clients = {seat: None for seat in SEATS}
        self.close(finished=False)
        self.referee.drain(self)

    # ------------------------------------------------------------ the store
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
        players are told the server reconnects (once), and the failure is logged once per interval."""
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

    def _committed(self, deal_index: int, event: dict, actor: int = -1, rid: int | str | None = None) -> None:
        """An action was applied: stored (with a durable store) before anyone hears of it."""
        self.referee.actions += 1
        seq, action = len(self.session.actions) - 1, self.session.actions[-1]
        store = self.referee.store
        self._persist(lambda: store.append(self.id, seq, action),
                      then=lambda: self._told(event, deal_index, actor, rid))

    def _told(self, event: dict, deal_index: int, actor: int, rid: int | str | None) -> None:
        self._broadcast(event, deal_index, actor=actor, rid=rid)
        self._schedule_bot()

    # ------------------------------------------------------------ play
    def act(self, seat: int, action: str, seq: int | None, rid: int | str | None) -> None:
        """A player's call or card, checked; raises and changes nothing when it is refused."""
        session = self.session
        match = session.match
        if self.closed:  # it has just moved to another process; the page resumes there
            raise RefereeError("unavailable", id=rid)
        if seat not in session.humans:
            raise RefereeError("seat_lost", id=rid)
        if seq is not None and seq != len(session.actions):
            raise RefereeError("stale", id=rid, seq=len(session.actions), sent=seq)
        if match.is_over:
            raise IllegalActionError("match_over")
        if match.current_player != seat:
            raise OutOfTurnError("out_of_turn", seat=seat, expected=match.current_player)
        deal_index = match.deal_index
        event = session.act(seat, action)
        self._committed(deal_index, event, actor=seat, rid=rid)

    def send_state(self, seat: int, rid: int | str | None) -> None:
        self._send_state(seat, "state", id=rid)

    def _schedule_bot(self) -> None:
        if self.closed or self.busy or self.bot_timer is not None or self.referee.draining:
            return
        player = self.session.match.current_player
        if player < 0 or player in self.session.humans:
            return
        self.bot_timer = self.referee.loop.call_later(self.referee.config.bot_delay, self._bot_tick)

    def _bot_tick(self) -> None:
        self.bot_timer = None
        if self.closed or self.busy or self.referee.draining:
            return
        turn = self.session.bot_turn()
        if turn is None:
            return
        seat, bot, view = turn
        try:
            future = self.referee.think(decide, bot, view)
        except Exception as e:  # no worker could be started: this table cannot go on
            self._fail(e)
            return
        self.bot_timer = future  # nobody else moves meanwhile: it is the bot's turn
        future.add_done_callback(lambda done: self._bot_decided(seat, done))

    def _bot_decided(self, seat: int, future) -> None:
        self.bot_timer = None
        if not self.closed and not future.cancelled():
            self._bot_acts(seat, future.result)

    def _bot_acts(self, seat: int, decide: Callable[[], Any]) -> None:
        deal_index = self.session.match.deal_index
        try:
            event = self.session.bot_apply(seat, decide())
        except Exception as e:  # a bot's bug must not take the referee down: end this table
            self._fail(e)
            return
        self._committed(deal_index, event)

    def _fail(self, error: Exception) -> None:
        """A bot could not act: both players are told (``internal``) and the table ends."""
        log.error("bot failed at table %s: %r", self.describe()["session"]["settings"].get("seed"), error,
                  exc_info=error)
        for seat in SEATS:
            self._send(seat, "error", error=messages.error(RefereeError("internal", detail=type(error).__name__)))
        self.close()

    # ------------------------------------------------------------ inspection (tests, stats)
    def describe(self) -> dict[str, Any]:
        """Everything this table holds, as plain values: two equal descriptions, the same table."""
        return {
            "session": self.session.snapshot(),
            "code": self.code,
            "names": list(self.names),
            "clients": {seat: None if c is None else c.id for seat, c in self.clients.items()},
            "id": self.id,
            "tokens": dict(self.tokens),
            "busy": self.busy,
            "backlog": len(self.backlog),
            "away": sorted(self.away),
            "bot_pending": self.bot_timer is not None,
            "closed": self.closed,
        }
