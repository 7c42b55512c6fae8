"""The commands the web page sends to the engine worker, as plain functions of JSON values.

The worker holds one :class:`~coinche.session.Session` (solo play) at a time.  Every answer
carries what the page needs to redraw: the human seat's ``state`` (a view, never another
seat's hidden cards) and the ``snapshot`` the page saves after every action.

Errors are raised as :class:`~coinche.errors.CoincheError` (a stable ``key`` with ``params``);
the transport in :mod:`coinche.webapi` turns them into ``{"error": ...}``.
"""

from __future__ import annotations

from typing import Any

from .english import sentence
from .errors import CoincheError
from .play import rule_position
from .cards import mask_of
from .position import Position
from .record import malformed
from .session import DEFAULT_LEVEL, Session, announce_advice, last_trick_json

HUMAN = 0
_session: Session | None = None


def _current() -> Session:
    if _session is None:
        raise CoincheError("no_match")
    return _session


def _answer(session: Session, event: dict | None = None) -> dict[str, Any]:
    return {"event": event, "state": session.state(HUMAN), "snapshot": session.snapshot()}


def new_match(variant: str | None = None, target: int | None = None, level: str = DEFAULT_LEVEL, seed: str | None = None,
              deal_seed: str | None = None, first_dealer: int | None = None, rules: str | None = None) -> dict:
    """Start a solo match: the human in seat 0 (south), bots in the three others; the human speaks first in
    the first deal unless ``first_dealer`` says otherwise.  ``deal_seed`` and ``first_dealer`` make its
    first deal a shared one (``state.deal_seed`` and ``state.deal.dealer``).  ``rules``: the table's
    house rules in their notation (``de-2000``, ``open=82,round=5up``); ``variant`` and ``target`` replace
    the rules' own when given."""
    global _session
    _session = Session.new(variant, target, level, seed, deal_seed=deal_seed, first_dealer=first_dealer,
                           rules=rules)
    return _answer(_session)


#: The match seed of a first deal shown before the engine is up: never saved nor played (new_match's answer
#: replaces it, with the match seed that the engine draws), so any fixed text does.
PREVIEW_MATCH_SEED = "first-deal-preview"


def first_deal(variant: str = "coinche", target: int = 1000, level: str = DEFAULT_LEVEL, deal_seed: str | None = None) -> dict:
    """A first deal for the page to draw before its engine is up, the worker's match untouched: ``{deal_seed,
    state}``, the state of a new match whose first deal has ``deal_seed`` (a random one when null), the human
    to call first.  The build deals a first visit's (tools/first_deals.py); the page asks for the next
    visit's during this one and keeps it.  ``new_match(deal_seed=...)`` deals the same cards.

    >>> a, b = first_deal(deal_seed="42"), first_deal()
    >>> a["state"]["deal_seed"], a["state"]["deal"]["current_player"], a["deal_seed"] != b["deal_seed"]
    ('42', 0, True)
    >>> new_match(deal_seed="42")["state"]["deal"] == a["state"]["deal"]
    True
    """
    if deal_seed is None:
        import os

        deal_seed = str(int.from_bytes(os.urandom(8), "big"))
    state = Session.new(variant, target, level, PREVIEW_MATCH_SEED, deal_seed=deal_seed, first_dealer=None).state(HUMAN)
    return {"deal_seed": state["deal_seed"], "state": state}


def load(snapshot: Any) -> dict:
    """Restore a saved match exactly; a corrupt or old save raises ``save_corrupt`` / ``save_old``."""
    global _session
    _session = Session.from_snapshot(snapshot)
    return _answer(_session)


def state() -> dict:
    return _answer(_current())


def act(action: str) -> dict:
    """The human's call or card (notation ``80h``, ``pass``, ``Jh``), checked."""
    session = _current()
    return _answer(session, session.act(HUMAN, action))


def bot_step() -> dict:
    """One bot action if a bot is to move (``event`` is null otherwise)."""
    session = _current()
    return _answer(session, session.bot_step())


def coach() -> dict | None:
    """During the auction on the human's turn: the Normal bot's call and why."""
    return _current().coach(HUMAN)


def judge(position: str) -> dict:
    """Rule on a judge position (``trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s``)."""
    p = Position.parse(position)
    ruling = rule_position(mask_of(p.hand), p.trick, p.trump)
    return {
        "position": str(p),
        "trump": str(p.trump),
        "trick": [str(c) for c in p.trick],
        "hand": [str(c) for c in p.hand],
        "partner_index": p.partner_index,
        "rule": ruling.rule,
        "note": ruling.note,
        "legal": [str(c) for c in p.hand if ruling.legal >> c & 1],
        "forbidden": {
            str(f.card): {"rule": f.rule, "key": f.key, "params": f.params, "text": sentence(f.key, f.params)}
            for f in ruling.forbidden
        },
    }


def judge_batch(positions: list) -> list:
    """Rule on many positions at once; a bad one answers ``{"error": ...}`` in its place."""
    out = []
    for text in positions:
        try:
            out.append(judge(text))
        except CoincheError as e:
            out.append({"error": e.to_json()})
    return out


def finished_deals(count: int = 8) -> list[dict]:
    """The solo match's last ``count`` finished deals, newest first: ``{number, record, deal_seed}`` (the
    seed, with the record's dealer, shares the deal as a link).  A finished deal hides nothing: its record
    is what the deal's end already showed."""
    match = _current().match
    first = max(0, len(match.history) - count)
    return [{"number": i + 1, "record": match.history[i], "deal_seed": str(match.deal_seed(i))}
            for i in range(len(match.history) - 1, first - 1, -1)]


def replay_steps(record: Any) -> list[dict]:
    """A finished deal's record replayed step by step for the page's replay view: the deal as dealt, then
    one snapshot after every call and card (all four hands, the trick on the table with its winner once
    complete, the card points and tricks won so far; at a table of announcements, ``declared``: those declared,
    from the end of the first trick on, as a seat's view gives them).  A bad record raises ``malformed_record``."""
    from .cards import card_name, cards_of
    from .record import replay
    from .view import announcement_json

    steps: list[dict] = []

    def snapshot(deal) -> None:
        calls, plays = len(deal.calls), len(deal.plays)
        step: dict[str, Any] = {
            "kind": "deal", "seat": None, "action": None, "announce": None,
            "phase": deal.phase.name.lower(), "calls": calls, "plays": plays,
            "hands": [[card_name(c) for c in cards_of(h)] for h in deal.hands],
            "turned": None if deal.turned < 0 or deal.dealt is not None else card_name(deal.turned),
            "contract": None if deal.contract is None else deal.contract.to_json(),
            "trick": {"leader": deal.leader, "cards": [card_name(c) for c in deal.trick], "winner": None, "points": None},
            "points": list(deal.cards_won), "tricks": list(deal.tricks_won),
        }
        if steps:
            before = steps[-1]
            if calls > before["calls"]:
                seat, call = deal.calls[-1]
                step.update(kind="call", seat=seat, action=str(call))
            else:
                step.update(kind="card", seat=_seat_of_last_card(deal), action=card_name(deal.plays[-1]))
                if deal.announcements and deal.announcements[-1][2] == deal.plays[-1]:
                    step["announce"] = deal.announcements[-1][1]
                if not deal.trick:  # the card completed a trick: show it with its winner
                    step["trick"] = last_trick_json(deal)
        if deal.rules.announce:  # the announcements, shown to all from the end of the first trick on
            step["declared"] = [announcement_json(s, a) for s, a in deal.declared] if deal.tricks else []
        steps.append(step)

    replay(record, snapshot)
    return steps


def what_if(record: Any, line: Any, by: Any = "expert") -> dict:
    """A finished deal branched along a what-if ``line`` (``"<ply>:<move>[,...]"``, coinche.whatif) and
    played out ``by`` the Expert bots or ``dd``, for the replay view: ``{line, by, branch, exact_from,
    result, real, record, steps}``, the steps as :func:`replay_steps` gives them for the branch's record.
    A bad line raises ``whatif_malformed``; a move not allowed there the rules' own error (its reason)."""
    from .whatif import parse_line
    from .whatif import what_if as branch_of

    branch = branch_of(record, parse_line(line), by=by)
    return {**branch, "steps": replay_steps(branch["record"])}


def what_if_choices(record: Any, ply: Any) -> dict:
    """The moves the rules allow at decision ``ply`` of a finished deal (coinche.whatif.choices)."""
    from .whatif import choices

    return choices(record, ply)


def _seat_of_last_card(deal) -> int:
    if deal.trick:
        return (deal.leader + len(deal.trick) - 1) & 3
    leader, cards, _ = deal.tricks[-1]
    return (leader + len(cards) - 1) & 3


def rules_info() -> dict:
    """The house-rule options and presets for the settings and the rules page (``coinche rules --json``)."""
    from .rules import describe

    return describe()


def rules_parse(text: Any) -> dict:
    """A rules notation read by the engine: ``{notation, options, changes}`` (canonical notation, every
    option's value, the house rules it sets); an unknown option or value raises ``unknown_rule_option`` /
    ``bad_rule_value`` naming it."""
    from .rules import Rules

    rules = Rules.parse(text)
    return {"notation": str(rules), "options": rules.to_json(), "changes": rules.changes()}


def options() -> dict:
    """What the page offers and reads, from the engine alone: the variants, the match targets and the bot
    levels of the settings (in the order the settings show them), the house-rule options and presets
    (:func:`rules_info`), the ranks in trump and in a plain suit, strongest first, with their points (the
    rules page's pictures), and the judge's position notation: the cards the trick and the hand hold at most,
    the longest text read.  The build writes it into the site (dist/options.json,
    tools/engine_options.py), so that the page draws its settings before its engine is up.

    >>> o = options()
    >>> o["variants"], o["targets"], o["levels"]
    (['coinche', 'classic'], [501, 701, 1000, 1500, 2000], ['easy', 'normal', 'expert'])
    >>> o["defaults"]
    {'variant': 'coinche', 'target': 1000, 'level': 'normal'}
    >>> o["position"]
    {'trick': 3, 'hand': 8, 'max_length': 100}
    >>> o["cards"]["trump"][:3], o["cards"]["plain"][:3]
    ([['J', 20], ['9', 14], ['A', 11]], [['A', 11], ['T', 10], ['K', 4]])
    """
    from .cards import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH, Rank
    from .position import LIMITS, MAX_LENGTH
    from .rules import TARGETS, VARIANTS, Rules
    from .session import LEVELS

    own = Rules()
    return {
        "variants": list(VARIANTS),
        "targets": list(TARGETS),
        "levels": list(LEVELS),
        "defaults": {"variant": own.variant, "target": own.target, "level": DEFAULT_LEVEL},
        "rules": rules_info(),
        "cards": {name: [[str(Rank(r)), points[r]] for r in sorted(range(8), key=lambda r: -strength[r])]
                  for name, strength, points in (("trump", TRUMP_STRENGTH, TRUMP_POINTS),
                                                 ("plain", PLAIN_STRENGTH, PLAIN_POINTS))},
        "position": {**LIMITS, "max_length": MAX_LENGTH},
    }


COMMANDS = {
    "options": options,
    "rules_info": rules_info,
    "rules_parse": rules_parse,
    "new_match": new_match,
    "first_deal": first_deal,
    "load": load,
    "state": state,
    "act": act,
    "bot_step": bot_step,
    "coach": coach,
    "judge": judge,
    "judge_batch": judge_batch,
    "finished_deals": finished_deals,
    "replay_steps": replay_steps,
    "what_if": what_if,
    "what_if_choices": what_if_choices,
}


def coach_view(view: Any) -> dict:
    """The auction coach for a seat's view the page already holds (1v1: the referee's ``state.deal``),
    with no match behind it: the Normal bot's ``explain_call`` on that view, rebuilt as a
    :class:`~coinche.view.SeatView`.  Its seed comes from the view itself (the text
    ``coach/<variant>/<dealer>/<seat>/<hand>/<calls>``), so the same view always gets the same advice.
    At the seat's first card of a table of announcements, the declaration to make (``announceable``).
    Answers ``{call, key, params}``, or ``None`` when the seat is not to call nor to declare; a view that
    is not one raises ``bad_option``."""
    from .announce import Announcement
    from .bots import make_bot
    from .calls import Call
    from .cards import SUIT_LETTERS, Card
    from .rules import Rules
    from .scoring import Contract, DealScore
    from .view import SeatView

    try:
        cards = lambda texts: tuple(Card.parse(t) for t in texts)  # noqa: E731
        contract_of = lambda js: None if js is None else Contract(  # noqa: E731
            view["variant"], int(js["declarer"]), SUIT_LETTERS.index(js["trump"]), int(js["value"]), int(js["multiplier"]))
        result = view["result"]
        phase = view["phase"]
        seat_view = SeatView(
            seat=int(view["seat"]), variant=str(view["variant"]), dealer=int(view["dealer"]), phase=phase,
            current_player=int(view["current_player"]), hand=cards(view["hand"]),
            hand_counts=tuple(int(n) for n in view["hand_counts"]),
            calls=tuple((int(seat), Call.parse(call)) for seat, call in view["calls"]),
            turned=None if view["turned"] is None else Card.parse(view["turned"]),
            contract=contract_of(view["contract"]),
            leader=int(view["leader"]), trick=cards(view["trick"]),
            tricks=tuple((int(t["leader"]), cards(t["cards"]), int(t["winner"])) for t in view["tricks"]),
            announcements=tuple((int(a["seat"]), str(a["kind"]), Card.parse(a["card"])) for a in view["announcements"]),
            cards_won=tuple(int(n) for n in view["cards_won"]), tricks_won=tuple(int(n) for n in view["tricks_won"]),
            result=None if result is None else DealScore(
                tuple(result["cards"]), result["belote"], tuple(result["tricks"]), bool(result["made"]),
                tuple(result["scores"])),
            void=bool(view["void"]),
            legal=tuple((Call.parse if phase == "auction" else Card.parse)(a) for a in view["legal"]),
            rules=Rules.parse(view.get("rules", "own")).with_match(str(view["variant"]), 1000),
            standing=contract_of(view.get("standing")),  # absent from an older referee's views
            announceable=tuple(Announcement.parse(a["announcement"]) for a in view.get("announceable", ())),
        )
    except (KeyError, TypeError, ValueError, IndexError, CoincheError) as e:
        raise CoincheError("bad_option", name="view", value=type(e).__name__) from None
    if seat_view.current_player != seat_view.seat or not seat_view.legal:
        return None
    if seat_view.phase == "play":
        return announce_advice(make_bot("normal", "coach-announce"), seat_view)
    if seat_view.phase != "auction":
        return None
    seed = "/".join(["coach", seat_view.variant, str(seat_view.dealer), str(seat_view.seat),
                     ",".join(str(c) for c in seat_view.hand), ",".join(str(c) for _, c in seat_view.calls)])
    call, key, params = make_bot("normal", seed).explain_call(seat_view)
    return {"call": str(call), "key": key, "params": params}


COMMANDS["coach_view"] = coach_view


# ---------------------------------------------------------------- the review of a finished deal
# A review runs as a sequence of small commands so that the page shows its progress, may stop between two
# of them, and the bots' commands interleave: `review_plan` once, `review_decision` per decision, then
# `review_summary`.  Each is a pure function of the record (no state kept between them).
def review_plan(record: Any, seats: Any = None) -> dict:
    """The decisions of ``seats`` (all four when null) a review of the finished deal walks, with the key
    that keeps the review with its deal and the marks' thresholds."""
    from . import review

    return review.review_plan(record, seats)


def review_decision(record: Any, index: Any) -> dict:
    """The decision at action ``index`` (from the plan) reviewed by the Expert with what its seat knew."""
    from . import review

    return review.review_decision(review.decision_at(record, index))


def review_summary(decisions: Any) -> dict:
    """The review's summary line: points lost in all and the count of each mark."""
    from . import review

    if not isinstance(decisions, list) or not all(isinstance(d, dict) for d in decisions):
        raise malformed("bad_decisions")
    return review.summarize(decisions)


COMMANDS.update({"review_plan": review_plan, "review_decision": review_decision, "review_summary": review_summary})


# ---------------------------------------------------------------- the par of a deal, the deal of the day
# The page computes a par on its review helper as a sequence of small commands (coinche.par): `par_plan`
# once, `par_step` per action of each of the K replays, then `par_summary` with the replays' scores.
def par_plan(record: Any, seat: Any, bots: Any = None) -> dict:
    """The replays of ``seat``'s par of a finished deal: ``{k, bots, seat, result}`` (K replays, the four
    seats' bots, the record's own score for the seat's side).  The record is checked first (a bad one
    raises ``malformed_record``); a record that does not say who sat where, with no ``bots``, raises
    ``par_no_seats``."""
    from .par import PAR_DEALS, par_bots, record_score

    result = record_score(_record(record), seat)
    return {"k": PAR_DEALS, "bots": list(par_bots(record, seat, bots)), "seat": seat, "result": result}


def par_step(record: Any, seat: Any, index: Any, actions: Any, bots: Any = None) -> dict:
    """The next action of replay ``index`` given its ``actions`` so far: ``{"action": "Jh"}``, or
    ``{"done": true, "score": N}`` when the replay is over (N: the side's score)."""
    from .par import par_step as step

    return step(_record(record), seat, index, actions, bots)


def par_summary(record: Any, seat: Any, scores: Any, bots: Any = None) -> dict:
    """The par from the replays' ``scores`` the page collected: ``{par, result, difference, k, stderr}`` (and
    ``seat``, ``bots``, ``scores``), the figures ``coinche par`` prints."""
    from .par import summary

    return summary(_record(record), seat, scores, bots).to_json()


def par_deal() -> dict:
    """The solo match's deal being played, as dealt, for its par's replays to start while it is played (on the
    review helper, never shown before the deal ends): ``{record, seat}``, ``record`` holding the deck, dealer,
    rules and seats and no call nor card (coinche.record.dealt_record); its replays are those of the finished
    deal.  A command of the table's engine: it loads no module of the par (``par_k`` gives K, on the helper)."""
    from .record import dealt_record

    session = _current()
    return {"record": dealt_record(session.match.deal, session.seats()), "seat": HUMAN}


def par_k() -> dict:
    """``{k}``: how many replays a par takes (coinche.par.PAR_DEALS)."""
    from .par import PAR_DEALS

    return {"k": PAR_DEALS}


def daily(date: Any = None) -> dict:
    """The deals of the day ``date`` (``YYYY-MM-DD``; today in UTC when null): ``{date, deals: [{number, rules,
    dealer, deal_seed, level, seats, daily}]}``; ``new_match(rules=, level=, deal_seed=, first_dealer=dealer)``
    deals each.  A malformed or impossible date raises ``daily_bad_date``."""
    from .daily import daily_set, today

    deals = daily_set(today() if date is None else date)
    return {"date": deals[0].date, "deals": [d.to_json() for d in deals]}


#: At most this many records in one ``check_records``.
CHECK_RECORDS_LIMIT = 50_000


def check_records(records: Any) -> list:
    """Each record replayed and checked (coinche.record.check): ``null`` when it plays back to its stated
    hands and result, else ``{key, params}``, why not (the deck holding a card twice, an illegal card...)."""
    from .record import check

    if not isinstance(records, list) or len(records) > CHECK_RECORDS_LIMIT:
        raise CoincheError("bad_records", limit=CHECK_RECORDS_LIMIT)
    out: list = []
    for record in records:
        try:
            check(record)
            out.append(None)
        except CoincheError as e:
            out.append({"key": e.key, "params": e.to_json()["params"]})
    return out


def _record(record: Any) -> dict:
    if not isinstance(record, dict):
        raise malformed("not_object")
    return record


COMMANDS.update({"par_plan": par_plan, "par_step": par_step, "par_summary": par_summary, "par_deal": par_deal, "par_k": par_k,
                 "daily": daily,
                 "check_records": check_records})


# ---------------------------------------------------------------- puzzles (coinche.puzzle, docs/puzzles.md)
def _puzzle(puzzle: Any):
    """A puzzle given as its JSON object, its JSON line or its link text."""
    from .puzzle import Puzzle

    if isinstance(puzzle, str):
        return Puzzle.from_json(puzzle) if puzzle.lstrip().startswith("{") else Puzzle.parse(puzzle)
    return Puzzle.from_json(puzzle)


def puzzle_parse(text: Any) -> dict:
    """The puzzle's JSON object from a link's fragment or a JSON line; a bad one raises its key
    (``puzzle_*``, ``duplicate_card``, ``unknown_field``...)."""
    from .puzzle import PuzzleError

    if not isinstance(text, str):
        raise PuzzleError("puzzle_corrupt", detail="not text")
    return _puzzle(text).to_dict()


def puzzle_format(puzzle: Any) -> str:
    """The puzzle's link text (the fragment of the puzzles page)."""
    return str(_puzzle(puzzle))


def puzzle_solve(puzzle: Any) -> dict:
    """``{values: {card: points}, best: [cards], margin, line, holds}``: each legal card's final score for the
    side to play (double dummy for an open puzzle, the review's for a seat puzzle), the best cards, how much the
    next best loses (null when every card is best), the whole line played out from a best card (the puzzle's
    own line first; empty for a seat puzzle), and whether the puzzle holds (``null``, else the reason's key
    and params)."""
    from .puzzle import _holds, best_cards, played_out, solve_puzzle

    p = _puzzle(puzzle)
    values = solve_puzzle(p)
    best, gap = best_cards(values)
    first = p.line[0] if p.line and p.line[0] in best else best[0]
    return {"values": {str(c): v for c, v in values.items()}, "best": [str(c) for c in best], "margin": gap,
            "line": [str(c) for c in played_out(p, first)], "holds": _holds(p.solution, values, p.margin)}


def puzzle_play(puzzle: Any, cards: Any) -> dict:
    """The position once ``cards`` (a list, each legal in turn) are played from the puzzle's: its JSON object
    (no solution), for the page to ask :func:`puzzle_solve` about the next move of a line."""
    from .puzzle import PuzzleError

    if not isinstance(cards, list):
        raise PuzzleError("puzzle_malformed", field="line", text="a list of cards")
    return _puzzle(puzzle).after(cards).to_dict()


def puzzle_from_review(record: Any, index: Any, reviewed: Any = None) -> dict:
    """A "from your seat" puzzle (kind ``seat``) from the decision at action ``index`` of a finished deal,
    which the review marked a mistake or a blunder: only what the seat knew then, the solution the review's
    best cards.  ``reviewed``: the review's item for that decision, when the page has it (else it is reviewed
    anew, as :func:`review_decision` does without the hindsight)."""
    from . import review
    from .puzzle import PuzzleError, from_review

    decision = review.decision_at(record, index)
    if decision.kind != "card":
        raise PuzzleError("puzzle_not_a_mistake", index=index)
    if not isinstance(reviewed, dict) or reviewed.get("index") != index or reviewed.get("action") != str(decision.action):
        reviewed = review.priced_with_knowledge(decision)[0]
    return from_review(decision, reviewed, f"seat-{review.record_key(record)}-{index}").to_dict()


COMMANDS.update({"puzzle_parse": puzzle_parse, "puzzle_format": puzzle_format, "puzzle_solve": puzzle_solve,
                 "puzzle_play": puzzle_play, "puzzle_from_review": puzzle_from_review})
