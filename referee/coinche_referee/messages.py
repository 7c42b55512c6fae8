"""Everything the referee sends, built field by field from what PROTOCOL.md lists.

Nothing here copies the session's state and deletes what must not go out: each message type has
its fields (:data:`FIELDS`), and the nested values (a seat's view, an event, an error) are built
one documented field at a time from the engine's objects.  A field the engine adds later reaches
no player until it is written here and in PROTOCOL.md (``tests/test_referee_audit.py`` compares
the field paths a whole match shows with the table there).  Never sent: a seed, a generator's
state, the deck order, another seat's hand or token.

>>> message("pong", id=3)
{'type': 'pong', 'id': 3}
>>> message("pong", seed=1)
Traceback (most recent call last):
...
ValueError: 'pong' has no field 'seed'
"""

from __future__ import annotations

from typing import Any

from coinche.cards import card_name
from coinche.errors import CoincheError
from coinche.view import announcement_json

#: The top-level fields of each message type (``type`` apart; ``id`` where a request is answered).
FIELDS: dict[str, tuple[str, ...]] = {
    "welcome": ("protocol", "engine", "level", "variants", "targets", "defaults", "grace", "lobby_timeout",
                "limits"),
    "pong": ("id",),
    "waiting": ("id", "variant", "target"),
    "no_opponent": ("waited",),
    "created": ("id", "code", "variant", "target", "token"),
    "expired": ("code",),
    "cancelled": ("id",),
    "left": ("id",),
    "start": ("id", "seat", "token", "code", "names", "seats", "state"),
    "resumed": ("id", "seat", "token", "code", "names", "seats", "state"),
    "lobby": ("id", "code", "seat", "token", "host", "settings", "seats", "expires"),
    "presence": ("seat", "status", "grace", "seats"),
    "update": ("id", "event", "state"),
    "state": ("id", "state"),
    "opponent": ("seat", "status", "grace"),
    "server": ("status",),
    "clock": ("seat", "status", "strikes", "limit"),
    "watching": ("id", "code", "names", "seats", "state"),
    "said": ("id", "seat", "phrase"),
    "seeking": ("id", "preset", "wait", "variant", "target"),
    "error": ("id", "error"),
}


def message(kind: str, /, **fields: Any) -> dict[str, Any]:
    """One message of type ``kind``; a field its type does not list is a bug, refused here."""
    allowed = FIELDS[kind]
    out: dict[str, Any] = {"type": kind}
    for name, value in fields.items():
        if name not in allowed:
            raise ValueError(f"{kind!r} has no field {name!r}")
        if name == "id" and value is None:
            continue
        out[name] = value
    return out


# ---------------------------------------------------------------- a seat's state

def _contract(contract) -> dict[str, Any] | None:
    if contract is None:
        return None
    js = contract.to_json()
    return {"declarer": js["declarer"], "trump": js["trump"], "value": js["value"], "multiplier": js["multiplier"]}


def _score(score) -> dict[str, Any] | None:
    if score is None:
        return None
    js = score.to_json()
    return {"cards": list(js["cards"]), "belote": js["belote"], "tricks": list(js["tricks"]), "made": js["made"],
            "scores": list(js["scores"])}


def _reason_params(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters of a forbidden card's reason: the suit to follow, or the card to beat."""
    return {k: str(params[k]) for k in ("suit", "card") if k in params}


def _ruling(view) -> dict[str, Any]:
    ruling = view.ruling()
    return {
        "rule": ruling.rule,
        "note": ruling.note,
        "forbidden": {card_name(f.card): {"rule": f.rule, "key": f.key, "params": _reason_params(f.params)}
                      for f in ruling.forbidden},
    }


def _table(view) -> dict[str, Any]:
    """The fields of a :class:`coinche.view.SeatView` that every seat is shown alike: the public table."""
    return {
        "variant": view.variant,
        "dealer": view.dealer,
        "phase": view.phase,
        "current_player": view.current_player,
        "hand_counts": list(view.hand_counts),
        "calls": [[seat, str(call)] for seat, call in view.calls],
        "turned": None if view.turned is None else str(view.turned),
        "contract": _contract(view.contract),
        "leader": view.leader,
        "trick": [str(c) for c in view.trick],
        "tricks": [{"leader": leader, "cards": [str(c) for c in cards], "winner": winner}
                   for leader, cards, winner in view.tricks],
        "announcements": [{"seat": seat, "kind": kind, "card": str(card)} for seat, kind, card in view.announcements],
        "cards_won": list(view.cards_won),
        "tricks_won": list(view.tricks_won),
        "result": _score(view.result),
        "void": view.void,
        "standing": _contract(view.standing),
    }


def seat_view(view) -> dict[str, Any]:
    """A :class:`coinche.view.SeatView` as the page reads it: this seat's hand, the public table."""
    out = {"seat": view.seat, **_table(view), "hand": [str(c) for c in view.hand], "legal": [str(a) for a in view.legal]}
    if view.legal and view.phase == "play":
        out["ruling"] = _ruling(view)
    if view.rules.announce:  # the others' announcements from the end of the first trick only (SeatView)
        out["declared"] = [announcement_json(seat, a) for seat, a in view.declared]
        out["announceable"] = [announcement_json(view.seat, a) for a in view.announceable]
    return out


def public_view(deal) -> dict[str, Any]:
    """A deal as someone without a seat may see it (a spectator): the public table (:func:`_table`, read from
    a seat's view, none of whose own fields is taken), no hand, no legal action; the announcements declared
    only from the end of the first trick, when they are every seat's."""
    view = deal.view(0)
    out = {"seat": None, **_table(view), "hand": [], "legal": []}
    if view.rules.announce:
        shown = deal.tricks or deal.is_over  # as every seat is shown the others' (coinche.view)
        out["declared"] = [announcement_json(seat, a) for seat, a in deal.declared] if shown else []
        out["announceable"] = []
    return out


def _history_entry(record: dict[str, Any]) -> dict[str, Any]:
    result = record["result"]
    return {"scores": list(result["scores"]), "void": result["void"], "contract": _record_contract(result["contract"]),
            "made": result.get("made")}


def _record_contract(js: dict[str, Any] | None) -> dict[str, Any] | None:
    if js is None:
        return None
    return {"declarer": js["declarer"], "trump": js["trump"], "value": js["value"], "multiplier": js["multiplier"]}


def seat_state(session, seat: int, clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """The match as ``seat`` may see it (the ``state`` of start, update, resumed and state); ``clock``: the
    decision timed (:meth:`coinche_referee.clock.TurnClock.view`), the same for every seat."""
    return _match_state(session, seat_view(session.match.deal.view(seat)), clock)


def spectator_state(session, clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """The match as a spectator may see it (``watching`` and the updates a spectator gets): every seat's
    public part, no seat's own (:func:`public_view`)."""
    return _match_state(session, public_view(session.match.deal), clock)


def _match_state(session, deal_view: dict[str, Any], clock: dict[str, Any] | None) -> dict[str, Any]:
    match = session.match
    deal = match.deal
    last = deal.tricks[-1] if deal.tricks else None
    return {
        "seq": len(session.actions),
        "variant": match.rules.variant,
        "target": match.rules.target,
        "totals": list(match.totals),
        "deal_index": match.deal_index,
        "winner": match.winner,
        "deal": deal_view,
        "settings": {"variant": match.rules.variant, "target": match.rules.target,
                     "level": session.settings["level"], "humans": list(session.humans)},
        # the table's rules, told with the first state (before the first card) and in every state after
        "rules": str(match.rules),
        "house_rules": match.rules.changes(),
        "bid_values": ["capot" if v == 250 else str(v) for v in match.rules.bid_values],
        "humans": list(session.humans),
        "history": [_history_entry(r) for r in match.history],
        "last_trick": None if last is None else {
            "leader": last[0], "cards": [card_name(c) for c in last[1]], "winner": last[2]},
        "clock": None if clock is None else {"seat": clock["seat"], "left": clock["left"], "total": clock["total"]},
    }


# ---------------------------------------------------------------- what happened

def _deal_record(record: dict[str, Any]) -> dict[str, Any]:
    """A finished deal as every player may see it: never the deck; the hands only after a played deal
    (every card of them has then been played face up by its seat; a void deal's were never shown)."""
    result = record["result"]
    out: dict[str, Any] = {"variant": record["variant"], "dealer": record["dealer"]}
    if not result["void"]:
        out["hands"] = list(record["hands"])
    out["turned"] = record["turned"]
    out["calls"] = list(record["calls"])
    out["plays"] = list(record["plays"])
    public = {"void": result["void"], "contract": _record_contract(result["contract"])}
    for name in ("cards", "belote", "tricks", "made", "scores"):
        if name in result:
            value = result[name]
            public[name] = list(value) if isinstance(value, (list, tuple)) else value
    out["result"] = public
    return out


def _announcement_score(a: dict[str, Any]) -> dict[str, Any]:
    """One announcement of a finished deal (coinche.scoring.AnnouncementScore), field by field."""
    params = {k: str(a["params"][k]) for k in ("name", "rank", "suit") if k in a["params"]}
    return {"seat": a["seat"], "announcement": str(a["announcement"]), "name": str(a["name"]), "value": a["value"],
            "cards": [str(c) for c in a["cards"]], "key": str(a["key"]), "params": params,
            "counted": bool(a["counted"]), "side": a["side"], "points": a["points"]}


def event(raw: dict[str, Any], deal_index: int) -> dict[str, Any]:
    """An event of ``Session.act``/``bot_apply`` as every player may see it (see PROTOCOL.md)."""
    # a declaration of announcements is told without its cards: they are shown at the end of the first trick
    action = "announce" if raw["type"] == "announce" else str(raw["action"])
    out: dict[str, Any] = {"seat": raw["seat"], "action": action, "type": raw["type"], "deal_index": deal_index}
    if raw.get("timeout"):  # the seat's time ran out: the table's bot chose this action
        out["timeout"] = True
    if "announce" in raw:
        out["announce"] = str(raw["announce"])
    trick = raw.get("trick")
    if trick is not None:
        out["trick"] = {"leader": trick["leader"], "cards": [str(c) for c in trick["cards"]],
                        "winner": trick["winner"], "points": trick["points"], "last": bool(trick["last"])}
    end = raw.get("deal_end")
    if end is not None:
        out["deal_end"] = {"totals": list(end["totals"]), "record": _deal_record(end["record"])}
        if "announcements" in end:  # announce=yes: public since the end of the first trick
            out["deal_end"]["announcements"] = [_announcement_score(a) for a in end["announcements"]]
    over = raw.get("match_over")
    if over is not None:
        out["match_over"] = {"winner": over["winner"], "totals": list(over["totals"])}
    return out


# ---------------------------------------------------------------- refusals

#: The parameters an error may carry (PROTOCOL.md, "Errors"): the request's own values, the table's
#: public ones, and the limits.  Anything else an error holds stays in the referee's log.
ERROR_PARAMS = ("detail", "size", "limit", "type", "code", "seq", "sent", "seat", "expected", "call", "card",
                "reason", "rule", "text", "retry_after", "seconds", "name", "value", "allowed", "kind",
                "announcement")
_SCALAR = (str, int, float, bool, type(None))


def error(e: CoincheError) -> dict[str, Any]:
    """``{"key", "params", "message"}`` of a refusal, its parameters taken from the documented list."""
    given = e.to_json()["params"]
    params: dict[str, Any] = {}
    for name in ERROR_PARAMS:
        if name in given:
            value = given[name]
            params[name] = value if isinstance(value, _SCALAR) else str(value)
    if isinstance(given.get("reason_params"), dict):
        params["reason_params"] = _reason_params(given["reason_params"])
    return {"key": e.key, "params": params, "message": e.english()}


__all__ = ["FIELDS", "message", "seat_view", "public_view", "seat_state", "spectator_state", "event", "error"]
