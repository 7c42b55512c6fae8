"""The bots' calls: every legal call priced by what it is worth to the side, the best one chosen.

:func:`evaluate_calls` samples :data:`BID_WORLDS` deals of the hidden cards in proportion to how
likely the other seats were to make their calls with them (:mod:`coinche.bots.inference`), plays
each out once per trump with the bot's side declaring (and once with the opponents' contract when
they hold one), and prices every legal call by the mean score difference it brings the side
(:class:`CallValue`): a bid by the deal's score at that value, a pass by the contract standing (the
partner's, ours or theirs; zero when there is none), a coinche or a surcoinche by the standing
contract doubled or redoubled.  :func:`choose_call` takes the best, each call counted :data:`RISK`
standard errors of its difference with passing below its mean; :func:`explain_call` words the
choice for the coach.  Both read the same prices, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..calls import COINCHE, PASS, SURCOINCHE, TAKES, Call, CallKind
from ..announce import held, side_points
from ..cards import ALL_CARDS_MASK, TRUMP_LETTERS
from ..rules import OWN, Rules
from ..scoring import Contract, score
from .knowledge import Knowledge
from .rollout import playout
from .inference import reads_calls, sample_weighted
from .search import _belote_side, decision_rng
from .world import sample_hands

#: Tuned by measurement (bench/bots_bench.py, `coinche bidding`); fixed so that decisions replay.
BID_WORLDS = 40
#: How many standard errors a call's score counts below its mean when calls are compared.
RISK = 1.0
#: Card points moved from the declaring side to the defence in the auction's playouts, which see
#: every hand: our own coinche bid (DECLARER_SHIFT), our taking in the classic (TAKE_SHIFT), and the
#: opponents' contract when we weigh a coinche (COINCHE_SHIFT, the other way: towards them).
DECLARER_SHIFT = 12
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
    #: The standard error of ``score`` minus passing's score over the same sampled deals (0 for a pass).
    error: float = 0.0


class Outcomes:
    """Per world, for one trump and one declaring side: card points and tricks of each side, belote side.

    The playouts see every hand, and a bid is the best of many noisy estimates: for our own contract
    the rows move ``shift`` card points from our side to the defence (measured: bids made in
    self-play); for theirs, where the worry is the opposite (a coinche that fails), the coinche is
    weighed on rows shifted the other way (:meth:`shifted` with ``-COINCHE_SHIFT``).
    """

    __slots__ = ("rows", "decl_side", "shift", "rules")

    def __init__(self, decl_side: int, shift: int = 0, rules: Rules = OWN) -> None:
        self.rows: list[tuple[tuple[int, int], tuple[int, int], int | None, tuple[int, int]]] = []
        self.decl_side = decl_side
        self.shift = shift
        self.rules = rules

    def add(self, points: list[int], tricks: list[int], belote: int | None,
            announced: tuple[int, int] = (0, 0)) -> None:
        shift = min(self.shift, points[self.decl_side]) if self.shift >= 0 else max(self.shift, -points[1 - self.decl_side])
        if self.decl_side:
            points = (points[0] + shift, points[1] - shift)
        else:
            points = (points[0] - shift, points[1] + shift)
        self.rows.append((points, (tricks[0], tricks[1]), belote, announced))

    def mean_diff(self, contract: Contract, side: int) -> float:
        return sum(self.diffs(contract, side)[0]) / len(self.rows)

    def diffs(self, contract: Contract, side: int) -> tuple[list[int], int]:
        """Per row, ``side``'s score minus the other side's under ``contract``; and the rows made."""
        out, made = [], 0
        for points, tricks, belote, announced in self.rows:
            result = score(self.rules, contract, points, belote, tricks, announced)
            s = result.scores
            out.append(s[side] - s[1 - side])
            made += result.made
        return out, made

    def shifted(self, shift: int) -> "Outcomes":
        """The same rows with ``shift`` more card points moved (to the defence; a negative shift to the declarer)."""
        out = Outcomes(self.decl_side, shift, self.rules)
        for points, tricks, belote, announced in self.rows:
            out.add(list(points), list(tricks), belote, announced)
        return out

    def made_chance(self, contract: Contract) -> int:
        """The percentage of rows in which ``contract`` is made."""
        made = sum(score(self.rules, contract, p, b, t, a).made for p, t, b, a in self.rows)
        return round(100 * made / len(self.rows))

    def value(self, contract: Contract, side: int, passing: list[int] | None = None) -> tuple[CallValue, list[int]]:
        """The call's value for ``side`` when it leaves ``contract`` standing, and its per-row scores;
        ``passing``: passing's per-row scores, to measure the error of the difference (none: 0 each)."""
        diffs, made = self.diffs(contract, side)
        n = len(diffs)
        gaps = diffs if passing is None else [d - p for d, p in zip(diffs, passing)]
        mean_gap = sum(gaps) / n
        error = (sum((g - mean_gap) ** 2 for g in gaps) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
        return CallValue(sum(diffs) / n, round(100 * made / n), error), diffs

    def expected_points(self, side: int) -> int:
        """Mean card points plus belote and announcements of ``side``."""
        total = 0
        for points, _, belote, announced in self.rows:
            total += points[side] + (20 if belote == side else 0) + announced[side]
        return round(total / len(self.rows))


def _auction_worlds(know: Knowledge, seed: int, worlds: int, trumps, opp_trump: int,
                    shift: int | None = None) -> tuple[dict, Outcomes | None]:
    """Play ``worlds`` sampled deals out once per trump in ``trumps`` (our side declaring) and once
    with ``opp_trump`` (theirs declaring, when >= 0)."""
    rng = decision_rng(seed, know)
    me = know.seat
    side = me & 1
    leader = (know.dealer + 1) & 3
    rules = know.rules
    classic = rules.kind.turned_card
    under = rules.undertrump
    weighted = not classic and reads_calls(know.calls, me)
    ours = {t: Outcomes(side, DECLARER_SHIFT if shift is None else shift, rules) for t in trumps}
    theirs = Outcomes(1 - side, 0, rules) if opp_trump >= 0 else None
    if classic:
        pool = ALL_CARDS_MASK & ~know.hand & ~(1 << know.turned)
        need = tuple(2 if s == me else 8 for s in range(4))
    else:
        pool = ALL_CARDS_MASK & ~know.hand
        need = tuple(0 if s == me else 8 for s in range(4))
    for _ in range(worlds):
        if weighted:
            hands = sample_weighted(rng, pool, need, know.calls, me)
        else:
            hands = sample_hands(rng, pool, need)
        if classic:
            hands[me] |= know.hand | (1 << know.turned)
        else:
            hands[me] = know.hand
        declared = _declared(hands, leader) if rules.announce else []
        for t in trumps:
            points, tricks = playout(list(hands), leader, [], t, side, under=under)
            ours[t].add(points, tricks, _belote_side(hands, t, -1), side_points(declared, t))
        if theirs is not None:
            points, tricks = playout(list(hands), leader, [], opp_trump, 1 - side, under=under)
            theirs.add(points, tricks, _belote_side(hands, opp_trump, -1), side_points(declared, opp_trump))
    return ours, theirs


def _declared(hands: list[int], leader: int) -> list:
    """Every announcement of a world's hands, in the order they would be declared (each seat declares all)."""
    return [((leader + i) & 3, a) for i in range(4) for a in held(hands[(leader + i) & 3])]


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
    multiplier = know.rules.multiplier
    if know.rules.kind.turned_card:
        suits = [c.suit for c in legal if c.kind == CallKind.TAKE]
        ours, _ = _auction_worlds(know, seed, worlds, suits, -1, TAKE_SHIFT)
        values = {PASS: CallValue(0.0, None)}
        for t in suits:
            values[TAKES[t]] = ours[t].value(Contract("classic", me, t), side)[0]
        return Pricing(values, _expected(ours, side))
    high, high_seat = know.high_bid, know.high_seat
    if know.coinche_seat >= 0:
        # the auction is coinched: our side holds the contract; surcoinche or pass
        ours, _ = _auction_worlds(know, seed, worlds, (high.suit,), -1)
        o = ours[high.suit]
        standing, passing = o.value(Contract("coinche", high_seat, high.suit, high.value, multiplier(1)), side)
        values = {PASS: standing}
        if SURCOINCHE in legal:
            redoubled = Contract("coinche", high_seat, high.suit, high.value, multiplier(2))
            values[SURCOINCHE] = o.value(redoubled, side, passing)[0]
        return Pricing(values, {})
    opp_holds = high is not None and (high_seat & 1) != side
    ours, theirs = _auction_worlds(know, seed, worlds, know.rules.bid_kinds, high.suit if opp_holds else -1)
    if high is None:
        values, passing = {PASS: CallValue(0.0, None)}, None
    else:
        standing = Contract("coinche", high_seat, high.suit, high.value, 1)
        value, passing = (theirs if opp_holds else ours[high.suit]).value(standing, side)
        values = {PASS: value}
    for call in legal:
        if call.kind == CallKind.BID:
            contract = Contract("coinche", me, call.suit, call.value, 1)
            values[call] = ours[call.suit].value(contract, side, passing)[0]
    if opp_holds and COINCHE in legal:
        doubled = Contract("coinche", high_seat, high.suit, high.value, multiplier(1))
        values[COINCHE] = theirs.shifted(-COINCHE_SHIFT).value(doubled, side, passing)[0]
    return Pricing(values, _expected(ours, side))


def _expected(ours: dict, side: int) -> dict:
    return {TRUMP_LETTERS[t]: o.expected_points(side) for t, o in sorted(ours.items())}


def evaluate_calls(know: Knowledge, seed: int, worlds: int | None = None) -> dict[Call, CallValue]:
    """Every legal call with its :class:`CallValue` (a lone legal call is not searched: 0.0, ``None``)."""
    if len(know.legal) == 1:
        return {know.legal[0]: CallValue(0.0, None)}
    return price_calls(know, seed, worlds).values


def choose_call(know: Knowledge, values: dict[Call, CallValue]) -> Call:
    """The call with the best score among priced ``values``, each counted :data:`RISK` standard
    errors below its mean (the best of many noisy estimates is too good: a call must beat passing
    by more than the noise of the sampled deals); passing, then the lowest call, wins a tie."""
    if PASS not in values:
        return next(iter(values))
    best, best_score = PASS, values[PASS].score
    for call, v in values.items():
        if v.score - RISK * v.error > best_score:
            best, best_score = call, v.score - RISK * v.error
    return best


def explain_call(know: Knowledge, seed: int, worlds: int | None = None) -> tuple[Call, str, dict]:
    """The call, a message key and its parameters (see the package docstring)."""
    legal = know.legal
    if len(legal) == 1:
        return legal[0], "coach_forced", {"call": str(legal[0])}
    pricing = price_calls(know, seed, worlds)
    call = choose_call(know, pricing.values)
    return call, *coach_line(know, call, pricing)


def holder(know: Knowledge) -> str | None:
    """Who holds the contract standing, from the seat's side: ``self``, ``partner``, ``opponents``,
    ``coinched`` (our side's contract, coinched), or ``None``."""
    if know.high_bid is None:
        return None
    if (know.high_seat & 1) != (know.seat & 1):
        return "opponents"
    if know.coinche_seat >= 0:
        return "coinched"
    return "self" if know.high_seat == know.seat else "partner"


def coach_line(know: Knowledge, call: Call, pricing: Pricing) -> tuple[str, dict]:
    """The coach's message key and parameters for ``call`` (see the package docstring)."""
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
    standing = {"contract": None if high is None else str(high), "holder": holder(know)}
    if call.kind == CallKind.BID:
        params = {"call": str(call), "make_chance": chance, "expected": expected, **standing}
        if high is not None:
            params["contract_chance"] = values[PASS].make_chance
        return "coach_bid", params
    params = {**standing, "expected": expected}
    if chance is not None:
        params["make_chance"] = chance
    return "coach_pass", params


__all__ = ["CallValue", "choose_call", "evaluate_calls", "explain_call"]
