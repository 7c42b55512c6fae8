#!/usr/bin/env python3
"""What a par costs and how precise it is (coinche.par): K replays of a deal by the Expert from seat 0, Normal
bots in the three other seats.

    .venv/bin/python bench/par_bench.py [--deals 100] [--k 12] [--seed par-bench] [--jobs 2] [--out FILE]
    .venv/bin/python bench/par_bench.py --pyodide --deals 3 [--k 12]     # CPython against Pyodide in Node

The deals are `coinche simulate --bots normal --deals N --seed S` (their records say so in `seats`); passed-out
deals count (a par is taken after every deal). Prints:

- the CPU time of one par in CPython (process time, median and p95 over the deals) and of one replay;
- the CPU seconds of `coinche par FILE --seat 0 --k K` over the N records: in this process (--jobs 1, the sum
  of the pars above) and as a command with `--jobs J` (its children's CPU and its wall time), whose output must
  be the same pars;
- the spread of a replay's score around its deal's par (the pooled standard deviation within deals, every
  deal's K replays) and the standard error it gives a par of K replays, for a few K: what docs/bots.md's choice
  of K rests on. `--out` keeps the pars (JSON lines, as `coinche par --json` prints them).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from coinche.bots import bot_turn, make_bot
from coinche.deal import Deal
from coinche.par import par
from coinche.record import deal_to_record
from coinche.rng import derive_seed


def simulated(deals: int, seed: str) -> list[dict]:
    """The records of `coinche simulate --bots normal --deals N --seed S` (the same deals, in this process)."""
    bots = [make_bot("normal", seed=derive_seed(seed, 1000 + s)) for s in range(4)]
    records = []
    for i in range(deals):
        deal = Deal.new("coinche", i & 3, derive_seed(seed, i))
        while not deal.is_over:
            bot_turn(deal, bots[deal.turn])
        records.append({**deal_to_record(deal), "seats": ["normal"] * 4})
    return records


def pooled_sd(score_sets: list[tuple[int, ...]]) -> float:
    """The standard deviation of a replay's score within its deal, pooled over the deals."""
    variances = [statistics.variance(s) for s in score_sets if len(s) > 1]
    return math.sqrt(sum(variances) / len(variances))


def wall_pars(records: list[dict], k: int) -> list[tuple[float, list[int]]]:
    """Each record's par: its wall time and its replays' scores."""
    out = []
    for record in records:
        start = time.perf_counter()
        scores = list(par(record, 0, k=k).scores)
        out.append((time.perf_counter() - start, scores))
    return out


def compare_pyodide(args: argparse.Namespace) -> int:
    records = simulated(args.deals, args.seed)
    here = wall_pars(records, args.k)
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(["node", str(root / "tools" / "pyodide_node.mjs"), str(Path(__file__).resolve()), "--wall",
                           "--deals", str(args.deals), "--k", str(args.k), "--seed", args.seed],
                          capture_output=True, text=True, cwd=root, check=True)
    there = [tuple(row) for row in json.loads(done.stdout)]
    same = [s for _, s in here] == [s for _, s in there]
    a, b = statistics.median(t for t, _ in here), statistics.median(t for t, _ in there)
    print(f"one par of K = {args.k} replays, wall time, median over {args.deals} deals (load average "
          f"{os.getloadavg()[0]:.1f}): CPython {a:.1f} s, Pyodide in Node {b:.1f} s ({b / a:.1f}x); "
          f"max {max(t for t, _ in here):.1f} / {max(t for t, _ in there):.1f} s; the same scores: {same}")
    return 0 if same else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--k", type=int, default=12)
    parser.add_argument("--seed", default="par-bench")
    parser.add_argument("--jobs", type=int, default=2, help="also time `coinche par --jobs J` (0: do not)")
    parser.add_argument("--out", help="write the pars here (JSON lines)")
    parser.add_argument("--pyodide", action="store_true", help="time the pars in CPython and in Pyodide under Node")
    parser.add_argument("--wall", action="store_true", help=argparse.SUPPRESS)  # the Pyodide side of --pyodide
    args = parser.parse_args()
    if args.wall:
        print(json.dumps(wall_pars(simulated(args.deals, args.seed), args.k)))
        return 0
    if args.pyodide:
        return compare_pyodide(args)

    records = simulated(args.deals, args.seed)
    times, pars = [], []
    for record in records:
        start = time.process_time()
        pars.append(par(record, 0, k=args.k))
        times.append(time.process_time() - start)
        print(f"deal {len(pars)}: par {pars[-1].mean:+.1f}, {times[-1]:.2f} s of CPU", file=sys.stderr, flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.writelines(json.dumps({"line": n, **p.to_json()}, separators=(",", ":")) + "\n"
                         for n, p in enumerate(pars, 1))
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    print(f"{args.deals} deals (coinche simulate --bots normal --seed {args.seed}), the par of seat 0 by K = {args.k} "
          f"replays (load average {os.getloadavg()[0]:.1f})")
    print(f"one par (CPU): median {statistics.median(times):.2f} s, p95 {p95:.2f} s, max {ordered[-1]:.2f} s; "
          f"one replay: mean {sum(times) / len(times) / args.k:.3f} s")
    print(f"coinche par over the {args.deals} records, --jobs 1: {sum(times):.0f} s of CPU (in this process)")

    if args.jobs:
        import resource
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "records.jsonl"
            path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "coinche.cli", "par", str(path), "--seat", "0", "--json",
                                   "--k", str(args.k), "--jobs", str(args.jobs)],
                                  capture_output=True, text=True, check=True)
            wall = time.perf_counter() - wall
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        same = [json.loads(line)["scores"] for line in done.stdout.splitlines()] == [list(p.scores) for p in pars]
        print(f"coinche par over the {args.deals} records, --jobs {args.jobs}: {cpu:.0f} s of CPU, {wall:.0f} s of "
              f"wall time; the same pars as --jobs 1: {same}")

    sd = pooled_sd([p.scores for p in pars])
    spread = statistics.pstdev([p.mean for p in pars])
    print(f"a replay's score within its deal: standard deviation {sd:.0f} points (pooled over {args.deals} deals); "
          f"the pars themselves spread over {spread:.0f} points from deal to deal")
    print("the standard error of a par of K replays (sd / sqrt(K)), and its CPU time (mean replay x K): "
          + ", ".join(f"K={k}: {sd / math.sqrt(k):.0f} points, {k * sum(times) / len(times) / args.k:.1f} s"
                      for k in (4, 8, 12, 16, 24, 48)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
