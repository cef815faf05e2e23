"""How long-term entries are ranked for a query: by words and by meaning, fused.

Current facts, agent traits, episodes, knowledge... (the read path's long-term
documents, :class:`LongTermDoc`) are ranked against the query by hybrid search
(:func:`rank_hybrid`): a BM25-like term score over their texts (English and
Chinese tokenisation) and the cosine of their embedding with the query's, fused
by reciprocal rank. Entries sharing terms with the query are offered; one that
shares none only when it is close enough by meaning. Without embeddings the term
score alone ranks them (:func:`rank_docs`).

Example:
    >>> from datetime import datetime, timezone
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> docs = [LongTermDoc("f1", "fact", "User lives in Lyon", ["m1"], t),
    ...         LongTermDoc("f2", "fact", "User works at ACME", ["m2"], t)]
    >>> [(d.id, round(s, 2) > 0) for d, s in rank_docs(docs, "where does the user live? Lyon")]
    [('f1', True)]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, NamedTuple

import numpy as np

from langgraph_memory.core.held_texts import text_cache
from langgraph_memory.core.tokens import terms_of, tokenize
from langgraph_memory.retrieval.hybrid import HybridRanker
from langgraph_memory.retrieval.vectors import cosines

__all__ = [
    "LongTermDoc",
    "LongTermLayer",
    "RankedDoc",
    "TermRanking",
    "fuse_ranked",
    "rank_docs",
    "rank_hybrid",
]


#: The long-term layers an entry comes from.
LongTermLayer = Literal[
    "profile",
    "fact",
    "trait",
    "episode",
    "knowledge",
    "lesson",
    "insight",
    "contradiction",
    "rollup",
    "entity",
    "chunk",
    "passage",
]


@dataclass(slots=True)
class LongTermDoc:
    """One long-term entry as the read path sees it."""

    id: str
    layer: LongTermLayer
    text: str
    source_ids: list[str]
    timestamp: datetime | None = None
    #: In ``[0, 1]`` for entries that have one (episodes), else ``None``.
    importance: float | None = None
    #: What it is about, for entries about one thing (an entity's name).
    title: str | None = None
    #: What a hit shows beside the text (a document chunk's document, version, status).
    meta: dict[str, Any] | None = None


class RankedDoc(NamedTuple):
    """A long-term entry ranked for a query."""

    doc: LongTermDoc
    score: float
    #: ``term_score`` and ``bm25_rank`` (when it shares terms), ``cosine`` and
    #: ``dense_rank`` (with vectors) and ``rrf``.
    parts: dict[str, float]


@text_cache(maxsize=65_536)
def _terms(text: str) -> Counter[str]:
    """A long-term entry's term counts (entries are read again for every query; their
    texts seldom change). Callers only read the counts."""
    return Counter(tokenize(text))


def rank_docs(
    docs: Sequence[LongTermDoc], query: str | Collection[str], k: int | None = None
) -> list[tuple[LongTermDoc, float]]:
    """Docs sharing terms with ``query`` (its text, or its terms), best first.

    The score is ``Σ log(1 + N/df)·tf/(tf + 1.2)`` over the query terms a doc has
    (BM25's idf is degenerate on the few entries of one user); a term every doc
    shares (such as "user") does not count when there are several docs, unless no
    doc has any other query term: then the shared terms rank them (several episodes
    and their knowledge, all about "重启 nginx 容器", still answer that query).

    Example:
        >>> from datetime import datetime, timezone
        >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
        >>> docs = [LongTermDoc("e1", "episode", "重启 nginx 容器: 成功", [], t),
        ...         LongTermDoc("e2", "episode", "重启 nginx 容器 两次", [], t)]
        >>> [d.id for d, _ in rank_docs(docs, "怎么重启 nginx 容器？")]
        ['e1', 'e2']
    """
    terms = terms_of(query)
    if not docs or not terms:
        return []
    counts = [_terms(d.text) for d in docs]
    n = len(docs)
    df = {t: sum(1 for c in counts if c.get(t)) for t in terms}
    shared_only = n > 1 and all(df[t] in (0, n) for t in terms)
    scored: list[tuple[float, int]] = []
    for i, c in enumerate(counts):
        score = sum(
            math.log(1 + n / df[t]) * c[t] / (c[t] + 1.2)
            for t in terms
            if c.get(t) and (df[t] < n or n == 1 or shared_only)
        )
        if score > 0:
            scored.append((score, i))
    scored.sort(key=lambda x: (-x[0], x[1]))
    out = [(docs[i], s) for s, i in scored]
    return out[:k] if k is not None else out


def rank_hybrid(
    docs: Sequence[LongTermDoc],
    query: str | Collection[str],
    k: int | None = None,
    *,
    query_vector: np.ndarray | None = None,
    doc_vectors: np.ndarray | None = None,
    lexical_weight: float = 1.0,
    dense_weight: float = 1.0,
    rrf_k: int = 60,
    min_cosine: float | None = None,
) -> list[RankedDoc]:
    """Docs best first by the reciprocal rank fusion of :func:`rank_docs` and cosine.

    The term ranking holds the docs sharing terms with the query; the dense ranking
    holds every doc, by the cosine of its vector (``doc_vectors``, one row per doc)
    with ``query_vector``. A doc's score is its fused RRF score normalised by the
    weights of the rankings used, so ranked ``r`` by both (or by terms alone, when
    there are no vectors) it scores ``1 / (rrf_k + r)``. A doc outside the term
    ranking is offered only when its cosine is at least ``min_cosine`` (any doc when
    ``None``). Without vectors, or with ``dense_weight`` 0, this is :func:`rank_docs`
    (the words-only ranking).

    Returns:
        ``(doc, score, parts)``; ``parts`` has ``term_score`` and ``bm25_rank`` (when
        it shares terms), ``cosine`` and ``dense_rank`` (with vectors) and ``rrf``.

    Example:
        >>> from datetime import datetime, timezone
        >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
        >>> docs = [LongTermDoc("f1", "fact", "User likes jazz", [], t),
        ...         LongTermDoc("f2", "fact", "User owns a cat", [], t)]
        >>> vecs = np.array([[1.0, 0.0], [0.0, 1.0]])
        >>> ranked = rank_hybrid(docs, "which music?", query_vector=np.array([0.9, 0.1]),
        ...                      doc_vectors=vecs, min_cosine=0.5)
        >>> [(d.id, sorted(p)) for d, _, p in ranked]  # no shared word: found by meaning
        [('f1', ['cosine', 'dense_rank', 'rrf'])]
    """
    lexical = rank_docs(docs, query) if lexical_weight > 0 else []
    use_dense = (
        dense_weight > 0
        and query_vector is not None
        and doc_vectors is not None
        and len(docs) > 0
        and len(doc_vectors) == len(docs)
    )
    index = {id(d): i for i, d in enumerate(docs)}
    if not use_dense:  # words alone, whatever their weight
        lexical = lexical or rank_docs(docs, query)
    cos = cosines(doc_vectors, query_vector) if use_dense else None  # type: ignore[arg-type]
    fused = fuse_ranked(
        TermRanking.of([(index[id(d)], s) for d, s in lexical]),
        cos,
        k,
        lexical_weight=lexical_weight,
        dense_weight=dense_weight,
        rrf_k=rrf_k,
        min_cosine=min_cosine,
    )
    return [RankedDoc(docs[i], score, parts) for i, score, parts in fused]


class TermRanking(NamedTuple):
    """A term ranking on entry positions, best first: the positions and their term scores."""

    rows: np.ndarray
    scores: np.ndarray

    @classmethod
    def of(cls, ranked: Sequence[tuple[int, float]]) -> TermRanking:
        """From ``(position, term score)`` pairs, best first."""
        return cls(
            np.fromiter((i for i, _ in ranked), dtype=np.int64, count=len(ranked)),
            np.fromiter((s for _, s in ranked), dtype=np.float64, count=len(ranked)),
        )


def fuse_ranked(
    lexical: TermRanking,
    cos: np.ndarray | None,
    k: int | None,
    *,
    lexical_weight: float = 1.0,
    dense_weight: float = 1.0,
    rrf_k: int = 60,
    min_cosine: float | None = None,
    ties: np.ndarray | None = None,
) -> list[tuple[int, float, dict[str, float]]]:
    """The fusion behind :func:`rank_hybrid`, on entry positions: ``lexical`` is the
    term ranking (positions and term scores, best first), ``cos`` the cosine of every
    position with the query (NaN for one to leave out of the dense ranking) or ``None``
    for words alone; equal cosines rank by ``ties`` (one value per position, lower
    first; by position when ``None``).

    Only the term ranking's best ``k`` and the dense ranking's head can be among the
    best ``k``, so only those are fused (a long term ranking costs its array, not a
    pass in Python).

    Returns:
        ``(position, score, parts)`` best first, at most ``k``.
    """
    rows, term_scores = lexical
    n_lex = len(rows)
    top = rows if k is None else rows[:k]
    if cos is None or dense_weight <= 0:
        ranked = list(zip(top.tolist(), term_scores[: len(top)].tolist(), strict=True))
        words = HybridRanker(rrf_k=rrf_k, lexical_weight=1.0).fuse(
            {"bm25": ranked}, normalise="weights"
        )
        term = dict(ranked)
        return [(f.key, f.score, {"term_score": term[f.key], **f.parts}) for f in words]
    if lexical_weight <= 0:
        rows, term_scores, n_lex, top = rows[:0], term_scores[:0], 0, rows[:0]
    # each position's place in the term ranking (0: not in it)
    lex_pos = np.zeros(len(cos), dtype=np.int64)
    lex_pos[rows] = np.arange(1, n_lex + 1)
    # the dense ranking's head: a doc below it and outside the term ranking is never
    # among the ``k`` returned (fusing thousands of entries cost more than ranking them)
    usable = np.flatnonzero(~np.isnan(cos))
    depth = len(usable) if k is None else min(len(usable), max(4 * k, 64))
    if depth < len(usable):
        head = usable[np.argpartition(-cos[usable], depth - 1)[:depth]]
    else:
        head = usable
    order = head if ties is None else ties[head]
    head = head[np.lexsort((order, -cos[head]))]
    # Reciprocal rank fusion of the term ranking and the dense head (as
    # HybridRanker.fuse: ties keep first-seen order, the term ranking first). Only the
    # term ranking's best ``k`` and the docs of the dense head can be among the best
    # ``k``: any other doc ranks below those ``k`` by terms and has no dense share.
    dense_rank = {int(i): r for r, i in enumerate(head.tolist(), 1)}
    seen: dict[int, int] = {i: r for r, i in enumerate(top.tolist(), 1)}
    for i, r in dense_rank.items():
        if i not in seen:
            seen[i] = int(lex_pos[i]) or n_lex + r
    total = (lexical_weight if n_lex else 0.0) + dense_weight
    scored = []
    for i, first in seen.items():
        raw = 0.0
        parts: dict[str, float] = {}
        lex_rank = int(lex_pos[i])
        if lex_rank:
            raw += lexical_weight / (rrf_k + lex_rank)
            parts["bm25_rank"] = float(lex_rank)
        if i in dense_rank:
            raw += dense_weight / (rrf_k + dense_rank[i])
            parts["dense_rank"] = float(dense_rank[i])
        scored.append((-raw, first, i, parts))
    scored.sort(key=lambda x: (x[0], x[1]))
    out: list[tuple[int, float, dict[str, float]]] = []
    for neg, _, i, parts in scored:
        c = float(cos[i])
        lex_rank = int(lex_pos[i])
        if not lex_rank and min_cosine is not None and not c >= min_cosine:
            continue
        parts["rrf"] = -neg / total
        if c == c:  # not NaN
            parts["cosine"] = c
        if lex_rank:
            parts["term_score"] = float(term_scores[lex_rank - 1])
        out.append((i, -neg / total, parts))
        if k is not None and len(out) >= k:
            break
    return out
