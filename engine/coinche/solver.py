"""The exact double-dummy solver: with every hand known, what each legal card leads to under best play.

Both sides play to their best score for the deal.  The deal's score is a non-decreasing function of one
number, the outcome's *rank* for side 0 (its card points, the last trick's ten included, doubled, plus one
when side 0 takes every trick and minus one when side 1 does): the belote is fixed by the hands, a contract
is made from a number of card points up, and taking all eight tricks can only add.  So the best play for
the score is the best play for that rank, which a search on card points finds with the usual tools: an
alpha-beta search (each card after the first only shown no better by a null window, the principal variation
search), a table of bounds at each trick's start keyed by the cards left, the leader and who may still take
every trick, cheap move ordering, and one card of each run of equivalent cards.

:func:`solve` answers for a :class:`~coinche.deal.Deal` in play; :func:`solve_cards` for bare bitmasks
(the bots' sampled deals).  Each card's :class:`Outcome` carries the card points per side at the end of
the deal and its :class:`~coinche.scoring.DealScore`, through :func:`outcome_score`, the one place the
solver asks the rules for a score.

>>> from coinche.deal import Deal
>>> deal = Deal.new("coinche", dealer=3, seed=8)
>>> for call in ("100h", "pass", "pass", "pass"): deal.apply(call)
>>> for _ in range(20): deal.play(deal.legal_cards()[0])
>>> outcomes = solve(deal)
>>> sorted((str(card), o.points, o.score.scores) for card, o in outcomes.items())
[('8d', (119, 43), (219, 43)), ('9d', (119, 43), (219, 43)), ('Ad', (119, 43), (219, 43))]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .cards import ALL_TRUMPS, CARDS, HIGHER_TRUMPS, POINTS, POWER, TRUMP_MASK, Card
from .play import legal_against, legal_mask, trick_winner
from .rules import Rules
from .scoring import Contract, DealScore, score

LAST_TRICK = 10
#: The flag of who may still take every trick: side 0, side 1, nobody, or both (no trick played yet).
SIDE0, SIDE1, NOBODY, BOTH = 0, 1, 2, 3
INFINITY = 1 << 20


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one card leads to: the card points per side at the end (dix de der included), the side that
    takes all eight tricks (``None`` if neither), the rank the search maximises for side 0, the score."""

    card: Card
    points: tuple[int, int]
    capot: int | None
    rank: int
    score: DealScore | None

    def difference(self, side: int) -> int:
        """The side's score minus the other's (0 when there is no contract to score)."""
        if self.score is None:
            return 0
        s = self.score.scores
        return s[side] - s[1 - side]

    def to_json(self) -> dict:
        return {"card": str(self.card), "points": list(self.points), "capot": self.capot,
                "score": None if self.score is None else self.score.to_json()}


def outcome_score(rules: Rules, contract: Contract, points: tuple[int, int], capot: int | None,
                  belote_side: int | None, announced: tuple[int, int] = (0, 0)) -> DealScore:
    """The deal's score for card points ``points`` (per side, the last trick included), ``capot`` the side
    that took all eight tricks or ``None``.  Best play is not unique in its trick count: the rules ask only
    whether one side took all eight, so a deal without a capot is scored as four tricks each."""
    tricks = (4, 4) if capot is None else ((8, 0) if capot == 0 else (0, 8))
    return score(rules, contract, points, belote_side, tricks, announced)


def capot_flag(tricks_won: Sequence[int]) -> int:
    """Who may still take every trick, from the tricks each side has won."""
    t0, t1 = tricks_won
    if t0 and t1:
        return NOBODY
    if t0:
        return SIDE0
    return SIDE1 if t1 else BOTH


def _drop_tables() -> tuple:
    """DROP[is_trump][mine][live]: of the zero-point cards at the bottom of a suit (7 8 9 plain, 7 8 trump;
    bits 0..2 of the suit), those of ``mine`` equivalent to a lower card of ``mine`` (no ``live`` card, one
    another seat holds or on the table, between them): only the lowest of each run is searched."""
    tables = []
    for width in (3, 2):
        table = [[0] * 8 for _ in range(8)]
        for mine in range(8):
            for live in range(8):
                drop, prev = 0, False
                for b in range(width):
                    if mine >> b & 1:
                        if prev:
                            drop |= 1 << b
                        prev = True
                    elif live >> b & 1:
                        prev = False
                table[mine][live] = drop
        tables.append(tuple(tuple(row) for row in table))
    return tuple(tables)


_DROP_PLAIN, _DROP_TRUMP = _drop_tables()
#: The three lowest cards of each suit, where :func:`distinct` finds equivalent cards.
_BOTTOMS = 0x07070707


def distinct(legal: int, live: int, trump: int) -> int:
    """``legal`` without the cards equivalent to a lower legal card of the same suit (``live``: the cards
    still held by other seats or on the table).

    >>> from coinche.cards import mask_of, parse_cards, format_cards, cards_of
    >>> hand = mask_of(parse_cards("7s,8s,9s,Ks,7h,9h,7c,9c"))
    >>> format_cards(cards_of(distinct(hand, mask_of(parse_cards("8h")), trump=0)))
    '7s,9s,Ks,7h,9h,7c'
    """
    out = legal
    for s in range(4):
        shift = s << 3
        mine = legal >> shift & 7
        if mine & (mine - 1):
            table = _DROP_TRUMP if s == trump or trump == ALL_TRUMPS else _DROP_PLAIN
            out &= ~(table[mine][live >> shift & 7] << shift)
    return out


#: Whether side 0 (side 1) may still take every trick, by flag; the flag once side 0 (side 1) wins a trick.
_CAPOT0 = (1, 0, 0, 1)
_CAPOT1 = (0, 1, 0, 1)
_NEXT_FLAG = ((SIDE0, NOBODY), (NOBODY, SIDE1), (NOBODY, NOBODY), (SIDE0, SIDE1))


class _Search:
    """One search over a deal's remaining cards (``hands`` is changed during the search and restored)."""

    def __init__(self, hands: list[int], trump: int, undertrump: bool = False) -> None:
        self.trump = trump
        self.undertrump = undertrump
        self.points = POINTS[trump]
        self.keys = _KEYS[trump]
        self.beats = self.keys.beats
        self.table: dict = {}
        self.hands = hands
        #: the cards seen in each hand since the table was started
        self.dealt = list(hands)
        #: the card points not yet won at the current trick's start, the last trick's ten included
        self.rest = 0

    def adopt(self, hands: list[int]) -> None:
        """Search ``hands`` from now on.  The table is keyed by the cards left (not by each hand: a small
        key), which holds while every card stays in the hand first seen holding it; hands that contradict
        those seen before start a new table."""
        dealt = self.dealt
        seen = dealt[0] | dealt[1] | dealt[2] | dealt[3]
        if any(hand & seen & ~mine for hand, mine in zip(hands, dealt)):
            self.table = {}
            dealt = self.dealt = [0, 0, 0, 0]
        for i in range(4):
            dealt[i] |= hands[i]
        self.hands = hands

    # ---------------------------------------------------------------- at a trick's start
    def trick(self, leader: int, flag: int, alpha: int, beta: int) -> int:
        """The rank side 0 gets from the remaining tricks, ``leader`` to lead (fail-soft alpha-beta)."""
        h = self.hands
        if not h[leader] & (h[leader] - 1):
            return self._last_trick(leader, flag)
        # every point still to win (the last trick's ten included) bounds the rank
        top = 2 * self.rest + _CAPOT0[flag]
        if alpha >= top:
            return top
        bottom = -_CAPOT1[flag]
        if beta <= bottom:
            return bottom
        key = (h[0] | h[1] | h[2] | h[3]) << 4 | leader << 2 | flag
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = -INFINITY, INFINITY
        value = self._node(leader, [], -1, -1, flag, alpha, beta, first)
        if value <= alpha:
            hi = value
        elif value >= beta:
            lo = value
        else:
            lo = hi = value
        self.table[key] = (lo, hi, self.best)
        return value

    def _last_trick(self, leader: int, flag: int) -> int:
        h, beats, points = self.hands, self.beats, self.points
        win = h[leader].bit_length() - 1
        by, taken = leader, points[win]
        for seat in ((leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3):
            c = h[seat].bit_length() - 1
            taken += points[c]
            if beats[win] >> c & 1:
                win, by = c, seat
        return _last_gain(by & 1, taken, flag)

    def gather(self, p: int, trick: list[int], win: int, by: int, flag: int, alpha: int, beta: int) -> int:
        """The rank side 0 gets from the full ``trick``, won by seat ``by``, on and every trick after it
        (the arguments of :meth:`_node`, whose last seat calls either)."""
        points = self.points
        taken = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        side = by & 1
        if not self.hands[0]:
            return _last_gain(side, taken, flag)
        gain = 0 if side else 2 * taken
        self.rest -= taken
        value = gain + self.trick(by, _NEXT_FLAG[flag][side], alpha - gain, beta - gain)
        self.rest += taken
        return value

    # ---------------------------------------------------------------- inside a trick
    def _node(self, p: int, trick: list[int], win: int, by: int, flag: int, alpha: int, beta: int,
              first: int = -1, cards: Sequence[int] = ()) -> int:
        """The value with seat ``p`` to play to ``trick`` (``cards`` only, if given), whose winning card so
        far ``win`` seat ``by`` played (the best card found is left in ``self.best``)."""
        h = self.hands
        hand = h[p]
        if not cards:
            cards = self._choices(hand, trick, win, by == p ^ 2, first)
        beats = self.beats[win] if trick else -1
        child = self.gather if len(trick) == 3 else self._node
        after = (p + 1) & 3
        maximise = not p & 1
        best_value = -INFINITY if maximise else INFINITY
        best = cards[0]
        for c in cards:
            h[p] = hand ^ (1 << c)
            trick.append(c)
            if beats >> c & 1:
                w, b = c, p
            else:
                w, b = win, by
            # the first card with the full window, the others first only shown no better (a null window)
            if c == best or beta - alpha < 2:
                value = child(after, trick, w, b, flag, alpha, beta)
            elif maximise:
                value = child(after, trick, w, b, flag, alpha, alpha + 1)
                if alpha < value < beta:
                    value = child(after, trick, w, b, flag, value, beta)
            else:
                value = child(after, trick, w, b, flag, beta - 1, beta)
                if alpha < value < beta:
                    value = child(after, trick, w, b, flag, alpha, value)
            trick.pop()
            if maximise:
                if value > best_value:
                    best_value, best = value, c
                    if value > alpha:
                        alpha = value
            elif value < best_value:
                best_value, best = value, c
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        h[p] = hand
        self.best = best
        return best_value

    def _choices(self, hand: int, trick: list[int], win: int, partner: bool, first: int) -> Sequence[int]:
        """The cards to try from ``hand``, in order."""
        legal = legal_against(hand, trick[0] >> 3, win, partner, self.trump, self.undertrump) if trick else hand
        if legal & (legal - 1):
            return self._ordered(self._distinct(legal, hand, trick), trick, win, partner, first)
        return (legal.bit_length() - 1,)

    def _distinct(self, legal: int, hand: int, trick: list[int]) -> int:
        low = legal & _BOTTOMS
        if not (low & (low >> 1) | low & (low >> 2)) & _BOTTOMS:
            return legal
        h = self.hands
        live = (h[0] | h[1] | h[2] | h[3]) & ~hand
        for c in trick:
            live |= 1 << c
        return distinct(legal, live, self.trump)

    def _ordered(self, cards: int, trick: list[int], win: int, partner: bool, first: int) -> tuple[int, ...]:
        """:meth:`_Keys.order`, kept by the trump's keys for each kind of position."""
        if not trick:
            key = cards << 9 | (first + 1) << 3
        elif partner:
            key = cards << 9 | (6 if trick[0] >> 3 == self.trump else 7)
        else:
            key = (cards << 6 | win) << 3 | (1 if len(trick) == 3 else 2)
        orders = self.keys.orders
        order = orders.get(key)
        if order is None:
            if len(orders) > _MAX_ORDERS:
                orders.clear()
            order = orders[key] = self.keys.order(cards, trick, win, partner, first)
        return order


class _Keys:
    """By trump, each card's sort keys (its index in the low five bits), the cards that beat it, and the
    orders of the cards to try already found (shared by every search: a sort is dearer than a look-up)."""

    def __init__(self, trump: int) -> None:
        self.trump = trump
        power, points = POWER[trump], POINTS[trump]

        def table(key) -> object:
            return tuple(key(c) << 5 | c for c in range(32)).__getitem__

        self.lead = table(lambda c: (power[c] & 7) * 16 + points[c])
        #: the leader's order of earlier versions, trumps first: the root's, which breaks its ties
        self.first_lead = table(lambda c: power[c] * 16 + points[c])
        self.win = table(lambda c: 1000 + power[c] * 16 + points[c])
        self.win_last = table(lambda c: 2000 - power[c] * 16 + points[c])
        self.lose = table(lambda c: 500 - points[c] * 16 - power[c])
        self.give = (table(lambda c: 500 + points[c] * 16 - power[c] - (200 if c >> 3 == trump else 0)),
                     table(lambda c: 500 + points[c] * 16 - power[c]))
        #: the cards that beat each card on the table
        self.beats = tuple(HIGHER_TRUMPS[c] if c >> 3 == trump or trump == ALL_TRUMPS else
                           TRUMP_MASK[trump] | sum(1 << d for d in range(c & ~7, (c | 7) + 1) if power[d] > power[c])
                           for c in range(32))
        #: the orders already found, by :meth:`_Search._ordered`'s key
        self.orders: dict[int, tuple[int, ...]] = {}

    def order(self, cards: int, trick: list[int], win: int, partner: bool, first: int) -> tuple[int, ...]:
        """The cards to try, likely best first: the table's best card, then winners (the leader's highest
        by rank, trumps or not; the last seat's cheapest, the others' highest), then the rest by points
        (given to a partner winning, else the fewest)."""
        if not trick:
            order = sorted(_each(cards), key=self.lead, reverse=True)
            if first >= 0:
                order.remove(first)
                order.insert(0, first)
            return tuple(order)
        if partner:
            return tuple(sorted(_each(cards), key=self.give[trick[0] >> 3 == self.trump], reverse=True))
        wins = cards & self.beats[win]
        return tuple(sorted(_each(wins), key=self.win_last if len(trick) == 3 else self.win, reverse=True)
                     + sorted(_each(cards ^ wins), key=self.lose, reverse=True))


_KEYS = tuple(_Keys(trump) for trump in range(6))
#: How many orders :class:`_Keys` keeps (about 3 MB) before it starts again.
_MAX_ORDERS = 1 << 15
#: _SUIT_CARDS[suit][bits]: the cards of ``suit`` whose bits (in the suit's byte) are set.
_SUIT_CARDS = tuple(tuple(tuple(s * 8 + b for b in range(8) if bits >> b & 1) for bits in range(256))
                    for s in range(4))


def _each(mask: int) -> tuple[int, ...]:
    spades, hearts, diamonds, clubs = _SUIT_CARDS
    return spades[mask & 255] + hearts[mask >> 8 & 255] + diamonds[mask >> 16 & 255] + clubs[mask >> 24]


def _last_gain(side: int, taken: int, flag: int) -> int:
    """The rank side 0 gains by the last trick, worth ``taken`` card points, won by ``side``."""
    value = 0 if side else 2 * (taken + LAST_TRICK)
    if flag == side or flag == BOTH:
        value += -1 if side else 1
    return value


class _Root:
    """A position to solve at its root: the search set up on a copy of the hands."""

    def __init__(self, hands: Sequence[int], leader: int, trick: Sequence[int], trump: int,
                 won: Sequence[int], tricks_won: Sequence[int], search: _Search | None, rules: Rules,
                 announced: tuple[int, int] = (0, 0)) -> None:
        h = self.hands = list(hands)
        self.announced = announced
        self.trick = [int(c) for c in trick]
        self.leader, self.trump, self.won = leader, trump, tuple(won)
        self.seat = (leader + len(self.trick)) & 3
        self.rules = rules
        self.legal = legal_mask(h[self.seat], self.trick, trump, rules.undertrump)
        self.flag = capot_flag(tricks_won)
        self.win = self.by = -1
        if self.trick:
            w = trick_winner(self.trick, trump)
            self.win, self.by = self.trick[w], (leader + w) & 3
        points = POINTS[trump]
        remaining = sum(points[c] for c in _cards(h[0] | h[1] | h[2] | h[3] | mask_of_trick(self.trick)))
        if search is None:
            self.search = _Search(h, trump, rules.undertrump)
        else:
            self.search = search
            search.adopt(h)
        self.search.rest = remaining + LAST_TRICK
        self.total = won[0] + won[1] + remaining + LAST_TRICK

    def live(self) -> int:
        h = self.hands
        return (h[0] | h[1] | h[2] | h[3]) & ~h[self.seat] | mask_of_trick(self.trick)

    def value(self, card: int) -> int:
        """The exact rank (for side 0) after ``card``, best play on both sides."""
        return self.search._node(self.seat, self.trick, self.win, self.by, self.flag, -INFINITY, INFINITY,
                                 cards=(card,))

    def best(self) -> tuple[int, int]:
        """``(rank, card)`` of a best card, by one search over all the legal cards: on a tie, the first in
        the order of earlier versions, the highest card first when leading (what-if lines stay the same)."""
        search, p = self.search, self.seat
        cards = search._choices(self.hands[p], self.trick, self.win, self.by == p ^ 2, -1)
        if not self.trick:
            cards = sorted(cards, key=search.keys.first_lead, reverse=True)
        value = search._node(p, self.trick, self.win, self.by, self.flag, -INFINITY, INFINITY, cards=cards)
        return value, search.best

    def outcome(self, card: int, rank: int, contract: Contract | None, belote_side: int | None) -> Outcome:
        return _make(card, rank, self.won, self.total, contract, belote_side, self.rules, self.announced)

    def bounded(self, alpha: int, beta: int) -> int:
        """The position's rank if it lies strictly between ``alpha`` and ``beta``, else a bound beyond the
        window (fail-soft): a narrow window searches far fewer cards than the exact value."""
        search, p = self.search, self.seat
        cards = search._choices(self.hands[p], self.trick, self.win, self.by == p ^ 2, -1)
        return search._node(p, self.trick, self.win, self.by, self.flag, alpha, beta, cards=cards)

    def ranks(self) -> list[int]:
        """Every rank best play can end on from here, in increasing order: side 1's capot, then twice side 0's
        card points still to win, then side 0's capot."""
        rest = self.total - self.won[0] - self.won[1]
        return [-1, *range(0, 2 * rest + 1, 2), 2 * rest + 1]


def mask_of_trick(trick: Sequence[int]) -> int:
    mask = 0
    for c in trick:
        mask |= 1 << c
    return mask


def solve_cards(hands: Sequence[int], leader: int, trick: Sequence[int], trump: int,
                won: Sequence[int] = (0, 0), tricks_won: Sequence[int] = (0, 0),
                cards: Iterable[int] | None = None, contract: Contract | None = None,
                belote_side: int | None = None, search: _Search | None = None,
                rules: Rules | None = None, announced: tuple[int, int] = (0, 0)) -> dict[int, Outcome]:
    """Each of ``cards`` (default: every legal card) of the seat to play, solved exactly.

    ``hands`` are the four hands' bitmasks (the seat to play sits after the ``trick``'s cards), ``won`` and
    ``tricks_won`` what each side has taken so far; the outcome's score needs the ``contract`` (and the
    ``belote_side``, fixed by the dealt hands) and the table's ``rules`` (default: the game's own rules);
    ``announced``: each side's announcement points (fixed once the first trick is over).
    """
    root = _Root(hands, leader, trick, trump, won, tricks_won, search, _rules(rules), announced)
    legal = root.legal
    wanted = legal if cards is None else sum(1 << c for c in set(int(c) for c in cards)) & legal
    values = {c: root.value(c) for c in _cards(distinct(wanted, root.live(), trump))}
    out = {}
    power = POWER[trump]
    for c in _cards(wanted):
        stand = c if c in values else max((d for d in values if d >> 3 == c >> 3 and power[d] < power[c]),
                                          key=power.__getitem__)
        out[c] = root.outcome(c, values[stand], contract, belote_side)
    return out


def solve_choice(hands: Sequence[int], leader: int, trick: Sequence[int], trump: int, played: int,
                 won: Sequence[int], tricks_won: Sequence[int], contract: Contract | None,
                 belote_side: int | None, search: _Search | None = None,
                 rules: Rules | None = None, announced: tuple[int, int] = (0, 0)) -> tuple[Outcome, Outcome]:
    """``(played, best)``: the outcome of the card ``played`` and of a best card, each solved exactly, at
    about the cost of two searches (the other cards are only shown to be no better)."""
    root = _Root(hands, leader, trick, trump, won, tricks_won, search, _rules(rules), announced)
    rank, card = root.best()
    mine = rank if card == played else root.value(played)
    return root.outcome(played, mine, contract, belote_side), root.outcome(card, rank, contract, belote_side)


def solve_best(hands: Sequence[int], leader: int, trick: Sequence[int], trump: int, won: Sequence[int],
               tricks_won: Sequence[int], contract: Contract | None, belote_side: int | None,
               search: _Search | None = None, rules: Rules | None = None,
               announced: tuple[int, int] = (0, 0)) -> Outcome:
    """The outcome of a best card (the position's value), solved exactly in one search: the other cards are
    only shown to be no better."""
    root = _Root(hands, leader, trick, trump, won, tricks_won, search, _rules(rules), announced)
    rank, card = root.best()
    return root.outcome(card, rank, contract, belote_side)


def solve_beats(hands: Sequence[int], leader: int, trick: Sequence[int], trump: int, won: Sequence[int],
                tricks_won: Sequence[int], contract: Contract, belote_side: int | None, side: int, target: int,
                search: _Search | None = None, rules: Rules | None = None,
                announced: tuple[int, int] = (0, 0)) -> bool:
    """Whether best play from the position gives ``side`` a score difference (its score minus the other's,
    by ``contract``) above ``target``: one search with a null window at the rank from which the score
    exceeds it, several times cheaper than the value unless the value lies near it."""
    rules = _rules(rules)
    root = _Root(hands, leader, trick, trump, won, tricks_won, search, rules, announced)
    above = [r for r in root.ranks() if _make(0, r, root.won, root.total, contract, belote_side, rules, announced)
             .difference(side) > target]
    if not above:
        return False
    if side == 0:  # side 0's difference never falls as its rank rises
        return root.bounded(above[0] - 1, above[0]) >= above[0]
    return root.bounded(above[-1], above[-1] + 1) <= above[-1]


def _rules(rules: Rules | None) -> Rules:
    """The table's rules score the outcomes (a contract's ``variant`` is for display only); none given: the
    game's own."""
    return OWN_RULES if rules is None else rules


OWN_RULES = Rules()


def searcher(trump: int, rules: Rules) -> _Search:
    """A search whose table of bounds may be kept across positions of one deal (the table's entries hold
    for any position with the same trump and rules, since they are keyed by the four hands)."""
    return _Search([0, 0, 0, 0], trump, rules.undertrump)


def _make(card: int, rank: int, won: Sequence[int], total: int, contract: Contract | None,
          belote_side: int | None, rules: Rules, announced: tuple[int, int] = (0, 0)) -> Outcome:
    capot = None
    future = rank
    if rank & 1:  # a capot: side 0's adds one to an even rank; side 1's leaves side 0 nothing, rank -1
        capot = 1 if rank < 0 else 0
        future = rank - 1 if capot == 0 else 0
    points0 = won[0] + future // 2
    points = (points0, total - points0)
    score_ = None if contract is None else outcome_score(rules, contract, points, capot, belote_side, announced)
    return Outcome(CARDS[card], points, capot, rank, score_)


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out



def belote_side(deal) -> int | None:
    """The side (0 or 1) of the seat dealt both the trump king and queen (the belote the solver counts,
    played yet or not), ``None`` when no seat was dealt both."""
    return (deal.belote_seat & 1) if deal.belote_seat >= 0 else None


def announced_side_points(deal) -> tuple[int, int]:
    """The announcement points each side scores in ``deal`` (house rule ``announce=yes``), every hand in
    sight: those declared, and in the first trick every seat yet to speak declaring all its dealt hand holds."""
    if not deal.rules.announce:
        return (0, 0)
    from .announce import held, side_points

    declared = list(deal.declared)
    if not deal.tricks and deal.dealt is not None:
        for i in range(4):
            seat = (deal.leader + i) & 3
            if not deal.spoken >> seat & 1:
                declared += [(seat, a) for a in held(deal.dealt[seat])]
    return side_points(declared, deal.trump)


def solve(deal) -> dict[Card, Outcome]:
    """Every legal card of the seat to play in ``deal`` (a :class:`~coinche.deal.Deal` in its play), solved
    double dummy, scored by the deal's contract."""
    if deal.phase.name != "PLAY":
        raise ValueError("solve is for a deal in its play")
    found = solve_cards(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won, deal.tricks_won,
                        contract=deal.contract, belote_side=belote_side(deal), rules=deal.rules,
                        announced=announced_side_points(deal))
    return {CARDS[c]: o for c, o in found.items()}


__all__ = ["Outcome", "announced_side_points", "belote_side", "capot_flag", "distinct", "outcome_score", "searcher", "solve", "solve_beats",
           "solve_best", "solve_cards", "solve_choice"]
