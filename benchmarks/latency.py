"""Write-path and read-path latency of langgraph_memory on SQLite, with the default model.

Usage:
    python benchmarks/latency.py [--n 10000] [--queries 200]

Prints, all measured in this run:
- ``add_message`` p50/p95 ms while the background worker embeds;
- ingestion throughput (messages/s from the first ``add_message`` to the end of
  ``flush``) against the raw throughput of the same model embedding the same
  texts in one call (the ceiling), and their ratio; one-time loads (model
  weights, jieba's dictionaries) happen before either timing. The raw call runs
  before the ingestion and again after the manager is closed, and the ceiling is
  both together (texts over time): this machine's speed drifts by 10-15 % within
  minutes, and one measurement on one side moved the ratio by as much;
- the CPU seconds the process spent from the first ``add_message`` to the end of ``flush``
  (the model's included), and the background worker thread's own (Linux);
- ``build_context`` p50/p95 ms for one user holding ``--n`` messages, query
  embedding included (every query is new, so no cache hit helps);
- the background drain alone against the same raw throughput: the same messages
  stored first (through the backend's insert, as ``add_message`` stores them; no
  worker runs meanwhile), then a manager opened and timed until its worker has
  embedded, indexed and placed them all (``--no-drain`` skips it).

Messages are synthetic (seeded templates in English and Chinese) so the figure
does not depend on a data set.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time

import numpy as np

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import MiniLMEmbeddings

SUBJECTS = [
    "my sister",
    "our team",
    "the landlord",
    "my doctor",
    "Grandma",
    "the new manager",
    "my neighbour",
    "the kids",
    "my best friend",
    "the client",
]
VERBS = [
    "recommended",
    "complained about",
    "booked",
    "cancelled",
    "loved",
    "forgot",
    "asked me about",
    "bought",
    "painted",
    "fixed",
]
OBJECTS = [
    "a trip to Kyoto",
    "the blue bicycle",
    "a vegan bakery downtown",
    "the quarterly report",
    "a jazz concert",
    "the broken dishwasher",
    "a pottery class",
    "the hiking trail",
    "a birthday cake",
    "the garden fence",
    "a chess tournament",
    "the old laptop",
]
TIMES = ["yesterday", "last week", "on Monday", "two days ago", "this morning", "last spring"]
ZH = [
    "我上周去了杭州出差",
    "我对花生过敏",
    "我们计划明年去云南旅游",
    "我最近在学弹钢琴",
    "我的猫叫小白",
    "公司下个月搬到新办公室",
    "我更喜欢喝绿茶",
    "周末和朋友去爬山了",
]


def synth(rng: random.Random, i: int) -> str:
    if rng.random() < 0.15:
        return f"{rng.choice(ZH)}，第{i}次提到。"
    return (
        f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
        f"{rng.choice(TIMES)}, note {i}."
    )


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="messages for one user")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-drain", dest="drain", action="store_false")
    parser.add_argument(
        "--backend", choices=["onnx", "torch"], default=None, help="the model's backend"
    )
    parser.add_argument("--int8", action="store_true", help="the int8 model (ONNX backend)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    texts = [synth(rng, i) for i in range(args.n)]

    model = MiniLMEmbeddings(backend=args.backend, quantize=args.int8)
    model.embed_documents(["warm up"] * 8)
    # The raw ceiling: the same model embedding the same texts in one call (messages
    # without a speaker name are indexed by their content alone).
    indexed = list(texts)
    raw_s = [raw_seconds(model, indexed)]

    path = tempfile.mkdtemp(prefix="lgm-latency-")
    mm = MemoryManager(path, embeddings=model)
    # One-time loads stay out of both timings: the model is warmed above, and jieba's
    # dictionaries (segmentation, part-of-speech) load here instead of on the first
    # Chinese message (~1.5 s) — what a server does at startup.
    mm.maintenance.warm_up()
    add_ms: list[float] = []
    t0, cpu0 = time.perf_counter(), time.process_time()
    for i, text in enumerate(texts):
        a = time.perf_counter()
        mm.add_message("bench-user", f"s{i // 50}", "user" if i % 2 == 0 else "assistant", text)
        add_ms.append((time.perf_counter() - a) * 1e3)
    mm.flush()
    ingest_tps = len(texts) / (time.perf_counter() - t0)
    ingest_cpu = time.process_time() - cpu0
    worker_cpu = thread_cpu_seconds(WORKER_THREAD)

    queries = [
        f"what did {rng.choice(SUBJECTS)} say about {rng.choice(OBJECTS)} {q}?"
        for q in range(args.queries)
    ]
    mm.build_context("bench-user", "live", "warm up the read path", token_budget=2000)
    ctx_ms: list[float] = []
    for q in queries:
        a = time.perf_counter()
        ctx = mm.build_context("bench-user", "live", q, token_budget=2000)
        ctx_ms.append((time.perf_counter() - a) * 1e3)
        assert ctx.tokens <= 2000
    stats = mm.stats("bench-user")
    mm.close()
    raw_s.append(raw_seconds(model, indexed))
    raw_tps = len(indexed) * len(raw_s) / sum(raw_s)
    drain_tps = drain(texts, model) if args.drain else None

    print(f"messages for one user (SQLite):      {stats['messages']}")
    print(f"add_message p50 / p95 ms:            {pct(add_ms, 50):.3f} / {pct(add_ms, 95):.3f}")
    print(
        f"raw embedding throughput (texts/s):  {raw_tps:.1f} "
        f"(before {len(indexed) / raw_s[0]:.1f}, after {len(indexed) / raw_s[1]:.1f})"
    )
    print(f"ingestion throughput (messages/s):   {ingest_tps:.1f}")
    print(f"ingestion / raw:                     {ingest_tps / raw_tps:.3f}")
    print(f"process CPU s during ingestion:      {ingest_cpu:.2f}")
    if worker_cpu is not None:  # its share of the model's work included
        print(f"background worker thread CPU s:      {worker_cpu:.2f}")
    print(
        f"build_context p50 / p95 ms (budget 2000, query embedding included): "
        f"{pct(ctx_ms, 50):.2f} / {pct(ctx_ms, 95):.2f}"
    )
    if drain_tps is not None:
        print(f"background drain alone (messages/s): {drain_tps:.1f}")
        print(f"background drain alone / raw:        {drain_tps / raw_tps:.3f}")
    return 0


#: The name of the manager's background worker thread (extraction, placing, indexing).
WORKER_THREAD = "langgraph-memory-embed"


def thread_cpu_seconds(name: str) -> float | None:
    """CPU seconds of the live thread called ``name`` so far (Linux ``/proc``), else ``None``."""
    import os
    import threading

    for t in threading.enumerate():
        if t.name == name and t.native_id is not None:
            try:
                with open(f"/proc/self/task/{t.native_id}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                return None
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return None


def raw_seconds(model: MiniLMEmbeddings, texts: list[str]) -> float:
    """Seconds the model takes to embed ``texts`` in one call."""
    t0 = time.perf_counter()
    model.embed_documents(texts)
    return time.perf_counter() - t0


def drain(texts: list[str], model: MiniLMEmbeddings) -> float:
    """Messages/s of the worker alone: everything stored first, then embedded,
    indexed and placed by a manager's background worker."""
    from datetime import datetime, timedelta, timezone

    from langgraph_memory.core.records import Message, index_text
    from langgraph_memory.core.tokens import tokenize
    from langgraph_memory.core.validation import new_message_id
    from langgraph_memory.storage import SQLiteBackend

    backend = SQLiteBackend(tempfile.mkdtemp(prefix="lgm-drain-"))
    start = datetime.now(timezone.utc)
    for i, text in enumerate(texts):
        msg = Message(
            id=new_message_id(),
            user_id="bench-user",
            session_id=f"s{i // 50}",
            role="user" if i % 2 == 0 else "assistant",
            content=text,
            timestamp=start + timedelta(seconds=i),
        )
        backend.insert_message(msg, tokenize(index_text(msg)))
    t0 = time.perf_counter()  # the worker starts with the manager
    mm = MemoryManager(backend=backend, embeddings=model)
    mm.flush()
    tps = len(texts) / (time.perf_counter() - t0)
    assert mm.stats("bench-user")["embedded"] == len(texts)
    mm.close()
    return tps


if __name__ == "__main__":
    raise SystemExit(main())
