"""Scale of the long-term layers: build_context for a user with many long-term entries.

Usage:
    python benchmarks/layers_scale.py [--messages 10000] [--entries 10000] [--queries 200]

One SQLite store, the packaged all-MiniLM-L6-v2, one user. Prints, measured in this run:

- ``build_context`` p50/p95 ms (budget 2000 tokens, query embedding included: every
  query is new) for the user holding ``--messages`` messages and no long-term entry
  besides what extraction made of those messages (the baseline);
- the same after ``--entries`` long-term entries are added (60 % facts, 30 %
  episodes of completed tasks, 10 % agent traits; reflection adds a lesson per
  episode and insights over the facts, counted in the output), and the ratio of
  the two;
- the same once more from a second manager opened on the store (a process start:
  its entry mirror is read from the store's index, nothing is re-embedded);
- how long adding the entries took, and how long the worker then took to reflect on
  them and embed what it had not embedded yet.

Messages are the seeded synthetic chat of ``latency.py`` (English and Chinese).
Facts, episodes and traits go in through the long-term layer and the task API
(``start_task``/``complete_task``), with texts drawn from the same vocabulary so
queries share words with many of them.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from datetime import datetime, timedelta, timezone

import numpy as np
from latency import OBJECTS, SUBJECTS, TIMES, synth

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import MiniLMEmbeddings

USER = "bench-user"
RELATIONS = ["works_on", "owns", "prefers", "visited", "plans", "repaired", "reviewed", "ordered"]
TRAITS = ["tone", "code_language", "answer_length", "format", "units", "greeting"]


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def timed_contexts(mm: MemoryManager, queries: list[str]) -> list[float]:
    mm.build_context(USER, "live", "warm up the read path", token_budget=2000)
    out = []
    for q in queries:
        a = time.perf_counter()
        ctx = mm.build_context(USER, "live", q, token_budget=2000)
        out.append((time.perf_counter() - a) * 1e3)
        assert ctx.tokens <= 2000
    return out


def query_set(rng: random.Random, n: int, tag: str) -> list[str]:
    return [
        f"what did {rng.choice(SUBJECTS)} say about {rng.choice(OBJECTS)} {tag}{i}?"
        for i in range(n)
    ]


def add_entries(mm: MemoryManager, rng: random.Random, n: int) -> None:
    lt = mm._longterm  # the long-term layer, as extraction writes it
    t0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
    for i in range(n):
        kind = i % 10
        if kind < 6:
            lt.facts.add_fact(
                USER,
                f"{rng.choice(SUBJECTS)} {i}",
                rng.choice(RELATIONS),
                f"{rng.choice(OBJECTS)} {rng.choice(TIMES)} #{i}",
                valid_from=t0 + timedelta(minutes=i),
                source_ids=[f"m{i}"],
            )
        elif kind < 9:
            task = mm.tasks.start(
                USER, f"t{i // 100}", f"{rng.choice(VERBS)} {rng.choice(OBJECTS)}"
            )
            mm.tasks.step(USER, task, f"checked {rng.choice(OBJECTS)}", tool_name="shell")
            mm.tasks.complete(
                USER,
                task,
                outcome=rng.choice(["success", "success", "failed"]),
                summary=f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} it #{i}",
                target=rng.choice(OBJECTS),
            )
        else:
            lt.add_trait(USER, f"{rng.choice(TRAITS)}_{i}", f"value {i}")


VERBS = ["booked", "fixed", "cancelled", "reviewed", "planned", "moved", "painted", "sold"]


def entry_counts(mm: MemoryManager) -> str:
    layers = mm.stats(USER)["layers"]
    episodes, lessons, insights = (
        len(mm.tasks.episodes(USER)),
        len(mm.tasks.lessons(USER)),
        len(mm.profile.insights(USER)),
    )
    return (
        f"{layers['facts']} facts, {episodes} episodes, {layers['traits']} traits, "
        f"{lessons} lessons, {insights} insights"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    model = MiniLMEmbeddings()
    model.embed_documents(["warm up"] * 8)
    path = tempfile.mkdtemp(prefix="lgm-layers-scale-")
    mm = MemoryManager(path, embeddings=model)
    mm.maintenance.warm_up()
    for i in range(args.messages):
        role = "user" if i % 2 == 0 else "assistant"
        mm.add_message(USER, f"s{i // 50}", role, synth(rng, i))
    mm.flush()
    before = entry_counts(mm)
    base = timed_contexts(mm, query_set(rng, args.queries, "a"))

    t0 = time.perf_counter()
    add_entries(mm, rng, args.entries)
    added_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    mm.flush()  # the worker embeds the new entries
    embed_s = time.perf_counter() - t0
    after = entry_counts(mm)
    with_entries = timed_contexts(mm, query_set(rng, args.queries, "b"))
    mm.close()
    mm = MemoryManager(path, embeddings=model)
    t0 = time.perf_counter()
    mm.build_context(USER, "live", "the first read of a new process", token_budget=2000)
    first_ms = (time.perf_counter() - t0) * 1e3
    reopened = timed_contexts(mm, query_set(rng, args.queries, "c"))
    mm.close()

    def row(label: str, ms: list[float]) -> str:
        return f"{label:<52} {pct(ms, 50):7.2f} / {pct(ms, 95):7.2f}"

    print(f"messages for one user (SQLite):   {args.messages}")
    print(f"long-term entries before / after: {before} / {after}")
    print(
        f"adding {args.entries} entries: {added_s:.1f} s; then the worker's rest: {embed_s:.1f} s"
    )
    print("build_context p50 / p95 ms (budget 2000, query embedding included):")
    print(row("  no long-term entries beyond extraction", base))
    print(row(f"  + {args.entries} long-term entries", with_entries))
    print(row("  + the same, a new manager on the store", reopened))
    print(f"  first read of the new manager (mirror loaded): {first_ms:.1f} ms")
    print(f"p95 ratio with entries / without: {pct(with_entries, 95) / pct(base, 95):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
