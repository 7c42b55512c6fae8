"""Puzzles: one moment of a deal and the card that gets the most out of it (docs/puzzles.md).

A :class:`Puzzle` holds the rules, the contract, the cards each seat still holds, the trick on the table, what
each side has won so far, the seat to play, and its solution: every card that reaches the best result, every
other card losing at least ``margin`` points (the side's score minus the other's at the end of the deal).
Two kinds: ``open`` (all four hands shown, solved double dummy by :mod:`coinche.solver`) and ``seat`` (a
reviewed decision of the player's own deal, with only what the seat knew; its ``values`` are the review's).

Two notations with their parse and format side by side: a JSON line (:meth:`Puzzle.from_json`,
:meth:`Puzzle.to_json`) and a link's fragment (:meth:`Puzzle.parse`, ``str()``) in the style of the judge's
position notation (:mod:`coinche.position`):

>>> p = Puzzle.parse("contract=80h1-0&hands=Jh,Ac/9h,As/Ts,Tc/7h,Ad&trick=0:&won=32,33/3,3&to=0&solution=Jh"
...                  "&margin=20&rating=1200")
>>> str(p)
'contract=80h1-0&hands=Jh,Ac/As,9h/Ts,Tc/7h,Ad&trick=0:&won=32,33/3,3&to=0&solution=Jh&margin=20&rating=1200'
>>> {str(card): points for card, points in solve_puzzle(p).items()}
{'Jh': 176, 'Ac': 84}
>>> check_puzzle(p) is None
True
>>> Puzzle.parse("contract=80h1-0&hands=Jh,Jh/9h,As/Ts,Tc/7h,Ad&trick=0:&won=32,33/3,3&to=0&solution=Jh")
Traceback (most recent call last):
...
coinche.errors.InvalidPositionError: card Jh appears twice

Every bad input is told by a stable key (:mod:`coinche.errors`) and its first real problem, in this order: the
text's length, the parts (``name=value``, a known field, given once), the fields required, each field as
written, then the position as a whole: a card twice, the seat to play, each seat's count of cards, the tricks
and the points won.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import POINTS, TRUMP_LETTERS, Card, Rank, format_cards, mask_of
from .errors import CoincheError, InvalidPositionError, NotationError, excerpt
from .play import legal_mask, trick_winner
from .rules import Rules
from .scoring import Contract

#: The kinds of puzzle: ``open`` (double dummy, all hands shown), ``seat`` (what one seat knew, the review's
#: prices).
KINDS = ("open", "seat")
#: The themes a puzzle may carry (lab/coinche_lab/puzzles.py detects them; docs/puzzles.md says each).
THEMES = ("draw_trumps", "dix_de_der", "unblock", "partner_lead", "ruff", "keep_belote", "last_trump", "capot",
          "contract", "endgame")
#: The fields of the link notation, in the order it writes them.
FIELDS = ("id", "kind", "rules", "contract", "hands", "trick", "won", "belote", "announced", "to", "solution",
          "margin", "themes", "rating", "line", "counts", "values")
REQUIRED = ("contract", "hands", "trick", "won", "to", "solution")
#: The longest text read as a puzzle link; a longer one is refused before anything in it is read.
MAX_LENGTH = 1000
MAX_RATING = 4000
_CONTRACT = re.compile(r"(\d{1,3})(sa|ta|s|h|d|c)([1-4])-([0-3])\Z")
_ID = re.compile(r"[A-Za-z0-9_.-]{1,40}\Z")


class PuzzleError(CoincheError, ValueError):
    """A puzzle that does not read, or cannot be (a field written wrong, counts that do not add up)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle (docs/puzzles.md); a position that holds together (:meth:`of` checks it)."""

    contract: Contract
    hands: tuple[tuple[Card, ...], ...]
    leader: int
    trick: tuple[Card, ...]
    points: tuple[int, int]
    tricks: tuple[int, int]
    solution: tuple[Card, ...]
    rules: Rules = Rules()
    id: str = ""
    kind: str = "open"
    margin: int = 0
    themes: tuple[str, ...] = ()
    rating: int = 1500
    line: tuple[Card, ...] = ()
    #: the side (0 or 1) of the seat dealt the trump king and queen, ``None`` if no seat was
    belote: int | None = None
    #: each side's announcement points (house rule ``announce=yes``)
    announced: tuple[int, int] = (0, 0)
    #: a ``seat`` puzzle: how many cards each seat holds (the hidden hands are empty) and the review's price of
    #: each legal card
    counts: tuple[int, int, int, int] | None = None
    values: tuple[tuple[Card, float], ...] = field(default=())

    # ------------------------------------------------------------ what it is
    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) & 3

    @property
    def trump(self) -> int:
        return self.contract.suit

    def hand_masks(self) -> list[int]:
        return [mask_of(h) for h in self.hands]

    def legal(self) -> list[Card]:
        """The legal cards of the seat to play, in card order."""
        mask = legal_mask(mask_of(self.hands[self.to_play]), [int(c) for c in self.trick], self.trump,
                          self.rules.undertrump)
        return [Card(c) for c in range(32) if mask >> c & 1]

    # ------------------------------------------------------------ built and checked
    @classmethod
    def of(cls, **parts: Any) -> "Puzzle":
        """A puzzle from its parts, the position checked as a whole (see the module's order of problems)."""
        if "hands" in parts:  # a hand is a set: kept in card order, as the solution and the prices
            parts["hands"] = tuple(tuple(sorted(h)) for h in parts["hands"])
        for name in ("solution", "values"):
            if name in parts:
                parts[name] = tuple(sorted(parts[name]))
        p = cls(**parts)
        _check_position(p)
        return p

    def after(self, cards) -> "Puzzle":
        """The position once ``cards`` (each legal in turn) are played: tricks gathered, points counted, the
        solution, line and rating cleared (a position to solve, not a puzzle)."""
        hands = [list(h) for h in self.hands]
        trick, leader = [int(c) for c in self.trick], self.leader
        points, tricks = list(self.points), list(self.tricks)
        trump = self.trump
        for card in cards:
            card = _card(card, "line")
            seat = (leader + len(trick)) & 3
            if card not in legal_mask_cards(mask_of(hands[seat]), trick, trump, self.rules.undertrump):
                raise PuzzleError("puzzle_not_legal", card=str(Card(card)), seat=seat)
            hands[seat].remove(card)
            trick.append(card)
            if len(trick) == 4:
                winner = (leader + trick_winner(trick, trump)) & 3
                points[winner & 1] += sum(POINTS[trump][c] for c in trick)
                tricks[winner & 1] += 1
                trick, leader = [], winner
        return replace(self, hands=tuple(tuple(Card(c) for c in h) for h in hands), leader=leader,
                       trick=tuple(Card(c) for c in trick), points=(points[0], points[1]),
                       tricks=(tricks[0], tricks[1]), solution=(), line=(), values=(), counts=None)

    # ------------------------------------------------------------ the JSON line
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "rules": str(self.rules),
            "contract": {"declarer": self.contract.declarer, "trump": TRUMP_LETTERS[self.trump],
                         "value": self.contract.value, "multiplier": self.contract.multiplier},
            "hands": [[str(c) for c in h] for h in self.hands],
            "trick": {"leader": self.leader, "cards": [str(c) for c in self.trick]},
            "won": {"points": list(self.points), "tricks": list(self.tricks), "belote": self.belote,
                    "announced": list(self.announced)},
            "to_play": self.to_play, "solution": [str(c) for c in self.solution], "margin": self.margin,
            "themes": list(self.themes), "rating": self.rating, "line": [str(c) for c in self.line],
        }
        if self.kind == "seat":
            out["counts"] = list(self.counts or ())
            out["values"] = {str(c): v for c, v in self.values}
        return out

    def to_json(self) -> str:
        """The puzzle as one JSON line (docs/puzzles.md)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> "Puzzle":
        """A puzzle from its JSON line (a ``str``) or its decoded object; raises :class:`PuzzleError`,
        :class:`~coinche.errors.NotationError` or :class:`~coinche.errors.InvalidPositionError`."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                raise PuzzleError("puzzle_corrupt", detail="not JSON") from None
        if not isinstance(data, dict):
            raise PuzzleError("puzzle_corrupt", detail="not a JSON object")
        for name in data:
            if name not in JSON_FIELDS:
                raise NotationError("unknown_field", field=excerpt(str(name)))
        for name in ("contract", "hands", "trick", "won", "to_play", "solution"):
            if name not in data:
                raise NotationError("missing_field", field=name)
        contract, won, trick = (_object(data, name) for name in ("contract", "won", "trick"))
        rules = _rules(data.get("rules", "own"))
        c = Contract(rules.variant, _seat(contract.get("declarer"), "contract"), _trump(contract.get("trump")),
                     _int(contract.get("value"), "contract"), _int(contract.get("multiplier"), "contract"))
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != 4:
            raise PuzzleError("puzzle_malformed", field="hands", text="four lists of cards")
        values = data.get("values", {})
        if not isinstance(values, dict):
            raise PuzzleError("puzzle_malformed", field="values", text="an object of cards and points")
        p = cls.of(
            id=_id(data.get("id", "")), kind=_kind(data.get("kind", "open")), rules=rules, contract=c,
            hands=tuple(tuple(_cards(h, "hands")) for h in hands),
            leader=_seat(trick.get("leader"), "trick"), trick=tuple(_cards(trick.get("cards"), "trick")),
            points=_pair(won.get("points"), "won"), tricks=_pair(won.get("tricks"), "won"),
            belote=_belote(won.get("belote")), announced=_pair(won.get("announced", [0, 0]), "announced"),
            solution=tuple(_cards(data["solution"], "solution")), margin=_int(data.get("margin", 0), "margin"),
            themes=_themes(data.get("themes", [])), rating=_rating(data.get("rating", 1500)),
            line=tuple(_cards(data.get("line", []), "line")),
            counts=None if data.get("counts") is None else _counts(data["counts"]),
            values=tuple((_card(k, "values"), _number(v, "values")) for k, v in values.items()))
        if _seat(data["to_play"], "to_play") != p.to_play:
            raise PuzzleError("puzzle_turn", to=data["to_play"], expected=p.to_play)
        return p

    # ------------------------------------------------------------ the link
    def __str__(self) -> str:
        """The link notation (the page's fragment): fields with their defaults left out."""
        c = self.contract
        parts = []
        if self.id:
            parts.append(f"id={self.id}")
        if self.kind != "open":
            parts.append(f"kind={self.kind}")
        if str(self.rules) != "own":
            parts.append(f"rules={str(self.rules).replace(',', ';')}")
        parts.append(f"contract={c.value}{TRUMP_LETTERS[c.suit]}{c.multiplier}-{c.declarer}")
        parts.append("hands=" + "/".join(format_cards(h) for h in self.hands))
        parts.append(f"trick={self.leader}:{format_cards(self.trick)}")
        parts.append(f"won={self.points[0]},{self.points[1]}/{self.tricks[0]},{self.tricks[1]}")
        if self.belote is not None:
            parts.append(f"belote={self.belote}")
        if self.announced != (0, 0):
            parts.append(f"announced={self.announced[0]},{self.announced[1]}")
        parts.append(f"to={self.to_play}")
        parts.append(f"solution={format_cards(self.solution)}")
        if self.margin:
            parts.append(f"margin={self.margin}")
        if self.themes:
            parts.append("themes=" + ",".join(self.themes))
        parts.append(f"rating={self.rating}")
        if self.line:
            parts.append(f"line={format_cards(self.line)}")
        if self.counts is not None:
            parts.append("counts=" + ",".join(map(str, self.counts)))
        if self.values:
            parts.append("values=" + ",".join(f"{c}:{_number_text(v)}" for c, v in self.values))
        return "&".join(parts)

    @classmethod
    def parse(cls, text: str) -> "Puzzle":
        """Read the link notation (a leading ``#`` or ``?`` ignored); raises :class:`PuzzleError`,
        :class:`~coinche.errors.NotationError` or :class:`~coinche.errors.InvalidPositionError`."""
        if not isinstance(text, str):
            raise PuzzleError("puzzle_corrupt", detail="not text")
        text = text.strip()
        if text[:1] in ("#", "?"):
            text = text[1:]
        if len(text) > MAX_LENGTH:
            raise PuzzleError("puzzle_too_long", length=len(text), limit=MAX_LENGTH)
        fields: dict[str, str] = {}
        for part in text.split("&") if text else []:
            name, eq, value = part.partition("=")
            if not eq:
                raise NotationError("malformed_position", text=excerpt(part))
            if name not in FIELDS:
                raise NotationError("unknown_field", field=excerpt(name))
            if name in fields:
                raise NotationError("malformed_position", text=f"{name} given twice")
            fields[name] = value
        for name in REQUIRED:
            if name not in fields:
                raise NotationError("missing_field", field=name)
        rules = _rules(fields.get("rules", "own").replace(";", ","))
        m = _CONTRACT.match(fields["contract"])
        if not m:
            raise PuzzleError("puzzle_malformed", field="contract", text=excerpt(fields["contract"]))
        contract = Contract(rules.variant, int(m[4]), TRUMP_LETTERS.index(m[2]), int(m[1]), int(m[3]))
        hands = fields["hands"].split("/")
        if len(hands) != 4:
            raise PuzzleError("puzzle_malformed", field="hands", text=excerpt(fields["hands"]))
        leader, colon, trick = fields["trick"].partition(":")
        if not colon or leader not in ("0", "1", "2", "3"):
            raise PuzzleError("puzzle_malformed", field="trick", text=excerpt(fields["trick"]))
        won = re.fullmatch(r"(\d{1,3}),(\d{1,3})/(\d),(\d)", fields["won"])
        if not won:
            raise PuzzleError("puzzle_malformed", field="won", text=excerpt(fields["won"]))
        to = fields["to"]
        if to not in ("0", "1", "2", "3"):
            raise PuzzleError("puzzle_malformed", field="to", text=excerpt(to))
        values = []
        for item in _list(fields.get("values", "")):
            card, colon, number = item.partition(":")
            try:
                values.append((_card(card, "values"), _number(float(number) if "." in number else int(number),
                                                                "values")))
            except ValueError:
                raise PuzzleError("puzzle_malformed", field="values", text=excerpt(item)) from None
        p = cls.of(
            id=_id(fields.get("id", "")), kind=_kind(fields.get("kind", "open")), rules=rules, contract=contract,
            hands=tuple(tuple(_cards(_list(h), "hands")) for h in hands), leader=int(leader),
            trick=tuple(_cards(_list(trick), "trick")), points=(int(won[1]), int(won[2])),
            tricks=(int(won[3]), int(won[4])),
            belote=_belote(_whole(fields["belote"], "belote")) if "belote" in fields else None,
            announced=_pair(_whole_list(fields.get("announced", "0,0"), "announced"), "announced"),
            solution=tuple(_cards(_list(fields["solution"]), "solution")),
            margin=_int(_whole(fields.get("margin", "0"), "margin"), "margin"),
            themes=_themes(_list(fields.get("themes", ""))),
            rating=_rating(_whole(fields.get("rating", "1500"), "rating")),
            line=tuple(_cards(_list(fields.get("line", "")), "line")),
            counts=_counts(_whole_list(fields["counts"], "counts")) if "counts" in fields else None,
            values=tuple(values))
        if int(to) != p.to_play:
            raise PuzzleError("puzzle_turn", to=int(to), expected=p.to_play)
        return p


JSON_FIELDS = ("id", "kind", "rules", "contract", "hands", "trick", "won", "to_play", "solution", "margin", "themes",
               "rating", "line", "counts", "values")


def legal_mask_cards(hand: int, trick: list[int], trump: int, undertrump: bool) -> list[int]:
    mask = legal_mask(hand, trick, trump, undertrump)
    return [c for c in range(32) if mask >> c & 1]


# ---------------------------------------------------------------- reading fields
def _list(text: str) -> list[str]:
    return text.split(",") if text else []


def _card(text: Any, name: str) -> Card:
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise PuzzleError("puzzle_malformed", field=name, text=excerpt(str(text)))
    return Card.parse(text)


def _cards(items: Any, name: str) -> list[Card]:
    if not isinstance(items, list) or len(items) > 32:
        raise PuzzleError("puzzle_malformed", field=name, text=excerpt(str(items)))
    return [_card(t, name) for t in items]


def _int(value: Any, name: str, low: int = 0, high: int = 10_000) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PuzzleError("puzzle_malformed", field=name, text=excerpt(str(value)))
    return value


def _number(value: Any, name: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not -100_000 <= value <= 100_000:
        raise PuzzleError("puzzle_malformed", field=name, text=excerpt(str(value)))
    return value


def _number_text(value: float) -> str:
    return str(value) if isinstance(value, float) else str(int(value))


def _whole(text: str, name: str) -> int:
    if not re.fullmatch(r"\d{1,5}", text):
        raise PuzzleError("puzzle_malformed", field=name, text=excerpt(text))
    return int(text)


def _whole_list(text: str, name: str) -> list[int]:
    return [_whole(t, name) for t in text.split(",")]


def _pair(value: Any, name: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise PuzzleError("puzzle_malformed", field=name, text=excerpt(str(value)))
    return (_int(value[0], name), _int(value[1], name))


def _counts(value: Any) -> tuple[int, int, int, int]:
    if not isinstance(value, list) or len(value) != 4:
        raise PuzzleError("puzzle_malformed", field="counts", text=excerpt(str(value)))
    a, b, c, d = (_int(v, "counts", 0, 8) for v in value)
    return (a, b, c, d)


def _seat(value: Any, name: str) -> int:
    return _int(value, name, 0, 3)


def _trump(value: Any) -> int:
    if value not in TRUMP_LETTERS:
        raise NotationError("unknown_trump", text=excerpt(str(value)))
    return TRUMP_LETTERS.index(value)


def _belote(value: Any) -> int | None:
    return None if value is None else _int(value, "belote", 0, 1)


def _rules(text: Any) -> Rules:
    if not isinstance(text, str):
        raise PuzzleError("puzzle_malformed", field="rules", text=excerpt(str(text)))
    return Rules.parse(text)


def _id(value: Any) -> str:
    if not isinstance(value, str) or value and not _ID.match(value):
        raise PuzzleError("puzzle_malformed", field="id", text=excerpt(str(value)))
    return value


def _kind(value: Any) -> str:
    if value not in KINDS:
        raise PuzzleError("puzzle_malformed", field="kind", text=excerpt(str(value)))
    return value


def _themes(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise PuzzleError("puzzle_malformed", field="themes", text=excerpt(str(value)))
    for theme in value:
        if theme not in THEMES:
            raise PuzzleError("puzzle_unknown_theme", theme=excerpt(str(theme)))
    return tuple(value)


def _rating(value: Any) -> int:
    return _int(value, "rating", 0, MAX_RATING)


def _object(data: dict, name: str) -> dict:
    value = data[name]
    if not isinstance(value, dict):
        raise PuzzleError("puzzle_malformed", field=name, text=excerpt(str(value)))
    return value


# ---------------------------------------------------------------- the position as a whole
def _check_position(p: Puzzle) -> None:
    rules, c = p.rules, p.contract
    if c.suit not in rules.bid_kinds:
        raise CoincheError("contract_not_played", kind=TRUMP_LETTERS[c.suit])
    if rules.kind.turned_card:
        if c.value != 0 or c.multiplier != 1:
            raise PuzzleError("puzzle_malformed", field="contract", text=f"{c.value}{TRUMP_LETTERS[c.suit]}{c.multiplier}")
    elif c.value not in rules.bid_values or c.multiplier not in (1, 2, rules.surcoinche):
        raise PuzzleError("puzzle_malformed", field="contract", text=f"{c.value}{TRUMP_LETTERS[c.suit]}{c.multiplier}")
    if len(p.trick) > 3:
        raise InvalidPositionError("too_many_cards", count=len(p.trick), limit=3)
    seen: set[int] = set()
    for card in [c for h in p.hands for c in h] + list(p.trick):
        if card in seen:
            raise InvalidPositionError("duplicate_card", card=str(card))
        seen.add(card)
    done = p.tricks[0] + p.tricks[1]
    if done > 7:
        raise PuzzleError("puzzle_tricks", tricks=f"{p.tricks[0]},{p.tricks[1]}")
    for seat in range(4):
        played = (seat - p.leader) & 3 < len(p.trick)
        expected = 8 - done - played
        count = len(p.hands[seat]) if p.counts is None else p.counts[seat]
        if count != expected:
            raise PuzzleError("puzzle_hand_count", seat=seat, count=count, expected=expected)
        if p.counts is not None and p.hands[seat] and len(p.hands[seat]) != count:
            raise PuzzleError("puzzle_hand_count", seat=seat, count=len(p.hands[seat]), expected=count)
    if p.kind == "open" and p.counts is not None or p.kind == "seat" and p.counts is None:
        raise PuzzleError("puzzle_malformed", field="counts", text=p.kind)
    if p.kind == "open" and p.values:
        raise PuzzleError("puzzle_malformed", field="values", text=p.kind)
    if p.kind == "seat" and not p.hands[p.to_play]:
        raise PuzzleError("puzzle_hand_count", seat=p.to_play, count=0, expected=p.counts[p.to_play])
    points = POINTS[p.trump]
    total = sum(points)
    if p.kind == "open":
        expected = total - sum(points[c] for c in seen)
        if p.points[0] + p.points[1] != expected:
            raise PuzzleError("puzzle_points", points=f"{p.points[0]},{p.points[1]}", expected=expected)
    elif p.points[0] + p.points[1] > total:
        raise PuzzleError("puzzle_points", points=f"{p.points[0]},{p.points[1]}", expected=total)
    for side in (0, 1):
        if p.points[side] and not p.tricks[side]:
            raise PuzzleError("puzzle_tricks", tricks=f"{p.tricks[0]},{p.tricks[1]}")
    legal = set(p.legal())
    for card in p.solution:
        if card not in legal:
            raise PuzzleError("puzzle_not_legal", card=str(card), seat=p.to_play)
    if p.kind == "open":
        if p.belote is not None and p.trump < 4:
            king, queen = p.trump * 8 + Rank.KING, p.trump * 8 + Rank.QUEEN
            for seat, hand in enumerate(p.hands):
                if king in hand and queen in hand and seat & 1 != p.belote:
                    raise PuzzleError("puzzle_belote", side=p.belote)
        p.after(p.line)  # every card of the line legal in turn
    for card, _ in p.values:
        if card not in legal:
            raise PuzzleError("puzzle_not_legal", card=str(card), seat=p.to_play)


# ---------------------------------------------------------------- solving
def solve_puzzle(p: Puzzle) -> dict[Card, float]:
    """Each legal card of the seat to play with the final score it leads to, in points for that side (its
    score minus the other's at the end of the deal): solved double dummy for an ``open`` puzzle, the review's
    prices for a ``seat`` puzzle."""
    if p.kind == "seat":
        return dict(p.values)
    from .solver import solve_cards

    side = p.to_play & 1
    found = solve_cards(p.hand_masks(), p.leader, [int(c) for c in p.trick], p.trump, p.points, p.tricks,
                        contract=p.contract, belote_side=p.belote, rules=p.rules, announced=p.announced)
    return {Card(c): o.difference(side) for c, o in sorted(found.items())}


def best_cards(values: dict[Card, float]) -> tuple[list[Card], float | None]:
    """The cards of the best value and how much less the next best gives (``None`` when every card is best).

    >>> best_cards({Card.parse("Jh"): 50, Card.parse("Qh"): 50, Card.parse("7s"): 20})
    ([Card.parse('Jh'), Card.parse('Qh')], 30)
    """
    top = max(values.values())
    best = sorted(c for c, v in values.items() if v == top)
    rest = [v for v in values.values() if v != top]
    return best, (top - max(rest) if rest else None)


def check_puzzle(p: Puzzle) -> dict[str, Any] | None:
    """``None`` when the puzzle holds (its solution is exactly the best cards, every other card loses at least
    ``margin``, and every move of the player in its ``line`` is again forced by that margin, the other seats
    playing a best card), else the reason as ``{key, params}``."""
    values = solve_puzzle(p)
    reason = _holds(p.solution, values, p.margin)
    if reason is not None or p.kind == "seat" or not p.line:
        return reason
    me, at = p.to_play, p
    for i, card in enumerate(p.line):
        values = solve_puzzle(at)
        seat = at.to_play
        if seat == me:
            best, _ = best_cards(values)
            if card not in best:
                return {"key": "puzzle_line_not_best", "params": {"card": str(card), "move": i + 1}}
            reason = _holds(tuple(best), values, p.margin)
            if reason is not None:
                return {"key": "puzzle_line_not_forced", "params": {"card": str(card), "move": i + 1}}
        elif values[card] != max(values.values()):
            return {"key": "puzzle_line_not_best", "params": {"card": str(card), "move": i + 1}}
        at = at.after([card])
    return None


def _holds(solution, values: dict[Card, float], margin: int) -> dict[str, Any] | None:
    best, gap = best_cards(values)
    if sorted(solution) != best:
        return {"key": "puzzle_not_best", "params": {"cards": format_cards(sorted(solution)),
                                                     "best_cards": format_cards(best)}}
    if gap is None or gap < margin:
        return {"key": "puzzle_margin", "params": {"margin": margin, "found": 0 if gap is None else gap}}
    return None


def played_out(p: Puzzle, first: Card | None = None) -> list[Card]:
    """The whole line from the position to the deal's end: ``first`` (default: the line's first card, else a
    best card), then the puzzle's ``line``, then best play on both sides (the solver's, one table of bounds
    kept along the line), as the page plays it out once the puzzle is answered."""
    from .solver import searcher, solve_best

    if p.kind != "open":
        return []
    line = [Card(c) for c in p.line]
    if first is not None and (not line or line[0] != first):
        line = [Card(first)]
    search = searcher(p.trump, p.rules)
    at = p.after(line)
    while any(at.hands):
        best = solve_best(at.hand_masks(), at.leader, [int(c) for c in at.trick], at.trump, at.points, at.tricks,
                          at.contract, at.belote, search, at.rules, at.announced)
        line.append(Card(best.card))
        at = at.after([best.card])
    return line


# ---------------------------------------------------------------- from the player's own deal
#: The marks from which a reviewed decision becomes a puzzle of the player's own.
SEAT_MARKS = ("mistake", "blunder")


def from_review(decision, reviewed: dict[str, Any], puzzle_id: str = "") -> Puzzle:
    """A ``seat`` puzzle from a card decision (:class:`coinche.review.Decision`) and its review: only what the
    seat knew (its hand, the counts of the others', the table), the review's price of every legal card, the
    solution the cards of the best price (each card of a run of equivalent cards priced as the run).  Raises
    ``puzzle_not_a_mistake`` unless the review marked it a mistake or a blunder."""
    from .announce import side_points
    from .review import _run_of

    if decision.kind != "card" or reviewed.get("mark") not in SEAT_MARKS:
        raise PuzzleError("puzzle_not_a_mistake", index=decision.index)
    view = decision.view
    trump = view.contract.suit
    options = {}
    for name, value in (reviewed.get("options") or {}).items():
        options[int(Card.parse(name))] = _number(value, "values")
    if not options:
        raise PuzzleError("puzzle_not_a_mistake", index=decision.index)
    values = {Card(c): options[_run_of(int(c), options, trump)] for c in view.legal}
    best, gap = best_cards(values)
    belote = None
    if trump < 4 and {trump * 8 + Rank.KING, trump * 8 + Rank.QUEEN} <= set(view.hand):
        belote = view.seat & 1
    return Puzzle.of(
        id=puzzle_id, kind="seat", rules=view.rules, contract=view.contract,
        hands=tuple(tuple(view.hand) if s == view.seat else () for s in range(4)), leader=view.leader,
        trick=tuple(view.trick), points=tuple(view.cards_won), tricks=tuple(view.tricks_won), belote=belote,
        announced=side_points(view.declared, trump), solution=tuple(best), margin=int(gap or 0),
        counts=tuple(view.hand_counts), values=tuple(values.items()))


__all__ = ["KINDS", "SEAT_MARKS", "THEMES", "Puzzle", "PuzzleError", "best_cards", "check_puzzle", "from_review",
           "played_out", "solve_puzzle"]
