"""``auction-v1``: the bidding of the bots as it was before issue 15, frozen as a named baseline.

Do not improve this module: it is the yardstick the bidding arena (:mod:`coinche_lab.bidding_arena`)
measures the current bidding against.  It samples ``BID_WORLDS`` deals of the hidden cards (a bid
"shows" three trumps with the jack or the nine, tried a few times), plays each out once per trump,
and bids when a bid beats passing by a fixed margin.
"""

from __future__ import annotations

from random import Random

from coinche.bots.knowledge import Knowledge
from coinche.bots.rollout import playout
from coinche.bots.world import sample_hands
from coinche.calls import COINCHE, PASS, SURCOINCHE, TAKES, Call, CallKind
from coinche.cards import ALL_CARDS_MASK, SUIT_LETTERS, SUIT_MASK, Rank
from coinche.rng import SplitMix64, seed_from
from coinche.rules import OWN
from coinche.scoring import Contract, score

#: Frozen: the values of the bots' bidding before issue 15.
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


def decision_rng(seed: int | str, know: Knowledge) -> Random:
    """The decision's generator: from the bot's seed and what it knows, nothing else."""
    return Random(SplitMix64(seed_from(seed) ^ seed_from(know.fingerprint())).next64())


def _belote_side(hands: list[int], trump: int, known: int) -> int | None:
    if known >= 0:
        return known
    both = (1 << (trump * 8 + Rank.KING)) | (1 << (trump * 8 + Rank.QUEEN))
    for s in range(4):
        if hands[s] & both == both:
            return s & 1
    return None


def bid_shows(cards: int, suit: int, value: int) -> bool:
    """What a bid of ``value`` in ``suit`` implies of the bidder's cards: three trumps with the jack or
    the nine (measured: most of the bots' bids; ``value`` is not used yet)."""
    trumps = cards & SUIT_MASK[suit]
    top = (1 << (suit * 8 + Rank.JACK)) | (1 << (suit * 8 + Rank.NINE))
    return trumps.bit_count() >= 3 and bool(trumps & top)


def _accept(know: Knowledge):
    """The soft inference of the bids: a sampled deal is accepted if every bid is shown by the
    bidder's cards (the ones it holds in the world and the ones it was seen to play)."""
    rules = [(s, suit, value) for s, suit, value in know.bid_suits if s != know.seat]
    if not rules:
        return None
    played = know.played_by

    def accept(hands: list[int]) -> bool:
        for s, suit, value in rules:
            if not bid_shows(hands[s] | played[s], suit, value):
                return False
        return True

    return accept


# ---------------------------------------------------------------- calls
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
            s = score(OWN, contract, points, belote, tricks).scores
            total += s[side] - s[1 - side]
        return total / len(self.rows)

    def shifted(self, shift: int) -> "Outcomes":
        """The same rows with ``shift`` more card points moved (to the defence; a negative shift to the declarer)."""
        out = Outcomes(self.decl_side, shift)
        for points, tricks, belote in self.rows:
            out.add(list(points), list(tricks), belote)
        return out

    def made_chance(self, contract: Contract) -> float:
        made = sum(score(OWN, contract, p, b, t).made for p, t, b in self.rows)
        return made / len(self.rows)

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


def _expected(ours: dict, side: int) -> dict:
    return {SUIT_LETTERS[t]: o.expected_points(side) for t, o in sorted(ours.items())}


def explain_call(know: Knowledge, seed: int, worlds: int | None = None) -> tuple[Call, str, dict]:
    """The call, a message key and its parameters (see the package docstring)."""
    worlds = worlds or BID_WORLDS
    legal = know.legal
    if len(legal) == 1:
        return legal[0], "coach_forced", {"call": str(legal[0])}
    if know.variant == "classic":
        return _classic_call(know, seed, worlds)
    me, side = know.seat, know.seat & 1
    high, high_seat = know.high_bid, know.high_seat
    if know.coinche_seat >= 0:
        # the auction is coinched: our side holds the contract; surcoinche or pass
        ours, _ = _auction_worlds(know, seed, worlds, (high.suit,), -1)
        standing = Contract("coinche", high_seat, high.suit, high.value, 2)
        doubled = Contract("coinche", high_seat, high.suit, high.value, 4)
        o = ours[high.suit]
        chance = round(100 * o.made_chance(standing))
        better = o.mean_diff(doubled, side) > o.mean_diff(standing, side) + COINCHE_MARGIN
        if better and chance >= 100 * SURCOINCHE_CHANCE and SURCOINCHE in legal:
            return SURCOINCHE, "coach_surcoinche", {"call": "surcoinche", "contract": str(high), "make_chance": chance}
        return PASS, "coach_pass", {"contract": str(high), "make_chance": chance, "expected": {}}
    opp_holds = high is not None and (high_seat & 1) != side
    ours, theirs = _auction_worlds(know, seed, worlds, range(4), high.suit if opp_holds else -1)
    expected = _expected(ours, side)
    if high is None:
        pass_value = 0.0
    elif opp_holds:
        pass_value = theirs.mean_diff(Contract("coinche", high_seat, high.suit, high.value, 1), side)
    else:
        pass_value = ours[high.suit].mean_diff(Contract("coinche", high_seat, high.suit, high.value, 1), side)
    best_call, best_value = None, pass_value + BID_MARGIN
    for call in legal:
        if call.kind != CallKind.BID:
            continue
        value = ours[call.suit].mean_diff(Contract("coinche", me, call.suit, call.value, 1), side)
        if value > best_value:
            best_call, best_value = call, value
    if opp_holds and COINCHE in legal:
        doubled = Contract("coinche", high_seat, high.suit, high.value, 2)
        wary = theirs.shifted(-COINCHE_SHIFT) if COINCHE_SHIFT else theirs
        value = wary.mean_diff(doubled, side)
        chance = round(100 * wary.made_chance(doubled))
        if value > pass_value + COINCHE_MARGIN and value >= best_value and chance <= 100 * COINCHE_CHANCE:
            return COINCHE, "coach_coinche", {"call": "coinche", "contract": str(high), "make_chance": chance,
                                               "expected": expected}
    if best_call is not None:
        contract = Contract("coinche", me, best_call.suit, best_call.value, 1)
        chance = round(100 * ours[best_call.suit].made_chance(contract))
        return best_call, "coach_bid", {"call": str(best_call), "make_chance": chance, "expected": expected}
    params = {"contract": None if high is None else str(high), "expected": expected}
    if high is not None:
        holder = theirs if opp_holds else ours[high.suit]
        params["make_chance"] = round(100 * holder.made_chance(Contract("coinche", high_seat, high.suit, high.value, 1)))
    return PASS, "coach_pass", params


def _classic_call(know: Knowledge, seed: int, worlds: int) -> tuple[Call, str, dict]:
    me, side = know.seat, know.seat & 1
    suits = [c.suit for c in know.legal if c.kind == CallKind.TAKE]
    ours, _ = _auction_worlds(know, seed, worlds, suits, -1, TAKE_SHIFT)
    expected = _expected(ours, side)
    best_call, best_value = None, float(TAKE_MARGIN)
    for t in suits:
        value = ours[t].mean_diff(Contract("classic", me, t), side)
        if value > best_value:
            best_call, best_value = TAKES[t], value
    if best_call is None:
        return PASS, "coach_pass", {"contract": None, "expected": expected}
    chance = round(100 * ours[best_call.suit].made_chance(Contract("classic", me, best_call.suit)))
    return best_call, "coach_take", {"call": str(best_call), "make_chance": chance, "expected": expected}


__all__ = ["explain_call"]
