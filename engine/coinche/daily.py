"""The deal of the day: four deals that everyone plays on a calendar day (UTC), derived from the date alone.

Each day's set (:func:`daily_set`) holds :data:`DAILY_DEALS` deals: the first three under the game's own
coinche rules, the last one a classic (a turned card), each dealt by seat 3 so that the player, in seat 0,
speaks first, with three bots of :data:`DAILY_LEVEL` around them.  A deal's cards come from its
``deal_seed``, derived from the date and the deal's number (:func:`~coinche.rng.derive_seed`), so a
deal of the day is the same on every device, online or not, and in ``coinche daily``; a session started
with ``Session.new(rules=d.rules, level=d.level, deal_seed=d.deal_seed, first_dealer=d.dealer)`` deals
exactly its cards (the page plays it as a one-deal match).

>>> day = daily_set("2026-12-05")
>>> [(d.number, d.rules, d.dealer, d.level) for d in day]
[(1, 'own', 3, 'normal'), (2, 'own', 3, 'normal'), (3, 'own', 3, 'normal'), (4, 'variant=classic', 3, 'normal')]
>>> day[0].seats, day[0].daily
(('person', 'normal', 'normal', 'normal'), '2026-12-05/1')
>>> daily_set("2026-12-05") == day, daily_set(date(2026, 12, 5)) == day
(True, True)
>>> daily_set("2026-02-30")
Traceback (most recent call last):
...
coinche.errors.CoincheError: '2026-02-30' is not a date from 2000-01-01 to 2099-12-31 (YYYY-MM-DD)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any

from .cards import format_cards, cards_of
from .deal import Deal
from .errors import CoincheError
from .record import FORMAT, PERSON
from .rng import derive_seed
from .rules import Rules

#: How many deals a day's set holds.
DAILY_DEALS = 4
#: Each deal's rules, in order: three of the game's own coinche, then a classic.
DAILY_RULES = ("own", "own", "own", "variant=classic")
#: The dealer of every daily deal: seat 3, so that the player (seat 0) speaks first.
DAILY_DEALER = 3
#: The level of the three bots.
DAILY_LEVEL = "normal"
#: The days that have a set.
FIRST_DATE, LAST_DATE = date(2000, 1, 1), date(2099, 12, 31)


@dataclass(frozen=True)
class DailyDeal:
    """Deal ``number`` (1..4) of the day ``date`` (``YYYY-MM-DD``): its rules (notation), dealer, ``deal_seed``
    (a 64-bit integer as text) and the bots' level."""

    date: str
    number: int
    rules: str
    dealer: int
    deal_seed: str
    level: str

    @property
    def seats(self) -> tuple[str, str, str, str]:
        """Who sits where: the player in seat 0, the bots in the others."""
        return (PERSON, self.level, self.level, self.level)

    @property
    def daily(self) -> str:
        """The deal's name: ``YYYY-MM-DD/N``."""
        return f"{self.date}/{self.number}"

    def deal(self) -> Deal:
        """The deal as dealt (the cards ``Session.new(deal_seed=..., first_dealer=...)`` deals)."""
        return Deal.new(Rules.parse(self.rules), self.dealer, int(self.deal_seed))

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "rules": self.rules, "dealer": self.dealer, "deal_seed": self.deal_seed,
                "level": self.level, "seats": list(self.seats), "daily": self.daily}

    def start_record(self) -> dict[str, Any]:
        """The deal's starting position as a record (coinche.record, nothing called nor played yet), with
        ``daily``: its name.

        >>> start = daily_set("2026-12-05")[3].start_record()
        >>> start["variant"], start["dealer"], start["calls"], start["plays"], len(start["hands"][0].split(","))
        ('classic', 3, [], [], 5)
        """
        deal = self.deal()
        return {
            "format": FORMAT, "variant": deal.variant, "rules": str(deal.rules), "dealer": deal.dealer,
            "deck": format_cards(deal.deck), "hands": [format_cards(cards_of(h)) for h in deal.hands],
            "turned": None if deal.turned < 0 else format_cards([deal.turned]),
            "seats": list(self.seats), "calls": [], "plays": [], "daily": self.daily,
        }


def parse_date(value: Any) -> date:
    """A day of a set: a :class:`datetime.date` or its ``YYYY-MM-DD``, from :data:`FIRST_DATE` to
    :data:`LAST_DATE`; anything else raises ``daily_bad_date``.

    >>> parse_date("2026-12-05")
    datetime.date(2026, 12, 5)
    >>> parse_date("1066-10-14")
    Traceback (most recent call last):
    ...
    coinche.errors.CoincheError: '1066-10-14' is not a date from 2000-01-01 to 2099-12-31 (YYYY-MM-DD)
    """
    day = None
    if isinstance(value, datetime):
        day = value.date()
    elif isinstance(value, date):
        day = value
    elif isinstance(value, str) and len(value) == 10 and value[4] == value[7] == "-" and \
            value[:4].isdigit() and value[5:7].isdigit() and value[8:].isdigit() and value.isascii():
        try:
            day = date(int(value[:4]), int(value[5:7]), int(value[8:]))
        except ValueError:
            day = None
    if day is None or not FIRST_DATE <= day <= LAST_DATE:
        raise CoincheError("daily_bad_date", date=str(value)[:24], first=str(FIRST_DATE), last=str(LAST_DATE))
    return day


def today() -> date:
    """Today's date in UTC: the day whose set is played now."""
    return datetime.now(timezone.utc).date()


def daily_seed(day: date, number: int) -> int:
    """The seed of deal ``number`` of ``day``: from the date and the number alone."""
    return derive_seed(f"coinche-daily/{day.isoformat()}", number)


def daily_set(day: date | str) -> tuple[DailyDeal, ...]:
    """The set of deals of ``day`` (a date or ``YYYY-MM-DD``, a UTC calendar day)."""
    day = parse_date(day)
    return tuple(DailyDeal(day.isoformat(), number, DAILY_RULES[number - 1], DAILY_DEALER,
                           str(daily_seed(day, number)), DAILY_LEVEL)
                 for number in range(1, DAILY_DEALS + 1))


__all__ = ["DAILY_DEALER", "DAILY_DEALS", "DAILY_LEVEL", "DAILY_RULES", "DailyDeal", "daily_seed", "daily_set",
           "parse_date", "today"]
