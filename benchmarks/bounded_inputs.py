"""Bounded input: peak memory of refused documents, and store searches after the largest
value accepted.

1. ``add_document`` on inputs over the limit or without an end, each in a fresh child
   process (a device, a FIFO fed without end, a file larger than the limit, a file whose
   byte size passes the pre-read check but whose text is longer than the limit): the
   rise of the child's peak RSS during the call, against the limit
   (``write.max_document_chars`` characters; target: at most 2 × the limit).
2. ``MemoryStore.search`` p95 over a namespace of small items, before and after the
   largest value ``write.max_item_bytes`` accepts is stored in it, in alternating rounds
   (target: within ± 10 %).

    python benchmarks/bounded_inputs.py
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, sys
from pathlib import Path
from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024

limit = int(sys.argv[2])
config = MemoryConfig(write={"max_document_chars": limit})
mm = MemoryManager(embeddings=HashingEmbeddings(), config=config)
mm.documents.add("ann", "warm up: a short document")
before = hwm()
try:
    mm.documents.add("ann", Path(sys.argv[1]))
    outcome = "accepted"
except (ValueError, TypeError, OSError) as exc:
    outcome = type(exc).__name__ + ": " + str(exc)[:90]
print(json.dumps({"rise": hwm() - before, "outcome": outcome}))
mm.close()
"""


def _child(path: str, limit: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, path, str(limit)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def documents(limit: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.txt"  # larger than 4 bytes per allowed character
        with big.open("w") as fh:
            fh.write("word " * (limit + 1000))
        long_text = Path(tmp) / "long.txt"  # passes the byte check, longer than the limit
        with long_text.open("w") as fh:
            fh.write("a" * int(limit * 1.5))
        fifo = Path(tmp) / "endless.fifo"
        os.mkfifo(fifo)
        stop = threading.Event()

        def feed() -> None:  # a writer without end, until the reader is gone
            try:
                with open(fifo, "wb") as out:  # noqa: PTH123
                    while not stop.is_set():
                        out.write(b"x" * 65536)
            except (BrokenPipeError, OSError):
                pass

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        cases = {
            "/dev/zero": "/dev/zero",
            "a FIFO fed without end": str(fifo),
            f"a file of {big.stat().st_size:,} bytes": str(big),
            f"a file of {long_text.stat().st_size:,} characters": str(long_text),
        }
        print(f"add_document, limit {limit:,} characters (peak RSS rise / limit in bytes):")
        for name, path in cases.items():
            got = _child(path, limit)
            rise = int(got["rise"])  # type: ignore[call-overload]
            print(f"  {name:38s} +{rise / 1e6:7.1f} MB = {rise / limit:4.2f} x  {got['outcome']}")
        stop.set()
        try:  # unblock the feeder if no reader ever opened the FIFO
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass


def store_search(items: int, rounds: int, queries: int) -> None:
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings
    from langgraph_memory.integrations.graph.store import MemoryStore

    with (
        tempfile.TemporaryDirectory() as tmp,
        MemoryManager(Path(tmp) / "mem", embeddings=HashingEmbeddings()) as mm,
    ):
        store = MemoryStore(
            mm, index={"dims": 256, "embed": HashingEmbeddings(), "fields": ["text"]}
        )
        ns = ("memories", "ann")
        for i in range(items):
            store.put(
                ns, f"k{i}", {"text": f"note {i}: ann likes topic {i % 17} and place {i % 5}"}
            )
        limit = mm.config.write.max_item_bytes
        filler = "x" * (limit - 100)
        largest = {"text": "the largest value accepted", "blob": filler}
        assert len(json.dumps(largest).encode()) <= limit
        words = [f"topic {i % 17} place {i % 5}" for i in range(queries)]

        def p95() -> float:
            times = []
            for q in words:
                t = time.perf_counter()
                store.search(ns, query=q, limit=10)
                times.append(time.perf_counter() - t)
            return statistics.quantiles(times, n=20)[18] * 1000

        without, with_big = [], []
        for _ in range(rounds):
            store.delete(ns, "largest")
            without.append(p95())
            store.put(ns, "largest", largest)
            with_big.append(p95())
        a, b = statistics.mean(without), statistics.mean(with_big)
        print(
            f"MemoryStore.search p95 over {items} items, {rounds} rounds x {queries} queries: "
            f"{a:.2f} ms without, {b:.2f} ms with the largest value accepted ({limit:,} bytes): "
            f"{(b / a - 1) * 100:+.1f} %"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=10_000_000, help="max_document_chars")
    ap.add_argument("--items", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--queries", type=int, default=200)
    args = ap.parse_args()
    documents(args.limit)
    store_search(args.items, args.rounds, args.queries)


if __name__ == "__main__":
    main()
