"""The turn clock of an online table: how long each decision may take, and what is left of it.

Each decision of a person (a call, a card, a declaration of announcements) has its own time, the
**base** (:class:`ClockSettings`: ``call`` or ``card`` seconds), and each seat has a **reserve** for
the deal: a decision that takes longer than its base eats into the reserve, and once both are spent
the decision is the table's bot's (:meth:`TurnClock.timed_out`).  The reserve is full again at each
deal.  After ``strikes`` timeouts of one seat in a row, a bot takes that seat as when its player leaves.

The clock is a small value kept with the table (:meth:`TurnClock.format` / :meth:`TurnClock.parse`):
with ``--redis`` it is written with every action, so a process that takes the table over goes on
with the same deadline (``due``, seconds since the epoch) rather than a fresh one.

>>> settings = ClockSettings.preset("normal")
>>> settings
ClockSettings(card=20.0, call=30.0, reserve=30.0)
>>> clock = TurnClock(settings)
>>> clock.begin(seq=0, seat=1, deal=0, call=True, now=100.0)
>>> clock.due, clock.total
(160.0, 60.0)
>>> clock.acted(1, now=145.0)       # 45 s: 15 s of the reserve spent
>>> clock.reserves[1]
15.0
>>> clock.begin(seq=4, seat=1, deal=0, call=False, now=200.0)
>>> clock.due
235.0
>>> TurnClock.parse(settings, clock.format()) == clock
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: The clock settings a table may have: (card, call, reserve) in seconds.  A friends' table's creator
#: picks one (``settings.clock``); the queue's and 1v1 private tables have the referee's ``--clock``.
PRESETS: dict[str, tuple[float, float, float]] = {
    "fast": (10.0, 15.0, 10.0),
    "normal": (20.0, 30.0, 30.0),
    "relaxed": (40.0, 60.0, 60.0),
}
DEFAULT = "normal"
#: Timeouts of one seat in a row after which a bot takes the seat (``--clock-strikes``).
STRIKES = 3


@dataclass(frozen=True)
class ClockSettings:
    card: float
    call: float
    reserve: float

    @classmethod
    def preset(cls, name: str, scale: float = 1.0) -> "ClockSettings":
        """A preset's times, multiplied by ``scale`` (``--clock-scale``: short clocks for tests).

        >>> ClockSettings.preset("fast", scale=0.1)
        ClockSettings(card=1.0, call=1.5, reserve=1.0)
        """
        card, call, reserve = PRESETS[name]
        return cls(card * scale, call * scale, reserve * scale)


@dataclass
class TurnClock:
    """What is left of each seat's reserve in the deal ``deal``, each seat's timeouts in a row, and the
    decision being timed: action number ``seq`` of ``seat``, due at ``due`` (``None``: nobody is timed,
    a bot or nobody is to move).  ``played``: the last decision the clock played, ``[seq, seat]``."""

    settings: ClockSettings
    deal: int = -1
    reserves: list[float] = field(default_factory=lambda: [0.0] * 4)
    strikes: list[int] = field(default_factory=lambda: [0] * 4)
    seq: int | None = None
    seat: int | None = None
    due: float | None = None
    total: float = 0.0
    played: list[int] | None = None

    def begin(self, seq: int, seat: int | None, deal: int, call: bool, now: float) -> None:
        """Time the decision ``seq`` of ``seat`` (``None``: no person is to move), from ``now``; a new deal
        fills every reserve again.  The same decision already timed keeps its deadline."""
        if deal != self.deal:
            self.deal, self.reserves = deal, [self.settings.reserve] * 4
        if seat is None:
            self.seq = self.seat = self.due = None
            self.total = 0.0
            return
        if self.seq == seq and self.seat == seat and self.due is not None:
            return
        base = self.settings.call if call else self.settings.card
        self.seq, self.seat = seq, seat
        self.total = base + self.reserves[seat]
        self.due = now + self.total

    def acted(self, seat: int, now: float) -> None:
        """``seat`` decided in time: its reserve keeps what the deadline had left of it, its timeouts
        in a row start again from none."""
        if self.seat == seat and self.due is not None:
            self.reserves[seat] = round(max(0.0, min(self.reserves[seat], self.due - now)), 3)
        self.strikes[seat] = 0
        self.seq = self.seat = self.due = None

    def timed_out(self, seat: int, seq: int) -> int:
        """The bot played decision ``seq`` of ``seat``: its reserve is spent; its timeouts in a row."""
        self.reserves[seat] = 0.0
        self.strikes[seat] += 1
        self.played = [seq, seat]
        self.seq = self.seat = self.due = None
        return self.strikes[seat]

    def forgive(self, seat: int) -> None:
        """A person takes a seat (back): their timeouts in a row start again from none."""
        self.strikes[seat] = 0

    def view(self, now: float) -> dict[str, Any] | None:
        """What every player is told of the decision timed: its seat, the seconds left, and how many it
        had in all (to draw the ring); ``None`` when nobody is timed."""
        if self.due is None:
            return None
        return {"seat": self.seat, "left": round(max(0.0, self.due - now), 1), "total": round(self.total, 1)}

    def format(self) -> str:
        return json.dumps({"deal": self.deal, "reserves": self.reserves, "strikes": self.strikes, "seq": self.seq,
                           "seat": self.seat, "due": self.due, "total": self.total, "played": self.played},
                          separators=(",", ":"), sort_keys=True)

    @classmethod
    def parse(cls, settings: ClockSettings, text: str | None) -> "TurnClock":
        """The clock :meth:`format` wrote; a fresh one for nothing or anything unreadable (the table then
        times its current decision from now, in full)."""
        clock = cls(settings)
        try:
            data = json.loads(text) if text else None
            if not isinstance(data, dict):
                return clock
            reserves = [float(r) for r in data["reserves"]]
            strikes = [int(s) for s in data["strikes"]]
            if len(reserves) != 4 or len(strikes) != 4:
                return clock
            seq, seat, due = data.get("seq"), data.get("seat"), data.get("due")
            played = data.get("played")
            clock.deal, clock.reserves, clock.strikes = int(data["deal"]), reserves, strikes
            clock.seq = None if seq is None else int(seq)
            clock.seat = None if seat is None else int(seat)
            clock.due = None if due is None else float(due)
            clock.total = float(data.get("total", 0.0))
            clock.played = None if played is None else [int(played[0]), int(played[1])]
        except (ValueError, KeyError, TypeError, IndexError):
            return cls(settings)
        return clock

    def describe(self) -> dict[str, Any]:
        return json.loads(self.format())


__all__ = ["PRESETS", "DEFAULT", "STRIKES", "ClockSettings", "TurnClock"]
