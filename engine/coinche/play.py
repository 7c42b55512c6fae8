"""The five card-play rules of docs/rules.md, the trick winner, and the reason for every forbidden card.

Everything here works on plain integers: ``hand`` is a bitmask of cards, ``trick`` a
sequence of the cards already on the table in the order played (0 to 3 of them), and
``trump`` a suit index, or :data:`~coinche.cards.NO_TRUMP` (sans atout: no suit trumps) or
:data:`~coinche.cards.ALL_TRUMPS` (tout atout: every suit is ordered as trump, so rule 2, go over, holds
whatever suit is led, and no suit trumps another).  The player to move sits after the last card; the partner's
card, when there is one, is the second before.

>>> from coinche.cards import Card, Suit, mask_of, parse_cards, format_cards
>>> hand = mask_of(parse_cards("Jh,Kd,7s"))
>>> trick = parse_cards("8h,Ah,7c")
>>> ruling = rule_position(hand, trick, Suit.HEARTS)
>>> format_cards(ruling.legal_cards), ruling.rule
('Jh', 2)
>>> [(str(f.card), f.rule, f.key, f.params) for f in ruling.forbidden]
[('7s', 1, 'must_follow', {'suit': 'h'}), ('Kd', 1, 'must_follow', {'suit': 'h'})]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .cards import (ALL_TRUMPS, CARDS, HIGHER_TRUMPS, POINTS, POWER, SUIT_LETTERS, SUIT_MASK, TRUMP_MASK, Card,
                    card_name, cards_of)

#: Rule numbers as docs/rules.md (and the judge page) numbers them; 0 is the leader's free choice.
#: 3 decides every void hand while a partner is winning or an opponent wins with a plain card;
#: 4 an opponent's trump that the hand can beat; 5 whatever is left (no trump, or none high enough).
LEAD, FOLLOW, OVER_ON_TRUMP_LEAD, MUST_TRUMP, MUST_OVERTRUMP, FREE = 0, 1, 2, 3, 4, 5


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Index in ``trick`` of the card winning it so far: the highest trump, else the highest of the suit led.

    >>> from coinche.cards import parse_cards
    >>> trick_winner(parse_cards("As,9s,9h,Ts"), trump=1)
    2
    """
    power = POWER[trump]
    best = 0
    best_card = trick[0]
    best_suit = best_card >> 3
    for i in range(1, len(trick)):
        card = trick[i]
        suit = card >> 3
        if suit == best_suit:
            if power[card] > power[best_card]:
                best, best_card = i, card
        elif suit == trump:
            best, best_card, best_suit = i, card, suit
    return best


def legal_mask(hand: int, trick: Sequence[int], trump: int, undertrump: bool = False) -> int:
    """The bitmask of the cards of ``hand`` that may be played on ``trick``: the fast path.

    It is the same decision as :func:`rule_position`, without the reasons.  ``undertrump``: the house
    rule by which a player who cannot overtrump an opponent's trump must still play a lower one.
    """
    if not trick:
        return hand
    led = trick[0] >> 3
    if led != trump and trump != ALL_TRUMPS and hand & SUIT_MASK[led]:
        return hand & SUIT_MASK[led]
    winner = trick_winner(trick, trump)
    return legal_against(hand, led, trick[winner], winner == len(trick) - 2, trump, undertrump)


def legal_against(hand: int, led: int, winning: int, partner_wins: bool, trump: int,
                  undertrump: bool = False) -> int:
    """:func:`legal_mask` from what it reads of a trick that has a card: the suit ``led``, the ``winning``
    card so far and whether the player's partner played it (the solver keeps these as it searches).

    >>> from coinche.cards import parse_cards, mask_of, format_cards, cards_of
    >>> hand = mask_of(parse_cards("7h,Jh,8s"))
    >>> format_cards(cards_of(legal_against(hand, led=0, winning=parse_cards("As")[0], partner_wins=False, trump=1)))
    '8s'
    >>> format_cards(cards_of(legal_against(hand, led=2, winning=parse_cards("Ad")[0], partner_wins=False, trump=1)))
    '7h,Jh'
    >>> format_cards(cards_of(legal_against(hand, led=2, winning=parse_cards("Ad")[0], partner_wins=True, trump=1)))
    '8s,7h,Jh'
    """
    in_suit = hand & SUIT_MASK[led]
    if in_suit:
        if led == trump or trump == ALL_TRUMPS:
            return (in_suit & HIGHER_TRUMPS[winning]) or in_suit
        return in_suit
    trumps = hand & TRUMP_MASK[trump]
    if partner_wins or not trumps:
        return hand
    if winning >> 3 == trump:
        return (trumps & HIGHER_TRUMPS[winning]) or (trumps if undertrump else hand)
    return trumps


@dataclass(frozen=True, slots=True)
class Forbidden:
    """A card the rules forbid, the rule that forbids it, and a message key with its parameters."""

    card: Card
    rule: int
    key: str
    params: dict = field(hash=False)


@dataclass(frozen=True, slots=True)
class Ruling:
    """The ruling on one position: which rule decided, the legal cards, the forbidden ones and why.

    ``note`` names one of the situations that surprise players, or is ``None``:
    ``overtrump_partner`` (rule 2 forces a trump over the partner's),
    ``no_undertrump`` (rule 5: over an opponent's trump with no higher trump, any card),
    ``partner_master`` (rule 3 frees a player who holds only trumps, lower than the partner's or not).
    """

    rule: int
    legal: int
    forbidden: tuple[Forbidden, ...]
    note: str | None = None

    @property
    def legal_cards(self) -> list[Card]:
        return cards_of(self.legal)

    def is_legal(self, card: int) -> bool:
        return bool(self.legal >> card & 1)

    def reason(self, card: int) -> Forbidden | None:
        for f in self.forbidden:
            if f.card == card:
                return f
        return None


def _forbid(cards: int, rule: int, key: str, params: dict) -> list[Forbidden]:
    return [Forbidden(c, rule, key, params) for c in cards_of(cards)]


def rule_position(hand: int, trick: Sequence[int], trump: int, undertrump: bool = False) -> Ruling:
    """Rule on every card of ``hand``: the five rules, checked in order, the first that applies decides.

    ``undertrump`` (a house rule, "pisser"): over an opponent's trump that the hand cannot beat, rule 4
    still forbids every card but a trump, lower as it is (``must_undertrump``); rule 5 then never frees it.

    >>> from coinche.cards import mask_of, parse_cards, format_cards
    >>> hand, trick = mask_of(parse_cards("7h,8h,Kd,Ac")), parse_cards("As,9s,9h")
    >>> format_cards(rule_position(hand, trick, 1).legal_cards), rule_position(hand, trick, 1).rule
    ('7h,8h,Kd,Ac', 5)
    >>> ruling = rule_position(hand, trick, 1, undertrump=True)
    >>> format_cards(ruling.legal_cards), ruling.rule, ruling.forbidden[0].key
    ('7h,8h', 4, 'must_undertrump')
    """
    if not trick:
        return Ruling(LEAD, hand, ())
    led = trick[0] >> 3
    in_suit = hand & SUIT_MASK[led]
    winner = trick_winner(trick, trump)
    partner_winning = winner == len(trick) - 2
    if (led == trump or trump == ALL_TRUMPS) and in_suit:
        best = trick[winner]
        higher = in_suit & HIGHER_TRUMPS[best]
        legal = higher or in_suit
        forbidden = _forbid(hand & ~SUIT_MASK[led], FOLLOW, "must_follow", {"suit": SUIT_LETTERS[led]})
        if higher:
            forbidden += _forbid(in_suit & ~higher, OVER_ON_TRUMP_LEAD, "must_go_over", {"card": card_name(best)})
        note = "overtrump_partner" if partner_winning and higher else None
        return Ruling(OVER_ON_TRUMP_LEAD, legal, _sorted(forbidden), note)
    if in_suit:
        forbidden = _forbid(hand & ~in_suit, FOLLOW, "must_follow", {"suit": SUIT_LETTERS[led]})
        return Ruling(FOLLOW, in_suit, _sorted(forbidden))
    trumps = hand & TRUMP_MASK[trump]
    if partner_winning:
        note = "partner_master" if trumps == hand and trick[winner] >> 3 == trump else None
        return Ruling(MUST_TRUMP, hand, (), note)
    if not trumps:
        return Ruling(FREE, hand, ())
    winning = trick[winner]
    if winning >> 3 == trump:
        higher = trumps & HIGHER_TRUMPS[winning]
        if not higher and undertrump:
            forbidden = _forbid(hand & ~trumps, MUST_OVERTRUMP, "must_undertrump", {"card": card_name(winning)})
            return Ruling(MUST_OVERTRUMP, trumps, _sorted(forbidden))
        if not higher:
            return Ruling(FREE, hand, (), "no_undertrump")
        forbidden = _forbid(hand & ~higher, MUST_OVERTRUMP, "must_overtrump", {"card": card_name(winning)})
        return Ruling(MUST_OVERTRUMP, higher, _sorted(forbidden))
    forbidden = _forbid(hand & ~trumps, MUST_TRUMP, "must_trump", {"suit": SUIT_LETTERS[trump]})
    return Ruling(MUST_TRUMP, trumps, _sorted(forbidden))


def _sorted(forbidden: list[Forbidden]) -> tuple[Forbidden, ...]:
    return tuple(sorted(forbidden, key=lambda f: int(f.card)))


def trick_points(trick: Sequence[int], trump: int) -> int:
    """The card points of ``trick`` under ``trump`` (the dix de der is not a card's)."""
    points = POINTS[trump]
    return sum(points[c] for c in trick)


__all__ = [
    "LEAD", "FOLLOW", "OVER_ON_TRUMP_LEAD", "MUST_TRUMP", "MUST_OVERTRUMP", "FREE",
    "Forbidden", "Ruling", "legal_against", "legal_mask", "rule_position", "trick_winner", "trick_points", "CARDS",
]
