"""Properties of the engine, checked by hypothesis on random positions, deals and texts."""

from __future__ import annotations

import copy
import hashlib
import json
import random

import pytest
from hypothesis import assume, given, strategies as st

from coinche import (BIDS, CARDS, COINCHE, PASS, SURCOINCHE, TAKES, Call, Card, Deal, IllegalActionError,
                     InvalidPositionError, NotationError, OutOfTurnError, Phase, Position, RecordError,
                     deal_to_record, legal_mask, replay, rule_position)
from coinche.calls import CallKind
from coinche.cards import POINTS
from coinche.record import check
from coinche.rng import SplitMix64, derive_seed, seed_from, shuffled_deck

import naive
from helpers import NAMES, play_random_deal, random_action

VARIANTS = st.sampled_from(["coinche", "classic"])
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@st.composite
def positions(draw):
    """A random position: a trump, 0 to 3 cards on the table, 1 to 8 other cards in hand."""
    cards = draw(st.permutations(range(32)))
    n_trick = draw(st.integers(0, 3))
    n_hand = draw(st.integers(1, 8))
    return Position.of(draw(st.integers(0, 3)), cards[:n_trick], cards[n_trick:n_trick + n_hand])


def mask(cards) -> int:
    return sum(1 << c for c in cards)


def played_deal(variant: str, seed: int, played_only: bool = False) -> Deal:
    deal = play_random_deal(variant, seed)
    if played_only:
        assume(not deal.void)
    return deal


# ---------------------------------------------------------------- points and legal sets
@given(VARIANTS, SEEDS)
def test_a_played_deal_is_worth_162(variant, seed):
    deal = played_deal(variant, seed, played_only=True)
    assert sum(deal.cards_won) == sum(deal.score.cards) == 162
    assert sum(deal.tricks_won) == 8 and len(deal.tricks) == 8
    # The same from the tricks themselves: each side's cards, plus 10 for the last trick.
    won = [0, 0]
    for _, cards, winner in deal.tricks:
        won[winner & 1] += sum(POINTS[deal.trump][c] for c in cards)
    won[deal.tricks[-1][2] & 1] += 10
    assert won == list(deal.cards_won)
    assert sorted(deal.plays) == list(range(32))


@given(positions())
def test_legal_set_is_never_empty_and_inside_the_hand(p):
    hand = mask(p.hand)
    ruling = rule_position(hand, p.trick, p.trump)
    assert ruling.legal and ruling.legal & ~hand == 0
    assert legal_mask(hand, p.trick, p.trump) == ruling.legal
    forbidden = mask(f.card for f in ruling.forbidden)
    assert forbidden | ruling.legal == hand and forbidden & ruling.legal == 0
    assert [f.card for f in ruling.forbidden] == sorted(f.card for f in ruling.forbidden)
    for f in ruling.forbidden:
        assert ruling.reason(f.card) is f and f.rule == RULE_OF_KEY[f.key]
    if ruling.rule in (0, 5):  # the leader, and rule 5 (no trump, or none high enough): nothing forbidden
        assert not ruling.forbidden


#: docs/rules.md, "Which card may be played": which rule a forbidden card is blamed on.
RULE_OF_KEY = {"must_follow": 1, "must_go_over": 2, "must_trump": 3, "must_overtrump": 4}


@given(VARIANTS, SEEDS)
def test_legal_actions_at_every_step_of_a_deal(variant, seed):
    def on_step(deal):
        actions = deal.legal_actions()
        assert actions and len(set(map(str, actions))) == len(actions)
        if deal.phase == Phase.PLAY:
            hand = deal.hands[deal.turn]
            assert deal.legal_mask() and deal.legal_mask() & ~hand == 0
            assert [int(c) for c in deal.legal_cards()] == [c for c in range(32) if deal.legal_mask() >> c & 1]
        else:
            assert PASS in actions

    play_random_deal(variant, seed, on_step=on_step)


# ---------------------------------------------------------------- views
def strings_in(value):
    """Every string of a JSON value, dictionary keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings_in(v)


def naive_standing(deal: Deal) -> dict | None:
    """The contract standing in the auction, as tests/naive.py reads the calls (None outside the auction)."""
    if deal.variant != "coinche" or deal.phase.name != "AUCTION":
        return None
    auction = naive.coinche_auction(deal.dealer, [str(call) for _, call in deal.calls])
    if auction.bid is None:
        return None
    return {"declarer": auction.declarer, "trump": auction.trump, "value": auction.bid, "multiplier": auction.multiplier}


def check_views(deal: Deal) -> None:
    public = {NAMES[deal.turned]} if deal.turned >= 0 else set()
    for seat in range(4):
        view = deal.view(seat)
        assert view.seat == seat
        assert [int(c) for c in view.hand] == [c for c in range(32) if deal.hands[seat] >> c & 1]
        assert view.hand_counts == tuple(bin(h).count("1") for h in deal.hands)
        if seat == deal.current_player:
            assert list(view.legal) == deal.legal_actions()
        else:
            assert view.legal == ()
        data = view.to_json()
        assert data["standing"] == naive_standing(deal), data["calls"]
        text = json.dumps(data)
        assert json.loads(text) == data
        seen = set(strings_in(data))
        for other in range(4):
            if other != seat:
                hidden = {NAMES[c] for c in range(32) if deal.hands[other] >> c & 1} - public
                assert not hidden & seen, f"seat {seat} sees {hidden & seen} of seat {other}"


@given(VARIANTS, SEEDS)
def test_a_view_never_holds_another_seats_hidden_cards(variant, seed):
    deal = play_random_deal(variant, seed, on_step=check_views)
    check_views(deal)


# ---------------------------------------------------------------- records
@given(VARIANTS, SEEDS)
def test_a_record_replays_to_the_same_record(variant, seed):
    deal = played_deal(variant, seed)
    record = deal_to_record(deal)
    assert deal_to_record(replay(record)) == record
    assert check(record).scores == deal.scores
    through_json = json.loads(json.dumps(record))
    assert through_json == record and deal_to_record(replay(through_json)) == record


def tampered(record, path, value):
    out = copy.deepcopy(record)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


@given(VARIANTS, SEEDS, st.data())
def test_check_rejects_a_tampered_record(variant, seed, data):
    deal = played_deal(variant, seed, played_only=True)
    record = deal_to_record(deal)
    a, b = record["result"]["scores"]
    delta = data.draw(st.integers(1, 500))
    for bad in (
        tampered(record, ("result", "scores"), [a + delta, b]),
        tampered(record, ("result", "scores"), [b, a]) if a != b else None,
        tampered(record, ("result", "made"), not record["result"]["made"]),
        tampered(record, ("result", "cards"), [record["result"]["cards"][1], record["result"]["cards"][0]])
        if record["result"]["cards"][0] != record["result"]["cards"][1] else None,
        tampered(record, ("hands",), record["hands"][1:] + record["hands"][:1]),
    ):
        if bad is not None:
            with pytest.raises(RecordError):
                check(bad)

    # Two cards of one trick swapped: each was played by a seat that does not hold it.
    k = data.draw(st.integers(0, 7)) * 4 + data.draw(st.integers(0, 2))
    plays = list(record["plays"])
    plays[k], plays[k + 1] = plays[k + 1], plays[k]
    with pytest.raises(RecordError, match=f"card {k + 1} "):
        check(tampered(record, ("plays",), plays))

    # A forbidden card instead of the one played, where the player had one.
    choices = []
    step = Deal(variant, deal.dealer, deal.deck)
    for _, call in deal.calls:
        step.apply(call)
    for k, card in enumerate(deal.plays):
        forbidden = [f.card for f in step.ruling().forbidden]
        if forbidden:
            choices.append((k, forbidden))
        step.apply(card)
    if choices:
        k, forbidden = data.draw(st.sampled_from(choices))
        plays = list(record["plays"])
        plays[k] = NAMES[data.draw(st.sampled_from(forbidden))]
        with pytest.raises(RecordError, match=f"card {k + 1} .*may not be played"):
            check(tampered(record, ("plays",), plays))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=6) | st.sampled_from(NAMES + ["pass", "80h"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


@given(VARIANTS, SEEDS, st.data())
def test_a_damaged_record_gives_a_record_error_and_nothing_else(variant, seed, data):
    record = deal_to_record(played_deal(variant, seed))
    key = data.draw(st.sampled_from(sorted(record) + ["result.scores", "calls.0", "plays.5", "deck.x"]))
    value = data.draw(JSON_VALUES)
    if key == "deck.x":
        bad = tampered(record, ("deck",), record["deck"].replace(",", ";", 1))
    elif "." in key:
        head, tail = key.split(".")
        container = copy.deepcopy(record[head] if head != "result" else record["result"])
        if isinstance(container, list) and int(tail) < len(container):
            container[int(tail)] = value
        bad = tampered(record, (head,), container)
    elif data.draw(st.booleans()):
        bad = {k: v for k, v in record.items() if k != key}
    else:
        bad = tampered(record, (key,), value)
    try:
        check(bad)
    except RecordError:
        pass


# ---------------------------------------------------------------- notation round trips
def test_cards_print_and_parse_back():
    assert [str(c) for c in CARDS] == [r + s for s in "shdc" for r in "789TJQKA"]
    for c in CARDS:
        assert Card.parse(str(c)) == c and int(c) == CARDS.index(c)
        assert eval(repr(c), {"Card": Card}) == c


def test_calls_print_and_parse_back():
    calls = [PASS, COINCHE, SURCOINCHE, *BIDS, *TAKES]
    assert len({str(c) for c in calls}) == len(calls) == 3 + 40 + 4
    for call in calls:
        assert Call.parse(str(call)) == call
        assert eval(repr(call), {"Call": Call}) == call
    assert [c.value for c in BIDS] == sorted(c.value for c in BIDS)


@given(positions())
def test_positions_print_and_parse_back(p):
    assert Position.parse(str(p)) == p
    assert Position.parse("#" + str(p)) == p  # as in the judge page's URL fragment


@pytest.mark.parametrize("text, error, key", [
    ("trump=h&trick=7s,8s,9s,Ts&hand=Jh", InvalidPositionError, "too_many_cards"),
    ("trump=h&hand=7s,8s,9s,Ts,Js,Qs,Ks,As,7h", InvalidPositionError, "too_many_cards"),
    ("trump=h&trick=Jh&hand=Jh", InvalidPositionError, "duplicate_card"),
    ("trump=h&hand=", InvalidPositionError, "too_few_cards"),
    ("trump=h&hand=10h", NotationError, "unknown_card"),
    ("trump=h&hand=jh", NotationError, "unknown_card"),
    ("trump=H&hand=Jh", NotationError, "unknown_trump"),
    ("trump=h", NotationError, "missing_field"),
    ("hand=Jh", NotationError, "missing_field"),
    ("trump=h&hand=Jh&seat=2", NotationError, "unknown_field"),
    ("trump=h&hand=Jh&hand=Kd", NotationError, "malformed_position"),
    ("trump", NotationError, "malformed_position"),
])
def test_invalid_positions_raise_precise_errors(text, error, key):
    with pytest.raises(error) as e:
        Position.parse(text)
    assert e.value.key == key and type(e.value) is error


@given(st.text(max_size=40))
def test_cards_and_calls_parse_or_raise_notation_error(text):
    for parse in (Card.parse, Call.parse):
        try:
            value = parse(text)
        except NotationError:
            continue
        assert parse(str(value)) == value


POSITION_ALPHABET = "trumphandick=&,#? shdc789TJQKA10xX\n\t"
POSITION_TOKENS = st.sampled_from(["trump=", "trick=", "hand=", "&", ",", "h", "s", "Jh", "7s", "As", "Td",
                                   "10h", "Xs", "=", "#", "?", " ", "trump=h&", "hand=Jh,Kd"])


@given(st.one_of(
    st.text(max_size=60),
    st.text(alphabet=POSITION_ALPHABET, max_size=60),
    st.lists(POSITION_TOKENS, max_size=14).map("".join),
))
def test_position_parse_fuzz_raises_only_notation_errors(text):
    try:
        p = Position.parse(text)
    except (NotationError, InvalidPositionError) as e:
        assert str(e) and e.key and e.to_json()["key"] == e.key
        return
    assert Position.parse(str(p)) == p
    p.ruling()


# ---------------------------------------------------------------- seeded randomness
def test_splitmix64_reference_values():
    rng = SplitMix64(0)
    assert [rng.next64(), rng.next64()] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    assert seed_from("") == 0xCBF29CE484222325 and seed_from("a") == 0xAF63DC4C8601EC8C  # FNV-1a
    assert seed_from(-1) == 2**64 - 1


def test_golden_shuffle():
    """The deck of seed 42 never changes: saved deals and links depend on it."""
    assert ",".join(NAMES[c] for c in shuffled_deck(42)) == (
        "9s,Kd,As,Ts,9h,8d,8h,Jd,8s,9c,Kh,7s,7d,Th,Tc,Qs,Jh,7c,Js,Qc,Ac,8c,Kc,Qh,7h,Ad,Ah,Ks,Td,9d,Jc,Qd")
    assert derive_seed("demo", 0) == 16119996340310518953 and derive_seed(7, 3) == 6044777548789956814


def test_golden_shuffles_of_many_seeds():
    digest = hashlib.sha256()
    for seed in [*range(200), "demo", "", "\u00e9"]:
        digest.update(bytes(shuffled_deck(seed)))
        digest.update(derive_seed(seed, 5).to_bytes(8, "big"))
    assert digest.hexdigest() == "a62b3db571e5c0af501ab06463f002dfe81d42f4cbae872ef577f1bc90707c18"


@given(st.one_of(SEEDS, st.text(max_size=10)), VARIANTS, st.integers(0, 3))
def test_seeded_shuffles_are_deterministic(seed, variant, dealer):
    deck = shuffled_deck(seed)
    assert sorted(deck) == list(range(32)) and shuffled_deck(seed) == deck
    a, b = Deal.new(variant, dealer, seed), Deal.new(variant, dealer, seed)
    assert a.deck == b.deck == tuple(deck) and a.hands == b.hands


@given(SEEDS)
def test_different_seeds_give_different_decks(seed):
    assert shuffled_deck(seed) != shuffled_deck(seed ^ 1) or shuffled_deck(seed) != shuffled_deck(seed + 2)


def test_matches_with_the_same_seed_are_the_same():
    from coinche import Match, Rules

    def run(seed):
        match = Match(Rules("coinche", 501), seed=seed)
        rng = random.Random(1)
        while not match.is_over:
            match.apply_unchecked(random_action(match.deal, rng))
        return match.history, match.totals

    assert run("same") == run("same")
    assert run("same")[0][0]["deck"] != run("other")[0][0]["deck"]


# ---------------------------------------------------------------- checked actions
def snapshot(deal: Deal):
    """Every attribute of the deal (their items are immutable: copying the lists is enough)."""
    return {name: tuple(v) if isinstance(v := getattr(deal, name), list) else v for name in Deal.__slots__}


def wrong_actions(deal: Deal, rng: random.Random):
    """Actions the rules refuse now, each with the message key the engine must give."""
    out = []
    if deal.is_over:
        return [(PASS, "deal_over"), (CARDS[0], "deal_over")]
    legal = deal.legal_actions()
    if deal.phase == Phase.AUCTION:
        all_calls = [PASS, COINCHE, SURCOINCHE, *BIDS, *TAKES]
        out += [(c, "illegal_call") for c in rng.sample(all_calls, 8) if c not in legal]
        out.append((CARDS[rng.randrange(32)], "wrong_phase"))
    else:
        hand = deal.hands[deal.turn]
        out += [(c, "card_not_in_hand") for c in CARDS if not hand >> c & 1][:3]
        out += [(f.card, "illegal_card") for f in deal.ruling().forbidden]
        out.append((rng.choice([PASS, BIDS[0]]), "wrong_phase"))
    return out


@given(VARIANTS, SEEDS)
def test_wrong_actions_raise_precise_errors_and_change_nothing(variant, seed):
    rng = random.Random(seed)

    def on_step(deal):
        before = snapshot(deal)
        for action, key in wrong_actions(deal, rng):
            with pytest.raises(IllegalActionError) as e:
                deal.apply(action, deal.current_player)
            assert type(e.value) is IllegalActionError and e.value.key == key, (action, e.value)
            if key == "illegal_card":
                reason = deal.ruling().reason(action)
                assert e.value.params["reason"] == reason.key and e.value.params["rule"] == reason.rule
            assert snapshot(deal) == before
        # Any action, even a legal one, by a seat whose turn it is not.
        other = (deal.current_player + rng.randrange(1, 4)) % 4
        for action in deal.legal_actions()[:3]:
            with pytest.raises(OutOfTurnError) as e:
                deal.apply(action, other)
            assert e.value.key == "out_of_turn" and e.value.params == {"seat": other, "expected": deal.current_player}
        assert snapshot(deal) == before

    deal = play_random_deal(variant, seed, on_step=on_step)
    before = snapshot(deal)
    for action, key in wrong_actions(deal, rng):
        with pytest.raises(IllegalActionError, match="the deal is over"):
            deal.apply(action)
    assert snapshot(deal) == before


@given(VARIANTS, SEEDS)
def test_checked_and_unchecked_paths_agree(variant, seed):
    """Playing through ``apply`` (with the seat) and through ``call``/``play`` gives the same deal."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    a, b = Deal.new(variant, seed & 3, seed), Deal.new(variant, seed & 3, seed)
    while not a.is_over:
        action = random_action(a, rng_a)
        a.apply(str(action), a.current_player)
        action_b = random_action(b, rng_b)
        b.call(action_b) if isinstance(action_b, Call) else b.play(action_b)
    assert b.is_over and deal_to_record(a) == deal_to_record(b)


def test_a_match_refuses_out_of_turn_and_illegal_actions_unchanged():
    from coinche import Match, Rules

    match = Match(Rules("coinche", 501), seed=2)
    match.apply("80h", 1)
    before = (snapshot(match.deal), list(match.totals), match.deal_index)
    with pytest.raises(OutOfTurnError):
        match.apply("pass", 0)
    with pytest.raises(IllegalActionError) as e:
        match.apply("80s", 2)
    assert type(e.value) is IllegalActionError and e.value.key == "illegal_call"
    assert (snapshot(match.deal), list(match.totals), match.deal_index) == before


def test_clone_is_independent():
    deal = Deal.new("coinche", 0, 3)
    for call in ("80h", "pass", "pass", "pass"):
        deal.apply(call)
    copy_ = deal.clone()
    before = snapshot(deal)
    while not copy_.is_over:
        copy_.play(copy_.legal_cards()[0])
    assert snapshot(deal) == before and copy_.is_over and not deal.is_over


def test_call_kinds_are_what_they_print():
    assert {c.kind for c in BIDS} == {CallKind.BID} and {c.kind for c in TAKES} == {CallKind.TAKE}
