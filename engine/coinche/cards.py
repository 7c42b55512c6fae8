"""Cards, suits and ranks: small integer values, parsed and printed only at the edges.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``.  :class:`Card` is an
``int`` subclass, so the engine computes on plain integers and bitmasks while a
card shown to a human prints in the canonical notation of docs/rules.md.

>>> Card.parse("Jh")
Card.parse('Jh')
>>> str(Card.parse("Td")), int(Card.parse("7s"))
('Td', 0)
>>> Card.parse("Jh").points(trump=Suit.HEARTS), Card.parse("Jh").points(trump=Suit.SPADES)
(20, 2)
>>> format_cards(cards_of(mask_of(parse_cards("Ah,7s,Jh"))))
'7s,Jh,Ah'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable

from .errors import NotationError, excerpt


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> "Suit":
        """Parse ``s``, ``h``, ``d`` or ``c``.

        >>> Suit.parse("h")
        <Suit.HEARTS: 1>
        """
        index = SUIT_LETTERS.find(text) if len(text) == 1 else -1
        if index < 0:
            raise NotationError("unknown_suit", text=excerpt(text))
        return cls(index)

    def __str__(self) -> str:
        return SUIT_LETTERS[self]


class Rank(IntEnum):
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    def __str__(self) -> str:
        return RANK_LETTERS[self]


SUIT_LETTERS = "shdc"
RANK_LETTERS = "789TJQKA"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")

#: Strength inside a suit, higher is stronger (index by rank).
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)  # J > 9 > A > T > K > Q > 8 > 7
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)  # A > T > K > Q > J > 9 > 8 > 7
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
#: The contracts without a trump suit (house rule ``contracts=all``): their "trump" index and their values,
#: each scaled so that a suit holds 38 and a deal 4 × 38 + 10 = 162 (docs/rules.md, "All trumps, no trumps").
NO_TRUMP, ALL_TRUMPS = 4, 5
NO_TRUMP_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)  # SA: A 19, T 10, K 4, Q 3, J 2
ALL_TRUMPS_POINTS = (0, 0, 9, 5, 14, 1, 3, 6)  # TA: J 14, 9 9, A 6, T 5, K 3, Q 1
#: How a contract's trump is written in calls, contracts and positions: a suit, ``sa`` or ``ta``.
TRUMP_LETTERS = ("s", "h", "d", "c", "sa", "ta")

ALL_CARDS_MASK = (1 << 32) - 1
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
#: TRUMP_MASK[trump]: the cards that trump (cut) a plain suit; none without a trump suit, nor in all trumps.
TRUMP_MASK = SUIT_MASK + (0, 0)

#: POINTS[trump][card] and POWER[trump][card], for a trump suit 0–3, :data:`NO_TRUMP` or :data:`ALL_TRUMPS`.
POINTS = tuple(
    tuple((TRUMP_POINTS if (c >> 3) == t else PLAIN_POINTS)[c & 7] for c in range(32)) for t in range(4)
) + (tuple(NO_TRUMP_POINTS[c & 7] for c in range(32)), tuple(ALL_TRUMPS_POINTS[c & 7] for c in range(32)))
POWER = tuple(
    tuple((8 + TRUMP_STRENGTH[c & 7]) if (c >> 3) == t or t == ALL_TRUMPS else PLAIN_STRENGTH[c & 7]
          for c in range(32))
    for t in range(6)
)


def _higher_trumps(card: int) -> int:
    suit, strength = card >> 3, TRUMP_STRENGTH[card & 7]
    return sum(1 << (suit * 8 + r) for r in range(8) if TRUMP_STRENGTH[r] > strength)


#: HIGHER_TRUMPS[card]: the cards of the same suit that beat ``card`` when its suit is trump.
HIGHER_TRUMPS = tuple(_higher_trumps(c) for c in range(32))


class Card(int):
    """One of the 32 cards, an ``int`` in 0..31 that prints as ``Jh``."""

    __slots__ = ()

    def __new__(cls, index: int) -> "Card":
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse the canonical notation (rank ``7 8 9 T J Q K A``, suit ``s h d c``).

        >>> Card.parse("Qc").rank, Card.parse("Qc").suit
        (<Rank.QUEEN: 5>, <Suit.CLUBS: 3>)
        >>> Card.parse("10h")
        Traceback (most recent call last):
        ...
        coinche.errors.NotationError: unknown card '10h'
        """
        card = _BY_NAME.get(text)
        if card is None:
            raise NotationError("unknown_card", text=excerpt(text))
        return card

    @property
    def suit(self) -> Suit:
        return Suit(self >> 3)

    @property
    def rank(self) -> Rank:
        return Rank(self & 7)

    @property
    def mask(self) -> int:
        return 1 << self

    def points(self, trump: int) -> int:
        """The card's points under ``trump`` (a suit, :data:`NO_TRUMP` or :data:`ALL_TRUMPS`)."""
        return POINTS[trump][self]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"

    def __reduce__(self):
        return (Card, (int(self),))


_NAMES = tuple(RANK_LETTERS[i & 7] + SUIT_LETTERS[i >> 3] for i in range(32))
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(32))
_BY_NAME = {name: CARDS[i] for i, name in enumerate(_NAMES)}

def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask, in index order (suit by suit, 7 up to ace)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def parse_cards(text: str, sep: str = ",") -> list[Card]:
    """Parse a separated list of cards; the empty string is the empty list."""
    if not text:
        return []
    return [Card.parse(token.strip()) for token in text.split(sep)]


def format_cards(cards: Iterable[int], sep: str = ",") -> str:
    return sep.join(_NAMES[c] for c in cards)


def card_name(card: int) -> str:
    return _NAMES[card]


def strongest(cards: Iterable[int], trump: int) -> int:
    """The strongest of ``cards`` of one suit, by the order that suit has under ``trump``."""
    power = POWER[trump]
    return max(cards, key=power.__getitem__)
