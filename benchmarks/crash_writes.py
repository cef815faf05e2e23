"""SIGKILL at random moments of the long writes: a document's new version, the
background pass (embedding and extraction) and consolidation end as an unkilled run.

Each run copies a seeded SQLite store (Ann: a document at version 1, 240 completed tasks
over 40 targets, 240 queued messages holding statements; Bob: 20 messages), runs one
operation in a child process and kills it with SIGKILL at a random moment of it (spread
over the time it takes unkilled), then reopens the store and lets the background pass
and consolidation resume. Each outcome is "end" (the state of the unkilled run: the same
document chunks and versions, the same beliefs each once, the same knowledge each
topic once), "none" (a document still at version 1) or half-done (target: 0). The
harness is the one of ``tests/test_crash_writes.py``.

    python benchmarks/crash_writes.py --kills 30
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tests.test_crash_writes import OPS, outcome, reference, run_and_kill, seed  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=30, help="SIGKILLs per operation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ops", nargs="+", choices=OPS, default=list(OPS))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        template = work / "seed"
        seed(template)
        for op in args.ops:
            took, want, before = reference(template, work, op)
            outcomes: Counter[str] = Counter()
            killed = 0
            for n in range(args.kills):
                path = work / f"{op}-{n}"
                shutil.copytree(template, path)
                killed += run_and_kill(path, op, rng.uniform(0.0, took))
                outcomes[outcome(path, op, want, before)] += 1
                shutil.rmtree(path)
            print(
                f"{op}: {args.kills} runs, {killed} killed mid-way (it takes {took:.2f} s "
                f"unkilled): as unkilled {outcomes['end']}, as before {outcomes['none']}, "
                f"half-done {outcomes['half-done']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
