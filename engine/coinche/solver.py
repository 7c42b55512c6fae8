"""The exact double-dummy solver: with every hand known, what each legal card leads to under best play.

Both sides play to their best score for the deal.  The deal's score is a non-decreasing function of one
number, the outcome's *rank* for side 0 (its card points, the last trick's ten included, doubled, plus one
when side 0 takes every trick and minus one when side 1 does): the belote is fixed by the hands, a contract
is made from a number of card points up, and taking all eight tricks can only add.  So the best play for
the score is the best play for that rank, which a search on card points finds with the usual tools: an
alpha-beta search, a table of bounds at each trick's start keyed by the four hands, the leader and who may
still take every trick, cheap move ordering, and one card of each run of equivalent cards.

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

from .cards import CARDS, POINTS, POWER, Card
from .play import legal_mask, trick_winner
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
                  belote_side: int | None) -> DealScore:
    """The deal's score for card points ``points`` (per side, the last trick included), ``capot`` the side
    that took all eight tricks or ``None``.  Best play is not unique in its trick count: the rules ask only
    whether one side took all eight, so a deal without a capot is scored as four tricks each."""
    tricks = (4, 4) if capot is None else ((8, 0) if capot == 0 else (0, 8))
    return score(rules, contract, points, belote_side, tricks)


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
            table = _DROP_TRUMP if s == trump else _DROP_PLAIN
            out &= ~(table[mine][live >> shift & 7] << shift)
    return out


class _Search:
    """One search over a deal's remaining cards (``hands`` is changed during the search and restored)."""

    def __init__(self, hands: list[int], trump: int, undertrump: bool = False) -> None:
        self.hands = hands
        self.trump = trump
        self.undertrump = undertrump
        self.points = POINTS[trump]
        self.power = POWER[trump]
        self.table: dict = {}
        self.nodes = 0
        #: the card points not yet won at the current trick's start, the last trick's ten included
        self.rest = 0

    # ---------------------------------------------------------------- at a trick's start
    def trick(self, leader: int, flag: int, alpha: int, beta: int) -> int:
        """The rank side 0 gets from the remaining tricks, ``leader`` to lead (fail-soft alpha-beta)."""
        h = self.hands
        if not h[leader] & (h[leader] - 1):
            return self._last_trick(leader, flag)
        # every point still to win (the last trick's ten included) bounds the rank
        top = 2 * self.rest + (1 if flag == SIDE0 or flag == BOTH else 0)
        if alpha >= top:
            return top
        bottom = -1 if flag == SIDE1 or flag == BOTH else 0
        if beta <= bottom:
            return bottom
        key = (h[0], h[1], h[2], h[3], leader, flag)
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
        value, best = self._node(leader, leader, [], flag, alpha, beta, first)
        if value <= alpha:
            hi = value
        elif value >= beta:
            lo = value
        else:
            lo = hi = value
        self.table[key] = (lo, hi, best)
        return value

    def _last_trick(self, leader: int, flag: int) -> int:
        h = self.hands
        trick = [h[(leader + i) & 3].bit_length() - 1 for i in range(4)]
        side = (leader + trick_winner(trick, self.trump)) & 1
        return self._close(side, trick, flag, True)

    def _close(self, side: int, trick: list[int], flag: int, last: bool) -> int:
        """The rank side 0 gains by the trick ``side`` has just won (the last trick: its ten and a capot)."""
        p = self.points
        gain = p[trick[0]] + p[trick[1]] + p[trick[2]] + p[trick[3]]
        if last:
            gain += LAST_TRICK
        value = 2 * gain if side == 0 else 0
        if last and (flag == side or flag == BOTH):
            value += 1 if side == 0 else -1
        return value

    def gather(self, leader: int, trick: list[int], flag: int, alpha: int, beta: int) -> int:
        """The rank side 0 gets from the full ``trick`` on and every trick after it."""
        w = (leader + trick_winner(trick, self.trump)) & 3
        side = w & 1
        last = not self.hands[0]
        gain = self._close(side, trick, flag, last)
        if last:
            return gain
        nflag = flag if flag == side else (side if flag == BOTH else NOBODY)
        p = self.points
        taken = p[trick[0]] + p[trick[1]] + p[trick[2]] + p[trick[3]]
        self.rest -= taken
        value = gain + self.trick(w, nflag, alpha - gain, beta - gain)
        self.rest += taken
        return value

    # ---------------------------------------------------------------- inside a trick
    def _node(self, p: int, leader: int, trick: list[int], flag: int, alpha: int, beta: int,
              first: int = -1) -> tuple[int, int]:
        """``(value, best card)`` with seat ``p`` to play to ``trick``."""
        self.nodes += 1
        h = self.hands
        trump = self.trump
        hand = h[p]
        legal = legal_mask(hand, trick, trump, self.undertrump)
        if legal & (legal - 1):
            live = (h[0] | h[1] | h[2] | h[3]) & ~hand
            for c in trick:
                live |= 1 << c
            cards = self._ordered(distinct(legal, live, trump), trick, p, first)
        else:
            cards = (legal.bit_length() - 1,)
        maximise = not p & 1
        best_value = -INFINITY if maximise else INFINITY
        best = cards[0]
        n = len(trick)
        for c in cards:
            h[p] = hand ^ (1 << c)
            trick.append(c)
            if n == 3:
                value = self.gather(leader, trick, flag, alpha, beta)
            else:
                value = self._node((p + 1) & 3, leader, trick, flag, alpha, beta)[0]
            trick.pop()
            h[p] = hand
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
        return best_value, best

    def _ordered(self, cards: int, trick: list[int], p: int, first: int) -> list[int]:
        """The cards to try, likely best first: the table's best card, then winners (the leader's highest,
        the last seat's cheapest), then the rest by points (given to a partner winning, else the fewest)."""
        power, points, trump = self.power, self.points, self.trump
        keyed = []
        n = len(trick)
        if n:
            w = trick_winner(trick, trump)
            top = trick[w]
            led = trick[0] >> 3
            partner = w == n - 2
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            cards ^= low
            if c == first:
                k = 1 << 12
            elif not n:
                k = power[c] * 16 + points[c]
            else:
                s = c >> 3
                wins = (s == top >> 3 and power[c] > power[top]) or (s == trump and top >> 3 != trump)
                if wins and not partner:
                    k = 2000 - power[c] * 16 + points[c] if n == 3 else 1000 + power[c] * 16 + points[c]
                elif partner:
                    k = 500 + points[c] * 16 - power[c] - (200 if s == trump and led != trump else 0)
                else:
                    k = 500 - points[c] * 16 - power[c]
            keyed.append((k, c))
        keyed.sort(reverse=True)
        return [c for _, c in keyed]


class _Root:
    """A position to solve at its root: the search set up on a copy of the hands."""

    def __init__(self, hands: Sequence[int], leader: int, trick: Sequence[int], trump: int,
                 won: Sequence[int], tricks_won: Sequence[int], search: _Search | None, rules: Rules) -> None:
        h = self.hands = list(hands)
        self.trick = [int(c) for c in trick]
        self.leader, self.trump, self.won = leader, trump, tuple(won)
        self.seat = (leader + len(self.trick)) & 3
        self.rules = rules
        self.legal = legal_mask(h[self.seat], self.trick, trump, rules.undertrump)
        self.flag = capot_flag(tricks_won)
        points = POINTS[trump]
        remaining = sum(points[c] for c in _cards(h[0] | h[1] | h[2] | h[3] | mask_of_trick(self.trick)))
        self.search = search or _Search(h, trump, rules.undertrump)
        self.search.hands = h
        self.search.rest = remaining + LAST_TRICK
        self.total = won[0] + won[1] + remaining + LAST_TRICK

    def live(self) -> int:
        h = self.hands
        return (h[0] | h[1] | h[2] | h[3]) & ~h[self.seat] | mask_of_trick(self.trick)

    def value(self, card: int) -> int:
        """The exact rank (for side 0) after ``card``, best play on both sides."""
        h, p, trick, search = self.hands, self.seat, self.trick, self.search
        h[p] ^= 1 << card
        trick.append(card)
        if len(trick) == 4:
            value = search.gather(self.leader, trick, self.flag, -INFINITY, INFINITY)
        else:
            value = search._node((p + 1) & 3, self.leader, trick, self.flag, -INFINITY, INFINITY)[0]
        trick.pop()
        h[p] ^= 1 << card
        return value

    def best(self) -> tuple[int, int]:
        """``(rank, card)`` of a best card, by one search over all the legal cards."""
        value, card = self.search._node(self.seat, self.leader, self.trick, self.flag, -INFINITY, INFINITY)
        return value, card

    def outcome(self, card: int, rank: int, contract: Contract | None, belote_side: int | None) -> Outcome:
        return _make(card, rank, self.won, self.total, contract, belote_side, self.rules)


def mask_of_trick(trick: Sequence[int]) -> int:
    mask = 0
    for c in trick:
        mask |= 1 << c
    return mask


def solve_cards(hands: Sequence[int], leader: int, trick: Sequence[int], trump: int,
                won: Sequence[int] = (0, 0), tricks_won: Sequence[int] = (0, 0),
                cards: Iterable[int] | None = None, contract: Contract | None = None,
                belote_side: int | None = None, search: _Search | None = None,
                rules: Rules | None = None) -> dict[int, Outcome]:
    """Each of ``cards`` (default: every legal card) of the seat to play, solved exactly.

    ``hands`` are the four hands' bitmasks (the seat to play sits after the ``trick``'s cards), ``won`` and
    ``tricks_won`` what each side has taken so far; the outcome's score needs the ``contract`` (and the
    ``belote_side``, fixed by the dealt hands) and the table's ``rules`` (default: the game's own rules).
    """
    root = _Root(hands, leader, trick, trump, won, tricks_won, search, _rules(rules))
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
                 rules: Rules | None = None) -> tuple[Outcome, Outcome]:
    """``(played, best)``: the outcome of the card ``played`` and of a best card, each solved exactly, at
    about the cost of two searches (the other cards are only shown to be no better)."""
    root = _Root(hands, leader, trick, trump, won, tricks_won, search, _rules(rules))
    rank, card = root.best()
    mine = rank if card == played else root.value(played)
    return root.outcome(played, mine, contract, belote_side), root.outcome(card, rank, contract, belote_side)


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
          belote_side: int | None, rules: Rules) -> Outcome:
    capot = None
    future = rank
    if rank & 1:  # a capot: side 0's adds one to an even rank; side 1's leaves side 0 nothing, rank -1
        capot = 1 if rank < 0 else 0
        future = rank - 1 if capot == 0 else 0
    points0 = won[0] + future // 2
    points = (points0, total - points0)
    score_ = None if contract is None else outcome_score(rules, contract, points, capot, belote_side)
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


def solve(deal) -> dict[Card, Outcome]:
    """Every legal card of the seat to play in ``deal`` (a :class:`~coinche.deal.Deal` in its play), solved
    double dummy, scored by the deal's contract."""
    if deal.phase.name != "PLAY":
        raise ValueError("solve is for a deal in its play")
    found = solve_cards(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won, deal.tricks_won,
                        contract=deal.contract, belote_side=belote_side(deal), rules=deal.rules)
    return {CARDS[c]: o for c, o in found.items()}


__all__ = ["Outcome", "belote_side", "capot_flag", "distinct", "outcome_score", "searcher", "solve", "solve_cards",
           "solve_choice"]
