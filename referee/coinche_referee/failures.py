"""Failures that come in storms, logged once per interval with their count, never a traceback each:
a connection accepted with no file left, a handshake cut short, a store that cannot be reached.
"""

from __future__ import annotations

import asyncio
import logging
import time


class FailureLog:
    """Failures that come in storms (accepting a connection with no file left, a handshake cut short)
    logged once per ``every`` seconds with their count and the last one's text, never a traceback each.

    >>> now = [0.0]
    >>> failures = FailureLog(logging.getLogger("doc"), every=10, clock=lambda: now[0])
    >>> [failures.add("accept", OSError(24, "Too many open files")) for _ in range(3)]
    [True, False, False]
    >>> now[0] = 11.0
    >>> failures.add("accept", OSError(24, "Too many open files")), failures.counts
    (True, {})

    The end of a storm is logged too: ``flush()`` (run every ``every`` seconds by the server, and when it
    stops) logs what was counted since the last line.

    >>> failures.add("accept", "x"), failures.flush(), failures.flush()
    (False, 1, 0)
    """

    def __init__(self, logger: logging.Logger, every: float = 10.0, clock=time.monotonic) -> None:
        self.log, self.every, self.clock = logger, every, clock
        self.counts: dict[str, int] = {}
        self.last: dict[str, str] = {}
        self.stamp: dict[str, float] = {}

    def add(self, what: str, error: BaseException | str) -> bool:
        """Count one failure; ``True`` when it was logged (the first of an interval, with the count of
        those since the last line)."""
        now = self.clock()
        self.counts[what] = self.counts.get(what, 0) + 1
        self.last[what] = str(error)
        if now - self.stamp.get(what, -self.every) < self.every:
            return False
        self._write(what, now)
        return True

    def flush(self) -> int:
        """Log the failures counted since their last line (the tail of a storm); how many there were."""
        now = self.clock()
        return sum(self._write(what, now) for what in list(self.counts))

    def _write(self, what: str, now: float) -> int:
        count = self.counts.pop(what)
        self.stamp[what] = now
        self.log.warning("%s failed %d time(s) in the last %gs, last: %s", what, count, self.every, self.last[what])
        return count

    async def flush_every_interval(self) -> None:
        """Flush every ``every`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(self.every)
            self.flush()
