"""The int8 scan of large vector matrices: the same results as the exact float32 scan."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory.retrieval import quantized, vectors
from langgraph_memory.retrieval.quantized import quantize
from langgraph_memory.retrieval.vectors import VectorMatrix

pytestmark = pytest.mark.skipif(
    not quantized.int8_available(), reason="ONNX Runtime is not installed"
)


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """int8 blocks of 64 rows from 128 rows on, so that small matrices use them."""
    monkeypatch.setattr(vectors, "INT8_ROWS", 128)
    monkeypatch.setattr(vectors, "INT8_BLOCK", 64)


def _exact(m: VectorMatrix, q: np.ndarray, k: int, allowed: set[int] | None = None) -> list:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(vectors, "INT8_ROWS", 10**12)
        return m.search(q, k, allowed)


def _clustered(rng: np.random.Generator, n: int, dim: int = 32) -> np.ndarray:
    """Rows close to one of a few centres: many near ties, the hard case for int8."""
    centres = rng.normal(size=(8, dim))
    return (centres[rng.integers(0, 8, n)] + rng.normal(0, 0.05, (n, dim))).astype(np.float32)


def test_quantize_round_trips_within_half_a_step() -> None:
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(50, 16)).astype(np.float32)
    codes, scale = quantize(vecs)
    assert codes.dtype == np.int8 and int(np.abs(codes).max()) == 127
    assert np.abs(codes / scale - vecs).max() <= 0.5 / scale + 1e-6
    clipped, _ = quantize(vecs * 2, scale)  # a later row beyond the range is clipped
    assert int(np.abs(clipped).max()) == 127


def test_block_cosines_are_close_to_the_exact_ones() -> None:
    rng = np.random.default_rng(1)
    vecs = rng.normal(size=(200, 64)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    q = vecs[3] + rng.normal(0, 0.1, 64).astype(np.float32)
    q /= np.linalg.norm(q)
    block = quantized.Int8Block(vecs, quantize(vecs)[1])
    row, scale = quantized.quantize_query(q)
    got = block.cosines(row, scale)
    assert np.abs(got - vecs @ q).max() < 0.02
    assert int(np.argmax(got)) == 3


@pytest.mark.usefixtures("small_blocks")
def test_int8_search_equals_the_exact_one_as_rows_grow_and_go() -> None:
    rng = np.random.default_rng(2)
    m = VectorMatrix(32, int8=True)
    vecs = _clustered(rng, 700)
    queries = _clustered(rng, 20)
    start = 0
    for stop in (100, 130, 300, 700):  # blocks are made by searches as rows fill them
        m.append(list(range(start + 1, stop + 1)), vecs[start:stop])
        start = stop
        for q in queries:
            for k in (1, 5, 10):
                assert m.search(q, k) == _exact(m, q, k)
    assert len(m._blocks) == 700 // 64
    m.remove(set(range(1, 700, 3)))
    allowed = set(range(1, 701, 2))
    for q in queries:
        assert m.search(q, 10) == _exact(m, q, 10)
        assert m.search(q, 10, allowed) == _exact(m, q, 10, allowed)


@pytest.mark.usefixtures("small_blocks")
def test_equal_rows_tie_and_the_oldest_come_first() -> None:
    rng = np.random.default_rng(3)
    vecs = rng.normal(size=(600, 16)).astype(np.float32)
    vecs[::37] = vecs[5]  # the same vector in several blocks
    m = VectorMatrix(16, int8=True)
    m.append(list(range(1, 601)), vecs)
    got = m.search(vecs[5], 5)
    assert got == _exact(m, vecs[5], 5)
    assert [key for key, _ in got] == [1, 6, 38, 75, 112]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 20), n=st.integers(128, 400))
def test_int8_search_matches_exact_search(seed: int, k: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    vecs = _clustered(rng, n, 24)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(vectors, "INT8_ROWS", 128)
        mp.setattr(vectors, "INT8_BLOCK", 64)
        m = VectorMatrix(24, int8=True)
        m.append(list(range(1, n + 1)), vecs)
        q = _clustered(rng, 1, 24)[0]
        got = m.search(q, k)
    assert [key for key, _ in got] == [key for key, _ in _exact(m, q, k)]


def test_without_onnx_runtime_the_scan_is_float32(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(4)
    m = VectorMatrix(8, int8=True)
    m.append(list(range(1, 301)), rng.normal(size=(300, 8)).astype(np.float32))
    monkeypatch.setattr(vectors, "int8_available", lambda: False)
    q = rng.normal(size=8).astype(np.float32)
    assert m.search(q, 5) == _exact(m, q, 5)
    assert m._blocks == []


def test_a_matrix_made_for_one_search_scans_float32(small_blocks: None) -> None:
    """Only matrices kept across searches (``int8=True``, the backends') make blocks."""
    rng = np.random.default_rng(5)
    m = VectorMatrix(8)
    m.append(list(range(1, 301)), rng.normal(size=(300, 8)).astype(np.float32))
    m.search(rng.normal(size=8).astype(np.float32), 5)
    assert m._blocks == []


def test_queries_quantize_as_each_does_alone() -> None:
    rng = np.random.default_rng(6)
    qs = rng.normal(size=(5, 32)).astype(np.float32)
    qs[2] = 0.0
    rows, scales = quantized.quantize_queries(qs)
    vecs = rng.normal(size=(90, 32)).astype(np.float32)
    block = quantized.Int8Block(vecs, quantize(vecs)[1])
    many = block.cosines_many(rows, scales)
    for i, q in enumerate(qs):
        row, scale = quantized.quantize_query(q)
        assert np.array_equal(rows[i : i + 1], row) and scales[i] == scale
        assert np.array_equal(many[i], block.cosines(row, scale))


@pytest.mark.usefixtures("small_blocks")
def test_search_many_is_each_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """One pass over the blocks for several queries gives each query's own search, to the
    last bit, with and without blocks, a tail of float32 rows and removed rows."""
    rng = np.random.default_rng(7)
    m = VectorMatrix(32, int8=True)
    m.append(list(range(1, 331)), _clustered(rng, 330))  # 5 blocks and a 10-row tail
    queries = list(_clustered(rng, 6)) + [np.zeros(32, dtype=np.float32)]
    scans: list[int] = []
    many = vectors.VectorMatrix._approximate_many
    monkeypatch.setattr(
        vectors.VectorMatrix,
        "_approximate_many",
        lambda self, qs, n: scans.append(len(qs)) or many(self, qs, n),
    )
    for k in (1, 5, 10):
        assert m.search_many(queries, k) == [m.search(q, k) for q in queries]
    assert scans == [6, 6, 6]  # one pass each time (the zero vector finds nothing)
    assert m.search_many([], 5) == [] and m.search_many(queries[:1], 5) == [m.search(queries[0], 5)]
    m.remove({3, 40, 200})
    assert m.search_many(queries, 5) == [m.search(q, 5) for q in queries]
