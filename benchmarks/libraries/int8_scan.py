"""Our int8 candidate scan (``retrieval/quantized.py``: int8 blocks in ONNX Runtime
MatMulInteger sessions, then float32 re-scoring of the candidates, ``VectorMatrix.search``)
vs plain numpy: the float32 exact scan (BLAS), and int8 / float16 scans in numpy.

Run (from the repository root)::

    python benchmarks/libraries/run.py int8 [--n 100000] [--queries 200] [--rounds 3] [--quick]

Methods (top 10 per query, each timed per query, interleaved in rotating order):

- ``ours int8+rescore``: ``VectorMatrix(384, int8=True).search(q, 10)`` as the backends keep
  it (int8 blocks of 16,384 rows, two threads, 40 candidates re-scored)
- ``ours float32 exact``: the same matrix with the int8 scan off (the package's exact path)
- ``numpy f32 @``: ``m @ q`` with numpy's BLAS threads, and under ``threadpool_limits(1)``
- ``numpy int8->int32 @``: ``codes.astype(np.int32) @ q8`` on two threads (halves), then the
  same 40-candidate float32 re-scoring as ours
- ``numpy float16 @``: ``m16 @ q16`` (half the bytes), 40-candidate float32 re-scoring

Recall@10 against the exact float32 top 10 (ties broken by index).

Data: ``--n`` Gaussian unit vectors with Gaussian queries (all cosines near 0); the
packaged MiniLM's vectors of the LoCoMo turns with LoCoMo questions as queries, (a) the
turns' rows themselves, (b) ``--n`` rows made of them plus Gaussian noise (cosine ~0.85 to
their turn: clusters of near-duplicates, a hard case for a coarse scan), renormalised.
``--quick``: 40,000 rows (int8 blocks start at 32,768), 40 queries, 1 round, 1,000 turns.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from common import all_questions, all_turn_texts, pct

DIM = 384
RESCORE = 40  # RESCORE_FACTOR * k, as ours


def unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def first_use_costs() -> tuple[bool, float]:
    """Fresh-process cost of ours: ``int8_available()`` (imports onnx + ORT, a probe session)."""
    t = time.perf_counter()
    from langgraph_memory.retrieval import quantized

    ok = quantized.int8_available()
    return ok, time.perf_counter() - t


def exact_top(m: np.ndarray, q: np.ndarray, k: int = 10) -> np.ndarray:
    s = m @ q
    idx = np.argpartition(-s, k)[:k]
    return idx[np.lexsort((idx, -s[idx]))]


def compare(
    name: str, rows: np.ndarray, queries: np.ndarray, rounds: int, pool: ThreadPoolExecutor
) -> None:
    from threadpoolctl import threadpool_limits

    from langgraph_memory.retrieval import vectors
    from langgraph_memory.retrieval.quantized import quantize, quantize_queries

    n = len(rows)
    print(f"\n== {name}: {n:,} x {DIM}, {len(queries)} queries, top 10 ==")
    vm = vectors.VectorMatrix(DIM, int8=True)
    vm.append(list(range(1, n + 1)), rows)
    m = vm._data[:n]  # the matrix's own (normalised) rows
    saved = vectors.INT8_ROWS

    t = time.perf_counter()
    vectors.INT8_ROWS = 32_768
    vm.search(queries[0], 10)  # makes the int8 blocks
    blocks_s = time.perf_counter() - t
    note = ""
    if not vm._blocks:
        note = (
            " (fewer rows than INT8_ROWS / one block: the package scans float32 here,"
            " so 'ours int8' below is its float32 path)"
        )
    print(
        f"  ours: int8 blocks made at first search: {len(vm._blocks)} blocks in "
        f"{blocks_s * 1e3:.0f} ms{note}"
    )

    # numpy int8 codes with the same quantisation as ours
    codes, _scale = quantize(m)
    m16 = m.astype(np.float16)
    half = n // 2

    def rescore(approx: np.ndarray, q: np.ndarray, k: int = 10) -> np.ndarray:
        cand = np.argpartition(-approx, RESCORE)[:RESCORE]
        s = m[cand] @ q
        return cand[np.lexsort((cand, -s))[:k]]

    def np_int32(q: np.ndarray) -> np.ndarray:
        q8 = np.rint(q * (127 / np.abs(q).max())).astype(np.int32)
        out = np.empty(n, dtype=np.int32)
        f = pool.submit(lambda: np.matmul(codes[half:].astype(np.int32), q8, out=out[half:]))
        np.matmul(codes[:half].astype(np.int32), q8, out=out[:half])
        f.result()
        return rescore(out.astype(np.float32), q)

    def np_f16(q: np.ndarray) -> np.ndarray:
        return rescore((m16 @ q.astype(np.float16)).astype(np.float32), q)

    def np_f32(q: np.ndarray) -> np.ndarray:
        return exact_top(m, q)

    def np_f32_1(q: np.ndarray) -> np.ndarray:
        with threadpool_limits(1, user_api="blas"):
            return exact_top(m, q)

    def ours_int8(q: np.ndarray) -> np.ndarray:
        vectors.INT8_ROWS = 32_768
        return np.array([k - 1 for k, _ in vm.search(q, 10)])

    def ours_f32(q: np.ndarray) -> np.ndarray:
        vectors.INT8_ROWS = 10**12
        return np.array([k - 1 for k, _ in vm.search(q, 10)])

    methods: dict[str, Callable[[np.ndarray], np.ndarray]] = {
        "ours int8+rescore": ours_int8,
        "ours float32 exact": ours_f32,
        "numpy f32 @ (BLAS threads)": np_f32,
        "numpy f32 @ (1 BLAS thread)": np_f32_1,
        "numpy int8->int32 @ +rescore": np_int32,
        "numpy float16 @ +rescore": np_f16,
    }
    truth = [exact_top(m, q) for q in queries]
    names = list(methods)
    times: dict[str, list[float]] = {k: [] for k in names}
    recall: dict[str, list[float]] = {k: [] for k in names}
    for q in queries[:3]:  # warm-up
        for f in methods.values():
            f(q)
    for r in range(rounds):
        for i, q in enumerate(queries):
            for j in range(len(names)):
                nm = names[(i + j + r) % len(names)]
                t = time.perf_counter()
                got = methods[nm](q)
                times[nm].append(time.perf_counter() - t)
                if r == 0:
                    recall[nm].append(len(set(got.tolist()) & set(truth[i].tolist())) / 10)
    # the int8 ranking alone (no re-scoring), ours' codes: how much the re-scoring matters
    rows8, _sc8 = quantize_queries(queries)
    raw = []
    for i in range(len(queries)):
        approx = codes.astype(np.int32) @ (rows8[i].astype(np.int32) - 128)
        top = np.argpartition(-approx, 10)[:10]
        raw.append(len(set(top.tolist()) & set(truth[i].tolist())) / 10)
    vectors.INT8_ROWS = saved
    mem = {"float32 rows": m.nbytes, "int8 codes": codes.nbytes, "float16 rows": m16.nbytes}
    print(f"  {'method':32s} {'p50 ms':>8s} {'p95 ms':>8s} {'recall@10':>10s}")
    for nm in names:
        p50, p95 = pct(times[nm], 50) * 1e3, pct(times[nm], 95) * 1e3
        print(f"  {nm:32s} {p50:8.2f} {p95:8.2f} {np.mean(recall[nm]):10.4f}")
    print(f"  (int8 codes alone, no re-scoring: recall@10 {np.mean(raw):.4f})")
    print(
        "  memory: "
        + ", ".join(f"{k} {v / 1e6:.1f} MB" for k, v in mem.items())
        + " (ours keeps float32 rows + int8 codes inside ORT sessions)"
    )


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, help="rows of the large sets (default 100,000)")
    parser.add_argument("--queries", type=int, help="queries (default 200)")
    parser.add_argument("--rounds", type=int, help="timed rounds (default 3)")


def run(args: argparse.Namespace) -> None:
    from threadpoolctl import threadpool_info

    from langgraph_memory.embeddings import MiniLMEmbeddings

    n = args.n or (40_000 if args.quick else 100_000)
    n_queries = args.queries or (40 if args.quick else 200)
    rounds = args.rounds or (1 if args.quick else 3)
    ok, first = first_use_costs()
    print(
        f"ours: int8_available() = {ok}, first call {first * 1e3:.0f} ms in this process "
        "(imports onnx + ORT, makes a probe session)"
    )
    blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    print(
        "BLAS: "
        + "; ".join(
            f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')} "
            f"threads {i.get('num_threads')}"
            for i in blas
        )
    )
    print(f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')!r}")
    with ThreadPoolExecutor(1) as pool:
        rng = np.random.default_rng(3)
        random_rows = unit(rng.normal(size=(n, DIM)))
        random_queries = unit(rng.normal(size=(n_queries, DIM)))
        compare("random unit vectors", random_rows, random_queries, rounds, pool)
        del random_rows

        model = MiniLMEmbeddings()
        t = time.perf_counter()
        texts = all_turn_texts()[: 1000 if args.quick else None]
        turns = unit(model.embed_array(texts))
        qs = unit(model.embed_array([q for q, _, _ in all_questions()][:n_queries]))
        print(
            f"\n(embedded {len(turns)} LoCoMo turns and {len(qs)} questions in "
            f"{time.perf_counter() - t:.1f} s)"
        )
        compare("LoCoMo MiniLM vectors (real rows)", turns, qs, rounds, pool)
        noise = rng.normal(size=(n, DIM)).astype(np.float32) * np.float32(0.62 / np.sqrt(DIM))
        big = unit(turns[np.arange(n) % len(turns)] + noise)
        near = np.sum(big[:5000] * turns[np.arange(5000) % len(turns)], 1)
        print(f"\n(noise: mean cosine of a row to its turn {np.mean(near):.3f})")
        compare("LoCoMo MiniLM vectors + noise", big, qs, rounds, pool)
