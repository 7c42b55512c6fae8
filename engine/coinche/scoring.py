"""Scoring of a coinche deal and of a classic deal, as pure functions over a small contract.

The worked example of docs/rules.md (contract 110 hearts):

>>> c = Contract(variant="coinche", declarer=0, suit=1, value=110)
>>> score_coinche(c, cards=(124, 38), belote_side=None, tricks=(6, 2)).scores
(234, 38)
>>> score_coinche(c, cards=(96, 66), belote_side=None, tricks=(5, 3)).scores
(0, 272)
"""

from __future__ import annotations

from dataclasses import dataclass

from .calls import CAPOT
from .cards import SUIT_LETTERS

TOTAL = 162
CAPOT_CLASSIC = 250
BELOTE = 20


@dataclass(frozen=True, slots=True)
class Contract:
    """Who plays for what: ``value`` is the bid (0 in the classic), ``multiplier`` 1, 2 (coinche) or 4."""

    variant: str
    declarer: int
    suit: int
    value: int = 0
    multiplier: int = 1

    @property
    def side(self) -> int:
        return self.declarer & 1

    @property
    def is_capot(self) -> bool:
        return self.value == CAPOT

    def __str__(self) -> str:
        if self.variant == "classic":
            return f"take{SUIT_LETTERS[self.suit]} by {self.declarer}"
        bid = ("capot" if self.is_capot else str(self.value)) + SUIT_LETTERS[self.suit]
        extra = {1: "", 2: " coinche", 4: " surcoinche"}[self.multiplier]
        return f"{bid}{extra} by {self.declarer}"

    def to_json(self) -> dict:
        return {
            "declarer": self.declarer,
            "trump": SUIT_LETTERS[self.suit],
            "value": self.value,
            "multiplier": self.multiplier,
        }


@dataclass(frozen=True, slots=True)
class DealScore:
    """The outcome of a played deal: card points per side (dix de der included), belote, made or down."""

    cards: tuple[int, int]
    belote_side: int | None
    tricks: tuple[int, int]
    made: bool
    scores: tuple[int, int]

    def to_json(self) -> dict:
        return {
            "cards": list(self.cards),
            "belote": self.belote_side,
            "tricks": list(self.tricks),
            "made": self.made,
            "scores": list(self.scores),
        }


def _bel(belote_side: int | None, side: int) -> int:
    return BELOTE if belote_side == side else 0


def score_coinche(contract: Contract, cards: tuple[int, int], belote_side: int | None,
                  tricks: tuple[int, int]) -> DealScore:
    d = contract.side
    f = 1 - d
    m = contract.multiplier
    bel_d, bel_f = _bel(belote_side, d), _bel(belote_side, f)
    if contract.is_capot:
        made = tricks[d] == 8
    else:
        made = cards[d] + bel_d >= contract.value
    if made:
        score_d = m * (cards[d] + contract.value) + bel_d
        score_f = (cards[f] + bel_f) if m == 1 else bel_f
    else:
        score_d = bel_d
        score_f = m * (TOTAL + contract.value) + bel_f
    scores = (score_d, score_f) if d == 0 else (score_f, score_d)
    return DealScore(cards, belote_side, tricks, made, scores)


def score_classic(contract: Contract, cards: tuple[int, int], belote_side: int | None,
                  tricks: tuple[int, int]) -> DealScore:
    """Classic: the taker's side must score more than the defence, belote included.

    A side that wins all eight tricks scores 250 instead of 162 for its cards; we read
    this as applying to the defence too when the taker goes down without a trick.

    >>> c = Contract(variant="classic", declarer=1, suit=0)
    >>> score_classic(c, cards=(81, 81), belote_side=None, tricks=(4, 4)).scores
    (162, 0)
    >>> score_classic(c, cards=(0, 162), belote_side=1, tricks=(0, 8)).scores
    (0, 270)
    """
    d = contract.side
    f = 1 - d
    bel_d, bel_f = _bel(belote_side, d), _bel(belote_side, f)

    def card_score(side: int) -> int:
        return CAPOT_CLASSIC if tricks[side] == 8 else cards[side]

    made = cards[d] + bel_d > cards[f] + bel_f
    if made:
        score_d = card_score(d) + bel_d
        score_f = cards[f] + bel_f
    else:
        score_d = bel_d
        score_f = (CAPOT_CLASSIC if tricks[f] == 8 else TOTAL) + bel_f
    scores = (score_d, score_f) if d == 0 else (score_f, score_d)
    return DealScore(cards, belote_side, tricks, made, scores)


def score(contract: Contract, cards: tuple[int, int], belote_side: int | None,
          tricks: tuple[int, int]) -> DealScore:
    scorer = score_classic if contract.variant == "classic" else score_coinche
    return scorer(contract, cards, belote_side, tricks)
