"""Damage at random: a SQLite store whose main file, write-ahead log or backup was
damaged at a random offset is, on open, refused (``StoreDamagedError``, or another clear
error) or whole (every message there), never short or empty without a word; a backup
killed at a random moment leaves its destination absent or complete, and no journal.

``benchmarks/damage.py`` runs the same with hundreds of cases."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import langgraph_memory
from langgraph_memory import StoreDamagedError
from langgraph_memory.storage import SQLiteBackend

N = 300
#: The processes started here import the package the tests do.
ENV = {**os.environ, "PYTHONPATH": str(Path(langgraph_memory.__file__).parents[1])}

#: Writes n messages (half folded into the main file by a checkpoint, half left in the
#: log), then a marker as the last transaction; "kill" dies with the log unfolded.
WRITE = r"""
import os, signal, sys
from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend

path, n, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]
backend = SQLiteBackend(path, checkpoint_seconds=1e9)
mm = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
for i in range(n):
    mm.add_message("ann", "s1", "user", f"note {i} about the lake " + "and the hills " * 20)
    if i == n // 2:
        mm.flush()
        backend.checkpoint(force=True)
mm.flush()
backend.set_meta("end", "1")  # the last transaction: a crash may drop it, as SQLite does
if how == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
mm.close()
"""

#: Opens a store, says READY, and backs it up to argv[2] (killed somewhere in there).
BACKUP = r"""
import sys
from langgraph_memory.storage import SQLiteBackend

backend = SQLiteBackend(sys.argv[1])
print("READY", flush=True)
backend.backup(sys.argv[2])
print("DONE", flush=True)
"""


def write_store(path: Path, n: int, how: str) -> Path:
    subprocess.run(
        [sys.executable, "-c", WRITE, str(path), str(n), how],
        env=ENV,
        cwd=ENV["PYTHONPATH"],
        check=False,
    )
    assert (path / "memory.sqlite3").exists()
    return path


def messages(path: Path) -> int:
    """The messages a store opens with (raises what opening raises)."""
    backend = SQLiteBackend(path)
    try:
        return backend.stats().messages
    finally:
        backend.close()


def damage(file: Path, rng: random.Random) -> str:
    """Damage a file at a random offset the way disks, copies and crashes do: random
    bytes or zeros over 1 byte to 8 KiB, or the file cut short."""
    size = file.stat().st_size
    at = rng.randrange(size)
    kind = rng.choice(["bytes", "zeros", "cut"])
    if kind == "cut":
        os.truncate(file, at)
        return f"cut at {at}"
    length = min(rng.choice([1, 16, 512, 4096, 8192]), size - at)
    with file.open("r+b") as f:
        f.seek(at)
        f.write(os.urandom(length) if kind == "bytes" else bytes(length))
    return f"{length} {kind} at {at}"


def outcome(path: Path) -> str:
    try:
        n = messages(path)
    except StoreDamagedError:
        return "refused"
    except Exception as exc:  # a clear error: the driver's "malformed", "not a database"
        return f"error: {type(exc).__name__}: {exc}"
    return "whole" if n == N else f"SHORT: {n} of {N}"


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A store killed with its log unfolded, a cleanly closed one and a backup."""
    root = tmp_path_factory.mktemp("stores")
    crashed = write_store(root / "crashed", N, "kill")
    clean = write_store(root / "clean", N, "close")
    backend = SQLiteBackend(clean)
    backup = backend.backup(root / "backup")
    backend.close()
    assert (crashed / "memory.sqlite3-wal").stat().st_size > 100_000
    for path in (crashed, clean, backup.parent):
        probe = root / f"probe-{path.name}"
        shutil.copytree(path, probe)
        assert messages(probe) == N
    return {"log": crashed, "main": clean, "backup": backup.parent, "mixed": crashed}


TARGETS = {
    "log": ["memory.sqlite3-wal"],
    "main": ["memory.sqlite3"],
    "backup": ["memory.sqlite3"],
    "mixed": ["memory.sqlite3", "memory.sqlite3-wal"],
}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_random_damage_is_refused_or_opens_whole(
    stores: dict[str, Path], tmp_path: Path, target: str, seed: int
) -> None:
    rng = random.Random(f"{target}-{seed}")
    path = tmp_path / "store"
    shutil.copytree(stores[target], path)
    done = [f"{name}: {damage(path / name, rng)}" for name in TARGETS[target]]
    result = outcome(path)
    assert not result.startswith("SHORT"), (done, result)


@pytest.fixture(scope="module")
def big_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, float]:
    """A store of a few thousand messages, and how long a backup of it takes."""
    path = write_store(tmp_path_factory.mktemp("big") / "s", 2000, "close")
    n = messages(path)
    backend = SQLiteBackend(path)
    t0 = time.perf_counter()
    backend.backup(path.parent / "timed")
    seconds = time.perf_counter() - t0
    backend.close()
    return path, n, seconds


def kill_during_backup(store: Path, dest: Path, delay: float) -> str:
    """Start a backup of ``store`` to ``dest`` in a process, kill it ``delay`` seconds
    after it starts; return what the process said last."""
    proc = subprocess.Popen(
        [sys.executable, "-c", BACKUP, str(store), str(dest)],
        stdout=subprocess.PIPE,
        env=ENV,
        cwd=ENV["PYTHONPATH"],
        text=True,
    )
    assert proc.stdout is not None
    said = proc.stdout.readline().strip()
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    said = proc.communicate()[0].strip() or said
    return said


@pytest.mark.parametrize("seed", range(6))
def test_a_backup_killed_at_random_leaves_nothing_or_the_whole_copy(
    big_store: tuple[Path, int, float], tmp_path: Path, seed: int
) -> None:
    store, n, seconds = big_store
    dest = tmp_path / "dest" / "copy.sqlite3"
    delay = random.Random(seed).uniform(0, seconds * 1.3)
    kill_during_backup(store, dest, delay)
    assert not list(dest.parent.glob("*-journal"))  # nothing a later open would roll back
    if dest.exists():
        assert messages(dest) == n  # complete, checked as a copy arriving here
    else:
        backend = SQLiteBackend(store)
        assert backend.backup(dest) == dest
        backend.close()
        # the next backup to the same destination cleared what the killed one left
        assert [p.name for p in dest.parent.iterdir()] == ["copy.sqlite3"]
        assert messages(dest) == n
