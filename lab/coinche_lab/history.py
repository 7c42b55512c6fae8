"""A player's history as the site exports it (web/js/history-format.js), made up for tests and benchmarks.

Each line is a ``coinche-deal/2`` record of a deal played at random from a seeded deal, with the page's
``history`` fields (seat, level, match) and, for most deals, a ``review`` of the player's decisions: the
engine's own decisions of that seat (index, kind, type), with made-up losses marked by
:func:`coinche.review.mark_of` (a real review takes seconds a deal; the figures only add its numbers).

>>> lines = history_lines(3, seed="doc")
>>> [line["format"] for line in lines], sorted(lines[0]["history"])
(['coinche-deal/2', 'coinche-deal/2', 'coinche-deal/2'], ['at', 'level', 'match', 'match_over', 'online', 'seat', 'v'])
"""

from __future__ import annotations

import json
import random
from typing import Any

from coinche.deal import Deal
from coinche.record import deal_to_record
from coinche.review import decisions, mark_of

LEVELS = ("easy", "normal", "expert")
START = 1_780_000_000_000  # the first deal's time (ms since 1970)


def _played(rng: random.Random, variant: str, dealer: int) -> dict[str, Any]:
    deal = Deal.new(variant, dealer=dealer, seed=rng.randrange(2**32))
    while not deal.is_over:
        deal.apply(rng.choice(list(deal.legal_actions())))
    return deal_to_record(deal)


def _review(rng: random.Random, record: dict[str, Any], seat: int) -> dict[str, Any]:
    items = []
    for d in decisions(record, [seat]):
        loss = round(rng.choice((0, 0, 0, 5, 12, 25, 45, 90)) * rng.random() * 2, 1)
        hindsight = round(rng.choice((0, 0, 30)) * rng.random() * 2, 1)
        luck = "unlucky" if loss == 0 and mark_of(hindsight) else "lucky" if mark_of(loss) and hindsight == 0 else None
        items.append({**d.to_json(), "loss": loss, "mark": mark_of(loss), "hindsight_loss": hindsight, "luck": luck})
    return {"decisions": items, "summary": None}


def history_lines(count: int, seed: str = "history", reviewed: float = 0.8) -> list[dict[str, Any]]:
    """``count`` deals of matches of about six deals, oldest first, each line as the site's export writes it."""
    rng = random.Random(seed)
    lines = []
    match, number = None, 0
    for i in range(count):
        if match is None:
            match = {"id": f"m{i}", "variant": rng.choice(("coinche", "coinche", "classic")),
                     "level": rng.choice(LEVELS), "seat": rng.choice((0, 0, 0, 2)), "deals": rng.randint(3, 8)}
            number = 0
        number += 1
        record = _played(rng, match["variant"], (number - 1) % 4)
        over = number == match["deals"]
        history = {
            "v": 1, "at": START + i * 60_000, "seat": match["seat"], "level": match["level"], "online": False,
            "match": {"id": match["id"], "number": number},
            "match_over": {"winner": rng.randrange(2), "totals": [0, 0]} if over else None,
        }
        line = {**record, "history": history}
        if rng.random() < reviewed:
            line["review"] = _review(rng, record, match["seat"])
        lines.append(line)
        if over:
            match = None
    return lines


def history_text(count: int, seed: str = "history", reviewed: float = 0.8) -> str:
    """The lines of :func:`history_lines` as the JSON-lines file."""
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in history_lines(count, seed, reviewed))
