"""A second, deliberately naive implementation of docs/rules.md (from ../shared/RULES.md), for the
differential tests.

Written from those rules alone and importing nothing of ``coinche``: cards are strings such as ``"Jh"``,
hands are sets of strings, the five card-play rules are coded literally, in the order of docs/rules.md
("Which card may be played"), as sets of allowed cards, each forbidden card carrying the rule that forbids it
and the engine's reason key (``must_follow {suit}``, ``must_go_over {card}``, ``must_trump {suit}``,
``must_overtrump {card}``).
Speed does not matter here; being obviously right does.

Trump is a suit letter, or ``"sa"`` (no trumps) or ``"ta"`` (all trumps) under the house rule
``contracts=all``; announcements (``announce=yes``) are found in a hand, compared and scored here from
docs/rules.md alone ("All trumps and no trumps", "Announcements").

The house rules of docs/rules.md (its section "House rules") are learnt here too, from that section alone:
``house`` is a dict of option name -> value text as the notation writes them (:func:`house_options` reads a
notation, presets included); a missing option is the game's own.

>>> judge({"Jh", "Kd", "7s"}, ["8h", "Ah", "7c"], "h").legal
{'Jh'}
>>> winner(["As", "9s", "9h", "Ts"], "h")
2
>>> coinche_score(declarer_side=0, bid=110, multiplier=1, cards=(124, 38), belote_side=None, tricks=(6, 2))
(234, 38)
"""

from __future__ import annotations

from dataclasses import dataclass, field

SUITS = "shdc"
RANKS = "789TJQKA"
DECK = [rank + suit for suit in SUITS for rank in RANKS]  # 7s 8s ... As 7h ... Ac

TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"]  # strongest first
PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"J": 2, "9": 0, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
ALL_TRUMPS_POINTS = {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0}
NO_TRUMP_POINTS = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
NATURAL_ORDER = "789TJQKA"  # the order of sequences, weakest first
CARRES = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}

BID_VALUES = [80, 90, 100, 110, 120, 130, 140, 150, 160, 250]  # 250 is capot
BELOTE = 20
DIX_DE_DER = 10
TOTAL = 162


#: The game's own value of each option, and the presets, as docs/rules.md writes them ("The options", "The presets").
OWN_OPTIONS = {"variant": "coinche", "target": "1000", "end": "reach", "open": "80", "down": "162bid",
               "surcoinche": "4", "multiply": "all", "capot": "250", "capot_coinche": "yes", "round": "none",
               "tie": "again", "belote": "keep", "undertrump": "no", "contracts": "suits", "announce": "no",
               "announce_make": "yes", "announce_multiply": "no"}
NAIVE_PRESETS = {
    "own": {},
    "de-2000": {"target": "2000", "open": "82", "down": "160bid", "multiply": "contract", "capot": "500",
                "capot_coinche": "no", "round": "5up", "tie": "declarer", "undertrump": "yes"},
}


def house_options(notation: str) -> dict[str, str]:
    """Every option's value text for a notation: presets and name=value items, applied left to right.

    >>> house_options("de-2000,target=1000")["target"], house_options("open=82")["round"]
    ('1000', 'none')
    """
    out = dict(OWN_OPTIONS)
    for item in notation.split(","):
        item = item.strip()
        if not item:
            continue
        if "=" in item:
            name, value = item.split("=")
            assert name in OWN_OPTIONS, name
            out[name] = value
        else:
            out = dict(OWN_OPTIONS) | NAIVE_PRESETS[item]
    return out


def option(house: dict | None, name: str) -> str:
    return (house or {}).get(name, OWN_OPTIONS[name])


class NaiveIllegal(Exception):
    """An action the naive rules do not allow (the differential driver never sends one)."""


def suit_of(card: str) -> str:
    return card[1]


def rank_of(card: str) -> str:
    return card[0]


def points(card: str, trump: str | None) -> int:
    if trump == "ta":
        return ALL_TRUMPS_POINTS[rank_of(card)]
    if trump == "sa":
        return NO_TRUMP_POINTS[rank_of(card)]
    if suit_of(card) == trump:
        return TRUMP_POINTS[rank_of(card)]
    return PLAIN_POINTS[rank_of(card)]


def beats_in_trump(a: str, b: str) -> bool:
    """``a`` is a higher trump than ``b`` (both of the trump suit)."""
    return TRUMP_ORDER.index(rank_of(a)) < TRUMP_ORDER.index(rank_of(b))


def beats_in_plain(a: str, b: str) -> bool:
    return PLAIN_ORDER.index(rank_of(a)) < PLAIN_ORDER.index(rank_of(b))


def highest_trump(cards, trump: str) -> str | None:
    best = None
    for card in cards:
        if suit_of(card) == trump and (best is None or beats_in_trump(card, best)):
            best = card
    return best


def winner(trick: list[str], trump: str) -> int:
    """Index of the card winning ``trick``: the highest trump in it; with no trump, the highest of the suit led."""
    if trump == "ta":  # every suit is ordered as trump; only the suit led can win
        led = [c for c in trick if suit_of(c) == suit_of(trick[0])]
        return trick.index(highest_trump(led, suit_of(trick[0])))
    top_trump = highest_trump(trick, trump)
    if top_trump is not None:
        return trick.index(top_trump)
    led = suit_of(trick[0])
    best = trick[0]
    for card in trick:
        if suit_of(card) == led and beats_in_plain(card, best):
            best = card
    return trick.index(best)


# ---------------------------------------------------------------- which card may be played
@dataclass
class Judgement:
    rule: int  # the rule that decides (0: the leader's free choice)
    legal: set[str]
    forbidden: dict[str, tuple[int, str, dict]]  # card -> (rule, key, params)
    note: str | None = None


def judge(hand, trick: list[str], trump: str, undertrump: bool = False) -> Judgement:
    """The five rules of docs/rules.md ("Which card may be played"), in order; the first that applies decides.

    ``undertrump`` (house rule undertrump=yes): over an opponent's trump you cannot beat, you must still
    play a trump, a lower one, if you hold one (rule 4 decides, reason ``must_undertrump``)."""
    hand = set(hand)
    if not trick:
        return Judgement(0, hand, {})
    led = suit_of(trick[0])
    of_suit_led = {c for c in hand if suit_of(c) == led}
    my_trumps = {c for c in hand if suit_of(c) == trump}
    who_wins = winner(trick, trump)
    # My partner played two cards before me: index len(trick) - 2 (exists from the third seat on).
    partner_winning = len(trick) >= 2 and who_wins == len(trick) - 2

    if trump == "ta":
        return judge_all_trumps(hand, trick, partner_winning)

    # Rule 1: you hold the suit led: follow it (any card of it) ...
    if of_suit_led:
        forbidden = {c: (1, "must_follow", {"suit": led}) for c in hand - of_suit_led}
        if led != trump:
            return Judgement(1, of_suit_led, forbidden)
        # ... except as rule 2 narrows it.  Rule 2: trump led: a trump higher than the highest on the
        # table if you hold one, whoever is winning, your partner included; else any trump.
        top = highest_trump(trick, trump)
        higher = {c for c in of_suit_led if beats_in_trump(c, top)}
        if not higher:
            return Judgement(2, of_suit_led, forbidden)
        for c in of_suit_led - higher:
            forbidden[c] = (2, "must_go_over", {"card": top})
        note = "overtrump_partner" if partner_winning else None
        return Judgement(2, higher, forbidden, note)

    # Rule 3: no card of the suit led: you must trump (any trump), unless your partner is winning the
    # trick at this moment: then any card.
    if partner_winning:
        note = None
        if hand == my_trumps and suit_of(trick[who_wins]) == trump:
            note = "partner_master"  # the rare one: only trumps, partner has trumped: any of them
        return Judgement(3, hand, {}, note)
    winning_card = trick[who_wins]
    opponent_trumped = suit_of(winning_card) == trump
    if my_trumps and not opponent_trumped:
        forbidden = {c: (3, "must_trump", {"suit": trump}) for c in hand - my_trumps}
        return Judgement(3, my_trumps, forbidden)

    # Rule 4: an opponent is winning with a trump: the trump you play must be higher than it when you
    # hold such a trump (discards and lower trumps are then forbidden).
    higher = {c for c in my_trumps if opponent_trumped and beats_in_trump(c, winning_card)}
    if higher:
        forbidden = {c: (4, "must_overtrump", {"card": winning_card}) for c in hand - higher}
        return Judgement(4, higher, forbidden)

    if my_trumps and opponent_trumped and undertrump:
        forbidden = {c: (4, "must_undertrump", {"card": winning_card}) for c in hand - my_trumps}
        return Judgement(4, my_trumps, forbidden)

    # Rule 5: otherwise any card: no trump in hand, or every trump lower than the opponent's winning
    # trump (nobody must undertrump).
    if my_trumps:
        return Judgement(5, hand, {}, "no_undertrump")
    return Judgement(5, hand, {})


def judge_all_trumps(hand: set[str], trick: list[str], partner_winning: bool) -> Judgement:
    """All trumps: follow the suit led and go over its highest card on the table when you can (rule 2, a
    partner's card included); void, any card (nothing trumps): rule 3 when the partner is winning, else 5."""
    led = suit_of(trick[0])
    mine = {c for c in hand if suit_of(c) == led}
    if not mine:
        return Judgement(3 if partner_winning else 5, hand, {})
    top = highest_trump(trick, led)
    forbidden = {c: (1, "must_follow", {"suit": led}) for c in hand - mine}
    higher = {c for c in mine if beats_in_trump(c, top)}
    if not higher:
        return Judgement(2, mine, forbidden)
    for c in mine - higher:
        forbidden[c] = (2, "must_go_over", {"card": top})
    return Judgement(2, higher, forbidden, "overtrump_partner" if partner_winning else None)


# ---------------------------------------------------------------- announcements
def hand_announcements(hand: set[str]) -> list[str]:
    """The announcements a hand holds, as docs/rules.md writes them: each longest run of three or more
    cards of a suit in the natural order (``Jh-Ah``), each carré worth points (``4J``)."""
    out = []
    for suit in SUITS:
        run: list[str] = []
        for rank in NATURAL_ORDER + "x":
            if rank + suit in hand:
                run.append(rank + suit)
                continue
            if len(run) >= 3:
                out.append(run[0] + "-" + run[-1])
            run = []
    for rank in CARRES:
        if all(rank + suit in hand for suit in SUITS):
            out.append("4" + rank)
    return out


def announcement_value(text: str) -> int:
    if text.startswith("4"):
        return CARRES[text[1]]
    length = NATURAL_ORDER.index(text[3]) - NATURAL_ORDER.index(text[0]) + 1
    return {3: 20, 4: 50}.get(length, 100)


def announcement_side_points(declared: list[tuple[int, str]], trump: str) -> tuple[int, int]:
    """Each side's announcement points: the side holding the best announcement scores all of its own.
    Best: more points; at equal points a carré over a sequence; a longer sequence; a higher top card; a
    sequence in the trump suit; the first declared."""
    if not declared:
        return 0, 0

    def beats(a: str, b: str) -> bool:
        if announcement_value(a) != announcement_value(b):
            return announcement_value(a) > announcement_value(b)
        if a.startswith("4") or b.startswith("4"):
            if a.startswith("4") and b.startswith("4"):
                return NATURAL_ORDER.index(a[1]) > NATURAL_ORDER.index(b[1])
            return a.startswith("4")
        length_a = NATURAL_ORDER.index(a[3]) - NATURAL_ORDER.index(a[0])
        length_b = NATURAL_ORDER.index(b[3]) - NATURAL_ORDER.index(b[0])
        if length_a != length_b:
            return length_a > length_b
        if a[3] != b[3]:
            return NATURAL_ORDER.index(a[3]) > NATURAL_ORDER.index(b[3])
        return a[1] == trump and b[1] != trump

    best_seat, best = declared[0]
    for seat, text in declared[1:]:
        if beats(text, best):
            best_seat, best = seat, text
    side = best_seat % 2
    total = sum(announcement_value(t) for s, t in declared if s % 2 == side)
    return (total, 0) if side == 0 else (0, total)


# ---------------------------------------------------------------- scoring
def round_ten(points: int, how: str) -> int:
    """round=5up / 5down: to the nearest ten, a 5 going up or down; none: as it is."""
    if how == "none" or points % 10 == 0:
        return points
    low = points - points % 10
    if points % 10 > 5 or (points % 10 == 5 and how == "5up"):
        return low + 10
    return low


def house_coinche_score(declarer_side: int, bid: int, multiplier: int, cards: tuple[int, int],
                        belote_side: int | None, tricks: tuple[int, int], house: dict,
                        announced: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """A coinche deal by the house rules of docs/rules.md ("What each option means exactly"), case by case."""
    d, f = declarer_side, 1 - declarer_side
    m = multiplier
    made = coinche_made(declarer_side, bid, cards, belote_side, tricks, announced, house)
    out = {d: 0, f: 0}
    contract_alone = option(house, "multiply") == "contract"
    if bid == 250 and option(house, "capot") == "500":
        if made:
            out[d] = 500 * m
            out[f] = cards[f]
        else:
            out[f] = 500 * m
    elif made:
        card_points = cards[d]
        if tricks[d] == 8 and option(house, "capot") == "500":
            card_points = 250
        if contract_alone:
            out[d] = card_points + m * bid
            out[f] = cards[f]
        else:
            out[d] = m * (card_points + bid)
            out[f] = cards[f] if m == 1 else 0
    else:
        base = {"162bid": 162, "160bid": 160, "160": 160, "bid": 0}[option(house, "down")]
        added = 0 if option(house, "down") == "160" else bid
        out[f] = base + m * added if contract_alone else m * (base + added)
    if belote_side is not None:
        if belote_side == d and not made and option(house, "belote") == "defence":
            out[f] += BELOTE
        else:
            out[belote_side] += BELOTE
    add_announcements(out, d, made, m, announced, house)
    how = option(house, "round")
    return round_ten(out[0], how), round_ten(out[1], how)


def add_announcements(out: dict, d: int, made: bool, m: int, announced: tuple[int, int], house: dict | None) -> None:
    """Each side scores its announcements (times the multiplier with announce_multiply=yes); a failed
    contract's declaring side gives its own to the defence."""
    k = m if option(house, "announce_multiply") == "yes" else 1
    if made:
        out[0] += k * announced[0]
        out[1] += k * announced[1]
    else:
        out[1 - d] += k * (announced[0] + announced[1])


def coinche_score(declarer_side: int, bid: int, multiplier: int, cards: tuple[int, int],
                  belote_side: int | None, tricks: tuple[int, int], house: dict | None = None,
                  announced: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """What each side (0, 1) scores for a coinche deal, by docs/rules.md ("Scoring a coinche deal"; with
    ``house``, "House rules")."""
    if house:
        return house_coinche_score(declarer_side, bid, multiplier, cards, belote_side, tricks, house, announced)
    d, f = declarer_side, 1 - declarer_side
    bel = {0: 0, 1: 0}
    if belote_side is not None:
        bel[belote_side] = BELOTE
    m = multiplier
    if bid == 250:
        made = tricks[d] == 8
    else:
        made = cards[d] + bel[d] >= bid
    out = {}
    if made:
        out[d] = m * (cards[d] + bid) + bel[d]
        out[f] = cards[f] + bel[f] if m == 1 else bel[f]
    else:
        out[d] = bel[d]
        out[f] = m * (TOTAL + bid) + bel[f]
    return out[0], out[1]


def coinche_made(declarer_side: int, bid: int, cards, belote_side, tricks, announced=(0, 0), house=None) -> bool:
    bel = BELOTE if belote_side == declarer_side else 0
    if option(house, "announce_make") == "yes":
        bel += announced[declarer_side]
    if bid == 250:
        return tricks[declarer_side] == 8
    return cards[declarer_side] + bel >= bid


def classic_score(taker_side: int, cards: tuple[int, int], belote_side: int | None,
                  tricks: tuple[int, int], house: dict | None = None,
                  announced: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """What each side scores for a classic deal, by docs/rules.md ("The classic deal (the turned card)")."""
    t, f = taker_side, 1 - taker_side
    bel = {0: 0, 1: 0}
    if belote_side is not None:
        bel[belote_side] = BELOTE
    made = classic_made(taker_side, cards, belote_side, announced, house)

    def card_score(side: int) -> int:
        # A side that wins all eight tricks scores 250 instead of 162 for its cards.
        return 250 if tricks[side] == 8 else cards[side]

    out = {}
    if made:
        out[t] = card_score(t) + bel[t]
        out[f] = card_score(f) + bel[f]
    else:
        out[t] = bel[t]
        out[f] = (250 if tricks[f] == 8 else TOTAL) + bel[f]
        if option(house, "belote") == "defence":  # the house rule moves the taker's belote
            out[f] += bel[t]
            out[t] -= bel[t]
    add_announcements(out, t, made, 1, announced, house)
    how = option(house, "round")
    return round_ten(out[0], how), round_ten(out[1], how)


def classic_made(taker_side: int, cards, belote_side, announced=(0, 0), house=None) -> bool:
    bel = [BELOTE if belote_side == s else 0 for s in (0, 1)]
    if option(house, "announce_make") == "yes":
        bel = [bel[0] + announced[0], bel[1] + announced[1]]
    return cards[taker_side] + bel[taker_side] > cards[1 - taker_side] + bel[1 - taker_side]


def match_winner(totals: tuple[int, int], target: int, house: dict | None = None,
                 last_declarer_side: int | None = None) -> int | None:
    """The first side to reach the target wins; both on the same deal: the higher; an exact tie plays on.

    House rules: end=pass, a side must pass the target (reaching it is not enough); tie=declarer, an exact
    tie over the target goes to the side that declared the last deal."""
    a, b = totals
    if option(house, "end") == "pass":
        target += 1  # integers: passing t is reaching t + 1
    if a == b and a >= target and option(house, "tie") == "declarer":
        return last_declarer_side
    if a >= target and b >= target:
        if a > b:
            return 0
        if b > a:
            return 1
        return None
    if a >= target:
        return 0
    if b >= target:
        return 1
    return None


# ---------------------------------------------------------------- the auction and the taking
def bid_text(value: int, suit: str) -> str:
    return ("capot" if value == 250 else str(value)) + suit


def bid_value(call: str) -> int | None:
    """The value of a bid call (``"110h"`` -> 110, ``"capoth"`` -> 250, ``"90sa"`` -> 90), ``None`` for
    another call."""
    if call.startswith("capot"):
        return 250
    digits = call.rstrip("shdcat")
    if digits.isdigit():
        return int(digits)
    return None


def bid_trump(call: str) -> str:
    """What a bid names: ``"sa"``, ``"ta"`` or a suit letter."""
    return call[-2:] if call[-2:] in ("sa", "ta") else call[-1]


ALL_BIDS = [bid_text(v, s) for v in BID_VALUES for s in SUITS]


@dataclass
class Auction:
    """Where a call history stands: ``status`` is ``open``, ``done`` or ``void``; an open coinche auction
    with a bid also says the contract standing (declarer, bid, trump, multiplier)."""

    status: str
    seat: int | None  # who speaks next (open auction only)
    legal: set[str]
    declarer: int | None = None
    bid: int | None = None
    trump: str | None = None
    multiplier: int = 1


def coinche_auction(dealer: int, history: list[str], house: dict | None = None) -> Auction:
    """Read a coinche auction from its call history (each call already checked by the caller).

    House rules: open=82 makes the lowest bid 82 (then 90, 100, ...); capot_coinche=no ends the auction on a
    capot bid (nobody may coinche it, nothing is higher); surcoinche=3 multiplies by 3."""
    kinds = list(SUITS) + (["sa", "ta"] if option(house, "contracts") == "all" else [])
    all_bids = [bid_text(v, s) for v in ([82] if option(house, "open") == "82" else [80]) + BID_VALUES[1:]
                for s in kinds]
    # Who spoke each call: round the table from the player after the dealer; after a coinche, the next
    # player of the bidding side, then its other player.
    seats = []
    seat = (dealer + 1) % 4
    coinched_at = None
    for i, call in enumerate(history):
        seats.append(seat)
        if call == "coinche":
            coinched_at = i
            seat = (seat + 1) % 4
        elif coinched_at is not None:
            seat = (seat + 2) % 4
        else:
            seat = (seat + 1) % 4
    bids = [(i, c) for i, c in enumerate(history) if bid_value(c) is not None]
    last_bid = bids[-1] if bids else None

    def contract(status: str, multiplier: int) -> Auction:
        i, call = last_bid
        return Auction(status, None, set(), seats[i], bid_value(call), bid_trump(call), multiplier)

    if "surcoinche" in history:
        return contract("done", int(option(house, "surcoinche")))
    if last_bid is not None and last_bid[1].startswith("capot") and option(house, "capot_coinche") == "no":
        return contract("done", 1)
    if coinched_at is not None and history[coinched_at + 1:].count("pass") == 2:
        return contract("done", 2)
    if last_bid is None and len(history) == 4:
        return Auction("void", None, set())
    if last_bid is not None and history[last_bid[0] + 1:] == ["pass", "pass", "pass"]:
        return contract("done", 1)

    standing = contract("open", 2 if coinched_at is not None else 1) if last_bid is not None else Auction("open", None, set())
    if coinched_at is not None:
        return Auction("open", seat, {"pass", "surcoinche"}, standing.declarer, standing.bid, standing.trump, 2)
    legal = {"pass"}
    if last_bid is None:
        legal |= set(all_bids)
    else:
        high = bid_value(last_bid[1])
        legal |= {b for b in all_bids if bid_value(b) > high}
        if seats[last_bid[0]] % 2 != seat % 2:
            legal.add("coinche")
    return Auction("open", seat, legal, standing.declarer, standing.bid, standing.trump, standing.multiplier)


def classic_taking(dealer: int, turned: str, history: list[str]) -> Auction:
    """Round one: take the turned card's suit or pass; round two: name another suit or pass."""
    for i, call in enumerate(history):
        if call.startswith("take"):
            return Auction("done", None, set(), (dealer + 1 + i) % 4, 0, call[-1], 1)
    if len(history) == 8:
        return Auction("void", None, set())
    seat = (dealer + 1 + len(history)) % 4
    if len(history) < 4:
        return Auction("open", seat, {"pass", "take" + suit_of(turned)})
    return Auction("open", seat, {"pass"} | {"take" + s for s in SUITS if s != suit_of(turned)})


# ---------------------------------------------------------------- a whole deal
@dataclass
class Step:
    seat: int
    phase: str  # "auction" or "play"
    legal: set[str]
    action: str


@dataclass
class NaiveDeal:
    variant: str
    dealer: int
    dealt: list[set[str]]  # the hands when play began (for a void deal: as dealt)
    turned: str | None
    void: bool
    steps: list[Step] = field(default_factory=list)
    auction: Auction | None = None
    tricks: list[tuple[int, list[str], int]] = field(default_factory=list)  # leader, cards, winner seat
    announcements: list[tuple[int, str, str]] = field(default_factory=list)
    cards_won: tuple[int, int] = (0, 0)
    tricks_won: tuple[int, int] = (0, 0)
    belote_side: int | None = None
    announced: tuple[int, int] = (0, 0)
    made: bool | None = None
    scores: tuple[int, int] = (0, 0)


def deal_hands(deck: list[str], dealer: int, packets: list[int], start: int = 0) -> tuple[list[set[str]], int]:
    """Deal ``packets`` round the table from the player after the dealer; returns the hands and the next deck index."""
    hands: list[set[str]] = [set(), set(), set(), set()]
    pos = start
    for size in packets:
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            hands[seat] |= set(deck[pos:pos + size])
            pos += size
    return hands, pos


def play_deal(deck: list[str], dealer: int, variant: str, calls: list[str], cards: list[str],
              house: dict | None = None, declared: dict[int, list[str]] | None = None) -> NaiveDeal:
    """Play a whole deal: the deck in the order dealt, then the calls, then the cards.

    ``declared``: each seat's announcements, declared with its first card (house rule announce=yes).

    Every action is checked against the naive rules (:class:`NaiveIllegal` if it is not allowed); the
    legal actions at every step are kept in ``steps``.
    """
    assert sorted(deck) == sorted(DECK)
    steps: list[Step] = []
    turned = None
    if variant == "coinche":
        hands, _ = deal_hands(deck, dealer, [3, 2, 3])
    else:
        hands, pos = deal_hands(deck, dealer, [3, 2])
        turned = deck[pos]
    calls = list(calls)
    history: list[str] = []
    while True:
        if variant == "coinche":
            auction = coinche_auction(dealer, history, house)
        else:
            auction = classic_taking(dealer, turned, history)
        if auction.status != "open":
            break
        if not calls:
            raise NaiveIllegal("the calls end before the auction does")
        call = calls.pop(0)
        if call not in auction.legal:
            raise NaiveIllegal(f"call {call} by seat {auction.seat}: legal {sorted(auction.legal)}")
        steps.append(Step(auction.seat, "auction", auction.legal, call))
        history.append(call)
    if calls:
        raise NaiveIllegal(f"calls after the end of the auction: {calls}")
    if auction.status == "void":
        if cards:
            raise NaiveIllegal("cards played in a void deal")
        return NaiveDeal(variant, dealer, [set(h) for h in hands], turned, True, steps, auction)

    if variant == "classic":
        # The taker gets the turned card plus 2 more, everyone else 3 more.
        pos = 21
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            if seat == auction.declarer:
                hands[seat] |= {turned} | set(deck[pos:pos + 2])
                pos += 2
            else:
                hands[seat] |= set(deck[pos:pos + 3])
                pos += 3
    assert all(len(h) == 8 for h in hands)
    dealt = [set(h) for h in hands]
    trump = auction.trump
    result = NaiveDeal(variant, dealer, dealt, turned, False, steps, auction)

    belote_holder = None
    for seat in range(4):
        if trump in SUITS and {"K" + trump, "Q" + trump} <= hands[seat]:
            belote_holder = seat
    declared = declared or {}
    said: list[tuple[int, str]] = []
    won = [0, 0]
    tricks_won = [0, 0]
    leader = (dealer + 1) % 4
    cards = list(cards)
    for number in range(8):
        trick: list[str] = []
        for i in range(4):
            seat = (leader + i) % 4
            if not cards:
                raise NaiveIllegal("the cards end before the deal does")
            card = cards.pop(0)
            if number == 0 and declared.get(seat):
                if option(house, "announce") != "yes":
                    raise NaiveIllegal("announcements at a table that plays none")
                holds = hand_announcements(hands[seat])
                for text in declared[seat]:
                    if text not in holds:
                        raise NaiveIllegal(f"seat {seat} announces {text}, holding {holds}")
                    said.append((seat, text))
            allowed = judge(hands[seat], trick, trump, option(house, "undertrump") == "yes").legal
            if card not in allowed:
                raise NaiveIllegal(f"card {card} by seat {seat} on {trick}: legal {sorted(allowed)}")
            steps.append(Step(seat, "play", allowed, card))
            hands[seat].discard(card)
            trick.append(card)
            if seat == belote_holder and card in ("K" + trump, "Q" + trump):
                kind = "rebelote" if any(s == seat for s, _, _ in result.announcements) else "belote"
                result.announcements.append((seat, kind, card))
        take = (leader + winner(trick, trump)) % 4
        won[take % 2] += sum(points(c, trump) for c in trick)
        tricks_won[take % 2] += 1
        if number == 7:
            won[take % 2] += DIX_DE_DER
        result.tricks.append((leader, trick, take))
        leader = take
    if cards:
        raise NaiveIllegal(f"cards after the last trick: {cards}")

    result.cards_won = (won[0], won[1])
    result.tricks_won = (tricks_won[0], tricks_won[1])
    # The 20 are secured the moment the first of the two is played.
    result.belote_side = belote_holder % 2 if result.announcements else None
    side = auction.declarer % 2
    result.announced = announcement_side_points(said, trump)
    if variant == "coinche":
        result.made = coinche_made(side, auction.bid, result.cards_won, result.belote_side, result.tricks_won,
                                   result.announced, house)
        result.scores = coinche_score(side, auction.bid, auction.multiplier, result.cards_won,
                                      result.belote_side, result.tricks_won, house, result.announced)
    else:
        result.made = classic_made(side, result.cards_won, result.belote_side, result.announced, house)
        result.scores = classic_score(side, result.cards_won, result.belote_side, result.tricks_won, house,
                                      result.announced)
    return result


def deck_for_hands(hands: list[list[str]], dealer: int, variant: str = "coinche",
                   turned: str | None = None, taker: int | None = None) -> list[str]:
    """The deck order that deals these hands (the inverse of the dealing, for hand-made deals).

    Coinche: packets 3-2-3.  Classic: the taker's hand holds ``turned``; packets 3-2, the turned card,
    then 3 to each player and 2 to the taker.

    >>> hands = [DECK[0:8], DECK[8:16], DECK[16:24], DECK[24:32]]
    >>> dealt, _ = deal_hands(deck_for_hands(hands, dealer=3), 3, [3, 2, 3])
    >>> [sorted(h) == sorted(w) for h, w in zip(dealt, hands)]
    [True, True, True, True]
    """
    rest = [list(h) for h in hands]
    if variant == "classic":
        rest[taker].remove(turned)
        packets_by_seat = {s: [3, 2, 2 if s == taker else 3] for s in range(4)}
    else:
        packets_by_seat = {s: [3, 2, 3] for s in range(4)}
    deck: list[str] = []
    for k in range(3):
        if variant == "classic" and k == 2:
            deck.append(turned)
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            size = packets_by_seat[seat][k]
            deck += rest[seat][:size]
            rest[seat] = rest[seat][size:]
    assert sorted(deck) == sorted(DECK), "the hands must hold the 32 cards"
    return deck
