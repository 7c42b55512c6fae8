"""Fast playouts of a deal whose four hands are known (a sampled world), on bitmasks.

:func:`rollout_card` is a cheap heuristic policy with full sight of the world's hands; it plays
only legal cards (``coinche.play.legal_mask``) and keeps the partner rule (never trumps a trick
the partner is winning when free not to, unless holding only trumps).  :func:`playout` plays a
world to its end and returns the card points (dix de der included) and tricks of each side.

>>> from coinche.deal import Deal
>>> deal = Deal.new("coinche", dealer=3, seed=11)
>>> points, tricks = playout(list(deal.hands), leader=0, trick=[], trump=1, decl_side=0)
>>> sum(points), sum(tricks)
(162, 8)
"""

from __future__ import annotations

from ..cards import ALL_TRUMPS, HIGHER_TRUMPS, PLAIN_STRENGTH, POINTS, POWER, SUIT_MASK, TRUMP_MASK, TRUMP_STRENGTH
from ..play import legal_mask, trick_winner


def _higher_plain(card: int) -> int:
    suit, strength = card >> 3, PLAIN_STRENGTH[card & 7]
    return sum(1 << (suit * 8 + r) for r in range(8) if PLAIN_STRENGTH[r] > strength)


#: TRUMP_ORDERED[trump][suit]: whether the suit is ordered as trump (the trump suit; every suit in all trumps).
TRUMP_ORDERED = tuple(tuple(s == t or t == ALL_TRUMPS for s in range(4)) for t in range(6))
#: HIGHER[trump][card]: the cards of card's suit that beat it; BEAT[trump][card]: every card that
#: beats it when it is the best card on the table (a plain card is also beaten by any trump).
HIGHER = tuple(tuple(HIGHER_TRUMPS[c] if TRUMP_ORDERED[t][c >> 3] else _higher_plain(c) for c in range(32))
               for t in range(6))
BEAT = tuple(tuple(HIGHER[t][c] | (0 if c >> 3 == t else TRUMP_MASK[t]) for c in range(32)) for t in range(6))
#: Keys to pick a card to throw away (lowest first: no points, weak, not a trump) and to give
#: points to a partner who wins the trick (highest first: many points, not a trump).
DISCARD = tuple(
    tuple(POINTS[t][c] * 16 + POWER[t][c] + (400 if c >> 3 == t else 0) for c in range(32)) for t in range(6)
)
CHARGE = tuple(tuple(POINTS[t][c] * 16 - POWER[t][c] - (400 if c >> 3 == t else 0) for c in range(32)) for t in range(6))


def _extreme_rank(byte: int, strength, best) -> int:
    ranks = [r for r in range(8) if byte >> r & 1]
    return best(ranks, key=strength.__getitem__) if ranks else -1


#: LOW[is_trump][byte] and TOP[is_trump][byte]: the rank of the weakest and of the strongest card
#: of one suit's 8-bit set, in trump order or plain order (-1 for the empty set).  Inside one suit
#: the weaker card is never worth more points, in either order.
LOW = tuple(tuple(_extreme_rank(b, strength, min) for b in range(256)) for strength in (PLAIN_STRENGTH, TRUMP_STRENGTH))
TOP = tuple(tuple(_extreme_rank(b, strength, max) for b in range(256)) for strength in (PLAIN_STRENGTH, TRUMP_STRENGTH))


def pick_min(mask: int, key) -> int:
    """The card of ``mask`` with the lowest ``key`` (the first in index order on a tie)."""
    best, best_key = -1, 1 << 30
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        k = key[c]
        if k < best_key:
            best, best_key = c, k
        mask ^= low
    return best


def pick_max(mask: int, key) -> int:
    """The card of ``mask`` with the highest ``key`` (the first in index order on a tie)."""
    best, best_key = -1, -(1 << 30)
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        k = key[c]
        if k > best_key:
            best, best_key = c, k
        mask ^= low
    return best


def lowest(mask: int, trump: int, key) -> int:
    """Of the weakest card of each suit in ``mask``, the one with the lowest ``key``."""
    best, best_key = -1, 1 << 30
    ordered = TRUMP_ORDERED[trump]
    for s in range(4):
        byte = mask >> (s << 3) & 255
        if byte:
            c = (s << 3) | LOW[ordered[s]][byte]
            if key[c] < best_key:
                best, best_key = c, key[c]
    return best


def highest(mask: int, trump: int, key) -> int:
    """Of the strongest card of each suit in ``mask``, the one with the highest ``key``."""
    best, best_key = -1, -(1 << 30)
    ordered = TRUMP_ORDERED[trump]
    for s in range(4):
        byte = mask >> (s << 3) & 255
        if byte:
            c = (s << 3) | TOP[ordered[s]][byte]
            if key[c] > best_key:
                best, best_key = c, key[c]
    return best


def partner_rule(hand: int, trick, trump: int, legal: int) -> int:
    """``legal`` without the trumps when rule 3 frees the player and it holds something else."""
    n = len(trick)
    if n >= 2 and trick[0] >> 3 != trump and not hand & SUIT_MASK[trick[0] >> 3]:
        if trick_winner(trick, trump) == n - 2:
            others = legal & ~TRUMP_MASK[trump]
            if others:
                return others
    return legal


def rollout_card(hands: list[int], p: int, trick: list[int], trump: int, decl_side: int,
                 under: bool = False) -> int:
    """The heuristic policy's card for seat ``p`` in a world where every hand is known; ``under``: the
    table must undertrump (:attr:`coinche.rules.Rules.undertrump`)."""
    hand = hands[p]
    legal = legal_mask(hand, trick, trump, under)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    n = len(trick)
    if n == 0:
        return _lead(hands, p, trump, decl_side, hand)
    legal = partner_rule(hand, trick, trump, legal)
    w = trick_winner(trick, trump)
    best = trick[w]
    beat = BEAT[trump]
    winners = legal & beat[best]
    if n == 3:
        if w == 1:
            return highest(legal, trump, CHARGE[trump])
        if winners:
            return lowest(winners, trump, POWER[trump])
        return lowest(legal, trump, DISCARD[trump])
    q_hand = hands[(p + 1) & 3]  # the opponent playing after this seat
    if w == n - 2 and not legal_mask(q_hand, trick, trump, under) & beat[best]:
        return highest(legal, trump, CHARGE[trump])
    # the cheapest winner the next opponent cannot beat, else the cheapest card
    power = POWER[trump]
    safe = -1
    m = winners
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if safe >= 0 and power[c] >= power[safe]:
            continue
        trick.append(c)
        beaten = legal_mask(q_hand, trick, trump, under) & beat[c]
        trick.pop()
        if not beaten:
            safe = c
    if safe >= 0:
        return safe
    return lowest(legal, trump, DISCARD[trump])


def _lead(hands: list[int], p: int, trump: int, decl_side: int, hand: int) -> int:
    tmask = TRUMP_MASK[trump]
    others = hands[(p + 1) & 3] | hands[(p + 3) & 3]
    partner = hands[(p + 2) & 3]
    mine_t = hand & tmask
    shift = trump << 3
    if mine_t and (p & 1) == decl_side and others & tmask:
        top = shift | TOP[1][((others | partner | hand) >> shift) & 255]
        if hand >> top & 1:
            return top
        if partner >> top & 1:
            return shift | LOW[1][(mine_t >> shift) & 255]
    # a plain master the opponents will not ruff
    ruffers = 0  # the suits an opponent can ruff
    for o in ((p + 1) & 3, (p + 3) & 3):
        h = hands[o]
        if h & tmask:
            for s in range(4):
                if not h & SUIT_MASK[s]:
                    ruffers |= 1 << s
    higher = HIGHER[trump]
    points = POINTS[trump]
    best, best_pts = -1, -1
    rest = others | partner
    for s in range(4):
        if s == trump or ruffers >> s & 1:
            continue
        byte = (hand >> (s << 3)) & 255
        if not byte:
            continue
        top = (s << 3) | TOP[trump == ALL_TRUMPS][byte]
        if rest & higher[top]:
            continue
        if points[top] > best_pts:
            best, best_pts = top, points[top]
    if best >= 0:
        return best
    plain = hand & ~tmask
    return lowest(plain or hand, trump, DISCARD[trump])


def playout(hands: list[int], leader: int, trick: list[int], trump: int, decl_side: int,
            points: list[int] | None = None, tricks: list[int] | None = None,
            under: bool = False) -> tuple[list[int], list[int]]:
    """Play the world to its end with :func:`rollout_card`; ``hands`` and ``trick`` are consumed
    (``trick`` may hold four cards: the trick is gathered first).

    Returns ``(points, tricks)`` per side, adding to the ones given.
    """
    points = [0, 0] if points is None else points
    tricks = [0, 0] if tricks is None else tricks
    values = POINTS[trump]
    p = (leader + len(trick)) & 3
    while True:
        if len(trick) == 4:
            w = (leader + trick_winner(trick, trump)) & 3
            side = w & 1
            points[side] += values[trick[0]] + values[trick[1]] + values[trick[2]] + values[trick[3]]
            tricks[side] += 1
            trick = []
            leader = p = w
            if not hands[w]:
                points[side] += 10
                break
        elif not hands[p]:
            break
        c = rollout_card(hands, p, trick, trump, decl_side, under)
        hands[p] ^= 1 << c
        trick.append(c)
        p = (p + 1) & 3
    return points, tricks
