"""The wire protocol: what a page may send, and the public form of what the referee sends back.

Every frame is one JSON object with a ``type``.  A request is read in two steps, like a move in
python-chess: :func:`parse_request` checks the syntax (size, JSON, known type, field types) and
gives a :class:`Request`; whether it is allowed now (turn, legality, seat) is the referee's
business.  Anything wrong raises :class:`RefereeError`, with a stable ``key`` and its ``params``.

>>> parse_request('{"type": "act", "action": "80h", "id": 7}')
Request(type='act', id=7, fields={'action': '80h'})
>>> parse_request('{"type": "act"}')
Traceback (most recent call last):
...
coinche_referee.protocol.RefereeError: malformed message: 'action' is required

PROTOCOL.md describes every message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from coinche.errors import CoincheError
from coinche.match import TARGETS
from coinche.deal import VARIANTS
from coinche.session import LEVELS

from .clock import PRESETS as CLOCKS

PROTOCOL = "coinche-referee/1"

ENGLISH = {
    "bad_json": "the message is not a JSON object",
    "bad_message": "malformed message: {detail}",
    "too_large": "the message is {size} bytes, more than {limit}",
    "binary": "binary frames are not accepted, send JSON text",
    "rate_limited": "too many messages, slow down",
    "unknown_type": "unknown message type '{type}'",
    "not_seated": "you have no seat at a table",
    "already_seated": "you already sit at a table or wait for one",
    "not_waiting": "you are not waiting for a table",
    "no_such_table": "no table waits with code '{code}'",
    "bad_token": "unknown or expired reconnect token",
    "seat_lost": "your seat was given to a bot",
    "stale": "the table is at action {seq}, your message answers action {sent}",
    "server_full": "the referee is full, try again later",
    "too_many_connections": "too many connections from your address (at most {limit}), close one first",
    "too_many_guesses": "too many wrong table codes from your address, try again in {retry_after} seconds",
    "idle": "closed: no table joined or waited for within {seconds:g} seconds",
    "superseded": "another connection took this seat over",
    "internal": "the referee failed: {detail}",
    "update_page": "table {code} is a friends' table: open the link in an up-to-date page",
    "match_started": "the match at table {code} has started: only its players can come back",
    "table_full": "every seat at table {code} is taken",
    "seat_taken": "seat {seat} is not free",
    "not_in_lobby": "you are not in the lobby of a friends' table before its start",
    "not_host": "only the host (seat {seat}) can start the table",
    "too_few_players": "at least {limit} people must be seated to start",
    "not_started": "the match has not started yet",
    "unavailable": "the referee cannot store new tables right now, try again in a moment",
    "too_late": "the time for action {seq} ran out: the table's bot played it for you",
    "spectator": "you watch this table: a spectator cannot play, take a seat or join another table",
    "no_spectators": "the table {code} cannot be watched: its creator does not allow it",
    "too_many_spectators": "the table has {limit} spectators already",
    "unknown_phrase": "there is no quick-chat phrase '{text}'",
    "unknown_preset": "there is no public table preset '{text}'",
    "chat_limited": "too many quick-chat phrases: wait {retry_after} seconds",
}


class RefereeError(CoincheError):
    """A request the referee refuses; ``id`` is the request's id, echoed in the error message."""

    def __init__(self, key: str, *, id: int | str | None = None, **params: Any) -> None:
        self.id = id
        super().__init__(key, **params)

    def english(self) -> str:
        template = ENGLISH.get(self.key)
        if template is None:
            return super().english()
        return template.format(**self.params)


# ---------------------------------------------------------------- requests

#: For each request type, its fields: name -> (checker, required).
_STR16 = ("text of at most 16 characters", lambda v: isinstance(v, str) and len(v) <= 16)
_STR64 = ("text of at most 64 characters", lambda v: isinstance(v, str) and len(v) <= 64)
#: A call, a card or a declaration of announcements: the longest a hand holds, two sequences and a carré
#: (``announce:9s-Js,9h-Jh,4J``), is 23 characters.
_ACTION = ("text of at most 32 characters", lambda v: isinstance(v, str) and len(v) <= 32)
_INT = ("an integer", lambda v: type(v) is int and 0 <= v < 1 << 31)
_VARIANT = (f"one of {', '.join(VARIANTS)}", lambda v: isinstance(v, str) and v in VARIANTS)
_TARGET = (f"one of {', '.join(map(str, TARGETS))}", lambda v: type(v) is int and v in TARGETS)
MAX_NAME = 24  # characters of a player's display name
_NAME = (f"a text of at most {MAX_NAME} characters", lambda v: isinstance(v, str) and len(v) <= MAX_NAME)
_LEVEL = (f"one of {', '.join(LEVELS)}", lambda v: isinstance(v, str) and v in LEVELS)
_BOOL = ("true or false", lambda v: type(v) is bool)
_SEAT = ("a seat, 0 to 3", lambda v: type(v) is int and 0 <= v <= 3)
#: A table's house rules: a notation of coinche.rules (the referee reads it and names an unknown option).
MAX_RULES = 200
_RULES = (f"a rules notation of at most {MAX_RULES} characters", lambda v: isinstance(v, str) and len(v) <= MAX_RULES)
#: A friends' table's settings, the creator's choice as one object.
_CLOCK = (f"one of {', '.join(CLOCKS)}", lambda v: isinstance(v, str) and v in CLOCKS)
TABLE_SETTINGS = {"variant": _VARIANT, "target": _TARGET, "level": _LEVEL, "rules": _RULES, "clock": _CLOCK,
                  "spectators": _BOOL}
_SETTINGS = ("an object with " + ", ".join(f"'{k}' ({what})" for k, (what, _) in TABLE_SETTINGS.items()),
             lambda v: isinstance(v, dict) and all(k in TABLE_SETTINGS and TABLE_SETTINGS[k][1](x) for k, x in v.items()))
FIELDS: dict[str, dict[str, tuple[tuple, bool]]] = {
    "ping": {},
    "queue": {"variant": (_VARIANT, False), "target": (_TARGET, False), "name": (_NAME, False)},
    "create": {"variant": (_VARIANT, False), "target": (_TARGET, False), "name": (_NAME, False),
               "rules": (_RULES, False)},
    "open": {"settings": (_SETTINGS, False), "name": (_NAME, False)},
    "join": {"code": (_STR16, True), "name": (_NAME, False), "lobby": (_BOOL, False)},
    "watch": {"code": (_STR16, True)},
    "say": {"phrase": (_STR16, True)},
    "seek": {"preset": (_STR16, True), "wait": (("a number of seconds, 0 to 300", lambda v: type(v) is int and 0 <= v <= 300),
                                             False), "name": (_NAME, False)},
    "sit": {"seat": (_SEAT, True)},
    "begin": {},
    "cancel": {},
    "resume": {"token": (_STR64, True)},
    "act": {"action": (_ACTION, True), "seq": (_INT, False)},
    "state": {},
    "leave": {},
}


@dataclass(frozen=True, slots=True)
class Request:
    type: str
    id: int | str | None
    fields: dict[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def _request_id(value: Any) -> int | str | None:
    if value is None or (type(value) is int and -(1 << 53) < value < 1 << 53):
        return value
    if isinstance(value, str) and len(value) <= 64:
        return value
    raise RefereeError("bad_message", detail="'id' must be an integer or a text of at most 64 characters")


def parse_request(frame: str | bytes, limit: int = 4096) -> Request:
    """Read one frame from a page; raises :class:`RefereeError` (with the request's id once it is known)."""
    if not isinstance(frame, str):
        raise RefereeError("binary")
    size = len(frame) if frame.isascii() else len(frame.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise RefereeError("too_large", size=size, limit=limit)
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        raise RefereeError("bad_json") from None
    if not isinstance(data, dict):
        raise RefereeError("bad_json")
    rid = _request_id(data.get("id"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise RefereeError("bad_message", id=rid, detail="'type' must be a text")
    spec = FIELDS.get(kind)
    if spec is None:
        raise RefereeError("unknown_type", id=rid, type=kind[:32])
    fields = {}
    for name, value in data.items():
        if name in ("type", "id"):
            continue
        if name not in spec:
            raise RefereeError("bad_message", id=rid, detail=f"unknown field '{name[:32]}'")
        (what, check), _ = spec[name]
        if not check(value):
            raise RefereeError("bad_message", id=rid, detail=f"'{name}' must be {what}")
        fields[name] = value
    for name, (_, required) in spec.items():
        if required and name not in fields:
            raise RefereeError("bad_message", id=rid, detail=f"'{name}' is required")
    return Request(kind, rid, fields)


def clean_name(value: Any) -> str | None:
    """A player's display name as others will see it: control characters dropped, spaces folded.

    >>> clean_name("  Ana\\u0000  Lu\\n ") , clean_name("   "), clean_name(None)
    ('Ana Lu', None, None)
    """
    if not isinstance(value, str):
        return None
    text = " ".join("".join(c for c in value if c.isprintable() or c.isspace()).split())
    return text or None


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))
