"""Scale of task memory: build_context for a user with thousands of completed tasks.

Usage:
    python benchmarks/tasks_scale.py [--messages 2000] [--tasks 5000] [--queries 200]
    python benchmarks/tasks_scale.py --backend memory   # or sqlite (default)

One store, the packaged all-MiniLM-L6-v2, one user. Prints, measured in this run:

- ``build_context`` p50/p95 ms (budget 2000 tokens, query embedding included: every
  query is new) for the user holding ``--messages`` messages and no completed task
  (the baseline), half the queries asked from a session with a task in progress (its
  lessons ride along) and half from a plain session;
- the same for a second store holding the same messages and ``--tasks`` tasks
  started, given two steps and completed (episodes; the worker then writes a lesson
  per episode and embeds both), and the ratios of the two (the main figure). Both
  stores are open at once and read in turns, one query on each, so the load of the
  machine weighs on both alike;
- how long the tasks took to add, and the worker to reflect on them and embed them
  (when the stores are built in this run).

``--stores DIR`` keeps the two SQLite stores in ``DIR`` (built on the first run) and
reads copies of them in later runs: the same data read by two versions of the code.

Messages are the seeded synthetic chat of ``latency.py`` (English and Chinese); task
requests, steps and summaries are drawn from the same vocabulary, so queries share
words with many episodes and lessons.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from latency import OBJECTS, SUBJECTS, VERBS, synth

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import MiniLMEmbeddings
from langgraph_memory.storage import InMemoryBackend

USER = "bench-user"
TOOLS = ["shell", "browser", "calendar", "email", "search"]
OUTCOMES = ["success", "success", "success", "partial", "failed"]


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def queries(rng: random.Random, n: int, tag: str) -> list[str]:
    return [
        f"how did {rng.choice(SUBJECTS)} handle {rng.choice(OBJECTS)} {tag}{i}?" for i in range(n)
    ]


def add_tasks(mm: MemoryManager, rng: random.Random, n: int) -> None:
    for i in range(n):
        obj = rng.choice(OBJECTS)
        task = mm.tasks.start(USER, f"t{i // 100}", f"{rng.choice(VERBS)} {obj} #{i}")
        for _ in range(2):
            step = mm.tasks.step(
                USER, task, f"checked {rng.choice(OBJECTS)}", tool_name=rng.choice(TOOLS)
            )
            mm.tasks.update_step(
                USER,
                task,
                step,
                status=rng.choice(["completed", "completed", "failed"]),
                result=f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} it",
            )
        mm.tasks.complete(
            USER,
            task,
            outcome=rng.choice(OUTCOMES),
            summary=f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {obj}",
            target=obj,
        )


def open_manager(backend: str, path: Path, model: MiniLMEmbeddings) -> MemoryManager:
    if backend == "memory":
        return MemoryManager(backend=InMemoryBackend(), embeddings=model)
    return MemoryManager(path, embeddings=model)


def build(mm: MemoryManager, messages: int, tasks: int, seed: int) -> tuple[float, float]:
    """The user's messages (the same in every store of a seed) and ``tasks`` completed
    tasks; returns the seconds adding the tasks took, and the worker's rest after them."""
    rng = random.Random(seed)
    for i in range(messages):
        role = "user" if i % 2 == 0 else "assistant"
        mm.add_message(USER, f"s{i // 50}", role, synth(rng, i))
    mm.add_message(USER, "working", "user", "please fix the garden fence before Friday")
    mm.tasks.start(USER, "working", "fix the garden fence")  # in progress in both stores
    mm.flush()
    t0 = time.perf_counter()
    add_tasks(mm, rng, tasks)
    added = time.perf_counter() - t0
    t0 = time.perf_counter()
    mm.flush()  # lessons written, episodes and lessons embedded
    return added, time.perf_counter() - t0


def timed_pair(a: MemoryManager, b: MemoryManager, n: int, seed: int) -> tuple[list[float], ...]:
    """``build_context`` ms of ``n`` queries on each manager, taken in turns (one on
    ``a``, one on ``b``: the load of the machine weighs on both alike). Each query text
    is new (its embedding is computed); the even ones come from a session with a task in
    progress (its lessons ride along), the odd ones from a session without."""
    rng = random.Random(seed + 1)
    qa, qb = queries(rng, n, "a"), queries(rng, n, "b")
    for mm in (a, b):
        for session in ("live", "working"):
            mm.build_context(USER, session, "warm up the read path", token_budget=2000)
    times: tuple[list[float], list[float]] = ([], [])
    for i in range(n):
        session = "working" if i % 2 == 0 else "live"
        for mm, q, out in ((a, qa[i], times[0]), (b, qb[i], times[1])):
            t0 = time.perf_counter()
            ctx = mm.build_context(USER, session, q, token_budget=2000)
            out.append((time.perf_counter() - t0) * 1e3)
            assert ctx.tokens <= 2000
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=2_000)
    parser.add_argument("--tasks", type=int, default=5_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--backend", choices=["sqlite", "memory"], default="sqlite")
    parser.add_argument(
        "--stores",
        type=Path,
        default=None,
        help="keep the two SQLite stores here and read them again in later runs (each run "
        "reads copies); default: built afresh in a temporary directory",
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    model = MiniLMEmbeddings()
    model.embed_documents(["warm up"] * 8)
    root = args.stores or Path(tempfile.mkdtemp(prefix="lgm-tasks-scale-"))
    if args.backend == "memory" and args.stores is not None:
        parser.error("--stores keeps SQLite stores only")
    sizes = {"without": 0, "with": args.tasks}
    built: dict[str, tuple[float, float]] = {}
    managers = {}
    for name, tasks in sizes.items():
        path = root / f"{name}-{args.messages}-{tasks}-{args.seed}"
        fresh = args.backend == "memory" or not path.exists()
        if args.backend == "sqlite" and not fresh:
            path = Path(shutil.copytree(path, Path(tempfile.mkdtemp()) / "store"))
        mm = open_manager(args.backend, path, model)
        mm.maintenance.warm_up()
        if fresh:
            built[name] = build(mm, args.messages, tasks, args.seed)
            if args.stores is not None:  # kept for later runs; this run reads a copy
                mm.close()
                path = Path(shutil.copytree(path, Path(tempfile.mkdtemp()) / "store"))
                mm = open_manager(args.backend, path, model)
                mm.maintenance.warm_up()
        managers[name] = mm
    with_tasks = managers["with"]
    episodes, lessons = len(with_tasks.tasks.episodes(USER)), len(with_tasks.tasks.lessons(USER))
    base, loaded = timed_pair(managers["without"], with_tasks, args.queries, args.seed)
    for mm in managers.values():
        mm.close()

    def row(label: str, ms: list[float]) -> str:
        return f"{label:<44} {pct(ms, 50):7.2f} / {pct(ms, 95):7.2f}"

    print(f"backend: {args.backend}; messages for one user: {args.messages}")
    print(f"completed tasks: {args.tasks} -> {episodes} episodes, {lessons} lessons")
    if "with" in built:
        added, rest = built["with"]
        print(f"adding the tasks: {added:.1f} s; then the worker's rest: {rest:.1f} s")
    print("build_context p50 / p95 ms (budget 2000, query embedding included, in turns):")
    print(row("  no completed task", base))
    print(row(f"  + {args.tasks} completed tasks", loaded))
    print(
        f"ratio with tasks / without: p50 {pct(loaded, 50) / pct(base, 50):.2f}, "
        f"p95 {pct(loaded, 95) / pct(base, 95):.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
