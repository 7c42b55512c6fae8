"""The one way of deciding, shared by the three levels: determinization and playouts.

For a card: sample a number of deals (:func:`play_worlds`) of the hidden cards consistent with the bot's
:class:`~coinche.bots.knowledge.Knowledge`, play each candidate card in each world and finish the
deal with the heuristic playout policy (:mod:`coinche.bots.rollout`), score the deal by the rules
(:func:`coinche.scoring.score`) and play the card with the best mean score difference for the side.

For a call: sample ``bid_worlds`` deals of the unknown cards, play each world out once per trump
with the bot's side as declarer (and once with the opponents' contract when they hold one), and
price every legal call by the mean score difference it would bring: a bid by the deal's score at
that value, a pass by the contract standing (zero when there is none), a coinche or surcoinche by the
standing contract doubled.  A bid or a coinche must beat passing by a fixed margin; a coinche also
needs the opponents' chance of making the contract, with :data:`COINCHE_SHIFT` points more for them,
to be at most :data:`COINCHE_CHANCE`.

Random numbers come from the bot's seed and the knowledge only, so a decision replays exactly and
two views that leave the same knowledge get the same decision.
"""

from __future__ import annotations

from random import Random

from ..calls import COINCHE, PASS, SURCOINCHE, TAKES, Call, CallKind
from ..cards import ALL_CARDS_MASK, POINTS, POWER, SUIT_LETTERS, SUIT_MASK, Rank, mask_of
from ..rng import SplitMix64, seed_from
from ..scoring import Contract, score
from .knowledge import Knowledge
from .rollout import partner_rule, playout
from .world import sample_hands

#: Tuned by measurement (bench/bots_bench.py, `coinche arena`); fixed so that decisions replay.
PLAY_BUDGET = 3000
MIN_WORLDS = 12
MAX_WORLDS = 96
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


# ---------------------------------------------------------------- cards
def distinct_cards(legal: int, out_of_reach: int, trump: int) -> list[int]:
    """One card of each run of equivalent legal cards: same suit, same points, and no card between
    them that anyone else could still hold (``out_of_reach`` are this seat's cards and the cards known
    to be played).  The lowest of a run stands for it.

    >>> from coinche.cards import parse_cards, mask_of, format_cards
    >>> hand = mask_of(parse_cards("7s,8s,Ks,Qs,Ah"))
    >>> format_cards(distinct_cards(hand, hand, trump=1))
    '7s,Qs,Ks,Ah'
    """
    power, points = POWER[trump], POINTS[trump]
    out = []
    for s in range(4):
        cards = sorted((c for c in range(s * 8, s * 8 + 8) if legal >> c & 1), key=power.__getitem__)
        if not cards:
            continue
        order = sorted(range(s * 8, s * 8 + 8), key=power.__getitem__)
        out.append(cards[0])
        for prev, c in zip(cards, cards[1:]):
            between = order[order.index(prev) + 1:order.index(c)]
            if points[c] != points[prev] or any(not out_of_reach >> b & 1 for b in between):
                out.append(c)
    return sorted(out)


def play_worlds(candidates: int, cards_left: int) -> int:
    """How many worlds a card decision samples: :data:`PLAY_BUDGET` cards played out in all, within
    :data:`MIN_WORLDS` .. :data:`MAX_WORLDS`; late in the deal, when playouts are short, more worlds.

    >>> play_worlds(8, 32), play_worlds(3, 16), play_worlds(2, 4)
    (12, 62, 96)
    """
    return max(MIN_WORLDS, min(MAX_WORLDS, PLAY_BUDGET // (candidates * cards_left)))


def choose_card(know: Knowledge, seed: int, worlds: int | None = None) -> int:
    """The card to play: the best mean score difference over the sampled worlds (the lowest card on a tie)."""
    return best_card(evaluate_cards(know, seed, worlds))


def best_card(means: list[tuple[int, float]]) -> int:
    return means[max(range(len(means)), key=lambda i: (means[i][1], -i))][0]


def evaluate_cards(know: Knowledge, seed: int, worlds: int | None = None) -> list[tuple[int, float]]:
    """``(card, mean score difference for the side)`` for each distinct candidate card, in card order;
    a lone candidate is not searched (its mean is 0.0)."""
    hand, trick, trump = know.hand, list(know.trick), know.trump
    legal = partner_rule(hand, trick, trump, mask_of(know.legal))
    candidates = distinct_cards(legal, hand | mask_of(trick) | (know.gone or 0), trump)
    if len(candidates) == 1:
        return [(candidates[0], 0.0)]
    rng = decision_rng(seed, know)
    me, contract = know.seat, know.contract
    worlds = worlds or play_worlds(len(candidates), sum(know.counts))
    side = me & 1
    decl_side = contract.declarer & 1
    table = mask_of(trick)
    pool = ALL_CARDS_MASK & ~hand & ~table & ~(know.gone or 0)
    need = tuple(0 if s == me else know.counts[s] for s in range(4))
    accept = _accept(know)
    values = POINTS[trump]
    tricks_left = know.counts[me]
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        hands = sample_hands(rng, pool, need, know.forbidden, know.holds, accept)
        hands[me] = hand
        if know.won is not None:
            won, tricks_won = know.won, know.tricks_won
        else:
            in_play = sum(values[c] for c in range(32) if (hands[0] | hands[1] | hands[2] | hands[3] | table) >> c & 1)
            past = 152 - in_play
            done = 8 - tricks_left
            won = (past // 2, past - past // 2)
            tricks_won = (done // 2, done - done // 2)
        belote = _belote_side(hands, trump, know.belote_side)
        for i, c in enumerate(candidates):
            h = list(hands)
            h[me] ^= 1 << c
            points, tricks = playout(h, know.leader, trick + [c], trump, decl_side, list(won), list(tricks_won))
            s = score(contract, (points[0], points[1]), belote, (tricks[0], tricks[1])).scores
            totals[i] += s[side] - s[1 - side]
    return [(c, totals[i] / worlds) for i, c in enumerate(candidates)]


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
            s = score(contract, points, belote, tricks).scores
            total += s[side] - s[1 - side]
        return total / len(self.rows)

    def shifted(self, shift: int) -> "Outcomes":
        """The same rows with ``shift`` more card points moved (to the defence; a negative shift to the declarer)."""
        out = Outcomes(self.decl_side, shift)
        for points, tricks, belote in self.rows:
            out.add(list(points), list(tricks), belote)
        return out

    def made_chance(self, contract: Contract) -> float:
        made = sum(score(contract, p, b, t).made for p, t, b in self.rows)
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


__all__ = ["best_card", "choose_card", "evaluate_cards", "distinct_cards", "explain_call", "bid_shows", "play_worlds"]
