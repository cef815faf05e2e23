"""Vector search alone: the exact float32 scan against int8 candidates re-scored in float32.

Usage:
    python benchmarks/vector_scan.py [--sizes 100000] [--queries 200] [--rounds 2]
        [--vectors minilm|random]

One ``VectorMatrix(384, int8=True)`` per size (what the SQLite and in-memory backends
keep), searched for the top 10 and the top 60 (the read path's candidate pool) of each
query, in turn with the int8 scan off (every row scored in float32) and on; printed per
round, all measured in this run: p50/p95 ms of each, and the int8 results against the
exact ones: recall@10, recall@60 and the share of result lists that are identical
(keys, order and scores).

Data: ``--vectors minilm`` (default) takes ``benchmarks/scale.py``'s messages (the
packaged all-MiniLM-L6-v2 of 1,024 sentence frames plus Gaussian noise: clusters of
near ties, a hard case for a coarse scan) and its queries embedded by the model;
``random`` uses seeded Gaussian vectors (every cosine near 0: the hardest case).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale import DIM, Corpus, PrecomputedEmbeddings  # noqa: E402

from langgraph_memory.retrieval import quantized, vectors  # noqa: E402


def data(kind: str, n: int, queries: int) -> tuple[np.ndarray, np.ndarray]:
    if kind == "random":
        rng = np.random.default_rng(3)
        return (
            rng.normal(size=(n, DIM)).astype(np.float32),
            rng.normal(size=(queries, DIM)).astype(np.float32),
        )
    from langgraph_memory.embeddings import MiniLMEmbeddings

    corpus = Corpus(7)
    model = MiniLMEmbeddings()
    frames = np.asarray(model.embed_array(corpus.frames), dtype=np.float32)
    emb = PrecomputedEmbeddings(corpus, frames, model.model_id)
    rows = np.stack([emb._message_vector(i) for i in range(n)])
    return rows, np.asarray(model.embed_array(corpus.queries(queries, salt=5)))


def run(m: vectors.VectorMatrix, qs: np.ndarray, int8: bool) -> tuple[list, list[float]]:
    vectors.INT8_ROWS = 32_768 if int8 else 10**12
    out, ms = [], []
    for k in (10, 60):
        for q in qs:
            t = time.perf_counter()
            out.append(m.search(q, k))
            ms.append((time.perf_counter() - t) * 1e3)
    return out, ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--vectors", choices=["minilm", "random"], default="minilm")
    args = parser.parse_args(argv)
    if not quantized.int8_available():
        print("ONNX Runtime is not installed: every scan is float32")
        return 1
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",")]
    rows, qs = data(args.vectors, max(sizes), args.queries)
    print(f"vectors: {args.vectors}; {args.queries} queries, top 10 and top 60 each")
    for n in sizes:
        m = vectors.VectorMatrix(DIM, int8=True)
        m.append(list(range(1, n + 1)), rows[:n])
        run(m, qs[:5], True)  # makes the int8 blocks
        for r in range(1, args.rounds + 1):
            exact, t_exact = run(m, qs, False)
            approx, t_int8 = run(m, qs, True)
            half = len(qs)

            def recall(a: list, b: list) -> float:
                return float(np.mean([len({x for x, _ in e} & {x for x, _ in g}) / len(e)
                                      for e, g in zip(a, b, strict=True)]))  # fmt: skip

            same = float(np.mean([e == g for e, g in zip(exact, approx, strict=True)]))
            print(
                f"{n:,} rows, round {r}: exact float32 p50/p95 "
                f"{np.percentile(t_exact, 50):.2f}/{np.percentile(t_exact, 95):.2f} ms; "
                f"int8 + float32 re-scoring {np.percentile(t_int8, 50):.2f}/"
                f"{np.percentile(t_int8, 95):.2f} ms; recall@10 "
                f"{recall(exact[:half], approx[:half]):.4f}, recall@60 "
                f"{recall(exact[half:], approx[half:]):.4f}, identical lists {same:.3f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
