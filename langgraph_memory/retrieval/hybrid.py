"""Hybrid retrieval over a user's messages: BM25 + dense cosine, fused by RRF."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
        rankings: dict[str, list[int]] = {}
        cosines: dict[int, float] = {}
        bm25: dict[int, float] = {}
        if cfg.lexical_weight > 0:
            lex = self.backend.lexical_search(
                user_id, tokenize(query), pool, allowed, k1=cfg.bm25_k1, b=cfg.bm25_b
            )
            rankings["bm25"] = [s for s, _ in lex]
            bm25 = dict(lex)
        if cfg.dense_weight > 0:
            qvec = self.embedder().embed_array([query], persist=False)[0]
            dense = self.backend.vector_search(user_id, qvec, pool, allowed)
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
