"""``python -m coinche_referee``: run the referee until SIGINT or SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

from coinche.session import LEVELS

from .clock import PRESETS as CLOCKS
from .referee import Config, default_max_clients


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m coinche_referee", description=__doc__)
    d = Config()
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    p.add_argument("--port", type=int, default=8765, help="port, 0 for any free one (default: %(default)s)")
    p.add_argument("--grace", type=float, default=d.grace,
                   help="seconds a dropped player has to come back before a bot takes the seat (default: %(default)s)")
    p.add_argument("--bot-delay", type=float, default=d.bot_delay,
                   help="seconds before each bot action (default: %(default)s)")
    p.add_argument("--level", choices=LEVELS, default=d.level, help="the bots' level (default: %(default)s)")
    p.add_argument("--lobby-timeout", type=float, default=d.lobby_timeout,
                   help="seconds alone in the queue before the page is told (default: %(default)s)")
    p.add_argument("--private-timeout", type=float, default=d.private_timeout, metavar="SECONDS",
                   help="seconds a private table (1v1 or friends') waits for its players before it is given up "
                        "(default: %(default)s)")
    p.add_argument("--origin", action="append", default=[],
                   help="a page origin allowed to connect, e.g. https://belote.example (repeat; default: any)")
    p.add_argument("--rate", type=float, default=d.rate,
                   help="messages a second a connection may send, sustained (default: %(default)s)")
    p.add_argument("--burst", type=int, default=d.burst, help="messages a connection may send at once (default: %(default)s)")
    p.add_argument("--bot-workers", type=int, default=d.bot_workers, metavar="N",
                   help="worker processes in which the bots think, so they never hold up the event loop "
                        "(default: %(default)s; a busy server: its cores less one)")
    p.add_argument("--max-clients", type=int, default=d.max_clients,
                   help="connections at once (default: %(default)s, below this process's open-file limit)")
    p.add_argument("--max-per-address", type=int, default=d.max_per_address, metavar="N",
                   help="connections at once from one client address, one IPv6 /64 (default: %(default)s)")
    p.add_argument("--idle-timeout", type=float, default=d.idle_timeout, metavar="SECONDS",
                   help="close a connection that neither sits at a table nor waits for one this long "
                        "(default: %(default)s)")
    p.add_argument("--guesses", type=int, default=d.guesses, metavar="N",
                   help="wrong private codes one address may try in a minute before its joins are refused "
                        "for a minute (default: %(default)s)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   help="address or network (10.0.0.0/8) of a TLS proxy in front whose X-Forwarded-For names "
                        "the client for the per-address limits (repeat; default: none, the peer is the client)")
    p.add_argument("--stats", type=float, default=0, metavar="SECONDS",
                   help="print memory and counts as a JSON line on stderr this often (default: never)")
    p.add_argument("--trace-memory", action="store_true",
                   help="trace Python's memory in this process (tracemalloc; slower), shown by --stats")
    p.add_argument("--redis", metavar="URL", default=os.environ.get("COINCHE_REFEREE_REDIS") or None,
                   help="store every table in this Redis (redis://127.0.0.1:6379/0) and share the queue, the "
                        "private codes and the tables with the other referees using it (default: the "
                        "environment's COINCHE_REFEREE_REDIS, else none: alone and in memory, a restart "
                        "ends the matches)")
    p.add_argument("--lease", type=float, default=None, metavar="SECONDS",
                   help="with --redis: how long a table stays with a process that stopped renewing it "
                        "(default: 3)")
    p.add_argument("--keep", type=float, default=None, metavar="SECONDS",
                   help="with --redis: how long a finished table is kept in Redis before it expires "
                        "(default: 86400, a day)")
    p.add_argument("--clock", choices=sorted(CLOCKS), default=d.clock,
                   help="the turn clock of the queue's and 1v1 private tables (a friends' table's creator "
                        "chooses its own; default: %(default)s)")
    p.add_argument("--clock-strikes", type=int, default=d.clock_strikes, metavar="N",
                   help="timeouts of one seat in a row before a bot takes it (default: %(default)s)")
    p.add_argument("--clock-scale", type=float, default=d.clock_scale, metavar="FACTOR",
                   help="multiply every clock's times by this (for tests: short clocks; default: %(default)s)")
    p.add_argument("--log-level", default="INFO", help="logging level (default: %(default)s)")
    return p.parse_args(argv)


def config_from(args: argparse.Namespace) -> Config:
    """The referee's settings from the command line; ``--max-clients`` above what the open-file limit
    allows is lowered (with a warning), since each connection holds a file."""
    limit = default_max_clients()
    if args.max_clients > limit:
        logging.getLogger("coinche_referee").warning(
            "--max-clients %d is above what the open-file limit allows (%d): using %d; raise the limit "
            "(ulimit -n, systemd LimitNOFILE=) to accept more", args.max_clients, limit, limit)
    return Config(grace=args.grace, bot_delay=args.bot_delay, level=args.level,
                  lobby_timeout=args.lobby_timeout, private_timeout=args.private_timeout,
                  max_clients=min(args.max_clients, limit), rate=args.rate,
                  burst=args.burst, bot_workers=args.bot_workers, max_per_address=args.max_per_address,
                  idle_timeout=args.idle_timeout, guesses=args.guesses, clock=args.clock,
                  clock_scale=args.clock_scale, clock_strikes=args.clock_strikes)


async def _serve(args: argparse.Namespace, config: Config) -> None:
    from .server import report, running

    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    async with running(config, args.host, args.port, args.origin, args.trusted_proxy, redis=args.redis,
                       lease=args.lease, keep=args.keep) as served:
        where = (f"tables in {redact(args.redis)}, process {served.cluster.me}" if served.cluster is not None
                 else "alone and in memory: a restart ends its matches (--redis URL keeps them)")
        print(f"coinche referee listening on ws://{args.host}:{served.port} "
              f"(bots {config.level}, grace {config.grace:g}s, bot delay {config.bot_delay:g}s; {where})", flush=True)
        reporter = asyncio.create_task(report(served.referee, args.stats)) if args.stats > 0 else None
        await stop
        if reporter is not None:
            reporter.cancel()


def redact(url: str) -> str:
    """A Redis URL without its password, for the log.

    >>> redact("redis://referee:s3cret@10.0.0.5:6379/0"), redact("redis://127.0.0.1:6379/0")
    ('redis://referee:***@10.0.0.5:6379/0', 'redis://127.0.0.1:6379/0')
    """
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        from .addresses import parse_networks

        parse_networks(args.trusted_proxy)
        config = config_from(args)
    except ValueError as e:
        print(f"python -m coinche_referee: {e}", file=sys.stderr)
        return 2
    if args.trace_memory:
        import tracemalloc

        tracemalloc.start()
    try:
        asyncio.run(_serve(args, config))
    except Exception as e:  # noqa: BLE001 - e.g. Redis unreachable at start: one line, no traceback
        from .store import StoreError

        if not isinstance(e, StoreError):
            raise
        print(f"python -m coinche_referee: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
