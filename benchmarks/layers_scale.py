"""Scale of the long-term layers: build_context for a user with many long-term entries.

Usage:
    python benchmarks/layers_scale.py [--messages 10000] [--entries 10000] [--queries 200]
    python benchmarks/layers_scale.py --stores DIR   # keep the stores, read copies later

SQLite stores, the packaged all-MiniLM-L6-v2, one user. Two stores are built: one with
``--messages`` messages and no long-term entry besides what extraction made of those
messages, and a copy of it to which ``--entries`` long-term entries are added (60 %
facts, 30 % episodes of completed tasks, 10 % agent traits; reflection adds a lesson per
episode and insights over the facts, counted in the output). Prints, measured in this
run on copies of the two (``--stores DIR`` keeps them, so later runs, of other versions
of the code too, read the same data):

- ``build_context`` p50/p95 ms (budget 2000 tokens, query embedding included: every
  query is new) on both stores, taken in turns (one query on each: the load of the
  machine weighs on both alike), and the ratio of the two p95s (the main figure);
- the same once more with a second manager opened on the entries store (a process
  start: its entry mirror is read from the store's index, nothing is re-embedded), and
  the first read of a new manager;
- how long adding the entries took, and how long the worker then took to reflect on
  them and embed what it had not embedded yet (when the stores were built).

Messages are the seeded synthetic chat of ``latency.py`` (English and Chinese).
Facts, episodes and traits go in through the long-term layer and the task API
(``start_task``/``complete_task``), with texts drawn from the same vocabulary so
queries share words with many of them.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
from latency import OBJECTS, SUBJECTS, TIMES, synth

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import MiniLMEmbeddings

USER = "bench-user"
RELATIONS = ["works_on", "owns", "prefers", "visited", "plans", "repaired", "reviewed", "ordered"]
TRAITS = ["tone", "code_language", "answer_length", "format", "units", "greeting"]


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


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


def build(path: Path, model: MiniLMEmbeddings, args: argparse.Namespace) -> tuple[str, ...]:
    """The store of messages at ``path / "messages"`` and, beside it, a copy of it with the
    entries added (``path / "entries"``); returns the counts before and after, and the
    seconds adding the entries took and the worker's rest after them."""
    rng = random.Random(args.seed)
    mm = MemoryManager(path / "messages", embeddings=model)
    mm.maintenance.warm_up()
    for i in range(args.messages):
        role = "user" if i % 2 == 0 else "assistant"
        mm.add_message(USER, f"s{i // 50}", role, synth(rng, i))
    mm.flush()
    before = entry_counts(mm)
    mm.close()
    shutil.copytree(path / "messages", path / "entries")
    mm = MemoryManager(path / "entries", embeddings=model)
    t0 = time.perf_counter()
    add_entries(mm, rng, args.entries)
    added_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    mm.flush()  # the worker embeds the new entries
    embed_s = time.perf_counter() - t0
    after = entry_counts(mm)
    mm.close()
    return before, after, f"{added_s:.1f}", f"{embed_s:.1f}"


def timed_pair(
    a: MemoryManager, b: MemoryManager, qa: list[str], qb: list[str]
) -> tuple[list[float], list[float]]:
    """``build_context`` ms of each query, on ``a`` and ``b`` in turns (one on each: the
    load of the machine weighs on both alike)."""
    for mm in (a, b):
        mm.build_context(USER, "live", "warm up the read path", token_budget=2000)
    out: tuple[list[float], list[float]] = ([], [])
    for x, y in zip(qa, qb, strict=True):
        for mm, q, times in ((a, x, out[0]), (b, y, out[1])):
            t0 = time.perf_counter()
            ctx = mm.build_context(USER, "live", q, token_budget=2000)
            times.append((time.perf_counter() - t0) * 1e3)
            assert ctx.tokens <= 2000
    return out


def copy_of(path: Path) -> Path:
    return Path(shutil.copytree(path, Path(tempfile.mkdtemp(prefix="lgm-layers-")) / "store"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--stores",
        type=Path,
        default=None,
        help="keep the two stores here and read copies of them in later runs (the same "
        "data read by two versions of the code); default: built afresh in a temp dir",
    )
    args = parser.parse_args(argv)
    model = MiniLMEmbeddings()
    model.embed_documents(["warm up"] * 8)
    root = args.stores or Path(tempfile.mkdtemp(prefix="lgm-layers-scale-"))
    root = root / f"{args.messages}-{args.entries}-{args.seed}"
    info = root / "built.txt"
    if not info.exists():
        root.mkdir(parents=True, exist_ok=True)
        info.write_text("\n".join(build(root, model, args)))
    before, after, added_s, embed_s = info.read_text().split("\n")
    rng = random.Random(args.seed + 1)
    plain = MemoryManager(copy_of(root / "messages"), embeddings=model)
    full_path = copy_of(root / "entries")
    full = MemoryManager(full_path, embeddings=model)
    plain.maintenance.warm_up()
    full.maintenance.warm_up()
    t0 = time.perf_counter()
    full.build_context(USER, "live", "the first read of a new process", token_budget=2000)
    first_ms = (time.perf_counter() - t0) * 1e3
    base, with_entries = timed_pair(
        plain, full, query_set(rng, args.queries, "a"), query_set(rng, args.queries, "b")
    )
    full.close()
    full = MemoryManager(full_path, embeddings=model)  # a new manager on the same store
    full.maintenance.warm_up()
    full.build_context(USER, "live", "the first read of a new process", token_budget=2000)
    base2, reopened = timed_pair(
        plain, full, query_set(rng, args.queries, "c"), query_set(rng, args.queries, "d")
    )
    plain.close()
    full.close()

    def row(label: str, ms: list[float]) -> str:
        return f"{label:<52} {pct(ms, 50):7.2f} / {pct(ms, 95):7.2f}"

    print(f"messages for one user (SQLite):   {args.messages}")
    print(f"long-term entries before / after: {before} / {after}")
    print(f"adding {args.entries} entries: {added_s} s; then the worker's rest: {embed_s} s")
    print("build_context p50 / p95 ms (budget 2000, query embedding included, in turns):")
    print(row("  no long-term entries beyond extraction", base))
    print(row(f"  + {args.entries} long-term entries", with_entries))
    print(row("  no long-term entries (second turn)", base2))
    print(row("  + the same, a second manager on the store", reopened))
    print(f"  first read of a new manager (mirror loaded): {first_ms:.1f} ms")
    print(
        f"p95 ratio with entries / without: {pct(with_entries, 95) / pct(base, 95):.2f} "
        f"(second manager: {pct(reopened, 95) / pct(base2, 95):.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
