"""The bots: legal, blind to hidden cards, keeping the partner rule, replayable, and the Easy bot forgets."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinche.bots import ALL_LEVELS, BASELINES, LEVELS, make_bot
from coinche.bots.knowledge import remember
from coinche.bots.world import sample_hands
from coinche.calls import PASS, Call
from coinche.cards import SUIT_MASK, Suit, cards_of, mask_of, parse_cards
from coinche.deal import Deal, Phase
from coinche.record import deal_to_record
from coinche.rng import SplitMix64, derive_seed

COACH_KEYS = {"coach_bid", "coach_take", "coach_pass", "coach_coinche", "coach_surcoinche", "coach_forced"}


#: Every level, the frozen baselines (the lab's yardsticks, which no player meets) in the full tier only:
#: ``expert-blind`` plays exactly as the Expert unless ``announce=yes``, the other two are older Experts.
EVERY_LEVEL = [pytest.param(level, marks=pytest.mark.full_only if level in BASELINES else ())
               for level in ALL_LEVELS]


def play(deal: Deal, bots, check=None) -> Deal:
    while deal.phase != Phase.OVER:
        view = deal.view(deal.turn)
        action = bots[deal.turn].act(view)
        assert action in view.legal
        if check is not None:
            check(deal, view, action)
        deal.apply(action)
    return deal


def deck_for(hands: list[str], dealer: int) -> list[int]:
    """The coinche deck (packets 3-2-3 from the seat after the dealer) that deals these hands."""
    cards = [parse_cards(h) for h in hands]
    deck = []
    taken = [0, 0, 0, 0]
    for size in (3, 2, 3):
        for i in range(4):
            seat = (dealer + 1 + i) & 3
            deck += cards[seat][taken[seat]:taken[seat] + size]
            taken[seat] += size
    return deck


@pytest.mark.parametrize("level", EVERY_LEVEL)
@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_bots_only_play_legal_actions(level, variant):
    for i in range(3):
        deal = Deal.new(variant, i & 3, derive_seed("legal", i))
        play(deal, [make_bot(level, seed=s) for s in range(4)])
        assert deal.is_over


def _shuffle_hidden(deal: Deal, seat: int, seed: int) -> Deal:
    """The same deal for ``seat``'s eyes: the other seats' unplayed cards dealt again, counts kept."""
    other = deal.clone()
    seats = [s for s in range(4) if s != seat]
    pool = []
    for s in seats:
        pool += cards_of(deal.hands[s])
    SplitMix64(seed).shuffle(pool)
    for s in seats:
        n = deal.hands[s].bit_count()
        other.hands[s], pool = mask_of(pool[:n]), pool[n:]
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_bots_never_read_hidden_cards(level):
    checked = 0
    for i in range(2):
        deal = Deal.new("coinche", i & 3, derive_seed("blind", i))
        bots = [make_bot(level, seed=s) for s in range(4)]

        def check(deal, view, action):
            nonlocal checked
            if deal.phase == Phase.PLAY and len(view.legal) < 2:
                return
            twin = _shuffle_hidden(deal, deal.turn, checked)
            twin_view = twin.view(deal.turn)
            assert remember(twin_view, level) == remember(view, level)
            assert bots[deal.turn].act(twin_view) == action
            checked += 1

        play(deal, bots, check)
    assert checked > 10


def _partner_master_position(hand0: str) -> Deal:
    """Trump hearts; seat 1 leads 7s, seat 2 (partner of seat 0) wins with As, seat 3 plays 8s; seat 0 to play."""
    hands = [hand0, "7s,Kc,Qc,Jc,9c,8c,7c,Ac", "As,Ks,Qs,Js,9s,Tc,7d,8d", "8s,Ts,Kd,Qd,Jd,9d,Td,Ad"]
    used = mask_of(c for h in hands for c in parse_cards(h))
    assert used.bit_count() == 32
    deal = Deal("coinche", 0, deck_for(hands, dealer=0))
    for call in ("80h", "pass", "pass", "pass"):
        deal.apply(call)
    for card in ("7s", "As", "8s"):
        deal.apply(card)
    assert deal.turn == 0
    return deal


@pytest.mark.parametrize("level", EVERY_LEVEL)
@pytest.mark.parametrize("seed", range(4))
def test_bots_do_not_trump_a_trick_the_partner_wins(level, seed):
    # one card outside trump: rule 3 leaves the bot free, and it leaves its trumps alone
    deal = _partner_master_position_with_club(seed)
    assert deal.ruling().rule == 3 and deal.legal_mask() == deal.hands[0]
    assert str(make_bot(level, seed).act(deal.view(0))) == "Tc"
    # nothing but trumps: any trump will do
    deal = _partner_master_position("Jh,9h,Ah,Th,Kh,Qh,8h,7h")
    assert make_bot(level, seed).act(deal.view(0)) >> 3 == Suit.HEARTS


def _partner_master_position_with_club(seed: int) -> Deal:
    hands = ["Jh,9h,Ah,Th,Kh,Qh,8h,Tc", "7s,Kc,Qc,Jc,9c,8c,7c,Ac", "As,Ks,Qs,Js,9s,7h,7d,8d",
             "8s,Ts,Kd,Qd,Jd,9d,Td,Ad"]
    deal = Deal("coinche", 0, deck_for(hands, dealer=0))
    for call in ("80h", "pass", "pass", "pass"):
        deal.apply(call)
    for card in ("7s", "As", "8s"):
        deal.apply(card)
    return deal


@pytest.mark.parametrize("level", EVERY_LEVEL)
def test_bots_keep_the_partner_rule_in_play(level):
    """Over whole deals: whenever rule 3 frees a bot holding a non-trump, it does not trump."""
    seen = 0

    def check(deal, view, action):
        nonlocal seen
        ruling = view.ruling() if view.phase == "play" else None
        # rule 3 frees the player (partner winning) when it forbids nothing (docs/rules.md, "Which card may be
        # played", its table)
        if ruling is not None and ruling.rule == 3 and not ruling.forbidden and view.trick[0] >> 3 != view.trump:
            hand = view.hand_mask
            if hand & ~SUIT_MASK[view.trump]:
                assert action >> 3 != view.trump
                seen += 1

    for i in range(6):
        play(Deal.new("coinche", i & 3, derive_seed("partner", i)), [make_bot(level, seed=s) for s in range(4)],
             check)
    assert seen > 0


@pytest.mark.parametrize("level", EVERY_LEVEL)
def test_same_seed_same_decisions(level):
    records = []
    for _ in range(2):
        deal = Deal.new("coinche", 1, derive_seed("replay", 0))
        records.append(deal_to_record(play(deal, [make_bot(level, seed=10 + s) for s in range(4)])))
    assert records[0] == records[1]


def test_easy_forgets_earlier_tricks():
    """Two views that differ only in the earlier tricks (and the points they won) give Easy the same
    knowledge and the same card; Normal, which remembers the cards gone, tells them apart."""
    deal = Deal.new("coinche", 0, derive_seed("forget", 3))
    bots = [make_bot("easy", seed=s) for s in range(4)]
    while deal.phase == Phase.AUCTION or len(deal.tricks) < 3:
        deal.apply(bots[deal.turn].act(deal.view(deal.turn)))
    view = deal.view(deal.turn)
    first_leader, first_cards, first_winner = view.tricks[0]
    second_leader, second_cards, second_winner = view.tricks[1]
    altered = dataclasses.replace(
        view,
        tricks=((second_leader, second_cards, second_winner), (first_leader, first_cards[::-1], 3 - first_winner))
        + view.tricks[2:],
        cards_won=(view.cards_won[1], view.cards_won[0]),
        tricks_won=(view.tricks_won[1], view.tricks_won[0]),
        announcements=(),
    )
    assert remember(altered, "easy") == remember(view, "easy")
    assert remember(altered, "expert") != remember(view, "expert")
    for seed in range(3):
        assert make_bot("easy", seed).act(altered) == make_bot("easy", seed).act(view)
    # forgetting the cards gone: a different set of earlier tricks, the same Easy knowledge
    other = dataclasses.replace(view, tricks=view.tricks[:1])
    assert remember(other, "easy") == remember(view, "easy")
    assert remember(other, "normal") != remember(view, "normal")


def test_expert_reads_voids_and_missing_trumps():
    deal = _partner_master_position_with_club(0)
    deal.apply("Tc")  # seat 0, free under rule 3
    view = deal.view(2)
    know = remember(view, "expert")
    # seat 0 showed no spade; seat 3 followed spades
    assert know.forbidden[0] & SUIT_MASK[Suit.SPADES] == SUIT_MASK[Suit.SPADES]
    assert know.forbidden[3] & SUIT_MASK[Suit.SPADES] == 0
    assert remember(view, "normal").forbidden == (0, 0, 0, 0)


@given(st.integers(0, 2**32), st.integers(0, 3))
def test_sampled_hands_respect_constraints(seed, void_suit):
    forbidden = (SUIT_MASK[void_suit], 0, 0, 0)
    holds = (0, 1 << (8 * ((void_suit + 1) & 3)), 0, 0)  # a seven of another suit
    pool = ((1 << 32) - 1) & ~mask_of(parse_cards("As,Ks,Ah,Kh,Ad,Kd,Ac,Kc"))
    hands = sample_hands(Random(seed), pool, (8, 8, 8, 0), forbidden, holds)
    assert [h.bit_count() for h in hands] == [8, 8, 8, 0]
    assert hands[0] | hands[1] | hands[2] == pool
    assert hands[0] & SUIT_MASK[void_suit] == 0
    assert hands[1] & holds[1]


@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_coach_explains_calls(variant):
    bot = make_bot("normal", seed=1)
    deal = Deal.new(variant, 0, derive_seed("coach", 0))
    while deal.phase == Phase.AUCTION:
        view = deal.view(deal.turn)
        call, key, params = bot.explain_call(view)
        assert isinstance(call, Call) and call in view.legal
        assert key in COACH_KEYS
        if key in ("coach_bid", "coach_take"):
            assert params["call"] == str(call) and set(params["expected"]) <= set("shdc")
        deal.apply(call)
    with pytest.raises(ValueError):
        bot.explain_call(deal.view(0))


def test_baseline_plays_its_highest_card_and_bids_on_a_threshold():
    deal = _partner_master_position_with_club(0)
    view = deal.view(0)
    # partner wins: rule 3, the baseline keeps the partner rule: the club ten, not a trump
    assert str(make_bot("baseline").act(view)) == "Tc"
    deal = Deal.new("coinche", 0, derive_seed("coach", 0))
    assert make_bot("baseline").act(deal.view(1)) in (PASS, *deal.legal_calls())


def test_every_level_bids_alike():
    """The auction so far is on the table for every level: the same knowledge, the same call."""
    for i in range(3):
        deal = Deal.new("coinche", i & 3, derive_seed("alike", i))
        while deal.phase == Phase.AUCTION:
            view = deal.view(deal.turn)
            knows = [remember(view, level) for level in LEVELS]
            assert knows[0].fingerprint() == knows[1].fingerprint() == knows[2].fingerprint()
            calls = {make_bot(level, seed=i).act(view) for level in LEVELS}
            assert len(calls) == 1
            deal.apply(calls.pop())


def test_arena_memo_changes_no_decision():
    from coinche_lab.arena import play_duplicate, play_table

    result = play_duplicate(("normal", "easy", "coinche", "memo", 1))
    seeds = [derive_seed("memo", 1_000_000 + s) for s in range(4)]
    diff = 0
    for a_side in (0, 1):
        players = [make_bot("normal" if (s & 1) == a_side else "easy", seed=seeds[s]) for s in range(4)]
        scores = play_table("coinche", 1, derive_seed("memo", 1), players).scores
        diff += scores[a_side] - scores[1 - a_side]
    assert result["diff"] == diff / 2


def test_card_coach_names_the_card_played():
    explained = 0
    for i in range(6):
        deal = Deal.new("coinche", 2, derive_seed("card coach", i))
        bots = [make_bot("normal", seed=s) for s in range(4)]
        while deal.phase != Phase.OVER:
            view = deal.view(deal.turn)
            action = bots[deal.turn].act(view)
            if view.phase == "play":
                card, key, params = bots[deal.turn].explain_card(view)
                assert card == action and key == "coach_card" and params["card"] == str(card)
                if params["expected"]:
                    assert params["expected"][str(card)] == max(params["expected"].values())
                    explained += 1
            deal.apply(action)
        if explained > 3:
            break
    assert explained > 3


def test_auction_shifts_move_points_between_sides():
    """The auction's pessimism: our contract's rows lose DECLARER_SHIFT points to the defence; a coinche
    is weighed with the opponents' rows shifted towards their declarer (a negative shift)."""
    from coinche.bots.auction import Outcomes
    from coinche.scoring import Contract

    ours = Outcomes(0, 24)
    ours.add([100, 62], [5, 3], None)
    assert ours.rows[0][0] == (76, 86)
    theirs = Outcomes(1)
    theirs.add([90, 72], [5, 3], None)
    wary = theirs.shifted(-16)
    assert wary.rows[0][0] == (74, 88)
    contract = Contract("coinche", 1, 0, 80, 2)
    assert theirs.made_chance(contract) == 0 and wary.made_chance(contract) == 100


def test_evaluate_calls_prices_every_legal_call_and_act_chooses_among_them():
    from coinche.bots import CallValue

    deal = Deal.new("coinche", 1, derive_seed("prices", 0))
    bots = [make_bot("normal", seed=s) for s in range(4)]
    while deal.phase == Phase.AUCTION:
        view = deal.view(deal.turn)
        values = bots[deal.turn].evaluate_calls(view)
        assert set(values) == set(view.legal)
        assert all(isinstance(v, CallValue) and (v.make_chance is None or 0 <= v.make_chance <= 100)
                   for v in values.values())
        call = bots[deal.turn].act(view)
        assert call in values and bots[deal.turn].explain_call(view)[0] == call
        deal.apply(call)


def test_the_frozen_baselines_keep_their_search_while_the_expert_moves_on():
    """``expert-v1`` (never exact, 3,000 cards played out) and ``expert-v2`` (exact from 12 cards, 3,000) stay
    what docs/bots.md measured, whatever today's Expert uses; the budget reaches the number of sampled deals."""
    from coinche.bots.search import EXACT_CARDS, PLAY_BUDGET, play_worlds

    assert [(b.level, b.exact, b.budget) for b in map(make_bot, ("expert-v1", "expert-v2"))] == [
        ("expert", 0, 3000), ("expert", 12, 3000)]
    today = make_bot("expert")
    assert (today.exact, today.budget) == (EXACT_CARDS, PLAY_BUDGET) == (12, 6000)
    assert play_worlds(3, 20, budget=3000) == 50 and play_worlds(3, 20, budget=6000) == 96
