"""Hybrid retrieval over a user's messages: BM25 + dense cosine, fused by RRF."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..backends.base import MemoryBackend
from ..backends.filters import compile_filter
from ..config import MemoryConfig
from ..embeddings import CachedEmbeddings
from ..records import MemoryHit, Message
from ..tokens import tokenize
from .fusion import rrf_fuse

__all__ = ["HybridRetriever", "index_text"]


def index_text(msg: Message) -> str:
    """The text a message is indexed (and embedded) by: the speaker's name and the content."""
    return f"{msg.name}: {msg.content}" if msg.name else msg.content


class HybridRetriever:
    """Ranks one user's messages for a query.

    Args:
        backend: The storage.
        embedder: Returns the query embedder (may block on first use while the model loads).
        config: Fusion and BM25 parameters.
    """

    def __init__(
        self,
        backend: MemoryBackend,
        embedder: Callable[[], CachedEmbeddings],
        config: MemoryConfig,
    ) -> None:
        self.backend = backend
        self.embedder = embedder
        self.config = config
        self._threads: ThreadPoolExecutor | None = None
        self._threads_lock = threading.Lock()

    def _dense(
        self, user_id: str, query: str, pool: int, allowed: set[int] | None
    ) -> list[tuple[int, float]]:
        qvec = self.embedder().embed_array([query], persist=False)[0]
        return self.backend.vector_search(user_id, qvec, pool, allowed)

    def _submit_dense(
        self, user_id: str, query: str, pool: int, allowed: set[int] | None
    ) -> Future[list[tuple[int, float]]]:
        with self._threads_lock:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(4, thread_name_prefix="langgraph-memory-dense")
        return self._threads.submit(self._dense, user_id, query, pool, allowed)

    def close(self) -> None:
        """Stop the threads of concurrent dense searches (made again when needed)."""
        with self._threads_lock:
            threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown(wait=True)

    def rank(
        self, user_id: str, query: str, k: int, flt: Mapping[str, Any] | None = None
    ) -> list[tuple[int, float, dict[str, float]]]:
        """``(seq, score, score_parts)`` of the best ``k`` messages, best first."""
        cfg = self.config
        predicate = compile_filter(flt)
        allowed = self.backend.filter_seqs(user_id, predicate) if predicate else None
        if allowed is not None and not allowed:
            return []
        pool = max(k, cfg.candidate_pool)
        if k <= cfg.fusion_depth:
            # Fusion reads the best ``fusion_depth`` of each ranking; the deeper ones
            # only fill a result shorter than ``k``, which needs rankings shorter than
            # ``k``: ones that hold every match already. Same result, less to read (the
            # lexical search of a million messages reads far fewer for a top 15).
            pool = max(k, min(pool, cfg.fusion_depth))
        rankings: dict[str, list[int]] = {}
        cosines: dict[int, float] = {}
        bm25: dict[int, float] = {}
        dense_future = None
        if cfg.dense_weight > 0 and cfg.lexical_weight > 0 and self.backend.parallel_reads:
            # The query's embedding and the vector search run while the lexical search
            # waits on the server.
            dense_future = self._submit_dense(user_id, query, pool, allowed)
        if cfg.lexical_weight > 0:
            try:
                lex = self.backend.lexical_search(
                    user_id, tokenize(query), pool, allowed, k1=cfg.bm25_k1, b=cfg.bm25_b
                )
            except BaseException:
                if dense_future is not None:
                    dense_future.cancel()
                raise
            rankings["bm25"] = [s for s, _ in lex]
            bm25 = dict(lex)
        if cfg.dense_weight > 0:
            dense = (
                dense_future.result()
                if dense_future is not None
                else self._dense(user_id, query, pool, allowed)
            )
            rankings["dense"] = [s for s, _ in dense]
            cosines = dict(dense)
        weights = {"bm25": cfg.lexical_weight, "dense": cfg.dense_weight}
        depth = cfg.fusion_depth
        fused = rrf_fuse({n: r[:depth] for n, r in rankings.items()}, k=cfg.rrf_k, weights=weights)[
            :depth
        ]
        if len(fused) < k:
            # Past the fusion depth: the rest of both rankings, fused, scored
            # below every primary candidate (and below their neighbours).
            seen = {s for s, _, _ in fused}
            for seq, score, parts in rrf_fuse(rankings, k=cfg.rrf_k, weights=weights):
                if seq not in seen:
                    parts["tier"] = 2.0
                    fused.append((seq, score * cfg.tail_factor, parts))
        fused = fused[:k]
        for seq, _, parts in fused:
            if seq in bm25:
                parts["bm25"] = bm25[seq]
            if seq in cosines:
                parts["cosine"] = cosines[seq]
        return fused

    def search(
        self, user_id: str, query: str, k: int, flt: Mapping[str, Any] | None = None
    ) -> list[MemoryHit]:
        """The best ``k`` messages as hits."""
        ranked = self.rank(user_id, query, k, flt)
        msgs = self.backend.get_messages(user_id, [s for s, _, _ in ranked])
        return [to_hit(msgs[s], score, parts) for s, score, parts in ranked if s in msgs]


def to_hit(msg: Message, score: float, parts: dict[str, float]) -> MemoryHit:
    """A stored message as a search hit."""
    return MemoryHit(
        id=msg.id,
        layer="message",
        text=msg.content,
        score=score,
        score_parts=parts,
        source_ids=[msg.id],
        session_id=msg.session_id,
        timestamp=msg.timestamp,
        metadata=msg.metadata,
        name=msg.name,
        role=msg.role,
    )
