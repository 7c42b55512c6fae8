"""The rules a table plays: one small frozen value, the game's own by default, with a text notation.

``Rules()`` is this game's own rules (docs/rules.md), unchanged.  Every house-rule option is a field; the
notation lists the options that differ from the game's own as ``name=value`` separated by commas, in a
fixed order, or names a preset (``own``, ``de-2000``), optionally followed by options that change it.
:meth:`Rules.parse` and ``str`` are a pair: ``Rules.parse(str(r)) == r`` for every value.
docs/rules.md, "House rules", gives each option's exact meaning.

>>> str(Rules())
'own'
>>> r = Rules.parse("target=2000, open=82,round=5up")
>>> r.target, r.opening, str(r)
(2000, 82, 'target=2000,open=82,round=5up')
>>> Rules.parse(str(r)) == r
True
>>> str(Rules.parse("de-2000")), Rules.parse("de-2000").undertrump
('de-2000', True)
>>> str(Rules.parse("de-2000,target=1500"))
'target=1500,open=82,down=160bid,multiply=contract,capot=500,capot_coinche=no,round=5up,tie=declarer,undertrump=yes'
>>> Rules.parse("open=85")
Traceback (most recent call last):
...
coinche.rules.RulesError: unknown value 85 for the rule option open (one of: 80, 82)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import CoincheError

VARIANTS = ("coinche", "classic")
TARGETS = (501, 701, 1000, 1500, 2000)

#: The defence's score on a failed contract, as (card part, whether the bid is added).
DOWN = {"162bid": (162, True), "160bid": (160, True), "160": (160, False), "bid": (0, True)}
ROUNDING = ("none", "5up", "5down")


class RulesError(CoincheError, ValueError):
    """A rules notation naming an unknown option (``unknown_rule_option``) or value (``bad_rule_value``)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """How trump is named: the coinche's auction of bids, or the classic's turned card."""

    name: str
    #: a card is turned face up and a player takes its suit (or, round two, another): no bids
    turned_card: bool
    #: the packets each player is dealt before trump is named
    packets: tuple[int, ...]


VARIANT_KINDS = {"coinche": Variant("coinche", False, (3, 2, 3)), "classic": Variant("classic", True, (3, 2))}


@dataclass(frozen=True, slots=True)
class Rules:
    """The variant, the target and every house-rule option of a match; the defaults are the game's own."""

    variant: str = "coinche"
    target: int = 1000
    #: the end of the match: ``reach`` (reaching the target wins) or ``pass`` (a side must pass it)
    end: str = "reach"
    #: the lowest opening bid: 80 (bids 80, 90, …) or 82 (bids 82, 90, 100, …)
    opening: int = 80
    #: the defence's score on a failed contract (:data:`DOWN`)
    down: str = "162bid"
    #: what a surcoinche multiplies by: 4 or 3
    surcoinche: int = 4
    #: what the multipliers apply to: ``all`` (cards and contract) or ``contract`` (the contract alone)
    multiply: str = "all"
    #: capot: ``250`` (a bid of 250 scored as a contract) or ``500`` (a bonus of 500 when bid)
    capot: int = 250
    #: whether a bid capot may be coinched
    capot_coinche: bool = True
    #: each side's deal score rounded to the ten: ``none``, ``5up`` or ``5down``
    rounding: str = "none"
    #: an exact tie over the target: ``again`` (one more deal) or ``declarer`` (the last deal's declarer wins)
    tie: str = "again"
    #: the belote of a failed contract's declarer: ``keep`` (stays with its side) or ``defence``
    belote: str = "keep"
    #: whether a player who cannot overtrump an opponent's trump must still play a lower trump
    undertrump: bool = False
    #: the contracts a bid may name: ``suits`` (a trump suit) or ``all`` (also no trumps and all trumps)
    contracts: str = "suits"
    #: whether the players declare announcements (tierce, cinquante, cent, carrés) on the first trick
    announce: bool = False
    #: whether the declaring side's announcements count toward making its contract
    announce_make: bool = True
    #: whether a coinche or surcoinche multiplies the announcements
    announce_multiply: bool = False

    def __post_init__(self) -> None:
        for option in OPTIONS:
            value = getattr(self, option.field)
            if value not in option.values:
                raise RulesError("bad_rule_value", name=option.name, value=_text(value),
                                 allowed=", ".join(option.texts))

    # ------------------------------------------------------------ what the deal, play and scoring ask
    @property
    def kind(self) -> Variant:
        return VARIANT_KINDS[self.variant]

    @property
    def bid_values(self) -> tuple[int, ...]:
        """The values a bid may have, lowest first (capot, 250, last)."""
        return _BID_VALUES[self.opening]

    @property
    def bid_kinds(self) -> range:
        """The kinds of contract a bid may name: the suits 0–3, and with ``contracts=all`` in the coinche
        no trumps (4) and all trumps (5)."""
        return range(6) if self.contracts == "all" and not self.kind.turned_card else range(4)

    def multiplier(self, calls: int) -> int:
        """The multiplier after ``calls`` coinches: 0 → 1, 1 (coinche) → 2, 2 (surcoinche) → 4 or 3."""
        return (1, 2, self.surcoinche)[calls]

    @property
    def is_own(self) -> bool:
        """Whether these are the game's own rules, whatever the variant and target."""
        return replace(self, variant="coinche", target=1000) == OWN

    def with_match(self, variant: str, target: int) -> "Rules":
        return replace(self, variant=variant, target=target)

    @classmethod
    def for_table(cls, text: str | None, variant: str | None = None) -> "Rules":
        """A command's ``--rules TEXT`` (none: the game's own), its ``--variant`` replacing the notation's.

        >>> str(Rules.for_table("de-2000", "classic")).split(",")[:3], str(Rules.for_table(None))
        (['variant=classic', 'target=2000', 'open=82'], 'own')
        """
        rules = cls.parse(text) if text else cls()
        return rules if variant is None else rules.with_match(variant, rules.target)

    # ------------------------------------------------------------ notation
    @classmethod
    def parse(cls, text: Any) -> "Rules":
        """Read a notation: presets and ``name=value`` options, separated by commas, applied in order."""
        if not isinstance(text, str):
            raise RulesError("bad_rule_value", name="rules", value=_text(text), allowed="text")
        values: dict[str, Any] = {}
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            if "=" not in item:
                preset = PRESETS.get(item.lower())
                if preset is None:
                    raise RulesError("unknown_rule_option", name=item)
                values = {f.name: getattr(preset, f.name) for f in fields(preset)}
                continue
            name, _, value = (s.strip() for s in item.partition("="))
            option = _BY_NAME.get(name.lower())
            if option is None:
                raise RulesError("unknown_rule_option", name=name)
            values[option.field] = option.read(value)
        return cls(**values)

    def __str__(self) -> str:
        text = _NOTATIONS.get(self)
        if text is None:
            text = next((name for name, preset in PRESETS.items() if preset == self), None) or self.options_text()
            if len(_NOTATIONS) < 1024:
                _NOTATIONS[self] = text
        return text

    def options_text(self) -> str:
        """The options that differ from the game's own, as ``name=value`` (no preset name; ``""`` for none)."""
        return ",".join(f"{o.name}={o.text(getattr(self, o.field))}" for o in OPTIONS
                        if getattr(self, o.field) != getattr(OWN, o.field))

    def to_json(self) -> dict[str, Any]:
        """Every option by its notation name, with the notation."""
        out: dict[str, Any] = {o.name: getattr(self, o.field) for o in OPTIONS}
        out["notation"] = str(self)
        return out

    def changes(self) -> list[str]:
        """The notation names of the options that differ from the game's own (variant and target aside)."""
        return [o.name for o in OPTIONS[2:] if getattr(self, o.field) != getattr(OWN, o.field)]


_BID_VALUES = {80: (80, 90, 100, 110, 120, 130, 140, 150, 160, 250), 82: (82, 90, 100, 110, 120, 130, 140, 150, 160, 250)}
_NOTATIONS: dict["Rules", str] = {}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@dataclass(frozen=True, slots=True)
class Option:
    """One option of the notation: its name, the field it sets, its values (the game's own first)."""

    name: str
    field: str
    values: tuple

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(_text(v) for v in self.values)

    def text(self, value: Any) -> str:
        return _text(value)

    def read(self, text: str) -> Any:
        for value in self.values:
            if _text(value) == text.lower():
                return value
        raise RulesError("bad_rule_value", name=self.name, value=text, allowed=", ".join(self.texts))


OPTIONS = (
    Option("variant", "variant", VARIANTS),
    Option("target", "target", (1000, 501, 701, 1500, 2000)),
    Option("end", "end", ("reach", "pass")),
    Option("open", "opening", (80, 82)),
    Option("down", "down", tuple(DOWN)),
    Option("surcoinche", "surcoinche", (4, 3)),
    Option("multiply", "multiply", ("all", "contract")),
    Option("capot", "capot", (250, 500)),
    Option("capot_coinche", "capot_coinche", (True, False)),
    Option("round", "rounding", ROUNDING),
    Option("tie", "tie", ("again", "declarer")),
    Option("belote", "belote", ("keep", "defence")),
    Option("undertrump", "undertrump", (False, True)),
    Option("contracts", "contracts", ("suits", "all")),
    Option("announce", "announce", (False, True)),
    Option("announce_make", "announce_make", (True, False)),
    Option("announce_multiply", "announce_multiply", (False, True)),
)
_BY_NAME = {o.name: o for o in OPTIONS}

OWN = Rules()
#: The rules of the German rules page in shared/seeds/house-rules-2000-de.txt, read as docs/rules.md says
#: ("The presets").
DE_2000 = Rules(target=2000, opening=82, down="160bid", multiply="contract", capot=500, capot_coinche=False,
                rounding="5up", tie="declarer", undertrump=True)
PRESETS = {"own": OWN, "de-2000": DE_2000}


def describe() -> dict[str, Any]:
    """The options, their values (the game's own first) and the presets, as data (``coinche rules --json``)."""
    return {
        "options": [{"name": o.name, "values": list(o.texts), "default": o.texts[0]} for o in OPTIONS],
        "presets": {name: {"options": p.options_text(), "rules": p.to_json()} for name, p in PRESETS.items()},
    }


__all__ = ["DE_2000", "DOWN", "OPTIONS", "OWN", "PRESETS", "Rules", "RulesError", "TARGETS", "VARIANTS",
           "VARIANT_KINDS", "Variant", "describe"]
