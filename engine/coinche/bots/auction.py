"""The bots' calls: every legal call priced by what it is worth to the side, the best one chosen.

:func:`evaluate_calls` samples deals of the hidden cards, plays each out once per trump with the
bot's side declaring (and once with the opponents' contract when they hold one), and prices every
legal call by the mean score difference it brings the side (:class:`CallValue`): a bid by the deal's
score at that value, a pass by the contract standing (zero when there is none), a coinche or a
surcoinche by the standing contract doubled or redoubled.  :func:`choose_call` takes the best;
:func:`explain_call` words the choice for the coach.  Both read the same prices, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..calls import COINCHE, PASS, SURCOINCHE, TAKES, Call, CallKind
from ..cards import ALL_CARDS_MASK, SUIT_LETTERS
from ..scoring import Contract, score
from .knowledge import Knowledge
from .rollout import playout
from .search import _accept, _belote_side, decision_rng
from .world import sample_hands

#: Tuned by measurement (bench/bots_bench.py, `coinche bidding`); fixed so that decisions replay.
BID_WORLDS = 24
BID_MARGIN = 8
COINCHE_MARGIN = 12
#: A coinche needs the opponents' chance to make the contract at most this; a surcoinche ours at least
#: SURCOINCHE_CHANCE.
COINCHE_CHANCE = 0.10
SURCOINCHE_CHANCE = 0.85
TAKE_MARGIN = 0
#: Card points moved from the declaring side to the defence in the auction's playouts, which see
#: every hand: our own coinche bid (DECLARER_SHIFT), our taking in the classic (TAKE_SHIFT), and the
#: opponents' contract when we weigh a coinche (COINCHE_SHIFT, the other way: towards them).
DECLARER_SHIFT = 24
TAKE_SHIFT = 4
COINCHE_SHIFT = 16


@dataclass(frozen=True, slots=True)
class CallValue:
    """What one call is worth to the caller's side over the sampled deals.

    ``score``: the side's mean score minus the opponents' for this deal, in points (the unit of
    :func:`~coinche.bots.search.evaluate_cards`), if the auction ended on this call.
    ``make_chance``: the percentage of sampled deals in which the contract this call leaves standing
    is made by its declarer (ours after a bid or a surcoinche, theirs after a coinche), ``None``
    when no contract stands (a pass with no bid yet).
    """

    score: float
    make_chance: int | None


class Outcomes:
    """Per world, for one trump and one declaring side: card points and tricks of each side, belote side.

    The playouts see every hand, and a bid is the best of many noisy estimates: for our own contract
    the rows move ``shift`` card points from our side to the defence (measured: bids made in
    self-play); for theirs, where the worry is the opposite (a coinche that fails), the coinche is
    weighed on rows shifted the other way (:meth:`shifted` with ``-COINCHE_SHIFT``).
    """

    __slots__ = ("rows", "decl_side", "shift")

    def __init__(self, decl_side: int, shift: int = 0) -> None:
        self.rows: list[tuple[tuple[int, int], tuple[int, int], int | None]] = []
        self.decl_side = decl_side
        self.shift = shift

    def add(self, points: list[int], tricks: list[int], belote: int | None) -> None:
        shift = min(self.shift, points[self.decl_side]) if self.shift >= 0 else max(self.shift, -points[1 - self.decl_side])
        if self.decl_side:
            points = (points[0] + shift, points[1] - shift)
        else:
            points = (points[0] - shift, points[1] + shift)
        self.rows.append((points, (tricks[0], tricks[1]), belote))

    def mean_diff(self, contract: Contract, side: int) -> float:
        total = 0
        for points, tricks, belote in self.rows:
            s = score(contract, points, belote, tricks).scores
            total += s[side] - s[1 - side]
        return total / len(self.rows)

    def shifted(self, shift: int) -> "Outcomes":
        """The same rows with ``shift`` more card points moved (to the defence; a negative shift to the declarer)."""
        out = Outcomes(self.decl_side, shift)
        for points, tricks, belote in self.rows:
            out.add(list(points), list(tricks), belote)
        return out

    def made_chance(self, contract: Contract) -> int:
        """The percentage of rows in which ``contract`` is made."""
        made = sum(score(contract, p, b, t).made for p, t, b in self.rows)
        return round(100 * made / len(self.rows))

    def value(self, contract: Contract, side: int) -> CallValue:
        return CallValue(self.mean_diff(contract, side), self.made_chance(contract))

    def expected_points(self, side: int) -> int:
        """Mean card points plus belote of ``side``."""
        total = 0
        for points, _, belote in self.rows:
            total += points[side] + (20 if belote == side else 0)
        return round(total / len(self.rows))


def _auction_worlds(know: Knowledge, seed: int, worlds: int, trumps, opp_trump: int,
                    shift: int | None = None) -> tuple[dict, Outcomes | None]:
    """Play ``worlds`` sampled deals out once per trump in ``trumps`` (our side declaring) and once
    with ``opp_trump`` (theirs declaring, when >= 0)."""
    rng = decision_rng(seed, know)
    me = know.seat
    side = me & 1
    leader = (know.dealer + 1) & 3
    accept = _accept(know)
    ours = {t: Outcomes(side, DECLARER_SHIFT if shift is None else shift) for t in trumps}
    theirs = Outcomes(1 - side) if opp_trump >= 0 else None
    classic = know.variant == "classic"
    if classic:
        pool = ALL_CARDS_MASK & ~know.hand & ~(1 << know.turned)
        need = tuple(2 if s == me else 8 for s in range(4))
    else:
        pool = ALL_CARDS_MASK & ~know.hand
        need = tuple(0 if s == me else 8 for s in range(4))
    for _ in range(worlds):
        hands = sample_hands(rng, pool, need, accept=accept)
        if classic:
            hands[me] |= know.hand | (1 << know.turned)
        else:
            hands[me] = know.hand
        for t in trumps:
            points, tricks = playout(list(hands), leader, [], t, side)
            ours[t].add(points, tricks, _belote_side(hands, t, -1))
        if theirs is not None:
            points, tricks = playout(list(hands), leader, [], opp_trump, 1 - side)
            theirs.add(points, tricks, _belote_side(hands, opp_trump, -1))
    return ours, theirs


class Pricing:
    """The priced calls of one decision, with what the coach says about them (``expected``: the side's
    expected card points plus belote with each trump it may still name)."""

    __slots__ = ("values", "expected")

    def __init__(self, values: dict[Call, CallValue], expected: dict[str, int]) -> None:
        self.values, self.expected = values, expected


def price_calls(know: Knowledge, seed: int, worlds: int | None = None) -> Pricing:
    """Every legal call of the auction priced for the seat's side."""
    worlds = worlds or BID_WORLDS
    legal = know.legal
    me, side = know.seat, know.seat & 1
    if know.variant == "classic":
        suits = [c.suit for c in legal if c.kind == CallKind.TAKE]
        ours, _ = _auction_worlds(know, seed, worlds, suits, -1, TAKE_SHIFT)
        values = {PASS: CallValue(0.0, None)}
        for t in suits:
            values[TAKES[t]] = ours[t].value(Contract("classic", me, t), side)
        return Pricing(values, _expected(ours, side))
    high, high_seat = know.high_bid, know.high_seat
    if know.coinche_seat >= 0:
        # the auction is coinched: our side holds the contract; surcoinche or pass
        ours, _ = _auction_worlds(know, seed, worlds, (high.suit,), -1)
        o = ours[high.suit]
        values = {PASS: o.value(Contract("coinche", high_seat, high.suit, high.value, 2), side)}
        if SURCOINCHE in legal:
            values[SURCOINCHE] = o.value(Contract("coinche", high_seat, high.suit, high.value, 4), side)
        return Pricing(values, {})
    opp_holds = high is not None and (high_seat & 1) != side
    ours, theirs = _auction_worlds(know, seed, worlds, range(4), high.suit if opp_holds else -1)
    if high is None:
        values = {PASS: CallValue(0.0, None)}
    else:
        standing = Contract("coinche", high_seat, high.suit, high.value, 1)
        values = {PASS: (theirs if opp_holds else ours[high.suit]).value(standing, side)}
    for call in legal:
        if call.kind == CallKind.BID:
            values[call] = ours[call.suit].value(Contract("coinche", me, call.suit, call.value, 1), side)
    if opp_holds and COINCHE in legal:
        doubled = Contract("coinche", high_seat, high.suit, high.value, 2)
        values[COINCHE] = theirs.shifted(-COINCHE_SHIFT).value(doubled, side)
    return Pricing(values, _expected(ours, side))


def _expected(ours: dict, side: int) -> dict:
    return {SUIT_LETTERS[t]: o.expected_points(side) for t, o in sorted(ours.items())}


def evaluate_calls(know: Knowledge, seed: int, worlds: int | None = None) -> dict[Call, CallValue]:
    """Every legal call with its :class:`CallValue` (a lone legal call is not searched: 0.0, ``None``)."""
    if len(know.legal) == 1:
        return {know.legal[0]: CallValue(0.0, None)}
    return price_calls(know, seed, worlds).values


def choose_call(know: Knowledge, values: dict[Call, CallValue]) -> Call:
    """The call to make among priced ``values``."""
    if len(values) == 1:
        return next(iter(values))
    passing = values[PASS].score
    if SURCOINCHE in values:
        v = values[SURCOINCHE]
        if v.score > passing + COINCHE_MARGIN and v.make_chance >= 100 * SURCOINCHE_CHANCE:
            return SURCOINCHE
        return PASS
    margin = TAKE_MARGIN if know.variant == "classic" else BID_MARGIN
    best, best_score = PASS, passing + margin
    for call, v in values.items():
        if call.kind in (CallKind.BID, CallKind.TAKE) and v.score > best_score:
            best, best_score = call, v.score
    v = values.get(COINCHE)
    if v is not None and v.score > passing + COINCHE_MARGIN and v.score >= best_score \
            and v.make_chance <= 100 * COINCHE_CHANCE:
        return COINCHE
    return best


def explain_call(know: Knowledge, seed: int, worlds: int | None = None) -> tuple[Call, str, dict]:
    """The call, a message key and its parameters (see the package docstring)."""
    legal = know.legal
    if len(legal) == 1:
        return legal[0], "coach_forced", {"call": str(legal[0])}
    pricing = price_calls(know, seed, worlds)
    call = choose_call(know, pricing.values)
    return call, *coach_line(know, call, pricing)


def coach_line(know: Knowledge, call: Call, pricing: Pricing) -> tuple[str, dict]:
    """The coach's message key and parameters for ``call``."""
    values, expected = pricing.values, pricing.expected
    high = know.high_bid
    chance = values[call].make_chance
    if call == SURCOINCHE:
        return "coach_surcoinche", {"call": "surcoinche", "contract": str(high), "make_chance": chance}
    if call == COINCHE:
        return "coach_coinche", {"call": "coinche", "contract": str(high), "make_chance": chance,
                                 "expected": expected}
    if call.kind == CallKind.TAKE:
        return "coach_take", {"call": str(call), "make_chance": chance, "expected": expected}
    if call.kind == CallKind.BID:
        return "coach_bid", {"call": str(call), "make_chance": chance, "expected": expected}
    params = {"contract": None if high is None else str(high), "expected": expected}
    if chance is not None:
        params["make_chance"] = chance
    return "coach_pass", params


__all__ = ["CallValue", "choose_call", "evaluate_calls", "explain_call"]
