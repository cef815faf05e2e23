"""The scores of retrieved candidates: adjusted, reranked, diversified, credited.

Candidates are scored relevance × the query route's layer weight × time match ×
recency × importance (:func:`rescore`), optionally reordered by a cross-encoder
(:func:`rerank`) and diversified by MMR (:func:`diversify`); messages whose page sits
in a retrieved mid-term segment say so (:func:`credit_segments`).

Example:
    >>> from langgraph_memory.config import RetrievalSection
    >>> from langgraph_memory.core.context import ContextItem
    >>> a = ContextItem("message", "user: tea", 1, 0.5, {}, ["m1"], "retrieved")
    >>> b = ContextItem("message", "user: coffee", 1, 0.9, {}, ["m2"], "retrieved")
    >>> [it.source_ids[0] for it in diversify([a, b], RetrievalSection())]
    ['m2', 'm1']
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone

import numpy as np

from langgraph_memory.config import PackingSection, RetrievalSection
from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.layers.hierarchy.placement import RankedSegment
from langgraph_memory.read.rerank import Reranker, checked_scores
from langgraph_memory.read.routing import Route
from langgraph_memory.retrieval.scoring import age_days, mmr_order, recency_decay

log = logging.getLogger(__name__)

__all__ = ["rescore", "rerank", "diversify", "credit_segments", "ROUTE_LAYER"]

#: The routing layer that weighs each context layer's candidates.
ROUTE_LAYER = {
    "message": "messages",
    "neighbor": "messages",
    "short_term": "short_term",
    "mid_term": "mid_term",
    "segment_page": "mid_term",
    "profile": "profile",
    "fact": "facts",
    "trait": "facts",
    "episode": "episodes",
    "knowledge": "knowledge",
    "chunk": "knowledge",
}


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def rescore(
    items: list[ContextItem],
    route: Route | None,
    retrieval: RetrievalSection,
    packing: PackingSection,
) -> None:
    """Relevance × route weight of the layer × time match × recency × importance ×
    length (``(long_item_tokens / tokens) ** length_penalty`` for a longer item).

    Every factor other than 1 is recorded in the item's ``score_parts`` and
    named in its reason.
    """
    stamps = [it.timestamp for it in items if it.timestamp is not None]
    newest = max(stamps) if stamps else None
    for it in items:
        factors: dict[str, float] = {}
        if route is not None:
            factors["route_weight"] = route.weight(ROUTE_LAYER.get(it.layer, "messages"))
            if route.time_range is not None and it.timestamp is not None:
                start, end = route.time_range
                if start <= _aware(it.timestamp) < end:
                    factors["time_match"] = 1.0 + retrieval.time_boost
        if retrieval.recency_weight > 0 and newest is not None and it.timestamp is not None:
            decay = recency_decay(
                age_days(it.timestamp, newest), half_life_days=retrieval.recency_half_life_days
            )
            factors["recency"] = 1.0 - retrieval.recency_weight + retrieval.recency_weight * decay
        if "importance" in it.score_parts:
            factors["importance_factor"] = 0.5 + it.score_parts["importance"]
        if packing.length_penalty > 0 and it.tokens > packing.long_item_tokens:
            # a long item is worth its tokens only when it is much more relevant
            factors["length"] = (packing.long_item_tokens / it.tokens) ** packing.length_penalty
        factors = {k: v for k, v in factors.items() if v != 1.0}
        if not factors:
            continue
        it.score_parts["relevance"] = it.score
        for name, value in factors.items():
            it.score *= value
            it.score_parts[name] = value
        if "time_match" in factors:
            it.reason += "; said within the time the query names"
        if route is not None and factors.get("route_weight", 1.0) != 1.0:
            it.reason += f"; weighed {factors['route_weight']:.2f} for a {route.intent} query"


def rerank(reranker: Reranker | None, query: str, items: list[ContextItem], top: int) -> None:
    """Reorder the best ``top`` candidates by the cross-encoder, if one is given.

    The reordered items take over the scores of the places they move to, so
    they keep their standing against the candidates not reranked.
    """
    if reranker is None or top <= 0 or len(items) < 2:
        return
    best = sorted(items, key=lambda it: -it.score)[:top]
    try:  # a reranker's bad output keeps the fused order, it never fails the read
        scores = checked_scores(reranker.rerank(query, [it.text for it in best]), len(best))
    except ValueError as exc:
        log.warning("reranking skipped: %s", exc)
        return
    order = sorted(range(len(best)), key=lambda i: (-scores[i], i))
    places = [it.score for it in best]
    for rank, i in enumerate(order, start=1):
        it = best[i]
        it.score_parts["rerank_score"] = float(scores[i])
        it.score_parts["rerank_rank"] = float(rank)
        it.score = places[rank - 1]
        it.reason += f"; reranked to {rank} by the cross-encoder"


def diversify(items: list[ContextItem], retrieval: RetrievalSection) -> list[ContextItem]:
    """Items best first; with ``mmr_lambda`` < 1 the best ``mmr_pool`` in MMR order.

    Similarity is the cosine of the items' term sets (as 0/1 rows for
    :func:`~langgraph_memory.retrieval.scoring.mmr_order`), so no vector is fetched.
    """
    ranked = sorted(items, key=lambda it: -it.score)
    if retrieval.mmr_lambda >= 1.0 or len(ranked) < 3:
        return ranked
    pool, rest = ranked[: retrieval.mmr_pool], ranked[retrieval.mmr_pool :]
    terms = [set(tokenize(it.text)) for it in pool]
    vocab = {t: j for j, t in enumerate(sorted(set().union(*terms)))}
    rows = np.zeros((len(pool), max(len(vocab), 1)), dtype=np.float32)
    for i, ts in enumerate(terms):
        rows[i, [vocab[t] for t in ts]] = 1.0
    chosen = mmr_order([it.score for it in pool], rows, lambda_=retrieval.mmr_lambda)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit = rows / np.where(norms == 0, 1.0, norms)
    for n, i in enumerate(chosen[1:], start=1):
        redundancy = float((unit[chosen[:n]] @ unit[i]).max())
        if redundancy > 0:
            pool[i].score_parts["mmr_redundancy"] = redundancy
    return [pool[i] for i in chosen] + rest


def credit_segments(
    items: list[ContextItem],
    segments: Sequence[RankedSegment],
    segment_of: Mapping[int, str],
    boost: float,
) -> None:
    """Messages whose page is in a retrieved segment: say so, and boost them by
    ``1 + boost`` (those retrieved through their segment are not boosted again).

    Args:
        items: The candidates.
        segments: The segments retrieved for the query, best first.
        segment_of: Message seq -> id of the segment holding its page.
        boost: The boost.
    """
    rank_of = {seg.id: r for r, (seg, _, _) in enumerate(segments, start=1)}
    for it in items:
        if it.layer not in ("message", "neighbor", "segment_page"):
            continue
        sid = segment_of.get(it.order)
        if sid in rank_of:
            if it.layer != "segment_page":
                it.score *= 1.0 + boost
            it.score_parts["segment_rank"] = float(rank_of[sid])
            it.reason += f"; its page is in retrieved segment {sid}"
