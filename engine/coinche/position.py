"""The judge's position notation: ``trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s``.

``trump`` is the trump suit; ``trick`` the cards already on the table in the order played
(0 to 3; the player to move sits after them, the partner's card is the second before);
``hand`` the cards the player to move holds (1 to 8).  The same text is used by
``coinche judge`` and in the judge page's URL fragment.

>>> p = Position.parse("trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s")
>>> str(p)
'trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s'
>>> p.partner_index, [str(c) for c in p.ruling().legal_cards]
(1, ['Jh'])
>>> Position.parse("trump=h&trick=8h,8h&hand=Jh")
Traceback (most recent call last):
...
coinche.errors.InvalidPositionError: card 8h appears twice
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUIT_LETTERS, Card, Suit, format_cards, mask_of
from .errors import InvalidPositionError, NotationError
from .play import Ruling, rule_position

FIELDS = ("trump", "trick", "hand")


@dataclass(frozen=True, slots=True)
class Position:
    trump: Suit
    trick: tuple[Card, ...]
    hand: tuple[Card, ...]

    @classmethod
    def parse(cls, text: str) -> "Position":
        """Parse and validate; raises :class:`NotationError` or :class:`InvalidPositionError`."""
        fields: dict[str, str] = {}
        text = text.strip()
        if text.startswith("#") or text.startswith("?"):
            text = text[1:]
        for part in text.split("&") if text else []:
            name, eq, value = part.partition("=")
            if not eq:
                raise NotationError("malformed_position", text=part)
            if name not in FIELDS:
                raise NotationError("unknown_field", field=name)
            if name in fields:
                raise NotationError("malformed_position", text=f"{name} given twice")
            fields[name] = value
        for name in ("trump", "hand"):
            if name not in fields:
                raise NotationError("missing_field", field=name)
        trump = Suit.parse(fields["trump"])
        trick = _cards(fields.get("trick", ""))
        hand = _cards(fields["hand"])
        return cls.of(trump, trick, hand)

    @classmethod
    def of(cls, trump: int, trick, hand) -> "Position":
        trick, hand = tuple(Card(int(c)) for c in trick), tuple(Card(int(c)) for c in hand)
        if len(trick) > 3:
            raise InvalidPositionError("too_many_cards", count=len(trick), limit=3)
        if len(hand) > 8:
            raise InvalidPositionError("too_many_cards", count=len(hand), limit=8)
        if not hand:
            raise InvalidPositionError("too_few_cards", count=0, limit=1)
        seen: set[int] = set()
        for c in trick + hand:
            if c in seen:
                raise InvalidPositionError("duplicate_card", card=str(c))
            seen.add(c)
        return cls(Suit(trump), trick, hand)

    @property
    def partner_index(self) -> int | None:
        """Index in ``trick`` of the partner's card, if the partner has played."""
        return len(self.trick) - 2 if len(self.trick) >= 2 else None

    def ruling(self) -> Ruling:
        return rule_position(mask_of(self.hand), self.trick, self.trump)

    def __str__(self) -> str:
        return f"trump={SUIT_LETTERS[self.trump]}&trick={format_cards(self.trick)}&hand={format_cards(self.hand)}"


def _cards(text: str) -> list[Card]:
    if not text:
        return []
    return [Card.parse(t) for t in text.split(",")]
