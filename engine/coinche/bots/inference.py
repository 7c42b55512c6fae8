"""What the auction says about the hidden hands: a cheap bidding policy, and how likely a hand made its calls.

The model.  :func:`strengths` rates a hand for each trump by the card points (belote included) its
side can expect declaring that trump, the seven other hands unknown: a linear fit over the bots'
playouts of random deals (100,000 hands and trumps) on the trump jack, nine, ace, ten, the king
and queen together, the number of trumps, and outside the aces, the tens (with and without their
ace) and the voids.  A seat is then taken to call like this, each call's chance a logistic curve
in the gap between what the call needs and what the hand rates (:data:`SCALE` points wide):

- a bid of ``V`` in a suit the partner has not bid: likely when the hand rates about ``V +``
  :data:`EDGE` in that suit (the margin the bots open with, measured in self-play), unlikely well
  below, and less likely far above (:data:`CEILING`: such a hand bids higher);
- a raise of the partner's suit by ``r`` points: likely when the hand rates ``r`` or more above an
  average hand (:data:`AVERAGE`) in that suit;
- a pass: likely when no suit rates as much as the next bid needs (``EDGE`` more than its value),
  and, over the partner's bid, when the hand could not raise it;
- a coinche, a surcoinche, and any call after a coinche: no evidence.

:func:`auction_weight` multiplies these chances over every call made by a seat other than the one
deciding, read on the hands a sampled deal gives them (with the cards they were seen to play).
The bots sample deals in proportion to it: a sampled deal is kept with that chance, else sampled
again (:func:`sample_weighted`), so the worlds honour the auction as far as the bids show.

>>> from coinche.cards import parse_cards, mask_of
>>> strong = mask_of(parse_cards("Jh,9h,Ah,Th,As,Ad,7c,8c"))
>>> weak = mask_of(parse_cards("7h,8h,Qs,Js,9d,8d,7c,8c"))
>>> s, w = strengths(strong), strengths(weak)
>>> s[1] > 140 and w[1] < 90
True
>>> from coinche.calls import Call
>>> calls = ((0, Call.parse("100h")),)
>>> auction_weight(calls, [strong, 0, 0, 0], skip=2) > 0.5 > auction_weight(calls, [weak, 0, 0, 0], skip=2)
True
"""

from __future__ import annotations

from math import exp
from random import Random

from ..calls import CallKind
from .world import sample_hands

#: Linear fit (see the module docstring): a constant, then per trump card, per trump, and outside.
CONST = 47.6
TRUMP_JACK, TRUMP_NINE, TRUMP_ACE, TRUMP_TEN, BELOTE_PAIR = 22.4, 13.0, 7.8, 4.0, 20.2
PER_TRUMP, PER_TRUMP_OVER_3 = 6.2, 4.1
SIDE_ACE, SIDE_TEN_WITH_ACE, SIDE_TEN_GUARDED, SIDE_VOID = 9.8, 2.7, 4.0, 7.8
#: The calling model (points on the scale of :func:`strengths`).
EDGE = 28.0
CEILING = 70.0
AVERAGE = 59.0
SCALE = 8.0
CAPOT_AS = 180
#: Deals sampled for one world before the most likely one stands.
TRIES = 12
#: How much less likely a deal the announcements rule out is taken to be (not 0: a player may hide one).
MISFIT = 1e-6
#: The rating of a hand without a master at no trumps or all trumps (a guess, not fitted).
NO_TRUMP_BASE = 40


def _trump_rating(byte: int) -> float:
    n = byte.bit_count()
    has = lambda r: byte >> r & 1  # noqa: E731 (ranks: 7 8 9 T J Q K A)
    return (TRUMP_JACK * has(4) + TRUMP_NINE * has(2) + TRUMP_ACE * has(7) + TRUMP_TEN * has(3)
            + BELOTE_PAIR * (has(5) & has(6)) + PER_TRUMP * n + PER_TRUMP_OVER_3 * max(0, n - 3))


def _side_rating(byte: int) -> float:
    ace, ten = byte >> 7 & 1, byte >> 3 & 1
    return SIDE_ACE * ace + SIDE_TEN_WITH_ACE * (ten & ace) + SIDE_TEN_GUARDED * (ten and not ace and byte.bit_count() >= 2)


TRUMP_RATING = tuple(_trump_rating(b) for b in range(256))
SIDE_RATING = tuple(_side_rating(b) for b in range(256))


def strengths(hand: int) -> tuple[float, ...]:
    """The hand's rating with each suit as trump (spades, hearts, diamonds, clubs), then with no trumps and
    all trumps (a rough count of masters: aces and guarded tens; jacks and guarded nines)."""
    b = (hand & 255, hand >> 8 & 255, hand >> 16 & 255, hand >> 24 & 255)
    side = SIDE_RATING[b[0]] + SIDE_RATING[b[1]] + SIDE_RATING[b[2]] + SIDE_RATING[b[3]]
    voids = (b[0] == 0) + (b[1] == 0) + (b[2] == 0) + (b[3] == 0)
    out = []
    for s in range(4):
        t = b[s]
        rating = CONST + TRUMP_RATING[t] + side - SIDE_RATING[t]
        if t.bit_count() >= 3:
            rating += SIDE_VOID * voids
        out.append(rating)
    aces = sum(t >> 7 & 1 for t in b)
    tens = sum(t >> 3 & t >> 7 & 1 for t in b)
    jacks = sum(t >> 4 & 1 for t in b)
    nines = sum(t >> 2 & t >> 4 & 1 for t in b)
    out.append(NO_TRUMP_BASE + 19 * aces + 10 * tens)
    out.append(NO_TRUMP_BASE + 18 * jacks + 10 * nines)
    return tuple(out)


def _chance(gap: float) -> float:
    """The logistic curve: 1/2 at a gap of 0, near 1 well above, near 0 well below."""
    if gap < -60:
        return 1e-4
    return 1.0 / (1.0 + exp(-gap / SCALE))


def auction_weight(calls, hands, skip: int) -> float:
    """How likely the seats other than ``skip`` were to make ``calls`` (``(seat, Call)`` in order)
    holding ``hands`` (each seat's eight cards, bitmasks)."""
    weight = 1.0
    high_value, high_seat, high_suit = 0, -1, -1
    coinched = False
    rated: dict[int, tuple] = {}
    for seat, call in calls:
        kind = call.kind
        if seat != skip and not coinched and kind in (CallKind.BID, CallKind.PASS):
            rating = rated.get(seat)
            if rating is None:
                rating = rated[seat] = strengths(hands[seat])
            partner_holds = high_seat >= 0 and high_seat != seat and (high_seat & 1) == (seat & 1)
            if kind == CallKind.BID:
                value = CAPOT_AS if call.is_capot else call.value
                own = rating[call.suit]
                if partner_holds and call.suit == high_suit:
                    weight *= _chance(own - AVERAGE - (value - high_value))
                else:
                    weight *= _chance(own - value - EDGE) * _chance(value + CEILING - own)
            else:
                need = 80 if high_seat < 0 else high_value + 10
                others = [r for s, r in enumerate(rating) if not (partner_holds and s == high_suit)]
                weight *= _chance(need + EDGE - max(others))
                if partner_holds:
                    weight *= _chance(10 - (rating[high_suit] - AVERAGE))
        if kind == CallKind.BID:
            high_value, high_seat, high_suit = (CAPOT_AS if call.is_capot else call.value), seat, call.suit
        elif kind == CallKind.COINCHE:
            coinched = True
    return weight


def reads_calls(calls, skip: int) -> bool:
    """Whether ``calls`` hold a call of another seat that :func:`auction_weight` reads."""
    return any(seat != skip and call.kind in (CallKind.BID, CallKind.PASS) for seat, call in calls)


def sample_weighted(rng: Random, pool: int, need: tuple[int, ...], calls, skip: int, tries: int = TRIES,
                    forbidden=(0, 0, 0, 0), holds=(0, 0, 0, 0), played=(0, 0, 0, 0), accept=None) -> list[int]:
    """A deal of the hidden cards drawn in proportion to :func:`auction_weight` by rejection: each
    sampled deal (:func:`~coinche.bots.world.sample_hands`) is kept with its weight's chance; after
    ``tries`` refusals the most likely deal seen stands.  ``played``: the cards each seat was seen
    to play, read with its hand; a deal failing ``accept`` (what the announcements tell) weighs
    :data:`MISFIT` times less."""
    best, best_weight = None, -1.0
    for _ in range(tries):
        hands = sample_hands(rng, pool, need, forbidden, holds)
        weight = auction_weight(calls, [hands[s] | played[s] for s in range(4)], skip)
        if accept is not None and not accept(hands):
            weight *= MISFIT
        if rng.random() < weight:
            return hands
        if weight > best_weight:
            best, best_weight = hands, weight
    return best


__all__ = ["auction_weight", "reads_calls", "sample_weighted", "strengths"]
