"""How fast the engine rules positions and plays deals, on one core.

    .venv/bin/python bench/engine_bench.py            # the full measure (about a minute)
    .venv/bin/python bench/engine_bench.py --quick    # a tenth of the counts
    .venv/bin/python bench/engine_bench.py --profile  # and where the time goes (cProfile) for a missed goal

Measures, each against its goal:

- positions ruled per second in process: ``rule_position`` on pre-parsed random positions, and the
  whole path of a judged line (``Position.parse`` then ``ruling_json`` then ``json.dumps``);
- lines per second through ``coinche judge --batch``, a subprocess fed 200,000 distinct random lines,
  its start included;
- random deals per second through ``coinche simulate`` (a subprocess writing 20,000 deals to a file).

The process and its children are pinned to one core.  Rates are given by wall time and by CPU time;
on a shared machine the CPU figure is the fair one, and the goal is judged on it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from coinche import Position, legal_mask, rule_position
from coinche.cli import judge_batch, ruling_json

SUITS = "shdc"
NAMES = [r + s for s in SUITS for r in "789TJQKA"]


@dataclass
class Result:
    what: str
    count: int
    unit: str
    wall: float
    cpu: float
    goal: float | None

    @property
    def rate(self) -> float:
        return self.count / self.cpu if self.cpu > 0 else float("inf")

    @property
    def wall_rate(self) -> float:
        return self.count / self.wall if self.wall > 0 else float("inf")

    @property
    def met(self) -> bool:
        return self.goal is None or self.rate >= self.goal


def random_positions(n: int, seed: int) -> list[tuple[int, list[int], int]]:
    """``n`` distinct random positions: (hand mask, trick, trump)."""
    rng = random.Random(seed)
    seen = set()
    out = []
    while len(out) < n:
        n_trick, n_hand = rng.randint(0, 3), rng.randint(1, 8)
        cards = rng.sample(range(32), n_trick + n_hand)
        trump = rng.randrange(4)
        key = (trump, tuple(cards[:n_trick]), tuple(cards[n_trick:]))
        if key in seen:
            continue
        seen.add(key)
        hand = 0
        for c in cards[n_trick:]:
            hand |= 1 << c
        out.append((hand, cards[:n_trick], trump, cards[n_trick:]))
    return out


def line_of(position) -> str:
    _, trick, trump, hand = position
    return f"trump={SUITS[trump]}&trick={','.join(NAMES[c] for c in trick)}&hand={','.join(NAMES[c] for c in hand)}"


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def timed_child(args: list[str], stdin=None, stdout=subprocess.DEVNULL) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run(args, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_rule_position(positions) -> Result:
    def run():
        for hand, trick, trump, _ in positions:
            rule_position(hand, trick, trump)

    return Result("rule_position, pre-parsed", len(positions), "positions", *timed(run), 200_000)


def bench_legal_mask(positions) -> Result:
    def run():
        for hand, trick, trump, _ in positions:
            legal_mask(hand, trick, trump)

    return Result("legal_mask, pre-parsed", len(positions), "positions", *timed(run), None)


def bench_parse_and_json(lines) -> Result:
    dumps = json.dumps

    def run():
        for line in lines:
            dumps(ruling_json(Position.parse(line)), separators=(",", ":"))

    return Result("Position.parse + ruling_json + dumps", len(lines), "positions", *timed(run), None)


def bench_batch_in_process(lines) -> Result:
    def run():
        judge_batch(lines, io.StringIO())

    return Result("judge_batch, in process", len(lines), "lines", *timed(run), None)


def bench_batch_subprocess(lines, workdir: Path) -> Result:
    source = workdir / "positions.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with source.open("rb") as stdin:
        wall, cpu = timed_child([sys.executable, "-m", "coinche.cli", "judge", "--batch"], stdin=stdin)
    return Result("coinche judge --batch (subprocess)", len(lines), "lines", wall, cpu, 50_000)


def bench_simulate(deals: int, workdir: Path) -> Result:
    out = workdir / "deals.jsonl"
    wall, cpu = timed_child([sys.executable, "-m", "coinche.cli", "simulate", "--deals", str(deals), "--seed", "1",
                             "--out", str(out)])
    assert sum(1 for _ in out.open()) == deals
    return Result("coinche simulate (subprocess)", deals, "deals", wall, cpu, 5_000)


def profile(title: str, fn, top: int = 12) -> None:
    print(f"\n--- where the time goes: {title}")
    profiler = cProfile.Profile()
    profiler.enable()
    fn()
    profiler.disable()
    stream = io.StringIO()
    pstats.Stats(profiler, stream=stream).sort_stats("tottime").print_stats(top)
    print("\n".join(stream.getvalue().splitlines()[4:]))


def simulate_in_process(deals: int) -> None:
    from coinche.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        main(["simulate", "--deals", str(deals), "--seed", "1", "--out", str(Path(tmp) / "deals.jsonl")])


def print_table(results: list[Result], core: str) -> None:
    print(f"\nEngine benchmark, CPython {sys.version.split()[0]}, one core ({core})\n")
    head = f"{'measure':<38} {'count':>9} {'wall s':>7} {'cpu s':>7} {'per s (wall)':>13} {'per s (cpu)':>12} {'goal':>9}  "
    print(head)
    print("-" * len(head))
    for r in results:
        goal = "" if r.goal is None else f"{r.goal:,.0f}"
        verdict = "" if r.goal is None else ("ok" if r.met else "MISSED")
        print(f"{r.what:<38} {r.count:>9,} {r.wall:>7.2f} {r.cpu:>7.2f} {r.wall_rate:>13,.0f} {r.rate:>12,.0f} "
              f"{goal:>9}  {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the counts")
    parser.add_argument("--profile", action="store_true", help="profile the paths whose goal is missed")
    parser.add_argument("--core", type=int, default=None, help="the core to pin to (default: the last allowed)")
    args = parser.parse_args(argv)

    core = "not pinned"
    if hasattr(os, "sched_setaffinity"):
        allowed = sorted(os.sched_getaffinity(0))
        chosen = args.core if args.core is not None else allowed[-1]
        os.sched_setaffinity(0, {chosen})  # children inherit it
        core = f"core {chosen}"

    scale = 10 if args.quick else 1
    n_lines = 200_000 // scale
    n_deals = 20_000 // scale
    positions = random_positions(n_lines, seed=1)
    lines = [line_of(p) for p in positions]
    assert len(set(lines)) == n_lines

    results = [bench_rule_position(positions), bench_legal_mask(positions), bench_parse_and_json(lines),
               bench_batch_in_process(lines)]
    with tempfile.TemporaryDirectory() as tmp:
        results.append(bench_batch_subprocess(lines, Path(tmp)))
        results.append(bench_simulate(n_deals, Path(tmp)))
    print_table(results, core)

    missed = [r for r in results if not r.met]
    if missed:
        print("\nMissed: " + ", ".join(r.what for r in missed) + ("" if args.profile else " (run with --profile)"))
    if args.profile:
        for r in missed or results:
            if r.unit == "lines":
                profile(r.what, lambda: judge_batch(lines[: n_lines // 4], io.StringIO()))
            elif r.unit == "deals":
                profile(r.what, lambda: simulate_in_process(n_deals // 4))
            elif r.what.startswith("rule_position"):
                profile(r.what, lambda: bench_rule_position(positions[: n_lines // 4]))
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
