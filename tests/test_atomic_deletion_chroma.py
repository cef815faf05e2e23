"""``delete_user`` on a persistent Chroma store is all or nothing under SIGKILL.

Chroma has no transaction across its collections; the deletion's durable tombstone (see
``langgraph_memory.write.pipeline``) is what makes it whole: written first, finished by
the next open before anything else. A child process opens a seeded Chroma store and runs
``delete_user("ann")``; the parent kills it with SIGKILL at a random moment of it.
Reopened, Ann's memory is all there or all gone (messages, documents, core blocks, store
items), and Bob's is untouched. The SQLite twin is ``tests/test_atomic_deletion.py``.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest
import sigkill

pytest.importorskip("chromadb")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")]


OPEN = r"""
import sys
from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage.chroma.backend import ChromaBackend

def open_store(path):
    return MemoryManager(backend=ChromaBackend.persistent(path), embeddings=HashingEmbeddings())
"""

CHILD = (
    OPEN
    + r"""
import time
mm = open_store(sys.argv[1])
print("GO", flush=True)
t = time.perf_counter()
mm.delete_user("ann")
print(f"DONE {time.perf_counter() - t:.4f}", flush=True)
mm.close()
"""
)

SEED = (
    OPEN
    + r"""
with open_store(sys.argv[1]) as mm:
    for i in range(60):
        mm.add_message("ann", f"s{i % 3}", "user", f"Ann's note {i} about tea and Lyon.")
    for i in range(30):
        mm.add_message("bob", f"s{i % 2}", "user", f"Bob's note {i} about coffee.")
    mm.flush(timeout=300)
    mm.documents.add("ann", "# Shed\nThe shed key hangs by the door.", document_id="shed")
    for user in ("ann", "bob"):
        mm.items.set_core_block(user, "human", f"{user} likes quiet mornings")
        mm.items.put(("memories", user), "k1", {"value": {"note": f"{user} item"}})
    mm.flush(timeout=300)
"""
)

STATE = (
    OPEN
    + r"""
import json
with open_store(sys.argv[1]) as mm:  # opening finishes an interrupted deletion
    out = {}
    for user in ("ann", "bob"):
        out[user] = [
            mm.stats(user)["messages"],
            len(mm.documents.list(user)),
            mm.items.core_block(user, "human"),
            mm.items.get(("memories", user), "k1") is not None,
            len(mm.search(user, "note about", k=50)),
        ]
    print("STATE " + json.dumps(out), flush=True)
"""
)


def _run(script: str, *args: str) -> str:
    return sigkill.run(script, list(args))


def state(path: Path) -> dict[str, list[object]]:
    import json

    return json.loads(_run(STATE, str(path)).split("STATE ", 1)[1])


def run_and_kill(path: Path, delay: float) -> float | None:
    """``delete_user`` in a child, SIGKILLed ``delay`` s after it starts (``None``);
    the seconds it took when it finished first."""
    return sigkill.run_and_kill(CHILD, [str(path)], delay)


def test_delete_user_on_chroma_killed_at_any_moment_is_all_or_nothing(tmp_path: Path) -> None:
    template = tmp_path / "seed"
    _run(SEED, str(template))
    before = state(template)
    assert before["ann"][:4] == [60, 1, "ann likes quiet mornings", True] and before["bob"][0] == 30
    full = tmp_path / "full"
    shutil.copytree(template, full)
    took = run_and_kill(full, 600.0)
    assert took is not None
    gone = state(full)
    assert gone["ann"] == [0, 0, "", False, 0] and gone["bob"] == before["bob"]
    rng = random.Random(5)
    outcomes = []
    for n in range(2):  # each opening imports Chroma anew: a few seconds a run
        path = tmp_path / f"kill{n}"
        shutil.copytree(template, path)
        run_and_kill(path, rng.uniform(0.0, took))
        after = state(path)
        assert after["bob"] == before["bob"], after
        outcomes.append(after["ann"])
    assert all(o in (before["ann"], gone["ann"]) for o in outcomes), outcomes
