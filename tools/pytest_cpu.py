"""A pytest plugin that writes each test's CPU time, browsers and servers included, one JSON line a test.

    PYTHONPATH=tools .venv/bin/python -m pytest tests e2e -n 3 -p pytest_cpu   # then:
    python3 tools/pytest_cpu.py /tmp/test-cpu.jsonl                          # the report

Each pytest process (each xdist worker) moves itself into a control group of its own, so that every process
it starts later (Playwright's driver, Chromium and its renderers, redis-server, the referee) is counted with
it, even those that outlive their parent or are never waited for: the CPU that `time` and /proc's child
times miss. A test's figure is the group's CPU from its setup to its teardown. Needs a writable cgroup
hierarchy (v1 `cpuacct` or v2), that is root; elsewhere it says so and records nothing.
Environment: TEST_CPU_OUT, the file appended to (default /tmp/test-cpu.jsonl).
"""
from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

OUT = Path(os.environ.get("TEST_CPU_OUT", "/tmp/test-cpu.jsonl"))
V1 = Path("/sys/fs/cgroup/cpuacct")
V2 = Path("/sys/fs/cgroup/unified") if Path("/sys/fs/cgroup/unified").is_dir() else Path("/sys/fs/cgroup")


class Group:
    """This process's own control group and its CPU seconds so far."""

    def __init__(self) -> None:
        name = f"pytest-cpu-{os.getpid()}"
        if (V1 / "cpuacct.usage").exists():
            self.path, self.read = V1 / name, self._v1
        else:
            self.path, self.read = V2 / name, self._v2
        for stale in self.path.parent.glob("pytest-cpu-*"):  # groups of runs that ended: empty now
            try:
                stale.rmdir()
            except OSError:
                pass
        self.path.mkdir(exist_ok=True)
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def _v1(self) -> float:
        return int((self.path / "cpuacct.usage").read_text()) / 1e9

    def _v2(self) -> float:
        usage = next(line for line in (self.path / "cpu.stat").read_text().splitlines() if line.startswith("usage_usec"))
        return int(usage.split()[1]) / 1e6


_group: Group | None = None


def pytest_configure(config) -> None:
    global _group
    try:
        _group = Group()
    except OSError as error:
        print(f"pytest_cpu: no control group of its own ({error}); no CPU recorded", file=sys.stderr)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _group is None:
        return (yield)
    cpu, wall = _group.read(), time.perf_counter()
    try:
        return (yield)
    finally:
        with OUT.open("a") as out:
            out.write(json.dumps({"id": item.nodeid, "cpu": round(_group.read() - cpu, 3),
                                  "wall": round(time.perf_counter() - wall, 3),
                                  "worker": os.environ.get("PYTEST_XDIST_WORKER", "main")}) + "\n")


def report(path: Path, top: int = 25) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    by_file, count = Counter(), Counter()
    for row in rows:
        by_file[row["id"].split("::")[0]] += row["cpu"]
        count[row["id"].split("::")[0]] += 1
    lines = [f"{len(rows)} tests, {sum(r['cpu'] for r in rows):.0f} s of CPU", "", "CPU s  tests  file"]
    lines += [f"{cpu:6.1f} {count[name]:5d}  {name}" for name, cpu in by_file.most_common(top)]
    lines += ["", "CPU s  wall s  test"]
    lines += [f"{r['cpu']:6.1f} {r['wall']:6.1f}  {r['id']}" for r in sorted(rows, key=lambda r: -r["cpu"])[:top]]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
