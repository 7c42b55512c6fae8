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
