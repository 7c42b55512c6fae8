"""The engine decides the same under the real Pyodide interpreter as under CPython.

The same probe (e2e/parity_probe.py) runs in both: rulings, whole deals and their scores, a seeded
bot match, the par of a deal and a day's deals of the day, a sample of the shipped puzzles re-solved, and every
docstring example; the outputs must be identical, line for line.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "e2e" / "parity_probe.py"
RUNNER = ROOT / "tools" / "pyodide_node.mjs"
PUZZLES = 12  # e2e/parity_probe.py PUZZLES


def test_pyodide_gives_the_same_rulings_deals_bots_and_doctests(build_info, request):
    full = request.config.getoption("--full", default=False)
    counts = ["20000", "2000"] if full else ["1000", "100"]
    here = subprocess.run([sys.executable, str(PROBE), *counts], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert here.returncode == 0, here.stderr
    there = subprocess.run(["node", str(RUNNER), str(PROBE), *counts], capture_output=True, text=True,
                           cwd=ROOT, timeout=1800)
    assert there.returncode == 0, there.stderr
    ours, theirs = here.stdout.splitlines(), there.stdout.splitlines()
    kinds = {json.loads(line)[0] for line in ours}
    assert kinds == {"ruling", "deal", "bot_match", "par", "daily", "puzzle", "doctest"}
    assert sum(1 for line in ours if line.startswith('["puzzle"')) == PUZZLES
    assert len(ours) == int(counts[0]) + int(counts[1]) + 3 + PUZZLES + sum(1 for line in ours if line.startswith('["doctest"'))
    for line in ours:
        kind, value = json.loads(line)
        if kind == "doctest":
            assert value[1] == 0, f"doctest failures in {value[0]}"
        if kind == "puzzle":
            assert value[2] is None, f"puzzle {value[0]} does not hold: {value[2]}"
    first_difference = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    assert first_difference is None, f"line {first_difference}: CPython {ours[first_difference]} / Pyodide {theirs[first_difference]}"
    assert len(ours) == len(theirs)
