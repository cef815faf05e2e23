"""Lexical search on :class:`~langgraph_memory.storage.sqlite.backend.SQLiteBackend`: posting
lists written by the worker in sorted batches, cached in process and topped up.

A new message keeps its terms in its row until :meth:`SQLiteLexicalIndex.index_pending`
writes its postings; searches count those terms meanwhile, so BM25 ranks exactly as if
the postings were there.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Sequence

import numpy as np

from langgraph_memory.core.concurrency import yield_gil
from langgraph_memory.retrieval.bm25 import bm25_arrays
from langgraph_memory.retrieval.postings_cache import PostingCache
from langgraph_memory.storage.capabilities import LexicalIndex, Postings
from langgraph_memory.storage.sqlite import sql as q
from langgraph_memory.storage.sqlite.conn import SQLiteConnection

__all__ = ["SQLiteLexicalIndex"]


class SQLiteLexicalIndex(SQLiteConnection, LexicalIndex):
    """Posting lists in the ``postings`` table, and exact BM25 over them."""

    #: Posting lists held in process (``None``: read every time).
    _postings: PostingCache | None
    #: Postings one :meth:`index_pending` transaction writes at most (about 15 ms).
    POSTINGS_PER_COMMIT = 20_000

    def index_pending(self, limit: int = 4096) -> int:
        """Write the postings of up to ``limit`` messages waiting for them, oldest first,
        of those stored when it is called (see :meth:`insert_message`), in transactions
        of at most :attr:`POSTINGS_PER_COMMIT` postings (and at least one message each):
        ``add_message`` waits for the connection meanwhile, and 512 long replies hold
        ~150,000 postings (~0.1 s), so it gets in between them. Messages stored while it
        runs wait for the next call: during a burst of writes, chasing them indexed a
        few messages a transaction (and kept the model waiting for the worker). Returns
        how many messages it indexed."""
        upto, top = self._read(
            "SELECT (SELECT value FROM lgm_meta WHERE key = ?), (SELECT MAX(seq) FROM messages)",
            (q.INDEXED_UPTO,),
        )[0]
        upto = int(upto or 0)
        if top is None or int(top) <= upto:
            return 0
        done = 0
        while done < limit:
            n, upto = self._index_some(upto, int(top), limit - done)
            if not n:
                break
            done += n
            yield_gil()
        return done

    def _index_some(self, upto: int, top: int, limit: int) -> tuple[int, int]:
        """One transaction of :meth:`index_pending`: messages after seq ``upto`` (the last
        indexed) up to seq ``top``, at most ``limit`` of them and about
        ``POSTINGS_PER_COMMIT`` postings (counted by their terms, repeats included: at
        least the postings). Returns how many it indexed and the last one's seq.

        The terms are read and their postings made and sorted before the transaction:
        ``add_message`` waited for the connection while a transaction parsed the terms
        of long replies (up to 0.1 s with the model's tokenizer wanting the GIL too). The
        transaction writes them for the messages still there (one may have been deleted
        meanwhile), unless another call indexed them first."""
        sizes = self._read(
            "SELECT seq, n_terms FROM messages WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
            (upto, top, max(min(int(limit), self.POSTINGS_PER_COMMIT), 1)),
        )
        if not sizes:
            return 0, upto
        last, counted, done = upto, 0, 0
        for seq, n_terms in sizes:
            last, counted, done = int(seq), counted + int(n_terms), done + 1
            if counted >= self.POSTINGS_PER_COMMIT:
                break
        postings = [
            (user_id, t, seq, tf, n_terms)
            for seq, user_id, terms, n_terms in self._read(
                "SELECT seq, user_id, terms, n_terms FROM messages "
                "WHERE seq > ? AND seq <= ? AND terms IS NOT NULL",  # None: an older version's
                (upto, last),
            )
            for t, tf in json.loads(terms).items()
        ]
        postings.sort()  # b-tree order: each index page is written once
        with self._tx() as c:
            if self._indexed_upto(c) != upto:  # another call indexed them
                return 0, upto
            there = c.execute(
                "SELECT seq FROM messages WHERE seq > ? AND seq <= ?", (upto, last)
            ).fetchall()
            if len(there) < done:  # deleted since they were read
                alive = {s for (s,) in there}
                postings = [p for p in postings if p[2] in alive]
            c.executemany(
                "INSERT INTO postings (user_id, term, seq, tf, dl) VALUES (?, ?, ?, ?, ?)",
                postings,
            )
            c.execute(
                "UPDATE messages SET terms = NULL WHERE seq > ? AND seq <= ? AND terms IS NOT NULL",
                (upto, last),
            )
            c.execute(q.SET_META, (q.INDEXED_UPTO, str(last)))
        return done, last

    @staticmethod
    def _indexed_upto(c: sqlite3.Connection) -> int:
        row = c.execute("SELECT value FROM lgm_meta WHERE key = ?", (q.INDEXED_UPTO,)).fetchone()
        return int(row[0]) if row else 0

    @classmethod
    def _unindexed(
        cls, c: sqlite3.Connection, user_id: str
    ) -> tuple[int, list[tuple[int, dict[str, int], int]]]:
        """The postings mark, and the user's messages past it that still hold their terms
        as ``(seq, {term: tf}, length)`` in seq order (caller holds a transaction)."""
        upto = cls._indexed_upto(c)
        rows = c.execute(
            "SELECT seq, terms, n_terms FROM messages WHERE seq > ? AND +user_id = ? "
            "AND terms IS NOT NULL ORDER BY seq",
            (upto, user_id),
        ).fetchall()
        return upto, [(int(seq), json.loads(terms), int(n)) for seq, terms, n in rows]

    def postings(self, user_id: str, terms: Sequence[str]) -> Postings:
        if not terms:
            return Postings({}, 0, 0, {})
        marks = ",".join("?" * len(terms))
        with self._snapshot() as c:  # one snapshot: counts and posting lists must agree
            stats = c.execute(
                "SELECT n_docs, total_len FROM user_stats WHERE user_id = ?", (user_id,)
            ).fetchall()
            rows = c.execute(
                f"SELECT term, seq, tf, dl FROM postings WHERE user_id = ? AND term IN ({marks})",
                (user_id, *terms),
            ).fetchall()
            _, waiting = self._unindexed(c, user_id)
        if not stats:
            return Postings({}, 0, 0, {})
        lists: dict[str, list[tuple[int, int]]] = {t: [] for t in terms}
        doc_len: dict[int, int] = {}
        for term, seq, tf, dl in rows:
            lists[term].append((seq, tf))
            doc_len[seq] = dl
        for seq, counts, dl in waiting:  # stored, postings not written yet
            for term in terms:
                if term in counts:
                    lists[term].append((seq, counts[term]))
                    doc_len[seq] = dl
        return Postings(lists, int(stats[0][0]), int(stats[0][1]), doc_len)

    def lexical_search(
        self,
        user_id: str,
        terms: Sequence[str],
        k: int,
        allowed: set[int] | None = None,
        *,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> list[tuple[int, float]]:
        """Exact BM25 over posting lists cached in process (topped up, not re-read).

        Same results as reading every list (``postings``): the lists are whole, and the
        scores come from the same arithmetic (:func:`~langgraph_memory.storage.bm25.bm25_arrays`).
        """
        if self._postings is None:
            return super().lexical_search(user_id, terms, k, allowed, k1=k1, b=b)
        counts = Counter(terms)
        if not counts or k <= 0:
            return []
        with self._snapshot():  # one snapshot: counts and posting lists must agree
            got = self._cached_lists(user_id, list(counts))
        if got is None:
            return []
        lists, n_docs, total_len = got
        ranked = bm25_arrays(
            lists,
            n_docs=n_docs,
            avg_len=total_len / n_docs,
            query_counts=counts,
            k1=k1,
            b=b,
            top=k if allowed is None else None,
        )
        if allowed is not None:
            ranked = [(s, v) for s, v in ranked if s in allowed]
        return ranked[:k]

    def document_frequencies(self, user_id: str, terms: Sequence[str]) -> dict[str, int]:
        """The lengths of the cached lists (the lexical search that follows reads them)."""
        if self._postings is None:
            return super().document_frequencies(user_id, terms)
        with self._snapshot():
            got = self._cached_lists(user_id, list(dict.fromkeys(terms)))
        lists = got[0] if got is not None else {}
        return {t: len(seqs) for t, (seqs, _, _) in lists.items() if len(seqs)}

    def _cached_lists(
        self, user_id: str, terms: list[str]
    ) -> tuple[dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]], int, int] | None:
        """Whole posting lists of ``terms`` from the cache, brought up to date (caller
        holds the lock inside a read transaction)."""
        assert self._postings is not None
        cache, c = self._postings, self._conn
        stats = c.execute(
            "SELECT n_docs, total_len FROM user_stats WHERE user_id = ?", (user_id,)
        ).fetchall()
        if not stats or not stats[0][0]:
            cache.drop(user_id)
            return None
        n_docs, total_len = int(stats[0][0]), int(stats[0][1])
        version = self._file_version()
        entry = cache.peek(user_id)
        if entry is None or entry.version != version:
            row = c.execute(  # newest first by rowid: stops at the user's last message
                "SELECT seq FROM messages WHERE +user_id = ? ORDER BY seq DESC LIMIT 1",
                (user_id,),
            ).fetchone()
            max_seq = int(row[0]) if row else 0
            if entry is not None:
                added = c.execute(
                    "SELECT COUNT(*) FROM messages WHERE seq > ? AND +user_id = ?",
                    (entry.max_seq, user_id),
                ).fetchone()[0]
                if entry.n_docs + int(added) != n_docs:  # not only additions: start over
                    entry = None
            if entry is None:
                entry = cache.user(user_id, n_docs=n_docs, max_seq=max_seq, version=version)
            entry.n_docs, entry.max_seq, entry.version = n_docs, max_seq, version
        # Lists are cached as far as postings are written (the mark); the terms of later
        # messages are added per query, not cached.
        upto, waiting = self._unindexed(c, user_id)
        out: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for term in terms:
            lst = cache.get(user_id, term)
            if lst is None:
                rows = self._posting_rows(user_id, term, 0, upto)
                lst = cache.put(user_id, term, *rows, upto=upto)
            elif lst.upto < upto:
                rows = self._posting_rows(user_id, term, lst.upto, upto)
                lst.extend(*rows, upto=upto)
                cache.grew(lst, len(rows[0]))
            got = (lst.seqs, lst.tfs, lst.dls)
            extra = [(seq, counts[term], dl) for seq, counts, dl in waiting if term in counts]
            if extra:
                more = np.asarray(extra, dtype=np.int64)
                got = tuple(  # type: ignore[assignment]
                    np.concatenate([have, more[:, i].astype(have.dtype)])
                    for i, have in enumerate(got)
                )
            out[term] = got
        return out, n_docs, total_len

    def _posting_rows(
        self, user_id: str, term: str, after: int, upto: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # One text of "seq,tf,dl,..." parsed by numpy: a Python tuple per posting cost
        # ~1.5 us, and a cold list of a common term holds tens of thousands.
        text = self._conn.execute(
            "SELECT group_concat(seq || ',' || tf || ',' || dl, ',') FROM (SELECT seq, tf, dl "
            "FROM postings WHERE user_id = ? AND term = ? AND seq > ? AND seq <= ? "
            "ORDER BY seq)",
            (user_id, term, after, upto),
        ).fetchone()[0]
        if not text:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        arr = np.fromstring(text, dtype=np.int64, sep=",").reshape(-1, 3)
        if len(arr) > 1 and not bool(np.all(arr[1:, 0] > arr[:-1, 0])):
            arr = arr[np.argsort(arr[:, 0], kind="stable")]  # SQLite does not promise the order
        return arr[:, 0], arr[:, 1], arr[:, 2]
