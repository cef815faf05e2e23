"""SIGKILL at random moments of ``delete_user`` and ``delete``: nothing half-done.

Each run copies a seeded SQLite store (Ann: 120 messages, a document, a core block, a
store item; Bob: 50 messages), runs one deletion in a child process and kills it with
SIGKILL at a random moment of it (spread over the time the operation takes unkilled),
then reopens the store, which finishes an interrupted deletion from its tombstone
before anything else. Each outcome is "none" (nothing deleted), "all" (everything, no
copy of the deleted words left in the files) or half-done (target: 0). The harness is
the one of ``tests/test_atomic_deletion.py``.

    python benchmarks/crash_deletes.py --kills 50
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

from test_atomic_deletion import check, op_seconds, run_and_kill, seed, state, store_file  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=50, help="SIGKILLs per operation")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "seed"
        seed(template)
        before = state(store_file(template))
        for op in ("delete_user", "delete"):
            timing = Path(tmp) / f"{op}-timing"
            shutil.copytree(template, timing)
            took = op_seconds(timing, op)
            assert check(timing, op, before) == "all"
            outcomes: Counter[str] = Counter()
            killed = 0
            for n in range(args.kills):
                path = Path(tmp) / f"{op}-{n}"
                shutil.copytree(template, path)
                killed += run_and_kill(path, op, rng.uniform(0.0, took))
                result = check(path, op, before)
                outcomes["half-done" if result.startswith("half") else result] += 1
                if result.startswith("half"):
                    print(f"  {op} run {n}: {result}")
                shutil.rmtree(path)
            print(
                f"{op}: {args.kills} runs, {killed} killed mid-way (the operation takes "
                f"{took:.2f} s unkilled): nothing deleted {outcomes['none']}, all deleted "
                f"{outcomes['all']}, half-done {outcomes['half-done']}"
            )


if __name__ == "__main__":
    main()
