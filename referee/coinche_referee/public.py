"""Public tables of four: strangers seated together by a queue per preset, first come first seated.

A person sends ``seek`` with a preset (:data:`PRESETS`: the variant, target and house rules of the table) and
how long they will wait for others (``wait`` seconds, 0: at once).  Four people seeking the same preset sit
together at once, in the order they came (seats 0, 1, 2, 3); when someone's wait is over, they sit with
whoever is waiting before them (fewer than four), and bots of the referee's level take the empty seats.  With
``--redis`` the queue is a Redis list shared by every process, taken by one Lua script at a time (a person is
seated once, at one table).

>>> sorted(PRESETS)
['classic', 'coinche', 'coinche-501', 'german']
>>> settings("german", level="easy", clock="normal")["rules"]
'de-2000'
"""

from __future__ import annotations

from typing import Any

from .protocol import RefereeError

#: preset -> (variant, target, house rules notation or None: the game's own)
PRESETS: dict[str, tuple[str, int, str | None]] = {
    "coinche": ("coinche", 1000, None),
    "coinche-501": ("coinche", 501, None),
    "classic": ("classic", 1000, None),
    "german": ("coinche", 2000, "de-2000"),
}
SEATS = 4
#: The longest wait a person may choose (seconds).
MAX_WAIT = 300
DEFAULT_WAIT = 30


def preset(text: str) -> str:
    if text not in PRESETS:
        raise RefereeError("unknown_preset", text=str(text)[:16])
    return text


def settings(name: str, level: str, clock: str) -> dict[str, Any]:
    """The table settings of a preset (a referee's ``_settings`` reads the rules)."""
    variant, target, rules = PRESETS[name]
    out: dict[str, Any] = {"variant": variant, "target": target, "level": level, "clock": clock}
    if rules is not None:
        out["rules"] = rules
    return out


__all__ = ["PRESETS", "SEATS", "MAX_WAIT", "DEFAULT_WAIT", "preset", "settings"]
