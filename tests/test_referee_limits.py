"""What keeps one host from wearing the referee down, and what keeps the limits fair to players.

Per connection: a token bucket that a player at two actions a second with bursts of 8 never meets,
that never refuses the action of the seat to move, and after which every request is still answered.
Per address: a cap on connections, a cap on wrong private codes; a connection that neither sits nor
waits is closed; behind a trusted proxy the address is the one it reports, and nobody else's header
is believed.  The file limit bounds ``--max-clients``; accept failures are logged once per interval.
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st
from websockets.asyncio.client import connect

from coinche_referee.referee import Client, Config, Referee, default_max_clients
from coinche_referee.server import FailureLog, running
from test_referee_helpers import Player


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Recorder(Client):
    def __init__(self, config: Config, address: str = "198.51.100.1", clock=None) -> None:
        super().__init__(config, address=address, **({"clock": clock} if clock else {}))
        self.inbox: list[dict] = []
        self.closed: tuple | None = None

    def send(self, message: dict) -> None:
        json.dumps(message)
        self.inbox.append(message)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)


@pytest.fixture
def loop():
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def seated(loop, config: Config, clock: Clock):
    """A referee and two players at a table, seat 1 to speak first (bots in the worker may not move yet)."""
    referee = Referee(config, loop=loop, clock=clock)
    a, b = Recorder(config, "198.51.100.1", clock), Recorder(config, "198.51.100.2", clock)
    for c in (a, b):
        referee.connect(c)
    referee.handle(a, '{"type": "queue"}')
    referee.handle(b, '{"type": "queue"}')
    [table] = referee.tables
    return referee, table, a, b


# ---------------------------------------------------------------- fair limits

def human_pace(gaps: list[float]) -> list[float]:
    """Send times at most 8 at once and 2 a second sustained: in any window of w seconds, at most
    8 + 2w requests (each gap drawn, then pushed later where the window rule asks)."""
    times: list[float] = []
    for i, gap in enumerate(gaps):
        t = (times[-1] if times else 0.0) + gap
        for k in range(8, i + 1):
            t = max(t, times[i - k] + (k - 7) / 2)
        times.append(t)
    return times


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.0, 0.0, 0.01, 0.1, 0.5, 1.0, 4.0]), min_size=1, max_size=120))
def test_two_actions_a_second_with_bursts_of_8_are_never_refused(gaps):
    loop = asyncio.new_event_loop()
    try:
        clock = Clock()
        config = Config(bot_delay=0, level="easy")  # the defaults: rate 10, burst 20
        referee, table, a, b = seated(loop, config, clock)
        for i, t in enumerate(human_pace(gaps)):
            clock.now = t
            mover = {0: a, 1: b}.get(table.session.match.current_player)
            legal = [str(x) for x in table.session.match.legal_actions()]
            if mover is not None and i % 3 == 0 and "pass" in legal:
                frame = {"type": "act", "action": "pass", "id": i}
            else:
                frame = {"type": "state" if i % 2 else "ping", "id": i}
                mover = a
            before = len(mover.inbox)
            referee.handle(mover, json.dumps(frame))
            answers = [m for m in mover.inbox[before:] if m.get("id") == i]
            assert len(answers) == 1 and answers[0]["type"] != "error", answers
        referee.close()
    finally:
        loop.close()


def test_over_the_rate_every_request_is_answered_and_the_seat_to_move_still_plays(loop):
    clock = Clock()
    config = Config(bot_delay=0, level="easy", rate=1, burst=4, flood_close=1000)  # one spent on "queue"
    referee, table, a, b = seated(loop, config, clock)
    mover = b if table.session.match.current_player == 1 else a
    for i in range(10):
        referee.handle(mover, json.dumps({"type": "ping", "id": i}))
    replies = mover.inbox[-10:]
    assert [r["type"] for r in replies] == ["pong"] * 3 + ["error"] * 7
    assert [r["id"] for r in replies] == list(range(10))
    assert {r["error"]["key"] for r in replies[3:]} == {"rate_limited"}
    seq = len(table.session.actions)
    referee.handle(mover, json.dumps({"type": "act", "action": "pass", "id": "mine"}))  # bucket empty, its turn
    assert mover.inbox[-1]["type"] == "update" and mover.inbox[-1]["id"] == "mine"
    assert len(table.session.actions) == seq + 1
    other = a if mover is b else b
    for i in range(4):
        referee.handle(other, json.dumps({"type": "act", "action": "pass", "id": i}))  # not its turn
    assert other.inbox[-1]["error"]["key"] == "rate_limited" and other.inbox[-1]["id"] == 3
    clock.now += 5  # the bucket refills: answered as usual
    referee.handle(other, json.dumps({"type": "ping", "id": "later"}))
    assert other.inbox[-1] == {"type": "pong", "id": "later"}
    referee.close()


# ---------------------------------------------------------------- per address

def test_connections_per_address_are_capped(loop):
    config = Config(max_per_address=3)
    referee = Referee(config, loop=loop)
    here = [Recorder(config, "203.0.113.7") for _ in range(4)]
    assert [referee.connect(c) for c in here] == [True, True, True, False]
    assert here[3].inbox[-1]["error"] == {"key": "too_many_connections", "params": {"limit": 3},
                                          "message": "too many connections from your address (at most 3), close one first"}
    assert referee.connect(Recorder(config, "203.0.113.8"))  # another address is not held up
    referee.disconnect(here[0])
    assert referee.connect(Recorder(config, "203.0.113.7"))
    assert referee.stats()["addresses"] == 2
    referee.close()


def test_wrong_private_codes_are_limited_per_address(loop):
    clock = Clock()
    config = Config(guesses=10, guess_block=60)
    referee = Referee(config, loop=loop, clock=clock)
    host, guesser, friend = Recorder(config, "192.0.2.1"), Recorder(config, "192.0.2.66"), Recorder(config, "192.0.2.2")
    for c in (host, guesser, friend):
        referee.connect(c)
    referee.handle(host, '{"type": "create"}')
    code = host.inbox[-1]["code"]
    wrong = "22222A" if code != "22222A" else "22222B"
    for i in range(10):
        clock.now = i * 5.0
        referee.handle(guesser, json.dumps({"type": "join", "code": wrong, "id": i}))
        assert guesser.inbox[-1]["error"]["key"] == "no_such_table"
    referee.handle(guesser, json.dumps({"type": "join", "code": code, "id": "right"}))  # right, but blocked
    refused = guesser.inbox[-1]
    assert refused["id"] == "right" and refused["error"]["key"] == "too_many_guesses"
    assert refused["error"]["params"]["retry_after"] == 61
    assert "try again in 61 seconds" in refused["error"]["message"]
    assert code in referee.private  # the table still waits
    clock.now += 61
    referee.handle(guesser, json.dumps({"type": "join", "code": wrong}))
    assert guesser.inbox[-1]["error"]["key"] == "no_such_table"  # a new minute
    referee.handle(friend, json.dumps({"type": "join", "code": code}))  # another address was never held up
    assert friend.inbox[-1]["type"] == "start"
    referee.close()


def test_nine_wrong_codes_a_minute_are_never_blocked(loop):
    clock = Clock()
    config = Config(guesses=10)
    referee = Referee(config, loop=loop, clock=clock)
    c = Recorder(config, clock=clock)
    referee.connect(c)
    for i in range(60):
        clock.now = i * 7.0  # 8.6 a minute
        referee.handle(c, json.dumps({"type": "join", "code": "ZZZZZZ"}))
        assert c.inbox[-1]["error"]["key"] == "no_such_table"
    referee.close()


def test_a_connection_that_neither_sits_nor_waits_is_closed(loop):
    # a second of idleness, and margins of 0.3 s either side (tenths of these timings lost to a loaded machine)
    config = Config(idle_timeout=1.0, lobby_timeout=60)
    referee = Referee(config, loop=loop)
    idle, queued, cancelled = (Recorder(config, f"192.0.2.{i}") for i in range(3))
    for c in (idle, queued, cancelled):
        referee.connect(c)
    referee.handle(queued, '{"type": "queue", "target": 501}')
    referee.handle(cancelled, '{"type": "create"}')
    loop.run_until_complete(asyncio.sleep(0.5))
    referee.handle(cancelled, '{"type": "cancel"}')  # free again: its clock starts now
    loop.run_until_complete(asyncio.sleep(0.7))
    assert idle.closed == (1000, "idle") and idle.inbox[-1]["error"]["key"] == "idle"
    assert cancelled.closed is None
    loop.run_until_complete(asyncio.sleep(0.6))
    assert cancelled.closed == (1000, "idle")
    assert queued.closed is None and queued.waiting is not None
    referee.close()


# ---------------------------------------------------------------- behind a proxy

def run(scenario, config: Config, **options):
    async def main():
        async with running(config, **options) as served:
            return await asyncio.wait_for(scenario(f"ws://127.0.0.1:{served.port}", served.referee), 60)

    return asyncio.run(main())


async def open_from(url: str, forwarded: str | None) -> Player:
    headers = {"X-Forwarded-For": forwarded} if forwarded else None
    player = Player(await connect(url, additional_headers=headers))
    await player.recv()
    return player


def test_behind_a_trusted_proxy_the_limits_key_on_the_client_it_reports():
    config = Config(bot_delay=0, max_per_address=2)

    async def scenario(url, referee):
        crowd = [await open_from(url, f"203.0.113.{i}") for i in range(1, 6)]  # five clients, one proxy
        assert {c.address for c in referee.clients} == {f"203.0.113.{i}" for i in range(1, 6)}
        assert all(p.log[0]["type"] == "welcome" for p in crowd)
        second = await open_from(url, "6.6.6.6, 203.0.113.1")  # what a client wrote before the proxy: ignored
        assert second.log[0]["type"] == "welcome"
        third = await open_from(url, "7.7.7.7, 203.0.113.1")
        assert third.log[0]["error"]["key"] == "too_many_connections"
        crowd.append(second)
        v6 = [await open_from(url, f"2001:db8:0:1::{i}") for i in (1, 2, 3)]  # one /64: one client
        assert [p.log[0]["type"] for p in v6] == ["welcome", "welcome", "error"]
        for p in crowd + v6:
            await p.close()

    run(scenario, config, trusted_proxies=["127.0.0.1/32"])


def test_a_forged_header_from_anyone_else_is_not_believed():
    config = Config(bot_delay=0, max_per_address=2)

    async def scenario(url, referee):
        first = [await open_from(url, f"203.0.113.{i}") for i in (1, 2)]
        assert {c.address for c in referee.clients} == {"127.0.0.1"}
        third = await open_from(url, "203.0.113.3")
        assert third.log[0]["error"]["key"] == "too_many_connections"
        for p in first:
            await p.close()

    run(scenario, config, trusted_proxies=["10.0.0.0/8"])


# ---------------------------------------------------------------- files and failures

def test_max_clients_stays_below_the_open_file_limit():
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert default_max_clients() < soft and Config().max_clients == default_max_clients()
    script = ("import resource, sys\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n"
              "from coinche_referee.referee import Config\n"
              "from coinche_referee.__main__ import parse_args\n"
              "print(Config().max_clients, parse_args([]).max_clients)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["192", "192"]


def test_the_command_line_lowers_a_max_clients_above_the_file_limit_and_refuses_no_bot_worker():
    script = ("import resource, sys, logging\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (300, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n"
              "logging.basicConfig()\n"
              "from coinche_referee.__main__ import config_from, parse_args\n"
              "print(config_from(parse_args(['--max-clients', '5000'])).max_clients)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["236"] and "above what the open-file limit allows" in done.stderr
    refused = subprocess.run([sys.executable, "-m", "coinche_referee", "--bot-workers", "0"],
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "bot_workers must be at least 1" in refused.stderr
    forged = subprocess.run([sys.executable, "-m", "coinche_referee", "--trusted-proxy", "not-an-address"],
                            capture_output=True, text=True, timeout=30)
    assert forged.returncode == 2 and "not-an-address" in forged.stderr


def test_accept_failures_are_logged_once_per_interval_with_their_count(caplog):
    async def scenario(url, referee):
        loop = asyncio.get_running_loop()
        for _ in range(1000):  # how asyncio reports each failed accept (EMFILE: no file left)
            loop.call_exception_handler({"message": "socket.accept() out of system resource",
                                         "exception": OSError(24, "Too many open files")})
        logging.getLogger("websockets.server").error("opening handshake failed", exc_info=OSError(24, "x"))
        player = await Player.join(url)  # the referee still serves
        await player.send(type="ping")
        assert (await player.recv())["type"] == "pong"

    with caplog.at_level(logging.INFO):
        run(scenario, Config(bot_delay=0))
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    # the first of the storm at once, the other 999 when the interval ends (here: when the referee stops)
    assert [r.getMessage().split(" failed")[0] for r in lines] == ["accept", "websocket handshake", "accept"]
    assert "1 time(s)" in lines[0].getMessage() and "Too many open files" in lines[0].getMessage()
    assert "999 time(s)" in lines[2].getMessage()
    assert all(r.exc_info is None for r in lines)


def test_the_failure_log_counts_what_it_did_not_print():
    clock = Clock()
    logged = []

    class Sink(logging.Handler):
        def emit(self, record):
            logged.append(record.getMessage())

    logger = logging.getLogger("test-failures")
    logger.addHandler(Sink())
    failures = FailureLog(logger, every=10, clock=clock)
    for i in range(500):
        clock.now = i * 0.1  # 50 seconds of failures, 10 a second
        failures.add("accept", OSError(24, "Too many open files"))
    assert len(logged) == 5 and "1 time(s)" in logged[0]
    assert all("100 time(s)" in line for line in logged[1:])


def test_out_of_files_the_referee_logs_its_accept_failures_once_and_keeps_serving():
    """A referee with 80 files and 300 clients at once: accept() fails (EMFILE) many times; the log
    says so in one line with a count, no traceback, and every client is answered or refused cleanly."""
    import re

    script = ("import resource, sys\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (80, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n"
              "from coinche_referee.__main__ import main\n"
              "sys.exit(main(['--port', '0', '--max-per-address', '1000', '--log-level', 'WARNING']))\n")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        url = re.search(r"ws://[\d.]+:\d+", process.stdout.readline()).group(0)

        async def one():
            async with connect(url, open_timeout=20) as ws:
                first = json.loads(await ws.recv())
                await asyncio.sleep(2)
                return first["type"] if first["type"] != "error" else first["error"]["key"]

        async def crowd():
            return await asyncio.gather(*(one() for _ in range(300)), return_exceptions=True)

        answers = asyncio.run(crowd())
    finally:
        process.terminate()
        log = process.communicate(timeout=30)[1]
    assert {a for a in answers if isinstance(a, str)} <= {"welcome", "server_full"}
    assert answers.count("welcome") >= 10
    assert "Traceback" not in log
    accept = [line for line in log.splitlines() if "accept failed" in line]
    assert 1 <= len(accept) <= 3 and "Too many open files" in accept[0]


def test_after_the_match_the_players_connections_are_idle_ones():
    import random

    from test_referee_helpers import seat_two

    async def scenario(url, referee):
        a, b = await seat_two(url, "classic", 501)
        await asyncio.gather(a.play(random.Random(1)), b.play(random.Random(2)))
        for p in (a, b):
            assert (await p.recv("error", timeout=5))["error"]["key"] == "idle"
        await asyncio.sleep(0.2)
        assert not referee.clients and not referee.tables

    run(scenario, Config(bot_delay=0, level="easy", idle_timeout=0.3, rate=1000, burst=1000))
