"""Matching and ranking for :class:`~langgraph_memory.integrations.graph.store.MemoryStore`.

Three pure pieces, kept apart from the storage code:

* :func:`matches_filter` — LangGraph's store filter language (``$eq $ne $gt
  $gte $lt $lte``, nested dicts, lists compared element by element), with the
  same results as ``InMemoryStore``;
* :func:`namespace_matches` — prefix/suffix conditions with ``"*"`` wildcards;
* :func:`hybrid_rank` — BM25 + dense cosine over each item's indexed texts,
  max-pooled per item and fused by the hybrid ranker
  (:class:`~langgraph_memory.retrieval.hybrid.HybridRanker`). Ties share a rank,
  so two items with equal evidence get equal scores;
* :func:`relevance` — the score a search item shows: its calibrated relevance in
  ``[0, 1]`` (its best cosine with the query and the share of the query's words its
  texts have, see :func:`~langgraph_memory.retrieval.scoring.calibrated_relevance`),
  at most that of the items ranked above it. An unrelated item scores near 0 even
  when it is the best there is.

Example:
    >>> matches_filter({"score": 4.5, "color": "red"}, {"score": {"$gt": 3}, "color": "red"})
    True
    >>> namespace_matches(("users", "42", "prefs"), "prefix", ("users", "*"))
    True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from langgraph_memory.config import RetrievalSection
from langgraph_memory.retrieval.bm25 import bm25_scores
from langgraph_memory.retrieval.hybrid import HybridRanker
from langgraph_memory.retrieval.scoring import calibrated_relevance
from langgraph_memory.retrieval.vectors import VectorMatrix

__all__ = ["matches_filter", "namespace_matches", "hybrid_rank", "IndexedText", "relevance"]

_OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")


def _apply(op: str, actual: Any, expected: Any) -> bool:
    if op == "$eq":
        return bool(actual == expected)
    if op == "$ne":
        return bool(actual != expected)
    try:
        a, e = float(actual), float(expected)
    except (TypeError, ValueError):
        return False
    if op == "$gt":
        return a > e
    if op == "$gte":
        return a >= e
    if op == "$lt":
        return a < e
    return a <= e


def _match(actual: Any, expected: Any) -> bool:
    if isinstance(expected, Mapping):
        if any(str(k).startswith("$") for k in expected):
            unknown = [k for k in expected if k not in _OPERATORS]
            if unknown:
                raise ValueError(f"Unsupported operator: {unknown[0]}; use one of {_OPERATORS}")
            return all(_apply(op, actual, v) for op, v in expected.items())
        return isinstance(actual, Mapping) and all(
            _match(actual.get(k), v) for k, v in expected.items()
        )
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(actual) == len(expected)
            and all(_match(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return bool(actual == expected)


def matches_filter(value: Mapping[str, Any], flt: Mapping[str, Any] | None) -> bool:
    """Whether an item's value satisfies a LangGraph store filter.

    Top-level keys are AND-ed. A literal means equality (a list equals a list of
    the same elements in order); a dict of ``$`` operators compares (``$gt``...
    numerically); any other dict matches a nested dict key by key.

    Raises:
        ValueError: On an unknown ``$`` operator.
    """
    return not flt or all(_match(value.get(k), v) for k, v in flt.items())


def namespace_matches(namespace: Sequence[str], match_type: str, path: Sequence[str]) -> bool:
    """Whether ``namespace`` starts (``"prefix"``) or ends (``"suffix"``) with ``path``.

    ``"*"`` in ``path`` matches exactly one label.
    """
    if len(namespace) < len(path):
        return False
    if match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise ValueError(f"Unsupported match type: {match_type!r}; use 'prefix' or 'suffix'")
    return all(p == "*" or n == p for n, p in pairs)


@dataclass(slots=True)
class IndexedText:
    """One indexed text of an item: its lexical terms and (optional) vector."""

    item: int
    terms: list[str]
    vector: np.ndarray | None


def _max_pool(pairs: Sequence[tuple[int, float]], docs: Sequence[IndexedText]) -> dict[int, float]:
    best: dict[int, float] = {}
    for doc, score in pairs:
        item = docs[doc].item
        if item not in best or score > best[item]:
            best[item] = score
    return best


def hybrid_rank(
    docs: Sequence[IndexedText],
    query_terms: Sequence[str],
    query_vector: np.ndarray | None,
    *,
    rrf_k: int = 60,
    lexical_weight: float = 1.0,
    dense_weight: float = 1.0,
    k1: float = 1.2,
    b: float = 0.75,
) -> list[tuple[int, float]]:
    """Rank items by BM25 + dense cosine over their indexed texts, fused by RRF.

    Each text is a document; an item's BM25 score and cosine are the best of its
    texts (max pooling, as LangGraph's stores do for cosine). Items are ranked per
    signal with shared ranks for ties, and the fused score is normalised so an
    item ranked first by every signal scores ``1.0``.

    Args:
        docs: The indexed texts, each naming its item.
        query_terms: The query's lexical terms.
        query_vector: The query embedding (``None``: lexical only).
        rrf_k: The RRF constant.
        lexical_weight: Weight of the BM25 ranking.
        dense_weight: Weight of the dense ranking.
        k1: BM25 term-frequency saturation.
        b: BM25 length normalisation.

    Returns:
        ``(item, score)`` for every item either signal ranks, best first
        (ties keep item order).

    Example:
        >>> v = np.eye(2, dtype=np.float32)
        >>> docs = [IndexedText(0, ["red", "apple"], v[0]), IndexedText(1, ["car"], v[1])]
        >>> [(item, round(score, 3)) for item, score in hybrid_rank(docs, ["apple"], v[0])]
        [(0, 1.0), (1, 0.492)]
    """
    rankings: dict[str, list[tuple[int, float]]] = {}
    counts = Counter(query_terms)
    if lexical_weight > 0:
        lexical: list[tuple[int, float]] = []
        if counts and docs:
            postings: dict[str, list[tuple[int, int]]] = {t: [] for t in counts}
            for d, doc in enumerate(docs):
                tf = Counter(doc.terms)
                for t in counts:
                    if tf[t]:
                        postings[t].append((d, tf[t]))
            lengths = {d: len(doc.terms) for d, doc in enumerate(docs)}
            lexical = bm25_scores(
                postings,
                n_docs=len(docs),
                avg_len=sum(lengths.values()) / len(docs),
                doc_len=lengths,
                query_counts=counts,
                k1=k1,
                b=b,
            )
        rankings["bm25"] = list(_max_pool(lexical, docs).items())
    with_vectors = [(d, doc.vector) for d, doc in enumerate(docs) if doc.vector is not None]
    if dense_weight > 0 and query_vector is not None:
        dense: list[tuple[int, float]] = []
        if with_vectors:
            matrix = VectorMatrix(len(query_vector))
            matrix.append([d for d, _ in with_vectors], np.stack([v for _, v in with_vectors]))
            dense = matrix.search(query_vector, len(with_vectors))
        rankings["dense"] = list(_max_pool(dense, docs).items())
    if not rankings:
        return []
    ranker = HybridRanker(rrf_k=rrf_k, lexical_weight=lexical_weight, dense_weight=dense_weight)
    return [(f.key, f.score) for f in ranker.fuse(rankings, shared_ties=True, normalise="top")]


def relevance(
    docs: Sequence[IndexedText],
    ranked: Sequence[tuple[int, float]],
    query_terms: Sequence[str],
    query_vector: np.ndarray | None,
    retrieval: RetrievalSection | None = None,
) -> list[tuple[int, float]]:
    """``(item, relevance)`` in the order of ``ranked`` (:func:`hybrid_rank`): each item's
    calibrated relevance from its best cosine with the query and the largest share of
    the query's terms one of its texts has, capped by the relevance of the items ranked
    above it (so the scores fall down the list).

    Example:
        >>> v = np.eye(2, dtype=np.float32)
        >>> docs = [IndexedText(0, ["red", "apple"], v[0]), IndexedText(1, ["car"], v[1])]
        >>> ranked = hybrid_rank(docs, ["apple"], v[0])
        >>> [(item, round(score, 2)) for item, score in relevance(docs, ranked, ["apple"], v[0])]
        [(0, 1.0), (1, 0.01)]
    """
    cfg = retrieval or RetrievalSection()
    terms = set(query_terms)
    best_cos: dict[int, float] = {}
    best_cov: dict[int, float] = {}
    qv = None
    if query_vector is not None:
        norm = float(np.linalg.norm(query_vector))
        qv = query_vector / norm if norm > 0 else None
    for doc in docs:
        if terms:
            cov = len(terms & set(doc.terms)) / len(terms)
            best_cov[doc.item] = max(best_cov.get(doc.item, 0.0), cov)
        if qv is not None and doc.vector is not None:
            vn = float(np.linalg.norm(doc.vector))
            if vn > 0:
                cos = float(doc.vector @ qv) / vn
                best_cos[doc.item] = max(best_cos.get(doc.item, -1.0), cos)
    out: list[tuple[int, float]] = []
    ceiling = 1.0
    for item, _ in ranked:
        value = calibrated_relevance(
            best_cos.get(item),
            best_cov.get(item, 0.0),
            cosine_mid=cfg.relevance_cosine_mid,
            cosine_scale=cfg.relevance_cosine_scale,
            lexical_weight=cfg.relevance_lexical_weight,
        )
        ceiling = min(ceiling, value)
        out.append((item, ceiling))
    return out
