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
from collections.abc import Callable, Mapping, Sequence

import numpy as np

__all__ = ["bm25_arrays", "bm25_scores", "bm25_top", "idf"]

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
    if top is not None and top < len(uniq):
        # Everything scoring at least the top-th score (ties at the cut included).
        cut = np.partition(totals, len(totals) - top)[len(totals) - top]
        keep = totals >= cut
        uniq, totals = uniq[keep], totals[keep]
    order = np.lexsort((uniq, -totals))
    if top is not None:
        order = order[:top]
    return list(zip(uniq[order].tolist(), totals[order].tolist(), strict=True))


def bm25_top(
    query_counts: Mapping[str, int],
    df: Mapping[str, int],
    *,
    n_docs: int,
    avg_len: float,
    k: int,
    fetch_lists: Callable[[list[str]], Fetched],
    fetch_docs: Callable[[list[str], list[int]], Fetched],
    allowed: set[int] | None = None,
    k1: float = 1.2,
    b: float = 0.75,
) -> list[tuple[int, float]]:
    """The exact top ``k`` of :func:`bm25_scores` without reading every posting list.

    MaxScore pruning: a term can add at most ``idf · query count · (k1 + 1)`` to a
    document. Whole posting lists are read rarest term first; the documents in them
    are scored exactly (the other terms' frequencies are looked up for just those
    documents), and once the k-th best score exceeds what the unread terms could add
    together, no document outside can reach the top ``k``. Scores, order and ties
    equal ``bm25_scores(..., top=k)`` over the full lists bit for bit (same terms,
    same order of addition); in the worst case every list is read.

    Args:
        query_counts: Query terms (in query order) and how often each occurs.
        df: Each term's document frequency among the user's documents.
        n_docs: Documents of the user.
        avg_len: Their average length in terms.
        k: How many to return.
        fetch_lists: Whole posting lists of some terms, with document lengths.
        fetch_docs: The postings of some terms within some documents, with lengths.
        allowed: Only these documents may be returned.
        k1: Term-frequency saturation.
        b: Length normalisation.

    Example:
        >>> lists = {"cat": [(1, 1), (2, 1), (3, 1)], "mat": [(3, 2)]}
        >>> dl = {1: 3, 2: 3, 3: 4}
        >>> def full(ts):
        ...     return {t: lists[t] for t in ts}, dl
        >>> def some(ts, docs):
        ...     return {t: [p for p in lists[t] if p[0] in docs] for t in ts}, dl
        >>> bm25_top({"cat": 1, "mat": 1}, {"cat": 3, "mat": 1}, n_docs=10, avg_len=3.3,
        ...          k=1, fetch_lists=full, fetch_docs=some)[0][0]
        3
    """
    live = [t for t in query_counts if df.get(t, 0) > 0]
    if k <= 0 or not live or n_docs <= 0:
        return []
    bound = {t: idf(n_docs, df[t]) * query_counts[t] * (k1 + 1) for t in live}
    unread = sorted(live, key=lambda t: (-bound[t], t))  # rarest (highest bound) first
    lists: dict[str, list[tuple[int, int]]] = {}
    doc_len: dict[int, int] = {}

    def score(extra: Mapping[str, Sequence[tuple[int, int]]], docs: set[int]) -> list:
        parts: dict[str, Sequence[tuple[int, int]]] = {}
        for t in query_counts:  # the query's order, as bm25_scores adds
            if t in lists:
                parts[t] = lists[t] if allowed is None else [p for p in lists[t] if p[0] in docs]
            elif t in extra:
                parts[t] = extra[t]
        return bm25_scores(
            parts,
            n_docs=n_docs,
            avg_len=avg_len,
            doc_len=doc_len,
            query_counts=query_counts,
            k1=k1,
            b=b,
            top=k,
            df=df,
        )

    while True:
        docs = {d for plist in lists.values() for d, _ in plist}
        if allowed is not None:
            docs &= allowed
        if not unread:
            return score({}, docs)
        if len(docs) >= k:
            extra, more_len = fetch_docs(list(unread), sorted(docs))
            doc_len.update(more_len)
            ranked = score(extra, docs)
            reach = sum(bound[t] for t in unread)  # the most an unread-only document gets
            if len(ranked) >= k and reach * (1 + 1e-9) < ranked[k - 1][1]:
                return ranked
        term = unread.pop(0)
        got, more_len = fetch_lists([term])
        lists[term] = list(got.get(term, []))
        doc_len.update(more_len)
