"""The write queue on Redis Streams: one stream, one consumer group, a dead-letter stream.

Why Redis Streams rather than RabbitMQ (``benchmarks/broker_choice.py`` on this project's
2-core machine): the acknowledged publish costs the same when both fsync before
answering (p95 about 8-12 ms each), Redis answers in 0.1 ms with ``appendfsync
everysec``, starts in 0.05 s instead of about 10 s, and the working memory needs Redis
anyway, so one server less to run.

Keys (``prefix`` default ``lgm:q``):

====================== ==============================================================
``{prefix}:writes``    the stream of accepted writes; consumer group ``workers``
``{prefix}:backlog``   a hash of outstanding writes: ``*`` all, ``t:TENANT``, ``u:USER``
``{prefix}:dead``      the dead-letter stream (each entry: the write, its error, attempts)
``{prefix}:errors``    the last error of each write that failed (by stream entry id)
====================== ==============================================================

A publish (:meth:`WriteQueue.publish`) is one Lua script: it refuses the whole batch
when the backlog would pass ``max_backlog`` (back-pressure, nothing dropped), else adds
each write to the stream and counts it in the backlog, atomically. An acknowledgement
(:meth:`WriteQueue.ack`) removes the entry and uncounts it only when it was still
pending, so a write acknowledged twice (redelivered to two workers) is uncounted once.

Example:
    >>> q = WriteQueue.from_url("redis://127.0.0.1:6379/0")  # doctest: +SKIP
    >>> q.publish("acme", [("acme:alice", {"message_id": "m1", "content": "hi"})])  # doctest: +SKIP
    ['1733468400000-0']
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = [
    "WriteQueue",
    "Delivery",
    "DeadLetter",
    "QueueError",
    "QueueFull",
    "QueueUnavailable",
    "BROKER_ENV",
    "DEFAULT_PREFIX",
]

#: The environment variable ``serve`` and ``worker`` read the broker URL from.
BROKER_ENV = "LANGGRAPH_MEMORY_BROKER_URL"
#: The keys' prefix by default.
DEFAULT_PREFIX = "lgm:q"
GROUP = "workers"

log = logging.getLogger("langgraph_memory.queue")

# Lua helpers: add to a backlog field and drop it at zero (the hash stays small); whether
# n more writes would pass the bound; queue one write (its user's count with it; the
# callers count the total and the tenant, once for a batch of one tenant).
_COUNT = """
local function count(key, field, by)
  if redis.call('HINCRBY', key, field, by) <= 0 then redis.call('HDEL', key, field) end
end
local function full(backlog, n, most)
  return tonumber(redis.call('HGET', backlog, '*') or '0') + n > tonumber(most)
end
local function enqueue(stream, backlog, tenant, user, body)
  count(backlog, 'u:' .. user, 1)
  return redis.call('XADD', stream, '*', 'tenant', tenant, 'user', user, 'm', body)
end
"""
# KEYS: stream, backlog. ARGV: max_backlog, tenant, n, then n pairs (user, body).
_PUBLISH = (
    _COUNT
    + """
local n = tonumber(ARGV[3])
if full(KEYS[2], n, ARGV[1]) then return -1 end
local ids = {}
for i = 0, n - 1 do
  ids[#ids + 1] = enqueue(KEYS[1], KEYS[2], ARGV[2], ARGV[4 + 2 * i], ARGV[5 + 2 * i])
end
count(KEYS[2], '*', n)
count(KEYS[2], 't:' .. ARGV[2], n)
return ids
"""
)
# KEYS: stream, backlog, errors, dead. ARGV: group, entry id, tenant, user, and for a dead
# letter: body, error, attempts, dead-at.
_SETTLE = (
    _COUNT
    + """
if redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('XDEL', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
count(KEYS[2], '*', -1)
count(KEYS[2], 't:' .. ARGV[3], -1)
count(KEYS[2], 'u:' .. ARGV[4], -1)
if ARGV[5] then
  redis.call('XADD', KEYS[4], '*', 'id', ARGV[2], 'tenant', ARGV[3], 'user', ARGV[4],
             'm', ARGV[5], 'error', ARGV[6], 'attempts', ARGV[7], 'at', ARGV[8])
end
return 1
"""
)

# KEYS: stream, backlog, dead. ARGV: max_backlog, n, then n quadruples (dead id, tenant,
# user, body). A dead letter already taken back (a concurrent retry) is skipped.
_REVIVE = (
    _COUNT
    + """
local n = tonumber(ARGV[2])
if full(KEYS[2], n, ARGV[1]) then return -1 end
local done = 0
for i = 0, n - 1 do
  local tenant = ARGV[4 + 4 * i]
  if redis.call('XDEL', KEYS[3], ARGV[3 + 4 * i]) == 1 then
    enqueue(KEYS[1], KEYS[2], tenant, ARGV[5 + 4 * i], ARGV[6 + 4 * i])
    count(KEYS[2], '*', 1)
    count(KEYS[2], 't:' .. tenant, 1)
    done = done + 1
  end
end
return done
"""
)


class QueueError(RuntimeError):
    """The write queue cannot take the write now (the service answers 503)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        #: Seconds after which sending again is sensible.
        self.retry_after = retry_after


class QueueFull(QueueError):
    """The backlog is at its bound: the workers are behind (back-pressure)."""


class QueueUnavailable(QueueError):
    """The broker does not answer."""


@dataclass(frozen=True)
class Delivery:
    """A write handed to a worker.

    Attributes:
        entry_id: The stream entry's id.
        tenant: The tenant that sent it.
        user: The store's user id (``tenant:user``).
        body: The write as published (``None`` when it is not valid JSON).
        raw: The body's text as stored.
        attempts: How many times it has been delivered (1 the first time).
    """

    entry_id: str
    tenant: str
    user: str
    body: dict[str, Any] | None
    raw: str
    attempts: int


@dataclass(frozen=True)
class DeadLetter:
    """A write that failed ``max_attempts`` times, kept in the dead-letter stream.

    Attributes:
        entry_id: Its id in the dead-letter stream.
        tenant: The tenant that sent it.
        user_id: The store's user id.
        message_id: The message's id (``None`` when the body was unreadable).
        error: The last error (``ValueError: ...``).
        attempts: How many times it was delivered.
        dead_at: When it was dead-lettered (ISO 8601).
        body: The write as published.
    """

    entry_id: str
    tenant: str
    user_id: str
    message_id: str | None
    error: str
    attempts: int
    dead_at: str
    body: str


class WriteQueue:
    """The Redis Streams write queue (publishing, consuming, settling, the backlog).

    Args:
        client: A ``redis.Redis`` client (``decode_responses=True``).
        prefix: The keys' prefix (several memories may share one Redis).
        max_backlog: Most outstanding writes before :meth:`publish` refuses (503).
        max_attempts: Deliveries of a failing write before it is dead-lettered.
        claim_idle_s: How long a delivered, unacknowledged write waits before another
            worker takes it over (longer than a batch takes; a failed write is retried
            after it too).
        retry_after_s: What a refusal tells the caller to wait.

    Example:
        >>> url = "redis://127.0.0.1:6379/0"
        >>> q = WriteQueue.from_url(url, max_backlog=10_000)  # doctest: +SKIP
    """

    def __init__(
        self,
        client: Any,
        *,
        prefix: str = DEFAULT_PREFIX,
        max_backlog: int = 10_000,
        max_attempts: int = 3,
        claim_idle_s: float = 30.0,
        retry_after_s: float = 1.0,
    ) -> None:
        if not isinstance(max_backlog, int) or max_backlog < 1:
            raise ValueError(f"max_backlog must be a positive int, got {max_backlog!r}")
        if not isinstance(max_attempts, int) or max_attempts < 1:
            raise ValueError(f"max_attempts must be a positive int, got {max_attempts!r}")
        if not claim_idle_s > 0:
            raise ValueError(f"claim_idle_s must be positive, got {claim_idle_s!r}")
        self.client = client
        self.prefix = prefix
        self.max_backlog, self.max_attempts = max_backlog, max_attempts
        self.claim_idle_s, self.retry_after_s = claim_idle_s, retry_after_s
        self.stream, self.backlog = f"{prefix}:writes", f"{prefix}:backlog"
        self.dead, self.errors = f"{prefix}:dead", f"{prefix}:errors"
        self._publish = client.register_script(_PUBLISH)
        self._settle = client.register_script(_SETTLE)
        self._revive = client.register_script(_REVIVE)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        prefix: str = DEFAULT_PREFIX,
        max_backlog: int = 10_000,
        max_attempts: int = 3,
        claim_idle_s: float = 30.0,
        retry_after_s: float = 1.0,
        require_durable: bool = True,
    ) -> WriteQueue:
        """Connect to ``redis://HOST:PORT/DB`` (bounded timeouts) and make the group.

        Args:
            url: The Redis URL.
            require_durable: Refuse a Redis without the append-only file (an
                acknowledged write would be lost with a restart).
            prefix, max_backlog, max_attempts, claim_idle_s, retry_after_s: As the
                class takes them.

        Raises:
            ImportError: Without the ``redis`` package (``pip install
                'langgraph-memory[queue]'``).
            ConnectionError: When the Redis does not answer (the URL's password is
                never shown).
            ValueError: When ``require_durable`` and the Redis has ``appendonly no``.
        """
        try:
            import redis
        except ImportError as exc:
            raise ImportError(
                f"the write queue needs redis ({exc}): pip install 'langgraph-memory[queue]'"
            ) from None
        client = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=5.0,
            socket_connect_timeout=2.0,
            health_check_interval=10,
        )
        where = _safe_url(url)
        try:
            client.ping()
        except redis.RedisError as exc:
            raise ConnectionError(f"the broker at {where} does not answer: {exc}") from None
        if require_durable:
            try:
                aof = client.config_get("appendonly").get("appendonly")
            except redis.ResponseError:  # CONFIG disabled (managed Redis): trust it
                aof = None
            if aof == "no":
                raise ValueError(
                    f"the Redis at {where} runs without the append-only file: an acknowledged "
                    "write would be lost with a restart; start it with --appendonly yes "
                    "(or pass require_durable=False)"
                )
        q = cls(
            client,
            prefix=prefix,
            max_backlog=max_backlog,
            max_attempts=max_attempts,
            claim_idle_s=claim_idle_s,
            retry_after_s=retry_after_s,
        )
        q.setup()
        return q

    def setup(self) -> None:
        """Make the stream and its consumer group (idempotent)."""
        import redis

        try:
            self.client.xgroup_create(self.stream, GROUP, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    # -- publishing -----------------------------------------------------------------------
    def publish(self, tenant: str, writes: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
        """Add writes (``(store user id, body)`` pairs) to the stream, all or none.

        Returns once Redis has them (in its append-only file); returns their entry ids.

        Raises:
            QueueFull: When the backlog would pass ``max_backlog`` (nothing is added).
            QueueUnavailable: When the broker does not answer (nothing was acknowledged).
        """
        if not writes:
            return []
        args: list[Any] = [self.max_backlog, tenant, len(writes)]
        for user, body in writes:
            args += [user, json.dumps(body, ensure_ascii=False, separators=(",", ":"))]
        with self._reachable():
            out = self._publish(keys=[self.stream, self.backlog], args=args)
        if out == -1:
            raise QueueFull(
                f"the write queue is full ({self.max_backlog} writes waiting for the "
                "workers); send again later",
                self.retry_after_s,
            )
        return [str(i) for i in out]

    @contextmanager
    def _reachable(self) -> Iterator[None]:
        """Turn the broker's connection errors into :class:`QueueUnavailable`."""
        import redis

        try:
            yield
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise QueueUnavailable(
                f"the write queue does not answer ({type(exc).__name__})", self.retry_after_s
            ) from None

    # -- the backlog ----------------------------------------------------------------------
    def outstanding(self, tenant: str | None = None, user: str | None = None) -> int:
        """Writes published and not yet settled (stored or dead-lettered): of a user (store
        id), of a tenant, or of everyone.

        Raises:
            QueueUnavailable: When the broker does not answer.
        """
        field = f"u:{user}" if user is not None else f"t:{tenant}" if tenant is not None else "*"
        with self._reachable():
            return int(self.client.hget(self.backlog, field) or 0)

    def wait_drained(self, tenant: str | None = None, timeout: float = 60.0) -> None:
        """Wait until every write of ``tenant`` (or of everyone) published before the call
        is settled.

        Raises:
            TimeoutError: When ``timeout`` seconds pass first.
            QueueUnavailable: When the broker does not answer.
        """
        deadline = time.monotonic() + timeout
        pause = 0.005
        while self.outstanding(tenant) > 0:
            if time.monotonic() >= deadline:
                raise TimeoutError(
                    f"the write queue still holds {self.outstanding(tenant)} writes after "
                    f"{timeout:g} s (are the workers running? `langgraph-memory worker`)"
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    # -- consuming ------------------------------------------------------------------------
    def take(self, consumer: str, count: int, block_s: float) -> list[Delivery]:
        """Writes for ``consumer``: first those another worker left unacknowledged for
        ``claim_idle_s`` (a dead worker's, or failed ones due for a retry), else new ones,
        waiting at most ``block_s`` for them."""
        with self._reachable():
            return self._take(consumer, count, block_s)

    def _take(self, consumer: str, count: int, block_s: float) -> list[Delivery]:
        idle_ms = int(self.claim_idle_s * 1000)
        stale = self.client.xpending_range(
            self.stream, GROUP, min="-", max="+", count=count, idle=idle_ms
        )
        if stale:
            times = {p["message_id"]: int(p["times_delivered"]) for p in stale}
            claimed = self.client.xclaim(self.stream, GROUP, consumer, idle_ms, list(times))
            # one another worker claimed in between is not returned (its idle time reset)
            got = [self._delivery(eid, f, times.get(eid, 0) + 1) for eid, f in claimed if f]
            if got:
                return got
        resp = self.client.xreadgroup(
            GROUP, consumer, {self.stream: ">"}, count=count, block=max(1, int(block_s * 1000))
        )
        return [self._delivery(eid, f, 1) for _, entries in resp or [] for eid, f in entries if f]

    @staticmethod
    def _delivery(entry_id: str, fields: dict[str, str], attempts: int) -> Delivery:
        raw = fields.get("m", "")
        try:
            body = json.loads(raw)
            if not isinstance(body, dict):
                body = None
        except ValueError:
            body = None
        return Delivery(
            entry_id, fields.get("tenant", ""), fields.get("user", ""), body, raw, attempts
        )

    def ack(self, d: Delivery) -> bool:
        """Settle a stored write: acknowledge it, drop it from the stream and the backlog.
        Returns ``False`` when it was settled already (by another worker)."""
        keys = [self.stream, self.backlog, self.errors, self.dead]
        with self._reachable():
            return bool(self._settle(keys=keys, args=[GROUP, d.entry_id, d.tenant, d.user]))

    def release(self, d: Delivery, consumer: str) -> None:
        """Give ``d`` back without spending this delivery (the store was unreachable:
        not the write's fault): its delivery count goes back to what it was, and it is
        taken again after ``claim_idle_s``."""
        with self._reachable():
            self.client.xclaim(self.stream, GROUP, consumer, 0, [d.entry_id],
                               retrycount=max(0, d.attempts - 1), justid=True)  # fmt: skip

    def fail(self, d: Delivery, error: str) -> bool:
        """Record that ``d`` failed; dead-letter it when it has had ``max_attempts``
        deliveries (returns ``True`` then), else leave it for a retry after
        ``claim_idle_s``."""
        if d.attempts < self.max_attempts:
            with self._reachable():
                self.client.hset(self.errors, d.entry_id, error)
            return False
        self.dead_letter(d, error)
        return True

    def dead_letter(self, d: Delivery, error: str | None = None) -> None:
        """Move ``d`` to the dead-letter stream (with ``error``, or its last recorded one)."""
        with self._reachable():
            if error is None:
                error = self.client.hget(self.errors, d.entry_id) or (
                    f"delivered {d.attempts} times without an acknowledgement "
                    "(the worker stopped while storing it)"
                )
            at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            keys = [self.stream, self.backlog, self.errors, self.dead]
            args = [GROUP, d.entry_id, d.tenant, d.user, d.raw, error, d.attempts, at]
            self._settle(keys=keys, args=args)
        log.warning("write %s dead-lettered after %d attempts: %s", d.entry_id, d.attempts, error)

    # -- what failed ----------------------------------------------------------------------
    def failed_messages(
        self, tenant: str | None = None, user: str | None = None, limit: int = 1000
    ) -> list[DeadLetter]:
        """The dead-lettered writes (of a tenant, of a user by store id, or all), oldest
        first, at most ``limit`` read."""
        out = []
        for eid, f in self.client.xrange(self.dead, count=limit):
            if tenant is not None and f.get("tenant") != tenant:
                continue
            if user is not None and f.get("user") != user:
                continue
            try:
                mid = json.loads(f.get("m", "")).get("message_id")
            except (ValueError, AttributeError):
                mid = None
            out.append(
                DeadLetter(
                    eid,
                    f.get("tenant", ""),
                    f.get("user", ""),
                    mid,
                    f.get("error", ""),
                    int(f.get("attempts", 0)),
                    f.get("at", ""),
                    f.get("m", ""),
                )
            )
        return out

    def retry_dead(
        self,
        tenant: str | None = None,
        entry_ids: Sequence[str] | None = None,
        *,
        user: str | None = None,
    ) -> int:
        """Publish dead letters again (all of a tenant or a user, or only ``entry_ids``
        among them), each with a fresh count of attempts, and remove them from the
        dead-letter stream, atomically; returns how many went back. A dead letter taken
        back by a concurrent call is not published twice.

        Raises:
            QueueFull: When they would pass ``max_backlog`` (nothing is moved).
            QueueUnavailable: When the broker does not answer.
        """
        with self._reachable():
            dead = self.failed_messages(tenant, user, limit=self.max_backlog)
        wanted = None if entry_ids is None else set(entry_ids)
        picked = [d for d in dead if wanted is None or d.entry_id in wanted]
        if not picked:
            return 0
        args: list[Any] = [self.max_backlog, len(picked)]
        for d in picked:
            args += [d.entry_id, d.tenant, d.user_id, d.body]
        with self._reachable():
            out = self._revive(keys=[self.stream, self.backlog, self.dead], args=args)
        if out == -1:
            raise QueueFull(
                f"the write queue cannot take {len(picked)} writes back now (at most "
                f"{self.max_backlog} waiting); retry later",
                self.retry_after_s,
            )
        log.info("%d dead letters published again", out)
        return int(out)

    def stats(self, tenant: str | None = None, user: str | None = None) -> dict[str, int]:
        """``{"queued": outstanding writes, "dead_letters": dead-lettered ones}`` of a
        user, a tenant or everyone."""
        return {
            "queued": self.outstanding(tenant, user),
            "dead_letters": len(self.failed_messages(tenant, user)),
        }

    def close(self) -> None:
        """Close the connections."""
        self.client.close()


def _safe_url(url: str) -> str:
    """The URL without its password."""
    if "@" in url:
        scheme, _, rest = url.partition("://")
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return url
