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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .write.sensitivity import SensitivityPolicy

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
        importance_base, importance_age_step, importance_age_days, importance_age_cap,
            importance_access_step, importance_access_cap, importance_success,
            importance_failure, importance_alert, importance_complex_bonus,
            importance_complex_steps: The forget gate's importance formula (seed 000):
            ``base − min(age_days/age_days·age_step, age_cap) + min(accesses·access_step,
            access_cap) + success (or − failure) + alert (if an alert triggered it) +
            complex_bonus (more than complex_steps steps)``, clamped to [0, 1]
            (:class:`~langgraph_memory.forgetting.ImportanceRule`).
        explicit_confidence, confirmed_confidence, inferred_confidence: Starting
            confidence of a preference the user stated, confirmed, or that was inferred
            (seed 002: 1.0, —, 0.6; "confirmed" 0.8 is ours).
        reinforce_step, correct_step: Confidence a preference gains when followed and
            loses when corrected (seed 002: +0.2, −0.4).
        preference_threshold: Only preferences with confidence above this enter the
            context (seed 002: 0.7).
        consolidation_min_episodes: Unconsolidated episodes a target needs before they
            are consolidated into knowledge.
        stm_capacity_pages: Pages a session's short-term FIFO holds (MemoryOS: 7).
        stm_capacity_tokens: Tokens a session's short-term FIFO holds.
        chain_threshold: A closed page continues the chain whose f_score (cosine +
            keyword Jaccard) with it is highest and at least this; else it starts one.
        chain_summary_tokens: Length of a chain's extractive summary.
        session_ttl_seconds: A session idle this long hands its pages to mid-term.
        segment_threshold: A page joins the segment with the highest f_score at least
            this; else it starts a new segment.
        midterm_capacity: Active segments per user; beyond it the coldest is archived
            (its pages stay searchable).
        segment_summary_tokens: Length of a segment's extractive summary.
        heat_alpha: Heat weight of retrievals (``α``).
        heat_beta: Heat weight of pages gained (``β``).
        heat_gamma: Heat weight of recency (``γ``).
        heat_mu_seconds: Time constant ``μ`` of recency ``exp(−Δt/μ)``.
        heat_threshold: Heat above which a segment is promoted to long-term (``τ``).
        segments_per_query: Mid-term segments ranked for a query (by f_score); their
            summaries are candidates (their pages' messages too, see below).
        segment_page_weight: Weight of a third message ranking beside BM25 and
            dense: the messages of the pages of those segments, by their own cosine
            with the query (at most ``candidate_pool`` of them). A message that dense
            retrieval did not rank is found through its segment; one that it ranked
            keeps its score (its cosine counts once). Off (0) by default: on LoCoMo
            it lowered evidence recall (weight 1: 0.616 / 0.751 / 0.821 against
            0.618 / 0.753 / 0.823 at 256 / 512 / 1024 tokens; fused as a full third
            ranking that re-weighed the messages dense retrieval found too: 0.506 /
            0.652 / 0.763). It needs a query embedding (``dense_weight`` > 0).
        segment_boost: Score factor ``1 + boost`` for retrieved messages whose page
            is in one of those segments.
        segment_summary_weight: A segment summary ranked ``r`` for a query scores
            ``weight / (rrf_k + r)``, like a message fused from one ranking.
        profile_share: Share of the budget the user profile may take (it goes first).
        long_term_k: Long-term facts, traits, episodes and knowledge offered per query.
        long_term_dense_weight: Long-term entries are ranked by a BM25-like term score
            and by the cosine of their text's embedding with the query's, fused by
            RRF with weights ``lexical_weight`` and this. An entry sharing no term
            with the query is offered only when it is at least as close to the query
            as the messages that dense retrieval ranked within ``fusion_depth``.
            0 (or ``dense_weight`` 0) ranks them by terms alone.
        long_term_weight: Such an entry scores ``weight`` times its fused RRF score
            normalised by the weights of its rankings, i.e. ``weight / (rrf_k + r)``
            when it is ranked ``r`` by both (or by terms alone).
        sensitivity: The PII/secrets gate applied to message content and metadata
            before anything is stored or embedded: a
            :class:`~langgraph_memory.write.sensitivity.SensitivityPolicy`, a mapping
            ``{kind: action}`` or one action for every kind (``"refuse"``; ``"allow"``
            switches the gate off). ``None`` (default): redact every kind.
        dedup_threshold: Write gate: an extracted fact whose embedding has a cosine
            above this with a fact stored or refreshed within ``dedup_window_days``
            refreshes that fact instead of being added (the same text always does).
        dedup_window_days: How recent a fact must be to absorb a near-duplicate.
        working_share: Most of the budget the task in progress may take.
        routing: Route each query by rules (:mod:`~langgraph_memory.retrieval.routing`):
            its intent weighs each layer's candidates, and a time it names ("last
            May", "上周") raises the memories from that time.
        time_boost: Memories inside the time a query names score ``1 + time_boost``
            times higher (a boost, not a filter: an unsure date never hides a memory).
        recency_weight: How much recency decay weighs: a candidate scores
            ``1 − w + w·0.5^(age / half_life)`` times its relevance, its age counted
            from the newest candidate (so a store replayed from old data is not
            uniformly decayed). Off (0) by default: on LoCoMo, whose questions reach
            across months of history, every weight tried lowered recall (0.1 with a
            365-day half-life: 0.750 against 0.754 at 512 tokens). Episodes are
            weighed by their importance, which decays with age, either way.
        recency_half_life_days: Age at which the decay factor is one half.
        mmr_lambda: Maximal marginal relevance trade-off among the best ``mmr_pool``
            retrieved candidates: 1.0 (default) packs by score alone; lower values
            pass over candidates whose terms repeat what is already taken.
        mmr_pool: How many of the best retrieved candidates MMR reorders.
        rerank_top: How many of the best retrieved candidates the reranker given to
            the manager (``MemoryManager(reranker=...)``) reorders; 0 switches it off.
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
    importance_base: float = 0.5
    importance_age_step: float = 0.1
    importance_age_days: float = 30.0
    importance_age_cap: float = 0.3
    importance_access_step: float = 0.05
    importance_access_cap: float = 0.2
    importance_success: float = 0.1
    importance_failure: float = 0.05
    importance_alert: float = 0.15
    importance_complex_bonus: float = 0.1
    importance_complex_steps: int = 3
    explicit_confidence: float = 1.0
    confirmed_confidence: float = 0.8
    inferred_confidence: float = 0.6
    reinforce_step: float = 0.2
    correct_step: float = 0.4
    preference_threshold: float = 0.7
    stm_capacity_pages: int = 7
    stm_capacity_tokens: int = 4000
    chain_threshold: float = 0.6
    chain_summary_tokens: int = 60
    session_ttl_seconds: float = 86_400.0
    segment_threshold: float = 0.6
    midterm_capacity: int = 200
    segment_summary_tokens: int = 120
    heat_alpha: float = 1.0
    heat_beta: float = 1.0
    heat_gamma: float = 1.0
    heat_mu_seconds: float = 1e7
    heat_threshold: float = 5.0
    segments_per_query: int = 3
    segment_page_weight: float = 0.0
    segment_boost: float = 0.0
    segment_summary_weight: float = 0.5
    profile_share: float = 0.1
    long_term_k: int = 5
    long_term_dense_weight: float = 1.0
    long_term_weight: float = 0.5
    sensitivity: SensitivityPolicy | None = None
    working_share: float = 0.15
    dedup_threshold: float = 0.95
    dedup_window_days: float = 7.0
    routing: bool = True
    time_boost: float = 0.5
    recency_weight: float = 0.0
    recency_half_life_days: float = 30.0
    mmr_lambda: float = 1.0
    mmr_pool: int = 40
    rerank_top: int = 20

    def __post_init__(self) -> None:
        from .write.sensitivity import SensitivityPolicy  # here: write/ may import config

        policy = SensitivityPolicy.coerce(self.sensitivity) or SensitivityPolicy()
        object.__setattr__(self, "sensitivity", policy)
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
            "stm_capacity_pages",
            "stm_capacity_tokens",
            "chain_summary_tokens",
            "session_ttl_seconds",
            "midterm_capacity",
            "segment_summary_tokens",
            "heat_mu_seconds",
            "recency_half_life_days",
            "importance_age_days",
            "mmr_pool",
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
            "heat_alpha",
            "heat_beta",
            "heat_gamma",
            "heat_threshold",
            "segments_per_query",
            "segment_page_weight",
            "segment_boost",
            "segment_summary_weight",
            "long_term_k",
            "long_term_dense_weight",
            "long_term_weight",
            "time_boost",
            "dedup_window_days",
            "rerank_top",
            "importance_age_step",
            "importance_age_cap",
            "importance_access_step",
            "importance_access_cap",
            "importance_success",
            "importance_failure",
            "importance_alert",
            "importance_complex_bonus",
            "importance_complex_steps",
            "reinforce_step",
            "correct_step",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"MemoryConfig.{name} must be >= 0")
        if self.lexical_weight == 0 and self.dense_weight == 0:
            raise ValueError("MemoryConfig: lexical_weight and dense_weight cannot both be 0")
        if not 0 <= self.bm25_b <= 1:
            raise ValueError("MemoryConfig.bm25_b must be within [0, 1]")
        if not 0 <= self.profile_share <= 1:
            raise ValueError("MemoryConfig.profile_share must be within [0, 1]")
        for name in (
            "recency_weight",
            "mmr_lambda",
            "dedup_threshold",
            "importance_base",
            "explicit_confidence",
            "confirmed_confidence",
            "inferred_confidence",
            "preference_threshold",
        ):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"MemoryConfig.{name} must be within [0, 1]")
        if not 0 <= self.working_share <= 1:
            raise ValueError("MemoryConfig.working_share must be within [0, 1]")
        if not 0 <= self.session_share <= 1:
            raise ValueError("MemoryConfig.session_share must be within [0, 1]")
        if self.neighbor_window < 0 or self.recent_messages < 0:
            raise ValueError("MemoryConfig.neighbor_window and recent_messages must be >= 0")
