"""Chroma backend: the memory kept in two Chroma collections, local or on a Chroma server.

Build it on a local directory with :meth:`ChromaBackend.persistent`, on a
server with :meth:`ChromaBackend.http`, or on any Chroma client you already
have with ``ChromaBackend(client)``. Chroma never embeds anything here: our
vectors come in through :meth:`store_vectors`, every collection is made with
``embedding_function=None``, and queries pass vectors, so Chroma's default
embedding model is never loaded or downloaded.

Layout, for a collection-name ``prefix`` (default ``lgm``):

``<prefix>_store``
    Every record that is not a search vector, told apart by the ``kind``
    metadata field: messages (``m``: the content as the document, the fields
    as metadata), lexical postings (``p``: a message's distinct terms and their
    frequencies as two metadata arrays, with its length; one entry per 1000
    terms, found with ``$contains``), per-user and per-session
    counters (``u``, ``s``) and the store-wide seq (``ctr``), checkpointed as
    :mod:`~langgraph_memory.storage.chroma.store` explains, records (``r``),
    store metadata (``meta``) and the embedding cache (``c``, the float32
    bytes base64-encoded as the document). Chroma needs a vector per entry:
    these carry the constant ``[1.0]`` and are never queried by vector.
``<prefix>_vectors``
    One entry per embedded message (id = its seq), in cosine space, with the
    ``user_id`` and ``seq`` as metadata. Searches are always filtered by user.

Chroma has no BM25, so lexical search reads the posting entries and ranks
them with the same BM25 as every other backend (exactly the same scores).
Vector search is exact (numpy over the user's vectors fetched from Chroma, as
on every other backend) up to 20,000 vectors per user; past that Chroma's HNSW
index (cosine, always filtered by user) gives a candidate pool that is re-scored
exactly, so scores and tie order match the in-memory reference. Nothing is kept
in a side SQLite file: Chroma is the only storage.

Writes: Chroma has no multi-collection transactions. A message and its
postings go to the store in one ``upsert`` call (split only past Chroma's
maximum batch size, with the message in the last part), so an accepted message
is stored whole; vectors are written before the message is marked embedded,
so a crash in between only embeds it again. One process should write to a
given ``prefix`` at a time (other instances see its writes, but two writing at
once could both take one seq); use the PostgreSQL backend for many writers.
Deleting a user removes their entries, but Chroma, not this library, decides
when freed bytes leave its files. Chroma's HNSW index files (``data_level0.bin``)
are written from buffers it does not clear: they can carry stale bytes of the
process's memory, entries of another Chroma store that the process used before
among them; give each tenant its own process if that matters.

Cost: each Chroma write call costs about 4 ms whatever it holds (two SQLite
transactions and an index update inside Chroma), so every batch the interface
gives (``store_vectors``, ``cache_put``, a counter checkpoint) is one call, and
marking messages embedded writes only that flag. ``insert_message`` stays one
call per message: buffering messages in the process would lose accepted
messages in a crash and hide them from other instances.

Example:
    >>> import tempfile
    >>> backend = ChromaBackend.persistent(tempfile.mkdtemp())  # doctest: +SKIP
    >>> backend.stats().messages  # doctest: +SKIP
    0
    >>> backend.close()  # doctest: +SKIP
"""

from __future__ import annotations

import json
import logging
import re
import threading
import warnings
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from langgraph_memory.core.files import make_dirs
from langgraph_memory.core.records import Message
from langgraph_memory.storage.base import BackendStats, MemoryBackend, Postings
from langgraph_memory.storage.chroma.records import RecordEntries
from langgraph_memory.storage.chroma.store import (
    CHUNK,
    Counters,
    Entry,
    StoreCollection,
    and_,
    message_key,
    or_,
    to_message,
)
from langgraph_memory.storage.chroma.vectors import VectorEntries

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

__all__ = ["ChromaBackend"]

log = logging.getLogger(__name__)

_TERMS_PER_ENTRY = 1000  # distinct terms per posting entry (Chroma fails on very long arrays)
_OR_TERMS = 64  # query terms per posting read
_T = TypeVar("_T")
_SYNC_THRESHOLD = 100  # writes between two persists of a collection's index (see _collection)
_PREFIX_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,200}$")


class ChromaBackend(RecordEntries, VectorEntries, MemoryBackend):
    """Storage in Chroma collections, through any Chroma client.

    Args:
        client: A Chroma client (``chromadb.PersistentClient``, ``chromadb.HttpClient``...).
        prefix: Collection-name prefix; two prefixes are two independent stores
            on one client (3-200 characters of ``[A-Za-z0-9._-]``).
        owns_client: Close ``client`` in :meth:`close` (the classmethods set it).

    One process writes a Chroma store's memory at a time: Chroma offers no lock for a
    writer lease, so this backend declares none and a manager treats the store as its
    own; managers in several processes on one Chroma server would each write the
    hierarchy. Use SQLite or PostgreSQL for several writing processes.

    Raises:
        ValueError: When the prefix is not a valid Chroma collection-name start.

    Example:
        >>> import chromadb  # doctest: +SKIP
        >>> client = chromadb.HttpClient(host="127.0.0.1", port=8000)  # doctest: +SKIP
        >>> backend = ChromaBackend(client, prefix="agent1")  # doctest: +SKIP
    """

    name = "chroma"

    def __init__(self, client: ClientAPI, *, prefix: str = "lgm", owns_client: bool = False):
        if not _PREFIX_RE.match(prefix) or not prefix[-1].isalnum():
            raise ValueError(
                f"chroma prefix {prefix!r} must be 2-201 characters of [A-Za-z0-9._-], "
                "starting and ending with a letter or digit"
            )
        self.client = client
        self.prefix = prefix
        self._owns_client = owns_client
        self._lock = threading.RLock()
        self._closed = False
        self._store = StoreCollection(self._collection("store"), client.get_max_batch_size())
        self._vectors: Collection = self._collection("vectors")
        self._dim: int | None = None
        self._counters = Counters(self._store)
        #: No message up to this seq is pending (``None``: unknown), see pending_embeddings.
        self._settled: int | None = None

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def persistent(cls, path: str | Path, *, prefix: str = "lgm") -> ChromaBackend:
        """A backend on a local Chroma directory (created if needed).

        Args:
            path: The directory Chroma keeps its files in.
            prefix: Collection-name prefix.

        Returns:
            The backend; it closes its client when closed.
        """
        import chromadb
        from chromadb.config import Settings

        p = Path(path).expanduser()
        if p.exists() and not p.is_dir():
            raise ValueError(f"chroma path {p} exists and is not a directory")
        make_dirs(p)  # private (0o700) when created: Chroma writes its files inside
        client = chromadb.PersistentClient(
            path=str(p), settings=Settings(anonymized_telemetry=False)
        )
        return cls(client, prefix=prefix, owns_client=True)

    @classmethod
    def http(
        cls,
        host: str = "localhost",
        port: int = 8000,
        *,
        ssl: bool = False,
        headers: Mapping[str, str] | None = None,
        prefix: str = "lgm",
    ) -> ChromaBackend:
        """A backend on a Chroma server (``chroma run``, a container, Chroma Cloud...).

        Args:
            host: The server's host name.
            port: Its port.
            ssl: Use HTTPS.
            headers: Extra HTTP headers (e.g. an auth token).
            prefix: Collection-name prefix.

        Returns:
            The backend; it closes its client when closed.

        Raises:
            ValueError: When no Chroma server answers there (raised by chromadb).
        """
        import chromadb
        from chromadb.config import Settings

        client = chromadb.HttpClient(
            host=host,
            port=port,
            ssl=ssl,
            headers=dict(headers or {}),
            settings=Settings(anonymized_telemetry=False),
        )
        return cls(client, prefix=prefix, owns_client=True)

    def _collection(self, part: str) -> Collection:
        """Our collection ``part`` (created when missing), persisting its index often.

        Chroma's default ``sync_threshold`` (1000) makes every write cost more the more
        writes went since the index was last persisted (5 ms after one, 17 ms after
        900, on this machine); at :data:`_SYNC_THRESHOLD` a write stays at about 4 ms
        (measured up to 20,000 entries). A store made with another threshold is set to
        ours, which Chroma applies from the next time it opens the collection.
        """
        col = self.client.get_or_create_collection(
            f"{self.prefix}_{part}",
            embedding_function=None,
            configuration={"hnsw": {"space": "cosine", "sync_threshold": _SYNC_THRESHOLD}},
        )
        hnsw = (col.configuration_json or {}).get("hnsw") or {}
        if int(hnsw.get("sync_threshold") or _SYNC_THRESHOLD) > _SYNC_THRESHOLD:
            try:
                with warnings.catch_warnings():  # about embedding_function=None, which we want
                    warnings.simplefilter("ignore", DeprecationWarning)
                    col.modify(configuration={"hnsw": {"sync_threshold": _SYNC_THRESHOLD}})
            except Exception:  # a server may refuse it: the store works all the same
                log.warning("could not lower sync_threshold of %s", col.name, exc_info=True)
        return col

    # -- plumbing -------------------------------------------------------------------------
    @contextmanager
    def _use(self, *, sync: bool = False) -> Iterator[None]:
        """Hold the lock on an open backend (bringing the counters up to date when ``sync``)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the memory backend is closed")
            if sync:
                self._counters.sync()
            yield

    def _messages(self, *conds: Mapping[str, Any]) -> list[Message]:
        """The messages matching the conditions, in seq order."""
        rows = self._store.where(and_({"kind": "m"}, *conds))
        return sorted((to_message(m, d) for _, m, d in rows), key=lambda m: m.seq)

    # -- messages -------------------------------------------------------------------------
    def insert_message(self, msg: Message, terms: Sequence[str]) -> tuple[Message, bool]:
        mkey, u = message_key(msg.user_id, msg.id), msg.user_id
        with self._use(sync=True):
            have = self._store.by_id([mkey])
            if mkey in have:
                existing = to_message(*have[mkey])
                if existing.content != msg.content or existing.session_id != msg.session_id:
                    raise ValueError(
                        f"message_id {msg.id!r} already exists for this user with other content"
                    )
                return existing, False
            c = self._counters
            seq, pos, dl = c.seq + 1, c.sessions.get((u, msg.session_id), 0), len(terms)
            counts = list(Counter(terms).items())
            entries: list[Entry] = [
                (
                    f"p:{seq}:{i}",
                    {
                        "kind": "p",
                        "user_id": u,
                        "seq": seq,
                        "dl": dl,
                        "terms": [t for t, _ in counts[i : i + _TERMS_PER_ENTRY]],
                        "tfs": [tf for _, tf in counts[i : i + _TERMS_PER_ENTRY]],
                    },
                    "",
                )
                for i in range(0, len(counts), _TERMS_PER_ENTRY)
            ]
            meta: dict[str, Any] = {
                "kind": "m",
                "user_id": u,
                "mid": msg.id,
                "session_id": msg.session_id,
                "role": msg.role,
                "ts": msg.timestamp.isoformat(),
                "seq": seq,
                "pos": pos,
                "n_terms": dl,
                "pending": True,
                "meta": json.dumps(msg.metadata, ensure_ascii=False),
            }
            if msg.name is not None:
                meta["name"] = msg.name
            self._store.upsert([*entries, (mkey, meta, msg.content)])  # the message goes last
            c.added(u, msg.session_id, seq, dl)
        return to_message(meta, msg.content), True

    def get_messages(self, user_id: str, seqs: Sequence[int]) -> dict[int, Message]:
        with self._use():
            rows = self._store.where_in(
                [{"kind": "m"}, {"user_id": user_id}], "seq", [int(s) for s in seqs]
            )
        return {int(m["seq"]): to_message(m, d) for _, m, d in rows}

    def get_message(self, user_id: str, message_id: str) -> Message | None:
        with self._use():
            got = self._store.by_id([message_key(user_id, message_id)])
        for meta, doc in got.values():
            if meta.get("user_id") == user_id and meta.get("mid") == message_id:
                return to_message(meta, doc)
        return None

    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        scope = [{"user_id": user_id}, {"session_id": session_id}]
        with self._use(sync=True):
            if last is None:
                return self._messages(*scope)
            if last <= 0 or (user_id, session_id) not in self._counters.sessions:
                return []
            start = self._counters.sessions[user_id, session_id] - last
            return self._messages(*scope, {"pos": {"$gte": start}})

    def neighbors_many(
        self, user_id: str, seqs: Sequence[int], window: int
    ) -> dict[int, list[Message]]:
        seqs = list(dict.fromkeys(int(s) for s in seqs))
        out: dict[int, list[Message]] = {s: [] for s in seqs}
        if window <= 0 or not seqs:
            return out
        scope = [{"kind": "m"}, {"user_id": user_id}]
        with self._use():
            anchors = [
                (int(m["seq"]), m["session_id"], int(m["pos"]))
                for _, m, _ in self._store.where_in(scope, "seq", seqs, docs=False)
            ]
            # Positions in a session are 0, 1, 2... (messages only go with their user).
            wanted: dict[str, set[int]] = {}
            for _, session, pos in anchors:
                wanted.setdefault(session, set()).update(
                    range(max(0, pos - window), pos + window + 1)
                )
            by_pos: dict[tuple[str, int], Message] = {}
            for session, positions in wanted.items():
                for _, m, d in self._store.where_in(
                    [*scope, {"session_id": session}], "pos", sorted(positions)
                ):
                    by_pos[(session, int(m["pos"]))] = to_message(m, d)
        for seq, session, pos in anchors:
            around = [by_pos.get((session, p)) for p in range(pos - window, pos + window + 1)]
            out[seq] = [m for m in around if m is not None and m.seq != seq]
        return out

    def iter_messages(self, user_id: str) -> list[Message]:
        with self._use():
            return self._messages({"user_id": user_id})

    def speaker_names(self, user_id: str, after: int = 0) -> tuple[set[str], int]:
        with self._use():
            rows = self._store.where(
                and_({"kind": "m"}, {"user_id": user_id}, {"seq": {"$gt": int(after)}}),
                docs=False,
            )
        names = {str(m["name"]) for _, m, _ in rows if m.get("name")}
        return names, max((int(m["seq"]) for _, m, _ in rows), default=after)

    # -- vectors --------------------------------------------------------------------------
    def set_failed(self, user_id: str, ids: Sequence[str], failed: bool = True) -> int:
        # a quarantined message: pending False, failed True (and no vector entry)
        with self._use():
            keys = [message_key(user_id, mid) for mid in dict.fromkeys(ids)]
            have = self._store.by_id(keys, docs=False)
            change = [
                k
                for k in keys
                if k in have
                and bool(have[k][0].get("pending")) == failed
                and bool(have[k][0].get("failed")) != failed
            ]
            self._store.update_meta(
                [(k, {"pending": not failed, "failed": failed}) for k in change]
            )
            if change and not failed:
                self._settled = None  # pending again below the newest seq
            return len(change)

    def pending_embeddings(self, limit: int) -> list[Message]:
        if limit <= 0:
            return []
        with self._use(sync=True):
            # The embedding worker asks often and mostly finds nothing. A message is
            # written pending, with a seq above every existing one, and only ever leaves
            # that state: when nothing was pending as far as the newest seq (brought up
            # to date from the store by the sync), nothing is (no scan of the messages).
            if self._settled is not None and self._settled >= self._counters.seq:
                return []
            known = self._counters.seq
            # Chroma returns entries in the order they were first written: seq order.
            rows = self._store.where(and_({"kind": "m"}, {"pending": True}), limit=limit)
            self._settled = None if rows else known
        return sorted((to_message(m, d) for _, m, d in rows), key=lambda m: m.seq)

    # -- lexical --------------------------------------------------------------------------
    def postings(self, user_id: str, terms: Sequence[str]) -> Postings:
        terms = list(terms)
        with self._use(sync=True):
            n_docs, total_len = self._counters.users.get(user_id, (0, 0))
            if not terms or n_docs == 0:
                return Postings({}, 0, 0, {})
            rows: dict[str, dict[str, Any]] = {}
            unique = list(dict.fromkeys(terms))
            for i in range(0, len(unique), _OR_TERMS):
                has = [{"terms": {"$contains": t}} for t in unique[i : i + _OR_TERMS]]
                where = and_({"kind": "p"}, {"user_id": user_id}, or_(*has))
                rows.update((rid, m) for rid, m, _ in self._store.where(where, docs=False))
        lists: dict[str, list[tuple[int, int]]] = {t: [] for t in terms}
        doc_len: dict[int, int] = {}
        for m in rows.values():
            seq = int(m["seq"])
            for term, tf in zip(m["terms"], m["tfs"], strict=True):
                if term in lists:
                    lists[term].append((seq, int(tf)))
                    doc_len[seq] = int(m["dl"])
        for plist in lists.values():
            plist.sort()
        return Postings(lists, n_docs, total_len, doc_len)

    # -- lifecycle ------------------------------------------------------------------------
    def delete_messages(
        self, user_id: str, ids: Sequence[str], cache_hashes: Sequence[str] = ()
    ) -> list[Message]:
        with self._use(sync=True):
            keys = [message_key(user_id, mid) for mid in dict.fromkeys(ids)]
            have = self._store.by_id(keys)
            gone = sorted(
                (to_message(m, d) for m, d in have.values() if m.get("user_id") == user_id),
                key=lambda m: m.seq,
            )
            if not gone:
                return []
            metas = {m.seq: have[message_key(user_id, m.id)][0] for m in gone}
            seqs = [m.seq for m in gone]
            c = self._counters
            for m in reversed(gone):  # the latest first: later positions shift once each
                meta = metas[m.seq]
                self._store.collection.delete(
                    where=and_({"kind": "p"}, {"user_id": user_id}, {"seq": m.seq})
                )
                later = self._store.where(
                    and_(
                        {"kind": "m"},
                        {"user_id": user_id},
                        {"session_id": m.session_id},
                        {"pos": {"$gt": int(meta["pos"])}},
                    ),
                    docs=False,
                )
                self._store.update_meta([(k, {"pos": int(x["pos"]) - 1}) for k, x, _ in later])
                totals = c.users.get(user_id, [0, 0])
                totals[0] -= 1
                totals[1] -= int(meta["n_terms"])
                s = (user_id, m.session_id)
                c.sessions[s] = max(c.sessions.get(s, 1) - 1, 0)
                c.touch(user_id, m.session_id)
            self._store.collection.delete(ids=[message_key(user_id, m.id) for m in gone])
            self._on_vectors(lambda v: v.delete(ids=[str(s) for s in seqs]))
            hashes = list(dict.fromkeys(cache_hashes))
            for i in range(0, len(hashes), CHUNK):
                self._store.collection.delete(
                    where=and_({"kind": "c"}, {"hash": {"$in": hashes[i : i + CHUNK]}})
                )
            c.epoch += 1  # other instances reload their counters
            c.checkpoint()
        return gone

    def delete_user(self, user_id: str, cache_hashes: Sequence[str] = ()) -> int:
        with self._use(sync=True):
            self._counters.checkpoint()  # the seq first: a crash must not reuse the user's seqs
            # Messages, postings, counters and records all carry the user_id.
            self._store.collection.delete(where={"user_id": user_id})
            hashes = list(dict.fromkeys(cache_hashes))
            for i in range(0, len(hashes), CHUNK):
                self._store.collection.delete(
                    where=and_({"kind": "c"}, {"hash": {"$in": hashes[i : i + CHUNK]}})
                )
            self._on_vectors(lambda c: c.delete(where={"user_id": user_id}))
            if self._on_vectors(lambda c: c.count()) == 0:
                self._dim = None  # the next vectors may have another dimension
            return self._counters.forget(user_id)

    def stats(self, user_id: str | None = None) -> BackendStats:
        with self._use(sync=True):
            c = self._counters
            if user_id is None:
                users = [u for u, (n, _) in c.users.items() if n > 0]
                embedded = self._on_vectors(lambda c: c.count())
            else:
                users = [user_id] if c.users.get(user_id, (0, 0))[0] > 0 else []
                where: Any = {"user_id": user_id}
                embedded = len(self._on_vectors(lambda c: c.get(where=where, include=[]))["ids"])
            sessions = sum(1 for u, _ in c.sessions if u in users)
            messages = sum(c.users[u][0] for u in users)
        return BackendStats(messages, embedded if users else 0, sessions, len(users))

    def users(self) -> list[str]:
        with self._use(sync=True):
            return sorted(u for u, (n, _) in self._counters.users.items() if n > 0)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            try:
                self._counters.checkpoint()
            finally:
                self._closed = True
                close = getattr(self.client, "close", None)
                if self._owns_client and callable(close):
                    close()
