"""The long-term entry index of :class:`~langgraph_memory.storage.memory.InMemoryBackend`.

Per user, the entries by key and a log of ``(revision, key)`` in revision order: reading
what changed since a revision bisects the log, so it costs what changed (the index kept
as records, :mod:`~.entries_records`, listed and decoded every entry of the user on each
read). The log keeps one line per change and is compacted to one per entry when it holds
more than twice as many. Entries without a vector are kept in a set of their own, which
the worker's :meth:`~InMemoryEntryIndex.pending_entries` reads. Every method runs under
the backend's lock.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> b = InMemoryBackend()
    >>> b.put_entries("ann", [IndexedEntry("fact/f1", "Ann lives in Lyon", hash="h1")])
    1
    >>> seen = b.entries_since("ann", 0)[1][-1].rev
    >>> _ = b.put_entries("ann", [IndexedEntry("fact/f2", "Ann works at ACME", hash="h2")])
    >>> [e.key for e in b.entries_since("ann", seen)[1]]
    ['fact/f2']
"""

from __future__ import annotations

import copy
import threading
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from langgraph_memory.storage.capabilities import EntryIndex, IndexedEntry

__all__ = ["InMemoryEntryIndex"]


class _UserEntries:
    """One user's entries, the log of their changes and the index generation."""

    __slots__ = ("by_key", "revs", "keys", "generation")

    def __init__(self) -> None:
        self.by_key: dict[str, IndexedEntry] = {}
        #: The log: the revision of each change and the key it changed, in revision order.
        self.revs: list[int] = []
        self.keys: list[str] = []
        self.generation = 0

    def log(self, entry: IndexedEntry) -> None:
        self.by_key[entry.key] = entry
        self.revs.append(entry.rev)
        self.keys.append(entry.key)
        if len(self.revs) > 2 * len(self.by_key) + 64:  # one line per entry again
            live = sorted(self.by_key.values(), key=lambda e: e.rev)
            self.revs = [e.rev for e in live]
            self.keys = [e.key for e in live]


def _out(entry: IndexedEntry) -> IndexedEntry:
    """A copy that shares nothing mutable with the stored entry."""
    vector = None if entry.vector is None else entry.vector.copy()
    return replace(entry, terms=dict(entry.terms), doc=copy.deepcopy(entry.doc), vector=vector)


class InMemoryEntryIndex(EntryIndex):
    """:class:`~.capabilities.EntryIndex` in process memory (see the module docs). The
    class using it provides ``_lock`` (a re-entrant lock), calls :meth:`_init_entries`
    when it is made and :meth:`_forget_entries` when a user is deleted."""

    _lock: threading.RLock

    def _init_entries(self) -> None:
        #: Every user's entries.
        self._entry_users: dict[str, _UserEntries] = {}
        #: The entries without a vector: their revision by ``(user, key)``.
        self._entry_pending: dict[tuple[str, str], int] = {}
        self._entry_rev = 0

    def _next_entry_rev(self) -> int:
        self._entry_rev += 1
        return self._entry_rev

    def _forget_entries(self, user_id: str) -> None:
        """Drop a user's index (the user is deleted): its generation is 0 again."""
        with self._lock:
            self._entry_users.pop(user_id, None)
            for key in [k for k in self._entry_pending if k[0] == user_id]:
                del self._entry_pending[key]

    def put_entries(self, user_id: str, entries: Sequence[IndexedEntry]) -> int:
        n = 0
        with self._lock:
            users, pending = self._entry_users, self._entry_pending
            for e in entries:
                u = users.get(user_id)
                old = None if u is None else u.by_key.get(e.key)
                if old is None and e.text is None:
                    continue
                if old is not None and old.text == e.text and old.hash == e.hash:
                    continue
                if u is None:
                    u = users[user_id] = _UserEntries()
                rev = self._next_entry_rev()
                if e.text is None:
                    stored = IndexedEntry(e.key, None, rev=rev)
                else:
                    keep = old is not None and old.text == e.text
                    vector = old.vector if keep and old is not None else e.vector
                    stored = IndexedEntry(
                        e.key,
                        e.text,
                        dict(e.terms),
                        copy.deepcopy(dict(e.doc)),
                        e.hash,
                        None if vector is None else np.array(vector, dtype=np.float32),
                        rev,
                    )
                u.log(stored)
                if stored.text is not None and stored.vector is None:
                    pending[(user_id, e.key)] = rev
                else:
                    pending.pop((user_id, e.key), None)
                n += 1
        return n

    def entries_since(self, user_id: str, rev: int) -> tuple[int, list[IndexedEntry]]:
        with self._lock:
            users = self._entry_users
            u = users.get(user_id)
            if u is None:
                return 0, []
            start = bisect_right(u.revs, rev)
            out = []
            for r, key in zip(u.revs[start:], u.keys[start:], strict=True):
                e = u.by_key[key]
                if e.rev == r:  # the entry's last change (older lines are superseded)
                    out.append(_out(e))
            return u.generation, out

    def mark_entries_built(self, user_id: str) -> int:
        with self._lock:
            users = self._entry_users
            u = users.get(user_id)
            if u is None:
                u = users[user_id] = _UserEntries()
            u.generation = self._next_entry_rev()
            return u.generation

    def pending_entries(self, limit: int) -> list[tuple[str, IndexedEntry]]:
        with self._lock:
            users, pending = self._entry_users, self._entry_pending
            first = sorted(pending.items(), key=lambda x: x[1])[: max(int(limit), 0)]
            return [(uid, _out(users[uid].by_key[key])) for (uid, key), _ in first]

    def store_entry_vectors(self, items: Sequence[tuple[str, str, str, np.ndarray]]) -> int:
        n = 0
        with self._lock:
            users, pending = self._entry_users, self._entry_pending
            for user_id, key, digest, vector in items:
                u = users.get(user_id)
                old = None if u is None else u.by_key.get(key)
                if u is None or old is None or old.text is None or old.hash != digest:
                    continue
                vec = np.array(vector, dtype=np.float32)
                u.log(replace(old, vector=vec, rev=self._next_entry_rev()))
                pending.pop((user_id, key), None)
                n += 1
        return n
