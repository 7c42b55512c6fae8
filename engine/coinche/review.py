"""The Expert's review of a finished deal: each decision of a seat priced with what that seat knew then.

For every call and card of the chosen seats, :func:`review_decision` asks the Expert bot what it would
have done with the seat's :class:`~coinche.view.SeatView` at that moment (its own hand and the public
table, never another seat's cards) and prices the choice made against the best one:

- a card by :func:`coinche.bots.search.evaluate_cards` (the mean score difference each card leads to over
  sampled deals of the hidden cards, played out), every legal card priced, those the bots would never play
  included (a trump on the partner's winning trick);
- a call by :meth:`coinche.bots.Bot.evaluate_calls` (the side's expected score minus the opponents', and
  the chance to make the contract).

With :data:`REVIEW_EXACT` cards left or fewer, each sampled deal is solved double dummy
(:mod:`coinche.solver`) instead of played out, so a late blunder is priced true to scale.  Beside this
cost with the seat's knowledge, a card played with at most :data:`HINDSIGHT_CARDS` cards in the hands gets
its cost in hindsight (:func:`hindsight`: the real hands solved double dummy), and a ``luck`` where the two
disagree (:func:`luck_of`): ``unlucky`` (the best card with what the seat knew, costly with the cards as they
lay) or ``lucky`` (a costly choice with what the seat knew that cost nothing here).  Only these three fields
read hidden cards.

``loss`` is what the choice cost the side, in points of score difference (the side's score minus the
opponents' at the end of the deal), never negative; a large loss gets a mark (:data:`MARKS`): an
``inaccuracy`` from 20 points (10 card points going to the other side), a ``mistake`` from 40, a
``blunder`` from 80.  A marked card gets one
short reason when a rule-like one applies (:func:`card_reason`).  Everything is message keys and
parameters: the command line and the page word them.

Deterministic: every evaluation is seeded with :data:`REVIEW_SEED` and what the seat knew (the bots mix
their knowledge into the seed), so the same deal gives the same review everywhere, and two deals that
differ only in cards the seat could not see give the same review of that seat.

>>> from coinche.deal import Deal
>>> from coinche.record import deal_to_record
>>> deal = Deal.new("coinche", dealer=3, seed=5)
>>> for call in ("100h", "pass", "pass", "pass"): deal.apply(call)
>>> while not deal.is_over: deal.play(deal.legal_cards()[0])
>>> plan = review_plan(deal_to_record(deal), seats=[0])
>>> [d["kind"] for d in plan["decisions"]][:3], plan["thresholds"]["blunder"]
(['call', 'card', 'card'], 80)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .calls import PASS, Call, CallKind
from .cards import CARDS, POINTS, POWER, SUIT_MASK, Card, Rank, card_name, mask_of
from .play import trick_winner
from .record import malformed, replay
from .rng import seed_from
from .view import SeatView

#: The review's seed; each decision's random numbers come from it and the seat's knowledge then.
REVIEW_SEED = "coinche-review/1"
#: The review's version, in the key a review is kept under (a review kept by an earlier version is made anew):
#: 2 gives the calls their cost in hindsight, 3 prices every legal card (those the bots never play included).
REVIEW_VERSION = 3
#: The marks, from the mildest, with the points lost (score difference for the side) from which they apply.
MARKS = (("inaccuracy", 20), ("mistake", 40), ("blunder", 80))
#: The review's budget for a card (see :func:`review_worlds`).
REVIEW_BUDGET = 24000
MIN_WORLDS = 24
MAX_WORLDS = 96
#: From this many cards left in the hands down, the review's sampled deals are solved double dummy (see
#: :func:`price_card`); chosen by measurement (bench/review_bench.py, docs/solver.md) for the browser's budget.
REVIEW_EXACT = 16
#: How many sampled deals a card's review solves double dummy with more than :data:`CHEAP_EXACT` cards left
#: (see :func:`review_worlds`): an exact deal carries no playout error, only the sampling's.
EXACT_WORLDS = 48
#: At most this many cards left, a sampled deal solves in about a millisecond: the review solves
#: :data:`MAX_WORLDS` of them.
CHEAP_EXACT = 12
#: The cost in hindsight is given for the cards played with at most this many cards in the hands: every card
#: (from the third trick on before the solver's speed-up; bench/review_bench.py --hindsight N measures).
HINDSIGHT_CARDS = 32
#: How many times a call is priced (see :func:`price_call`).
CALL_PRICINGS = 4
#: The sorts of decision a review tells apart (:attr:`Decision.type`): calls, then cards.
DECISION_TYPES = ("bid", "pass", "coinche", "lead", "follow", "trump", "discard")
#: The bot level that reviews.
LEVEL = "expert"


def mark_of(loss: float) -> str | None:
    """The mark for ``loss`` points lost, or ``None``.

    >>> [mark_of(x) for x in (0, 19.9, 20, 50, 80)]
    [None, None, 'inaccuracy', 'mistake', 'blunder']
    """
    mark = None
    for name, threshold in MARKS:
        if loss >= threshold:
            mark = name
    return mark


def record_key(record: dict[str, Any]) -> str:
    """A short stable key of the deal a record plays (variant, dealer, deck, calls, cards) and of the
    review's version, for keeping a review with its deal."""
    text = "|".join((REVIEW_SEED, str(REVIEW_VERSION), str(record.get("variant")), str(record.get("dealer")), str(record.get("deck")),
                     ",".join(map(str, record.get("calls", []))), ",".join(map(str, record.get("plays", [])))))
    return f"{seed_from(text):016x}"


# ---------------------------------------------------------------- the decisions of a deal
@dataclass(frozen=True, slots=True)
class Decision:
    """One action of the deal with the acting seat's view just before it."""

    index: int  # the action's place in the deal: the calls, then the cards
    seat: int
    kind: str  # "call" or "card"
    action: Call | Card
    view: SeatView
    #: the whole deal at that moment, every hand seen: for the cost in hindsight only
    position: Any = None

    @property
    def trick(self) -> int | None:
        """The trick's number (1..8) for a card."""
        return None if self.kind == "call" else len(self.view.tricks) + 1

    @property
    def type(self) -> str:
        """What sort of decision it was (:data:`DECISION_TYPES`), for a player's figures over many deals: a
        call is a ``bid`` (a take in the classic), a ``pass`` or a ``coinche`` (or surcoinche); a card a
        ``lead``, a ``follow`` (the suit led), a ``trump`` (trumping a plain suit led) or a ``discard``."""
        if self.kind == "call":
            kind = self.action.kind
            return {CallKind.PASS: "pass", CallKind.COINCHE: "coinche", CallKind.SURCOINCHE: "coinche"}.get(kind, "bid")
        trick = self.view.trick
        if not trick:
            return "lead"
        suit = self.action.suit
        if suit == trick[0].suit:
            return "follow"
        return "trump" if suit == self.view.contract.suit else "discard"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "kind": self.kind, "action": str(self.action),
                "trick": self.trick, "type": self.type}


def decisions(record: dict[str, Any], seats=None, only: int | None = None) -> list[Decision]:
    """The deal's decisions by ``seats`` (all four when ``None``), in order; an action with only one legal
    choice is no decision.  ``only``: just the decision at that action index (none if it is not one).  A bad
    record raises :class:`~coinche.record.RecordError`."""
    wanted = seat_set(seats)
    views: list[SeatView | None] = []
    positions: dict[int, Any] = {}

    def each(deal) -> None:
        at = len(views)
        keep = not deal.is_over and deal.turn in wanted and (only is None or only == at)
        views.append(deal.view(deal.turn) if keep else None)
        if keep:
            positions[at] = deal.clone()

    replay(record, each)
    actions = list(record["calls"]) + list(record["plays"])
    found = []
    for index, view in enumerate(views[:len(actions)]):
        if view is None or len(view.legal) < 2:
            continue
        kind = "call" if view.phase == "auction" else "card"
        action = Call.parse(actions[index]) if kind == "call" else Card.parse(actions[index])
        found.append(Decision(index, view.seat, kind, action, view, positions.get(index)))
    return found


def decision_at(record: dict[str, Any], index: Any) -> Decision:
    """The decision at action ``index`` of the deal (the calls, then the cards, from 0)."""
    if not isinstance(index, int) or isinstance(index, bool):
        raise malformed("bad_decision_index")
    found = decisions(record, None, only=index)
    if not found:
        raise malformed("no_decision", index=index)
    return found[0]


def seat_set(seats) -> frozenset[int]:
    """``seats`` (a seat, a list of seats, or ``None`` for all four) as a set, checked."""
    if seats is None:
        return frozenset(range(4))
    if isinstance(seats, int) and not isinstance(seats, bool):
        seats = [seats]
    try:
        out = frozenset(seats)
    except TypeError:
        raise malformed("bad_review_seats") from None
    if not out or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3 for s in out):
        raise malformed("bad_review_seats")
    return out


def _about(record: dict[str, Any], seats) -> dict[str, Any]:
    return {"key": record_key(record), "seats": sorted(seat_set(seats)), "thresholds": dict(MARKS)}


def review_plan(record: dict[str, Any], seats=None) -> dict[str, Any]:
    """What a review of ``seats`` (all four when ``None``) walks: ``{key, seats, thresholds, decisions}``,
    each decision as JSON (``index``, ``seat``, ``kind``, ``action``, ``trick``); ``key`` keeps the review
    with its deal, ``thresholds`` are the marks' (points lost from which each applies)."""
    found = decisions(record, seats)  # checks the record first
    return {**_about(record, seats), "decisions": [d.to_json() for d in found]}


# ---------------------------------------------------------------- pricing
def price_call(view: SeatView) -> tuple[dict, Call]:
    """The Expert's price of every legal call and its call among those prices: the mean of
    :data:`CALL_PRICINGS` pricings by :meth:`coinche.bots.Bot.evaluate_calls`, each by an Expert seeded
    differently (the review compares calls that the Expert only had to rank, so it samples more deals)."""
    from .bots import Bot
    from .bots.auction import CallValue, choose_call

    bots = [Bot(LEVEL, f"{REVIEW_SEED}/{i}") for i in range(CALL_PRICINGS)]
    pricings = [bot.evaluate_calls(view) for bot in bots]
    values = {}
    for call in pricings[0]:
        chances = [p[call].make_chance for p in pricings]
        chance = None if None in chances else round(sum(chances) / len(chances))
        # the margin of one pricing, not of their mean: the review's Expert calls as cautiously as the one at
        # the table, and never blames a call the table's Expert would make for its risk alone
        error = sum(p[call].error for p in pricings) / len(pricings)
        values[call] = CallValue(sum(p[call].score for p in pricings) / len(pricings), chance, error)
    return values, choose_call(bots[0].knowledge(view), values)


def standing_contract(view: SeatView, call: Call) -> str | None:
    """The contract ``call`` would leave standing if the auction ended on it (its ``make_chance`` is that
    contract's): the call itself for a bid or a take, else the highest bid so far (``None`` if there is none).

    >>> from coinche.deal import Deal
    >>> deal = Deal.new("coinche", dealer=3, seed=1); deal.apply("90h")
    >>> view = deal.view(1)
    >>> standing_contract(view, Call.parse("100s")), standing_contract(view, Call.parse("coinche"))
    ('100s', '90h')
    """
    if call.kind in (CallKind.BID, CallKind.TAKE):
        return str(call)
    bids = [c for _, c in view.calls if c.kind in (CallKind.BID, CallKind.TAKE)]
    return str(bids[-1]) if bids else None


def price_card(view: SeatView, played: Card) -> tuple[dict[int, float], int, float]:
    """``(means, best, played_mean)``: the Expert's mean score difference for each distinct legal card (every
    card a person may play, those the bots never would included: a trump on the partner's winning trick),
    the best card, and the mean of the card played (an equivalent card shares its run's mean).  The cards the
    bots' search leaves out are priced on the same sampled deals as the others, at no cost to them."""
    from .bots import remember
    from .bots.search import best_card, evaluate_cards

    know = remember(view, LEVEL)
    ranked = evaluate_cards(know, seed_from(REVIEW_SEED), review_worlds(know), REVIEW_EXACT, every=True)
    means = dict(ranked)
    return means, best_card(ranked), means[_run_of(int(played), means, know.trump)]


def review_worlds(know) -> int:
    """How many deals of the hidden cards a card's review samples: :data:`REVIEW_BUDGET` cards played out in
    all, within :data:`MIN_WORLDS` .. :data:`MAX_WORLDS` (the Expert's rule, with a larger budget: the review
    compares cards that the Expert only had to rank).  Solved double dummy (:data:`REVIEW_EXACT` cards left or
    fewer): :data:`EXACT_WORLDS` deals, :data:`MAX_WORLDS` from :data:`CHEAP_EXACT` cards left down."""
    from .bots.rollout import partner_rule
    from .bots.search import distinct_cards

    left = sum(know.counts)
    if left <= REVIEW_EXACT:
        return MAX_WORLDS if left <= CHEAP_EXACT else EXACT_WORLDS

    legal = partner_rule(know.hand, list(know.trick), know.trump, mask_of(know.legal))
    candidates = len(distinct_cards(legal, know.hand | mask_of(know.trick) | (know.gone or 0), know.trump))
    return max(MIN_WORLDS, min(MAX_WORLDS, REVIEW_BUDGET // (candidates * left)))


def _run_of(card: int, means: dict[int, float], trump: int) -> int | None:
    """The searched card standing for ``card``: itself, or the lowest of its run of equivalent cards
    (the nearest searched card of its suit below it)."""
    if card in means:
        return card
    power = POWER[trump]
    below = [c for c in means if c >> 3 == card >> 3 and power[c] < power[card]]
    return max(below, key=power.__getitem__) if below else None


# ---------------------------------------------------------------- in hindsight
#: The searches kept for the deal being reviewed, one per trump (a table of bounds serves every later
#: position of the deal with that trump), and the opening leads already solved for a call's hindsight.
_KEPT: dict[Any, Any] = {"deal": None}


def _kept(deal) -> dict[Any, Any]:
    key = (deal.rules, deal.deck, deal.dealer)
    if _KEPT["deal"] != key:
        _KEPT.clear()
        _KEPT["deal"] = key
    return _KEPT


def _search(deal) -> Any:
    from .solver import searcher

    kept = _kept(deal)
    search = kept.get(("search", deal.trump))
    if search is None:
        search = kept[("search", deal.trump)] = searcher(deal.trump, deal.rules)
    return search


def hindsight(decision: Decision, sound: tuple[Call, ...] = ()) -> dict[str, Any]:
    """The decision's cost with every hand seen.  ``hindsight_best`` (the best choice), ``hindsight_loss``
    (score difference for the side, never negative); both ``None`` for a card with more than
    :data:`HINDSIGHT_CARDS` cards in the hands.

    - A card: the real hands solved double dummy from that moment, the card played against a best one.
    - A call: against the ``sound`` calls (those the seat's knowledge found within a mark of the best), each
      by the contract it leaves standing if the auction ends on it (every later seat passing, as the price
      with the seat's knowledge reads it), played double dummy from the opening lead.  Not against every
      legal call: with every hand seen some bid no hand could make is often makeable, and every sound pass
      would then be "unlucky" (docs/solver.md).
    """
    if decision.kind == "call":
        return _call_hindsight(decision, sound)
    deal = decision.position
    if deal is None or sum(h.bit_count() for h in deal.hands) > HINDSIGHT_CARDS:
        return {"hindsight_best": None, "hindsight_loss": None}
    from .solver import announced_side_points, belote_side, solve_choice

    played, best = solve_choice(deal.hands, deal.leader, deal.trick, deal.trump, int(decision.action),
                                deal.cards_won, deal.tricks_won, deal.contract, belote_side(deal), _search(deal),
                                deal.rules, announced_side_points(deal))
    side = decision.seat & 1
    loss = max(0, best.difference(side) - played.difference(side))
    return {"hindsight_best": card_name(played.card if loss == 0 else best.card), "hindsight_loss": loss}


def _call_hindsight(decision: Decision, sound: tuple[Call, ...]) -> dict[str, Any]:
    position, side, made = decision.position, decision.seat & 1, decision.action
    if all(call == made for call in sound):  # no other sound call: nothing to compare, nothing to solve
        return {"hindsight_best": str(made), "hindsight_loss": 0}
    best, top = made, standing_difference(position, made, side)
    mine = top
    for call in sound:  # only a call that does better is solved exactly: most are shown not to, far cheaper
        if call != made and standing_beats(position, call, side, top):
            best, top = call, standing_difference(position, call, side)
    return {"hindsight_best": str(best), "hindsight_loss": top - mine}


def _left_standing(position, call: Call):
    """``position`` (a deal in its auction) with ``call`` made and every later seat passing: a deal at its
    opening lead, or over (passed out)."""
    deal = position.clone()
    deal.apply(call)
    while deal.phase.name == "AUCTION":
        deal.call(PASS)
    return deal


def standing_difference(position, call: Call, side: int) -> int:
    """``side``'s score minus the other's if the auction of ``position`` (a deal in its auction, every hand
    known) ended on ``call``: every later seat passes, and the contract left standing is played double dummy
    from the opening lead (0 for a deal passed out).

    >>> from coinche.deal import Deal
    >>> deal = Deal.new("coinche", dealer=3, seed=5)
    >>> standing_difference(deal, Call.parse("pass"), 0)  # the first pass of four: passed out
    0
    >>> standing_difference(deal, Call.parse("80s"), 0), standing_difference(deal, Call.parse("80h"), 0)
    (186, -242)
    """
    from .solver import announced_side_points, belote_side, outcome_score, solve_best

    deal = _left_standing(position, call)
    if deal.is_over:
        return 0
    kept = _kept(deal)
    key = ("opening", deal.trump, tuple(deal.hands))
    best = kept.get(key)
    if best is None:
        best = kept[key] = solve_best(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won,
                                      deal.tricks_won, None, None, _search(deal), deal.rules)
    scores = outcome_score(deal.rules, deal.contract, best.points, best.capot, belote_side(deal),
                           announced_side_points(deal)).scores
    return scores[side] - scores[1 - side]


def standing_beats(position, call: Call, side: int, target: int) -> bool:
    """Whether :func:`standing_difference` is above ``target``, found without the exact value when the
    opening lead is not solved yet (a null window, :func:`coinche.solver.solve_beats`).

    >>> from coinche.deal import Deal
    >>> deal = Deal.new("coinche", dealer=3, seed=5)
    >>> standing_beats(deal, Call.parse("80s"), 0, 185), standing_beats(deal, Call.parse("80s"), 0, 186)
    (True, False)
    """
    from .solver import announced_side_points, belote_side, solve_beats

    deal = _left_standing(position, call)
    if deal.is_over:
        return 0 > target
    if ("opening", deal.trump, tuple(deal.hands)) in _kept(deal):
        return standing_difference(position, call, side) > target
    return solve_beats(deal.hands, deal.leader, deal.trick, deal.trump, deal.cards_won, deal.tricks_won,
                       deal.contract, belote_side(deal), side, target, _search(deal), deal.rules,
                       announced_side_points(deal))


def luck_of(loss: float | None, hindsight_loss: float | None) -> str | None:
    """``unlucky``: the best card with what the seat knew (``loss`` 0), costly with the cards as they lay (a
    markable ``hindsight_loss``); ``lucky``: a costly choice with what the seat knew (a markable ``loss``)
    that cost nothing here (``hindsight_loss`` 0); else ``None`` (also without a ``loss`` or without
    hindsight).

    >>> luck_of(0, 60), luck_of(85, 0), luck_of(5, 60), luck_of(45, 10), luck_of(45, 45), luck_of(0, None)
    ('unlucky', 'lucky', None, None, None, None)
    """
    if loss is None or hindsight_loss is None:
        return None
    if loss == 0 and mark_of(hindsight_loss) is not None:
        return "unlucky"
    if mark_of(loss) is not None and hindsight_loss == 0:
        return "lucky"
    return None


def review_decision(decision: Decision) -> dict[str, Any]:
    """One decision reviewed: the choice, the Expert's, both expected scores, the loss, the mark, a reason;
    and in hindsight (:func:`hindsight`) the cost with every hand seen and the luck (:func:`luck_of`)."""
    out, sound = priced_with_knowledge(decision)
    out.update(hindsight(decision, sound))
    out["luck"] = luck_of(out["loss"], out["hindsight_loss"])
    return out


def priced_with_knowledge(decision: Decision) -> tuple[dict[str, Any], tuple[Call, ...]]:
    """The decision priced with what its seat knew then, and for a call the sound calls (those within a mark of
    the best: a loss the review would not mark): nothing here reads another seat's cards.  What
    :func:`review_decision` gives but its hindsight and luck, at about half its cost."""
    out = decision.to_json()
    view = decision.view
    sound: tuple[Call, ...] = ()
    if decision.kind == "card":
        means, best, played_mean = price_card(view, decision.action)
        best_mean = means[best]
        out.update(best=card_name(best), played_score=round(played_mean, 1), best_score=round(best_mean, 1),
                   options={card_name(c): round(m, 1) for c, m in sorted(means.items())})
    else:
        values, best_call = price_call(view)
        mine, best = values[decision.action], values[best_call]
        played_mean, best_mean = mine.score, best.score
        out.update(best=str(best_call), played_score=round(played_mean, 1), best_score=round(best_mean, 1),
                   played_chance=mine.make_chance, best_chance=best.make_chance,
                   played_contract=standing_contract(view, decision.action),
                   best_contract=standing_contract(view, best_call))
        sound = tuple(call for call, value in values.items() if mark_of(round(best.score - value.score, 1)) is None)
    loss = max(0.0, best_mean - played_mean)
    out["loss"] = round(loss, 1)
    out["mark"] = mark_of(out["loss"])  # the loss as shown decides
    out["reason"] = None
    if out["mark"] is not None and decision.kind == "card":
        reason = card_reason(view, int(decision.action), int(CARDS[best]))
        out["reason"] = None if reason is None else {"key": reason[0], "params": reason[1]}
    return out, sound


# ---------------------------------------------------------------- reasons
def _is_master(view: SeatView, card: int) -> bool:
    """Whether no card that beats ``card`` in its suit is still out of the seat's sight (every higher one is
    played or in the seat's hand)."""
    power = POWER[view.trump]
    out_of_reach = view.played_mask | view.hand_mask
    suit = card >> 3
    return all(out_of_reach >> c & 1 for c in range(suit * 8, suit * 8 + 8) if power[c] > power[card])


def _beats(card: int, best: int, trump: int) -> bool:
    return trick_winner([best, card], trump) == 1


def card_reason(view: SeatView, played: int, best: int) -> tuple[str, dict] | None:
    """One short rule-like reason why ``played`` was worse than ``best``, from the seat's view; ``None``
    when none applies.  Keys (parameters): ``trumped_partner`` (``card``): trumped a trick the partner was
    winning while free to discard; ``kept_master`` (``card``): an opponent was winning and the seat held
    ``card``, a master card that beat it; ``wasted_master`` (``card``): the partner was winning and the seat
    gave it ``card``, a master card that could win a trick of its own; ``gave_points`` (``card``): an
    opponent was winning and the seat gave it ``card`` (10 points or more); ``belote_kept`` (``card``):
    the Expert would have played ``card`` of the belote; ``missed_load`` (``card``): the partner was winning
    and the Expert would have given it ``card`` (10 points or more)."""
    if played == best:
        return None
    trump, hand, trick = view.trump, view.hand_mask, [int(c) for c in view.trick]
    legal = mask_of(view.legal)
    points = POINTS[trump]
    winner = trick_winner(trick, trump) if trick else -1
    partner_winning = len(trick) >= 2 and winner == len(trick) - 2
    opponent_winning = bool(trick) and not partner_winning
    led = trick[0] >> 3 if trick else -1
    if partner_winning and led != trump and played >> 3 == trump and not hand & SUIT_MASK[led] \
            and legal & ~SUIT_MASK[trump]:
        return "trumped_partner", {"card": card_name(played)}
    if opponent_winning and not _beats(played, trick[winner], trump):
        for c in sorted(CARDS[c] for c in range(32) if legal >> c & 1):
            if _beats(c, trick[winner], trump) and _is_master(view, c) and (len(trick) == 3 or c >> 3 == trump):
                return "kept_master", {"card": card_name(c)}
    if partner_winning and _is_master(view, played):
        return "wasted_master", {"card": card_name(played)}
    if opponent_winning and not _beats(played, trick[winner], trump) and points[played] >= 10 > points[best]:
        return "gave_points", {"card": card_name(played)}
    belote = {trump * 8 + Rank.KING, trump * 8 + Rank.QUEEN} if trump >= 0 else set()
    if best in belote and played not in belote:
        return "belote_kept", {"card": card_name(best)}
    if partner_winning and points[best] >= 10 > points[played]:
        return "missed_load", {"card": card_name(best)}
    return None


# ---------------------------------------------------------------- the whole deal
def summarize(reviewed: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary line: decisions reviewed, points lost in all, the count of each mark and of each luck."""
    marks = {name: 0 for name, _ in MARKS}
    luck = {"unlucky": 0, "lucky": 0}
    lost = 0.0
    for item in reviewed:
        if item.get("mark") in marks:
            marks[item["mark"]] += 1
        if item.get("luck") in luck:
            luck[item["luck"]] += 1
        loss = item.get("loss")
        if isinstance(loss, (int, float)) and not isinstance(loss, bool) and loss > 0:
            lost += loss
    return {"decisions": len(reviewed), "lost": round(lost), "marks": marks, "luck": luck}


def review(record: dict[str, Any], seats=None) -> dict[str, Any]:
    """The whole review of ``seats`` (all four when ``None``): ``{key, seats, thresholds, decisions,
    summary}``."""
    reviewed = [review_decision(d) for d in decisions(record, seats)]
    return {**_about(record, seats), "decisions": reviewed, "summary": summarize(reviewed)}


__all__ = ["DECISION_TYPES", "MARKS", "REVIEW_SEED", "Decision", "card_reason", "decision_at", "decisions", "hindsight",
           "luck_of", "mark_of", "price_call", "price_card", "priced_with_knowledge", "seat_set", "standing_beats",
           "standing_contract",
           "standing_difference",
           "record_key", "review", "review_decision", "review_plan", "summarize"]
