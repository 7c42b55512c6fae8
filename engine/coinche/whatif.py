"""What if: a finished deal's record replayed up to a decision, another card or call chosen there, and the
rest of the deal played out, by the Expert bots or double dummy.

A *line* is one or more branch points, each ``(ply, move)``: at decision ``ply`` (0-based, counting the
calls first and then the cards, so ``ply == len(calls)`` is the opening lead) the seat to act chooses
``move`` instead.  The first point is on the real deal; each further one is on the continuation the earlier
points led to, so its ply comes later.  The notation (the replay URL's ``line=``) is
``<ply>:<move>[,<ply>:<move>...]``, e.g. ``"12:Jh"`` or ``"3:pass,9:As"``.

Who plays the rest (``by``):

- ``expert``: the Expert bot at every seat, each seeded from the record and the line (:func:`branch_seed`),
  so a shared link plays out identically everywhere;
- ``dd``: double dummy, every seat playing a card the exact solver ranks best for its side (the one
  its search finds first on a tie, solver.solve_choice), from the first card of the play on (at most
  :data:`EXACT_CARDS` cards in the hands: all 32); any calls (the solver does not bid) are the Expert bots'.
  The answer says where the solver took over (``exact_from``).

>>> from coinche.deal import Deal
>>> from coinche.record import deal_to_record
>>> deal = Deal.new("coinche", dealer=0, seed=4)
>>> for call in ("80h", "pass", "pass", "pass"): deal.apply(call)
>>> while not deal.is_over: deal.play(deal.legal_cards()[0])
>>> rec = deal_to_record(deal)
>>> format_line(parse_line("4:Jh,12:pass"))
'4:Jh,12:pass'
>>> branch = what_if(rec, parse_line("28:" + rec["plays"][24]), by="dd")
>>> branch["record"]["plays"][:24] == rec["plays"][:24]
True
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

from .bots import bot_turn, make_bot
from .calls import Call
from .cards import Card, card_name
from .deal import Deal, Phase
from .errors import CoincheError, IllegalActionError, NotationError
from .record import deal_to_record, replay

#: The double-dummy play-out solves exactly once at most this many cards are left in the four hands: every
#: card.  A branch from the opening lead costs about 170 ms in CPython, 320 ms in Pyodide at the median
#: (bench/whatif_bench.py, docs/performance.md), one search per card keeping its table of bounds.
EXACT_CARDS = 32
BY = ("expert", "dd")
#: A line holds at most this many branch points (a deal has at most ~60 decisions anyway).
MAX_POINTS = 64


class WhatIfError(CoincheError, ValueError):
    """A line that cannot be read, or a branch point that is not a decision of the deal it is on."""


def parse_line(text: Any) -> list[tuple[int, str]]:
    """The branch points of a line's notation (``"12:Jh,20:As"``), plies strictly increasing.

    >>> parse_line("12:Jh, 20:pass")
    [(12, 'Jh'), (20, 'pass')]
    >>> parse_line("20:Jh,12:As")
    Traceback (most recent call last):
    ...
    coinche.whatif.WhatIfError: malformed what-if line: plies must increase (12 after 20)
    """
    if not isinstance(text, str) or not text.strip():
        raise WhatIfError("whatif_malformed", detail="an empty line")
    points: list[tuple[int, str]] = []
    for part in text.split(","):
        ply, sep, move = part.strip().partition(":")
        if not sep or not ply.isdigit() or not move.strip() or len(ply) > 3:
            raise WhatIfError("whatif_malformed", detail=f"{part.strip()[:24]!r} is not <ply>:<move>")
        if points and int(ply) <= points[-1][0]:
            raise WhatIfError("whatif_malformed", detail=f"plies must increase ({int(ply)} after {points[-1][0]})")
        points.append((int(ply), move.strip()))
    if len(points) > MAX_POINTS:
        raise WhatIfError("whatif_malformed", detail=f"more than {MAX_POINTS} branch points")
    return points


def format_line(points: Sequence[tuple[int, str]]) -> str:
    return ",".join(f"{ply}:{move}" for ply, move in points)


def branch_seed(record: dict, points: Sequence[tuple[int, str]], by: str) -> str:
    """The seed of a branch's bots: a digest of the deal (rules, dealer, deck, calls, cards) and the line,
    so the same link plays out the same way and another line or deal another way."""
    text = "|".join([str(record.get("rules", record.get("variant"))), str(record.get("dealer")),
                     str(record.get("deck")), ",".join(map(str, record.get("calls", []))),
                     ",".join(map(str, record.get("plays", []))), format_line(points), by])
    return "whatif/" + hashlib.sha256(text.encode()).hexdigest()[:16]


def _decisions(deal: Deal) -> int:
    return len(deal.calls) + len(deal.plays)


def _actions(deal: Deal) -> list[Call | int]:
    """The deal's decisions in order, as ``Deal.apply`` takes them: its calls, then its cards."""
    return [call for _, call in deal.calls] + list(deal.plays)


def _parse_move(deal: Deal, move: str) -> Call | int:
    try:
        return Call.parse(move) if deal.phase == Phase.AUCTION else int(Card.parse(move))
    except NotationError:
        raise WhatIfError("whatif_bad_move", move=move[:24],
                          what="call" if deal.phase == Phase.AUCTION else "card") from None


def apply_point(deal: Deal, ply: int, move: str) -> None:
    """Play ``move`` at decision ``ply`` of ``deal`` (which stands at that decision), checked by the rules:
    a forbidden card raises ``illegal_card`` with the play rules' reason, a call ``illegal_call``."""
    action = _parse_move(deal, move)
    try:
        deal.apply(action)
    except IllegalActionError as e:
        raise IllegalActionError(e.key, ply=ply, **e.params) from None


def _dd_card(deal: Deal, search: Any) -> int:
    """A best card for the seat to play, by one search of the exact solver (solve_choice's best), ``search``
    keeping its table of bounds from one card of the branch to the next."""
    from .solver import announced_side_points, belote_side, solve_choice

    _, best = solve_choice(deal.hands, deal.leader, deal.trick, deal.trump, int(deal.legal_cards()[0]),
                           deal.cards_won, deal.tricks_won, deal.contract, belote_side(deal), search=search,
                           rules=deal.rules, announced=announced_side_points(deal))
    return int(best.card)


def _cards_left(deal: Deal) -> int:
    return sum(bin(h).count("1") for h in deal.hands)


def what_if(record: dict, points: Sequence[tuple[int, str]], by: str = "expert", level: str = "expert") -> dict:
    """The deal of ``record`` branched along ``points`` and played out ``by`` the Expert bots or ``dd``.

    Answers ``{"record", "line", "by", "branch", "exact_from", "result", "real"}``: the branch's whole deal
    as a record (it replays like any record), the line's notation, the first branch point's ply, the ply from
    which the solver played (``None`` if never), the branch's result and the real deal's.  A branch point past
    the end of the deal raises ``whatif_no_decision``; a move of the wrong kind ``whatif_bad_move``; a
    forbidden one ``illegal_card`` (with the rule's reason) or ``illegal_call``.  ``level`` is for tests.
    """
    if by not in BY:
        raise WhatIfError("bad_option", name="by", value=str(by)[:24])
    points = list(points)
    if not points:
        raise WhatIfError("whatif_malformed", detail="an empty line")
    real = replay(record)
    real_actions = _actions(real)
    deal = Deal(real.rules, real.dealer, real.deck)
    seed = branch_seed(record, points, by)
    bots = [make_bot(level, seed=f"{seed}/{seat}") for seat in range(4)]
    exact_from = None
    search = None
    first = points[0][0]
    pending = list(points)
    while not deal.is_over:
        ply = _decisions(deal)
        if pending and pending[0][0] == ply:
            apply_point(deal, *pending.pop(0))
            continue
        if ply < first:
            deal.apply(real_actions[ply])
        elif by == "dd" and deal.phase == Phase.PLAY and _cards_left(deal) <= EXACT_CARDS:
            exact_from = ply if exact_from is None else exact_from
            if search is None:
                from .solver import searcher

                search = searcher(deal.trump, deal.rules)
            deal.play(_dd_card(deal, search))
        else:
            bot_turn(deal, bots[deal.turn])
    if pending:
        raise WhatIfError("whatif_no_decision", ply=pending[0][0], last=_decisions(deal) - 1)
    out = deal_to_record(deal)
    return {"record": out, "line": format_line(points), "by": by, "branch": first, "exact_from": exact_from,
            "result": out["result"], "real": deal_to_record(real)["result"]}


def choices(record: dict, ply: int) -> dict:
    """The moves allowed at decision ``ply`` of the record's deal, as the rules give them (the replay's
    "What if…" offers these only): ``{ply, seat, kind: "call"|"card", moves, real}``, ``real`` the move the
    deal made there.  A ply that is no decision of the deal raises ``whatif_no_decision``.

    >>> from coinche.deal import Deal
    >>> from coinche.record import deal_to_record
    >>> deal = Deal.new("coinche", dealer=0, seed=4)
    >>> for call in ("80h", "pass", "pass", "pass"): deal.apply(call)
    >>> while not deal.is_over: deal.play(deal.legal_cards()[0])
    >>> c = choices(deal_to_record(deal), 0)
    >>> c["kind"], c["real"], "pass" in c["moves"], "80h" in c["moves"]
    ('call', '80h', True, True)
    """
    real = replay(record)
    actions = _actions(real)
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply < len(actions):
        raise WhatIfError("whatif_no_decision", ply=str(ply)[:24], last=len(actions) - 1)
    deal = Deal(real.rules, real.dealer, real.deck)
    for action in actions[:ply]:
        deal.apply(action)
    if deal.phase == Phase.AUCTION:
        kind, moves, made = "call", [str(c) for c in deal.legal_calls()], str(actions[ply])
    else:
        kind, moves, made = "card", [card_name(c) for c in deal.legal_cards()], card_name(actions[ply])
    return {"ply": ply, "seat": deal.turn, "kind": kind, "moves": moves, "real": made}


__all__ = ["BY", "EXACT_CARDS", "WhatIfError", "apply_point", "choices", "branch_seed", "format_line", "parse_line",
           "what_if"]
