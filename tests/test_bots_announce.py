"""What the bots make of announcements (house rule ``announce=yes``, issue 33): every sampled world puts each
announced card not yet played with its holder, at every level, on every sampling path (weighted by the auction
or not, played out or solved exactly, the fallback when the constraints cannot all be met), from the end of
the first trick and not before; and what a seat did not declare limits its hand (a bot declares all it holds).
``announced=False`` (the lab's ``expert-blind``) knows none of it."""

from __future__ import annotations

from random import Random

import pytest

from coinche.announce import held
from coinche.bots import make_bot, remember
from coinche.bots import search
from coinche.bots.knowledge import fits_announcements
from coinche.bots.world import sample_hands
from coinche.deal import Deal
from coinche.rules import Rules

RULES = Rules.parse("contracts=all,announce=yes")
CLASSIC = Rules.parse("variant=classic,announce=yes")


def announced_deal(rules: Rules, seed: int, count: int = 2) -> Deal:
    """The first deal from ``seed`` on where ``count`` seats hold an announcement, its auction over."""
    for s in range(seed, seed + 2000):
        deal = Deal.new(rules, dealer=s & 3, seed=s)
        if sum(bool(held(h)) for h in deal.hands) < count:
            continue
        bots = [make_bot("easy", seed=s * 4 + i) for i in range(4)]
        while deal.phase.name == "AUCTION":
            deal.apply(bots[deal.turn].act(deal.view(deal.turn)))
        if deal.contract is not None:
            return deal
    raise AssertionError("no such deal")


def play_on(deal: Deal, cards: int) -> Deal:
    """Play ``cards`` cards, each seat declaring all it holds at its first."""
    for _ in range(cards):
        if deal.may_declare:
            deal.declare(deal.view(deal.turn).announceable)
        deal.play(deal.legal_cards()[0])
    return deal


def worlds_of(monkeypatch, know, exact: int = search.EXACT_CARDS) -> list[list[int]]:
    """The hidden hands of every world the card search samples for ``know`` (on the real path)."""
    seen = []
    real_playout, real_solve = search.playout, search.solve_cards

    def playout(hands, leader, trick, *args, **kwargs):
        seen.append([know.hand if s == know.seat else h for s, h in enumerate(hands)])
        return real_playout(hands, leader, trick, *args, **kwargs)

    def solve_cards(hands, *args, **kwargs):
        seen.append(list(hands))
        return real_solve(hands, *args, **kwargs)

    monkeypatch.setattr(search, "playout", playout)
    monkeypatch.setattr(search, "solve_cards", solve_cards)
    search.evaluate_cards(know, seed=7, worlds=24, exact=exact)
    return seen


def announced_left(deal: Deal, seat: int) -> dict[int, int]:
    played = deal.view(seat).played_mask
    out = {}
    for s, a in deal.declared:
        if s != seat:
            out[s] = out.get(s, 0) | a.mask & ~played
    return out


@pytest.mark.parametrize("level", ["easy", "normal", "expert"])
@pytest.mark.parametrize("rules,cards", [(RULES, 4), (RULES, 6), (RULES, 13), (RULES, 22), (CLASSIC, 5)])
def test_every_world_puts_each_announced_card_with_its_holder(monkeypatch, level, rules, cards):
    """After the first trick (4 cards), in the playouts and in the worlds solved exactly (22 cards played:
    10 left), weighted by the auction (coinche) and not (the classic)."""
    deal = play_on(announced_deal(rules, seed=40 + cards), cards)
    worlds = []
    while not worlds:  # a seat with a card to choose
        seat = deal.turn
        know = remember(deal.view(seat), level)
        worlds = worlds_of(monkeypatch, know)
        if not worlds:
            play_on(deal, 1)
    left = announced_left(deal, seat)
    assert any(left.values())
    for hands in worlds:
        for s, mask in left.items():
            assert hands[s] & mask == mask, (s, hands)
    # what the seats declared limits their hands: the worlds fit it (as the real deal does)
    assert know.told[seat] is None and all(know.told[s] is not None for s in range(4) if s != seat)
    fit = sum(fits_announcements(h, know.told, know.played_by) for h in worlds)
    assert fit >= len(worlds) * 0.9
    blind = remember(deal.view(seat), level, announced=False)
    assert not blind.told and blind.holds == remember(deal.view(seat), level, announced=False).holds
    assert blind.fingerprint() != know.fingerprint()
    cards = remember(deal.view(seat), level, announced="cards")  # the lab's expert-cards: the cards alone
    assert not cards.told and cards.holds == know.holds
    assert cards.forbidden == tuple(f & ~know.holds[s] for s, f in enumerate(blind.forbidden))


def test_the_knowledge_comes_at_the_end_of_the_first_trick_and_not_before():
    deal = announced_deal(RULES, seed=5, count=3)
    for i in range(4):
        seat = deal.turn
        for level in ("easy", "normal", "expert"):
            know = remember(deal.view(seat), level)
            assert know == remember(deal.view(seat), level, announced=False)
            assert not know.told and all(s == seat for s, _ in know.declared)
        play_on(deal, 1)
    assert len(deal.declared) >= 3
    for seat in range(4):
        know = remember(deal.view(seat), "easy")
        assert know.told and len(know.declared) == len(deal.declared)
        for s, mask in announced_left(deal, seat).items():
            assert know.holds[s] & mask == mask


def test_what_a_seat_did_not_declare_is_known_not_held():
    """A declared sequence is the whole run: the card above and below it are not in its holder's hand; a seat
    that declared nothing holds no run of three and no carré (the deal's real hands fit, and the worlds
    sampled do)."""
    deal = play_on(announced_deal(RULES, seed=300, count=2), 4)
    seat = deal.turn
    know = remember(deal.view(seat), "expert")
    dealt = [deal.hands[s] | know.played_by[s] for s in range(4)]
    assert fits_announcements(dealt, know.told, know.played_by)
    for s, a in deal.declared:
        if s != seat and not a.is_carre:
            below = a.top - a.length
            assert below < 0 or know.forbidden[s] >> (a.suit * 8 + below) & 1 or deal.view(seat).played_mask >> (a.suit * 8 + below) & 1
    silent = [s for s in range(4) if s != seat and not any(d == s for d, _ in deal.declared)]
    assert silent
    # a hand with a tierce for a silent seat does not fit; nor a carré
    hands = list(deal.hands)
    for s in silent:
        runs, carres = know.told[s]
        assert (runs, carres) == (0, 0)
        assert not fits_announcements([7 << 8 if x == s else 0 for x in range(4)], know.told, (0, 0, 0, 0))
        assert not fits_announcements([0x01010101 << 4 if x == s else 0 for x in range(4)], know.told, (0, 0, 0, 0))
    assert fits_announcements(hands, know.told, know.played_by)


def test_a_world_that_cannot_meet_the_voids_keeps_the_announced_cards():
    """The fallback drops the inferred voids, never the cards known held."""
    pool = (1 << 24) - 1
    holds = (0, 0b111 << 8, 0, 0)
    forbidden = (pool, pool, pool, 0)  # impossible: the voids are dropped
    for seed in range(20):
        hands = sample_hands(Random(seed), pool, (8, 8, 8, 0), forbidden, holds)
        assert hands[1] & holds[1] == holds[1]
        assert [h.bit_count() for h in hands] == [8, 8, 8, 0]


def test_the_own_rules_knowledge_has_no_announcements():
    deal = Deal.new("coinche", dealer=0, seed=3)
    for call in ("90h", "pass", "pass", "pass"):
        deal.apply(call)
    play_on(deal, 5)
    know = remember(deal.view(deal.turn), "expert")
    assert know.told == () and know.declared == ()
    assert know.fingerprint() == repr(tuple(getattr(know, n) for n in type(know).__slots__[1:]
                                            if n not in ("rules", "declared", "told")))


def test_the_arena_reports_the_deals_with_an_announcement_apart():
    from coinche_lab.arena import format_result, run_arena

    result = run_arena("baseline", "baseline", deals=6, seed=1, variant=RULES)
    assert 1 <= result["announced"]["deals"] < 6 and result["announced"]["mean"] == 0.0
    assert "deals with an announcement: +0.0" in format_result(result)
    assert "announced" not in run_arena("baseline", "baseline", deals=2, seed=1)
