"""Posting lists kept in process as arrays, so exact BM25 does not re-read them per query.

A backend keeps one :class:`PostingCache`. Each user's entry remembers how far its
lists go (``max_seq``) and how many documents the user had then (``n_docs``); the
backend checks both against the store when the store may have changed:

- documents were only added (``n_docs`` grew by exactly the number of documents after
  ``max_seq``): each cached list is topped up with its postings after its own mark
  the next time a query uses it;
- anything else (a user deleted, even if written again since): the entry is dropped.

Lists are evicted least recently used first once more than ``max_postings`` postings
are held (16 bytes each).

Example:
    >>> import numpy as np
    >>> cache = PostingCache(max_postings=10)
    >>> u = cache.user("ann", n_docs=2, max_seq=2, version=(1,))
    >>> _ = cache.put("ann", "tea", np.array([1, 2]), np.array([1, 3]), np.array([4, 5]), upto=2)
    >>> cache.get("ann", "tea").seqs.tolist()
    [1, 2]
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["PostingCache", "TermList", "UserLists"]


@dataclass(slots=True)
class TermList:
    """One term's whole posting list up to ``upto``: documents, frequencies, lengths."""

    seqs: np.ndarray
    tfs: np.ndarray
    dls: np.ndarray
    upto: int

    def __len__(self) -> int:
        return int(self.seqs.shape[0])

    def extend(self, seqs: np.ndarray, tfs: np.ndarray, dls: np.ndarray, upto: int) -> None:
        """Append postings of documents after ``self.upto`` (in seq order)."""
        if len(seqs):
            self.seqs = np.concatenate([self.seqs, seqs.astype(np.int64, copy=False)])
            self.tfs = np.concatenate([self.tfs, tfs.astype(np.int32, copy=False)])
            self.dls = np.concatenate([self.dls, dls.astype(np.int32, copy=False)])
        self.upto = upto


@dataclass(slots=True)
class UserLists:
    """What is cached of one user: the store's state it matches, and its lists."""

    n_docs: int
    max_seq: int
    version: Hashable
    terms: set[str] = field(default_factory=set)


class PostingCache:
    """Whole posting lists of the terms queried lately, per user (see module docs).

    Not thread-safe: the backend calls it under its own lock.

    Args:
        max_postings: Postings held at most, over every user and term.
    """

    def __init__(self, max_postings: int = 4_000_000) -> None:
        self.max_postings = max_postings
        self._users: dict[str, UserLists] = {}
        self._lists: OrderedDict[tuple[str, str], TermList] = OrderedDict()
        self._held = 0

    def peek(self, user_id: str) -> UserLists | None:
        """The user's entry, if any."""
        return self._users.get(user_id)

    def user(self, user_id: str, *, n_docs: int, max_seq: int, version: Hashable) -> UserLists:
        """A fresh entry for the user (its old lists dropped)."""
        self.drop(user_id)
        entry = UserLists(n_docs, max_seq, version)
        self._users[user_id] = entry
        return entry

    def drop(self, user_id: str) -> None:
        """Forget everything cached of the user."""
        entry = self._users.pop(user_id, None)
        if entry is None:
            return
        for term in entry.terms:
            got = self._lists.pop((user_id, term), None)
            if got is not None:
                self._held -= len(got)

    def get(self, user_id: str, term: str) -> TermList | None:
        """The cached list (marked as just used), or ``None``."""
        key = (user_id, term)
        got = self._lists.get(key)
        if got is not None:
            self._lists.move_to_end(key)
        return got

    def put(
        self,
        user_id: str,
        term: str,
        seqs: np.ndarray,
        tfs: np.ndarray,
        dls: np.ndarray,
        *,
        upto: int,
    ) -> TermList:
        """Cache a whole list (complete up to ``upto``); returns it."""
        lst = TermList(
            np.asarray(seqs, dtype=np.int64),
            np.asarray(tfs, dtype=np.int32),
            np.asarray(dls, dtype=np.int32),
            upto,
        )
        entry = self._users.get(user_id)
        if entry is None or len(lst) > self.max_postings:
            return lst  # used once, not kept
        old = self._lists.pop((user_id, term), None)
        self._held += len(lst) - (len(old) if old is not None else 0)
        self._lists[(user_id, term)] = lst
        entry.terms.add(term)
        self._evict()
        return lst

    def grew(self, lst: TermList, added: int) -> None:
        """Account for ``added`` postings appended to a cached list."""
        self._held += added
        self._evict()

    def _evict(self) -> None:
        while self._held > self.max_postings and self._lists:
            (user_id, term), lst = self._lists.popitem(last=False)
            self._held -= len(lst)
            entry = self._users.get(user_id)
            if entry is not None:
                entry.terms.discard(term)

    @property
    def held(self) -> int:
        """Postings held now."""
        return self._held
