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
from typing import Any, AsyncIterator

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from .protocol import dumps
from .referee import Client, Config, Referee

log = logging.getLogger("coinche_referee")

#: Messages waiting for a slow reader before its connection is closed.
OUTBOX = 256
_CLOSE = object()


class WSClient(Client):
    def __init__(self, config: Config, connection: ServerConnection) -> None:
        address = connection.remote_address
        super().__init__(config, peer="" if not address else f"{address[0]}:{address[1]}")
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


@asynccontextmanager
async def running(config: Config, host: str = "127.0.0.1", port: int = 0,
                  origins: list[str] | None = None) -> AsyncIterator[Served]:
    """The referee serving on ``host:port`` (``port=0``: any free port, see ``Served.port``)."""
    referee = Referee(config)

    async def handler(connection: ServerConnection) -> None:
        client = WSClient(config, connection)
        writer = asyncio.create_task(client.pump())
        try:
            if not referee.connect(client):
                client.close(1013, "full")
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
    async with serve(handler, host, port, max_size=4 * config.max_message, compression=None,
                     origins=allowed) as server:
        bound = server.sockets[0].getsockname()
        try:
            yield Served(referee, server, host, bound[1])
        finally:
            referee.close()


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
