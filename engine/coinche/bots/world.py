"""Sampling the hidden cards: deals of the unknown cards to the other seats consistent with what a bot knows.

:func:`sample_hands` gives each seat its number of cards from ``pool``, never a card the seat is known
not to hold (``forbidden``), always the cards it is known to hold (``holds``), and prefers deals that
pass ``accept`` (the soft inferences from the bids), retrying a few times before settling for one
that does not.  The most constrained cards are placed first, each to a seat drawn in proportion to
its free places, and a dead end restarts the deal.

``rng`` is a :class:`random.Random` seeded from :class:`coinche.rng.SplitMix64` numbers: the same
generator in CPython and in Pyodide (which is CPython), and about three times faster in pure Python.

>>> from random import Random
>>> hands = sample_hands(Random(1), pool=(1 << 24) - 1, need=(8, 8, 8, 0),
...                      forbidden=(0xFF, 0, 0, 0), holds=(0, 1 << 8, 0, 0))
>>> [h.bit_count() for h in hands], hands[0] & 0xFF, hands[1] & 1 << 8 > 0
([8, 8, 8, 0], 0, True)
"""

from __future__ import annotations

from random import Random
from typing import Callable

from ..cards import cards_of

TRIES = 12


def sample_hands(rng: Random, pool: int, need: tuple[int, ...], forbidden: tuple[int, ...] = (0, 0, 0, 0),
                 holds: tuple[int, ...] = (0, 0, 0, 0),
                 accept: Callable[[list[int]], bool] | None = None) -> list[int]:
    """Four hands (bitmasks), seat ``s`` receiving ``need[s]`` cards; cards of ``pool`` left over stay out.

    ``holds`` must lie in ``pool``; the seats with ``need[s] == 0`` get nothing.
    """
    held = holds[0] | holds[1] | holds[2] | holds[3]
    cards = cards_of(pool & ~held)
    caps = [need[s] - holds[s].bit_count() for s in range(4)]
    seats = [s for s in range(4) if caps[s] > 0]
    constrained = any(forbidden[s] & pool for s in seats)
    if constrained:
        options = [(c, [s for s in seats if not forbidden[s] >> c & 1]) for c in cards]
        options.sort(key=lambda o: len(o[1]))
        groups = [[o for o in options if len(o[1]) == k] for k in range(len(seats) + 1)]
    fallback = None
    for _ in range(TRIES if (constrained or accept) else 1):
        if constrained:
            for group in groups:
                rng.shuffle(group)
            hands = _constrained(rng, groups, caps, seats, len(cards), holds)
            if hands is None:
                continue
        else:
            rng.shuffle(cards)
            hands = list(holds)
            pos = 0
            for s in seats:
                for c in cards[pos:pos + caps[s]]:
                    hands[s] |= 1 << c
                pos += caps[s]
        if accept is None or accept(hands):
            return hands
        if fallback is None:
            fallback = hands
    if fallback is not None:
        return fallback
    # the constraints could not be met (they are inferences, and may be wrong): drop the voids
    return sample_hands(rng, pool, need, (0, 0, 0, 0), holds, None)


def _constrained(rng: Random, groups: list, caps: list[int], seats: list[int], n: int,
                 holds: tuple[int, ...]) -> list[int] | None:
    caps = list(caps)
    hands = list(holds)
    spare = n - sum(caps[s] for s in seats)
    below = rng.randrange
    for group in groups:
        for c, ok in group:
            total = 0
            for s in ok:
                total += caps[s]
            if total == 0:
                if spare > 0:
                    spare -= 1
                    continue
                return None
            r = below(total)
            for s in ok:
                r -= caps[s]
                if r < 0:
                    hands[s] |= 1 << c
                    caps[s] -= 1
                    break
    return hands
