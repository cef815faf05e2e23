"""Reciprocal rank fusion (Cormack et al., 2009).

Example:
    >>> fused = rrf_fuse({"bm25": ["a", "b"], "dense": ["b", "c"]}, k=60)
    >>> [doc for doc, _, _ in fused]
    ['b', 'a', 'c']
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

__all__ = ["rrf_fuse"]

K = TypeVar("K", bound=Hashable)


def rrf_fuse(
    rankings: Mapping[str, Sequence[K]],
    *,
    k: int = 60,
    weights: Mapping[str, float] | None = None,
) -> list[tuple[K, float, dict[str, float]]]:
    """Fuse rankings by weighted reciprocal rank.

    Args:
        rankings: Named rankings, best first.
        k: The RRF constant.
        weights: Per-ranking weight (default 1).

    Returns:
        ``(doc, score, parts)`` best first, where ``parts`` holds each ranking's
        1-based rank of the doc (``<name>_rank``) and the fused ``rrf`` score.
        Ties keep first-seen order.
    """
    scores: dict[K, float] = {}
    parts: dict[K, dict[str, float]] = {}
    for name, ranked in rankings.items():
        w = 1.0 if weights is None else float(weights.get(name, 1.0))
        for rank, doc in enumerate(ranked, start=1):
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
            parts.setdefault(doc, {})[f"{name}_rank"] = float(rank)
    order = sorted(scores, key=lambda d: -scores[d])
    out = []
    for doc in order:
        p = parts[doc]
        p["rrf"] = scores[doc]
        out.append((doc, scores[doc], p))
    return out
