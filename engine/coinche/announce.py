"""Announcements (house rule ``announce=yes``): sequences and carrés a hand holds, and which is best.

A sequence is three or more cards of one suit in the natural order 7 8 9 T J Q K A: three are a *tierce*
(20), four a *cinquante* (50), five or more a *cent* (100).  A carré is the four cards of one rank: jacks
200, nines 150, aces, tens, kings or queens 100 (sevens and eights are worth nothing).  A hand's sequences
are its longest runs: a run of five is one cent, never a tierce as well; a card may be in a carré and in a
sequence.  Notation: a sequence as its lowest and highest cards, ``Jh-Ah`` (Jh Qh Kh Ah); a carré as ``4``
and the rank, ``4J``.  docs/rules.md, "Announcements", says how they are declared and compared.

>>> from coinche.cards import mask_of, parse_cards
>>> [str(a) for a in held(mask_of(parse_cards("7h,8h,9h,Jd,Js,Jh,Jc,Ac")))]
['7h-9h', '4J']
>>> a = Announcement.parse("Th-Ah")
>>> a.name, a.points, str(a)
('cent', 100, 'Th-Ah')
>>> Announcement.parse("Qh-7h")
Traceback (most recent call last):
...
coinche.errors.NotationError: unknown announcement 'Qh-7h'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .cards import RANK_LETTERS, SUIT_LETTERS, SUIT_MASK, Card
from .errors import NotationError, excerpt

#: A carré's points by rank (7 8 9 T J Q K A); sevens and eights are no announcement.
CARRE_POINTS = (0, 0, 150, 100, 200, 100, 100, 100)
CARRE = -1


@dataclass(frozen=True, slots=True)
class Announcement:
    """A sequence (``suit`` 0–3, its ``top`` rank, its ``length``) or a carré (``suit`` :data:`CARRE`,
    ``top`` its rank, ``length`` 4).  Ranks are the natural order, 0 (seven) to 7 (ace)."""

    suit: int
    top: int
    length: int

    @property
    def is_carre(self) -> bool:
        return self.suit == CARRE

    @property
    def points(self) -> int:
        if self.is_carre:
            return CARRE_POINTS[self.top]
        return 20 if self.length == 3 else 50 if self.length == 4 else 100

    @property
    def name(self) -> str:
        """``tierce``, ``cinquante``, ``cent`` or ``carre``: the message key's word for it."""
        if self.is_carre:
            return "carre"
        return ("tierce", "cinquante")[self.length - 3] if self.length < 5 else "cent"

    @property
    def mask(self) -> int:
        if self.is_carre:
            return sum(1 << (s * 8 + self.top) for s in range(4))
        return sum(1 << (self.suit * 8 + r) for r in range(self.top - self.length + 1, self.top + 1))

    @property
    def cards(self) -> list[Card]:
        from .cards import cards_of

        return cards_of(self.mask)

    def text(self) -> tuple[str, dict]:
        """Its name as a message key and parameters, for a reader's language: a sequence by its name, the rank of
        its top card and its suit, a carré by its rank.

        >>> Announcement.parse("Jh-Kh").text(), Announcement.parse("4J").text()
        (('announcement.line.sequence', {'name': 'tierce', 'rank': 'K', 'suit': 'h'}), ('announcement.line.carre', {'rank': 'J'}))
        """
        rank = RANK_LETTERS[self.top]
        if self.is_carre:
            return "announcement.line.carre", {"rank": rank}
        return "announcement.line.sequence", {"name": self.name, "rank": rank, "suit": SUIT_LETTERS[self.suit]}

    def strength(self, trump: int) -> tuple[int, int, int, int, int]:
        """What compares two announcements of different sides, the first to declare aside: points, a carré
        before a sequence, the longer sequence, the higher top card, a sequence of the trump suit."""
        return (self.points, self.is_carre, self.length, self.top, self.suit == trump)

    @classmethod
    def parse(cls, text: str) -> "Announcement":
        announcement = _BY_TEXT.get(text.strip()) if isinstance(text, str) else None
        if announcement is None:
            raise NotationError("unknown_announcement", text=excerpt(text if isinstance(text, str) else repr(text)))
        return announcement

    def __str__(self) -> str:
        if self.is_carre:
            return "4" + RANK_LETTERS[self.top]
        low = self.top - self.length + 1
        return f"{RANK_LETTERS[low]}{SUIT_LETTERS[self.suit]}-{RANK_LETTERS[self.top]}{SUIT_LETTERS[self.suit]}"

    def __repr__(self) -> str:
        return f"Announcement.parse({str(self)!r})"


_ALL = [Announcement(s, top, n) for s in range(4) for n in range(3, 9) for top in range(n - 1, 8)]
_ALL += [Announcement(CARRE, r, 4) for r in range(8) if CARRE_POINTS[r]]
_BY_TEXT = {str(a): a for a in _ALL}


def held(hand: int) -> tuple[Announcement, ...]:
    """Every announcement a hand (a bitmask) holds: its longest runs of three or more, then its carrés."""
    out = []
    for suit in range(4):
        bits = (hand & SUIT_MASK[suit]) >> (suit * 8)
        run = 0
        for rank in range(9):
            if rank < 8 and bits >> rank & 1:
                run += 1
                continue
            if run >= 3:
                out.append(Announcement(suit, rank - 1, run))
            run = 0
    for rank in range(8):
        if CARRE_POINTS[rank] and all(hand >> (s * 8 + rank) & 1 for s in range(4)):
            out.append(Announcement(CARRE, rank, 4))
    return tuple(out)


def best(declared: Iterable[tuple[int, Announcement]], trump: int) -> tuple[int, Announcement] | None:
    """The best of the declared ``(seat, announcement)``, in the order declared: the strongest, and of
    two equally strong the first declared."""
    top = None
    for seat, announcement in declared:
        if top is None or announcement.strength(trump) > top[1].strength(trump):
            top = (seat, announcement)
    return top


def side_points(declared: Iterable[tuple[int, Announcement]], trump: int) -> tuple[int, int]:
    """The announcement points each side scores: every announcement of the side holding the best, the
    other side none.

    >>> d = [(0, Announcement.parse("7h-9h")), (1, Announcement.parse("8s-Ts")), (2, Announcement.parse("Jc-Ac"))]
    >>> side_points(d, trump=1), side_points(d[:2], trump=1), side_points(d[:2], trump=0)
    ((70, 0), (0, 20), (0, 20))
    >>> side_points([(3, Announcement.parse("8s-Ts")), (0, Announcement.parse("8h-Th"))], trump=4)
    (0, 20)
    """
    declared = list(declared)
    top = best(declared, trump)
    points = [0, 0]
    if top is not None:
        side = top[0] & 1
        points[side] = sum(a.points for seat, a in declared if seat & 1 == side)
    return points[0], points[1]


def format_announcements(announcements: Iterable[Announcement]) -> str:
    return ",".join(str(a) for a in announcements)


def parse_announcements(text: str) -> tuple[Announcement, ...]:
    """A comma-separated list of announcements; the empty text is none."""
    if not isinstance(text, str):
        raise NotationError("unknown_announcement", text=excerpt(repr(text)))
    return tuple(Announcement.parse(t) for t in text.split(",") if t.strip())


__all__ = ["Announcement", "CARRE", "CARRE_POINTS", "best", "format_announcements", "held",
           "parse_announcements", "side_points"]
