#!/usr/bin/env python3
"""Re-solve, with the engine the site ships, every puzzle of the site's puzzle set (docs/puzzles.md).

    python3 tools/check_puzzles.py WHEEL PUZZLES.jsonl [LATER.zip]

The build runs it on dist/puzzles/open.jsonl with the very engine the site serves (imported from WHEEL, a zip, and
the archive of the modules a first visit does not load, LATER, as the worker mounts it): each puzzle's solution
must be exactly the best cards, every other card losing at least its margin, and each move of its line forced again
(coinche.puzzle.check_puzzle, the check of `coinche puzzles --check`). The whole set takes a few seconds of CPU
(docs/performance.md), so every build checks it all. Prints each
line that does not hold and a summary; exits 1 if any does not (or does not read).
"""
from __future__ import annotations

import sys
import time


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    wheel, path, *later = argv
    sys.path.insert(0, wheel)
    import coinche

    coinche.__path__.extend(f"{archive}/coinche" for archive in later)  # as web/js/engine-worker.js mounts it
    from coinche.cli import check_puzzle_lines
    from coinche.errors import CoincheError

    started = time.process_time()
    held = bad = 0
    with open(path, encoding="utf-8") as f:
        for number, puzzle_id, reason in check_puzzle_lines(f):
            if reason is None:
                held += 1
                continue
            bad += 1
            print(f"{path}:{number}: {puzzle_id or 'skipped'}: {CoincheError(reason['key'], **reason['params']).english()}")
    print(f"{held} puzzles hold, {bad} do not ({time.process_time() - started:.1f} s CPU)")
    return 1 if bad or not held else 0


if __name__ == "__main__":
    sys.exit(main())
