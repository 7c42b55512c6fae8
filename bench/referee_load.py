"""Load test of the 1v1 referee on loopback: many tables at once, played at bot speed.

The referee runs as its own process (``python -m coinche_referee --port 0 --bot-delay 0``), so
its memory is its own; this process opens two websocket clients per table, pairs them through
the queue, and each answers its turn at once with a random legal action from its view.  The
run stops when every match is over or after ``--duration`` seconds, whichever comes first.

Meanwhile a prober opens a fresh connection every second (what a new visitor does while the
tables play) and times its ``ping``: sent to ``pong`` received, and connect to ``welcome``.  The
bots think in the referee's worker processes (``--bot-workers``, at least 1), so the event loop
answers the prober at once however busy the bots are.

Printed: the referee's memory (resident set before and at the end, its peak, and with
``--tracemalloc`` Python's traced memory), the actions per second, the latency of a player's
action (sent to its ``update`` received: the referee's queue, its work and loopback) and of the
prober's ping as median, 95th and 99th percentile, and the machine's load average.

    .venv/bin/python bench/referee_load.py --tables 200 --duration 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time

from websockets.asyncio.client import connect


class Bench:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.pings: list[float] = []  # the prober's ping -> pong, seconds
        self.welcomes: list[float] = []  # the prober's connect -> welcome, seconds
        self.probe_errors: list[str] = []
        self.finished = 0
        self.errors: list[dict] = []
        self.seated: list[float] = []
        self.deadline = 0.0


async def player(url: str, rng: random.Random, bench: Bench, ready: asyncio.Queue, go: asyncio.Event,
                 options: dict) -> None:
    async with connect(url, max_size=1 << 20) as ws:
        await ws.recv()  # welcome
        ready.put_nowait(None)
        await go.wait()
        deadline = bench.deadline
        await ws.send(json.dumps({"type": "queue", **options}))
        sent: dict[int, float] = {}
        acted = -1
        while time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic())))
            except asyncio.TimeoutError:
                break
            kind = message["type"]
            if kind == "error":
                bench.errors.append(message)
                continue
            if kind == "start":
                bench.seated.append(time.monotonic())
            state = message.get("state")
            if state is None:
                continue
            rid = message.get("id")
            if rid in sent:
                bench.latencies.append(time.perf_counter() - sent.pop(rid))
            if state["winner"] is not None:
                bench.finished += 1
                return
            deal = state["deal"]
            if deal["current_player"] == deal["seat"] and deal["legal"] and acted != state["seq"]:
                acted = state["seq"]
                legal = deal["legal"]
                if deal["phase"] == "auction":
                    action = "pass" if rng.random() < 0.75 else rng.choice([a for a in legal if a != "pass"][:4] or legal)
                else:
                    action = rng.choice(legal)
                sent[acted] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "seq": acted, "id": acted}))


async def prober(url: str, bench: Bench, every: float = 1.0) -> None:
    """Until the play stops: a fresh connection every ``every`` seconds, its welcome and ping timed."""
    while time.monotonic() < bench.deadline:
        tick = time.monotonic()
        try:
            began = time.perf_counter()
            async with connect(url, max_size=1 << 20) as ws:
                await ws.recv()  # welcome
                bench.welcomes.append(time.perf_counter() - began)
                sent = time.perf_counter()
                await ws.send('{"type": "ping", "id": 1}')
                while json.loads(await ws.recv()).get("type") != "pong":
                    pass
                bench.pings.append(time.perf_counter() - sent)
        except Exception as e:  # noqa: BLE001 - a probe that fails is reported, not fatal
            bench.probe_errors.append(repr(e))
        await asyncio.sleep(max(0.0, every - (time.monotonic() - tick)))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), 0 elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def start_referee(args: argparse.Namespace) -> tuple[subprocess.Popen, str]:
    cmd = [sys.executable, "-m", "coinche_referee", "--port", "0", "--bot-delay", "0", "--level", args.level,
           "--rate", "1000", "--burst", "1000", "--bot-workers", str(args.bot_workers), "--stats", "0.5",
           "--log-level", "WARNING",
           # every client comes from 127.0.0.1, and they wait until all are connected before queueing
           "--max-per-address", str(2 * args.tables + 100), "--idle-timeout", "600",
           ] + ["--trace-memory"] * args.tracemalloc
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise SystemExit(f"the referee did not start: {line!r} {proc.stderr.read()}")
    return proc, line.split()[4]


def last_stats(lines: list[str]) -> dict:
    stats = [json.loads(x)["stats"] for x in lines if x.startswith('{"stats"')]
    return stats[-1] if stats else {}


async def read_stats(proc: subprocess.Popen, lines: list[str]) -> None:
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, proc.stderr.readline)
        if not line:
            return
        lines.append(line)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(args: argparse.Namespace) -> None:
    proc, url = start_referee(args)
    lines: list[str] = []
    reader = asyncio.create_task(read_stats(proc, lines))
    try:
        await asyncio.sleep(1.2)
        before = last_stats(lines)
        bench = Bench()
        rng = random.Random(args.seed)
        options = {"variant": args.variant, "target": args.target}
        ready, go = asyncio.Queue(), asyncio.Event()
        tasks = [asyncio.create_task(player(url, random.Random(rng.random()), bench, ready, go, options))
                 for _ in range(2 * args.tables)]
        for _ in tasks:  # every client connected and welcomed, then all queue at once
            await asyncio.wait_for(ready.get(), 60)
        started = time.monotonic()
        bench.deadline = started + args.duration
        cpu_before = cpu_seconds(proc.pid)
        go.set()
        probing = asyncio.create_task(prober(url, bench))
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - started
        cpu = cpu_seconds(proc.pid) - cpu_before
        bench.deadline = 0.0  # the prober stops with the play
        await probing
        seated = max(bench.seated, default=started)
        await asyncio.sleep(1.2)
        after = last_stats(lines)
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        reader.cancel()
    samples = [json.loads(x)["stats"] for x in lines if x.startswith('{"stats"')]
    busiest = max(samples, key=lambda s: (s.get("tables", 0), s.get("vmrss_kib", 0)), default={})
    peak = dict(busiest, vmrss_kib=max((s.get("vmrss_kib", 0) for s in samples), default=0),
                traced_kib=max((s.get("traced_kib", 0) for s in samples), default=0))
    if not any("traced_kib" in s for s in samples):
        del peak["traced_kib"]
    lat = [x * 1000 for x in bench.latencies]
    actions = after.get("actions", 0)
    print(f"referee load test: {args.tables} tables ({2 * args.tables} websocket clients), bots {args.level} "
          f"(in {args.bot_workers} worker process{'es' * (args.bot_workers > 1)}), "
          f"{args.variant} to {args.target}, bot delay 0, clients answering at once")
    print(f"  all {len(bench.seated) // 2} tables seated within {seated - started:.1f} s; play ran {elapsed:.1f} s; "
          f"matches finished {bench.finished // 2}/{args.tables}; errors {len(bench.errors)}")
    print(f"  actions applied (humans + bots): {actions}, {actions / max(elapsed, 1e-9):.0f} a second")
    if lat:
        print(f"  human action latency over {len(lat)} actions: median {statistics.median(lat):.1f} ms, "
              f"p95 {percentile(lat, 0.95):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, max {max(lat):.1f} ms")
    if bench.pings:
        pings = [x * 1000 for x in bench.pings]
        welcomes = [x * 1000 for x in bench.welcomes]
        print(f"  prober, a fresh connection a second ({len(pings)} probes, {len(bench.probe_errors)} failed): "
              f"ping -> pong median {statistics.median(pings):.1f} ms, p95 {percentile(pings, 0.95):.1f} ms, "
              f"max {max(pings):.1f} ms; connect -> welcome median {statistics.median(welcomes):.1f} ms, "
              f"p95 {percentile(welcomes, 0.95):.1f} ms")
    print(f"  referee process (event loop, bots apart): {cpu:.1f} s CPU in {elapsed:.1f} s "
          f"({100 * cpu / max(elapsed, 1e-9):.0f} % of one core); load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores")
    print(f"  referee memory: RSS {before.get('vmrss_kib', 0) / 1024:.1f} MiB idle, "
          f"{peak.get('vmrss_kib', 0) / 1024:.1f} MiB at most during the run "
          f"(at most {busiest.get('tables', '?')} tables and {busiest.get('clients', '?')} clients at once), "
          f"peak RSS {after.get('vmhwm_kib', 0) / 1024:.1f} MiB")
    if "traced_kib" in peak:
        per_table = (busiest.get("traced_kib", 0) - before.get("traced_kib", 0)) / max(busiest.get("tables", 1), 1)
        print(f"  tracemalloc: {before.get('traced_kib', 0) / 1024:.1f} MiB idle, {peak['traced_kib'] / 1024:.1f} MiB "
              f"at most ({per_table:.0f} KiB a table with its two connections), peak "
              f"{after.get('traced_peak_kib', 0) / 1024:.1f} MiB")
    if bench.errors:
        print("  first error:", bench.errors[0])


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--duration", type=float, default=60, help="seconds of play at most (default: %(default)s)")
    p.add_argument("--level", default="easy", choices=("easy", "normal", "expert"))
    p.add_argument("--variant", default="coinche", choices=("coinche", "classic"))
    p.add_argument("--target", type=int, default=501, choices=(501, 701, 1000))
    p.add_argument("--bot-workers", type=int, default=1, help="the referee's --bot-workers (default: %(default)s)")
    p.add_argument("--tracemalloc", action="store_true", help="trace the referee's Python memory (slower)")
    p.add_argument("--seed", type=int, default=1)
    asyncio.run(main(p.parse_args()))
