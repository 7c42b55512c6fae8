"""The judge's position notation: ``trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s``.

``trump`` is the trump suit, or ``sa`` (no trumps) or ``ta`` (all trumps), the contracts of the house rule
``contracts=all`` (docs/rules.md); ``trick`` the cards already on the table in the order played
(0 to 3; the player to move sits after them, the partner's card is the second before);
``hand`` the cards the player to move holds (1 to 8).  The same text is used by
``coinche judge`` and in the judge page's URL fragment.

>>> p = Position.parse("trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s")
>>> str(p)
'trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s'
>>> p.partner_index, [str(c) for c in p.ruling().legal_cards]
(1, ['Jh'])
>>> Position.parse("trump=ta&trick=9s,Js&hand=As,7s,Kh").ruling().legal_cards, str(Position.parse("trump=sa&hand=Ah"))
([Card.parse('7s'), Card.parse('As')], 'trump=sa&trick=&hand=Ah')
>>> Position.parse("trump=h&trick=8h,8h&hand=Jh")
Traceback (most recent call last):
...
coinche.errors.InvalidPositionError: card 8h appears twice

The text is read as a link's fragment is, by the judge page (``judge.html#…``) as by ``coinche judge``:
the spaces around it and a leading ``#`` or ``?`` left out, its percent-escapes decoded once (all of them, or
none when one does not decode, as a browser's ``decodeURIComponent``), and then a leading mark left out again,
so that a fragment whose own mark was escaped reads as the position.

>>> str(Position.parse("%23trump=h&hand=Jh")) == str(Position.parse("#%23trump=h&hand=Jh")) == 'trump=h&trick=&hand=Jh'
True
>>> Position.parse("trump=h&hand=%254Ah")
Traceback (most recent call last):
...
coinche.errors.NotationError: unknown card '%4Ah'

A text of any length costs about as much as a short one and is told its first real problem, checked in
this order: its length (at most :data:`MAX_LENGTH` characters, ``#`` and the spaces around it aside: the
longest position is 51), the parts (each ``name=value``, a known field, given once), the fields required, the trump;
then, for the trick and then the hand, how many cards it holds before how each is written; last, a card
seen twice.  Bad input is quoted in at most :data:`~coinche.errors.EXCERPT` characters.

>>> Position.parse("trump=h&hand=" + ",".join(["Jh"] * 33_000) + ",")
Traceback (most recent call last):
...
coinche.errors.NotationError: position too long: 99013 characters (at most 100)
>>> Position.parse("trump=h&hand=" + ",".join(["Jh"] * 20) + ",")
Traceback (most recent call last):
...
coinche.errors.InvalidPositionError: too many cards: 20 (at most 8)
>>> Position.parse("trump=h&hand=Jh&" + "x" * 50)
Traceback (most recent call last):
...
coinche.errors.NotationError: malformed position: xxxxxxxxxxxxxxxxxxxxxxx…
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import TRUMP_LETTERS, Card, Suit, format_cards, mask_of
from .errors import InvalidPositionError, NotationError, excerpt
from .play import Ruling, rule_position

FIELDS = ("trump", "trick", "hand")
#: How many cards the trick and the hand hold at most.
LIMITS = {"trick": 3, "hand": 8}
#: The longest text read as a position: the longest position (three cards on the table, eight in hand) is 51
#: characters; a longer text is refused as too long before anything in it is read (the judge page refuses
#: it too, without asking the engine: web/js/judge/notation.js).
MAX_LENGTH = 100


@dataclass(frozen=True, slots=True)
class Position:
    #: a :class:`Suit`, or :data:`~coinche.cards.NO_TRUMP` (4) or :data:`~coinche.cards.ALL_TRUMPS` (5)
    trump: int
    trick: tuple[Card, ...]
    hand: tuple[Card, ...]

    @classmethod
    def parse(cls, text: str) -> "Position":
        """Parse and validate; raises :class:`NotationError` or :class:`InvalidPositionError`."""
        text = link_text(text)
        if len(text) > MAX_LENGTH:
            raise NotationError("position_too_long", length=len(text), limit=MAX_LENGTH)
        fields = split_fields(text, FIELDS)
        for name in ("trump", "hand"):
            if name not in fields:
                raise NotationError("missing_field", field=name)
        text = fields["trump"]
        if text not in TRUMP_LETTERS:  # a suit, or no trumps (sa) and all trumps (ta): unknown_suit would say s, h, d or c
            raise NotationError("unknown_trump", text=excerpt(text))
        trump = TRUMP_LETTERS.index(text)
        trick = _cards(fields.get("trick", ""), LIMITS["trick"])
        hand = _cards(fields["hand"], LIMITS["hand"])
        return cls.of(trump, trick, hand)

    @classmethod
    def of(cls, trump: int, trick, hand) -> "Position":
        trick, hand = tuple(Card(int(c)) for c in trick), tuple(Card(int(c)) for c in hand)
        for cards, limit in ((trick, LIMITS["trick"]), (hand, LIMITS["hand"])):
            if len(cards) > limit:
                raise InvalidPositionError("too_many_cards", count=len(cards), limit=limit)
        if not hand:
            raise InvalidPositionError("too_few_cards", count=0, limit=1)
        seen: set[int] = set()
        for c in trick + hand:
            if c in seen:
                raise InvalidPositionError("duplicate_card", card=str(c))
            seen.add(c)
        return cls(Suit(trump) if trump < 4 else trump, trick, hand)

    @property
    def partner_index(self) -> int | None:
        """Index in ``trick`` of the partner's card, if the partner has played."""
        return len(self.trick) - 2 if len(self.trick) >= 2 else None

    def ruling(self) -> Ruling:
        return rule_position(mask_of(self.hand), self.trick, self.trump)

    def __str__(self) -> str:
        return f"trump={TRUMP_LETTERS[self.trump]}&trick={format_cards(self.trick)}&hand={format_cards(self.hand)}"


def split_fields(text: str, names: tuple[str, ...]) -> dict[str, str]:
    """The ``name=value`` parts of a link's text by name, each a known one given once; raises
    :class:`NotationError` at the first part that is not.  Past as many parts as there are names, the next one
    is an error whatever it is: the rest of the text is never split.

    >>> split_fields("trump=h&hand=Jh", FIELDS)
    {'trump': 'h', 'hand': 'Jh'}
    >>> split_fields("trump=h&trump=s&" + "x&" * 10_000, FIELDS)
    Traceback (most recent call last):
    ...
    coinche.errors.NotationError: malformed position: trump given twice
    """
    fields: dict[str, str] = {}
    for rest in text.split("&", len(names)) if text else []:
        part = rest.partition("&")[0]
        name, eq, value = part.partition("=")
        if not eq:
            raise NotationError("malformed_position", text=excerpt(part))
        if name not in names:
            raise NotationError("unknown_field", field=excerpt(name))
        if name in fields:
            raise NotationError("malformed_position", text=f"{name} given twice")
        fields[name] = value
    return fields


_MARKS = ("#", "?")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _unquote(text: str) -> str:
    """Percent-escapes decoded as UTF-8, strictly (urllib.parse.unquote's reading, without importing urllib:
    it would add 26 kB of bytecode to the site's first visit)."""
    return _ESCAPES.sub(lambda m: bytes.fromhex(m.group().replace("%", "")).decode("utf-8"), text)


def link_text(text: str) -> str:
    """The position a text holds, read as a link's fragment (web/js/judge/notation.js reads it alike).

    >>> link_text("  #trump=h&hand=Jh "), link_text("%23trump=h&hand=Jh"), link_text("hello%20world")
    ('trump=h&hand=Jh', 'trump=h&hand=Jh', 'hello world')
    >>> link_text("trump=h%20&hand=%E0%A4%A"), link_text("trump=h&hand=%254Ah")
    ('trump=h%20&hand=%E0%A4%A', 'trump=h&hand=%4Ah')
    """
    text = _without_mark(text)
    if "%" in text and not _BAD_ESCAPE.search(text):
        try:
            text = _unquote(text)
        except UnicodeDecodeError:
            pass  # not UTF-8: read as written, as a browser leaves such a fragment
    return _without_mark(text)


def _without_mark(text: str) -> str:
    text = text.strip()
    return text[1:] if text.startswith(_MARKS) else text


def _cards(text: str, limit: int) -> list[Card]:
    """The cards of a field, counted (empty places aside) before any is read: a field of 33,000 cards is
    too many cards, whatever else is wrong with it, and is told so without reading them."""
    tokens = text.split(",") if text else []
    count = len(tokens) - tokens.count("")
    if count > limit:
        raise InvalidPositionError("too_many_cards", count=count, limit=limit)
    return [Card.parse(t) for t in tokens]
