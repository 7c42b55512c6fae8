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
from .session import Session

HUMAN = 0
_session: Session | None = None


def _current() -> Session:
    if _session is None:
        raise CoincheError("no_match")
    return _session


def _answer(session: Session, event: dict | None = None) -> dict[str, Any]:
    return {"event": event, "state": session.state(HUMAN), "snapshot": session.snapshot()}


def new_match(variant: str = "coinche", target: int = 1000, level: str = "normal", seed: str | None = None,
              deal_seed: str | None = None, first_dealer: int = 0) -> dict:
    """Start a solo match: the human in seat 0 (south), bots in the three others.  ``deal_seed`` and
    ``first_dealer`` make its first deal a shared one (``state.deal_seed`` and ``state.deal.dealer``)."""
    global _session
    _session = Session.new(variant, target, level, seed, deal_seed=deal_seed, first_dealer=first_dealer)
    return _answer(_session)


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


COMMANDS = {
    "new_match": new_match,
    "load": load,
    "state": state,
    "act": act,
    "bot_step": bot_step,
    "coach": coach,
    "judge": judge,
    "judge_batch": judge_batch,
}
