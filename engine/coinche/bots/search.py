"""The one way of deciding, shared by the three levels: determinization and playouts.

For a card: sample a number of deals (:func:`play_worlds`) of the hidden cards consistent with the bot's
:class:`~coinche.bots.knowledge.Knowledge` (when it remembers the auction, in proportion to how likely
each seat was to make its calls with the cards a deal gives it: :mod:`coinche.bots.inference`), play each
candidate card in each world and finish the deal with the heuristic playout policy (:mod:`coinche.bots.rollout`),
score the deal by the rules (:func:`coinche.scoring.score`) and play the card with the best mean score difference
for the side.  Late in the deal (:data:`EXACT_CARDS` cards left or fewer) each world is solved double dummy
instead (:func:`coinche.solver.solve_cards`): both sides' best play, where the playout policy's errors would
decide tricks.

Calls are priced in :mod:`coinche.bots.auction`.

Random numbers come from the bot's seed and the knowledge only, so a decision replays exactly and
two views that leave the same knowledge get the same decision.
"""

from __future__ import annotations

from random import Random

from ..announce import side_points
from ..cards import ALL_CARDS_MASK, POINTS, POWER, Rank, mask_of
from ..rng import SplitMix64, seed_from
from ..scoring import score
from ..solver import solve_cards
from .knowledge import Knowledge, fits_announcements
from .inference import reads_calls, sample_weighted
from .rollout import partner_rule, playout
from .world import sample_hands

#: Tuned by measurement (bench/bots_bench.py, `coinche arena`: docs/bots.md); fixed so that decisions replay.
PLAY_BUDGET = 6000
MIN_WORLDS = 12
MAX_WORLDS = 96
#: From this many cards left in the hands (the trick's cards not counted) down, each sampled world is solved
#: exactly instead of played out: chosen by measurement (bench/bots_bench.py) to keep the Expert's p95.
EXACT_CARDS = 12


def decision_rng(seed: int | str, know: Knowledge) -> Random:
    """The decision's generator: from the bot's seed and what it knows, nothing else."""
    return Random(SplitMix64(seed_from(seed) ^ seed_from(know.fingerprint())).next64())


def _belote_side(hands: list[int], trump: int, known: int) -> int | None:
    if known >= 0 or trump >= 4:  # no belote without a trump suit
        return known if known >= 0 else None
    both = (1 << (trump * 8 + Rank.KING)) | (1 << (trump * 8 + Rank.QUEEN))
    for s in range(4):
        if hands[s] & both == both:
            return s & 1
    return None


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


def play_worlds(candidates: int, cards_left: int, budget: int = PLAY_BUDGET) -> int:
    """How many worlds a card decision samples: ``budget`` cards played out in all (:data:`PLAY_BUDGET`), within
    :data:`MIN_WORLDS` .. :data:`MAX_WORLDS`; late in the deal, when playouts are short, more worlds.

    >>> play_worlds(8, 32), play_worlds(3, 16), play_worlds(3, 16, budget=3000), play_worlds(2, 4)
    (23, 96, 62, 96)
    """
    return max(MIN_WORLDS, min(MAX_WORLDS, budget // (candidates * cards_left)))


def choose_card(know: Knowledge, seed: int, worlds: int | None = None, exact: int = EXACT_CARDS,
                budget: int = PLAY_BUDGET) -> int:
    """The card to play: the best mean score difference over the sampled worlds (the lowest card on a tie)."""
    return best_card(evaluate_cards(know, seed, worlds, exact, budget))


def best_card(means: list[tuple[int, float]]) -> int:
    return means[max(range(len(means)), key=lambda i: (means[i][1], -i))][0]


def evaluate_cards(know: Knowledge, seed: int, worlds: int | None = None,
                   exact: int = EXACT_CARDS, budget: int = PLAY_BUDGET,
                   every: bool = False) -> list[tuple[int, float]]:
    """``(card, mean score difference for the side)`` for each distinct candidate card, in card order;
    a lone candidate is not searched (its mean is 0.0).  With at most ``exact`` cards left in the hands,
    each sampled world is solved double dummy (:mod:`coinche.solver`) instead of played out; ``budget``: see
    :func:`play_worlds`.  The candidates are the legal cards but the trumps the partner rule spares the seat
    (:func:`~coinche.bots.rollout.partner_rule`); ``every``: every legal card (the review prices each card a
    person may play)."""
    hand, trick, trump = know.hand, list(know.trick), know.trump
    legal = mask_of(know.legal) if every else partner_rule(hand, trick, trump, mask_of(know.legal))
    candidates = distinct_cards(legal, hand | mask_of(trick) | (know.gone or 0), trump)
    if len(candidates) == 1:
        return [(candidates[0], 0.0)]
    rng = decision_rng(seed, know)
    me, contract = know.seat, know.contract
    worlds = worlds or play_worlds(len(candidates), sum(know.counts), budget)
    side = me & 1
    decl_side = contract.declarer & 1
    table = mask_of(trick)
    pool = ALL_CARDS_MASK & ~hand & ~table & ~(know.gone or 0)
    need = tuple(0 if s == me else know.counts[s] for s in range(4))
    weighted = not know.rules.kind.turned_card and reads_calls(know.calls, me)
    values = POINTS[trump]
    tricks_left = know.counts[me]
    solved = sum(know.counts) <= exact
    announced = side_points(know.declared, trump)
    accept = None
    if know.told:
        told, played_by = know.told, know.played_by
        accept = lambda h: fits_announcements(h, told, played_by)  # noqa: E731
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        if weighted:
            hands = sample_weighted(rng, pool, need, know.calls, me, forbidden=know.forbidden, holds=know.holds,
                                    played=know.played_by, accept=accept)
        else:
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
        if solved:
            outcomes = solve_cards(hands, know.leader, trick, trump, won, tricks_won, candidates, contract, belote,
                                   rules=know.rules, announced=announced)
            for i, c in enumerate(candidates):
                totals[i] += outcomes[c].difference(side)
            continue
        for i, c in enumerate(candidates):
            h = list(hands)
            h[me] ^= 1 << c
            points, tricks = playout(h, know.leader, trick + [c], trump, decl_side, list(won), list(tricks_won),
                                     know.rules.undertrump)
            s = score(know.rules, contract, (points[0], points[1]), belote, (tricks[0], tricks[1]), announced).scores
            totals[i] += s[side] - s[1 - side]
    return [(c, totals[i] / worlds) for i, c in enumerate(candidates)]


__all__ = ["best_card", "choose_card", "evaluate_cards", "distinct_cards", "play_worlds"]
