"""The deal record: a documented JSON form of a whole deal that replays to the same result.

Schema (``"format": "coinche-deal/2"``)::

    {
      "format": "coinche-deal/2",
      "variant": "coinche" | "classic",
      "rules": "own",               # the table's rules in the notation of coinche.rules (variant included)
      "dealer": 0..3,
      "deck": "Jh,7s,...",          # the 32 cards in the order dealt (packets 3-2-3, or 3-2 / turned / rest)
      "hands": ["7s,...", x4],      # each seat's cards when play began (for a void deal: as dealt)
      "turned": "Kd" | null,        # the classic turned card
      "calls": ["pass", "80h", ...],# in order, the first by the seat after the dealer
      "plays": ["Jh", ...],         # the cards in the order played (32 for a played deal)
      "announced": [["Jh-Ah"], [], ["4J"], []],  # only under announce=yes: each seat's announcements
      "seats": ["person", "normal", "normal", "normal"],  # who sat in each seat, seat 0 first (optional)
      "result": {
        "void": bool,
        "contract": {"declarer", "trump", "value", "multiplier"} | null,
        "cards": [a, b], "belote": side | null, "tricks": [a, b], "made": bool,
        "scores": [a, b],           # what each side adds to the match
        "announced": [a, b]         # only under announce=yes: each side's announcement points
      }
    }

``seats`` (optional; written by a game session and by ``coinche simulate``): who sat in each seat, seat 0
first, ``"person"`` or a bot's level (:data:`LEVELS`); it is what :mod:`coinche.par` replays the deal
against.  A record without it replays as before; a malformed one is refused (:func:`record_seats`).

Extra keys (e.g. ``seed``, ``deal_index``) are kept by readers and ignored by the replay.
A record of ``coinche-deal/1`` has no ``rules``: it reads as the game's own rules of its variant.

>>> from coinche.deal import Deal
>>> deal = Deal.new("coinche", dealer=1, seed=9)
>>> for call in ("90s", "pass", "pass", "pass"): deal.apply(call)
>>> while not deal.is_over: deal.play(deal.legal_cards()[-1])
>>> rec = deal_to_record(deal)
>>> deal_to_record(replay(rec)) == rec
True
"""

from __future__ import annotations

from typing import Any, Callable

from .calls import Call
from .cards import Card, format_cards, mask_of, parse_cards
from .deal import VARIANTS, Deal
from .errors import CoincheError, NotationError, excerpt
from .rules import Rules

FORMAT = "coinche-deal/2"
FORMAT_1 = "coinche-deal/1"
#: The bots' levels, as a record's ``seats`` (and a session's settings) name them.
LEVELS = ("easy", "normal", "expert")
#: A seat held by a person in a record's ``seats``.
PERSON = "person"


def _text(value: Any) -> str:
    """Bad input as an error quotes it: a text as it is, anything else as Python writes it."""
    return value if isinstance(value, str) else repr(value)


def deal_to_record(deal: Deal) -> dict[str, Any]:
    hands = deal.dealt if deal.dealt is not None else deal.hands
    from .cards import cards_of

    result: dict[str, Any] = {"void": deal.void, "contract": None if deal.contract is None else deal.contract.to_json()}
    if deal.score is not None:
        result.update(deal.score.to_json())
    else:
        result["scores"] = list(deal.scores)
    record = {
        "format": FORMAT,
        "variant": deal.variant,
        "rules": str(deal.rules),
        "dealer": deal.dealer,
        "deck": format_cards(deal.deck),
        "hands": [format_cards(cards_of(h)) for h in hands],
        "turned": None if deal.turned < 0 else format_cards([deal.turned]),
        "calls": [str(c) for _, c in deal.calls],
        "plays": format_cards(deal.plays).split(",") if deal.plays else [],
        "result": result,
    }
    if deal.rules.announce:
        record["announced"] = deal_announced(deal)
    return record


def dealt_record(deal: Deal, seats: list[str]) -> dict[str, Any]:
    """The record of ``deal`` as dealt (variant, rules, dealer, deck), with who sits where (``seats``) and no call
    nor card: what the replays of a par start from (coinche.par), the same as from the finished deal's record.

    >>> deal = Deal.new("coinche", dealer=1, seed=8)
    >>> start = dealt_record(deal, ["person", "easy", "easy", "easy"])
    >>> start["calls"], start["plays"], dealt(start).deck == deal.deck
    ([], [], True)
    """
    return {"format": FORMAT, "variant": deal.variant, "rules": str(deal.rules), "dealer": deal.dealer,
            "deck": format_cards(deal.deck), "calls": [], "plays": [], "seats": list(seats)}


class RecordError(CoincheError, ValueError):
    """A record that is malformed or does not replay to what it claims."""


#: Why a record is refused: the ``reason`` of a ``malformed_record`` error and the English of its ``detail``.
#: The page says each in the reader's language (its catalogues' ``record.<reason>``) with the error's other
#: params; ``cause`` is the error a call, card or rule option raised, as ``{key, params}``.
REASONS = {
    "not_object": "not a JSON object",
    "bad_format": "format is not {format!r}",
    "missing_key": "missing key {name!r}",
    "bad_deck": "deck: {cause}",
    "unknown_variant": "unknown variant {variant!r}",
    "bad_dealer": "dealer must be 0..3",
    "deck_twice": "the deck must hold each of the 32 cards once",
    "not_lists": "calls and plays must be lists",
    "bad_call": "call {number} ({text!r}): {cause}",
    "bad_card": "card {number} ({text!r}): {cause}",
    "unfinished": "the deal is not finished",
    "announced_out_of_time": "announcements made out of their time",
    "announced_not_played": "announcements under rules that play none",
    "bad_announced": "announced must be four lists of announcements",
    "bad_seats": "seats must be four of {allowed}",
    "bad_rules": "rules: {cause}",
    "rules_variant": "rules {rules!r} are not of the variant {variant!r}",
    "mismatch": "{field} is {stated}, the replay gives {replayed}",
    "bad_decision_index": "the decision's index must be a whole number",
    "no_decision": "action {index} is no decision of this deal",
    "bad_review_seats": "seats must be a list of 0..3",
    "bad_decisions": "decisions must be a list of reviewed decisions",
}


def malformed(reason: str, cause: CoincheError | None = None, **params: Any) -> RecordError:
    """The error that refuses a record for ``reason`` (:data:`REASONS`): key ``malformed_record``, its params
    the ``reason``, the reason's own params, ``cause`` and the English ``detail``.

    >>> malformed("bad_dealer").to_json()["params"]
    {'reason': 'bad_dealer', 'detail': 'dealer must be 0..3'}
    >>> str(malformed("bad_call", NotationError("unknown_call", text="80x"), number=2, text="80x"))
    "malformed record: call 2 ('80x'): unknown call '80x'"
    """
    detail = REASONS[reason].format(**params, cause=cause)
    if cause is not None:
        params["cause"] = {"key": cause.key, "params": cause.params}
    return RecordError("malformed_record", reason=reason, **params, detail=detail)


def dealt(record: dict[str, Any]) -> Deal:
    """The deal of a record as dealt, before any call: its format, variant, rules, dealer, deck and seats
    checked (not its calls and cards).  Raises :class:`RecordError` naming the first problem found.

    >>> dealt({"format": FORMAT, "variant": "coinche", "rules": "own", "dealer": 0, "deck": "Jh,Jh",
    ...        "calls": [], "plays": []})
    Traceback (most recent call last):
    ...
    coinche.record.RecordError: malformed record: the deck must hold each of the 32 cards once
    """
    if not isinstance(record, dict):
        raise malformed("not_object")
    if record.get("format") not in (FORMAT, FORMAT_1):
        raise malformed("bad_format", format=FORMAT)
    try:
        variant = record["variant"]
        dealer = record["dealer"]
        deck = parse_cards(record["deck"])
        calls = record["calls"]
        plays = record["plays"]
    except KeyError as e:
        raise malformed("missing_key", name=str(e.args[0])) from None
    except NotationError as e:
        raise malformed("bad_deck", e) from None
    except (TypeError, AttributeError):
        raise malformed("bad_deck", NotationError("unknown_card", text=excerpt(repr(record["deck"])))) from None
    if variant not in VARIANTS:
        raise malformed("unknown_variant", variant=_text(variant))
    rules = record_rules(record)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise malformed("bad_dealer")
    if len(deck) != 32 or len(set(deck)) != 32:
        raise malformed("deck_twice")
    if not isinstance(calls, list) or not isinstance(plays, list):
        raise malformed("not_lists")
    record_seats(record)
    return Deal(rules, dealer, deck)


def replay(record: dict[str, Any], each: Callable[[Deal], None] | None = None) -> Deal:
    """Rebuild a deal from its record, checking every call and card; the result is recomputed.

    ``each(deal)``, if given, sees the deal as dealt and then after every call and card (a replay
    step by step). Raises :class:`RecordError` naming the first problem found.
    """
    deal = dealt(record)
    calls, plays, rules = record["calls"], record["plays"], deal.rules
    step = each or (lambda deal: None)
    step(deal)
    for i, text in enumerate(calls):
        try:
            deal.apply(Call.parse(text) if isinstance(text, str) else text)
        except CoincheError as e:
            raise malformed("bad_call", e, number=i + 1, text=_text(text)) from None
        step(deal)
    announced = _announced(record, rules)
    for i, text in enumerate(plays):
        try:
            if announced[deal.turn] and deal.may_declare:
                deal.declare(announced[deal.turn])
            if not isinstance(text, str):
                raise NotationError("unknown_card", text=repr(text))
            deal.apply(Card.parse(text))
        except CoincheError as e:
            raise malformed("bad_card", e, number=i + 1, text=_text(text)) from None
        step(deal)
    if not deal.is_over:
        raise malformed("unfinished")
    if any(announced) and deal_announced(deal) != [a.split(",") if a else [] for a in announced]:
        raise malformed("announced_out_of_time")
    return deal


def deal_announced(deal: Deal) -> list[list[str]]:
    """Each seat's declared announcements, in the record's form."""
    return [[str(a) for s, a in deal.declared if s == seat] for seat in range(4)]


def _announced(record: dict[str, Any], rules: Rules) -> list[str]:
    """Each seat's announcements as a record writes them (none without the key)."""
    announced = record.get("announced")
    if announced is None:
        return ["", "", "", ""]
    if not rules.announce:
        raise malformed("announced_not_played")
    if (not isinstance(announced, list) or len(announced) != 4
            or not all(isinstance(seat, list) and all(isinstance(a, str) for a in seat) for seat in announced)):
        raise malformed("bad_announced")
    return [",".join(seat) for seat in announced]


def record_seats(record: dict[str, Any]) -> tuple[str, str, str, str] | None:
    """Who sat in each seat of a record (its ``seats``), or ``None`` for a record that does not say.

    >>> record_seats({"seats": ["person", "normal", "normal", "normal"]})
    ('person', 'normal', 'normal', 'normal')
    >>> record_seats({}) is None
    True
    >>> record_seats({"seats": ["person", "hard", "normal", "normal"]})
    Traceback (most recent call last):
    ...
    coinche.record.RecordError: malformed record: seats must be four of 'person', 'easy', 'normal', 'expert'
    """
    seats = record.get("seats")
    if seats is None:
        return None
    if not isinstance(seats, list) or len(seats) != 4 or not all(s == PERSON or s in LEVELS for s in seats):
        raise malformed("bad_seats", allowed=", ".join(repr(s) for s in (PERSON, *LEVELS)))
    return tuple(seats)


def record_rules(record: dict[str, Any]) -> Rules:
    """The rules a record was played by: its ``rules`` (``coinche-deal/2``), or its variant's own (``/1``).

    >>> record_rules({"format": "coinche-deal/1", "variant": "classic"}) == Rules("classic")
    True
    >>> record_rules({"format": "coinche-deal/2", "variant": "coinche", "rules": "open=82,pisser=yes"})
    Traceback (most recent call last):
    ...
    coinche.record.RecordError: malformed record: rules: unknown rule option 'pisser' (coinche rules lists them)
    """
    variant = record.get("variant")
    if record.get("format") == FORMAT_1:
        return Rules(variant)
    try:
        rules = Rules.parse(record["rules"])
    except KeyError:
        raise malformed("missing_key", name="rules") from None
    except CoincheError as e:
        raise malformed("bad_rules", e) from None
    if rules.variant != variant:
        raise malformed("rules_variant", rules=str(rules), variant=_text(variant))
    return rules


def check(record: dict[str, Any]) -> Deal:
    """Replay a record and check that its stated hands and result are the ones the rules give."""
    deal = replay(record)
    again = deal_to_record(deal)
    for key in ("hands", "turned", "result", "announced"):
        if key in record and record[key] != again.get(key):  # no "announced" under rules that play none
            raise malformed("mismatch", field=key, stated=repr(record[key]), replayed=repr(again.get(key)))
    return deal


__all__ = ["FORMAT", "FORMAT_1", "LEVELS", "PERSON", "REASONS", "RecordError", "deal_to_record", "dealt", "dealt_record",
           "malformed", "record_rules", "record_seats", "replay", "check", "mask_of"]
