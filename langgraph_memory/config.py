"""Configuration of a :class:`~langgraph_memory.MemoryManager`.

Every tunable parameter of the memory system lives in :class:`MemoryConfig`,
with the defaults of the design documents. A config is immutable; derive a
variant with :func:`dataclasses.replace`.

Example:
    >>> from langgraph_memory import MemoryConfig
    >>> cfg = MemoryConfig(rrf_k=60, default_token_budget=1024)
    >>> cfg.rrf_k
    60
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["MemoryConfig"]


@dataclass(frozen=True)
class MemoryConfig:
    """Parameters of the memory system (all optional; defaults are sensible).

    Attributes:
        max_content_chars: Longest message content accepted, in characters.
            Longer content raises ``ValueError`` (split it first).
        max_metadata_bytes: Largest JSON-encoded metadata accepted per message.
        embed_batch_size: How many texts the background worker embeds at once.
        embed_cache_size: Entries of the in-process embedding cache (the
            persistent cache of the backend is unbounded).
        rrf_k: The ``k`` of reciprocal rank fusion, ``1 / (k + rank)``.
        lexical_weight: Weight of the BM25 ranking in the fusion.
        dense_weight: Weight of the dense (cosine) ranking in the fusion.
        candidate_pool: How many candidates each retriever contributes (at
            least ``k``), and how many retrieved messages ``build_context`` considers.
        fusion_depth: How many of each ranking's best are fused into primary
            candidates, and how many primary candidates are kept (their
            neighbours join the context); the rest follow, scored by ``tail_factor``.
        tail_factor: Score factor of candidates below the fusion depth (keeps
            them behind primary candidates and their neighbours).
        bm25_k1: BM25 term-frequency saturation.
        bm25_b: BM25 length normalisation.
        neighbor_window: When building context, how many turns before and after
            a primary retrieved message are considered as context for it (0 disables).
        neighbor_decay: Score factor a neighbouring turn inherits from its hit.
        answer_decay: Score factor of the turn that answers a retrieved question
            (the next turn after a hit that ends with a question mark).
        default_token_budget: Budget of ``build_context`` when none is given.
        session_share: Share of the budget reserved for the current session's
            most recent messages.
        recent_messages: How many of the current session's latest messages are
            considered for that share.
        show_dates: Group context lines under the date they were said.
        forget_threshold: The forget gate drops episodes whose importance is below this.
        forget_min_age_days: Episodes younger than this are never forgotten.
        max_episodes: Cap on the episodes kept per user (the least important go).
        consolidation_min_episodes: Unconsolidated episodes a target needs before they
            are consolidated into knowledge.
    """

    max_content_chars: int = 100_000
    max_metadata_bytes: int = 65_536
    embed_batch_size: int = 512
    embed_cache_size: int = 10_000
    rrf_k: int = 60
    lexical_weight: float = 1.0
    dense_weight: float = 1.0
    candidate_pool: int = 60
    fusion_depth: int = 15
    tail_factor: float = 0.1
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    neighbor_window: int = 2
    neighbor_decay: float = 0.5
    answer_decay: float = 0.5
    default_token_budget: int = 2000
    session_share: float = 0.25
    recent_messages: int = 6
    show_dates: bool = True
    forget_threshold: float = 0.25
    forget_min_age_days: float = 7.0
    max_episodes: int = 10_000
    consolidation_min_episodes: int = 3

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            kinds = {"int": (int,), "float": (int, float), "bool": (bool,)}.get(str(f.type))
            if kinds is None:
                continue
            if (isinstance(value, bool) and f.type != "bool") or not isinstance(value, kinds):
                raise TypeError(f"MemoryConfig.{f.name} must be {f.type}, got {value!r}")
        positive = (
            "max_content_chars",
            "max_metadata_bytes",
            "embed_batch_size",
            "embed_cache_size",
            "rrf_k",
            "max_episodes",
            "consolidation_min_episodes",
            "candidate_pool",
            "fusion_depth",
            "default_token_budget",
        )
        for name in positive:
            if getattr(self, name) <= 0:
                raise ValueError(f"MemoryConfig.{name} must be > 0, got {getattr(self, name)}")
        for name in (
            "lexical_weight",
            "dense_weight",
            "bm25_k1",
            "neighbor_decay",
            "answer_decay",
            "tail_factor",
            "forget_threshold",
            "forget_min_age_days",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"MemoryConfig.{name} must be >= 0")
        if self.lexical_weight == 0 and self.dense_weight == 0:
            raise ValueError("MemoryConfig: lexical_weight and dense_weight cannot both be 0")
        if not 0 <= self.bm25_b <= 1:
            raise ValueError("MemoryConfig.bm25_b must be within [0, 1]")
        if not 0 <= self.session_share <= 1:
            raise ValueError("MemoryConfig.session_share must be within [0, 1]")
        if self.neighbor_window < 0 or self.recent_messages < 0:
            raise ValueError("MemoryConfig.neighbor_window and recent_messages must be >= 0")
