"""An append-friendly matrix of unit vectors for exact cosine search with numpy."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from typing import Any, cast

import numpy as np

from langgraph_memory.retrieval.quantized import (
    Int8Block,
    int8_available,
    quantize,
    quantize_queries,
    quantize_query,
)

__all__ = ["VectorMatrix", "cosines", "matvec"]

#: Twice the most that rounding to 6 decimals moves a score.
_TIE_MARGIN = 2e-6

_controller: Any = None
_controller_lock = threading.Lock()
_helper: ThreadPoolExecutor | None = None
#: Rows from which a search splits its product over two threads.
_SPLIT_ROWS = 32_768
#: A search among allowed rows reads only them when they are under 1/_GATHER of all
#: (gathering scattered rows costs several times a sequential scan per byte).
_GATHER = 16
#: Rows from which a search scans int8 blocks for candidates (see ``VectorMatrix``).
INT8_ROWS = 32_768
#: Rows of an int8 block (the rows after the last full block are scanned as float32).
INT8_BLOCK = 16_384
#: Candidates the int8 scan keeps, per result asked for, for the exact float32 scores.
RESCORE_FACTOR = 4


def cosines(vectors: Any, query: Any) -> np.ndarray:
    """The cosine of each row of ``vectors`` with ``query`` (0 for a zero vector).

    Example:
        >>> cosines([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]], [3.0, 0.0]).tolist()
        [1.0, 0.0, 0.0]
    """
    mat = np.asarray(vectors, dtype=np.float32)
    q = np.asarray(query, dtype=np.float32)
    norms = np.linalg.norm(mat, axis=1) * float(np.linalg.norm(q))
    return matvec(mat, q) / np.where(norms == 0, 1.0, norms)


def _one_blas_thread() -> AbstractContextManager[Any]:
    """Run a BLAS call on one thread.

    OpenBLAS threads spin after a call and then fight the embedding model's own
    threads for the cores: on 2 cores that made the next query embedding 5-8x
    slower. A large product is split over threads of our own instead (see
    :func:`matvec`).
    """
    global _controller
    if _controller is None:
        with _controller_lock:
            if _controller is None:
                try:
                    from threadpoolctl import ThreadpoolController

                    _controller = ThreadpoolController()
                except Exception:  # threadpoolctl missing or unable to inspect: no limit
                    _controller = False
    if _controller is False:
        return nullcontext()
    return _controller.limit(limits=1, user_api="blas")


def _helper_thread() -> ThreadPoolExecutor:
    global _helper
    if _helper is None:
        with _controller_lock:
            if _helper is None:
                _helper = ThreadPoolExecutor(1, thread_name_prefix="langgraph-memory-matvec")
    return _helper


def matvec(data: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``data @ q`` with one BLAS thread; a large matrix in two halves on two threads.

    One thread reads about 13 GB/s here, two about twice that; the halves run on the
    caller and one helper thread, which waits without spinning afterwards (unlike
    BLAS's own threads, see :func:`_one_blas_thread`).

    Example:
        >>> matvec(np.eye(2, dtype=np.float32), np.array([2.0, 3.0], dtype=np.float32)).tolist()
        [2.0, 3.0]
    """
    if len(data) < _SPLIT_ROWS or (os.cpu_count() or 1) < 2:
        with _one_blas_thread():
            return data @ q
    out = np.empty(len(data), dtype=np.float32)
    half = len(data) // 2
    with _one_blas_thread():
        other = _helper_thread().submit(np.matmul, data[half:], q, out=out[half:])
        np.matmul(data[:half], q, out=out[:half])
        other.result()
    return out


def _spread(calls: list[Any]) -> list[np.ndarray]:
    """Run ``calls`` (which release the GIL) half on the caller, half on the helper
    thread; their results in order."""
    if len(calls) < 2 or (os.cpu_count() or 1) < 2:
        return [c() for c in calls]
    half = len(calls) // 2
    later = calls[half:]
    other = _helper_thread().submit(lambda: [c() for c in later])
    first = [c() for c in calls[:half]]
    return first + other.result()


class VectorMatrix:
    """Rows of L2-normalised float32 vectors keyed by an integer (message seq).

    Appends amortise by doubling capacity; search is one matrix-vector product. With ``int8=True``
    (a matrix kept across searches, as the backends keep theirs), from :data:`INT8_ROWS` rows (with
    ONNX Runtime installed) the product is taken with int8 blocks of the rows
    (:mod:`~langgraph_memory.retrieval.quantized`), a quarter of the bytes to read, and picks the
    ``RESCORE_FACTOR * k`` best candidates (and any tied with the last), which the float32 rows then
    score: the results are the exact search's whenever the int8 ranking keeps the true top ``k``
    among its candidates (recall@10 against exact search is recorded in ``benchmarks/RESULTS.md``).

    Example:
        >>> m = VectorMatrix(2)
        >>> m.append([1, 2], np.array([[1, 0], [0, 1]], dtype=np.float32))
        >>> m.search(np.array([1, 0.1], dtype=np.float32), 1)[0][0]
        1
    """

    def __init__(self, dim: int, *, int8: bool = False) -> None:
        self.dim = dim
        self.int8 = int8
        self._data = np.zeros((0, dim), dtype=np.float32)
        self._keys = np.zeros(0, dtype=np.int64)
        self._n = 0
        self._alive = np.zeros(0, dtype=bool)
        self._dead = 0
        # int8 blocks of rows [0, INT8_BLOCK * len), made by the searches that use them
        self._blocks: list[Int8Block] = []
        self._scale = 0.0  # the blocks' scale, set by the first (clipping later outliers)
        # (query bytes, rows, approximate cosines) of the last int8 scan: one read path
        # searches with the same query vector more than once (all messages, then those
        # of the closest segments)
        self._last: tuple[bytes, int, np.ndarray] | None = None
        self._blocks_lock = threading.Lock()
        # Keys appended in increasing order (message seqs are) are found by binary
        # search, so a search among a few allowed keys reads only their rows.
        self._sorted = True

    def __len__(self) -> int:
        return int(self._alive[: self._n].sum())

    @property
    def max_key(self) -> int:
        return int(self._keys[: self._n].max()) if self._n else 0

    def append(self, keys: list[int], vectors: np.ndarray) -> None:
        """Add rows (vectors are normalised here)."""
        if not keys:
            return
        vecs = np.asarray(vectors, dtype=np.float32).reshape(len(keys), -1)
        if vecs.shape[1] != self.dim:
            raise ValueError(f"vector dimension {vecs.shape[1]} != index dimension {self.dim}")
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        vecs = vecs / norms
        new = np.asarray(keys, dtype=np.int64)
        if (self._n and new[0] <= self._keys[self._n - 1]) or np.any(new[1:] <= new[:-1]):
            self._sorted = False
        need = self._n + len(keys)
        if need > len(self._data):
            cap = max(need, 2 * len(self._data), 64)
            data = np.zeros((cap, self.dim), dtype=np.float32)
            data[: self._n] = self._data[: self._n]
            k = np.zeros(cap, dtype=np.int64)
            k[: self._n] = self._keys[: self._n]
            alive = np.zeros(cap, dtype=bool)
            alive[: self._n] = self._alive[: self._n]
            self._data, self._keys, self._alive = data, k, alive
        self._data[self._n : need] = vecs
        self._keys[self._n : need] = new
        self._alive[self._n : need] = True
        self._n = need

    def remove(self, keys: set[int]) -> None:
        """Mark rows as gone."""
        if keys and self._n:
            mask = np.isin(self._keys[: self._n], np.fromiter(keys, dtype=np.int64))
            mask &= self._alive[: self._n]
            self._alive[: self._n][mask] = False
            self._dead += int(mask.sum())

    def search(
        self, query: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """Top ``k`` ``(key, cosine)`` pairs, best first (ties: older first)."""
        if self._n == 0 or k <= 0:
            return []
        q = self._unit(query)
        if q is None:
            return []
        rows = self._rows(allowed)  # the rows searched, when not all of them
        if rows is not None and rows.size == 0:
            return []
        if rows is not None and _GATHER * rows.size < self._n:  # a few rows: read only them
            sims = self._data[rows] @ q
        elif (found := self._int8_candidates(q, k, rows)) is not None:
            rows = found
            sims = self._data[rows] @ q
        elif rows is None:
            sims = matvec(self._data[: self._n], q)
        else:
            sims = matvec(self._data[: self._n], q)[rows]
        return self._top(sims, k, rows)

    def search_many(self, queries: Sequence[np.ndarray], k: int) -> list[list[tuple[int, float]]]:
        """:meth:`search` of each query (every row allowed), in one pass over the int8
        blocks when they are used: each result is that query's :meth:`search`.

        Example:
            >>> m = VectorMatrix(2)
            >>> m.append([1, 2], np.array([[1, 0], [0, 1]], dtype=np.float32))
            >>> [r[0][0] for r in m.search_many([np.array([1.0, 0]), np.array([0, 1.0])], 1)]
            [1, 2]
        """
        units = [self._unit(q) for q in queries] if self._n and k > 0 else []
        live = [i for i, q in enumerate(units) if q is not None]
        n, want = self._n, RESCORE_FACTOR * k
        if len(live) < 2 or self._dead or not self._int8_scan(n, want, n):
            return [self.search(q, k) for q in queries]
        found = self._approximate_many(np.stack([cast(np.ndarray, units[i]) for i in live]), n)
        out: list[list[tuple[int, float]]] = [[] for _ in queries]
        for i, scores in zip(live, found, strict=True):
            q = cast(np.ndarray, units[i])
            rows = self._candidates(scores, want)
            if rows is None:
                sims = matvec(self._data[:n], q)
            else:
                sims = self._data[rows] @ q
            out[i] = self._top(sims, k, rows)
        return out

    def _unit(self, query: np.ndarray) -> np.ndarray | None:
        """The query as a float32 unit vector (``None`` for a zero vector)."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise ValueError(f"query dimension {q.shape[0]} != index dimension {self.dim}")
        qn = float(np.linalg.norm(q))
        return None if qn == 0 else q / qn

    def _top(self, sims: np.ndarray, k: int, rows: np.ndarray | None) -> list[tuple[int, float]]:
        """The best ``k`` of ``sims`` (scores of ``rows``, or of every row) as
        ``(key, rounded cosine)``."""
        # float32 products of equal vectors can differ in the last bits depending on
        # where a row falls in the BLAS kernel: scores are rounded to 6 decimals so
        # equal vectors tie exactly, and ties go to the older key. Only the rows that
        # can reach the k-th rounded score are rounded and sorted: rounding moves a
        # score by at most 5e-7 and keeps the order, so they all score at least the
        # k-th unrounded score minus 1e-6.
        if k < sims.size:
            kth = np.partition(sims, sims.size - k)[sims.size - k]
            near = np.flatnonzero(sims >= kth - _TIE_MARGIN)
        else:
            near = np.arange(sims.size)
        scores = np.round(sims[near], 6)
        keys = self._keys[near if rows is None else rows[near]]
        order = np.lexsort((keys, -scores))[:k]
        return [(int(keys[i]), float(scores[i])) for i in order]

    def _rows(self, allowed: set[int] | None) -> np.ndarray | None:
        """The live rows among the ``allowed`` keys, ascending (``None``: every row)."""
        if allowed is None:
            return np.flatnonzero(self._alive[: self._n]) if self._dead else None
        wanted = np.fromiter(allowed, dtype=np.int64, count=len(allowed))
        keys = self._keys[: self._n]
        if self._sorted:
            wanted.sort()
            pos = np.searchsorted(keys, wanted)
            inside = pos < self._n
            pos, wanted = pos[inside], wanted[inside]
            rows = pos[keys[pos] == wanted]
        else:
            rows = np.flatnonzero(np.isin(keys, wanted))
        return rows[self._alive[rows]]

    def _int8_candidates(self, q: np.ndarray, k: int, rows: np.ndarray | None) -> np.ndarray | None:
        """The rows (ascending, among ``rows`` when given) the int8 scan ranks within the
        best ``RESCORE_FACTOR * k``, ties with the last included; ``None`` when the
        float32 scan is to be used instead (few rows, or no ONNX Runtime)."""
        n = self._n
        want = RESCORE_FACTOR * k
        if not self._int8_scan(n, want, n if rows is None else rows.size):
            return None
        scores = self._approximate(q, n)
        if rows is not None:
            scores = scores[rows]
        picked = self._candidates(scores, want)
        return picked if rows is None or picked is None else rows[picked]

    def _int8_scan(self, n: int, want: int, searched: int) -> bool:
        """Whether a search of ``searched`` of the ``n`` rows for ``want`` candidates
        scans the int8 blocks."""
        if not self.int8 or n < INT8_ROWS or 4 * want >= searched:
            return False
        return int8_available()

    @staticmethod
    def _candidates(scores: np.ndarray, want: int) -> np.ndarray | None:
        """Positions of the ``want`` best approximate ``scores`` (ties with the last
        included); ``None`` when the int8 codes hardly tell the rows apart."""
        kth = np.partition(scores, scores.size - want)[scores.size - want]
        picked = np.flatnonzero(scores >= kth)
        return None if 4 * picked.size >= scores.size else picked

    def _approximate(self, q: np.ndarray, n: int) -> np.ndarray:
        """Cosines of the first ``n`` rows: approximate from the int8 blocks (made now for
        rows that filled a block since), exact for the rows after the last block; the
        last query's again when it is asked again."""
        key = q.tobytes()
        last = self._last
        if last is not None and last[0] == key and last[1] == n:
            return last[2]
        blocks = self._blocks_of(n)
        row, scale = quantize_query(q)
        parts = _spread([lambda b=b: b.cosines(row, scale) for b in blocks])
        tail = self._data[len(blocks) * INT8_BLOCK : n]
        if len(tail):
            with _one_blas_thread():
                parts.append(tail @ q)
        scores = np.concatenate(parts)
        self._last = (key, n, scores)
        return scores

    def _approximate_many(self, queries: np.ndarray, n: int) -> list[np.ndarray]:
        """:meth:`_approximate` of each row of ``queries`` (unit vectors), the blocks read
        once for all of them (each result equals that query's alone)."""
        blocks = self._blocks_of(n)
        rows, scales = quantize_queries(queries)
        parts = _spread([lambda b=b: b.cosines_many(rows, scales) for b in blocks])
        tail = self._data[len(blocks) * INT8_BLOCK : n]
        out = []
        for i, q in enumerate(queries):
            mine = [p[i] for p in parts]
            if len(tail):
                with _one_blas_thread():
                    mine.append(tail @ q)  # one product per query: the single scan's bits
            out.append(np.concatenate(mine))
        return out

    def _blocks_of(self, n: int) -> list[Int8Block]:
        """The int8 blocks of the first ``n`` rows (made now for rows that filled a block
        since)."""
        blocks = self._blocks
        if len(blocks) < n // INT8_BLOCK:
            with self._blocks_lock:
                blocks = list(self._blocks)
                while len(blocks) < n // INT8_BLOCK:
                    start = len(blocks) * INT8_BLOCK
                    rows = self._data[start : start + INT8_BLOCK]
                    if not blocks:
                        self._scale = quantize(rows)[1]
                    blocks.append(Int8Block(rows, self._scale))
                self._blocks = blocks  # a new list: searches meanwhile keep theirs
        return blocks[: n // INT8_BLOCK]
