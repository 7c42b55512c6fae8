"""Where the referee keeps its tables: in its own memory (the default), or in Redis (``--redis URL``).

A table is written when it is created (its settings, seats, names and the hashes of its players'
tokens: :class:`TableRecord`) and with every accepted action, *before* anyone is told of the
action; a match is then rebuilt exactly by :meth:`coinche.session.Session.from_snapshot`.  The
:class:`MemoryStore` keeps nothing and answers at once: the referee runs as it always did, alone,
and a restart ends its matches.  :class:`coinche_referee.redis_store.RedisStore` writes to Redis.

A player's token is never stored, only its hash (:func:`hash_token`): whoever reads the store cannot
take a seat with what they read.

>>> hash_token("KvV12gx4XyNBTTfvrM3w2lKy")[:16]
'c8c9c9ca3b1d6fce'
>>> record = TableRecord("t1", "queue", {"variant": "coinche", "target": 1000, "level": "easy", "seed": "s",
...                                      "humans": [0, 1]}, None, ["Ana", None, None, None], {0: "h0", 1: "h1"})
>>> TableRecord.parse("t1", record.format()) == record
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

#: The record's format: a table another release wrote is not read as if it were this one's.
RECORD_FORMAT = "coinche-referee-table/1"


class StoreError(Exception):
    """The store refused or failed a write."""


class StoreUnavailable(StoreError):
    """The store cannot be reached now: nothing is acknowledged until it can (the write is retried)."""


class NotOwner(StoreError):
    """Another process took this table over (this one's lease lapsed): it must let the table go."""


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256 (the token is 18 random bytes, so a hash
    without salt cannot be reversed by guessing)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TableRecord:
    """What a table is, apart from its actions: enough to seat its players again after a restart."""

    id: str
    kind: str                         # queue, private or friends (coinche_referee.table.KINDS)
    settings: dict[str, Any]          # the session's settings (its seed, the seats held by humans)
    code: str | None                  # the private code it was created with, if any
    names: list[str | None]           # the people's display names, by seat (four)
    tokens: dict[int, str]            # seat -> the hash of its token, for the seats whose token works
    host: int = 0                     # the seat that starts a friends' table
    lobby: bool = False               # a friends' table still waiting for its players (settings: no seed)
    until: float | None = None        # a lobby: when it is given up (seconds since the epoch)
    clock: str | None = None          # its turn clock as last stored with an action (not in the record's text)

    def format(self) -> str:
        return json.dumps({"format": RECORD_FORMAT, "kind": self.kind, "settings": self.settings, "code": self.code,
                           "names": self.names, "tokens": {str(k): v for k, v in self.tokens.items()},
                           "host": self.host, "lobby": self.lobby, "until": self.until},
                          separators=(",", ":"), sort_keys=True)

    @classmethod
    def parse(cls, table_id: str, text: str | bytes) -> "TableRecord":
        """The record written by :meth:`format`; raises :class:`StoreError` for anything else."""
        try:
            data = json.loads(text)
            if data.get("format") != RECORD_FORMAT:
                raise StoreError(f"table {table_id}: format {data.get('format')!r}")
            return cls(table_id, str(data["kind"]), dict(data["settings"]), data["code"], list(data["names"]),
                       {int(k): str(v) for k, v in data["tokens"].items()}, int(data.get("host", 0)),
                       bool(data.get("lobby", False)), data.get("until"))
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise StoreError(f"table {table_id}: corrupt record ({e})") from None


class Store:
    """The interface: what the referee asks of a store.  Every write of a durable store is a coroutine
    that returns once the write is safe, or raises :class:`StoreUnavailable` / :class:`NotOwner`."""

    #: False: nothing is written, the referee acknowledges at once (the in-memory default).
    durable = False

    async def create(self, record: TableRecord) -> None:
        """The new table, owned by this process, its tokens' hashes pointing to it."""

    async def append(self, table_id: str, seq: int, *actions: str, clock: str | None = None) -> None:
        """The table's actions from number ``seq`` (from 0) on, all or none (a bot's declaration of
        announcements and its first card are two), with the turn clock they leave (``clock``, text).
        Written once: a retry of a write that went through is not written again."""

    async def update(self, record: TableRecord) -> None:
        """The table's record changed (a seat given to a bot: its token no longer works)."""

    async def finish(self, record: TableRecord) -> None:
        """The table is over: kept a while for the record, then expired; its tokens stop working."""


class MemoryStore(Store):
    """Today's referee: everything in this process's memory, nothing written anywhere."""


__all__ = ["Store", "MemoryStore", "TableRecord", "StoreError", "StoreUnavailable", "NotOwner", "hash_token",
           "RECORD_FORMAT"]
