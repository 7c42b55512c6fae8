"""A player's history as the site exports it (web/js/history-format.js), made up for tests and benchmarks.

Each line is a ``coinche-deal/2`` record of a deal played at random from a seeded deal, with the page's
``history`` fields (seat, level, match, and for most deals a made-up ``par``: the Expert's par from the
player's seat, as the page keeps it) and, for most deals, a ``review`` of the player's decisions: the
engine's own decisions of that seat (index, kind, type), with made-up losses marked by
:func:`coinche.review.mark_of` (a real review takes seconds a deal, a real par a dozen; the figures only add
their numbers).

>>> lines = history_lines(3, seed="doc")
>>> [line["format"] for line in lines], sorted(lines[0]["history"])
(['coinche-deal/2', 'coinche-deal/2', 'coinche-deal/2'], ['at', 'level', 'match', 'match_over', 'online', 'par', 'seat', 'v'])
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from coinche.deal import Deal
from coinche.record import deal_to_record
from coinche.review import decisions, mark_of

LEVELS = ("easy", "normal", "expert")
START = 1_780_000_000_000  # the first deal's time (ms since 1970)
MARKS = ("inaccuracy", "mistake", "blunder")
WINDOW = 20  # the page's moving average (js/progress/figures.js)


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


def _par(rng: random.Random, record: dict[str, Any], seat: int) -> dict[str, Any]:
    side = seat % 2
    result = record["result"]["scores"][side] - record["result"]["scores"][1 - side]
    par = round(rng.gauss(0, 80), 1)
    return {"par": par, "result": result, "difference": round(result - par, 1), "k": 12,
            "stderr": round(rng.uniform(10, 45), 1)}


def history_lines(count: int, seed: str = "history", reviewed: float = 0.8, with_par: float = 0.7) -> list[dict[str, Any]]:
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
            "v": 2, "at": START + i * 60_000, "seat": match["seat"], "level": match["level"], "online": False,
            "match": {"id": match["id"], "number": number},
            "match_over": {"winner": rng.randrange(2), "totals": [0, 0]} if over else None,
        }
        if i == 0 or rng.random() < with_par:
            history["par"] = _par(rng, record, match["seat"])
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


# ---------------------------------------------------------------- the page's figures, computed plainly
def r1(x: float) -> float:
    """JavaScript's ``Math.round(x * 10) / 10``."""
    return math.floor(x * 10 + 0.5) / 10


def reference_figures(lines: list[dict]) -> dict:
    """The progress page's figures of ``lines`` (the file's lines), computed plainly in one loop from what the page
    says it shows, for the tests to hold the page's own (web/js/progress/figures.js) to: the player's side's results,
    and for the reviewed deals the player's points lost (rounded as the page rounds them), the moving average
    (mean, standard error) of the last :data:`WINDOW` and the sorts of decision, the costliest a deal first; for
    the deals with a par, the duplicate differences, their mean and moving average. ``lines`` are those the
    engine read (a line it refuses counts in nothing)."""
    won = lost = declared = made = 0
    coinches = {"made": 0, "made_set": 0, "suffered": 0, "suffered_set": 0}
    series, per_type, differences = [], {}, []
    for line in lines:
        h, result = line["history"], line["result"]
        if "par" in h:
            differences.append(r1(h["par"]["difference"]))
        side = h["seat"] % 2
        if h["match_over"]:
            if h["match_over"]["winner"] == side:
                won += 1
            else:
                lost += 1
        contract = None if result["void"] else result["contract"]
        if contract:
            ours = contract["declarer"] % 2 == side
            declared += ours
            made += ours and result["made"]
            if contract["multiplier"] >= 2:
                which = "suffered" if ours else "made"
                coinches[which] += 1
                coinches[which + "_set"] += not result["made"]
        mine = [d for d in line.get("review", {}).get("decisions", []) if d["seat"] == h["seat"]]
        if not mine:
            continue
        deal = {"lost": 0.0, "calls": 0.0, "cards": 0.0, "luck": 0.0, **{m: 0.0 for m in MARKS}}
        for d in mine:
            deal["lost"] += d["loss"]
            deal["calls" if d["kind"] == "call" else "cards"] += d["loss"]
            if d["mark"]:
                deal[d["mark"]] += d["loss"]
            if d["luck"] == "unlucky":
                deal["luck"] += d["hindsight_loss"]
            count, total = per_type.get(d["type"], (0, 0.0))
            per_type[d["type"]] = (count + 1, total + d["loss"])
        series.append({k: r1(v) for k, v in deal.items()})
    n = len(series)
    average = {k: r1(sum(d[k] for d in series) / n) for k in series[0]} if n else None
    moving = _moving([d["lost"] for d in series])
    types = sorted(((-r1(total / n), t, count, r1(total / count)) for t, (count, total) in per_type.items()))
    duplicate = {"deals": len(differences), "mean": r1(sum(differences) / len(differences)) if differences else 0,
                 "series": differences, "moving": _moving(differences)}
    return {"matches": {"won": won, "lost": lost}, "declared": {"declared": declared, "made": made},
            "coinches": coinches, "reviewed": n, "deals": len(lines), "series": series, "average": average,
            "moving": moving, "types": [(t, count, -per_deal, per_decision) for per_deal, t, count, per_decision in types],
            "duplicate": duplicate}


def _moving(values: list[float]) -> list[tuple[float, float]]:
    """The moving average of the last :data:`WINDOW` values (fewer at the start), with its standard error."""
    moving = []
    for i in range(len(values)):
        window = values[max(0, i - WINDOW + 1):i + 1]
        mean = sum(window) / len(window)
        sd = math.sqrt(sum((x - mean) ** 2 for x in window) / (len(window) - 1)) if len(window) > 1 else 0.0
        moving.append((mean, sd / math.sqrt(len(window))))
    return moving
