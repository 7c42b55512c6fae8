#!/usr/bin/env python3
"""Deal, with the engine the site ships, the first deals that a first visit shows before its engine is up.

    python3 tools/first_deals.py WHEEL OUT.json [--per-variant N]

A player who presses *Play* while Python is still starting sees the cards at once: the page draws one of
these states (js/table/game.js, its preview) and asks the engine in its worker for a new match whose first
deal has the same seed (``new_match(deal_seed=...)``, the shared deals' mechanism). The engine's answer
replaces the drawing as soon as it comes; a call the player made meanwhile is held by the page and sent
then, so the engine still checks and plays every action. Nothing is dealt by the page: each state is the
engine's own answer, computed here by the very wheel the site serves (imported from WHEEL, a zip), and its
cards are the same in the browser because a seed names the same deal in every interpreter
(coinche/rng.py). Only the first deal comes from this list; the match's later deals come from the match
seed that the engine draws.

The seeds come from the wheel's sha256: the same wheel gives the same file (a reproducible build), a new
engine new deals. The states are those of the page's default settings (the engine's own defaults, target
1000, level normal), the only ones a first visit has; other settings start without a preview.

Output: ``{"format": "coinche-first-deals/1", "engine": VERSION, "settings": {"target": 1000, "level":
"normal"}, "deals": {"coinche": [{"deal_seed": "...", "state": {...}}, ...], "classic": [...]}}``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

FORMAT = "coinche-first-deals/1"
TARGET, LEVEL = 1000, "normal"


def deal_seeds(wheel_sha256: str, variant: str, count: int) -> list[str]:
    """``count`` 64-bit seeds (as text: JSON numbers lose bits in a browser) named by the wheel and variant.

    >>> deal_seeds("ab", "coinche", 2) == deal_seeds("ab", "coinche", 2)
    True
    >>> len(set(deal_seeds("ab", "coinche", 50) + deal_seeds("ab", "classic", 50)))
    100
    """
    return [str(int.from_bytes(hashlib.sha256(f"{wheel_sha256}/{variant}/{i}".encode()).digest()[:8], "big"))
            for i in range(count)]


def first_deals(wheel_sha256: str, per_variant: int) -> dict:
    """The file's content, from the engine importable as ``coinche`` (the wheel, when run as a script)."""
    import coinche
    from coinche import webcommands
    from coinche.deal import VARIANTS

    deals = {}
    for variant in VARIANTS:
        deals[variant] = []
        for seed in deal_seeds(wheel_sha256, variant, per_variant):
            state = webcommands.first_deal(variant=variant, target=TARGET, level=LEVEL, deal_seed=seed)["state"]
            if state["deal"]["current_player"] != webcommands.HUMAN or state["deal"]["phase"] != "auction":
                raise SystemExit(f"first_deals: the {variant} deal {seed} does not open on the player's call")
            deals[variant].append({"deal_seed": seed, "state": state})
    return {"format": FORMAT, "engine": coinche.__version__, "settings": {"target": TARGET, "level": LEVEL},
            "deals": deals}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-variant", type=int, default=64)
    args = parser.parse_args(argv)
    wheel = args.wheel.resolve()
    sys.path.insert(0, str(wheel))
    import coinche

    if not Path(coinche.__file__).is_relative_to(wheel):
        raise SystemExit(f"first_deals: imported coinche from {coinche.__file__}, not from {wheel}")
    content = first_deals(hashlib.sha256(wheel.read_bytes()).hexdigest(), args.per_variant)
    args.out.write_text(json.dumps(content, separators=(",", ":"), sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
