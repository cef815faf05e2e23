"""Damage: what opening a damaged SQLite store does, and what a backup killed midway leaves.

Usage:
    python benchmarks/damage.py [--cases 240] [--kills 60] [--messages 300]
                                [--backup-messages 3000] [--seed 0] [--keep DIR]

It measures the package it imports (``PYTHONPATH=.`` for a checkout that is not the one
installed), and the processes it starts import the same.

Three stores are made here (in a temporary directory, seeded text, the hashing embedder):
a store killed with ``SIGKILL`` while its write-ahead log held half of its messages (the
other half folded into the main file by a checkpoint; a marker is its last transaction),
a cleanly closed one (everything in the main file), and a backup of the latter.

Each damage case copies one of them and damages it at a random offset: random bytes or
zeros over 1 byte to 8 KiB, or the file cut short there. Targets, in turn: the log of the
killed store, the main file of the clean one, the backup, and both files of the killed
store (mixed). The copy is opened with the defaults (``SQLiteBackend(path)``) and every
message read back. Outcomes:

- refused: ``StoreDamagedError``;
- other clear error: what SQLite or the driver raised (``database disk image is
  malformed``, ``file is not a database``...), on open or on reading the messages;
- whole: every message there, as written. Of those, "last transaction dropped" counts the
  cases where the marker (the log's last transaction) is gone: damage to the last
  transaction reads as a crash during it, and opens without it, as SQLite does;
- altered silently: every message there but some text changed (bytes changed inside a
  record: SQLite keeps no checksum of its pages, so nothing can tell);
- short-or-empty-silently: fewer messages, no error (target 0).

Each kill starts a process that opens a store of ``--backup-messages`` messages and backs
it up (``backend.backup(dest)``), and kills it (``SIGKILL``) at a random moment between
the start of the backup and 1.3 times its usual length. Then: the destination is either
absent or opens with every message; a half-done backup is one that exists and does not
(target 0); leftover journals are ``*-journal`` files in the destination's directory
(target 0); and a new backup to the same destination must leave only its file there.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import langgraph_memory
from langgraph_memory import StoreDamagedError
from langgraph_memory.storage import SQLiteBackend

#: The processes started here import the package this one does.
ENV = {**os.environ, "PYTHONPATH": str(Path(langgraph_memory.__file__).parents[1])}

WRITE = r"""
import os, random, signal, sys
from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend

path, n, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(n)
words = "lake hill river town bread train winter garden letter music doctor".split()
backend = SQLiteBackend(path, checkpoint_seconds=1e9)
mm = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
for i in range(n):
    text = f"note {i}: " + " ".join(rng.choice(words) for _ in range(rng.randint(5, 60)))
    mm.add_message("ann", f"s{i % 5}", "user", text)
    if i == n // 2:
        mm.flush()
        backend.checkpoint(force=True)
mm.flush()
backend.set_meta("end", "1")
if how == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
mm.close()
"""

BACKUP = r"""
import sys
from langgraph_memory.storage import SQLiteBackend

backend = SQLiteBackend(sys.argv[1])
print("READY", flush=True)
backend.backup(sys.argv[2])
print("DONE", flush=True)
"""

TARGETS = {
    "log": ("crashed", ["memory.sqlite3-wal"]),
    "main": ("clean", ["memory.sqlite3"]),
    "backup": ("backup", ["memory.sqlite3"]),
    "mixed": ("crashed", ["memory.sqlite3", "memory.sqlite3-wal"]),
}


def write_store(path: Path, n: int, how: str) -> Path:
    subprocess.run(
        [sys.executable, "-c", WRITE, str(path), str(n), how],
        env=ENV,
        cwd=ENV["PYTHONPATH"],
        check=False,
    )
    return path


def read_store(path: Path) -> tuple[list[str], str | None]:
    """Every message's text (sorted), and the marker (raises what opening raises)."""
    backend = SQLiteBackend(path)
    try:
        return sorted(m.content for m in backend.iter_messages("ann")), backend.get_meta("end")
    finally:
        backend.close()


def damage(file: Path, rng: random.Random) -> str:
    """Damage ``file`` at a random offset; say how."""
    size = file.stat().st_size
    at = rng.randrange(size)
    kind = rng.choice(["bytes", "zeros", "cut"])
    if kind == "cut":
        os.truncate(file, at)
        return f"{file.name} cut at {at} of {size}"
    length = min(rng.choice([1, 16, 512, 4096, 8192]), size - at)
    with file.open("r+b") as f:
        f.seek(at)
        f.write(rng.randbytes(length) if kind == "bytes" else bytes(length))
    return f"{file.name}: {length} {kind} at {at} of {size}"


def classify(path: Path, expected: list[str]) -> str:
    try:
        texts, marker = read_store(path)
    except StoreDamagedError:
        return "refused"
    except Exception as exc:  # the driver's errors
        return f"error:{type(exc).__name__}"
    if len(texts) < len(expected):
        return "short"
    if texts != expected:
        return "altered"
    return "whole" if marker == "1" else "whole-last-dropped"


def run_damage(
    root: Path,
    stores: dict[str, Path],
    expected: list[str],
    cases: int,
    seed: int,
    keep: Path | None,
) -> Counter[str]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    names = list(TARGETS)
    for i in range(cases):
        target = names[i % len(names)]
        source, files = TARGETS[target]
        path = root / "case"
        shutil.rmtree(path, ignore_errors=True)
        shutil.copytree(stores[source], path)
        how = [damage(path / name, rng) for name in files]
        if keep is not None:
            shutil.rmtree(root / "as-damaged", ignore_errors=True)
            shutil.copytree(path, root / "as-damaged")
        result = classify(path, expected)
        counts[result] += 1
        counts[f"target:{target}"] += 1
        if result in ("short", "altered"):
            print(f"  {result}: case {i} ({target}): {'; '.join(how)}", flush=True)
            if keep is not None:
                shutil.copytree(root / "as-damaged", keep / f"case-{i}-{result}")
    return counts


def run_kills(root: Path, store: Path, expected: int, kills: int, seed: int) -> Counter[str]:
    rng = random.Random(seed + 1)
    backend = SQLiteBackend(store)
    t0 = time.perf_counter()
    backend.backup(root / "timed")
    seconds = time.perf_counter() - t0
    backend.close()
    counts: Counter[str] = Counter(backup_seconds_ms=round(seconds * 1000))
    for i in range(kills):
        dest = root / f"kill-{i}" / "copy.sqlite3"
        proc = subprocess.Popen(
            [sys.executable, "-c", BACKUP, str(store), str(dest)],
            stdout=subprocess.PIPE,
            env=ENV,
            cwd=ENV["PYTHONPATH"],
            text=True,
        )
        assert proc.stdout is not None
        proc.stdout.readline()
        time.sleep(rng.uniform(0, seconds * 1.3))
        proc.send_signal(signal.SIGKILL)
        said = proc.communicate()[0]
        counts["finished before the kill"] += "DONE" in said
        folder = dest.parent
        counts["leftover journals"] += len(list(folder.glob("*-journal")))
        counts["killed mid-copy (temporaries left)"] += (
            any(
                p.name.endswith(("partial", "partial-journal", "partial-wal", "partial-shm"))
                for p in folder.iterdir()
            )
            if folder.exists()
            else 0
        )
        if dest.exists():
            try:
                whole = len(read_store(dest)[0]) == expected
            except Exception:  # a cut copy under the final name
                whole = False
            counts["dest complete" if whole else "half-done backups"] += 1
            continue
        counts["dest absent"] += 1
        backend = SQLiteBackend(store)
        backend.backup(dest)
        backend.close()
        left = sorted(p.name for p in folder.iterdir() if p.name != dest.name)
        counts["temporaries left after the next backup"] += len(left)
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=240)
    ap.add_argument("--kills", type=int, default=60)
    ap.add_argument("--messages", type=int, default=300)
    ap.add_argument("--backup-messages", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", type=Path, help="copy the cases opened short or altered here")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="lgm-damage-"))
    try:
        t0 = time.perf_counter()
        crashed = write_store(root / "crashed", args.messages, "kill")
        clean = write_store(root / "clean", args.messages, "close")
        backend = SQLiteBackend(clean)
        backup = backend.backup(root / "backup").parent
        backend.close()
        stores = {"crashed": crashed, "clean": clean, "backup": backup}
        probe = root / "probe"
        shutil.copytree(crashed, probe)
        expected, marker = read_store(probe)
        assert len(expected) == args.messages and marker == "1", "the killed store is not whole"
        for name in ("clean", "backup"):
            shutil.rmtree(probe)
            shutil.copytree(stores[name], probe)
            assert read_store(probe)[0] == expected, f"the {name} store is not whole"
        damage_counts = run_damage(
            root / "cases", stores, expected, args.cases, args.seed, args.keep
        )
        big = write_store(root / "big", args.backup_messages, "close")
        kill_counts = run_kills(root / "kills", big, args.backup_messages, args.kills, args.seed)
        seconds = time.perf_counter() - t0
    finally:
        shutil.rmtree(root, ignore_errors=True)

    d, k = damage_counts, kill_counts
    errors = {key.split(":", 1)[1]: v for key, v in d.items() if key.startswith("error:")}
    targets = ", ".join(f"{t} {d[f'target:{t}']}" for t in TARGETS)
    print(f"damage cases: {args.cases} ({targets}; {args.messages} messages a store)")
    print(f"  refused (StoreDamagedError): {d['refused']}")
    print(f"  other clear error: {sum(errors.values())} {dict(sorted(errors.items()))}")
    whole = d["whole"] + d["whole-last-dropped"]
    print(
        f"  whole: {whole} (of which the last transaction dropped, as after a crash "
        f"during it: {d['whole-last-dropped']})"
    )
    print(f"  altered silently (bytes changed inside a record): {d['altered']}")
    print(f"  short-or-empty-silently: {d['short']}")
    print(
        f"SIGKILLs during backup: {args.kills} (a backup of {args.backup_messages} messages "
        f"takes {k['backup_seconds_ms']} ms here; killed at random in 0-130 % of that)"
    )
    print(
        f"  dest absent: {k['dest absent']}, dest complete: {k['dest complete']} "
        f"(finished before the kill: {k['finished before the kill']}); killed mid-copy: "
        f"{k['killed mid-copy (temporaries left)']}"
    )
    print(f"  half-done backups: {k['half-done backups']}")
    print(f"  leftover journals: {k['leftover journals']}")
    print(
        f"  temporaries left after the next backup: {k['temporaries left after the next backup']}"
    )
    print(f"({seconds:.0f} s)")


if __name__ == "__main__":
    main()
