"""A deliberately naive double-dummy search, for the solver's differential tests.

It knows nothing of ``coinche``: cards are strings as in tests/naive.py, whose rules, trick winner and
scores it uses.  It walks the whole tree of legal cards, with no pruning, no table and no equivalent
cards, and scores every leaf by naive's formulas; side 0 maximises, side 1 minimises.
"""

from __future__ import annotations

import naive

DIX_DE_DER = 10


def _leaves_value(hands, leader, trick, trump, points, tricks, leaf):
    seat = (leader + len(trick)) % 4
    if len(trick) == 4:
        w = (leader + naive.winner(trick, trump)) % 4
        gain = sum(naive.points(c, trump) for c in trick)
        last = not any(hands)
        if last:
            gain += DIX_DE_DER
        points = list(points)
        tricks = list(tricks)
        points[w % 2] += gain
        tricks[w % 2] += 1
        if last:
            return leaf(tuple(points), tuple(tricks))
        return _leaves_value(hands, w, [], trump, points, tricks, leaf)
    values = []
    for card in sorted(naive.judge(hands[seat], trick, trump).legal):
        rest = [set(h) for h in hands]
        rest[seat].discard(card)
        values.append(_leaves_value(rest, leader, trick + [card], trump, points, tricks, leaf))
    return max(values) if seat % 2 == 0 else min(values)


def each_card(hands, leader, trick, trump, points, tricks, leaf):
    """``{card: best value}`` for each legal card of the seat to play; ``leaf(points, tricks)`` values the
    end of the deal for side 0."""
    seat = (leader + len(trick)) % 4
    out = {}
    for card in sorted(naive.judge(hands[seat], trick, trump).legal):
        rest = [set(h) for h in hands]
        rest[seat].discard(card)
        out[card] = _leaves_value(rest, leader, list(trick) + [card], trump, points, tricks, leaf)
    return out


def score_leaf(variant, declarer_side, bid, multiplier, belote_side):
    """A leaf value: side 0's score minus side 1's, by naive's formulas."""
    def leaf(points, tricks):
        if variant == "classic":
            s = naive.classic_score(declarer_side, points, belote_side, tricks)
        else:
            s = naive.coinche_score(declarer_side, bid, multiplier, points, belote_side, tricks)
        return s[0] - s[1]
    return leaf


def points_leaf(points, tricks):
    """A leaf value: side 0's card points."""
    return points[0]
