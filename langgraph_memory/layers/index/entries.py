"""Long-term entries indexed like messages: persisted terms and vectors, ranked from a mirror.

Current facts, agent traits, episodes and knowledge are what the read path ranks
against a query beside the messages. Listing and re-embedding all of them on every
read grew with their number (a user with 5,000 episodes waited ~0.5 s per context),
and extraction on every exchange makes such counts common. So each entry is indexed
once, when it is written:

- :class:`IndexedRecords` wraps the record store the long-term and working layers
  write through: writing a record of an indexed kind renders it (each kind renders itself, see
  :mod:`~langgraph_memory.layers.index.kinds`) and
  puts the rendering, its term counts and display fields into the backend's entry
  index (:class:`~langgraph_memory.storage.capabilities.EntryIndex`); deleting it,
  or closing a fact, leaves a tombstone. An unchanged rendering writes nothing.
- The background worker embeds entries still without a vector
  (:meth:`EntryIndexer.embed_pending`) and stores the vectors in the index.
- :class:`EntryIndexer` keeps, per user, a mirror of the index in process: a vector
  matrix, posting lists and each row's layer code, brought up to date on each read with
  only the entries changed since the revision it last saw (other processes' writes
  included). A read ranks the mirror: the words-and-meaning fusion of
  :func:`~langgraph_memory.layers.index.ranking.rank_hybrid`, unchanged, computed on
  arrays as messages are: the term scores added from the posting lists of the query's
  terms, the rows of the wanted layers picked by their codes, one matrix product on one
  BLAS thread for the cosines (kept for the next ranking with the same vector until a
  row changes), and only the heads of the two rankings fused
  (:func:`~langgraph_memory.layers.index.ranking.fuse_ranked`). No read lists, decodes
  or walks every entry in Python. Entries not embedded yet are embedded in process for
  that read.

An index never built for a user (a store written by 0.1) is built from the records
on the first read. ``delete_user`` removes the index with the rest; the generation
of the index then changes, so every process's mirror is dropped.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.layers.long_term.facts import Fact
    >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
    >>> backend = InMemoryBackend()
    >>> index = EntryIndexer(backend, backend, kinds={"fact": Fact})
    >>> lt = LongTermMemory(IndexedRecords(backend, index))
    >>> _ = lt.facts.add_fact("ann", "Ann", "lives_in", "Lyon", valid_from="2024-05-01")
    >>> _ = lt.facts.add_fact("ann", "Ann", "works_at", "ACME", valid_from="2024-05-01")
    >>> [d.text for d, _, _ in index.rank("ann", "where does she live? Lyon", 5)]
    ['Ann lives in Lyon (since 2024-05-01)']
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import cast

import numpy as np

from langgraph_memory.core.records import Record
from langgraph_memory.core.tokens import terms_of, tokenize
from langgraph_memory.layers.index.kinds import EntryKinds, render
from langgraph_memory.layers.index.ranking import (
    LongTermDoc,
    LongTermLayer,
    RankedDoc,
    TermRanking,
    fuse_ranked,
)
from langgraph_memory.retrieval.vectors import matvec
from langgraph_memory.storage.capabilities import (
    EntryIndex,
    IndexedEntry,
    RecordStore,
    RecordValue,
    atomic,
)

__all__ = ["EntryIndexer", "IndexedRecords"]

#: Users whose mirrors a process keeps (least recently read go first).
MIRRORED_USERS = 64


class IndexedRecords(RecordStore):
    """A record store that keeps the entry index in step with the records written through
    it (see the module docs); every other record passes through unchanged.

    Args:
        records: The store the records go to.
        index: The indexer whose backend index is kept.
    """

    def __init__(self, records: RecordStore, index: EntryIndexer) -> None:
        self.inner = records
        self.index = index
        #: Records written or deleted through this store, by kind (what a memo of some
        #: kind checks that it is still in step with, e.g. ``Facts.batch``).
        self.writes: Counter[str] = Counter()

    def put_record(self, record: Record) -> None:
        self.writes[record.kind] += 1
        if record.kind not in self.index.kinds:
            self.inner.put_record(record)
            return
        with atomic(self.inner):  # one transaction for the two
            self.inner.put_record(record)
            self.index.put(record.user_id, [self.index.render(record)])

    def get_record(self, kind: str, record_id: str, user_id: str | None = None) -> Record | None:
        return self.inner.get_record(kind, record_id, user_id)

    def query_records(
        self,
        kind: str,
        user_id: str | None = None,
        *,
        where: Mapping[str, RecordValue] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        return self.inner.query_records(
            kind, user_id, where=where, limit=limit, newest_first=newest_first
        )

    def list_records(self, kind: str, user_id: str | None = None) -> list[Record]:
        return self.inner.list_records(kind, user_id)

    def count_records(self, kind: str, user_id: str | None = None) -> int:
        return self.inner.count_records(kind, user_id)

    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        self.writes[kind] += 1
        if kind not in self.index.kinds or not ids:
            return self.inner.delete_records(kind, ids, user_id)
        with atomic(self.inner):  # one transaction for the two: a crash leaves no stale row
            n = self.inner.delete_records(kind, ids, user_id)
            self.index.put(user_id, [IndexedEntry(f"{kind}/{i}", None) for i in ids])
        return n

    def atomic_writes(self) -> AbstractContextManager[None]:
        """The inner store's atomic writes (see
        :func:`~langgraph_memory.storage.capabilities.atomic`): several records written
        through this store land together."""
        return atomic(self.inner)


#: Query vectors whose cosines a mirror keeps (those of one context, and the request of
#: the task in progress).
_KEPT_COSINES = 4

#: A revision above every revision: ``entries_since`` then reads the generation alone.
_NO_REV = 2**62


class _Mirror:
    """One user's index in process: docs, posting lists and a vector matrix by row."""

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.rev = 0
        self.row_of: dict[str, int] = {}
        self.keys: list[str] = []
        self._key_order: np.ndarray | None = None
        #: Rows of titled entries (entities) by the terms of their title.
        self.titled: dict[str, set[int]] = {}
        self.title_terms: dict[int, frozenset[str]] = {}
        #: Rows of entries that belong to one agent (its traits), with the agent's id.
        self.agent_of: dict[int, str] = {}
        #: Per row: the code of its entry's layer (-1: no entry), codes by layer.
        self.layer_code = np.full(64, -1, dtype=np.int16)
        self.codes: dict[str, int] = {}
        self.docs: list[LongTermDoc | None] = []
        self.hashes: list[str] = []
        self.terms: list[dict[str, int]] = []
        self.postings: dict[str, dict[int, int]] = {}
        #: A term's posting list as arrays (rows, term counts), made when first read
        #: after it changed.
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.matrix: np.ndarray | None = None
        #: Per row: whether it has a vector, whether it holds an entry, its vector's norm.
        self.has_vector = np.zeros(64, dtype=bool)
        self.alive = np.zeros(64, dtype=bool)
        self.norms = np.ones(64, dtype=np.float32)
        #: Rows holding an entry without a vector (embedded in process when read).
        self.unembedded: set[int] = set()
        self.live = 0
        #: Entries held per layer.
        self.per_layer: dict[str, int] = {}
        #: Bumped by every change of a row.
        self.version = 0
        #: The last cosines by query vector (bytes), all of version ``_cosines_version``.
        self._cosines: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._cosines_version = 0
        self.lock = threading.Lock()

    def _rows(self, rows: int) -> None:
        """Room for ``rows`` rows in the per-row arrays."""
        if rows <= len(self.alive):
            return
        cap = max(rows, 2 * len(self.alive))
        fills = (("has_vector", False), ("alive", False), ("norms", 1.0), ("layer_code", -1))
        for name, fill in fills:
            old = getattr(self, name)
            new = np.full(cap, fill, dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)
        if self.matrix is not None:
            grown = np.zeros((cap, self.matrix.shape[1]), dtype=np.float32)
            grown[: len(self.matrix)] = self.matrix
            self.matrix = grown

    def cosines(self, query_vector: np.ndarray) -> np.ndarray:
        """Every row's cosine with ``query_vector`` (a fresh array; rows without a
        vector hold a meaningless value). The product with the matrix runs on one BLAS
        thread (see :func:`~langgraph_memory.retrieval.vectors.matvec`) and is kept for
        the next rankings with the same vector until a row changes: one context ranks
        entries, documents and passages with the query's vector, and the lessons of the
        task in progress with its request's, the same from one context to the next."""
        q = np.asarray(query_vector, dtype=np.float32)
        key = q.tobytes()
        if self._cosines_version != self.version:
            self._cosines.clear()
            self._cosines_version = self.version
        cos = self._cosines.get(key)
        if cos is None:
            assert self.matrix is not None
            rows = len(self.docs)
            qn = float(np.linalg.norm(q)) or 1.0
            dots = matvec(self.matrix[:rows], q)
            cos = (dots / (self.norms[:rows] * qn)).astype(np.float64)
            self._cosines[key] = cos
            while len(self._cosines) > _KEPT_COSINES:
                self._cosines.popitem(last=False)
        else:
            self._cosines.move_to_end(key)
        return cos.copy()

    def set_vector(self, row: int, vector: np.ndarray | None) -> None:
        self.version += 1
        if vector is None:
            self.has_vector[row] = False
            if self.alive[row]:
                self.unembedded.add(row)
            return
        v = np.asarray(vector, dtype=np.float32)
        if self.matrix is None or self.matrix.shape[1] != len(v):  # first (or a new model)
            self.matrix = np.zeros((len(self.alive), len(v)), dtype=np.float32)
            self.unembedded.update(np.flatnonzero(self.alive & self.has_vector).tolist())
            self.has_vector[:] = False
        self.matrix[row] = v
        self.norms[row] = float(np.linalg.norm(v)) or 1.0
        self.has_vector[row] = True
        self.unembedded.discard(row)

    def apply(self, entry: IndexedEntry) -> None:
        self.version += 1
        row = self.row_of.get(entry.key)
        if row is not None:  # drop the old state of the row
            old = self.docs[row]
            if old is not None:
                self.live -= 1
                self.per_layer[old.layer] -= 1
            self.alive[row] = False
            self.layer_code[row] = -1
            self.unembedded.discard(row)
            for term in self.terms[row]:
                self._arrays.pop(term, None)
                plist = self.postings.get(term)
                if plist is not None:
                    plist.pop(row, None)
                    if not plist:
                        del self.postings[term]
            self.set_vector(row, None)
            self.agent_of.pop(row, None)
            for term in self.title_terms.pop(row, ()):
                rows = self.titled.get(term)
                if rows is not None:
                    rows.discard(row)
                    if not rows:
                        del self.titled[term]
        elif entry.text is None:
            return
        else:
            row = self.row_of[entry.key] = len(self.docs)
            self._rows(row + 1)
            self.keys.append(entry.key)
            self._key_order = None
            self.docs.append(None)
            self.hashes.append("")
            self.terms.append({})
        if entry.text is None:
            self.docs[row], self.hashes[row], self.terms[row] = None, "", {}
        else:
            d = entry.doc
            when = d.get("timestamp")
            self.docs[row] = LongTermDoc(
                str(d.get("id", entry.key.partition("/")[2])),
                cast(LongTermLayer, d.get("layer", entry.key.partition("/")[0])),
                entry.text,
                list(d.get("source_ids", [])),
                datetime.fromisoformat(when) if when else None,
                d.get("importance"),
                d.get("title"),
                d.get("meta"),
            )
            layer = cast(LongTermDoc, self.docs[row]).layer
            self.per_layer[layer] = self.per_layer.get(layer, 0) + 1
            self.layer_code[row] = self.codes.setdefault(layer, len(self.codes))
            self.hashes[row] = entry.hash
            self.terms[row] = dict(entry.terms)
            for term, tf in entry.terms.items():
                self._arrays.pop(term, None)
                self.postings.setdefault(term, {})[row] = int(tf)
            self.live += 1
            self.alive[row] = True
            self.set_vector(row, entry.vector)
            if d.get("agent"):
                self.agent_of[row] = str(d["agent"])
            title = d.get("title")
            if title:
                words = frozenset(tokenize(str(title)))
                if words:
                    self.title_terms[row] = words
                    for term in words:
                        self.titled.setdefault(term, set()).add(row)
        self.rev = max(self.rev, entry.rev)

    def key_order(self) -> np.ndarray:
        """Each row's place in the order of entry keys (ties of cosine rank by it)."""
        if self._key_order is None:
            order = np.empty(len(self.keys), dtype=np.int64)
            order[np.argsort(np.array(self.keys, dtype=object), kind="stable")] = np.arange(
                len(self.keys)
            )
            self._key_order = order
        return self._key_order

    def posting(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """A term's posting list as arrays: its rows and their term counts."""
        arrays = self._arrays.get(term)
        if arrays is None:
            plist = self.postings[term]
            arrays = self._arrays[term] = (
                np.fromiter(plist.keys(), dtype=np.int64, count=len(plist)),
                np.fromiter(plist.values(), dtype=np.float64, count=len(plist)),
            )
        return arrays

    def layer_mask(self, layers: Collection[str]) -> np.ndarray:
        """Per row: whether it holds an entry of ``layers``."""
        codes = [self.codes[x] for x in layers if x in self.codes]
        return np.isin(self.layer_code[: len(self.docs)], codes)

    def lexical(
        self, query: str | Collection[str], mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The term ranking of :func:`~.ranking.rank_docs` (rows and term scores, best
        first; the rows ``mask`` holds only, ranked among all entries), from posting
        lists (``query``: its text, or its terms). Each query term adds its share to the
        rows of its posting list (in the order :func:`~.ranking.rank_docs` sums them: the
        same scores); equal scores rank by entry key."""
        terms = terms_of(query)
        n = self.live
        none = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        if not terms or n == 0:
            return none
        df = {t: len(self.postings.get(t, ())) for t in terms}
        shared_only = n > 1 and all(df[t] in (0, n) for t in terms)
        scores: np.ndarray | None = None
        for t in terms:
            d = df[t]
            if d == 0 or not (d < n or n == 1 or shared_only):
                continue
            idf = math.log(1 + n / d)
            rows, tf = self.posting(t)
            if scores is None:
                scores = np.zeros(len(self.docs), dtype=np.float64)
            scores[rows] += idf * tf / (tf + 1.2)
        if scores is None:
            return none
        hits = np.flatnonzero(scores > 0)
        if mask is not None:
            hits = hits[mask[hits]]
        # equal scores by entry key: the same order whatever order the entries came in
        # (backends and worker batches differ in that)
        order = np.lexsort((self.key_order()[hits], -scores[hits]))
        hits = hits[order]
        return hits, scores[hits]


class EntryIndexer:
    """Keeps and reads the long-term entry index (see the module docs).

    Args:
        backend: Where the index is kept.
        records: The records the index is built from when it never was.
        embed: Embeds texts in process (entries not embedded yet, at read time, and
            the worker's batches); ``None`` ranks by words alone.
        kinds: The record kinds indexed, by kind (each renders itself).
        max_users: Users whose mirrors this process keeps.
    """

    def __init__(
        self,
        backend: EntryIndex,
        records: RecordStore,
        embed: Callable[[Sequence[str]], np.ndarray] | None = None,
        *,
        kinds: EntryKinds,
        max_users: int = MIRRORED_USERS,
    ) -> None:
        #: The indexed record kinds, by kind.
        self.kinds = kinds
        self.backend = backend
        self.records = records
        self.embed = embed
        self.max_users = max_users
        self._mirrors: OrderedDict[str, _Mirror] = OrderedDict()
        self._lock = threading.Lock()
        self._dirty: set[str] = set()
        self._built: set[str] = set()  # users whose index this process saw built

    # -- writing --------------------------------------------------------------------------
    def render(self, record: Record) -> IndexedEntry:
        """The index entry of a record of an indexed kind (a tombstone when it is not
        ranked)."""
        return render(record, self.kinds)

    def put(self, user_id: str, entries: Sequence[IndexedEntry]) -> int:
        """Write entries (tombstones included) to the backend's index; a user's index
        never built (a store written by 0.1) is built first, on this first write."""
        built = 0
        if user_id not in self._built:
            generation, _ = self.backend.entries_since(user_id, _NO_REV)
            if generation == 0:  # the entries being written may be among those built
                built = self.rebuild(user_id)
            with self._lock:
                self._built.add(user_id)
        n = self.backend.put_entries(user_id, entries) + built
        if n:
            with self._lock:
                self._dirty.add(user_id)
        return n

    def take_changed_users(self) -> list[str]:
        """Users whose entries this process changed since the last call (what the
        reflector looks at)."""
        with self._lock:
            users, self._dirty = sorted(self._dirty), set()
        return users

    def rebuild(self, user_id: str) -> int:
        """Index every entry of the user's records again (stale rows become tombstones)
        and start a new generation; returns how many entries changed."""
        fresh = {e.key: e for e in self._rendered(user_id)}
        _, stored = self.backend.entries_since(user_id, 0)
        gone = [IndexedEntry(e.key, None) for e in stored if e.key not in fresh and e.text]
        n = self.backend.put_entries(user_id, [*fresh.values(), *gone])
        self.backend.mark_entries_built(user_id)
        return n

    def embed_pending(self, limit: int = 256) -> int:
        """Embed up to ``limit`` entries still without a vector (of any user) and store
        their vectors; returns how many were stored."""
        if self.embed is None:
            return 0
        pending = self.backend.pending_entries(limit)
        if not pending:
            return 0
        vectors = self.embed([e.text or "" for _, e in pending])
        return self.backend.store_entry_vectors(
            [(uid, e.key, e.hash, v) for (uid, e), v in zip(pending, vectors, strict=True)]
        )

    def forget(self, user_id: str) -> None:
        """Drop a user's mirror (a deleted user)."""
        with self._lock:
            self._mirrors.pop(user_id, None)
            self._built.discard(user_id)

    # -- reading --------------------------------------------------------------------------
    def _mirror(self, user_id: str) -> _Mirror:
        with self._lock:
            mirror = self._mirrors.get(user_id)
            if mirror is not None:
                self._mirrors.move_to_end(user_id)
        generation, changed = self.backend.entries_since(user_id, mirror.rev if mirror else 0)
        if generation == 0 and (mirror is None or mirror.generation != 0):
            # never built (an unknown user, or a store written by 0.1): rendered from the
            # records in process; a read writes nothing (the first write builds it)
            live = [e for e in self._rendered(user_id) if e.text is not None]
            changed = [dataclasses.replace(e, rev=i) for i, e in enumerate(live, 1)]
            mirror = None
        if mirror is None or mirror.generation != generation:
            if mirror is not None:  # a new generation: read it whole
                generation, changed = self.backend.entries_since(user_id, 0)
            mirror = _Mirror(generation)
        with mirror.lock:
            for entry in changed:
                if entry.rev > mirror.rev:  # another thread may have applied it
                    mirror.apply(entry)
        if generation == 0 and not changed:  # nothing to keep (an unknown or deleted user)
            with self._lock:
                self._mirrors.pop(user_id, None)
            return mirror
        with self._lock:
            self._mirrors[user_id] = mirror
            self._mirrors.move_to_end(user_id)
            while len(self._mirrors) > self.max_users:
                self._mirrors.popitem(last=False)
        return mirror

    def _rendered(self, user_id: str) -> list[IndexedEntry]:
        """Every record of the user's indexed kinds, rendered (tombstones included)."""
        return [
            self.render(r) for kind in self.kinds for r in self.records.list_records(kind, user_id)
        ]

    def named(self, user_id: str, terms: Collection[str]) -> list[LongTermDoc]:
        """The titled entries (entities) every word of whose title is among ``terms``,
        most title words first."""
        mirror = self._mirror(user_id)
        wanted = set(terms)
        with mirror.lock:
            rows = {r for t in wanted for r in mirror.titled.get(t, ())}
            hits = [r for r in rows if mirror.title_terms[r] <= wanted]
            hits.sort(key=lambda r: (-len(mirror.title_terms[r]), mirror.keys[r]))
            return [cast(LongTermDoc, mirror.docs[r]) for r in hits]

    def docs(self, user_id: str) -> list[LongTermDoc]:
        """Every entry the index holds for the user."""
        mirror = self._mirror(user_id)
        with mirror.lock:
            return [d for d in mirror.docs if d is not None]

    def rank(
        self,
        user_id: str,
        query: str | Collection[str],
        k: int | None,
        *,
        query_vector: np.ndarray | None = None,
        lexical_weight: float = 1.0,
        dense_weight: float = 1.0,
        rrf_k: int = 60,
        min_cosine: float | None = None,
        layers: Collection[str] | None = None,
        owners: Sequence[str] = (),
        keep: Callable[[LongTermDoc], bool] | None = None,
        agent_id: str | None = None,
    ) -> list[RankedDoc]:
        """The user's entries best first, as
        :func:`~langgraph_memory.layers.index.ranking.rank_hybrid` ranks them (by words
        alone without ``query_vector`` or an embedder; ``query``: its text, or its terms
        tokenised once by the caller); only those of ``layers`` when
        given (each ranked among all entries), and of those only the ones ``keep``
        accepts. The entries of ``owners`` (shared knowledge) are ranked in the same
        ranking, beside the user's own. With ``agent_id``, the entries of other agents
        (their traits) are left out; those of no agent and of that agent stay."""
        dense = query_vector is not None and dense_weight > 0 and self.embed is not None
        scans = [
            self._scan(owner, query, query_vector if dense else None, layers, keep, agent_id)
            for owner in (user_id, *owners)
        ]
        rows, scores, cos, docs, ties = scans[0]
        if len(scans) > 1:  # one ranking of every owner's rows, placed one after another
            bases = np.cumsum([0] + [len(d) for _, _, _, d, _ in scans[:-1]])
            rows = np.concatenate([r + b for (r, _, _, _, _), b in zip(scans, bases, strict=True)])
            scores = np.concatenate([s for _, s, _, _, _ in scans])
            ties = np.concatenate([t + b for (_, _, _, _, t), b in zip(scans, bases, strict=True)])
            docs = [d for _, _, _, ds, _ in scans for d in ds]
            # equal term scores by owner, then entry key (the one-owner order)
            order = np.lexsort((ties[rows], -scores))
            rows, scores = rows[order], scores[order]
            cos = (
                np.concatenate(
                    [c if c is not None else np.full(len(d), np.nan) for _, _, c, d, _ in scans]
                )
                if any(c is not None for _, _, c, _, _ in scans)
                else None
            )
        fused = fuse_ranked(
            TermRanking(rows, scores),
            cos,
            k,
            lexical_weight=lexical_weight,
            dense_weight=dense_weight,
            rrf_k=rrf_k,
            min_cosine=min_cosine,
            ties=ties if cos is not None else None,
        )
        return [RankedDoc(cast(LongTermDoc, docs[i]), s, p) for i, s, p in fused]

    def scores(
        self,
        user_id: str,
        query: str | Collection[str],
        query_vector: np.ndarray | None,
        layers: Collection[str],
    ) -> list[tuple[LongTermDoc, float, float | None]]:
        """``(entry, term score, cosine)`` of the user's entries of ``layers`` that share a
        term with the query or have a cosine with ``query_vector`` (the raw scores the
        ranking of :meth:`rank` fuses; 0 for no shared term, ``None`` for no cosine)."""
        rows, scores, cos, docs, _ = self._scan(user_id, query, query_vector, layers, None)
        lex = dict(zip(rows.tolist(), scores.tolist(), strict=True))
        found = set(lex)
        if cos is not None:
            found.update(np.flatnonzero(~np.isnan(cos)).tolist())
        out = []
        for row in sorted(found):
            doc = docs[row]
            if doc is None:
                continue
            c = None if cos is None or np.isnan(cos[row]) else float(cos[row])
            out.append((doc, lex.get(row, 0.0), c))
        return out

    def _scan(
        self,
        owner: str,
        query: str | Collection[str],
        query_vector: np.ndarray | None,
        layers: Collection[str] | None,
        keep: Callable[[LongTermDoc], bool] | None,
        agent_id: str | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, list[LongTermDoc | None], np.ndarray]:
        """One owner's term ranking (rows and scores, best first), cosines (NaN: left
        out), docs and tie order; nothing (no term scoring, no vector product) when the
        owner holds no entry of ``layers`` (the common case for passages and documents).
        Which rows count is worked out on arrays (their layers' codes); ``keep`` is asked
        of the rows of ``layers`` only. With ``agent_id``, rows of other agents are left
        out (looked up in the mirror's few agent rows, no scan)."""
        mirror = self._mirror(owner)
        with mirror.lock:
            rows = len(mirror.docs)
            if layers is not None and not any(mirror.per_layer.get(x) for x in layers):
                empty = np.zeros(0, dtype=np.int64)
                return empty, np.zeros(0), None, [], empty
            mask = None
            others = (
                [r for r, agent in mirror.agent_of.items() if agent != agent_id]
                if agent_id is not None
                else []
            )
            if layers is not None or keep is not None or others:
                mask = mirror.layer_mask(layers) if layers is not None else mirror.alive[:rows]
                mask = mask.copy()
                if keep is not None:
                    for i in np.flatnonzero(mask).tolist():
                        mask[i] = keep(cast(LongTermDoc, mirror.docs[i]))
                mask[others] = False
            lex_rows, lex_scores = mirror.lexical(query, mask)
            cos = None
            if query_vector is not None and mirror.live:
                assert self.embed is not None
                missing = sorted(mirror.unembedded)
                if missing:  # not embedded by the worker yet: embedded here, kept here
                    vectors = self.embed([cast(LongTermDoc, mirror.docs[i]).text for i in missing])
                    for i, v in zip(missing, vectors, strict=True):
                        mirror.set_vector(i, v)
                cos = mirror.cosines(query_vector)
                usable = mirror.alive[:rows] & mirror.has_vector[:rows]
                if mask is not None:
                    usable &= mask
                cos[~usable] = np.nan
            return lex_rows, lex_scores, cos, list(mirror.docs), mirror.key_order()[:rows].copy()
