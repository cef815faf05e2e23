"""Exact BM25 top ``k`` of :class:`~.backend.PostgresBackend` without whole posting lists.

No I/O here: :func:`lexical_top` asks a ``fetch`` callback for the rows of one
region of the user's messages at a time, and the backend runs those in one snapshot.

How it stays exact. Each query term ``t`` can add at most ``ub(t)`` to a message's
score: its weight (idf x query count, the very weight of
:func:`~langgraph_memory.retrieval.bm25.bm25_scores`) times the largest
``tf (k1 + 1) / (tf + k1 (1 - b + b dl / avg))`` among its messages, which is at
most the value at the term's largest ``tf`` and its shortest message (``max_tf``
and ``min_len``, kept per user and term with ``df`` in ``lgm_term_stats``), and at
most ``k1 + 1``. A message holding the query terms ``S`` so scores at most
``UB(S) = sum of ub(t), t in S``. For a threshold ``tau``, the *region* ``R(tau)``,
the messages whose ``S`` has ``UB(S) >= tau``, is the OR of the minimal term sets
reaching ``tau`` (clauses), each an AND the GIN index answers. Regions are read for
falling ``tau`` (the first holds the few messages estimated to score best), each
read skipping what earlier ones read; every message read is scored exactly (each
query term's ``tf`` comes with its row, ``df`` from ``lgm_term_stats``). Once the
clauses read cover those of ``R(theta)``, ``theta`` the k-th best score so far,
every message not read scores below ``theta``, so the top ``k`` is final; at worst
``tau`` falls to 0, whose region is every message holding a query term: the full
read. Scores, order and ties are those of ``bm25_scores`` over the full lists, bit
for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from langgraph_memory.retrieval.bm25 import best, bm25_matrix, idf

__all__ = ["TermStat", "LexicalTrace", "term_bounds", "clauses", "thresholds", "lexical_top"]

#: Relative margin on every bound, far above the rounding of a sum of a few scores.
SLACK = 1e-9
#: Most clauses (minimal term sets) a region's tsquery gets; above, a coarser region
#: (MaxScore: every message holding an essential term) is fetched instead.
MAX_CLAUSES = 64
#: Query terms whose co-occurrences are enumerated to estimate region sizes (2^12 sets).
MAX_ESTIMATED_TERMS = 12
#: The first planned region holds about this many messages (by estimate), each later
#: one about ``GROWTH`` times as many. Small steps: a statement costs far less than
#: reading rows that turn out not to matter.
FIRST_REGION = 1
GROWTH = 4

#: Rows of a region: ``(seq, n_terms, tf of each term or None)``.
Row = tuple[int | None, ...]
#: ``fetch(terms, new, old)``: the rows of the messages that hold all terms of a clause
#: of ``new`` and of no clause of ``old`` (clauses: index tuples into ``terms``); when
#: ``old`` is empty (the first read), also those without a tsvector holding any term.
Fetch = Callable[
    [Sequence[str], Sequence[tuple[int, ...]], Sequence[tuple[int, ...]]], Sequence[Row]
]


class TermStat(NamedTuple):
    """What ``lgm_term_stats`` keeps of one term of one user."""

    df: int
    """Messages holding the term."""
    max_tf: int
    """Its largest count in one message."""
    min_len: int
    """The fewest terms of a message holding it."""


class LexicalTrace(NamedTuple):
    """How the last lexical search went (for tests and tuning)."""

    rows: int
    """Message rows read."""
    rounds: int
    """Statements that read rows."""
    full: bool
    """Whether every message holding a query term was read (nothing pruned)."""


def term_bounds(
    counts: Mapping[str, int],
    stats: Mapping[str, TermStat],
    *,
    n_docs: int,
    avg_len: float,
    k1: float,
    b: float,
) -> dict[str, float]:
    """The most each term can add to a message's BM25 score (see the module docstring).

    Only ``0 <= b <= 1`` and ``k1 >= 0`` bound the contribution; the caller checks that.

    Example:
        >>> round(term_bounds({"cat": 1}, {"cat": TermStat(3, 1, 4)}, n_docs=10,
        ...                   avg_len=4.0, k1=1.2, b=0.75)["cat"], 4)
        0.7621
    """
    avg = avg_len if avg_len > 0 else 1.0
    out = {}
    for term, count in counts.items():
        st = stats.get(term)
        if st is None or st.df <= 0:
            continue
        tf, dl = float(st.max_tf), float(st.min_len)
        saturation = min(tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avg)), k1 + 1)
        out[term] = idf(n_docs, st.df) * count * saturation * (1 + SLACK)
    return out


def clauses(bounds: Sequence[float], tau: float) -> list[tuple[int, ...]]:
    """Term sets (indexes into ``bounds``) whose messages make up the region ``R(tau)``.

    The minimal sets whose bounds add up to ``tau``; more than :data:`MAX_CLAUSES` of
    them, or ``tau <= 0``, give single terms instead: those not among the weakest
    terms whose bounds together stay below ``tau`` (MaxScore's essential terms), a
    region holding ``R(tau)``.

    Example:
        >>> clauses([3.0, 2.0, 1.0], 4.0)
        [(0, 1), (0, 2)]
        >>> clauses([3.0, 2.0, 2.0], 0.5)
        [(0,), (1,), (2,)]
    """
    order = sorted(range(len(bounds)), key=lambda i: (-bounds[i], i))
    essential: list[tuple[int, ...]] = []
    weak = 0.0
    for i in reversed(order):
        weak += bounds[i]
        if weak >= tau:
            essential = [(j,) for j in order[: order.index(i) + 1]]
            break
    if not essential:  # not even all terms together reach tau: R(tau) is empty
        return [tuple(range(len(bounds)))]
    if tau <= 0 or len(essential) == len(bounds):
        return sorted(essential)
    reach = [0.0] * (len(order) + 1)  # reach[j]: the bounds of order[j:] together
    for j in range(len(order) - 1, -1, -1):
        reach[j] = reach[j + 1] + bounds[order[j]]
    out: list[tuple[int, ...]] = []

    def walk(start: int, chosen: tuple[int, ...], total: float) -> bool:
        for j in range(start, len(order)):
            if total + reach[j] < tau:
                return True  # not even every remaining term reaches tau
            i = order[j]
            if total + bounds[i] >= tau:
                out.append(tuple(sorted((*chosen, i))))
                if len(out) > MAX_CLAUSES:
                    return False
            elif not walk(j + 1, (*chosen, i), total + bounds[i]):
                return False
        return True

    return sorted(out) if walk(0, (), 0.0) else sorted(essential)


def thresholds(bounds: Sequence[float], dfs: Sequence[int], n_docs: int) -> list[float]:
    """Falling thresholds whose regions hold about ``FIRST_REGION``, then ``GROWTH``
    times more messages each, ending with 0.

    Region sizes are estimated with terms independent, which undercounts terms that
    go together: each threshold is the lowest whose region stays within its size, so
    a region never jumps past many more messages than planned.
    Each is a set's bound lowered by :data:`SLACK`, so that its region holds that set
    (the bounds added in another order may differ in the last bit: the set left out,
    the next region reads past it). Only the cost depends on these; any falling
    sequence ending with 0 is exact.

    Example:
        >>> [round(x, 6) for x in thresholds([5.0, 1.0], [2, 900], 1000)]
        [5.0, 1.0, 0.0]
    """
    top = sorted(range(len(bounds)), key=lambda i: -bounds[i])[:MAX_ESTIMATED_TERMS]
    ub = np.asarray([bounds[i] for i in top], dtype=np.float64)
    p = np.asarray([min(dfs[i] / max(n_docs, 1), 1.0) for i in top], dtype=np.float64)
    masks = np.arange(1, 1 << len(top), dtype=np.int64)
    bits = ((masks[:, None] >> np.arange(len(top))) & 1).astype(bool)
    sums = bits.astype(np.float64) @ ub
    order = np.argsort(-sums, kind="stable")
    expected = np.cumsum(np.where(bits, p, 1 - p).prod(axis=1)[order]) * n_docs
    out: list[float] = []
    target = float(FIRST_REGION)
    while True:
        i = int(np.searchsorted(expected, target, side="right")) - 1
        level = float(sums[order[i]]) * (1 - SLACK) if i >= 0 else math.inf
        if 0 < level < (out[-1] if out else math.inf):
            out.append(level)
        if i >= len(expected) - 1:
            return [*out, 0.0]
        target *= GROWTH


class _Scored:
    """The messages read so far, each scored once (a score depends on the message alone:
    ``df`` comes from ``lgm_term_stats``, not from what was read)."""

    def __init__(self, weights: Sequence[float], avg_len: float, k1: float, b: float) -> None:
        self.weights = list(weights)
        self.avg_len, self.k1, self.b = avg_len, k1, b
        self.seqs = np.zeros(0, dtype=np.int64)
        self.totals = np.zeros(0, dtype=np.float64)

    def add(self, got: Sequence[Row]) -> None:
        """Score rows ``(seq, n_terms, tf of each term or None)``; a message read twice
        counts once, one holding no term not at all."""
        width = 2 + len(self.weights)
        table = np.array(got, dtype=np.float64).reshape(len(got), width)  # None: NaN
        tf = np.nan_to_num(table[:, 2:], nan=0.0)
        held = (tf > 0).any(axis=1)
        totals = bm25_matrix(
            tf[held], table[held, 1], self.weights, avg_len=self.avg_len, k1=self.k1, b=self.b
        )
        seqs = np.concatenate([self.seqs, table[held, 0].astype(np.int64)])
        totals = np.concatenate([self.totals, totals])
        self.seqs, first = np.unique(seqs, return_index=True)
        self.totals = totals[first]

    def top(self, k: int) -> list[tuple[int, float]]:
        """The best ``k`` as ``bm25_scores`` orders them (ties: smaller seq first)."""
        return best(self.seqs, self.totals, k)


def lexical_top(
    counts: Mapping[str, int],
    stats: Mapping[str, TermStat],
    *,
    n_docs: int,
    total_len: int,
    k: int,
    fetch: Fetch,
    prune: bool = True,
    k1: float = 1.2,
    b: float = 0.75,
) -> tuple[list[tuple[int, float]], LexicalTrace]:
    """The exact top ``k`` ``(seq, bm25)``, reading regions of falling bound.

    Args:
        counts: The query's terms in query order, with how often each occurs.
        stats: ``lgm_term_stats`` of the query's terms (absent: in no message).
        n_docs: The user's messages.
        total_len: Their terms together.
        k: How many to return (> 0).
        fetch: Rows of a region, as :data:`Fetch` (only messages that may be returned).
        prune: False: read every message holding a query term at once (one ``fetch``).
        k1: Term-frequency saturation (>= 0).
        b: Length normalisation (between 0 and 1).

    Returns:
        The ranking, as ``MemoryBackend.lexical_search`` gives it, and a trace.
    """
    terms = [t for t in counts if t in stats and stats[t].df > 0]
    if not terms or n_docs <= 0:
        return [], LexicalTrace(0, 0, False)
    avg_len = total_len / n_docs
    df = {t: stats[t].df for t in terms}
    scored = {t: counts[t] for t in terms}
    bound_of = term_bounds(scored, stats, n_docs=n_docs, avg_len=avg_len, k1=k1, b=b)
    bounds = [bound_of[t] for t in terms]
    levels = thresholds(bounds, [df[t] for t in terms], n_docs) if prune else [0.0]
    # each term's weight as bm25_scores makes it (idf x query count)
    rows = _Scored([idf(n_docs, df[t]) * counts[t] for t in terms], avg_len, k1, b)
    fetched: list[frozenset[int]] = []  # the clauses read so far

    def missing(tau: float) -> list[tuple[int, ...]]:
        """The clauses of ``R(tau)`` that no clause read so far covers."""
        return [c for c in clauses(bounds, tau) if not any(f <= set(c) for f in fetched)]

    n_rows = rounds = 0
    ranked: list[tuple[int, float]] = []
    tau = levels[0]
    while True:
        new = missing(tau)
        if new:
            got = fetch(terms, new, [tuple(f) for f in fetched])
            fetched.extend(frozenset(c) for c in new)
            rounds += 1
            n_rows += len(got)
            rows.add(got)
            ranked = rows.top(k)
        full = all(frozenset((i,)) in fetched for i in range(len(terms)))
        theta = ranked[k - 1][1] if len(ranked) >= k else None
        if full or (theta is not None and not missing(theta)):
            return ranked, LexicalTrace(n_rows, rounds, full)
        # Lower tau: to the k-th best score, or the next planned level when that is higher.
        below = [x for x in levels if x < tau]
        tau = max(theta if theta is not None else 0.0, below[0] if below else 0.0)
