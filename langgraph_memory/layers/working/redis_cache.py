"""Working memory in Redis: a session's window, rolling summaries and anchors shared by
every process (seed 002 §4.1), with the store as the truth.

When ``WriteSection.working_memory_url`` names a Redis server, every manager on the same
store (several processes, several machines) reads a session's short-term memory from
Redis, and writes through to it after the store accepted the write:

================================  ======  =====================================================
key                               type    holds
================================  ======  =====================================================
``wm:gen:{U}``                    STRING  the user's generation (deletions and anchor changes
                                          raise it, which retires every key below at once)
``wm:history:{U}:{S}:{g}``        LIST    the session's latest messages as JSON, newest first
                                          (``LPUSH`` + ``LTRIM`` to ``window`` + a few)
``wm:meta:{U}:{S}:{g}``           HASH    ``history``: set once the list was filled from the
                                          store (a list without it is rebuilt)
``wm:summary:{U}:{S}:{g}``        LIST    a header, then the rolling summary of each topic
                                          chain of the session (JSON)
``wm:anchors:{U}:{S}:{g}``        HASH    anchor id -> the anchor as JSON (the session's own
                                          and the user-wide ones), plus ``__ready__``
================================  ======  =====================================================

``U`` is a digest of the user id and ``S`` of the user and session ids together (SHA-256,
32 hex characters): the seed's ``wm:history:{session_id}`` is **user-scoped** here, so two
users with the same session id never share a key, and no id is readable from Redis key
names. ``g`` is the user's generation. Every key has the TTL ``working_memory_ttl_seconds``,
renewed when it is written or read.

**What lives only in Redis: nothing.** A message is acknowledged once the store holds it
(its durable queue); the push to Redis comes after. Summaries and anchors are written to
the store first as well. A key that is missing (Redis restarted, flushed, or the key
expired) is rebuilt from the store on the next read, under ``WATCH`` so a push that races
the rebuild is never lost. When Redis cannot be reached, reads fall back to the store and
writes still succeed (a warning is logged once per outage); the users whose keys may have
missed a write while it was down are retired (their generation raised) as soon as it
answers again. Deletions and anchor changes retire a user's keys even while this process
counts Redis as down (a deleted message must not be served by a process that reaches it).

Limits: while one process cannot reach Redis and others can, the windows the others serve
may lack that process's newest messages until it reaches Redis again (then they are
rebuilt); a message added at the very moment its own id is deleted may stay in the window
until the user's next deletion or the key's TTL. A Redis that keeps its data across a
restart (RDB/AOF) is fine: a write it missed while down marks the user for retirement.
The scripts build key names inside Lua, so use a standalone Redis (or one node), not
Redis Cluster.

Example:
    >>> cache = WorkingMemoryCache("redis://127.0.0.1:6379/0", storage, hierarchy, working)
    ... # doctest: +SKIP
    >>> cache.session_messages("ann", "s1", last=5)  # doctest: +SKIP
    [Message(id='m1', ...), ...]
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from langgraph_memory.core.records import Message, from_data, to_data
from langgraph_memory.layers.short_term.sessions import Chain, SessionState
from langgraph_memory.layers.working.tasks import Anchor, TaskState, WorkingMemory

if TYPE_CHECKING:
    import redis

__all__ = ["WorkingMemoryCache", "MessageSource", "SessionSource", "key_digest"]

log = logging.getLogger(__name__)

#: Extra list entries kept past the window: pushes of several processes may land slightly
#: out of order, and reads sort by the store's sequence number.
_SLACK = 16
#: Attempts at rebuilding a list that a concurrent push keeps changing.
_REBUILD_TRIES = 3
_READY = "__ready__"
_HEADER = '{"header": 1}'

# One round trip per read and per write: each script reads the user's generation, names
# the session's key of that generation and works on it (a standalone Redis, or one node:
# the keys are built inside the script). ARGV: prefix, user digest, session digest, ttl.
_PREAMBLE = """
local gk = ARGV[1] .. ':gen:' .. ARGV[2]
local g = redis.call('GET', gk)
if not g then g = '0' end
redis.call('EXPIRE', gk, ARGV[4])
local function key(kind)
  return ARGV[1] .. ':' .. kind .. ':' .. ARGV[2] .. ':' .. ARGV[3] .. ':' .. g
end
"""
#: ARGV[5]: the kind; returns {generation, ready flag, the key's content}.
_READ = (
    _PREAMBLE
    + """
local k = key(ARGV[5])
redis.call('EXPIRE', k, ARGV[4])
if ARGV[5] == 'history' then
  local m = key('meta')
  redis.call('EXPIRE', m, ARGV[4])
  return {g, redis.call('HGET', m, 'history') or '', redis.call('LRANGE', k, 0, -1)}
elseif ARGV[5] == 'anchors' then
  return {g, '', redis.call('HGETALL', k)}
end
return {g, '', redis.call('LRANGE', k, 0, -1)}
"""
)
#: ARGV[5]: the message as JSON, ARGV[6]: the last index kept.
_PUSH = (
    _PREAMBLE
    + """
local h, m = key('history'), key('meta')
redis.call('LPUSH', h, ARGV[5])
redis.call('LTRIM', h, 0, tonumber(ARGV[6]))
redis.call('EXPIRE', h, ARGV[4])
redis.call('EXPIRE', m, ARGV[4])
return g
"""
)
#: ARGV[5...]: the header and the chains as JSON.
_SUMMARIES = (
    _PREAMBLE
    + """
local k = key('summary')
redis.call('DEL', k)
redis.call('RPUSH', k, unpack(ARGV, 5))
redis.call('EXPIRE', k, ARGV[4])
return g
"""
)


class MessageSource(Protocol):
    """The store as the window sees it."""

    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        """A session's messages in order (only the ``last`` n when given)."""
        ...


class SessionSource(Protocol):
    """The hierarchy as the window sees it (the session's topic chains)."""

    def state(self, user_id: str, session_id: str) -> SessionState:
        """The short-term memory of one session."""
        ...


def key_digest(*parts: str) -> str:
    """The digest that names a user (or a user's session) in Redis keys.

    Example:
        >>> key_digest("ann", "s1") != key_digest("bob", "s1")
        True
        >>> len(key_digest("ann"))
        32
    """
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]


class WorkingMemoryCache:
    """A session's window, chain summaries and anchors in Redis (see the module docs).

    It is the read path's :class:`~langgraph_memory.read.pipeline.WorkingSource` (anchors
    from Redis, the task in progress from the store) and its source of a session's latest
    messages and chain summaries.

    Args:
        url: The Redis server, e.g. ``"redis://127.0.0.1:6379/0"``.
        messages: The store (the truth for the window).
        sessions: The hierarchy (the truth for chain summaries).
        working: Working memory (the truth for anchors and tasks).
        window: Messages of a session kept in Redis (longer windows are read from the
            store).
        ttl_seconds: The TTL of every key, renewed on each write and read.
        timeout_seconds: Connect and socket timeout of each Redis call.
        retry_seconds: After a failure, how long the store alone serves before Redis is
            tried again.
        prefix: The first part of every key.

    Raises:
        ImportError: When the ``redis`` client is not installed (the message says how).
        ValueError: When a number is out of range or the URL is not a Redis URL.
    """

    def __init__(
        self,
        url: str,
        messages: MessageSource,
        sessions: SessionSource,
        working: WorkingMemory,
        *,
        window: int = 40,
        ttl_seconds: float = 86_400.0,
        timeout_seconds: float = 0.5,
        retry_seconds: float = 5.0,
        prefix: str = "wm",
    ) -> None:
        try:
            import redis
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(
                "working memory in Redis needs the redis client: "
                "pip install 'langgraph-memory[redis]'"
            ) from e
        if not isinstance(url, str) or not url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(
                f"working_memory_url must be a redis://, rediss:// or unix:// URL, got {url!r}"
            )
        if window <= 0 or ttl_seconds <= 0 or timeout_seconds <= 0 or retry_seconds < 0:
            raise ValueError(
                "window, ttl_seconds and timeout_seconds must be > 0 and retry_seconds >= 0"
            )
        self._redis_errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._watch_error = redis.WatchError
        self.client: redis.Redis = redis.Redis.from_url(
            url,
            socket_timeout=timeout_seconds,
            socket_connect_timeout=timeout_seconds,
            decode_responses=True,
        )
        self.messages, self.sessions, self.working = messages, sessions, working
        self.window = window
        self.ttl = max(1, int(ttl_seconds))
        self.retry_seconds = retry_seconds
        self.prefix = prefix
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._down = False
        #: Users whose keys may have missed a write while Redis was unreachable.
        self._dirty: set[str] = set()
        self._read_script = self.client.register_script(_READ)
        self._push = self.client.register_script(_PUSH)
        self._summaries = self.client.register_script(_SUMMARIES)
        #: Reads served from Redis, rebuilt from the store, served by the store alone.
        self.counts = {"hits": 0, "rebuilds": 0, "fallbacks": 0}

    # -- keys ----------------------------------------------------------------------------
    def gen_key(self, user_id: str) -> str:
        """The key of a user's generation."""
        return f"{self.prefix}:gen:{key_digest(user_id)}"

    def key(self, kind: str, user_id: str, session_id: str, gen: int) -> str:
        """The key of one session's ``history``, ``meta``, ``summary`` or ``anchors``."""
        return f"{self.prefix}:{kind}:{key_digest(user_id)}:{key_digest(user_id, session_id)}:{gen}"

    # -- the read path -------------------------------------------------------------------
    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        """The session's latest ``last`` messages in order: from Redis when ``last`` fits
        the window, rebuilt from the store when the list is missing; from the store when
        it does not fit or Redis is unreachable (the store's own signature)."""
        if last is None or last > self.window or not self._usable():
            return self._fallback(
                lambda: self.messages.session_messages(user_id, session_id, last=last)
            )
        with self._guard():
            gen, ready, raw = self._read("history", user_id, session_id)
            if ready:
                self.counts["hits"] += 1
                return _window(raw, last)
            self.counts["rebuilds"] += 1
            hist = self.key("history", user_id, session_id, gen)
            meta = self.key("meta", user_id, session_id, gen)
            return self._rebuild_history(user_id, session_id, hist, meta)[-last:] if last else []
        return self._fallback(
            lambda: self.messages.session_messages(user_id, session_id, last=last)
        )

    def session_summaries(self, user_id: str, session_id: str) -> SessionState:
        """The session's topic chains with their rolling summaries (a
        :class:`SessionState` holding only its chains), from Redis or rebuilt from the
        hierarchy."""
        if self._usable():
            with self._guard():
                gen, _, raw = self._read("summary", user_id, session_id)
                if raw:
                    self.counts["hits"] += 1
                    return _chains_state(user_id, session_id, raw[1:])
                self.counts["rebuilds"] += 1
                key = self.key("summary", user_id, session_id, gen)
                return self._rebuild_summaries(user_id, session_id, key)
        self.counts["fallbacks"] += 1
        return self.sessions.state(user_id, session_id)

    def anchors(self, user_id: str, session_id: str | None = None) -> list[Anchor]:
        """The anchors that ride along in a session (its own and the user-wide ones), in
        insertion order: from Redis, or rebuilt from the store."""
        if session_id is None or not self._usable():
            return self._fallback(lambda: self.working.anchors(user_id, session_id))
        with self._guard():
            gen, _, flat = self._read("anchors", user_id, session_id)
            raw = dict(zip(flat[::2], flat[1::2], strict=True))
            if raw.get(_READY):
                self.counts["hits"] += 1
                found = [Anchor.load(json.loads(v)) for k, v in raw.items() if k != _READY]
                return sorted(found, key=lambda a: (a.order, a.created_at, a.id))
            self.counts["rebuilds"] += 1
            key = self.key("anchors", user_id, session_id, gen)
            anchors = self.working.anchors(user_id, session_id)
            fields = {a.id: _dumps(to_data(a)) for a in anchors}
            fields[_READY] = "1"
            # the generation in the key retires this write if the anchors changed meanwhile
            pipe = self._pipeline(True)
            pipe.delete(key).hset(key, mapping=fields).expire(key, self.ttl).execute()
            return anchors
        return self._fallback(lambda: self.working.anchors(user_id, session_id))

    def current_task(self, user_id: str, session_id: str) -> TaskState | None:
        """The session's latest task in progress (from the store: tasks are working
        memory that becomes episodes, kept in the database)."""
        return self.working.current_task(user_id, session_id)

    # -- writes through (after the store accepted them) ----------------------------------
    def appended(self, msg: Message) -> None:
        """A message the store just accepted: pushed onto its session's list."""
        if not self._usable():
            self._dirty.add(msg.user_id)
            return
        with self._guard(msg.user_id):
            item, keep = _dumps(to_data(msg)), self.window + _SLACK - 1
            self._push(args=[*self._args(msg.user_id, msg.session_id), item, keep])

    def summaries_changed(self, st: SessionState) -> None:
        """A session's state the store just saved: its chain summaries replace the list."""
        if not self._usable():
            self._dirty.add(st.user_id)
            return
        with self._guard(st.user_id):
            chains = [_dump_chain(c) for c in st.chains.values()]
            self._summaries(args=[*self._args(st.user_id, st.session_id), _HEADER, *chains])

    def anchors_changed(self, user_id: str) -> None:
        """A user's anchors changed in the store: every session's anchors are retired."""
        self.forget_user(user_id)

    def forget_user(self, user_id: str) -> None:
        """Retire every key of a user (messages deleted, anchors changed, user deleted):
        the next read of each rebuilds it from the store. Tried even while this process
        counts Redis as down (other processes may reach it, and must not serve what was
        deleted); when it fails, the user is retired again once Redis answers."""
        with self._guard(user_id):
            self._bump(user_id)

    def close(self) -> None:
        """Close the connections."""
        try:
            self.client.close()
        except self._redis_errors:  # pragma: no cover - closing a dead connection
            pass

    # -- plumbing ------------------------------------------------------------------------
    def _pipeline(self, transaction: bool) -> Any:
        """A pipeline (``MULTI``/``EXEC`` when ``transaction``); its commands chain (typed
        ``Any``: the client's stubs type them as the client's own replies)."""
        return self.client.pipeline(transaction=transaction)

    def _args(self, user_id: str, session_id: str) -> list[Any]:
        return [self.prefix, key_digest(user_id), key_digest(user_id, session_id), self.ttl]

    def _read(self, kind: str, user_id: str, session_id: str) -> tuple[int, bool, list[str]]:
        """``(generation, whether the list was filled, the key's content)`` in one trip."""
        gen, ready, raw = self._read_script(args=[*self._args(user_id, session_id), kind])
        return int(gen), bool(ready), list(raw)

    def _bump(self, user_id: str) -> None:
        key = self.gen_key(user_id)
        self._pipeline(True).incr(key).expire(key, self.ttl).execute()

    def _rebuild_history(
        self, user_id: str, session_id: str, hist: str, meta: str
    ) -> list[Message]:
        """Fill the list from the store under ``WATCH``: a message pushed meanwhile
        (committed after the snapshot was read) aborts the write, which is tried again."""
        snapshot: list[Message] = []
        for _ in range(_REBUILD_TRIES):
            with self._pipeline(True) as pipe:
                try:
                    pipe.watch(hist)
                    snapshot = self.messages.session_messages(user_id, session_id, last=self.window)
                    pipe.multi()
                    pipe.delete(hist)
                    if snapshot:
                        pipe.rpush(hist, *(_dumps(to_data(m)) for m in reversed(snapshot)))
                    pipe.hset(meta, "history", "1")
                    pipe.expire(hist, self.ttl).expire(meta, self.ttl)
                    pipe.execute()
                    return snapshot
                except self._watch_error:
                    continue
        return snapshot  # served from the store; the next read tries again

    def _rebuild_summaries(self, user_id: str, session_id: str, key: str) -> SessionState:
        st = self.sessions.state(user_id, session_id)
        for _ in range(_REBUILD_TRIES):
            with self._pipeline(True) as pipe:
                try:
                    pipe.watch(key)
                    st = self.sessions.state(user_id, session_id)
                    chains = [_dump_chain(c) for c in st.chains.values()]
                    pipe.multi()
                    pipe.delete(key).rpush(key, _HEADER, *chains).expire(key, self.ttl)
                    pipe.execute()
                    break
                except self._watch_error:
                    continue
        return st

    def _usable(self) -> bool:
        """Whether Redis may be tried now; after an outage, the users who missed a
        write are retired first."""
        if time.monotonic() < self._down_until:
            return False
        if self._dirty:
            with self._lock:
                dirty, self._dirty = self._dirty, set()
            try:
                for user_id in dirty:
                    self._bump(user_id)
            except self._redis_errors as e:
                with self._lock:
                    self._dirty |= dirty
                self._failed(e)
                return False
        return True

    @contextmanager
    def _guard(self, user_id: str | None = None) -> Iterator[None]:
        """Run a Redis step; a failure marks Redis down (and ``user_id``'s keys dirty)
        instead of raising. The caller falls back to the store after the block."""
        try:
            yield
        except self._redis_errors as e:
            if user_id is not None:
                with self._lock:
                    self._dirty.add(user_id)
            self._failed(e)
        else:
            if self._down:
                self._down = False
                log.warning("working memory: Redis answers again, serving from it")

    def _failed(self, error: BaseException) -> None:
        self._down_until = time.monotonic() + self.retry_seconds
        if not self._down:
            self._down = True
            log.warning(
                "working memory: Redis unreachable (%s); the store serves every session "
                "for now (no write is lost: the store holds them all)",
                error,
            )

    def _fallback(self, read: Any) -> Any:
        self.counts["fallbacks"] += 1
        return read()


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _window(raw: list[str], last: int) -> list[Message]:
    """The latest ``last`` distinct messages of a list, in store order."""
    by_id: dict[str, Message] = {}
    for item in raw:
        msg = from_data(Message, json.loads(item))
        by_id.setdefault(msg.id, msg)
    ordered = sorted(by_id.values(), key=lambda m: m.seq)
    return ordered[-last:] if last > 0 else []


def _dump_chain(chain: Chain) -> str:
    """What a context needs of a chain: its summary, what it cites, its top keywords."""
    top = chain.keywords(8)
    return _dumps(
        {
            "id": chain.id,
            "session_id": chain.session_id,
            "summary": chain.summary,
            "summary_source_ids": chain.summary_source_ids,
            "keywords": [[w, chain.keyword_counts[w]] for w in top],
            "pages_total": chain.pages_total,
        }
    )


def _chains_state(user_id: str, session_id: str, raw: list[str]) -> SessionState:
    st = SessionState(user_id, session_id)
    for item in raw:
        d = json.loads(item)
        st.chains[d["id"]] = Chain(
            id=d["id"],
            session_id=d["session_id"],
            pages_total=int(d["pages_total"]),
            keyword_counts={w: int(c) for w, c in d["keywords"]},
            summary=d["summary"],
            summary_source_ids=list(d["summary_source_ids"]),
            dirty=False,
        )
    return st
