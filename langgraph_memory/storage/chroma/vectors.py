"""Vectors of the Chroma backend: one entry per embedded message in the vectors collection.

A part of :class:`~langgraph_memory.storage.chroma.backend.ChromaBackend`. Vector search is
exact (numpy over the user's vectors fetched from Chroma, as on every other backend)
up to :data:`EXACT_LIMIT` vectors per user; past that Chroma's HNSW index (cosine,
always filtered by user) gives a candidate pool that is re-scored exactly.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from langgraph_memory.core.records import Message
from langgraph_memory.retrieval.vectors import VectorMatrix
from langgraph_memory.storage.capabilities import VectorIndex
from langgraph_memory.storage.chroma.store import CHUNK, StoreCollection, and_, message_key

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

__all__ = ["VectorEntries", "EXACT_LIMIT"]

#: Vectors of one user searched exactly (beyond: HNSW candidates, re-scored exactly).
EXACT_LIMIT = 20_000
_T = TypeVar("_T")


class VectorEntries(VectorIndex):
    """The vector methods of the Chroma backend.

    The class using it provides the client, the collections and ``_use`` (the lock on
    an open backend).
    """

    client: ClientAPI
    _store: StoreCollection
    _vectors: Collection
    _dim: int | None

    @abstractmethod
    def _use(self, *, sync: bool = False) -> AbstractContextManager[None]:
        """The lock on an open backend."""

    @abstractmethod
    def _collection(self, part: str) -> Collection:
        """Our collection ``part`` (created when missing)."""

    def _on_vectors(self, call: Callable[[Collection], _T]) -> _T:
        """``call(vectors collection)``, again on a fresh handle when another instance
        recreated the collection (see :meth:`store_vectors`)."""
        from chromadb.errors import NotFoundError

        try:
            return call(self._vectors)
        except NotFoundError:
            self._vectors, self._dim = self._collection("vectors"), None
            return call(self._vectors)

    def _query(self, q: np.ndarray, n: int, where: Any) -> Any:
        """The ``n`` nearest vectors to ``q`` under ``where``, with their embeddings."""
        return self._on_vectors(
            lambda c: c.query(
                query_embeddings=q[None, :], n_results=n, where=where, include=["embeddings"]
            )
        )

    def _hnsw_pool(
        self, q: np.ndarray, want: int, where: Any, allowed: set[int] | None
    ) -> list[tuple[str, Any]]:
        """At least ``want`` nearest candidates from the HNSW index (all, when fewer match).

        The pool grows when ``allowed`` was too large for the where clause and
        filters most of the candidates out.
        """
        n = want
        while True:
            res = self._query(q, n, where)
            ids = res["ids"][0]
            embs = res["embeddings"][0] if res["embeddings"] is not None else []
            pool = list(zip(ids, embs, strict=True))
            kept = sum(1 for i in ids if allowed is None or int(i) in allowed)
            if kept >= want or len(ids) < n:
                return pool
            n *= 4

    def _vector_dim(self) -> int | None:
        """The dimension of the stored vectors (``None`` when there are none)."""
        if self._dim is None:
            peek = self._on_vectors(lambda c: c.get(limit=1, include=["embeddings"]))
            embs = peek["embeddings"]
            if embs is not None and len(embs):
                self._dim = len(embs[0])
        return self._dim

    def store_vectors(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        if not items:
            return
        with self._use():
            keys = [message_key(m.user_id, m.id) for m, _ in items]
            have = self._store.by_id(keys, docs=False)
            todo: dict[int, tuple[str, str, np.ndarray]] = {}  # seq -> (entry id, user, vector)
            for (msg, vec), mkey in zip(items, keys, strict=True):
                got = have.get(mkey)
                if got is None or int(got[0]["seq"]) != msg.seq or not got[0]["pending"]:
                    continue  # deleted meanwhile, or embedded already
                todo[msg.seq] = (mkey, msg.user_id, np.asarray(vec, dtype=np.float32).reshape(-1))
            if not todo:
                return
            dims = {v.shape[0] for _, _, v in todo.values()}
            current = self._vector_dim()
            if len(dims) > 1 or (current is not None and dims != {current}):
                raise ValueError(f"vector dimension {sorted(dims)} != index dimension {current}")
            if current is None and self._on_vectors(lambda c: c.count()) == 0:
                # An emptied index keeps its old dimension in Chroma: start it anew.
                self.client.delete_collection(self._vectors.name)
                self._vectors = self._collection("vectors")
            pairs = list(todo.items())
            for i in range(0, len(pairs), self._store.batch):
                self._upsert_vectors(pairs[i : i + self._store.batch])
            self._dim = dims.pop()
            # Now marked embedded: only the flag is written (rewriting the whole entry
            # would make Chroma index the message text again).
            self._store.update_meta([(k, {"pending": False}) for k, _, _ in todo.values()])

    def _upsert_vectors(self, part: Sequence[tuple[int, tuple[str, str, np.ndarray]]]) -> None:
        ids = [str(s) for s, _ in part]
        vecs = np.stack([v for _, (_, _, v) in part])
        metas: Any = [{"user_id": u, "seq": s} for s, (_, u, _) in part]
        self._on_vectors(lambda c: c.upsert(ids=ids, embeddings=vecs, metadatas=metas))

    def vector_search(
        self, user_id: str, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        q = np.asarray(vector, dtype=np.float32).reshape(-1)
        if k <= 0 or (allowed is not None and not allowed) or float(np.linalg.norm(q)) == 0:
            return []
        with self._use():
            dim = self._vector_dim()
            if dim is None:
                return []
            if q.shape[0] != dim:
                raise ValueError(f"query dimension {q.shape[0]} != index dimension {dim}")
            where: Any = {"user_id": user_id}
            if allowed is not None and len(allowed) <= CHUNK:
                where = and_(where, {"seq": {"$in": sorted(int(s) for s in allowed)}})
            # Up to EXACT_LIMIT vectors the search is exact, as on every other backend (HNSW
            # misses near-duplicates); past it the HNSW index gives a candidate pool.
            every = self._on_vectors(
                lambda c: c.get(where=where, include=["embeddings"], limit=EXACT_LIMIT + 1)
            )
            if len(every["ids"]) <= EXACT_LIMIT:
                embs = every["embeddings"] if every["embeddings"] is not None else []
                pool = list(zip(every["ids"], embs, strict=True))
            else:
                pool = self._hnsw_pool(q, 2 * k + 16, where, allowed)
            keep = [(int(i), e) for i, e in pool if allowed is None or int(i) in allowed]
        if not keep:
            return []
        matrix = VectorMatrix(dim)
        matrix.append([s for s, _ in keep], np.asarray([e for _, e in keep], dtype=np.float32))
        return matrix.search(q, k)
