"""Deletion is all or nothing under SIGKILL.

A child process opens a seeded SQLite store and runs ``delete_user("ann")`` or
``delete("ann", ids)``; the parent kills it with SIGKILL at a random moment of the
operation. Reopening the store (which finishes an interrupted deletion from its
tombstone before anything else) must show either nothing deleted or everything: for
``delete_user``, Ann's messages, records (documents, core blocks, store items, the
hierarchy) all there or all gone; for ``delete``, the ten messages all there or all
gone and, when gone, no copy of their words anywhere in the files. Bob is never
touched. ``benchmarks/crash_deletes.py`` runs the same check over many more kills.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
import sigkill

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")]

#: The words only the ten messages ``delete`` removes hold.
MARKERS = [f"quokka{chr(97 + i)}{chr(122 - i)}" for i in range(10)]

CHILD = r"""
import sys, time
from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
path, op = sys.argv[1], sys.argv[2]
mm = MemoryManager(path, embeddings=HashingEmbeddings())
ids = [f"target-{i}" for i in range(10)]
print("GO", flush=True)
t = time.perf_counter()
if op == "delete_user":
    mm.delete_user("ann")
else:
    mm.delete("ann", ids)
print(f"DONE {time.perf_counter() - t:.4f}", flush=True)
mm.close()
"""


def seed(path: Path) -> None:
    """A store with Ann (120 messages, ten of them ``target-i`` holding a marker word, a
    document, a core block, a store item) and Bob (50 messages, a core block, an item)."""
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings

    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        for i in range(120):
            if i % 12 == 5:
                j = i // 12
                text = f"Remember the code word {MARKERS[j]} for the garden shed, note {i}."
                mm.add_message("ann", f"s{i % 4}", "user", text, message_id=f"target-{j}")
            else:
                mm.add_message("ann", f"s{i % 4}", "user", f"Ann's note {i} about tea and Lyon.")
        for i in range(50):
            mm.add_message("bob", f"s{i % 2}", "user", f"Bob's note {i} about coffee.")
        mm.flush(timeout=120)
        mm.documents.add("ann", "# Shed\nThe shed key hangs by the door.", document_id="shed")
        for user in ("ann", "bob"):
            mm.items.set_core_block(user, "human", f"{user} likes quiet mornings")
            mm.items.put(("memories", user), "k1", {"value": {"note": f"{user} item"}})
        mm.flush(timeout=120)


def state(db: Path) -> dict[str, tuple[int, ...]]:
    """Per user: (messages, vectors, records, postings) read from the file itself."""
    con = sqlite3.connect(db)
    try:
        out = {}
        for user in ("ann", "bob"):
            out[user] = tuple(
                con.execute(f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", (user,)).fetchone()[
                    0
                ]
                for table in ("messages", "vectors", "records", "postings")
            )
        out["targets"] = (
            con.execute("SELECT COUNT(*) FROM messages WHERE id LIKE 'target-%'").fetchone()[0],
        )
        out["tombstones"] = (
            con.execute("SELECT COUNT(*) FROM records WHERE kind = 'deletion'").fetchone()[0],
        )
        return out
    finally:
        con.close()


def store_file(path: Path) -> Path:
    return next(p for p in path.iterdir() if p.suffix in {".db", ".sqlite3", ".sqlite"})


def op_seconds(path: Path, op: str) -> float:
    """How long ``op`` takes over ``path`` in a child, unkilled (it is run)."""
    return sigkill.seconds(sigkill.run(CHILD, [str(path), op], timeout=300))


def run_and_kill(path: Path, op: str, delay: float) -> bool:
    """Run ``op`` in a child over ``path`` and SIGKILL it ``delay`` s after it starts;
    returns whether it was killed before it finished."""
    return sigkill.run_and_kill(CHILD, [str(path), op], delay) is None


def reopen(path: Path) -> None:
    """Open and close the store (finishing any interrupted deletion)."""
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings

    MemoryManager(path, embeddings=HashingEmbeddings()).close()


def raw(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(path.iterdir()) if p.is_file())


def check(path: Path, op: str, before: dict[str, tuple[int, ...]]) -> str:
    """``"none"`` or ``"all"`` (what the operation did after reopening), or a description
    of the half-done state it left."""
    reopen(path)
    after = state(store_file(path))
    if after["bob"] != before["bob"] or after["tombstones"] != (0,):
        return f"half-done: bob {before['bob']} -> {after['bob']}, {after['tombstones']}"
    if op == "delete_user":
        if after["ann"] == before["ann"]:
            return "none"
        return "all" if after["ann"] == (0, 0, 0, 0) else f"half-done: ann {after['ann']}"
    if after["targets"] == before["targets"]:
        return "none"
    if after["targets"] != (0,) or after["ann"][0] != before["ann"][0] - 10:
        return f"half-done: targets {after['targets']}, ann {after['ann']}"
    data = raw(path)
    left = [m for m in MARKERS if m.encode() in data]
    return f"half-done: {left} still on disk" if left else "all"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple[int, ...]]]:
    path = tmp_path_factory.mktemp("seed") / "mem"
    seed(path)
    return path, state(store_file(path))


@pytest.mark.parametrize("op", ["delete_user", "delete"])
def test_a_deletion_killed_at_any_moment_is_all_or_nothing(
    seeded: tuple[Path, dict[str, tuple[int, ...]]], tmp_path: Path, op: str
) -> None:
    template, before = seeded
    assert before["ann"][0] == 120 and before["targets"] == (10,) and before["ann"][2] > 0
    # how long the operation takes here, unkilled, to spread the kills over it
    full = tmp_path / "full"
    shutil.copytree(template, full)
    took = op_seconds(full, op)
    assert check(full, op, before) == "all"
    rng = random.Random(7)
    outcomes, killed = [], 0
    for n in range(4):
        path = tmp_path / f"kill{n}"
        shutil.copytree(template, path)
        killed += run_and_kill(path, op, rng.uniform(0.0, took))
        outcomes.append(check(path, op, before))
    assert all(o in {"none", "all"} for o in outcomes), outcomes
    assert killed >= 1  # the kills landed inside the operation
