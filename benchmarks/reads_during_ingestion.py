"""``build_context`` while a burst of messages is being ingested, against the same reads
on a quiet store.

Usage:
    python benchmarks/reads_during_ingestion.py [--before 1000] [--burst 5000] [--every-ms 20]

One SQLite store, the packaged all-MiniLM-L6-v2, one user holding ``--before`` messages
(embedded and placed). Then a reader thread builds a context (budget 1000, a new query
each time, so its embedding is part of the call) every ``--every-ms`` ms while the main
thread adds ``--burst`` more messages as fast as it can and the background worker
embeds, places and extracts them. Prints, measured in this run:

- the reads during the burst: how many, p50 / p95 / max ms, and where the slowest spent
  their time (the phases of ``ContextResult.timings_ms``);
- the same number of reads on the same store once the worker is idle (the baseline),
  and the ratio of the two p95s.

Messages are the seeded synthetic chat of ``latency.py`` (English and Chinese).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time

from latency import OBJECTS, SUBJECTS, pct, synth

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import MiniLMEmbeddings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=int, default=1000, help="messages stored first")
    parser.add_argument("--burst", type=int, default=5000, help="messages added meanwhile")
    parser.add_argument("--every-ms", type=float, default=20.0, help="pause between reads")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    texts = [synth(rng, i) for i in range(args.before + args.burst)]
    model = MiniLMEmbeddings()
    model.embed_documents(["warm up"] * 8)
    mm = MemoryManager(tempfile.mkdtemp(prefix="lgm-reads-"), embeddings=model)
    mm.maintenance.warm_up()
    for i, text in enumerate(texts[: args.before]):
        mm.add_message("bench-user", f"s{i // 50}", "user" if i % 2 == 0 else "assistant", text)
    mm.flush()

    def question(q: int) -> str:
        return f"what did {rng.choice(SUBJECTS)} say about {rng.choice(OBJECTS)} {q}?"

    reads: list[tuple[float, dict[str, float]]] = []
    stop = threading.Event()

    def reader() -> None:
        q = 0
        while not stop.is_set():
            a = time.perf_counter()
            ctx = mm.build_context("bench-user", "live", question(q), token_budget=1000)
            reads.append(((time.perf_counter() - a) * 1e3, dict(ctx.timings_ms)))
            q += 1
            time.sleep(args.every_ms / 1e3)

    thread = threading.Thread(target=reader, name="reader")
    thread.start()
    t0 = time.perf_counter()
    for i, text in enumerate(texts[args.before :]):
        session = f"t{i // 50}"
        mm.add_message("bench-user", session, "user" if i % 2 == 0 else "assistant", text)
    mm.flush()
    burst_s = time.perf_counter() - t0
    stop.set()
    thread.join()

    quiet: list[float] = []
    for q in range(len(reads)):
        a = time.perf_counter()
        mm.build_context("bench-user", "live", question(10_000 + q), token_budget=1000)
        quiet.append((time.perf_counter() - a) * 1e3)
    mm.close()

    during = [ms for ms, _ in reads]
    print(f"burst: {args.burst} messages ingested in {burst_s:.1f} s (worker included)")
    print(
        f"build_context during the burst:   n {len(during)}  p50 / p95 / max ms "
        f"{pct(during, 50):.1f} / {pct(during, 95):.1f} / {max(during):.1f}"
    )
    print(
        f"build_context on the quiet store: n {len(quiet)}  p50 / p95 / max ms "
        f"{pct(quiet, 50):.1f} / {pct(quiet, 95):.1f} / {max(quiet):.1f}"
    )
    print(f"p95 during / quiet:               {pct(during, 95) / pct(quiet, 95):.1f}")
    print("slowest reads during the burst (ms by phase):")
    for ms, phases in sorted(reads, key=lambda r: -r[0])[:3]:
        print(f"  {ms:7.1f}  " + ", ".join(f"{k} {v:.1f}" for k, v in phases.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
