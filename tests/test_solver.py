"""The double-dummy solver (coinche.solver): against a naive full-tree search on small endings, and by
properties (the 162 points, the best card's value reached by the best reply, the seats and suits' symmetry)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from coinche import Deal
from coinche.cards import SUIT_LETTERS, Card, card_name, cards_of, mask_of, parse_cards
from coinche.scoring import Contract
from coinche.rules import Rules
from coinche.solver import outcome_score, searcher, solve, solve_beats, solve_best, solve_cards, solve_choice
import naive_solver

BIDS = ("80", "100", "120", "140", "160", "capot")


def ending(seed: int, variant: str, left: int) -> Deal:
    """A deal with a random contract, played by random legal cards until ``left`` cards are in the hands."""
    rng = random.Random(seed)
    deal = Deal.new(variant, rng.randrange(4), seed)
    suit = SUIT_LETTERS[rng.randrange(4)]
    if variant == "classic":
        first = deal.turned >> 3
        calls = [f"take{SUIT_LETTERS[first]}"] if rng.random() < 0.5 else \
            ["pass"] * 4 + [f"take{SUIT_LETTERS[(first + 1) % 4]}"]
    else:
        calls = [rng.choice(BIDS) + suit] + (["coinche", "pass", "pass"] if rng.random() < 0.3 else ["pass"] * 3)
    for call in calls:
        deal.apply(call)
    while 32 - len(deal.plays) > left:
        deal.play(rng.choice(deal.legal_cards()))
    return deal


def naive_values(deal: Deal, leaf) -> dict[str, int]:
    hands = [{card_name(c) for c in cards_of(h)} for h in deal.hands]
    return naive_solver.each_card(hands, deal.leader, [card_name(c) for c in deal.trick], SUIT_LETTERS[deal.trump],
                                  tuple(deal.cards_won), tuple(deal.tricks_won), leaf)


def score_leaf(deal: Deal):
    c = deal.contract
    belote = (deal.belote_seat & 1) if deal.belote_seat >= 0 else None
    return naive_solver.score_leaf(deal.variant, c.side, c.value, c.multiplier, belote)


positions = st.builds(ending, st.integers(0, 10**9), st.sampled_from(("coinche", "classic")), st.integers(1, 12))


@settings(max_examples=80)
@given(positions)
def test_the_solver_agrees_with_a_naive_full_search(deal):
    solved = {str(card): o for card, o in solve(deal).items()}
    assert set(solved) == {str(c) for c in deal.legal_cards()}
    points = naive_values(deal, naive_solver.points_leaf)
    scores = naive_values(deal, score_leaf(deal))
    for card, outcome in solved.items():
        assert outcome.points[0] == points[card], (card, outcome)
        assert outcome.difference(0) == scores[card], (card, outcome)


def test_capots_are_found_and_scored():
    found = 0
    for seed in range(400):
        deal = ending(seed, "classic" if seed & 1 else "coinche", 6)
        if deal.tricks_won[0] and deal.tricks_won[1]:
            continue
        scores = naive_values(deal, score_leaf(deal))
        for card, outcome in solve(deal).items():
            assert outcome.difference(0) == scores[str(card)]
            found += outcome.capot is not None
    assert found > 10


@settings(max_examples=40)
@given(st.integers(0, 10**9), st.sampled_from(("coinche", "classic")), st.integers(12, 20))
def test_every_card_ends_with_162_points_and_the_best_is_what_the_best_reply_leaves(seed, variant, left):
    deal = ending(seed, variant, left)
    solved = solve(deal)
    mover = deal.turn & 1
    best = max(solved.values(), key=lambda o: o.rank if mover == 0 else -o.rank)
    for outcome in solved.values():
        assert sum(outcome.points) == 162
        assert (outcome.rank <= best.rank) if mover == 0 else (outcome.rank >= best.rank)
    # the value of a card is the value of the best answer to it
    after = deal.clone()
    after.play(best.card)
    replies = solve(after)
    reply_side = after.turn & 1
    answer = max(replies.values(), key=lambda o: o.rank if reply_side == 0 else -o.rank)
    assert answer.points == best.points and answer.capot == best.capot


def rotated(deal: Deal, shift: int) -> tuple:
    """The same position with every seat moved ``shift`` places (``shift`` odd swaps the sides)."""
    hands = [deal.hands[(s - shift) & 3] for s in range(4)]
    won, tricks = deal.cards_won, deal.tricks_won
    if shift & 1:
        won, tricks = won[::-1], tricks[::-1]
    return hands, (deal.leader + shift) & 3, list(deal.trick), deal.trump, won, tricks


def relabelled(deal: Deal, perm: list[int]) -> tuple:
    """The same position with the suits renamed by ``perm``."""
    def move(card: int) -> int:
        return perm[card >> 3] * 8 + (card & 7)

    hands = [sum(1 << move(c) for c in cards_of(h)) for h in deal.hands]
    return hands, deal.leader, [move(c) for c in deal.trick], perm[deal.trump], deal.cards_won, deal.tricks_won


@settings(max_examples=40)
@given(st.integers(0, 10**9), st.sampled_from(("coinche", "classic")), st.integers(8, 16),
       st.permutations(range(4)))
def test_results_are_symmetric_in_seats_and_suits(seed, variant, left, perm):
    deal = ending(seed, variant, left)
    base = solve_cards(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won, deal.tricks_won)
    swapped = solve_cards(*rotated(deal, 1))
    assert {c: o.points[::-1] for c, o in base.items()} == {c: o.points for c, o in swapped.items()}
    same_side = solve_cards(*rotated(deal, 2))
    assert {c: o.points for c, o in base.items()} == {c: o.points for c, o in same_side.items()}
    renamed = solve_cards(*relabelled(deal, perm))
    assert {perm[c >> 3] * 8 + (c & 7): o.points for c, o in base.items()} == {c: o.points for c, o in renamed.items()}


def test_a_worked_ending_where_the_ace_led_first_is_ruffed():
    # Hearts trump, two tricks left, South (0) to lead.  The jack of trump first draws the 9 and keeps the
    # ace of spades master: 69 points.  The ace first is ruffed by the 9 (West holds no spade), the ten of
    # spades falls under it, and South's jack takes only the last trick: 34.
    hands = [mask_of(parse_cards(text)) for text in ("As,Jh", "9h,Kc", "7s,8s", "7h,Ts")]
    contract = Contract("coinche", declarer=0, suit=1, value=100)
    solved = solve_cards(hands, 0, [], 1, won=(60, 33), tricks_won=(4, 2), contract=contract)
    jack, ace = solved[Card.parse("Jh")], solved[Card.parse("As")]
    assert (jack.points, jack.capot, jack.score.scores) == ((129, 33), None, (229, 33))
    assert (ace.points, ace.score.scores) == ((94, 68), (0, 262))
    capot = solve_cards(hands, 0, [], 1, won=(93, 0), tricks_won=(6, 0), contract=contract)[Card.parse("Jh")]
    assert (capot.points, capot.capot) == ((162, 0), 0)



def test_the_tables_rules_score_an_outcome_not_the_contracts_display_name():
    # The worked ending above: the same contract, named classic or coinche, scores by the rules given.
    hands = [mask_of(parse_cards(text)) for text in ("As,Jh", "9h,Kc", "7s,8s", "7h,Ts")]
    scores = {}
    for name in ("coinche", "classic"):
        contract = Contract(name, declarer=0, suit=1, value=100 if name == "coinche" else 0)
        for rules in (Rules(), Rules.parse("down=160")):
            ace = solve_cards(hands, 0, [], 1, won=(60, 33), tricks_won=(4, 2), contract=contract,
                              rules=rules)[Card.parse("As")]
            assert ace.score == outcome_score(rules, contract, ace.points, ace.capot, None)
            scores[name, rules.down] = ace.score.scores
    assert scores["coinche", "162bid"] == (0, 262)
    assert scores["coinche", "162bid"] != scores["coinche", "160"]

@settings(max_examples=30)
@given(st.integers(0, 10**9), st.sampled_from(("coinche", "classic")), st.integers(4, 16))
def test_a_choice_is_solved_as_every_card_is_with_a_table_kept_along_the_deal(seed, variant, left):
    deal = ending(seed, variant, left)
    belote = (deal.belote_seat & 1) if deal.belote_seat >= 0 else None
    kept = searcher(deal.trump, deal.rules)
    while not deal.is_over:
        every = solve(deal)
        side = deal.turn & 1
        played = random.Random(seed + len(deal.plays)).choice(deal.legal_cards())
        mine, best = solve_choice(deal.hands, deal.leader, deal.trick, deal.trump, played, deal.cards_won,
                                  deal.tricks_won, deal.contract, belote, kept, deal.rules)
        assert mine == every[played]
        ranks = [o.rank for o in every.values()]
        assert best.rank == (max(ranks) if side == 0 else min(ranks))
        assert every[best.card].rank == best.rank
        deal.play(played)




@settings(max_examples=30)
@given(st.integers(0, 10**9), st.sampled_from(("coinche", "classic")), st.integers(4, 16), st.integers(-30, 30),
       st.booleans())
def test_the_value_and_the_null_window_test_agree_with_every_card_solved(seed, variant, left, offset, kept):
    """solve_best is the best card's outcome for the side to play; solve_beats(target) says whether that side's
    best exceeds target, for either side asking, near the value and away from it, with a table kept or not."""
    deal = ending(seed, variant, left)
    belote = (deal.belote_seat & 1) if deal.belote_seat >= 0 else None
    every = solve(deal)
    to_play = deal.turn & 1
    value = max(o.difference(to_play) for o in every.values())
    search = searcher(deal.trump, deal.rules) if kept else None
    best = solve_best(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won, deal.tricks_won,
                      deal.contract, belote, search, deal.rules)
    assert best.difference(to_play) == value and every[best.card].difference(to_play) == value
    for side in (0, 1):
        mine = value if side == to_play else -value
        for target in (mine + offset, mine, mine - 1):
            assert solve_beats(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won, deal.tricks_won,
                               deal.contract, belote, side, target, search, deal.rules) == (mine > target)


@settings(max_examples=20)
@given(st.integers(0, 10**9), st.integers(8, 16))
def test_a_search_kept_for_other_hands_gives_what_a_new_one_gives(seed, left):
    # The table is keyed by the cards left, which names a position only while each card stays in one hand:
    # the same cards dealt otherwise (the seats turned) start a new table.
    deal = ending(seed, "coinche", left)
    kept = searcher(deal.trump, deal.rules)
    for shift in (0, 1, 2):
        position = rotated(deal, shift)
        assert solve_cards(*position, search=kept) == solve_cards(*position)
