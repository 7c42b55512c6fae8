"""A real ``redis-server`` for the tests (never a mock), and referee processes that share it.

``redis_url`` (a pytest fixture, one server per test module) starts Debian's ``redis-server`` on a free
loopback port with a throw-away directory; the tests that need it are skipped, with the reason, only
when ``redis-server`` is not installed (``make redis-server`` installs it; CI does).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """``redis-server`` on 127.0.0.1:``port``; ``stop()`` and ``start()`` again on the same port and data
    (appendonly: what it acknowledged survives)."""

    def __init__(self, port: int | None = None) -> None:
        self.binary = shutil.which("redis-server")
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="coinche-redis-")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--appendonly", "yes", "--appendfsync", "everysec", "--protected-mode", "yes", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def need_redis() -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make redis-server installs Debian's)")


@pytest.fixture(scope="module")
def redis_server():
    need_redis()
    server = RedisServer().start()
    yield server
    server.cleanup()


class RefereeProcess:
    """``python -m coinche_referee --redis URL`` in its own process (so ``kill -9`` is real)."""

    def __init__(self, redis_url: str, *extra: str, env: dict | None = None) -> None:
        cmd = [sys.executable, "-m", "coinche_referee", "--port", "0", "--redis", redis_url, "--bot-delay", "0",
               "--level", "easy", "--rate", "1000", "--burst", "1000", "--lobby-timeout", "0.5", "--grace", "30",
               "--log-level", "WARNING", *extra]
        self.stderr = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: a full pipe would block it
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.stderr, text=True, cwd=ROOT,
                                     env={**os.environ, **(env or {})})
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"the referee did not start: {line!r} {self.log()}")
        self.banner = line
        self.url = line.split()[4]

    def term(self, timeout: float = 30) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc.stdout.close()
        self.stderr.close()

    def log(self) -> str:
        """What it has written on stderr so far."""
        self.stderr.seek(0)
        return self.stderr.read()
