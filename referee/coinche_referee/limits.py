"""A token bucket per connection: ``burst`` messages at once, then ``rate`` a second.

>>> clock = iter([0.0, 0.0, 0.0, 0.0, 0.5]).__next__
>>> bucket = TokenBucket(rate=2, burst=2, clock=clock)
>>> bucket.take(), bucket.take(), bucket.take(), bucket.take()
(True, True, False, True)
"""

from __future__ import annotations

import time
from typing import Callable


class TokenBucket:
    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class GuessLimiter:
    """Wrong private codes per address: ``allowed`` in ``window`` seconds, then every ``join`` from that
    address is refused for ``block`` seconds (so guessing a code costs time, see referee/README.md).

    >>> now = [0.0]
    >>> guesses = GuessLimiter(allowed=2, window=60, block=60, clock=lambda: now[0])
    >>> guesses.blocked("a"), guesses.failed("a"), guesses.blocked("a"), guesses.failed("a")
    (0.0, None, 0.0, None)
    >>> guesses.blocked("a"), guesses.blocked("b")
    (60.0, 0.0)
    >>> now[0] = 61.0
    >>> guesses.blocked("a")
    0.0
    """

    def __init__(self, allowed: int = 10, window: float = 60.0, block: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.allowed, self.window, self.block, self.clock = allowed, window, block, clock
        self.failures: dict[str, list[float]] = {}
        self.until: dict[str, float] = {}

    def blocked(self, address: str) -> float:
        """Seconds before ``address`` may try a code again (0: now)."""
        now = self.clock()
        until = self.until.get(address)
        if until is None:
            return 0.0
        if until <= now:
            del self.until[address]
            return 0.0
        return until - now

    def refuse(self, address: str, seconds: float) -> None:
        """``address`` refused for ``seconds`` from now (the wrong codes counted across the processes)."""
        self.until[address] = max(self.until.get(address, 0.0), self.clock() + seconds)

    def failed(self, address: str) -> None:
        """A wrong code from ``address``; the ``allowed``-th within ``window`` starts the block."""
        now = self.clock()
        self._forget(now)
        recent = [t for t in self.failures.get(address, ()) if now - t < self.window]
        recent.append(now)
        if len(recent) >= self.allowed:
            self.until[address] = now + self.block
            self.failures.pop(address, None)
        else:
            self.failures[address] = recent

    def _forget(self, now: float) -> None:
        """Drop what no longer counts, so memory follows the addresses of the last minute only."""
        if len(self.failures) + len(self.until) < 1024:
            return
        self.failures = {a: ts for a, ts in self.failures.items() if now - ts[-1] < self.window}
        self.until = {a: u for a, u in self.until.items() if u > now}
