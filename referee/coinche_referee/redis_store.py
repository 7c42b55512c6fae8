"""The tables, the 1v1 queue, the private codes and the leases in Redis (``redis`` on PyPI, asyncio).

Every write that decides something is one Lua script, so it is atomic in Redis: an action is appended
only by the table's owner and only at its place (``seq``), a queued player is taken by one process
only, a lapsed lease is taken over by one process only.  Keys, under a prefix (``coinche:``):

====================  ======================================================================
``t:ID``              the table's record (:class:`~coinche_referee.store.TableRecord`, JSON)
``a:ID``              its actions, a list (the match is its record's settings + these)
``k:ID``              its turn clock (:class:`~coinche_referee.clock.TurnClock`, JSON), written with each action
``tok:HASH``          ``ID:SEAT`` for the SHA-256 of a seat's token (never the token)
``owner``             hash: table -> the process that decides it
``owned:PROC``        set: the tables of a process
``leases``            sorted set: table -> when its lease ends (ms, Redis's clock)
``alive:PROC``        the process's own lease (its queue entries and codes are believed while it lives)
``procs``             sorted set: the living processes -> when their lease ends (who shares the takeovers)
``q:VARIANT:TARGET``  list: the players waiting in the queue (JSON: process, client, name)
``pq:PRESET``         list: the people waiting for a public table of four of that preset (the same JSON)
``code:CODE``         a private table waiting: the process that holds it (JSON), with a TTL
``c:PROC``            pub/sub channel of a process: frames and messages of players on another process
``g:ADDR``            the wrong private codes an address sent in the current window (a count, with a TTL)
``gb:ADDR``           the address's joins are refused while this key lives (its TTL)
====================  ======================================================================

A finished table's ``t:`` and ``a:`` keys expire after ``keep`` seconds; its token keys are deleted.
The scripts work out their keys from the prefix: a standalone Redis or Valkey (not Redis Cluster).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, TimeoutError as RedisTimeoutError

from .store import NotOwner, Store, StoreError, StoreUnavailable, TableRecord

_NOW = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000) "

CREATE = _NOW + """
local p, me, id, lease = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[5])
redis.call('SET', p .. 't:' .. id, ARGV[4])
redis.call('HSET', p .. 'owner', id, me)
redis.call('SADD', p .. 'owned:' .. me, id)
redis.call('ZADD', p .. 'leases', now + lease, id)
for i = 6, #ARGV, 2 do redis.call('SET', p .. 'tok:' .. ARGV[i], id .. ':' .. ARGV[i + 1]) end
return 1
"""

APPEND = """
local p, me, id, seq, clock = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
if redis.call('HGET', p .. 'owner', id) ~= me then return -1 end
local key = p .. 'a:' .. id
local n, k = redis.call('LLEN', key), #ARGV - 5
if n == seq then
  redis.call('RPUSH', key, unpack(ARGV, 6))
  if clock ~= '' then redis.call('SET', p .. 'k:' .. id, clock) end
  return n + k
end
if n == seq + k then
  local stored = redis.call('LRANGE', key, seq, n - 1)
  for i = 1, k do if stored[i] ~= ARGV[5 + i] then return -2 end end
  return n
end
return -2
"""

UPDATE = """
local p, me, id = ARGV[1], ARGV[2], ARGV[3]
if redis.call('HGET', p .. 'owner', id) ~= me then return -1 end
redis.call('SET', p .. 't:' .. id, ARGV[4])
for i = 5, #ARGV do redis.call('DEL', p .. 'tok:' .. ARGV[i]) end
return 1
"""

FINISH = """
local p, me, id, keep = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
if redis.call('HGET', p .. 'owner', id) ~= me then return -1 end
redis.call('EXPIRE', p .. 't:' .. id, keep)
redis.call('EXPIRE', p .. 'a:' .. id, keep)
redis.call('DEL', p .. 'k:' .. id)
redis.call('HDEL', p .. 'owner', id)
redis.call('SREM', p .. 'owned:' .. me, id)
redis.call('ZREM', p .. 'leases', id)
for i = 5, #ARGV do redis.call('DEL', p .. 'tok:' .. ARGV[i]) end
return 1
"""

# The process's lease and its tables': renewed together; answers the tables it still owns.
RENEW = _NOW + """
local p, me, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
redis.call('SET', p .. 'alive:' .. me, '1', 'PX', lease)
redis.call('ZREMRANGEBYSCORE', p .. 'procs', '-inf', now)
redis.call('ZADD', p .. 'procs', now + lease, me)
local ids = redis.call('SMEMBERS', p .. 'owned:' .. me)
local out = {}
for _, id in ipairs(ids) do
  if redis.call('HGET', p .. 'owner', id) == me then
    redis.call('ZADD', p .. 'leases', 'XX', now + lease, id)
    out[#out + 1] = id
  else
    redis.call('SREM', p .. 'owned:' .. me, id)
  end
end
return out
"""

# Tables whose lease has ended, taken over by this process: at most ARGV[4]; or the one in ARGV[5]; or,
# ARGV[6] given, this process's share: the ended tables whose hash falls to it among the living processes
# (sorted by name), and any table ended more than ARGV[6] ms ago (its share's process did not take it).
CLAIM = _NOW + """
local p, me, lease, most = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local ids
if ARGV[5] ~= '' then ids = {ARGV[5]}
elseif ARGV[6] then
  local procs, living = redis.call('ZRANGEBYSCORE', p .. 'procs', '(' .. now, '+inf'), false
  for _, q in ipairs(procs) do if q == me then living = true end end
  if not living then procs[#procs + 1] = me end
  table.sort(procs)
  local n, mine = #procs, 0
  for i, q in ipairs(procs) do if q == me then mine = i - 1 end end
  local anyones = now - tonumber(ARGV[6])
  ids = {}
  local offset = 0
  while #ids < most do
    local chunk = redis.call('ZRANGEBYSCORE', p .. 'leases', '-inf', now, 'WITHSCORES', 'LIMIT', offset, 500)
    if #chunk == 0 then break end
    for i = 1, #chunk, 2 do
      local id = chunk[i]
      if #ids < most and (tonumber(chunk[i + 1]) <= anyones
                          or tonumber(string.sub(redis.sha1hex(id), 1, 8), 16) % n == mine) then
        ids[#ids + 1] = id
      end
    end
    offset = offset + 500
  end
else
  ids = redis.call('ZRANGEBYSCORE', p .. 'leases', '-inf', now, 'LIMIT', 0, most) end
local out = {}
for _, id in ipairs(ids) do
  local ends = redis.call('ZSCORE', p .. 'leases', id)
  if ends and tonumber(ends) <= now then
    local old = redis.call('HGET', p .. 'owner', id)
    if old then redis.call('SREM', p .. 'owned:' .. old, id) end
    redis.call('HSET', p .. 'owner', id, me)
    redis.call('SADD', p .. 'owned:' .. me, id)
    redis.call('ZADD', p .. 'leases', now + lease, id)
    out[#out + 1] = id
  end
end
return out
"""

# Leases ended at once: this process stops (ARGV[3]...: its tables), or its channel reached nobody (every
# table of ARGV[2], which is no longer counted among the living).  They end now (or when they ended, if that
# was earlier), not in the past, so that the living processes share them out (CLAIM) before any one of them
# may take the rest.
RELEASE = _NOW + """
local p, who = ARGV[1], ARGV[2]
local ids = {}
if #ARGV > 2 then for i = 3, #ARGV do ids[#ids + 1] = ARGV[i] end
else ids = redis.call('SMEMBERS', p .. 'owned:' .. who) end
local n = 0
for _, id in ipairs(ids) do
  if redis.call('HGET', p .. 'owner', id) == who then redis.call('ZADD', p .. 'leases', 'XX', 'LT', now, id) n = n + 1 end
end
if #ARGV == 2 then
  redis.call('DEL', p .. 'alive:' .. who)
  redis.call('ZREM', p .. 'procs', who)
end
return n
"""

# The first living player waiting in the queue, taken; or, if there is none, this one queued.
PAIR = """
local p, q, entry = ARGV[1], ARGV[1] .. 'q:' .. ARGV[2], ARGV[3]
while true do
  local e = redis.call('LPOP', q)
  if not e then redis.call('RPUSH', q, entry) return false end
  local ok, who = pcall(function() return cjson.decode(e).p end)
  if ok and who and redis.call('EXISTS', p .. 'alive:' .. who) == 1 then return e end
end
"""

# The public queue of a preset (ARGV[2]): ARGV[4] 'push' queues ARGV[3] and takes the first four living people if
# there are four; 'take' queues it and takes the first four living (or fewer) at once; 'now' (its wait is
# over) takes them if ARGV[3] still waits (else nil: another process seated it).  The dead are dropped.
SEEK = """
local p, q, mine, mode = ARGV[1], ARGV[1] .. 'pq:' .. ARGV[2], ARGV[3], ARGV[4]
if mode ~= 'now' then redis.call('RPUSH', q, mine) end
local living, found = {}, false
for _, e in ipairs(redis.call('LRANGE', q, 0, -1)) do
  local ok, who = pcall(function() return cjson.decode(e).p end)
  if ok and who and redis.call('EXISTS', p .. 'alive:' .. who) == 1 then
    living[#living + 1] = e
    if e == mine then found = true end
  else redis.call('LREM', q, 1, e) end
end
if mode == 'now' and not found then return false end
if #living < 4 and mode == 'push' then return {} end
local out = {}
for i = 1, math.min(4, #living) do
  redis.call('LREM', q, 1, living[i])
  out[#out + 1] = living[i]
end
return out
"""

# The entry of the process holding a private table's code, if that process lives.
CODE_HOLDER = """
local p = ARGV[1]
local e = redis.call('GET', p .. 'code:' .. ARGV[2])
if not e then return false end
local ok, who = pcall(function() return cjson.decode(e).p end)
if ok and who and redis.call('EXISTS', p .. 'alive:' .. who) == 1 then return e end
return false
"""

# A wrong private code from an address (KEYS[1]: its count in the window, KEYS[2]: its block), counted by
# every process: the ARGV[1]-th within ARGV[2] ms blocks its joins for ARGV[3] ms; the ms it is blocked for.
GUESS = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n < tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
redis.call('DEL', KEYS[1])
return tonumber(ARGV[3])
"""

DROP_IF = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisStore(Store):
    """The tables in Redis, with this process's name ``me`` as the owner of those it decides."""

    durable = True

    def __init__(self, url: str, me: str, lease: float = 3.0, keep: float = 86400.0, prefix: str = "coinche:",
                 timeout: float = 5.0, connections: int = 32) -> None:
        self.url, self.me, self.lease, self.keep, self.prefix = url, me, lease, keep, prefix
        # a few connections, shared: a burst of requests waits for one rather than opening hundreds
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=connections, timeout=4 * timeout, socket_timeout=timeout,
            socket_connect_timeout=timeout, decode_responses=True, health_check_interval=0)
        self.redis = aioredis.Redis(connection_pool=pool)
        self._scripts = {name: self.redis.register_script(text) for name, text in (
            ("create", CREATE), ("append", APPEND), ("update", UPDATE), ("finish", FINISH), ("renew", RENEW),
            ("claim", CLAIM), ("release", RELEASE), ("pair", PAIR), ("code_holder", CODE_HOLDER),
            ("drop_if", DROP_IF), ("guess", GUESS), ("seek", SEEK))}

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def run(self, script: str, *args: Any, keys: tuple = ()) -> Any:
        """A script (or any call) with Redis's failures turned into :class:`StoreUnavailable`."""
        try:
            return await self._scripts[script](keys=list(keys), args=[self.prefix, *args] if not keys else list(args))
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise StoreUnavailable(f"redis: {e}") from None
        except RedisError as e:
            raise StoreError(f"redis: {e}") from None

    async def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return await getattr(self.redis, method)(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise StoreUnavailable(f"redis: {e}") from None
        except RedisError as e:
            raise StoreError(f"redis: {e}") from None

    async def close(self) -> None:
        try:
            await self.redis.aclose()
            await self.redis.connection_pool.disconnect()
        except (RedisError, OSError):
            pass

    # ------------------------------------------------------------ tables
    async def create(self, record: TableRecord) -> None:
        tokens = [x for seat, h in sorted(record.tokens.items()) for x in (h, str(seat))]
        await self.run("create", self.me, record.id, record.format(), int(self.lease * 1000), *tokens)

    async def append(self, table_id: str, seq: int, *actions: str, clock: str | None = None) -> None:
        done = await self.run("append", self.me, table_id, seq, clock or "", *actions)
        if done == -1:
            raise NotOwner(table_id)
        if done == -2:
            raise StoreError(f"table {table_id}: action {seq} is not the next one stored")

    async def update(self, record: TableRecord, forget: tuple[str, ...] = ()) -> None:
        if await self.run("update", self.me, record.id, record.format(), *forget) == -1:
            raise NotOwner(record.id)

    async def finish(self, record: TableRecord, forget: tuple[str, ...] = ()) -> None:
        hashes = tuple(record.tokens.values()) + tuple(forget)
        if await self.run("finish", self.me, record.id, int(self.keep), *hashes) == -1:
            raise NotOwner(record.id)

    async def load(self, table_id: str) -> tuple[TableRecord, list[str]]:
        """A table's record and its actions, as stored."""
        found = (await self.load_many([table_id]))[table_id]
        if isinstance(found, StoreError):
            raise found
        return found

    async def token(self, token_hash: str) -> tuple[str, int] | None:
        """The table and seat of a token's hash, if it still works."""
        value = await self.call("get", self.key("tok", token_hash))
        if not value:
            return None
        table_id, _, seat = value.rpartition(":")
        return table_id, int(seat)

    async def owner(self, table_id: str) -> str | None:
        return await self.call("hget", self.key("owner"), table_id)

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        return await self.call("hmget", self.key("owner"), table_ids) if table_ids else []

    async def living(self, processes: set[str]) -> set[str]:
        """Those of ``processes`` whose lease runs."""
        names = sorted(processes)
        alive = await self.call("mget", [self.key("alive", p) for p in names]) if names else []
        return {p for p, a in zip(names, alive) if a is not None}

    # ------------------------------------------------------------ leases
    async def renew(self) -> set[str]:
        """This process's lease and its tables' renewed; the tables it still owns."""
        return set(await self.run("renew", self.me, int(self.lease * 1000)))

    async def claim(self, most: int = 50, table_id: str | None = None, share: float | None = None) -> list[str]:
        """Tables whose lease has ended (at most ``most``), now this process's; or ``table_id`` alone, if its
        lease ended.  ``share`` (seconds): only this process's share of them (each living process takes
        the tables whose hash falls to it), and any table whose lease ended more than ``share`` ago."""
        extra = ("" if table_id is None else table_id,) + (() if share is None else (int(share * 1000),))
        return list(await self.run("claim", self.me, int(self.lease * 1000), most, *extra))

    async def load_many(self, table_ids: list[str]) -> dict[str, tuple[TableRecord, list[str]] | StoreError]:
        """Tables' records and actions, read together (a takeover of many); a table that cannot be read:
        its :class:`StoreError`."""
        try:
            async with self.redis.pipeline(transaction=True) as pipe:  # each record with its actions
                for table_id in table_ids:
                    pipe.get(self.key("t", table_id)).lrange(self.key("a", table_id), 0, -1)
                    pipe.get(self.key("k", table_id))
                answers = await pipe.execute()
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise StoreUnavailable(f"redis: {e}") from None
        out: dict[str, tuple[TableRecord, list[str]] | StoreError] = {}
        for table_id, text, actions, clock in zip(table_ids, answers[::3], answers[1::3], answers[2::3]):
            try:
                if text is None:
                    raise StoreError(f"table {table_id}: no record")
                out[table_id] = replace(TableRecord.parse(table_id, text), clock=clock), list(actions)
            except StoreError as e:
                out[table_id] = e
        return out

    async def release(self, table_ids: list[str] | None = None, who: str | None = None) -> int:
        """End leases now: this process's ``table_ids`` (it stops), or every one of process ``who``."""
        if table_ids is not None:
            return await self.run("release", self.me, *table_ids) if table_ids else 0
        return await self.run("release", who)

    async def deaf(self) -> list[str]:
        """The other processes counted among the living whose channel nobody listens to: gone (Redis closes
        a killed process's connections at once)."""
        names = [n for n in await self.call("zrange", self.key("procs"), 0, -1) if n != self.me]
        if not names:
            return []
        heard = dict(await self.call("pubsub_numsub", *(self.channel(n) for n in names)))
        return [n for n in names if not heard.get(self.channel(n))]

    # ------------------------------------------------------------ the lobby
    async def pair(self, key: str, entry: str) -> str | None:
        """The first living player waiting with these options (taken), or ``None`` and ``entry`` queued."""
        return await self.run("pair", key, entry)

    async def seek(self, preset: str, entry: str, mode: str) -> list[str] | None:
        """The public queue of ``preset`` (script ``SEEK``): the people taken for a table, in order ([]: none
        yet; None: ``entry`` no longer waits)."""
        found = await self.run("seek", preset, entry, mode)
        return None if found is None else list(found)

    async def unseek(self, preset: str, entry: str) -> bool:
        return bool(await self.call("lrem", self.key("pq", preset), 1, entry))

    async def unqueue(self, key: str, entry: str) -> bool:
        """``entry`` out of the queue; ``False`` if another process already took it."""
        return bool(await self.call("lrem", self.key("q", key), 1, entry))

    async def offer_code(self, code: str, entry: str, seconds: float) -> bool:
        """A private table waiting under ``code``; ``False`` if that code is taken."""
        return bool(await self.call("set", self.key("code", code), entry, nx=True, px=max(1, int(seconds * 1000))))

    async def code_holder(self, code: str) -> str | None:
        """The entry of the process holding the table that waits under ``code``, if it lives."""
        return await self.run("code_holder", code)

    async def drop_code(self, code: str, entry: str) -> bool:
        return bool(await self.run("drop_if", entry, keys=(self.key("code", code),)))

    # ------------------------------------------------------------ wrong private codes, every process's
    async def guess_failed(self, address: str, allowed: int, window: float, block: float) -> float:
        """A wrong private code from ``address``: ``allowed`` of them within ``window`` seconds, on any process,
        refuse its joins for ``block`` seconds.  The seconds it is refused for from now (0: not)."""
        ms = await self.run("guess", allowed, max(1, int(window * 1000)), max(1, int(block * 1000)),
                            keys=(self.key("g", address), self.key("gb", address)))
        return int(ms) / 1000

    async def guess_blocked(self, address: str) -> float:
        """The seconds before ``address`` may join again (0: now)."""
        return max(0, int(await self.call("pttl", self.key("gb", address)))) / 1000

    # ------------------------------------------------------------ messages between processes
    def channel(self, process: str) -> str:
        return self.key("c", process)

    async def publish(self, process: str, messages: list[str]) -> int:
        """Messages to another process, in order; how many processes heard them (0: it is gone)."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for message in messages:
                    pipe.publish(self.channel(process), message)
                heard = await pipe.execute()
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise StoreUnavailable(f"redis: {e}") from None
        return min(heard) if heard else 1

    async def memory(self) -> dict[str, Any]:
        """Redis's memory figures and the number of table records it holds."""
        info = await self.call("info", "memory")
        tables = 0
        async for _ in self.redis.scan_iter(match=self.key("t", "*"), count=1000):
            tables += 1
        return {"used_memory": info.get("used_memory"), "tables": tables}


def entry(process: str, client: int, name: str | None, **extra: Any) -> str:
    """A queue or code entry: who waits (the process holding the connection, its client number)."""
    return json.dumps({"p": process, "c": client, "n": name, **extra}, separators=(",", ":"), sort_keys=True)


__all__ = ["RedisStore", "entry", "StoreUnavailable", "NotOwner", "StoreError"]
