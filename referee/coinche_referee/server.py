"""The WebSocket transport (the ``websockets`` library, asyncio): one :class:`WSClient` per
connection, frames in to :meth:`Referee.handle`, messages out through a bounded outbox.

>>> import asyncio
>>> async def demo():
...     async with running(Config(bot_delay=0)) as served:
...         return served.port > 0, served.referee.stats()["tables"]
>>> asyncio.run(demo())
(True, 0)
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tracemalloc
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterable

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from .addresses import client_key, parse_networks
from .failures import FailureLog
from .protocol import dumps
from .referee import Client, Config, Referee

log = logging.getLogger("coinche_referee")

#: Messages waiting for a slow reader before its connection is closed.
OUTBOX = 256
_CLOSE = object()


class WSClient(Client):
    def __init__(self, config: Config, connection: ServerConnection, trusted: tuple = ()) -> None:
        address = connection.remote_address
        host = "" if not address else str(address[0])
        forwarded = connection.request.headers.get("X-Forwarded-For") if connection.request else None
        super().__init__(config, peer="" if not address else f"{address[0]}:{address[1]}",
                         address=client_key(host, forwarded, trusted))
        self.connection = connection
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.closing = False
        self._abort: asyncio.Task | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= OUTBOX:  # it does not read: cut it off (its seat has the grace period)
            self.closing = True
            self._abort = asyncio.ensure_future(self.connection.close(1008, "too slow"))
            return
        self.outbox.put_nowait(dumps(message))

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close once what is already queued has gone out."""
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait((_CLOSE, code, reason))

    async def pump(self) -> None:
        try:
            while True:
                item = await self.outbox.get()
                if isinstance(item, tuple):
                    await self.connection.close(item[1], item[2])
                    return
                await self.connection.send(item)
        except ConnectionClosed:
            pass


@dataclass
class Served:
    referee: Referee
    server: Server
    host: str
    port: int
    cluster: Any = None  # with ``redis``: this process's coinche_referee.cluster.Cluster


class _HandshakeFailures(logging.Filter):
    """The websockets library logs a traceback for each failed opening handshake: counted instead."""

    def __init__(self, failures: FailureLog) -> None:
        super().__init__()
        self.failures = failures

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("opening handshake failed"):
            error = record.exc_info[1] if record.exc_info else record.getMessage()
            self.failures.add("websocket handshake", repr(error))
            return False
        return True


def _exception_handler(failures: FailureLog, default):
    """The event loop's handler: the accept loop's failures (``EMFILE``: out of files) are counted."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        if "accept" in str(context.get("message", "")):
            failures.add("accept", context.get("exception") or context.get("message"))
        elif default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    return handle


@asynccontextmanager
async def running(config: Config, host: str = "127.0.0.1", port: int = 0,
                  origins: list[str] | None = None, trusted_proxies: Iterable[str] = (),
                  referee_class: type[Referee] = Referee, redis: str | None = None,
                  lease: float | None = None, keep: float | None = None) -> AsyncIterator[Served]:
    """The referee serving on ``host:port`` (``port=0``: any free port, see ``Served.port``).

    ``trusted_proxies``: addresses or networks of the TLS proxies in front, whose ``X-Forwarded-For``
    names the client for the per-address limits (nobody else's is believed).  ``redis``: the URL of the
    Redis its tables are stored in and shared through with other processes (``lease``, ``keep``:
    :mod:`coinche_referee.cluster`); without it everything is in this process's memory.  Leaving the
    context with ``redis`` stops gracefully: no new connection, what is in flight finished, the tables
    left to the other processes, the connections closed with 1012 so that the pages resume elsewhere."""
    trusted = parse_networks(trusted_proxies)
    referee = referee_class(config)
    loop = asyncio.get_running_loop()
    failures = FailureLog(log)
    referee.failures = failures
    cluster = None
    if redis is not None:
        from .cluster import KEEP, LEASE, Cluster

        cluster = Cluster(referee, redis, lease=lease or LEASE, keep=keep or KEEP)
        try:
            await cluster.start()
        except BaseException:
            referee.close()
            await cluster.store.close()
            raise
    previous_handler = loop.get_exception_handler()
    loop.set_exception_handler(_exception_handler(failures, previous_handler))
    handshakes = _HandshakeFailures(failures)
    websockets_log = logging.getLogger("websockets.server")
    websockets_log.addFilter(handshakes)

    async def handler(connection: ServerConnection) -> None:
        client = WSClient(config, connection, trusted)
        writer = asyncio.create_task(client.pump())
        try:
            if not referee.connect(client):
                client.close(1013, "try again later")
            async for frame in connection:
                if not client.closing:  # once closing, frames are read (to finish the handshake) and dropped
                    referee.handle(client, frame)
        except ConnectionClosed:
            pass
        finally:
            referee.disconnect(client)
            client.close()
            try:
                await asyncio.wait_for(writer, timeout=10)
            except (asyncio.TimeoutError, ConnectionClosed):
                writer.cancel()

    allowed = None if not origins else [*origins, None]
    try:
        async with serve(handler, host, port, max_size=4 * config.max_message, compression=None,
                         origins=allowed) as server:
            bound = server.sockets[0].getsockname()
            flusher = asyncio.create_task(failures.flush_every_interval())
            try:
                yield Served(referee, server, host, bound[1], cluster)
            finally:
                flusher.cancel()
                if cluster is not None:
                    server.close(close_connections=False)  # no new connection; the others finish
                    await cluster.stop()
                referee.close()
    finally:
        failures.flush()
        websockets_log.removeFilter(handshakes)
        loop.set_exception_handler(previous_handler)


def memory() -> dict[str, int]:
    """The process's resident memory (KiB) and, when tracemalloc runs, Python's own (current, peak)."""
    out = {}
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    out[line[:5].lower() + "_kib"] = int(line.split()[1])
    except OSError:
        import resource

        out["vmhwm_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if tracemalloc.is_tracing():
        current, peak = tracemalloc.get_traced_memory()
        out["traced_kib"], out["traced_peak_kib"] = current // 1024, peak // 1024
    return out


async def report(referee: Referee, every: float) -> None:
    """Every ``every`` seconds, one JSON line on stderr: memory and counts."""
    while True:
        await asyncio.sleep(every)
        print(json.dumps({"stats": {**referee.stats(), **memory()}}), file=sys.stderr, flush=True)
