"""Announcements and the all-trumps and no-trumps contracts (issue 33): house rules ``announce``,
``announce_make``, ``announce_multiply`` and ``contracts``.

The worked examples are docs/rules.md's "Worked examples of announcements and all trumps" (the tests read its
two tables, by the engine and by the naive implementation), then the notation, the deal (declaring, what each
seat sees, bad input), records, saves, the judge and the bots.  The last test shows that nothing of the
game's own rules moved: a fingerprint of seeded deals played before this change.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from coinche import Contract, Deal, Position
from coinche.announce import Announcement, held, parse_announcements, side_points
from coinche.bots import bot_turn, make_bot
from coinche.calls import Call
from coinche.cards import ALL_TRUMPS, NO_TRUMP, POINTS, TRUMP_LETTERS, cards_of, mask_of
from coinche.deal import Phase
from coinche.errors import CoincheError, IllegalActionError, NotationError
from coinche.record import FORMAT_1, RecordError, check, deal_to_record, replay
from coinche.rules import OPTIONS, Rules
from coinche.scoring import score
from coinche.session import Session

from helpers import NAMES, name_set

RULES = Rules.parse("contracts=all,announce=yes")
DOC = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()


def doc_table(title: str, index: int) -> list[list[str]]:
    """The rows of the ``index``-th table under the heading ``title`` of docs/rules.md."""
    section = DOC.split(f"### {title}", 1)[1].split("\n### ", 1)[0]
    tables = [[]]
    for line in section.splitlines():
        if line.startswith("|"):
            tables[-1].append([c.strip() for c in line.strip("|").split("|")])
        elif tables[-1]:
            tables.append([])
    return [row for row in tables[index][2:]]


def pair(text: str) -> tuple[int, int]:
    a, b = text.split(" – ")
    return int(a), int(b)


# ---------------------------------------------------------------- the worked examples of docs/rules.md
SCORES = doc_table("Worked examples of announcements and all trumps", 0)


def test_the_tables_are_read():
    assert len(SCORES) >= 8 and len(COMPARISONS) >= 7


@pytest.mark.parametrize("row", SCORES, ids=[" ".join(r[:2]) for r in SCORES])
def test_worked_scores(row):
    notation, contract, cards, announced, scores = row[0].strip("`"), row[1], pair(row[2]), pair(row[3]), pair(row[4])
    value, _, doubled = contract.partition(" ")
    kind = value.lstrip("0123456789") or "h"
    m = {"": 1, "coinched": 2}[doubled]
    rules = Rules.parse(notation)
    tricks = (5, 3)
    result = score(rules, Contract("coinche", 0, TRUMP_LETTERS.index(kind), int(value.rstrip("hsat")), m),
                   cards, None, tricks, announced)
    assert result.scores == scores
    for side in (0, 1):  # the parts add up, the announcements named as such
        assert sum(p.points for p in result.parts if p.side == side) == scores[side]
    if any(announced):
        assert any(p.key == "announcement" for p in result.parts)
    again = naive.coinche_score(0, int(value.rstrip("hsat")), m, cards, None, tricks, naive.house_options(notation),
                                announced)
    assert again == scores


COMPARISONS = doc_table("Worked examples of announcements and all trumps", 1)


@pytest.mark.parametrize("row", COMPARISONS, ids=[r[0] for r in COMPARISONS])
def test_worked_comparisons(row):
    declared = []
    for item in row[0].split(", "):
        who, text = item.split(" ")
        seat = {"us": 0, "them": 1}[who] + 2 * sum(1 for s, _ in declared if s & 1 == (who == "them"))
        declared.append((seat % 4, text.strip("`")))
    trump = TRUMP_LETTERS.index(row[1])
    want = pair(row[3])
    assert side_points([(s, Announcement.parse(t)) for s, t in declared], trump) == want
    assert naive.announcement_side_points(declared, row[1]) == want


# ---------------------------------------------------------------- cards, notation and detection
def test_every_contract_deals_162():
    for trump in range(6):
        assert sum(POINTS[trump]) == 152, TRUMP_LETTERS[trump]


@pytest.mark.parametrize("text, kind, value", [("120ta", ALL_TRUMPS, 120), ("90SA", NO_TRUMP, 90),
                                                ("capotta", ALL_TRUMPS, 250), ("250sa", NO_TRUMP, 250)])
def test_calls_name_the_new_contracts(text, kind, value):
    call = Call.parse(text)
    assert (call.suit, call.value) == (kind, value)
    assert Call.parse(str(call)) == call


@pytest.mark.parametrize("text", ["120xa", "120t", "90sat", "ta120"])
def test_an_unknown_contract_kind_is_an_unknown_call(text):
    with pytest.raises(NotationError) as e:
        Call.parse(text)
    assert e.value.key == "unknown_call"


hands = st.sets(st.integers(0, 31), min_size=0, max_size=12).map(mask_of)


@settings(max_examples=300)
@given(hands)
def test_held_agrees_with_the_naive_reading(hand):
    found = held(hand)
    assert sorted(str(a) for a in found) == sorted(naive.hand_announcements(name_set(hand)))
    for a in found:
        assert a.mask & hand == a.mask and Announcement.parse(str(a)) == a
        assert a.points == naive.announcement_value(str(a))


@given(st.lists(st.sampled_from(sorted({str(a) for h in range(0, 1 << 8) for a in held(h)} | {"4J", "49", "4A"}))))
def test_announcements_notation_round_trips(texts):
    parsed = parse_announcements(",".join(texts))
    assert [str(a) for a in parsed] == texts


@pytest.mark.parametrize("text", ["Qh-7h", "4 8", "48", "7h-8h", "Jh-Ad", "x", "4J,"])
def test_a_bad_announcement_is_named(text):
    if text == "4J,":
        assert [str(a) for a in parse_announcements(text)] == ["4J"]
        return
    with pytest.raises(NotationError) as e:
        parse_announcements(text)
    assert e.value.key == "unknown_announcement"


# ---------------------------------------------------------------- the deal
def deal_with(rules: Rules | str, seed: int, call: str = "100h") -> Deal:
    deal = Deal.new(rules, dealer=3, seed=seed)
    for c in (call, "pass", "pass", "pass"):
        deal.apply(c)
    return deal


def seed_with_announcements(rules=RULES, count=2) -> int:
    """A seed whose deal gives ``count`` seats at least one announcement each."""
    for seed in range(1000):
        deal = Deal.new(rules, dealer=3, seed=seed)
        if sum(bool(held(h)) for h in deal.hands) >= count:
            return seed
    raise AssertionError("no such seed")


def test_declaring_is_at_the_first_card_only_and_what_the_hand_holds():
    deal = next(d for d in (deal_with(RULES, s) for s in range(200)) if held(d.hands[d.turn]))
    seat = deal.turn
    mine = held(deal.hands[seat])
    other = next(a for a in (Announcement.parse("7s-9s"), Announcement.parse("4J"), Announcement.parse("Jh-Ah"))
                 if a not in mine)
    with pytest.raises(IllegalActionError) as e:
        deal.apply("announce:" + str(other), seat)
    assert (e.value.key, e.value.params["announcement"]) == ("announcement_not_held", str(other))
    assert deal.declared == [] and deal.turn == seat
    deal.apply("announce:" + ",".join(str(a) for a in mine), seat)
    assert [a for _, a in deal.declared] == list(mine)
    with pytest.raises(IllegalActionError) as e:
        deal.apply("announce:", seat)  # twice
    assert e.value.key == "announce_wrong_time"
    with pytest.raises(IllegalActionError) as e:
        deal.declare((), (seat + 1) & 3)
    assert e.value.key == "out_of_turn"
    while deal.tricks == []:
        deal.play(deal.legal_cards()[0])
    with pytest.raises(IllegalActionError) as e:
        deal.apply("announce:", deal.turn)  # after the first trick
    assert e.value.key == "announce_wrong_time"


def test_announcing_where_the_table_plays_none_or_in_the_auction_is_refused():
    deal = deal_with(Rules(), 1)
    with pytest.raises(IllegalActionError) as e:
        deal.apply("announce:")
    assert e.value.key == "announce_not_played"
    auction = Deal.new(RULES, dealer=3, seed=1)
    with pytest.raises(IllegalActionError) as e:
        auction.apply("announce:")
    assert e.value.key == "announce_wrong_time"
    assert auction.calls == [] and auction.phase == Phase.AUCTION


def test_an_all_trumps_bid_where_the_table_plays_suits_only_is_refused():
    deal = Deal.new(Rules(), dealer=3, seed=1)
    with pytest.raises(IllegalActionError) as e:
        deal.apply("120ta")
    assert (e.value.key, e.value.params) == ("contract_not_played", {"kind": "ta"})
    assert deal.calls == []
    classic = Deal.new(Rules.parse("variant=classic,contracts=all"), dealer=3, seed=1)
    assert all(c.suit < 4 for c in classic.legal_calls())


def test_bids_at_one_value_are_the_suits_then_sa_and_ta_and_a_bid_must_be_higher():
    deal = Deal.new(RULES, dealer=3, seed=1)
    assert [str(c) for c in deal.legal_calls()[1:7]] == ["80s", "80h", "80d", "80c", "80sa", "80ta"]
    deal.apply("100ta")
    assert {c.value for c in deal.legal_calls() if c.is_bid} == {110, 120, 130, 140, 150, 160, 250}


def test_the_others_see_an_announcement_at_the_end_of_the_first_trick_and_not_before():
    deal = deal_with(RULES, seed_with_announcements(count=3))
    seen_before = {}
    for _ in range(4):
        seat = deal.turn
        view = deal.view(seat)
        assert set(view.announceable) == set(held(deal.hands[seat]))
        assert all(deal.view(s).announceable == () for s in range(4) if s != seat)
        deal.declare(view.announceable)
        for s in range(4):
            seen_before[s] = deal.view(s).declared
        deal.play(deal.legal_cards()[0])
    for s in range(4):  # before the trick ended: one's own only
        assert all(owner == s for owner, _ in seen_before[s])
        assert deal.view(s).declared == tuple(deal.declared)
        assert deal.view(s).to_json()["declared"]
    assert len({owner for owner, _ in deal.declared}) >= 3


def test_belote_is_not_played_in_all_trumps_nor_no_trumps():
    for kind in ("ta", "sa"):
        for seed in range(40):
            deal = deal_with(RULES, seed, "100" + kind)
            assert deal.belote_seat == -1
            while not deal.is_over:
                deal.play(deal.legal_cards()[-1])
            assert deal.announcements == [] and deal.score.belote_side is None
            assert sum(deal.score.cards) == 162


@pytest.mark.parametrize("trump", ["sa", "ta"])
def test_the_judge_rules_on_no_trumps_and_all_trumps_as_the_naive_rules(trump):
    rng = random.Random(trump)
    for _ in range(3000):
        split = rng.randint(0, 3)
        cards = rng.sample(range(32), split + rng.randint(1, 8))
        trick, hand = cards[:split], cards[split:]
        line = f"trump={trump}&trick={','.join(NAMES[c] for c in trick)}&hand={','.join(NAMES[c] for c in hand)}"
        position = Position.parse(line)
        assert str(position) == line
        ruling = position.ruling()
        n = naive.judge({NAMES[c] for c in hand}, [NAMES[c] for c in trick], trump)
        got = ({NAMES[c] for c in ruling.legal_cards}, {NAMES[f.card]: (f.rule, f.key, f.params) for f in ruling.forbidden},
               ruling.rule, ruling.note)
        assert got == (n.legal, n.forbidden, n.rule, n.note), line


# ---------------------------------------------------------------- records, saves, the command line
def played(rules: Rules, seed: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal.new(rules, dealer=seed & 3, seed=seed)
    while not deal.is_over:
        if deal.may_declare:
            deal.declare([a for a in deal.view(deal.turn).announceable if rng.random() < 0.7])
        actions = deal.legal_actions()
        deal.apply(rng.choice(actions[:8]) if deal.phase == Phase.AUCTION else rng.choice(actions))
    return deal


def test_records_carry_the_announcements_and_replay():
    seen = 0
    for seed in range(60):
        deal = played(RULES, seed)
        record = json.loads(json.dumps(deal_to_record(deal)))
        assert record["rules"] == str(RULES) and "announced" in record
        again = check(record)
        assert deal_to_record(again) == record
        seen += any(record["announced"])
    assert seen > 10


@pytest.mark.parametrize("options", ["", ",announce_make=no", ",announce_multiply=yes,round=5up"])
def test_the_score_names_each_announcement_what_it_gave_and_to_whom(options):
    """Each declared announcement in the deal's score: counted when its side holds the best, its points (times
    the multiplier with announce_multiply=yes) to its side, or to the defence of a failed contract; they add
    up to the "announcement" parts, and the record replays to the same (it carries no more than before)."""
    rules = Rules.parse(str(RULES) + options)
    seen = set()
    for seed in range(80):
        deal = played(rules, seed)
        if deal.void:
            continue
        result = deal.score
        lines = result.announcements
        assert [(a.seat, a.announcement) for a in lines] == deal.declared
        best_side = {s & 1 for s, _ in deal.declared if side_points(deal.declared, deal.trump)[s & 1]}
        for a in lines:
            assert a.counted == (a.seat & 1 in best_side)
            k = deal.contract.multiplier if rules.announce_multiply else 1
            assert a.points == (k * a.announcement.points if a.counted else 0)
            assert a.side == (None if not a.counted else a.seat & 1 if result.made else 1 - deal.contract.side)
        parts = [sum(p.points for p in result.parts if p.key == "announcement" and p.side == s) for s in (0, 1)]
        assert [sum(a.points for a in lines if a.side == s) for s in (0, 1)] == parts
        seen.update((a.counted, a.side == a.seat & 1) for a in lines)
        record = json.loads(json.dumps(deal_to_record(deal)))
        assert set(record["result"]) == {"void", "contract", "cards", "belote", "tricks", "made", "scores", "announced"}
        assert check(record).score.announcements == lines
    assert {(True, True), (False, False)} <= seen


def test_the_deal_end_names_each_announcement_in_message_keys():
    """The deal's end tells the page each announcement as a message key and its parameters, with who declared
    it, its points and whether it counted; under the game's own rules there is nothing of the kind."""
    from coinche.announce import Announcement

    assert Announcement.parse("Th-Ah").text() == ("announcement.line.sequence",
                                                  {"name": "cent", "rank": "A", "suit": "h"})
    assert Announcement.parse("49").text() == ("announcement.line.carre", {"rank": "9"})
    for seed in range(40):
        session = Session.new(seed=f"end{seed}", rules=RULES, level="easy", humans=())
        event = None
        while event is None or "deal_end" not in event:
            event = session.bot_step()
        end = event["deal_end"]
        if end["record"]["result"]["void"] or not any(end["record"]["announced"]):
            continue
        declared = [(seat, a) for seat, seat_list in enumerate(end["record"]["announced"]) for a in seat_list]
        assert sorted((a["seat"], a["announcement"]) for a in end["announcements"]) == sorted(declared)
        for a in end["announcements"]:
            assert a["key"] in ("announcement.line.sequence", "announcement.line.carre")
            assert set(a) == {"seat", "announcement", "name", "value", "cards", "key", "params", "counted", "side",
                              "points"}
            assert a["points"] == (a["value"] if a["counted"] else 0) and (a["side"] is None) != a["counted"]
        break
    else:
        pytest.fail("no deal of announcements in 40 matches' first deals")
    own = Session.new(seed="end", level="easy", humans=())
    event = None
    while event is None or "deal_end" not in event:
        event = own.bot_step()
    assert "announcements" not in event["deal_end"]


def test_the_replay_shows_the_declarations_from_the_end_of_the_first_trick():
    from coinche.webcommands import replay_steps

    deal = next(d for d in (played(RULES, s) for s in range(60)) if len({s for s, _ in d.declared}) >= 2)
    steps = replay_steps(json.loads(json.dumps(deal_to_record(deal))))
    first = next(i for i, step in enumerate(steps) if step["kind"] == "card" and step["plays"] == 4)
    assert all(step["declared"] == [] for step in steps[:first])
    for step in steps[first:]:
        assert [(a["seat"], a["announcement"]) for a in step["declared"]] == [(s, str(a)) for s, a in deal.declared]
    assert all("declared" not in step for step in replay_steps(deal_to_record(played(Rules(), 3))))


def test_a_record_with_an_announcement_out_of_place_is_refused():
    deal = next(d for d in (played(RULES, s) for s in range(60)) if any(d.declared) and not d.void)
    record = deal_to_record(deal)
    seat = deal.declared[0][0]
    wrong = dict(record, announced=[["4J", "4Q"] if s == seat else [] for s in range(4)])
    with pytest.raises(RecordError):
        check(wrong)
    own = dict(record, rules="own")
    with pytest.raises(RecordError):
        replay(own)


def test_a_save_keeps_its_announcements_and_a_save_with_ta_under_the_own_rules_is_refused():
    session = Session.new(seed="s33", rules=RULES, humans=(0,))
    while session.match.deal.phase == Phase.AUCTION:
        deal = session.match.deal
        if deal.turn == 0:
            session.act(0, "pass" if deal.high_bid else "100ta")
        else:
            session.bot_step()
    while session.match.deal.turn != 0:
        session.bot_step()
    deal = session.match.deal
    mine = ",".join(str(a) for a in deal.view(0).announceable)
    event = session.act(0, "announce:" + mine)
    assert event["type"] == "announce"
    session.act(0, str(deal.legal_cards()[0]))
    saved = json.loads(json.dumps(session.snapshot()))
    again = Session.from_snapshot(saved)
    assert again.match.deal.declared == deal.declared and again.snapshot() == saved
    wrong = dict(saved, settings={k: v for k, v in saved["settings"].items() if k != "rules"})
    with pytest.raises(CoincheError) as e:
        Session.from_snapshot(wrong)
    assert e.value.key in ("contract_not_played", "announce_not_played")
    all_trumps = Session.new(seed="s33", rules=RULES, humans=(0,), first_dealer=3)
    all_trumps.act(0, "100ta")
    saved = all_trumps.snapshot()
    del saved["settings"]["rules"]
    with pytest.raises(CoincheError) as e:
        Session.from_snapshot(saved)
    assert (e.value.key, e.value.params) == ("contract_not_played", {"kind": "ta"})


def test_bots_declare_what_they_hold_and_play_legally():
    declared = 0
    for seed in range(6):
        deal = Deal.new(RULES, dealer=seed & 3, seed=seed + 33)
        players = [make_bot("easy", seed=seed * 4 + s) for s in range(4)]
        while not deal.is_over:
            bot_turn(deal, players[deal.turn])
        check(deal_to_record(deal))
        if deal.contract is not None:
            declared += len(deal.declared) == sum(bool(held(h)) for h in deal.dealt)
    assert declared >= 5


def test_a_bot_places_the_announced_cards_in_its_worlds():
    from coinche.bots.knowledge import remember

    deal = deal_with(RULES, seed_with_announcements(count=3))
    for _ in range(4):
        deal.declare(deal.view(deal.turn).announceable)
        deal.play(deal.legal_cards()[0])
    seat = deal.turn
    view = deal.view(seat)
    know = remember(view, "easy")
    blind = remember(view, "easy", announced=False)
    for s, a in deal.declared:
        if s != seat:
            assert know.holds[s] & a.mask == a.mask & ~view.played_mask
            assert not blind.holds[s]


# ---------------------------------------------------------------- nothing of the game's own rules moved
#: Seeded deals of both variants under the game's own rules, random play and Normal bots, hashed by the engine
#: as it was before this change (commit 3d85314): the same records, call by call and card by card.
OWN_FINGERPRINT = "45b61960e49218ec389314309a575f79354b06528ee781ff580e982824821cb5"


def test_the_game_s_own_rules_did_not_move():
    assert Rules() == Rules.parse("") and not Rules().announce and Rules().contracts == "suits"
    assert [str(c) for c in Deal.new("coinche", 3, 1).legal_calls()[1:6]] == ["80s", "80h", "80d", "80c", "90s"]
    h = hashlib.sha256()
    for seed in range(120):
        variant = ("coinche", "classic")[seed % 2]
        rng = random.Random(seed)
        deal = Deal.new(variant, seed & 3, seed)
        while not deal.is_over:
            actions = deal.legal_actions()
            deal.apply(rng.choice(actions[:6]) if deal.phase == Phase.AUCTION else rng.choice(actions))
        record = deal_to_record(deal)
        assert "announced" not in record and "announced" not in record["result"]
        h.update(json.dumps(record, sort_keys=True).encode())
        first = dict(record, format=FORMAT_1)
        del first["rules"]
        assert deal_to_record(check(first)) == record
    for seed in range(4):
        deal = Deal.new(("coinche", "classic")[seed % 2], seed & 3, 1000 + seed)
        players = [make_bot("normal", seed=seed * 4 + s) for s in range(4)]
        while not deal.is_over:
            deal.apply(players[deal.turn].act(deal.view(deal.turn)))
        h.update(json.dumps(deal_to_record(deal), sort_keys=True).encode())
    assert h.hexdigest() == OWN_FINGERPRINT


def test_the_referee_tells_a_declaration_without_its_cards():
    from coinche_referee.messages import event

    seed = next(s for s in range(200) if held(Deal.new(RULES, 3, s).hands[0]))
    session = Session.new(seed="ref33", rules=RULES, humans=(0, 1, 2, 3), deal_seed=seed, first_dealer=3)
    for call in ("100h", "pass", "pass", "pass"):
        session.act(session.match.current_player, call)
    assert session.match.current_player == 0
    mine = held(session.match.deal.hands[0])
    told = event(session.act(0, "announce:" + ",".join(str(a) for a in mine)), 0)
    assert mine and told["type"] == "announce" and told["action"] == "announce"
    assert not any(str(c) in json.dumps(told) for a in mine for c in a.cards)


def test_the_referee_sends_the_announced_cards_at_the_end_of_the_first_trick_and_nothing_more():
    """Every state a seat is sent over a whole deal of announcements: no card another seat holds then, but
    the cards of the announcements once the first trick is over; and the fields PROTOCOL.md documents."""
    from coinche_referee.messages import seat_state
    from test_referee_audit import PROTOCOL_MD, documented_paths, paths
    from test_referee_helpers import CARD

    documented = documented_paths(PROTOCOL_MD.read_text())
    seed = next(s for s in range(300) if sum(bool(held(h)) for h in Deal.new(RULES, 3, s).hands) >= 3)
    session = Session.new(seed="ref33", rules=RULES, humans=(0, 1, 2, 3), deal_seed=seed, first_dealer=3)
    for call in ("100h", "pass", "pass", "pass"):
        session.act(session.match.current_player, call)
    deal = session.match.deal
    seen, shown = set(), 0

    def check_states():
        nonlocal shown
        public = {str(c) for s, a in deal.declared for c in a.cards} if deal.tricks else set()
        for seat in range(4):
            state = seat_state(session, seat)
            others = {str(c) for s in range(4) if s != seat for c in cards_of(deal.hands[s])}
            leaked = set(CARD.findall(json.dumps(state))) & others - public
            assert not leaked, (len(deal.plays), seat, leaked)
            shown += bool(set(CARD.findall(json.dumps(state["deal"]["declared"]))) & others)
            seen.update(paths(state))

    for _ in range(32):
        check_states()
        if deal.may_declare:
            session.act(deal.turn, "announce:" + ",".join(str(a) for a in held(deal.hands[deal.turn])))
            check_states()
        session.act(deal.turn, str(deal.legal_cards()[0]))
    assert shown  # the announced cards of other seats were shown while still held
    assert seen - documented["(state)"] == documented["(state announce=yes)"] - {"(state)"}


def test_the_referee_tells_each_announcement_at_the_deal_s_end_as_protocol_md_says():
    """Online, the deal's end names each announcement too (the page's summary), field by field as PROTOCOL.md
    documents them; a table of the game's own rules sends none."""
    from coinche_referee.messages import event
    from test_referee_audit import PROTOCOL_MD, documented_paths, paths

    def first_deal_end(session):
        told = None
        while told is None or "deal_end" not in told:
            told = event(session.bot_step(), 0)
        return told["deal_end"], session.match.history[0]

    documented = documented_paths(PROTOCOL_MD.read_text())["(update announce=yes)"] - {"update"}
    for seed in range(40):
        end, record = first_deal_end(Session.new(seed=f"end{seed}", rules=RULES, level="easy", humans=()))
        if not record["result"]["void"] and any(record["announced"]):
            break
    else:
        pytest.fail("no deal of announcements in 40 matches' first deals")
    assert sorted((a["seat"], a["announcement"]) for a in end["announcements"]) == sorted(
        (seat, a) for seat, seats in enumerate(record["announced"]) for a in seats)
    sent = {p for p in paths({"event": {"deal_end": end}}) if p.startswith("event.deal_end.announcements")}
    assert sent <= documented and {p for p in documented if ".params." not in p} <= sent
    end, _ = first_deal_end(Session.new(seed="end", level="easy", humans=()))
    assert "announcements" not in end


rules_values = st.builds(Rules, **{o.field: st.sampled_from(o.values) for o in OPTIONS})


@settings(max_examples=400)
@given(rules_values.map(lambda r: r.with_match("coinche", r.target)), st.integers(0, 162), st.integers(0, 8),
       st.sampled_from((80, 90, 100, 120, 160)), st.sampled_from((1, 2, 4)), st.sampled_from((None, 0, 1)),
       st.sampled_from((0, 20, 50, 100, 120, 150, 200, 370)), st.sampled_from((0, 1)))
def test_announcement_scoring_properties(rules, cards0, tricks0, value, m, belote, points, side):
    """By every combination of options: the parts add up; the announcements never change made into failed;
    unrounded, they add their points (times the multiplier with announce_multiply=yes) to what the deal hands
    out, to the side holding them or, on a failed contract, to the defence; and the naive scoring agrees."""
    if tricks0 in (0, 8):
        cards0 = 0 if tricks0 == 0 else 162
    cards, tricks = (cards0, 162 - cards0), (tricks0, 8 - tricks0)
    announced = (points, 0) if side == 0 else (0, points)
    contract = Contract("coinche", 0, 1, value, m)
    rules = Rules.parse(rules.options_text() + ",announce=yes")
    with_ann = score(rules, contract, cards, belote, tricks, announced)
    without = score(rules, contract, cards, belote, tricks)
    for s in (0, 1):
        assert sum(p.points for p in with_ann.parts if p.side == s) == with_ann.scores[s]
    assert with_ann.made >= without.made and (with_ann.made == without.made or rules.announce_make)
    if rules.rounding == "none" and with_ann.made == without.made:
        k = m if rules.announce_multiply else 1
        gained = [a - b for a, b in zip(with_ann.scores, without.scores)]
        to = side if with_ann.made else 1
        assert gained[to] == k * points and gained[1 - to] == 0
    assert naive.coinche_score(0, value, m, cards, belote, tricks, naive.house_options(str(rules)), announced) == \
        with_ann.scores
