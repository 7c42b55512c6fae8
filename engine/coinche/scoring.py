"""Scoring of a coinche deal and of a classic deal, as pure functions of (rules, contract, cards, belote, tricks).

The rules are a :class:`~coinche.rules.Rules` value; the ``score_*`` functions default to the game's own.
Each score comes with its parts (:class:`ScorePart`): which rule gave which points to which side.
The worked example of docs/rules.md (contract 110 hearts):

>>> c = Contract(variant="coinche", declarer=0, suit=1, value=110)
>>> score_coinche(c, cards=(124, 38), belote_side=None, tricks=(6, 2)).scores
(234, 38)
>>> score_coinche(c, cards=(96, 66), belote_side=None, tricks=(5, 3)).scores
(0, 272)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .announce import Announcement, best
from .calls import CAPOT
from .cards import TRUMP_LETTERS
from .rules import DOWN, OWN, Rules

TOTAL = 162
CAPOT_CLASSIC = 250
CAPOT_BONUS = 500
BELOTE = 20


@dataclass(frozen=True, slots=True)
class Contract:
    """Who plays for what: ``value`` is the bid (0 in the classic), ``multiplier`` 1, 2 (coinche), 4 or 3
    (surcoinche, by the rules); ``variant`` names the variant for display only."""

    variant: str
    declarer: int
    suit: int
    value: int = 0
    multiplier: int = 1

    @property
    def side(self) -> int:
        return self.declarer & 1

    @property
    def is_capot(self) -> bool:
        return self.value == CAPOT

    def __str__(self) -> str:
        if self.variant == "classic":
            return f"take{TRUMP_LETTERS[self.suit]} by {self.declarer}"
        bid = ("capot" if self.is_capot else str(self.value)) + TRUMP_LETTERS[self.suit]
        extra = {1: "", 2: " coinche"}.get(self.multiplier, " surcoinche")
        return f"{bid}{extra} by {self.declarer}"

    def to_json(self) -> dict:
        return {
            "declarer": self.declarer,
            "trump": TRUMP_LETTERS[self.suit],
            "value": self.value,
            "multiplier": self.multiplier,
        }


@dataclass(frozen=True, slots=True)
class ScorePart:
    """Points one rule gave one side: ``key`` names the part, ``rule`` the option that gave it (``None``:
    the game's own rule), ``points`` what it adds (rounding may take away)."""

    side: int
    key: str
    points: int
    rule: str | None = None

    def to_json(self) -> dict:
        return {"side": self.side, "key": self.key, "points": self.points, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class AnnouncementScore:
    """One declared announcement in a deal's score (house rule ``announce=yes``): who declared it, whether it
    counted (its side holds the best announcement declared), and what it gave to which ``side``: its points,
    times the contract's multiplier with ``announce_multiply=yes``, to its own side, or to the defence when
    the contract failed (``side`` ``None`` and ``points`` 0 when it did not count)."""

    seat: int
    announcement: Announcement
    counted: bool
    side: int | None
    points: int

    def to_json(self) -> dict:
        a = self.announcement
        key, params = a.text()
        return {"seat": self.seat, "announcement": str(a), "name": a.name, "value": a.points,
                "cards": [str(c) for c in a.cards], "key": key, "params": params,
                "counted": self.counted, "side": self.side, "points": self.points}


@dataclass(frozen=True, slots=True)
class DealScore:
    """The outcome of a played deal: card points per side (dix de der included), belote, made or down.

    :attr:`parts` say where each side's score comes from, by the rules it was scored by; they add up to
    ``scores`` (a property test) and are not part of the record (a record's result is recomputed)."""

    cards: tuple[int, int]
    belote_side: int | None
    tricks: tuple[int, int]
    made: bool
    scores: tuple[int, int]
    rules: Rules = field(default=OWN, compare=False, repr=False)
    contract: "Contract | None" = field(default=None, compare=False, repr=False)
    #: the announcement points each side scored before the contract's fate (house rule ``announce=yes``)
    announced: tuple[int, int] = (0, 0)
    #: the announcements declared, ``(seat, announcement)`` in the order declared (a played deal's score)
    declared: tuple[tuple[int, Announcement], ...] = field(default=(), compare=False, repr=False)

    @property
    def announcements(self) -> tuple[AnnouncementScore, ...]:
        """Each declared announcement, what it gave and to whom: the ``announcement`` parts, one by one (their
        points add up to those parts' before rounding).

        >>> from coinche.announce import parse_announcements as read
        >>> c = Contract(variant="coinche", declarer=0, suit=1, value=100)
        >>> declared = ((0, read("7h-9h")[0]), (1, read("8s-Ts")[0]), (2, read("Jc-Ac")[0]))
        >>> r = score(Rules(announce=True), c, (120, 42), None, (6, 2), (70, 0), declared)
        >>> [(a.seat, str(a.announcement), a.counted, a.side, a.points) for a in r.announcements]
        [(0, '7h-9h', True, 0, 20), (1, '8s-Ts', False, None, 0), (2, 'Jc-Ac', True, 0, 50)]
        """
        if not self.declared or self.contract is None:
            return ()
        contract = self.contract
        side = best(self.declared, contract.suit)[0] & 1
        k = contract.multiplier if self.rules.announce_multiply and not self.rules.kind.turned_card else 1
        to = side if self.made else 1 - contract.side  # a failed contract's announcements go to the defence
        return tuple(AnnouncementScore(seat, a, True, to, k * a.points) if seat & 1 == side
                     else AnnouncementScore(seat, a, False, None, 0) for seat, a in self.declared)

    def announcements_json(self) -> list[dict]:
        return [a.to_json() for a in self.announcements]

    @property
    def parts(self) -> tuple["ScorePart", ...]:
        if self.contract is None:
            return ()
        return score_parts(self.rules, self.contract, self.cards, self.belote_side, self.tricks, self.announced)

    def to_json(self) -> dict:
        out = {
            "cards": list(self.cards),
            "belote": self.belote_side,
            "tricks": list(self.tricks),
            "made": self.made,
            "scores": list(self.scores),
        }
        if self.rules.announce:
            out["announced"] = list(self.announced)
        return out

    def parts_json(self) -> list[dict]:
        return [p.to_json() for p in self.parts]


def _bel(belote_side: int | None, side: int) -> int:
    return BELOTE if belote_side == side else 0


def _toward(rules: Rules, announced: tuple[int, int], side: int) -> int:
    """The announcement points that count toward making a contract (house rule ``announce_make``)."""
    return announced[side] if rules.announce_make else 0


def announcement_scores(rules: Rules, announced: tuple[int, int], d: int, made: bool, m: int) -> tuple[int, int]:
    """What the announcements give the declaring side and the defence: each side its own, multiplied by
    ``m`` with ``announce_multiply=yes``; a failed contract's declaring side gives its own to the defence.

    >>> from coinche.rules import Rules
    >>> r = Rules(announce=True)
    >>> announcement_scores(r, (50, 0), 0, True, 2), announcement_scores(r, (50, 0), 0, False, 2)
    ((50, 0), (0, 50))
    >>> announcement_scores(Rules(announce=True, announce_multiply=True), (0, 20), 0, True, 2)
    (0, 40)
    """
    k = m if rules.announce_multiply else 1
    own, theirs = announced[d], announced[1 - d]
    return (k * own, k * theirs) if made else (0, k * (own + theirs))


def round_score(points: int, rounding: str) -> int:
    """A deal score rounded to the ten by the rule ``rounding`` (``none``, ``5up``, ``5down``).

    >>> [round_score(p, "5up") for p in (234, 235, 236, 0)], [round_score(p, "5down") for p in (234, 235, 236)]
    ([230, 240, 240, 0], [230, 230, 240])
    """
    if rounding == "5up":
        return (points + 5) // 10 * 10
    if rounding == "5down":
        return (points + 4) // 10 * 10
    return points


class _Tally:
    """The parts of one deal's score, side by side."""

    def __init__(self) -> None:
        self.parts: list[ScorePart] = []

    def add(self, side: int, key: str, points: int, rule: str | None = None) -> None:
        if points:
            self.parts.append(ScorePart(side, key, points, rule))

    def finish(self, rules: Rules) -> tuple[ScorePart, ...]:
        """The parts, with the rounding of each side's sum as a part of its own."""
        raw = [sum(p.points for p in self.parts if p.side == s) for s in (0, 1)]
        for s in (0, 1):
            self.add(s, "rounding", round_score(raw[s], rules.rounding) - raw[s], f"round={rules.rounding}")
        return tuple(self.parts)


def _belote(tally: _Tally, rules: Rules, belote_side: int | None, declarer_side: int, made: bool) -> None:
    """The 20 of belote, never multiplied: to the holder's side, or to the defence of a failed contract."""
    if belote_side is None:
        return
    if not made and belote_side == declarer_side and rules.belote == "defence":
        tally.add(1 - declarer_side, "belote", BELOTE, "belote=defence")
    else:
        tally.add(belote_side, "belote", BELOTE)


def _announcement_parts(tally: _Tally, rules: Rules, announced: tuple[int, int], d: int, made: bool,
                        m: int) -> None:
    for side, points in zip((d, 1 - d), announcement_scores(rules, announced, d, made, m)):
        tally.add(side, "announcement", points, "announce=yes")


def _coinche_parts(contract: Contract, cards: tuple[int, int], belote_side: int | None,
                   tricks: tuple[int, int], rules: Rules, announced: tuple[int, int]) -> _Tally:
    d = contract.side
    f = 1 - d
    m = contract.multiplier
    value = contract.value
    bel_d = _bel(belote_side, d)
    made = tricks[d] == 8 if contract.is_capot else cards[d] + bel_d + _toward(rules, announced, d) >= value
    tally = _Tally()
    by_all = rules.multiply == "all"
    mult_rule = None if by_all else "multiply=contract"
    if contract.is_capot and rules.capot == CAPOT_BONUS:
        tally.add(d if made else f, "capot_bonus", m * CAPOT_BONUS, "capot=500")
        if made:
            tally.add(f, "cards", cards[f])
    elif made:
        card_points, card_rule = cards[d], None
        if tricks[d] == 8 and rules.capot == CAPOT_BONUS:
            card_points, card_rule = CAPOT_CLASSIC, "capot=500"
        tally.add(d, "cards", m * card_points if by_all else card_points, card_rule)
        tally.add(d, "contract", m * value, mult_rule)
        if m == 1 or not by_all:
            tally.add(f, "cards", cards[f])
    else:
        base, with_bid = DOWN[rules.down]
        down_rule = None if rules.down == OWN.down else f"down={rules.down}"
        tally.add(f, "down", m * base if by_all else base, down_rule)
        if with_bid:
            tally.add(f, "contract", m * value, mult_rule)
    _belote(tally, rules, belote_side, d, made)
    _announcement_parts(tally, rules, announced, d, made, m)
    return tally


def _classic_made(rules: Rules, cards: tuple[int, int], belote_side: int | None, announced: tuple[int, int],
                  d: int) -> bool:
    f = 1 - d
    return (cards[d] + _bel(belote_side, d) + _toward(rules, announced, d)
            > cards[f] + _bel(belote_side, f) + _toward(rules, announced, f))


def _classic_parts(contract: Contract, cards: tuple[int, int], belote_side: int | None,
                   tricks: tuple[int, int], rules: Rules, announced: tuple[int, int]) -> _Tally:
    d = contract.side
    f = 1 - d

    def card_score(side: int) -> int:
        return CAPOT_CLASSIC if tricks[side] == 8 else cards[side]

    made = _classic_made(rules, cards, belote_side, announced, d)
    tally = _Tally()
    if made:
        tally.add(d, "cards", card_score(d))
        tally.add(f, "cards", cards[f])
    else:
        tally.add(f, "down", CAPOT_CLASSIC if tricks[f] == 8 else TOTAL)
    _belote(tally, rules, belote_side, d, made)
    _announcement_parts(tally, rules, announced, d, made, 1)
    return tally


def score_coinche(contract: Contract, cards: tuple[int, int], belote_side: int | None,
                  tricks: tuple[int, int], rules: Rules = OWN, announced: tuple[int, int] = (0, 0),
                  declared: tuple = ()) -> DealScore:
    """A coinche deal scored by ``rules`` (docs/rules.md, "Worked examples of house rules").

    >>> from coinche.rules import DE_2000
    >>> c = Contract(variant="coinche", declarer=0, suit=1, value=100, multiplier=2)
    >>> score_coinche(c, cards=(70, 92), belote_side=0, tricks=(3, 5), rules=DE_2000).scores
    (20, 360)
    """
    d = contract.declarer & 1
    f = 1 - d
    m = contract.multiplier
    value = contract.value
    bel_d = BELOTE if belote_side == d else 0
    capot_bid = value == CAPOT
    made = tricks[d] == 8 if capot_bid else cards[d] + bel_d + _toward(rules, announced, d) >= value
    by_all = rules.multiply == "all"
    if capot_bid and rules.capot == CAPOT_BONUS:
        score_d, score_f = (m * CAPOT_BONUS, cards[f]) if made else (0, m * CAPOT_BONUS)
    elif made:
        card_points = CAPOT_CLASSIC if tricks[d] == 8 and rules.capot == CAPOT_BONUS else cards[d]
        if by_all:
            score_d, score_f = m * (card_points + value), cards[f] if m == 1 else 0
        else:
            score_d, score_f = card_points + m * value, cards[f]
    else:
        base, with_bid = DOWN[rules.down]
        added = value if with_bid else 0
        score_d, score_f = 0, m * (base + added) if by_all else base + m * added
    if belote_side is not None:
        if belote_side == f or made or rules.belote == "keep":
            score_d += bel_d
            score_f += BELOTE - bel_d
        else:
            score_f += BELOTE
    return _scored(rules, contract, cards, belote_side, tricks, made, d, score_d, score_f, announced, declared)


def _scored(rules: Rules, contract: Contract, cards, belote_side, tricks, made: bool, d: int,
            score_d: int, score_f: int, announced: tuple[int, int], declared: tuple = ()) -> DealScore:
    if announced != (0, 0):
        ann_d, ann_f = announcement_scores(rules, announced, d, made, contract.multiplier)
        score_d, score_f = score_d + ann_d, score_f + ann_f
    rounding = rules.rounding
    if rounding != "none":
        score_d, score_f = round_score(score_d, rounding), round_score(score_f, rounding)
    scores = (score_d, score_f) if d == 0 else (score_f, score_d)
    return DealScore(cards, belote_side, tricks, made, scores, rules, contract, announced, declared)


def score_classic(contract: Contract, cards: tuple[int, int], belote_side: int | None,
                  tricks: tuple[int, int], rules: Rules = OWN, announced: tuple[int, int] = (0, 0),
                  declared: tuple = ()) -> DealScore:
    """Classic: the taker's side must score more than the defence, belote included.

    A side that wins all eight tricks scores 250 instead of 162 for its cards; we read
    this as applying to the defence too when the taker goes down without a trick.
    Of the house rules, rounding, the belote and the card-play option apply to the classic;
    the others concern bids.

    >>> c = Contract(variant="classic", declarer=1, suit=0)
    >>> score_classic(c, cards=(81, 81), belote_side=None, tricks=(4, 4)).scores
    (162, 0)
    >>> score_classic(c, cards=(0, 162), belote_side=1, tricks=(0, 8)).scores
    (0, 270)
    """
    d = contract.declarer & 1
    f = 1 - d
    bel_d, bel_f = _bel(belote_side, d), _bel(belote_side, f)
    made = _classic_made(rules, cards, belote_side, announced, d)
    if made:
        score_d = (CAPOT_CLASSIC if tricks[d] == 8 else cards[d]) + bel_d
        score_f = cards[f] + bel_f
    elif rules.belote == "keep":
        score_d, score_f = bel_d, (CAPOT_CLASSIC if tricks[f] == 8 else TOTAL) + bel_f
    else:
        score_d, score_f = 0, (CAPOT_CLASSIC if tricks[f] == 8 else TOTAL) + bel_f + bel_d
    return _scored(rules, contract, cards, belote_side, tricks, made, d, score_d, score_f, announced, declared)


def score_parts(rules: Rules, contract: Contract, cards: tuple[int, int], belote_side: int | None,
                tricks: tuple[int, int], announced: tuple[int, int] = (0, 0)) -> tuple[ScorePart, ...]:
    """Which rule gave which points to which side: a second, part by part, reckoning of :func:`score`."""
    parts = _classic_parts if rules.kind.turned_card else _coinche_parts
    return parts(contract, cards, belote_side, tricks, rules, announced).finish(rules)


def score(rules: Rules, contract: Contract, cards: tuple[int, int], belote_side: int | None,
          tricks: tuple[int, int], announced: tuple[int, int] = (0, 0), declared: tuple = ()) -> DealScore:
    """A played deal's score by ``rules``: a pure function (the double-dummy solver and the bots call it).
    ``announced``: the announcement points each side holds (:func:`coinche.announce.side_points`);
    ``declared``: the announcements they come from, ``(seat, announcement)`` in order, when the score is to name
    them (:attr:`DealScore.announcements`)."""
    scorer = score_classic if rules.kind.turned_card else score_coinche
    return scorer(contract, cards, belote_side, tricks, rules, announced, declared)
