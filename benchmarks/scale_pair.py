"""Two versions of the package on one kept ``scale.py`` store, taking turns query by query.

Usage:
    python benchmarks/scale_pair.py STORE OTHER [--queries 200] [--what xi]

``STORE`` is a folder ``scale.py --backend sqlite --store STORE`` built (it is copied for
each version and left as it is); ``OTHER`` is another checkout of the repository (a
``git worktree`` of the commit to compare with; this script runs both, with each
checkout's package). One process per version opens its copy
with a manager, as ``scale.py`` measures it; then each query runs in one process and
right after in the other (which goes first is drawn per query), so that both versions
meet the same load of a shared machine. Printed per version: ``build_context`` p50/p95
wall and main-thread CPU (``time.thread_time``: the work of the call itself, not the
waits for the query's embedding or the machine), for queries whose vector is cached
(``x``) and for new ones the model embeds (``i``), and ``search`` with a cached vector
(``s``).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WHAT = {
    "s": "search, vector cached",
    "x": "build_context, vector cached",
    "i": "build_context, embedded",
}


def serve(store: str, n: int) -> None:
    """One side: open the store, then run the query asked on stdin and print its times."""
    sys.path.insert(0, str(HERE))
    import scale

    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import MiniLMEmbeddings
    from langgraph_memory.storage import SQLiteBackend

    corpus = scale.Corpus(7)
    model = MiniLMEmbeddings()
    frames = np.asarray(model.embed_array(corpus.frames), dtype=np.float32)
    embedder = scale.PrecomputedEmbeddings(corpus, frames, model.model_id, fallback=model)
    mm = MemoryManager(backend=SQLiteBackend(store), embeddings=embedder)
    mm.flush()
    cached = corpus.queries(n, salt=1)
    embedder.queries.update(zip(cached, model.embed_array(cached), strict=True))
    mm.embeddings.embed_array(cached, persist=False)
    for q in corpus.queries(5, salt=-1):  # warm up, as scale.py does
        mm.search(scale.USER, q)
        mm.build_context(scale.USER, "live", q, token_budget=scale.BUDGET)
    fresh = corpus.queries(n, salt=2)
    print("ready", Path(sys.modules["langgraph_memory"].__file__ or "").parent.parent, flush=True)
    for line in sys.stdin:
        kind, i = line.split()
        wall, cpu = time.perf_counter(), time.thread_time()
        if kind == "s":
            mm.search(scale.USER, cached[int(i)], k=10)
        else:
            q = (fresh if kind == "i" else cached)[int(i)]
            mm.build_context(scale.USER, "live", q, token_budget=scale.BUDGET)
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        print(f"{wall * 1e3:.3f} {cpu * 1e3:.3f}", flush=True)
    mm.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", help="a store scale.py --store built")
    parser.add_argument("other", nargs="?", help="another checkout of the repository")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--what", default="xi", help="any of s, x, i (see the module docs)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.store, args.queries)
        return 0
    if args.other is None:
        parser.error("give the other checkout")
    sides = {"this": HERE.parent, "other": Path(args.other).resolve()}
    work = Path(tempfile.mkdtemp(prefix="lgm-pair-"))
    procs = {}
    try:
        for tag, root in sides.items():
            shutil.copytree(args.store, work / tag)
            procs[tag] = subprocess.Popen(
                [sys.executable, __file__, str(work / tag),
                 "--queries", str(args.queries), "--serve"],
                cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        for tag, p in procs.items():
            assert p.stdout is not None
            while not (line := p.stdout.readline()).startswith("ready"):
                if not line:
                    raise RuntimeError(f"the {tag} side stopped before it was ready")
            assert Path(line.split(maxsplit=1)[1].strip()) == sides[tag], line
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        loads = []
        draw = random.Random(0)
        for kind in args.what:
            for i in range(args.queries):
                order = list(procs)
                draw.shuffle(order)
                for tag in order:
                    p = procs[tag]
                    assert p.stdin is not None and p.stdout is not None
                    p.stdin.write(f"{kind} {i}\n")
                    p.stdin.flush()
                    wall, cpu = map(float, p.stdout.readline().split())
                    times.setdefault((tag, kind), []).append((wall, cpu))
                loads.append(os.getloadavg()[0])
    finally:
        for p in procs.values():
            if p.stdin is not None:
                p.stdin.close()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)
    print(f"load average {min(loads):.1f}-{max(loads):.1f}; {args.queries} queries a figure")
    for kind in args.what:
        for tag in procs:
            a = np.asarray(times[(tag, kind)])
            wall = np.percentile(a[:, 0], [50, 95])
            cpu = np.percentile(a[:, 1], [50, 95])
            print(
                f"{WHAT[kind]:<30} {tag:<6} wall p50/p95 {wall[0]:6.2f} / {wall[1]:6.2f} ms, "
                f"main-thread CPU {cpu[0]:6.2f} / {cpu[1]:6.2f} ms"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
