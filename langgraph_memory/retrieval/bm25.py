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

import numpy as np

__all__ = ["bm25_arrays", "bm25_matrix", "bm25_scores", "best", "idf"]

#: ``(lists, doc_len)``: posting lists by term and the lengths of their documents.
Fetched = tuple[Mapping[str, Sequence[tuple[int, int]]], Mapping[int, int]]


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
    top: int | None = None,
    df: Mapping[str, int] | None = None,
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
        top: Keep only the best ``top`` documents (default: all).
        df: Each term's document frequency, when ``postings`` holds only part of its
            list (default: the length of its list).

    Returns:
        ``(doc, score)`` pairs, best first; documents with no term are absent.
    """
    avg = avg_len if avg_len > 0 else 1.0
    docs: list[np.ndarray] = []
    contrib: list[np.ndarray] = []
    for term, plist in postings.items():
        if not plist:
            continue
        freq = df[term] if df is not None else len(plist)
        weight = idf(n_docs, freq) * (query_counts.get(term, 1) if query_counts else 1)
        seqs, tfs = zip(*plist, strict=True)
        tf = np.asarray(tfs, dtype=np.float64)
        dl = np.fromiter((doc_len.get(d, avg) for d in seqs), np.float64, len(seqs))
        docs.append(np.asarray(seqs, dtype=np.int64))
        contrib.append(_contribution(weight, tf, dl, avg, k1, b))
    return _rank(docs, contrib, top)


def bm25_arrays(
    postings: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray]],
    *,
    n_docs: int,
    avg_len: float,
    query_counts: Mapping[str, int] | None = None,
    k1: float = 1.2,
    b: float = 0.75,
    top: int | None = None,
) -> list[tuple[int, float]]:
    """:func:`bm25_scores` over whole posting lists held as arrays, same scores to the bit.

    Args:
        postings: For each query term, ``(docs, term_frequencies, doc_lengths)`` of its
            whole posting list (its length is the term's document frequency).

    Example:
        >>> cat = (np.array([1, 2]), np.array([2, 1]), np.array([4, 6]))
        >>> bm25_arrays({"cat": cat}, n_docs=3, avg_len=4.0) == bm25_scores(
        ...     {"cat": [(1, 2), (2, 1)]}, n_docs=3, avg_len=4.0, doc_len={1: 4, 2: 6})
        True
    """
    avg = avg_len if avg_len > 0 else 1.0
    docs: list[np.ndarray] = []
    contrib: list[np.ndarray] = []
    for term, (seqs, tfs, dls) in postings.items():
        if len(seqs) == 0:
            continue
        weight = idf(n_docs, len(seqs)) * (query_counts.get(term, 1) if query_counts else 1)
        tf = np.asarray(tfs, dtype=np.float64)
        docs.append(np.asarray(seqs, dtype=np.int64))
        contrib.append(_contribution(weight, tf, np.asarray(dls, dtype=np.float64), avg, k1, b))
    return _rank(docs, contrib, top)


def bm25_matrix(
    tf: np.ndarray,
    doc_len: np.ndarray,
    weights: Sequence[float],
    *,
    avg_len: float,
    k1: float = 1.2,
    b: float = 0.75,
) -> np.ndarray:
    """The BM25 score of each row of a document x term matrix, those of
    :func:`bm25_scores` to the bit (each term's contribution added in term order).

    Args:
        tf: ``tf[i, j]``: how often query term ``j`` occurs in document ``i`` (0: not).
        doc_len: Each document's length in terms.
        weights: Each term's weight: its idf times its count in the query.
        avg_len: Average document length in terms.
        k1: Term-frequency saturation.
        b: Length normalisation.

    Returns:
        The scores (0 for a document holding no term).

    Example:
        >>> s = bm25_matrix(np.array([[2.0], [1.0]]), np.array([4.0, 6.0]), [idf(3, 2)],
        ...                 avg_len=4.0)
        >>> best(np.array([1, 2]), s, None) == bm25_scores(
        ...     {"cat": [(1, 2), (2, 1)]}, n_docs=3, avg_len=4.0, doc_len={1: 4, 2: 6})
        True
    """
    avg = avg_len if avg_len > 0 else 1.0
    totals = np.zeros(len(tf), dtype=np.float64)
    for j, weight in enumerate(weights):
        held = tf[:, j] > 0
        totals[held] += _contribution(weight, tf[held, j], doc_len[held], avg, k1, b)
    return totals


def _contribution(
    weight: float, tf: np.ndarray, dl: np.ndarray, avg: float, k1: float, b: float
) -> np.ndarray:
    norm = tf + k1 * (1 - b + b * dl / avg)
    return weight * tf * (k1 + 1) / norm


def _rank(
    docs: list[np.ndarray], contrib: list[np.ndarray], top: int | None
) -> list[tuple[int, float]]:
    if not docs:
        return []
    # Summed per document in term order (bincount adds in input order), so the
    # scores are those of a plain Python loop, to the last bit.
    uniq, inverse = np.unique(np.concatenate(docs), return_inverse=True)
    totals = np.bincount(inverse, weights=np.concatenate(contrib), minlength=len(uniq))
    return best(uniq, totals, top)


def best(docs: np.ndarray, totals: np.ndarray, top: int | None) -> list[tuple[int, float]]:
    """``(doc, score)`` of the ``top`` best-scoring documents (default: all), best first,
    ties by document (smaller first); ``docs`` holds each document once."""
    if top is not None and top < len(docs):
        # Everything scoring at least the top-th score (ties at the cut included).
        cut = np.partition(totals, len(totals) - top)[len(totals) - top]
        keep = totals >= cut
        docs, totals = docs[keep], totals[keep]
    order = np.lexsort((docs, -totals))
    if top is not None:
        order = order[:top]
    return list(zip(docs[order].tolist(), totals[order].tolist(), strict=True))
