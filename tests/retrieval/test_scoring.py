"""Properties of the scoring formulas and of MMR (langgraph_memory.retrieval.scoring)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from langgraph_memory.retrieval.scoring import (
    FACTORS,
    age_days,
    final_score,
    heat_factor,
    mmr_order,
    mmr_select,
    recency_decay,
)

ages = st.floats(min_value=0, max_value=1e7, allow_nan=False)
half_lives = st.floats(min_value=1e-3, max_value=1e5, allow_nan=False)
unit = st.floats(min_value=0, max_value=1, allow_nan=False)
relevances = st.floats(min_value=0, max_value=1e6, allow_nan=False)


@st.composite
def candidates(draw: st.DrawFn, min_size: int = 0) -> tuple[list[float], list[list[float]]]:
    """Relevance scores and 3-d vectors for the same candidates (ties and zero rows allowed)."""
    n = draw(st.integers(min_value=min_size, max_value=12))
    # No subnormal scores: scaling one by 0.25 rounds it (5e-324 * 0.25 == 0), which
    # changes the order for real; above 1e-6, power-of-two scaling is exact.
    scores = st.sampled_from([0.0, 0.1, 0.5, 1.0]) | st.floats(min_value=1e-6, max_value=1)
    rel = draw(st.lists(scores, min_size=n, max_size=n))
    coord = st.floats(min_value=-1, max_value=1, allow_nan=False)
    vecs = draw(st.lists(st.lists(coord, min_size=3, max_size=3), min_size=n, max_size=n))
    return rel, vecs


# --- recency decay -----------------------------------------------------------------


@given(ages, half_lives)
def test_decay_is_in_unit_interval(age: float, half_life: float) -> None:
    assert 0.0 < recency_decay(age, half_life) <= 1.0


@given(ages, ages, half_lives)
def test_decay_does_not_increase_with_age(a: float, b: float, half_life: float) -> None:
    young, old = sorted((a, b))
    assert recency_decay(young, half_life) >= recency_decay(old, half_life)


@given(half_lives)
def test_decay_halves_at_the_half_life(half_life: float) -> None:
    assert recency_decay(0.0, half_life) == 1.0
    assert recency_decay(half_life, half_life) == pytest.approx(0.5)
    assert recency_decay(2 * half_life, half_life) == pytest.approx(0.25)


def test_decay_edge_cases() -> None:
    assert recency_decay(-3.0, 10.0) == 1.0  # clock skew
    assert recency_decay(1e9, None) == 1.0 and recency_decay(1e9, math.inf) == 1.0
    assert recency_decay(math.inf, 1.0) > 0.0
    with pytest.raises(ValueError, match="half_life_days"):
        recency_decay(1.0, 0.0)
    with pytest.raises(ValueError, match="NaN"):
        recency_decay(math.nan, 1.0)


def test_age_days() -> None:
    now = datetime(2025, 3, 1, 12)
    assert age_days(now - timedelta(days=2, hours=12), now) == 2.5
    assert age_days(now + timedelta(days=1), now) == 0.0


# --- heat and final score ----------------------------------------------------------


@given(st.floats(min_value=0, max_value=1e9), st.floats(min_value=0, max_value=1e9))
def test_heat_factor_is_bounded_and_monotone(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert 1.0 <= heat_factor(low) <= heat_factor(high) <= 2.0
    assert heat_factor(5.0, tau=5.0) == 1.5


@given(relevances, relevances, unit, unit)
def test_score_is_monotone_in_relevance(r1: float, r2: float, recency: float, imp: float) -> None:
    lo, hi = sorted((r1, r2))
    assert (
        final_score(lo, recency=recency, importance=imp)[0]
        <= final_score(hi, recency=recency, importance=imp)[0]
    )


@given(relevances, unit, unit, unit, st.none() | st.floats(min_value=0, max_value=100))
def test_score_is_monotone_in_importance(
    rel: float, recency: float, i1: float, i2: float, heat: float | None
) -> None:
    lo, hi = sorted((i1, i2))
    s_lo = final_score(rel, recency=recency, importance=lo, heat=heat)[0]
    s_hi = final_score(rel, recency=recency, importance=hi, heat=heat)[0]
    assert s_lo <= s_hi


@given(relevances, unit, st.none() | unit, st.none() | st.floats(min_value=0, max_value=100))
def test_parts_explain_the_score(
    rel: float, recency: float, imp: float | None, heat: float | None
) -> None:
    score, parts = final_score(rel, recency=recency, importance=imp, heat=heat)
    assert parts["relevance"] == rel and parts["recency"] == recency
    assert ("importance" in parts) == (imp is not None)
    assert ("heat" in parts) == ("heat_factor" in parts) == (heat is not None)
    product = math.prod(parts[f] for f in FACTORS if f in parts)
    assert score == pytest.approx(product, rel=1e-12, abs=1e-300)
    assert 0.0 <= score <= rel * 2.0  # the heat factor is below 2 with the default weight


def test_final_score_rejects_out_of_range_parts() -> None:
    for kwargs in (
        {"relevance": -0.1},
        {"relevance": math.nan},
        {"relevance": math.inf},
        {"relevance": 1.0, "recency": 1.5},
        {"relevance": 1.0, "importance": -0.2},
        {"relevance": 1.0, "heat": -1.0},
    ):
        with pytest.raises(ValueError):
            final_score(**kwargs)


# --- MMR ---------------------------------------------------------------------------


@given(candidates(), st.none() | st.integers(min_value=0, max_value=15), unit)
def test_mmr_returns_distinct_valid_indices(
    cand: tuple[list[float], list[list[float]]], k: int | None, lam: float
) -> None:
    rel, vecs = cand
    chosen = mmr_select(rel, np.array(vecs).reshape(len(rel), 3), k, lambda_=lam)
    assert len(chosen) == len(set(chosen)) == (len(rel) if k is None else min(k, len(rel)))
    assert all(0 <= i < len(rel) for i in chosen)


@given(candidates())
def test_mmr_with_lambda_one_is_relevance_order(
    cand: tuple[list[float], list[list[float]]],
) -> None:
    rel, vecs = cand
    expected = sorted(range(len(rel)), key=lambda i: (-rel[i], i))
    assert mmr_order(rel, np.array(vecs).reshape(len(rel), 3), lambda_=1.0) == expected


@given(candidates(min_size=1), unit, st.sampled_from([0.25, 2.0, 1024.0]))
def test_mmr_ignores_the_scale_of_relevance(
    cand: tuple[list[float], list[list[float]]], lam: float, factor: float
) -> None:
    rel, vecs = cand
    scaled = [r * factor for r in rel]
    assert mmr_order(rel, vecs, lambda_=lam) == mmr_order(scaled, vecs, lambda_=lam)


@given(
    dup_rel=st.floats(min_value=0.5, max_value=1.0),
    margin=st.floats(min_value=0.0, max_value=0.35),
    noise=st.floats(min_value=-0.05, max_value=0.05),
)
def test_mmr_prefers_a_diverse_item_over_a_near_duplicate(
    dup_rel: float, margin: float, noise: float
) -> None:
    # The diverse item may be up to 0.35 less relevant than the near-duplicate:
    # at lambda 0.7 a cosine of ~1 costs 0.3/0.7 ~ 0.43 of normalised relevance.
    diverse_rel = dup_rel - margin
    vecs = [[1.0, 0.0, 0.0], [1.0, noise, 0.0], [0.0, 0.0, 1.0]]
    order = mmr_order([1.0, dup_rel, diverse_rel], vecs, lambda_=0.7)
    assert order == [0, 2, 1]
    # Pure relevance order keeps the duplicate second (unless it ties).
    assume(margin > 0)
    assert mmr_order([1.0, dup_rel, diverse_rel], vecs, lambda_=1.0) == [0, 1, 2]


@given(
    candidates(),
    st.data(),
    st.integers(min_value=0, max_value=60),
    unit,
)
def test_mmr_never_exceeds_the_budget(
    cand: tuple[list[float], list[list[float]]], data: st.DataObject, budget: int, lam: float
) -> None:
    rel, vecs = cand
    costs = data.draw(st.lists(st.integers(0, 20), min_size=len(rel), max_size=len(rel)))
    chosen = mmr_select(
        rel, np.array(vecs).reshape(len(rel), 3), lambda_=lam, costs=costs, budget=budget
    )
    spent = sum(costs[i] for i in chosen)
    assert spent <= budget
    # Greedy and maximal: whatever was left out did not fit.
    assert all(costs[i] > budget - spent for i in set(range(len(rel))) - set(chosen))


@given(candidates(), unit)
def test_mmr_with_a_large_budget_is_the_plain_order(
    cand: tuple[list[float], list[list[float]]], lam: float
) -> None:
    rel, vecs = cand
    vecs_arr = np.array(vecs).reshape(len(rel), 3)
    big = mmr_select(rel, vecs_arr, lambda_=lam, costs=[1] * len(rel), budget=10**6)
    assert big == mmr_order(rel, vecs_arr, lambda_=lam)


def test_mmr_with_lambda_zero_spreads_out() -> None:
    vecs = [[1.0, 0.0], [1.0, 0.01], [0.0, 1.0], [0.01, 1.0]]
    # The first pick is the most relevant; after that only diversity counts.
    assert mmr_select([1.0, 0.9, 0.2, 0.1], vecs, k=2, lambda_=0.0) == [0, 2]


def test_mmr_zero_vectors_are_similar_to_nothing() -> None:
    assert mmr_order([1.0, 0.9, 0.8], [[0, 0], [0, 0], [0, 0]], lambda_=0.5) == [0, 1, 2]


def test_mmr_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        mmr_select([1.0, 0.5], [[1.0, 0.0]])
    with pytest.raises(ValueError, match="lambda_"):
        mmr_select([1.0], [[1.0]], lambda_=1.5)
    with pytest.raises(ValueError, match="budget"):
        mmr_select([1.0], [[1.0]], budget=3)
    with pytest.raises(ValueError, match="costs"):
        mmr_select([1.0], [[1.0]], costs=[1, 2], budget=3)
    with pytest.raises(ValueError, match="NaN"):
        mmr_select([math.nan], [[1.0]])
    assert mmr_select([], np.zeros((0, 4))) == []
