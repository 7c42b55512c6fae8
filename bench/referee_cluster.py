"""Benchmark of the referee as a cluster: 3 processes and one Redis on loopback, many tables playing,
one process killed (``kill -9``) in the middle.

Starts its own ``redis-server`` (appendonly, on a free port) and ``--processes`` referees with
``--redis`` (easy bots, ``--bot-delay``), then opens two websocket clients per table, each connected
to one of the processes in turn, all queueing at once (so most tables pair players of two different
processes).  Each client answers its turn after a human-like pause (``--think`` seconds, give or take
half; the pause runs on through a reconnection, as a person's thinking does, so a turn whose pause ended
meanwhile, or whose action was lost with the connection, is answered as soon as the seat is resumed),
and when its socket closes it does what the page does: waits (1 s), reconnects to a living process and
resumes with its token.  Meanwhile a prober opens a fresh connection every second to a living process and
times its ``ping``.  At ``--kill-at`` seconds the first process is killed with SIGKILL; the run stops at
``--duration``.

Printed: the prober's ping (median, p95, max) before and after the kill; for the tables the killed
process owned, the time from the kill until each is taken over (another process owns it), until it
answers again (one of its players resumed), and until it moves again (its next action stored, and
told); the players' reconnections; acknowledged actions lost
(every action a player was told of, checked against what Redis holds at the end: goal 0); Redis's
memory per table (``used_memory`` while the tables play, less the empty server's, per table; and the
``MEMORY USAGE`` of one table's keys); the machine's load.

    .venv/bin/python bench/referee_cluster.py --tables 600 --duration 60 --kill-at 30

With ``--fours M`` there are also M public tables of four: 4M more clients ``seek`` the preset ``coinche``
at once (waiting at most 20 s for others; the processes' shared queue seats them four by four, in the order
they came), and play as the 1v1 clients do.

With ``--idle-every K`` every K-th player never acts: its turn clock runs out at each of its decisions and
the table's bot plays it (the referees run ``--clock-scale``, and ``--clock-strikes`` high enough that the
seat is never given away).  Then also printed: how late the timeouts were, from the deadline to the clock's
move stored by the referee (each referee's ``--stats`` figure, over the clocks it set before their deadline;
the killed one's as it last printed it before the kill), and as the idle player heard it (from the deadline
it was told to the bot's move heard, by kind of table: this adds the clients' own lag); and, for the killed
process's tables whose idle person was to move, from the deadline (or the kill, if later) to the clock's move
stored by the process that took the table over.

    .venv/bin/python bench/referee_cluster.py --tables 300 --fours 100 --duration 60 --kill-at 30 \
        --idle-every 4 --clock-scale 0.1 --think 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import redis as redis_sync
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers import child_pids  # noqa: E402
from redis_server import RedisServer, RefereeProcess  # noqa: E402  (the tests' real redis-server)

PREFIX = "coinche:"
#: Seconds a client seeking a public table of four waits for others before bots fill the empty seats.
FOURS_WAIT = 20


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.procs: list[RefereeProcess] = []
        self.dead: set[int] = set()
        self.killed_at: float | None = None
        self.stop_at = 0.0
        self.pings: list[tuple[float, float]] = []  # (when, seconds)
        self.probe_errors = 0
        self.players: list["Bot"] = []
        self.reconnections: list[float] = []  # seconds from a drop to the seat resumed
        self.errors: dict[str, int] = {}
        self.late: list[tuple[float, float, int]] = []  # (when heard, seconds after its deadline, seats): each timeout

    def living(self) -> list[str]:
        return [p.url for i, p in enumerate(self.procs) if i not in self.dead]


class Bot:
    """One scripted page."""

    def __init__(self, bench: Bench, number: int, rng: random.Random, people: int = 2) -> None:
        self.bench, self.number, self.rng = bench, number, rng
        self.people = people  # 2: it queues for a 1v1 table; 4: it seeks a public table of four
        self.name = f"p{number}"
        self.token: str | None = None
        self.state: dict | None = None
        self.told: dict[int, str] = {}
        self.undone = 0
        self.back_after_kill: float | None = None  # first resumed or update after the kill
        self.moved_after_kill: float | None = None  # first update after the kill
        # (seq, when) the player will act: kept through a reconnection, as a person goes on thinking
        # while the page reconnects (it acts at once on resuming if that time has passed)
        self.due: tuple[int, float] | None = None
        self.seated = False
        self.idle = bool(bench.args.idle_every) and number % bench.args.idle_every == 0  # never acts
        self.deadline: tuple[int, float] | None = None  # (seq, when) the clock of this seat's decision runs out

    def _choose(self) -> str:
        deal = self.state["deal"]
        legal = deal["legal"]
        if deal["phase"] == "auction":
            if self.rng.random() < 0.75:
                return "pass"
            return self.rng.choice([a for a in legal if a != "pass"][:4] or legal)
        return self.rng.choice(legal)

    def _my_turn(self) -> bool:
        s = self.state
        return (self.seated and s is not None and s["winner"] is None and s["deal"]["current_player"] == s["deal"]["seat"]
                and bool(s["deal"]["legal"]))

    def _note(self, message: dict) -> None:
        kind = message["type"]
        now = time.monotonic()
        after_kill = self.bench.killed_at is not None and now > self.bench.killed_at
        if kind == "update":
            seq, action = message["state"]["seq"], message["event"]["action"]
            if self.told.setdefault(seq, action) != action:
                self.undone += 1
            if after_kill and self.moved_after_kill is None:
                self.moved_after_kill = now
        if kind in ("update", "resumed") and after_kill and self.back_after_kill is None:
            self.back_after_kill = now
        if kind == "error":
            key = message["error"]["key"]
            self.bench.errors[key] = self.bench.errors.get(key, 0) + 1
        if "state" in message:
            self._clock(message, now)
            self.state = message["state"]
        if kind in ("start", "resumed"):
            self.token = message["token"]
            self.seated = True

    def _clock(self, message: dict, now: float) -> None:
        """The deadline of this seat's decision as first told, and how late the bot's move for it came."""
        state, event = message["state"], message.get("event") or {}
        if event.get("timeout") and self.state is not None and event["seat"] == self.state["deal"]["seat"] \
                and self.deadline is not None:
            self.bench.late.append((now, now - self.deadline[1], self.people))
            self.deadline = None
        clock = state.get("clock")
        if clock and clock["seat"] == state["deal"]["seat"]:
            if self.deadline is None or self.deadline[0] != state["seq"]:
                self.deadline = (state["seq"], now + clock["left"])
        elif self.deadline is not None and self.deadline[0] < state["seq"]:
            self.deadline = None  # moved on unheard (the update came while the connection was down)

    async def run(self, ready: asyncio.Queue, go: asyncio.Event) -> None:
        bench = self.bench
        url = bench.living()[self.number % len(bench.procs)]
        first = True
        dropped: float | None = None
        while time.monotonic() < bench.stop_at:
            try:
                async with connect(url, max_size=1 << 20, open_timeout=10) as ws:
                    await ws.recv()  # welcome
                    self.seated = False  # until this connection is answered start or resumed
                    if first:
                        ready.put_nowait(None)
                        await go.wait()
                        first = False
                        if self.people == 4:
                            await ws.send(json.dumps({"type": "seek", "preset": "coinche", "wait": FOURS_WAIT,
                                                      "name": self.name}))
                        else:
                            await ws.send(json.dumps({"type": "queue", "target": bench.args.target,
                                                      "name": self.name}))
                    elif self.token is not None:
                        await ws.send(json.dumps({"type": "resume", "token": self.token}))
                    else:
                        return  # dropped before it was seated: nothing to resume
                    await self._play(ws, dropped)
                    dropped = None
                    if self.state is not None and self.state["winner"] is not None:
                        return
            except (ConnectionClosed, OSError, InvalidHandshake, asyncio.TimeoutError):
                pass
            if dropped is None:
                dropped = time.monotonic()
            await asyncio.sleep(1.0)  # the page waits 1 s, then 2, 4...
            living = bench.living()
            url = living[self.rng.randrange(len(living))]

    async def _play(self, ws, dropped: float | None) -> None:
        bench = self.bench
        acted = -1
        while time.monotonic() < bench.stop_at:
            seq = None if self.state is None else self.state["seq"]
            if self._my_turn() and acted != seq and (self.due is None or self.due[0] != seq) and not self.idle:
                self.due = (seq, time.monotonic() + bench.args.think * self.rng.uniform(0.5, 1.5))
            pending = self.due is not None and self.due[0] == seq and acted != seq
            wait = self.due[1] - time.monotonic() if pending else bench.stop_at - time.monotonic()
            if wait <= 0 and pending:
                # the decision is kept until the table moves on: sent again at once on a new connection if
                # the action was lost with the old one (as a person clicks again: they have decided)
                if self._my_turn():
                    acted = seq
                    await ws.send(json.dumps({"type": "act", "action": self._choose(), "seq": acted, "id": acted}))
                else:
                    self.due = None
                continue
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, wait)))
            except asyncio.TimeoutError:
                continue
            self._note(message)
            if message["type"] == "resumed" and dropped is not None:
                bench.reconnections.append(time.monotonic() - dropped)
                dropped = None
                acted = -1
            if message["type"] == "error":
                acted, self.due = -1, None
            if self.state is not None and self.state["winner"] is not None:
                return


async def prober(bench: Bench) -> None:
    rng = random.Random(0)
    while time.monotonic() < bench.stop_at:
        tick = time.monotonic()
        living = bench.living()
        try:
            async with connect(living[rng.randrange(len(living))], open_timeout=10) as ws:
                await ws.recv()
                sent = time.perf_counter()
                await ws.send('{"type": "ping", "id": 1}')
                while json.loads(await ws.recv()).get("type") != "pong":
                    pass
                bench.pings.append((time.monotonic(), time.perf_counter() - sent))
        except Exception:  # noqa: BLE001 - a failed probe is counted
            bench.probe_errors += 1
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far (Linux: /proc); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_now(referees: list[int], redis_pid: int | None = None) -> dict[str, float]:
    """CPU seconds used so far by the ``referees``' event loops and their bot workers, Redis, this bench."""
    return {"loops": sum(map(cpu_seconds, referees)),
            "workers": sum(cpu_seconds(c) for pid in referees for c in child_pids(pid)),
            "redis": 0.0 if redis_pid is None else cpu_seconds(redis_pid), "bench": time.process_time()}


def stored_actions(r, tables: list[str]) -> list[int]:
    pipe = r.pipeline(transaction=False)
    for table_id in tables:
        pipe.llen(f"{PREFIX}a:{table_id}")
    return pipe.execute()


async def takeovers(r, owned: list[str], victim: str, killed: float, at_kill: dict[str, int],
                    limit: float = 30.0) -> tuple[dict[str, float], dict[str, float]]:
    """Seconds from the kill until each of the victim's tables has another owner, and until it has
    stored its next action (whether or not its players are back to be told of it), polled every 0.1 s."""
    taken: dict[str, float] = {}
    moved: dict[str, float] = {}
    while len(moved) < len(owned) and time.monotonic() < killed + limit:
        left = [t for t in owned if t not in taken]
        owners = await asyncio.to_thread(r.hmget, f"{PREFIX}owner", left) if left else []
        still = [t for t in owned if t not in moved]
        counts = await asyncio.to_thread(stored_actions, r, still)
        now = time.monotonic()
        for table_id, owner in zip(left, owners):
            if owner != victim:  # taken over (or finished meanwhile)
                taken[table_id] = now - killed
        for table_id, count in zip(still, counts):
            if count > at_kill[table_id]:
                moved[table_id] = now - killed
        await asyncio.sleep(0.1)
    return taken, moved


def kinds(args: argparse.Namespace) -> list[int]:
    """Each client's table: 4 for the ``--fours`` tables' people (first, so that with ``--idle-every 4``
    each group of four that sits together in the order it came has one idle person), then 2 a 1v1 table."""
    return [4] * (4 * args.fours) + [2] * (2 * args.tables)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def spread(values: list[float], unit: float = 1000.0, suffix: str = "ms") -> str:
    if not values:
        return "none"
    v = [x * unit for x in values]
    return (f"median {statistics.median(v):.1f} {suffix}, p95 {percentile(v, 0.95):.1f} {suffix}, "
            f"max {max(v):.1f} {suffix} ({len(v)})")


def tables_in_redis(r) -> dict[str, dict]:
    out = {}
    for key in r.scan_iter(f"{PREFIX}t:*", count=1000):
        table_id = key[len(PREFIX) + 2:]
        record = json.loads(r.get(key))
        record["actions"] = r.lrange(f"{PREFIX}a:{table_id}", 0, -1)
        out[table_id] = record
    return out


async def main(args: argparse.Namespace) -> None:
    server = RedisServer().start()
    r = redis_sync.Redis.from_url(server.url, decode_responses=True)
    bench = Bench(args)
    try:
        empty = r.info("memory")["used_memory"]
        extra = ("--bot-delay", str(args.bot_delay), "--grace", "60", "--max-per-address", str(4 * args.tables + 8 * args.fours + 100),
                 "--idle-timeout", "600", "--bot-workers", str(args.bot_workers), "--lobby-timeout", "60",
                 "--clock-scale", str(args.clock_scale), "--clock-strikes", "1000000", "--stats", "2")
        bench.procs = [RefereeProcess(server.url, *extra) for _ in range(args.processes)]
        rng = random.Random(args.seed)
        bench.players = [Bot(bench, i, random.Random(rng.random()), people) for i, people in enumerate(kinds(args))]
        ready, go = asyncio.Queue(), asyncio.Event()
        bench.stop_at = time.monotonic() + 3600
        tasks = [asyncio.create_task(p.run(ready, go)) for p in bench.players]
        for _ in tasks:
            await asyncio.wait_for(ready.get(), 120)
        started = time.monotonic()
        bench.stop_at = started + args.duration
        go.set()
        pids = [p.proc.pid for p in bench.procs]
        cpu_start, cpu_used = cpu_now(pids, server.proc.pid), {}
        probing = asyncio.create_task(prober(bench))
        await asyncio.sleep(max(0.0, args.kill_at - 5))
        playing = r.info("memory")["used_memory"]
        stored = r.dbsize()
        own_keys = [k for k in r.scan_iter(f"{PREFIX}*", count=1000)
                    if k.startswith((f"{PREFIX}t:", f"{PREFIX}a:", f"{PREFIX}tok:"))]
        pipe = r.pipeline(transaction=False)
        for k in own_keys:
            pipe.memory_usage(k)
        keys_bytes = sum(x or 0 for x in pipe.execute())
        tables_then = sum(1 for k in own_keys if k.startswith(f"{PREFIX}t:"))
        await asyncio.sleep(max(0.0, started + args.kill_at - time.monotonic()))
        victim = bench.procs[0]
        victim_name = victim.banner.rsplit("process ", 1)[1].rstrip(")\n")
        owned = {t for t, owner in r.hgetall(f"{PREFIX}owner").items() if owner == victim_name}
        victim_end = cpu_now(pids[:1])
        bench.killed_at = time.monotonic()
        victim.kill()
        bench.dead.add(0)
        at_kill = dict(zip(sorted(owned), stored_actions(r, sorted(owned))))
        # the clocks running at the kill, as stored with the last action (due: seconds since the epoch)
        clocks = {t: json.loads(c) for t, c in zip(sorted(owned), r.mget([f"{PREFIX}k:{t}" for t in sorted(owned)]) if owned else [])
                  if c is not None}
        records = {t: json.loads(x) for t, x in zip(sorted(owned), r.mget([f"{PREFIX}t:{t}" for t in sorted(owned)]) if owned else [])
                   if x is not None}
        epoch_at_kill = time.time()
        # whether a person was to move at the kill (as the player who had heard most of its table saw it)
        person_to_move = {p.name: (p.state["seq"], p.state["deal"]["current_player"] in p.state["humans"])
                          for p in bench.players if p.state is not None}
        taken = asyncio.create_task(takeovers(r, sorted(owned), victim_name, bench.killed_at, at_kill))
        await asyncio.gather(*tasks)
        taken, stored_again = await taken
        taken = list(taken.values())
        await probing
        elapsed = time.monotonic() - started
        cpu_end = cpu_now(pids[1:], server.proc.pid)  # the living ones; the killed one's up to the kill
        cpu_used = {k: cpu_end[k] - cpu_start[k] + (victim_end[k] if k in ("loops", "workers") else 0.0)
                    for k in cpu_end}
        await asyncio.sleep(0.5)
        tables = tables_in_redis(r)
    finally:
        logs = [p.log() for p in bench.procs]
        for p in bench.procs:
            p.stop()
        r.close()
        server.cleanup()
    warnings = sorted({line.split(": ", 1)[-1][:160] for log in logs for line in log.splitlines()
                       if " WARNING " in line or " ERROR " in line})
    # each referee's last stats line (the killed one's: its last before the kill), by the referee's own clock:
    # its timeouts of clocks it set before their deadline, how late each fired and how late its move was stored
    fired = []
    for i, log in enumerate(logs):
        lines = [line for line in log.splitlines() if line.startswith('{"stats"')]
        if lines:
            stats = json.loads(lines[-1])["stats"]
            fired.append({k: stats.get(k) for k in ("timeouts", "clock_late_p99", "clock_thought_p99", "clock_stored_p99",
                                                     "clock_stored_max", "clocks_refired")} | {"killed": i in bench.dead})

    by_name = {p.name: p for p in bench.players}
    lost = told = undone = 0
    back, moved = [], []
    again: dict[bool, list[float]] = {False: [], True: []}  # next action stored, by: a person was to move
    for table_id, record in tables.items():
        players = [by_name[n] for n in record["names"] if n in by_name]
        actions = record["actions"]
        for p in players:
            for seq, action in p.told.items():
                told += 1
                if seq > len(actions) or actions[seq - 1] != action:
                    lost += 1
            undone += p.undone
        if table_id in stored_again:
            seen = [person_to_move[p.name] for p in players if p.name in person_to_move]
            again[max(seen)[1] if seen else True].append(stored_again[table_id])
        if table_id in owned:
            times = [p.back_after_kill for p in players if p.back_after_kill is not None]
            if times:
                back.append(min(times) - bench.killed_at)
            times = [p.moved_after_kill for p in players if p.moved_after_kill is not None]
            if times:
                moved.append(min(times) - bench.killed_at)
    idle_names = {p.name for p in bench.players if p.idle}
    refired = []  # the killed process's clocks of an idle person: deadline (or kill) -> the bot's move stored
    for table_id, clock in clocks.items():
        seat, due = clock.get("seat"), clock.get("due")
        names_then = records.get(table_id, {}).get("names", [])
        if seat is None or due is None or seat >= len(names_then) or names_then[seat] not in idle_names:
            continue
        if table_id in stored_again:
            refired.append(stored_again[table_id] - max(0.0, due - epoch_at_kill))
    before = [s for t, s in bench.pings if t < bench.killed_at]
    after = [s for t, s in bench.pings if t >= bench.killed_at]
    finished = round(sum(1 / p.people for p in bench.players if p.state and p.state["winner"] is not None))
    print(f"referee cluster: {args.processes} processes + one redis-server on loopback, {args.tables} 1v1 tables and "
          f"{args.fours} public tables of four ({len(bench.players)} websocket clients), easy bots (bot delay {args.bot_delay:g} s, "
          f"{args.bot_workers} worker(s) a process), players think {args.think:g} s (± half), "
          f"{args.duration:g} s, kill -9 of one process at {args.kill_at:g} s")
    print(f"  tables stored: {len(tables)}; matches finished: {finished}; actions told: {told}; "
          f"run {elapsed:.1f} s; errors {dict(sorted(bench.errors.items()))}")
    print(f"  a fresh connection's ping -> pong before the kill: {spread(before)}; "
          f"after: {spread(after)}; failed probes {bench.probe_errors}")
    print(f"  the killed process owned {len(owned)} tables: taken over by another process after "
          f"{spread(taken, 1, 's')}; answering again (a player resumed) after "
          f"{spread(back, 1, 's')}; moving again (next action stored) after "
          f"{spread(list(stored_again.values()), 1, 's')}: a bot to move {spread(again[False], 1, 's')}, "
          f"a person to move {spread(again[True], 1, 's')}; (next action told, once a player is back) "
          f"after {spread(moved, 1, 's')}; "
          f"{len(owned) - len(back)} never answered again")
    print(f"  players' reconnections (drop -> seat resumed): {spread(bench.reconnections, 1, 's')}")
    if args.idle_every:
        worst = [f["clock_stored_p99"] for f in fired if f["clock_stored_p99"] is not None]
        print(f"  turn clocks (every {args.idle_every}th player idle, clocks x{args.clock_scale:g}): from the deadline to "
              f"the clock's move stored by the referee (each referee's own count, clocks set before their deadline): "
              f"p99 {max(worst) if worst else float('nan'):.3f} s at the worst referee (goal < 1 s), "
              f"{sum(f['timeouts'] or 0 for f in fired)} timeouts")
        print(f"    by referee: {fired}")
        for people, kind in ((2, "1v1"), (4, "public four")):
            late = [x for when, x, n in bench.late if when < bench.killed_at and n == people]
            if late:
                print(f"    at {kind} tables, the deadline (as the idle player heard it) to the bot's move heard, before "
                      f"the kill: {spread(late)}, p99 {percentile(late, 0.99) * 1000:.0f} ms")
        print(f"    after the kill, all: {spread([x for when, x, _ in bench.late if when >= bench.killed_at])}")
        print(f"  the killed process's clocks of an idle person ({len(refired)}): from the deadline (or the kill) to "
              f"the clock's move stored by the process that took the table over: {spread(refired, 1, 's')}, "
              f"{sum(1 for x in refired if x > 5)} over 5 s")
    print(f"  acknowledged actions lost: {lost} of {told} (an action told then undone: {undone})")
    per_table = (playing - empty) / max(tables_then, 1)
    print(f"  redis memory: {empty / 1024:.0f} KiB empty, {playing / 1024 / 1024:.1f} MiB with {tables_then} "
          f"tables ({stored} keys; connection buffers included): {per_table / 1024:.1f} KiB a table; "
          f"MEMORY USAGE of the tables' own keys (record, actions, tokens): "
          f"{keys_bytes / max(tables_then, 1) / 1024:.2f} KiB a table")
    print("  CPU over the run, in cores busy on average: "
          + ", ".join(f"{what} {cpu_used.get(k, 0) / elapsed:.2f}" for k, what in (
              ("loops", "the referees' event loops"), ("workers", "their bot workers (niced) and clock workers"), ("redis", "redis"),
              ("bench", "this bench's clients"))))
    print(f"  load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if warnings:
        print(f"  the referees logged {len(warnings)} distinct warnings, e.g.:", *warnings[:6], sep="\n    ")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=600, help="1v1 tables (two clients each queue for one)")
    p.add_argument("--fours", type=int, default=0, metavar="M",
                   help="public tables of four (4M more clients seek the preset coinche; default: none)")
    p.add_argument("--processes", type=int, default=3)
    p.add_argument("--duration", type=float, default=60)
    p.add_argument("--kill-at", type=float, default=30)
    p.add_argument("--think", type=float, default=2.0, help="seconds a player takes to act, give or take half")
    p.add_argument("--bot-delay", type=float, default=0.8)
    p.add_argument("--bot-workers", type=int, default=1)
    p.add_argument("--target", type=int, default=1000, choices=(501, 701, 1000))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--idle-every", type=int, default=0, metavar="K",
                   help="every K-th player never acts: its clock runs out at each decision (default: none)")
    p.add_argument("--clock-scale", type=float, default=1.0, help="the referees' --clock-scale (default: 1)")
    asyncio.run(main(p.parse_args()))
