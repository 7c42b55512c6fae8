"""Quick chat at a table: a fixed set of phrases and emotes, each an id the page shows in the reader's own
language (``chat.phrase.<id>`` in web/i18n), so there is no free text to moderate and nothing in a phrase can
name a card.  Each seat may say :data:`BURST` phrases at once, then one every ``1 / RATE`` seconds.

>>> parse_phrase("well_played")
'well_played'
>>> parse_phrase("Jh")
Traceback (most recent call last):
...
coinche_referee.protocol.RefereeError: there is no quick-chat phrase 'Jh'
>>> clock = iter([0.0, 0.0, 0.0, 0.0, 0.5]).__next__
>>> limit = ChatLimit(clock)
>>> [limit.allow() for _ in range(4)]
[0.0, 0.0, 0.0, 3.0]
"""

from __future__ import annotations

import math
import time
from typing import Callable

from .limits import TokenBucket
from .protocol import RefereeError

#: The phrases (then the emotes), in the order the page offers them.
PHRASES = ("hello", "good_luck", "well_played", "thanks", "sorry", "hurry", "oops", "bye",
           "smile", "wow", "think")
#: Phrases a seat may say at once, then ``RATE`` a second.
BURST = 3
RATE = 1 / 3


def parse_phrase(text: str) -> str:
    """A phrase id as sent; raises ``unknown_phrase`` for anything else (changing nothing)."""
    if text not in PHRASES:
        raise RefereeError("unknown_phrase", text=str(text)[:16])
    return text


class ChatLimit:
    """One seat's allowance of phrases."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.bucket = TokenBucket(RATE, BURST, clock)

    def allow(self) -> float:
        """0 if the seat may say a phrase now (spent), else the whole seconds before it may."""
        if self.bucket.take():
            return 0.0
        return float(math.ceil((1 - self.bucket.tokens) / RATE))


__all__ = ["PHRASES", "BURST", "RATE", "parse_phrase", "ChatLimit"]
