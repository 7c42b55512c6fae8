"""Seeded randomness that gives the same numbers everywhere (CPython, Pyodide, any version).

SplitMix64, written out, so a seed names the same deal in every interpreter and for ever.

>>> shuffled_deck(42) == shuffled_deck(42)
True
>>> sorted(shuffled_deck(7)) == list(range(32))
True
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


def seed_from(value: int | str) -> int:
    """A 64-bit seed from an int or a string (strings are hashed with FNV-1a, stable everywhere)."""
    if isinstance(value, int):
        return value & MASK64
    h = 0xCBF29CE484222325
    for byte in str(value).encode():
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    return h


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int | str) -> None:
        self.state = seed_from(seed)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in ``range(n)`` (rejection sampling, no modulo bias)."""
        limit = MASK64 - (MASK64 + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def random(self) -> float:
        return (self.next64() >> 11) / 9007199254740992.0

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        return items[self.below(len(items))]


def shuffled_deck(seed: int | str) -> list[int]:
    deck = list(range(32))
    SplitMix64(seed).shuffle(deck)
    return deck


def derive_seed(seed: int | str, index: int) -> int:
    """The seed of deal ``index`` of a match seeded with ``seed``."""
    return SplitMix64(seed_from(seed) ^ ((index + 1) * 0xD1B54A32D192ED03 & MASK64)).next64()
