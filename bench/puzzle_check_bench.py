#!/usr/bin/env python3
"""How long a puzzle takes to check: the page's `puzzle_solve` (every legal card solved double dummy, the best
cards, the whole line played out, the check) on a sample of the shipped set, and the whole set re-solved as
`coinche puzzles --check` does.  Pure Python: the same script runs in CPython and under Pyodide in Node.

    .venv/bin/python bench/puzzle_check_bench.py [--sample 60] [--file web/puzzles/open.jsonl] [--all]
    node tools/pyodide_node.mjs bench/puzzle_check_bench.py --sample 30      # the browser's Python (make build first)

Prints the wall and CPU time of one puzzle's `puzzle_solve` (median, p95, max over the sample, each puzzle
solved once, cold: no table of bounds kept from another; on a loaded machine the CPU time is the figure)
and, with --all, the CPU time of checking every line.
Goal (issue 42): an open puzzle's check within 1 s in the browser; the whole set within 5 minutes of CPU.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=60)
    parser.add_argument("--file", default="web/puzzles/open.jsonl")
    parser.add_argument("--all", action="store_true", help="also check every line, as `coinche puzzles --check`")
    args = parser.parse_args(argv)

    from coinche.webcommands import puzzle_solve

    with open(args.file, encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    sample = lines[::max(1, len(lines) // args.sample)][:args.sample]
    wall, cpu = [], []
    for line in sample:
        started, started_cpu = time.perf_counter(), time.process_time()
        answer = puzzle_solve(json.loads(line))
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        assert answer["holds"] is None, answer
    print(f"{sys.implementation.name} {sys.version.split()[0]} ({sys.platform}): puzzle_solve over {len(wall)} "
          f"puzzles of {args.file}:")
    for name, times in (("wall", wall), ("CPU", cpu)):
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"  {name:4}  median {statistics.median(times) * 1000:5.0f} ms   p95 {p95 * 1000:5.0f} ms   "
              f"max {times[-1] * 1000:5.0f} ms")
    if args.all:
        from coinche.cli import check_puzzle_lines

        started = time.process_time()
        bad = sum(reason is not None for _, _, reason in check_puzzle_lines(lines))
        print(f"every line checked ({len(lines)} puzzles, {bad} do not hold): "
              f"{time.process_time() - started:.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
