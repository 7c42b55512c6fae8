"""Calls of the auction (coinche) and of the taking (classic), as small immutable values.

Notation: ``pass``, ``coinche``, ``surcoinche``, a bid as its value and suit
(``80h`` … ``160c``, capot as ``capoth``), and in the classic variant ``takeh``
(take hearts as trump).

>>> Call.parse("110h")
Call.parse('110h')
>>> Call.parse("capots").value, str(Call.parse("capots"))
(250, 'capots')
>>> Call.parse("110h") < Call.parse("capotc")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import SUIT_LETTERS
from .errors import NotationError, excerpt

BID_VALUES = (80, 90, 100, 110, 120, 130, 140, 150, 160)
CAPOT = 250


class CallKind(IntEnum):
    PASS = 0
    BID = 1
    COINCHE = 2
    SURCOINCHE = 3
    TAKE = 4


@dataclass(frozen=True, slots=True, order=False)
class Call:
    kind: CallKind
    value: int = 0
    suit: int = -1

    @classmethod
    def parse(cls, text: str) -> "Call":
        call = _BY_TEXT.get(text.strip().lower()) if isinstance(text, str) else None
        if call is None:
            raise NotationError("unknown_call", text=excerpt(text))
        return call

    @property
    def is_bid(self) -> bool:
        return self.kind == CallKind.BID

    @property
    def is_capot(self) -> bool:
        return self.value == CAPOT

    def __lt__(self, other: "Call") -> bool:
        return self.value < other.value

    def __str__(self) -> str:
        kind = self.kind
        if kind == CallKind.BID:
            return ("capot" if self.value == CAPOT else str(self.value)) + SUIT_LETTERS[self.suit]
        if kind == CallKind.TAKE:
            return "take" + SUIT_LETTERS[self.suit]
        return kind.name.lower()

    def __repr__(self) -> str:
        return f"Call.parse({str(self)!r})"


PASS = Call(CallKind.PASS)
COINCHE = Call(CallKind.COINCHE)
SURCOINCHE = Call(CallKind.SURCOINCHE)
#: BIDS[i * 4 + suit] in increasing value; the last four are capot.
BIDS = tuple(Call(CallKind.BID, v, s) for v in BID_VALUES + (CAPOT,) for s in range(4))
TAKES = tuple(Call(CallKind.TAKE, 0, s) for s in range(4))


def bid(value: int, suit: int) -> Call:
    return BIDS[(BID_VALUES + (CAPOT,)).index(value) * 4 + suit]


_BY_TEXT = {str(c): c for c in (PASS, COINCHE, SURCOINCHE, *BIDS, *TAKES)}
_BY_TEXT.update({f"{CAPOT}{SUIT_LETTERS[s]}": bid(CAPOT, s) for s in range(4)})
