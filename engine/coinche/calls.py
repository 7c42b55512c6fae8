"""Calls of the auction (coinche) and of the taking (classic), as small immutable values.

Notation: ``pass``, ``coinche``, ``surcoinche``, a bid as its value and suit
(``80h`` … ``160c``, capot as ``capoth``; ``82h`` where a table opens at 82; ``120ta`` all trumps and
``90sa`` no trumps where a table plays them, house rule ``contracts=all``), and in the classic variant
``takeh`` (take hearts as trump).

>>> Call.parse("110h")
Call.parse('110h')
>>> Call.parse("capots").value, str(Call.parse("capots"))
(250, 'capots')
>>> Call.parse("110h") < Call.parse("capotc")
True
>>> Call.parse("120TA"), Call.parse("capotsa").suit
(Call.parse('120ta'), 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import TRUMP_LETTERS
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
            return ("capot" if self.value == CAPOT else str(self.value)) + TRUMP_LETTERS[self.suit]
        if kind == CallKind.TAKE:
            return "take" + TRUMP_LETTERS[self.suit]
        return kind.name.lower()

    def __repr__(self) -> str:
        return f"Call.parse({str(self)!r})"


PASS = Call(CallKind.PASS)
COINCHE = Call(CallKind.COINCHE)
SURCOINCHE = Call(CallKind.SURCOINCHE)
#: BIDS[i * 4 + suit] in increasing value; the last four are capot.
BIDS = tuple(Call(CallKind.BID, v, s) for v in BID_VALUES + (CAPOT,) for s in range(4))
TAKES = tuple(Call(CallKind.TAKE, 0, s) for s in range(4))
#: The kinds of contract a bid may name: the four suits, then no trumps (4) and all trumps (5).
SUITS_ONLY, ALL_KINDS = range(4), range(6)

_ALL_BIDS = {(v, s): Call(CallKind.BID, v, s) for v in (82, *BID_VALUES, CAPOT) for s in ALL_KINDS}
_ALL_BIDS.update({(v, s): b for b in BIDS for v, s in [(b.value, b.suit)]})
#: The opening bids of a table that opens at 82 (house rule ``open=82``), which then bids 90, 100, …
BIDS_82 = tuple(_ALL_BIDS[82, s] for s in range(4))


def bid(value: int, suit: int) -> Call:
    return _ALL_BIDS[value, suit]


_BIDS_OF: dict[tuple[tuple[int, ...], int], tuple[Call, ...]] = {}


def bids_of(values: tuple[int, ...], kinds: range = SUITS_ONLY) -> tuple[Call, ...]:
    """Every bid of ``values`` (a :attr:`coinche.rules.Rules.bid_values`) and ``kinds`` (the contracts a
    table plays), in increasing value; at one value the suits, then no trumps and all trumps."""
    key = (values, len(kinds))
    bids = _BIDS_OF.get(key)
    if bids is None:
        bids = _BIDS_OF[key] = tuple(bid(v, s) for v in values for s in kinds)
    return bids


_BY_TEXT = {str(c): c for c in (PASS, COINCHE, SURCOINCHE, *_ALL_BIDS.values(), *TAKES)}
_BY_TEXT.update({f"{CAPOT}{TRUMP_LETTERS[s]}": bid(CAPOT, s) for s in ALL_KINDS})
