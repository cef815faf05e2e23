"""Final scores and diversity: recency decay, importance, heat, and MMR.

The design documents score a retrieved memory by its relevance, weighted down as
it ages and up as it matters:

- **recency decay** (seeds 002 and 004): ``exp(−k·Δt)``, the Ebbinghaus curve.
  It is parametrised here by a half-life, ``k = ln 2 / half_life``, so a memory
  ``half_life_days`` old counts half;
- **importance** (seed 000): a score in ``[0, 1]`` (the forget gate's);
- **heat** (seed 001, MemoryOS): mid-term segments carry a heat
  ``α·visits + β·pages + γ·exp(−Δt/μ)``, unbounded; it enters as a bounded boost
  ``1 + w·heat / (heat + τ)``, so a segment at the promotion threshold ``τ``
  gains ``w/2``.

``final_score = relevance × recency × importance × heat_factor``; every factor is
returned in ``parts`` so a context item can explain itself.

Maximal marginal relevance (Carbonell & Goldstein, 1998) then orders candidates
so that near-duplicates do not crowd out the rest:
``λ·relevance − (1 − λ)·max cosine to what is already chosen``.

Example:
    >>> round(recency_decay(30.0, half_life_days=30.0), 3)
    0.5
    >>> score, parts = final_score(0.8, recency=0.5, importance=0.5)
    >>> round(score, 3), sorted(parts)
    (0.2, ['importance', 'recency', 'relevance'])
    >>> vecs = [[1.0, 0.0], [0.99, 0.1], [0.0, 1.0]]   # 1 nearly repeats 0
    >>> mmr_order([1.0, 0.95, 0.8], vecs, lambda_=0.7)
    [0, 2, 1]
    >>> mmr_select([1.0, 0.95, 0.8], vecs, costs=[5, 1, 5], budget=6)
    [0, 1]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

import numpy as np

__all__ = [
    "FACTORS",
    "age_days",
    "recency_decay",
    "heat_factor",
    "final_score",
    "mmr_order",
    "mmr_select",
    "calibrated_relevance",
]

#: Keys of ``final_score`` parts whose product is the score.
FACTORS = ("relevance", "recency", "importance", "heat_factor")

_SECONDS_PER_DAY = 86_400.0


def age_days(then: datetime, now: datetime) -> float:
    """Days from ``then`` to ``now``; never negative (clock skew counts as 0).

    Example:
        >>> from datetime import datetime, timedelta
        >>> now = datetime(2025, 1, 31)
        >>> age_days(now - timedelta(hours=36), now)
        1.5
    """
    return max((now - then).total_seconds() / _SECONDS_PER_DAY, 0.0)


def recency_decay(age_days: float, half_life_days: float | None = 30.0) -> float:
    """The seeds' time decay ``exp(−k·age)`` with ``k = ln 2 / half_life_days``.

    Args:
        age_days: Age of the memory in days (since it was written or last used).
            Negative ages (clock skew) count as 0.
        half_life_days: Age at which the factor is 0.5; ``None`` or ``inf``
            disables the decay (the factor is always 1).

    Returns:
        A factor in ``(0, 1]``, 1 at age 0, non-increasing in age. Very old
        memories keep the smallest positive float rather than 0, so ties in
        age never erase differences in relevance.

    Raises:
        ValueError: If ``half_life_days`` is not positive or ``age_days`` is NaN.

    Example:
        >>> recency_decay(0.0), recency_decay(60.0, 30.0), recency_decay(1e6, None)
        (1.0, 0.25, 1.0)
    """
    if math.isnan(age_days):
        raise ValueError("age_days is NaN")
    if half_life_days is None or math.isinf(half_life_days):
        return 1.0
    if not half_life_days > 0:
        raise ValueError(f"half_life_days must be > 0 (or None to disable), got {half_life_days}")
    value = 2.0 ** (-max(age_days, 0.0) / half_life_days)  # = exp(-ln2/half_life * age)
    return value if value > 0.0 else math.ulp(0.0)


def heat_factor(heat: float, *, tau: float = 5.0, weight: float = 1.0) -> float:
    """The boost a segment's heat gives its score: ``1 + weight·heat / (heat + tau)``.

    Args:
        heat: The segment's heat (``>= 0``).
        tau: The heat at which half the boost is reached (MemoryOS promotes a
            segment to long-term memory above this heat).
        weight: The largest boost, approached as heat grows.

    Returns:
        A factor in ``[1, 1 + weight)``, non-decreasing in heat.

    Raises:
        ValueError: On a negative or NaN heat, or a non-positive ``tau``.

    Example:
        >>> heat_factor(0.0), heat_factor(5.0), heat_factor(5.0, weight=0.5)
        (1.0, 1.5, 1.25)
    """
    if not heat >= 0:
        raise ValueError(f"heat must be >= 0, got {heat}")
    if not tau > 0 or not weight >= 0:
        raise ValueError("tau must be > 0 and weight >= 0")
    if math.isinf(heat):
        return 1.0 + weight
    return 1.0 + weight * heat / (heat + tau)


def final_score(
    relevance: float,
    *,
    recency: float = 1.0,
    importance: float | None = None,
    heat: float | None = None,
    heat_tau: float = 5.0,
    heat_weight: float = 1.0,
) -> tuple[float, dict[str, float]]:
    """A memory's score: relevance × recency decay × importance (× heat factor).

    Args:
        relevance: Relevance to the query (``>= 0``): a reranker probability, a
            fused RRF score or a cosine clipped at 0. Scores are comparable only
            among candidates whose relevance comes from the same source.
        recency: The decay factor from :func:`recency_decay`, in ``[0, 1]``.
        importance: Importance in ``[0, 1]``; ``None`` when the memory has none
            (the factor is then 1 and absent from ``parts``).
        heat: A segment's heat; ``None`` for memories that are not segments.
        heat_tau: See :func:`heat_factor`.
        heat_weight: See :func:`heat_factor`.

    Returns:
        ``(score, parts)``: ``parts`` holds ``relevance``, ``recency``, and when
        given ``importance`` and ``heat`` with its ``heat_factor``. The product
        of the :data:`FACTORS` present in ``parts`` is the score.

    Raises:
        ValueError: If a factor is out of range or NaN.

    Example:
        >>> score, parts = final_score(0.5, recency=1.0, heat=5.0)
        >>> score, parts["heat_factor"]
        (0.75, 1.5)
    """
    if not (relevance >= 0 and math.isfinite(relevance)):
        raise ValueError(
            f"relevance must be finite and >= 0, got {relevance} (map logits through a sigmoid)"
        )
    if not 0.0 <= recency <= 1.0:
        raise ValueError(f"recency must be within [0, 1], got {recency}")
    parts = {"relevance": float(relevance), "recency": float(recency)}
    score = relevance * recency
    if importance is not None:
        if not 0.0 <= importance <= 1.0:
            raise ValueError(f"importance must be within [0, 1], got {importance}")
        parts["importance"] = float(importance)
        score *= importance
    if heat is not None:
        factor = heat_factor(heat, tau=heat_tau, weight=heat_weight)
        parts["heat"] = float(heat)
        parts["heat_factor"] = factor
        score *= factor
    return float(score), parts


def _unit_rows(vectors: Sequence[Sequence[float]] | np.ndarray, n: int) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero: similar to nothing)."""
    mat = np.asarray(vectors, dtype=np.float64)
    if mat.ndim != 2 or mat.shape[0] != n:
        raise ValueError(f"vectors must have shape ({n}, dim), got {mat.shape}")
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return np.divide(mat, norms, out=np.zeros_like(mat), where=norms > 0)


def mmr_select(
    relevance: Sequence[float] | np.ndarray,
    vectors: Sequence[Sequence[float]] | np.ndarray,
    k: int | None = None,
    *,
    lambda_: float = 0.7,
    costs: Sequence[int] | None = None,
    budget: int | None = None,
) -> list[int]:
    """Greedy maximal marginal relevance: indices of the chosen candidates, in order.

    At each step the candidate maximising
    ``λ·rel − (1 − λ)·max(0, max cosine to the chosen ones)`` is taken, where
    ``rel`` is the relevance divided by the largest absolute relevance (so the
    result does not depend on the relevance's scale). Ties go to the higher raw
    relevance, then the lower index. With a budget, a candidate whose cost does
    not fit what is left is passed over (and does not count as chosen), as the
    packer does.

    Args:
        relevance: One score per candidate, higher is better.
        vectors: One embedding per candidate (``(n, dim)``); they are normalised
            here, and a zero row is similar to nothing.
        k: At most this many indices (default: all that fit).
        lambda_: Trade-off in ``[0, 1]``: 1 is pure relevance order, 0 pure diversity.
        costs: Cost (tokens) of each candidate; needed with ``budget``.
        budget: Total cost the chosen candidates may take.

    Returns:
        Distinct indices into ``relevance``, in the order they were chosen.

    Raises:
        ValueError: On mismatched lengths, ``lambda_`` outside ``[0, 1]``, a
            budget without costs, or NaN relevance.

    Example:
        >>> mmr_select([0.9, 0.8, 0.5], [[1, 0], [1, 0], [0, 1]], k=2)
        [0, 2]
    """
    rel = np.asarray(relevance, dtype=np.float64).reshape(-1)
    n = rel.shape[0]
    if np.isnan(rel).any():
        raise ValueError("relevance contains NaN")
    if not 0.0 <= lambda_ <= 1.0:
        raise ValueError(f"lambda_ must be within [0, 1], got {lambda_}")
    if budget is not None and costs is None:
        raise ValueError("a budget needs the costs of the candidates")
    cost = np.zeros(n) if costs is None else np.asarray(costs, dtype=np.float64).reshape(-1)
    if cost.shape[0] != n:
        raise ValueError(f"{len(cost)} costs for {n} candidates")
    if n == 0:
        return []
    unit = _unit_rows(vectors, n)
    scale = float(np.max(np.abs(rel)))
    norm_rel = rel / scale if scale > 0 else np.zeros(n)
    left = math.inf if budget is None else float(budget)
    limit = n if k is None else max(min(k, n), 0)
    penalty = np.zeros(n)  # max(0, highest cosine to a chosen candidate)
    open_ = np.ones(n, dtype=bool)
    chosen: list[int] = []
    while len(chosen) < limit:
        fits = open_ & (cost <= left)
        if not fits.any():
            break
        idx = np.flatnonzero(fits)
        gain = lambda_ * norm_rel[idx] - (1.0 - lambda_) * penalty[idx]
        # lexsort: last key is primary -> gain desc, raw relevance desc, index asc.
        best = int(idx[np.lexsort((idx, -rel[idx], -gain))[0]])
        chosen.append(best)
        open_[best] = False
        left -= cost[best]
        penalty = np.maximum(penalty, unit @ unit[best])
    return chosen


def mmr_order(
    relevance: Sequence[float] | np.ndarray,
    vectors: Sequence[Sequence[float]] | np.ndarray,
    *,
    lambda_: float = 0.7,
) -> list[int]:
    """Every candidate in MMR order: a permutation the packer can take in order.

    Hand the items in this order to ``Packer.take(..., by_score=False)``: it keeps
    what fits the budget. Unlike :func:`mmr_select` with a budget, items the
    packer passes over still count as chosen here; use ``mmr_select`` when the
    costs are known up front.

    Example:
        >>> mmr_order([0.2, 0.9], [[1, 0], [0, 1]])
        [1, 0]
    """
    return mmr_select(relevance, vectors, lambda_=lambda_)


def calibrated_relevance(
    cosine: float | None,
    coverage: float,
    rerank: float | None = None,
    *,
    cosine_mid: float = 0.5,
    cosine_scale: float = 0.1,
    lexical_weight: float = 0.9,
) -> float:
    """One relevance in ``[0, 1]`` from the evidence a hit has, the same for every layer.

    The dense evidence is the cosine mapped through a logistic calibration,
    ``d = 1 / (1 + exp(−(cosine − cosine_mid) / cosine_scale))`` (a cosine of
    ``cosine_mid`` counts one half); the lexical evidence is ``l = lexical_weight ×
    coverage^1.5``, from the share of the query's content words the text has (one
    word of three shared counts little, all of them much). They combine as
    independent evidence, ``1 − (1 − d)(1 − l)``; a cross-encoder's score (in ``[0, 1]``,
    else passed through a logistic) is averaged in when there is one. The result grows
    with each piece of evidence and stays near 0 for a text unrelated to the query
    (cosine near 0, no shared word), so one threshold works across layers.

    Args:
        cosine: The text's cosine with the query (``None``: no dense evidence).
        coverage: The share of the query's content words in the text, in ``[0, 1]``.
        rerank: A cross-encoder's score, if one was run.
        cosine_mid: The cosine that counts one half (the defaults suit all-MiniLM-L6-v2:
            chosen on the first half of the LoCoMo dev conversations, the second held
            back, see ``benchmarks/locomo_recall.py --calibration``).
        cosine_scale: How fast the dense evidence rises around ``cosine_mid``.
        lexical_weight: What covering every content word of the query is worth alone.

    Example:
        >>> round(calibrated_relevance(0.02, 0.0), 3)     # unrelated
        0.008
        >>> round(calibrated_relevance(0.65, 0.5), 3)     # close in meaning, half the words
        0.876
        >>> calibrated_relevance(0.2, 0.5) > calibrated_relevance(0.2, 0.0)
        True
    """
    dense = 0.0
    if cosine is not None and math.isfinite(cosine):
        z = (float(cosine) - cosine_mid) / max(cosine_scale, 1e-9)
        dense = 1.0 / (1.0 + math.exp(-max(min(z, 60.0), -60.0)))
    lexical = lexical_weight * min(max(float(coverage), 0.0), 1.0) ** 1.5
    value = 1.0 - (1.0 - dense) * (1.0 - lexical)
    if rerank is not None and math.isfinite(rerank):
        r = float(rerank)
        if not 0.0 <= r <= 1.0:
            r = 1.0 / (1.0 + math.exp(-max(min(r, 60.0), -60.0)))
        value = (value + r) / 2.0
    return min(max(value, 0.0), 1.0)
