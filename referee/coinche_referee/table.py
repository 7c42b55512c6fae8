"""One 1v1 table: the match (a :class:`coinche.session.Session` with humans in seats 0 and 1),
the two players' connections and tokens, and the timers that drive its bots and its grace periods.

Nothing here does I/O: a client is anything with ``send(message)``, and the timers run on the
referee's event loop; the bots think in the referee's worker processes, never in the event loop.
Each seat only ever receives :meth:`Table.state_for` its own seat and :meth:`Table.public_event`
of what happened, both built field by field (:mod:`coinche_referee.messages`).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, Callable, Protocol

from coinche.errors import IllegalActionError, OutOfTurnError

import coinche_referee.messages as messages  # not `from . import`, which imports this package's __init__
from .protocol import RefereeError


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
    loop: Any  # the asyncio event loop: call_later
    tokens: dict[str, Any]
    tables: set["Table"]
    actions: int

    def think(self, fn: Callable[..., Any], *args: Any) -> Any: ...

    def watch(self, client: Client) -> None: ...


log = logging.getLogger("coinche_referee")

SEATS = (0, 1)


def decide(bot, view) -> str:
    """A bot's action for its view, in a worker process (``--bot-workers``)."""
    return str(bot.act(view))


class Table:
    def __init__(self, referee: "Referee", session, code: str | None = None) -> None:
        self.referee = referee
        self.session = session
        self.code = code
        self.clients: dict[int, "Client | None"] = {seat: None for seat in SEATS}
        self.tokens = {seat: secrets.token_urlsafe(18) for seat in SEATS}
        self.names: list[str | None] = [None for _ in SEATS]  # the players' display names, by seat
        self.away: dict[int, Any] = {}  # seat -> the timer that gives it to a bot
        self.bot_timer = None
        self.closed = False

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
    def begin(self, clients: tuple["Client", "Client"]) -> None:
        self.names = [client.name for client in clients]
        for seat, client in zip(SEATS, clients):
            self._bind(seat, client)
        for seat in SEATS:
            self._send_state(seat, "start", seat=seat, token=self.tokens[seat], code=self.code, names=list(self.names))
        self._schedule_bot()

    def _bind(self, seat: int, client: "Client") -> None:
        self.clients[seat] = client
        client.table, client.seat = self, seat

    def resume(self, seat: int, client: "Client", rid: int | str | None) -> None:
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
        self._send_state(seat, "resumed", id=rid, seat=seat, token=self.tokens[seat], code=self.code,
                         names=list(self.names))

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
        self._forget_token(seat)
        self._tell_opponent(seat, "replaced")
        self._schedule_bot()
        self._close_if_empty()

    def _forget_token(self, seat: int) -> None:
        token = self.tokens.pop(seat, None)
        if token is not None:
            self.referee.tokens.pop(token, None)

    def _close_if_empty(self) -> None:
        """Nobody at the table and nobody who may come back: the table goes."""
        if any(c is not None for c in self.clients.values()) or self.away:
            return
        self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for timer in (*self.away.values(), self.bot_timer):
            if timer is not None:
                timer.cancel()
        self.away.clear()
        self.bot_timer = None
        for seat in SEATS:
            self._forget_token(seat)
        self.referee.tables.discard(self)

    # ------------------------------------------------------------ play
    def act(self, seat: int, action: str, seq: int | None, rid: int | str | None) -> None:
        """A player's call or card, checked; raises and changes nothing when it is refused."""
        session = self.session
        match = session.match
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
        self.referee.actions += 1
        self._broadcast(event, deal_index, actor=seat, rid=rid)
        self._schedule_bot()

    def send_state(self, seat: int, rid: int | str | None) -> None:
        self._send_state(seat, "state", id=rid)

    def _schedule_bot(self) -> None:
        if self.closed or self.bot_timer is not None:
            return
        player = self.session.match.current_player
        if player < 0 or player in self.session.humans:
            return
        self.bot_timer = self.referee.loop.call_later(self.referee.config.bot_delay, self._bot_tick)

    def _bot_tick(self) -> None:
        self.bot_timer = None
        if self.closed:
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
        self.referee.actions += 1
        self._broadcast(event, deal_index)
        self._schedule_bot()

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
            "tokens": dict(self.tokens),
            "away": sorted(self.away),
            "bot_pending": self.bot_timer is not None,
            "closed": self.closed,
        }
