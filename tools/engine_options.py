#!/usr/bin/env python3
"""Write, with the engine the site ships, what the page offers and reads: the variants, the targets, the bot
levels, the house rules and the judge's notation limits (coinche.webcommands.options).

    python3 tools/engine_options.py WHEEL OUT.json

The page draws its settings from this file (web/js/options.js) before its engine is up, and checks what it
reads against it: no list of the engine is written again in the page. Imported from WHEEL (a zip), as
tools/first_deals.py does: the file says what this very engine accepts.

Output: ``{"format": "coinche-options/1", "engine": VERSION, "variants": [...], "targets": [...],
"levels": [...], "defaults": {...}, "rules": {"options": [...], "presets": {...}}, "position": {...}}``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

FORMAT = "coinche-options/1"


def engine_options() -> dict:
    """The file's content, from the engine importable as ``coinche`` (the wheel, when run as a script)."""
    import coinche
    from coinche import webcommands

    return {"format": FORMAT, "engine": coinche.__version__, **webcommands.options()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    wheel = args.wheel.resolve()
    sys.path.insert(0, str(wheel))
    import coinche

    if not Path(coinche.__file__).is_relative_to(wheel):
        raise SystemExit(f"engine_options: imported coinche from {coinche.__file__}, not from {wheel}")
    # in the engine's order: the presets' order is the one the settings show
    args.out.write_text(json.dumps(engine_options(), separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
