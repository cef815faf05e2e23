"""Okapi BM25 over posting lists, shared by every backend so rankings agree.

IDF is SQLite FTS5's: ``log((N - n + 0.5) / (n + 0.5))`` floored at ``1e-6``.
Ties are broken by insertion order (older first) so results are deterministic.

Example:
    >>> scores = bm25_scores({"cat": [(1, 2), (2, 1)]}, n_docs=3, avg_len=4.0,
    ...                      doc_len={1: 4, 2: 6})
    >>> scores[0][0]
    1
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["bm25_scores", "idf"]


def idf(n_docs: int, df: int) -> float:
    """FTS5's BM25 inverse document frequency, floored at 1e-6."""
    value = math.log(max(n_docs - df + 0.5, 1e-9) / (df + 0.5))
    return value if value > 1e-6 else 1e-6


def bm25_scores(
    postings: Mapping[str, Sequence[tuple[int, int]]],
    *,
    n_docs: int,
    avg_len: float,
    doc_len: Mapping[int, int],
    query_counts: Mapping[str, int] | None = None,
    k1: float = 1.2,
    b: float = 0.75,
) -> list[tuple[int, float]]:
    """Score documents against query terms.

    Args:
        postings: For each query term, its ``(doc, term_frequency)`` postings.
        n_docs: Documents in the collection.
        avg_len: Average document length in terms.
        doc_len: Length of each document that appears in the postings.
        query_counts: How often each term occurs in the query (default 1).
        k1: Term-frequency saturation.
        b: Length normalisation.

    Returns:
        ``(doc, score)`` pairs, best first; documents with no term are absent.
    """
    scores: dict[int, float] = {}
    avg = avg_len if avg_len > 0 else 1.0
    for term, plist in postings.items():
        if not plist:
            continue
        weight = idf(n_docs, len(plist)) * (query_counts.get(term, 1) if query_counts else 1)
        for doc, tf in plist:
            norm = tf + k1 * (1 - b + b * doc_len.get(doc, avg) / avg)
            scores[doc] = scores.get(doc, 0.0) + weight * tf * (k1 + 1) / norm
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
