"""Crash replay of hierarchy placement: messages whose vectors were stored but whose placement
in pages, chains and segments was never saved are placed on the next start, each exactly once.

The worker marks how far embedding goes before it stores a batch's vectors, and how far
placement goes once the batch's segments and session states are saved; on start (and after a
failed placement) it places the messages in between. Child processes die with ``os._exit`` at
each point of the placement; a new manager on the same SQLite store then replays it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.hierarchy.records import STM_KIND
from langgraph_memory.layers.hierarchy.recovery import EMBEDDING_MARK, PLACED_MARK
from langgraph_memory.storage import MemoryBackend, SQLiteBackend

ROOT = Path(__file__).resolve().parents[2]
USERS = ("ann", "bob")
CONFIG = {"stm_capacity_pages": 2}  # pages reach mid-term segments within a few turns

TURNS_SOURCE = r"""
def ingest(mm, start, n):
    for i in range(start, start + n):
        for user in ("ann", "bob"):
            mm.add_turn(user, f"s{i % 2}", user=f"Tea question {i}: green or black tea?",
                        assistant=f"Tea answer {i}: green tea, lightly brewed.")
"""
_ns: dict[str, Any] = {}
exec(TURNS_SOURCE, _ns)
ingest = _ns["ingest"]

CHILD = (
    TURNS_SOURCE
    + r"""
import os, sys
from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.hierarchy.recovery import PLACED_MARK

path, point = sys.argv[1], sys.argv[2]
cfg = MemoryConfig(hierarchy={"stm_capacity_pages": 2})
mm = MemoryManager(path, embeddings=HashingEmbeddings(), config=cfg)
ingest(mm, 0, 6)
mm.flush()  # placed and saved

def die(*args, **kwargs):
    os._exit(17)

h, calls = mm._parts.hierarchy, []
if point == "before_placement":  # vectors stored, nothing placed
    h.on_embedded = die
elif point == "mid_segments":  # one segment saved, the other user's not, no session state
    save_segment = h._save_segment
    h._save_segment = lambda seg: die() if calls.append(1) or len(calls) > 1 else save_segment(seg)
elif point == "after_segments":  # segments saved, no session state
    h._save_state = die
elif point == "after_states":  # everything saved but the placed mark
    set_mark = h.recovery._set_mark
    h.recovery._set_mark = lambda key, seq: die() if key == PLACED_MARK else set_mark(key, seq)
ingest(mm, 6, 6)
mm.flush()
print("NOT CRASHED")
"""
)


def manager(path: Path | None = None, backend: MemoryBackend | None = None) -> MemoryManager:
    cfg = MemoryConfig.flat(**CONFIG)
    return MemoryManager(path, backend=backend, embeddings=HashingEmbeddings(), config=cfg)


def placements(mm: MemoryManager, user: str) -> Counter[int]:
    """How often each message seq sits in a page: short-term (every session) or mid-term."""
    h = mm._parts.hierarchy
    seqs = [
        s
        for r in mm._backend.list_records(STM_KIND, user)
        for p in h.state(user, r.data["session_id"]).pages
        for s in p.seqs
    ]
    seqs += [s for seg in h.segments(user).values() for s in seg.seqs()]
    return Counter(seqs)


def assert_placed_once(mm: MemoryManager) -> None:
    for user in USERS:
        msgs = mm._backend.iter_messages(user)
        assert msgs and placements(mm, user) == Counter(m.seq for m in msgs), user
        for st in (mm._parts.hierarchy.state(user, s) for s in ("s0", "s1")):  # pages in order
            seqs = [s for p in st.pages for s in p.seqs]
            assert seqs == sorted(seqs)


def marks(path: Path) -> tuple[int, int]:
    backend = SQLiteBackend(path)
    try:
        return tuple(int(backend.get_meta(k) or 0) for k in (PLACED_MARK, EMBEDDING_MARK))  # type: ignore[return-value]
    finally:
        backend.close()


@pytest.mark.skipif(os.name != "posix", reason="needs os._exit in a child process")
@pytest.mark.parametrize(
    "point", ["before_placement", "mid_segments", "after_segments", "after_states"]
)
def test_a_crash_during_placement_is_replayed_on_start(tmp_path: Path, point: str) -> None:
    path = tmp_path / "mem"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), point],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert proc.returncode == 17, (proc.stdout, proc.stderr[-3000:])
    placed, embedding = marks(path)
    assert 0 < placed < embedding  # the second batch is embedded but not marked placed

    with manager(path) as mm:
        mm.flush()
        stats = mm.stats()
        assert stats["messages"] == 48 and stats["pending"] == 0
        assert_placed_once(mm)
    assert marks(path) == (embedding, embedding)
    with manager(path) as mm:  # what was saved, read back by a fresh process state
        mm.flush()
        assert_placed_once(mm)
        ingest(mm, 12, 2)  # and placement goes on from there
        mm.flush()
        assert_placed_once(mm)


def test_crash_simulated_in_process_then_reopen(tmp_path: Path) -> None:
    path = tmp_path / "mem"
    with manager(path) as mm:
        ingest(mm, 0, 4)
        mm.flush()
        assert_placed_once(mm)
        mm._parts.hierarchy.on_embedded = lambda items: None  # "dies" after storing vectors...
        mm._parts.hierarchy.replay = lambda embed: 0  # ...and nothing is recovered before the end
        ingest(mm, 4, 4)
        mm.flush()
        assert mm.stats()["pending"] == 0
        assert sum(placements(mm, "ann").values()) == 4 * 2  # only the first four turns
    with manager(path) as mm:
        mm.flush()
        assert_placed_once(mm)
        assert mm._parts.hierarchy.replay(lambda msgs: pytest.fail("nothing left to replay")) == 0


def test_a_failed_placement_is_replayed_by_the_next_pass(backend: MemoryBackend) -> None:
    with manager(backend=backend) as mm:
        ingest(mm, 0, 4)
        mm.flush()
        h = mm._parts.hierarchy
        save_state, failed = h._save_state, []

        def fail_once(st: Any) -> None:  # segments changed and saved, session states not
            if not failed:
                failed.append(st.session_id)
                raise RuntimeError("disk full")
            save_state(st)

        h._save_state = fail_once  # type: ignore[method-assign]
        ingest(mm, 4, 4)
        mm.flush()  # the failing batch is embedded; the next pass replays its placement
        assert failed
        assert_placed_once(mm)
        ingest(mm, 8, 2)
        mm.flush()
        assert_placed_once(mm)
        assert int(backend.get_meta(PLACED_MARK) or 0) == int(backend.get_meta(EMBEDDING_MARK) or 0)


def test_replay_is_idempotent(backend: MemoryBackend) -> None:
    with manager(backend=backend) as mm:
        ingest(mm, 0, 6)
        mm.flush()
        # Pretend the whole history was never marked placed: every page is found again,
        # in its session or in its segment, and none is placed twice.
        if backend.concurrent_embedding:  # PostgreSQL: placement is a per-message flag
            with backend._tx() as c:  # type: ignore[attr-defined]
                c.execute("UPDATE lgm_messages SET placed = false")
        else:
            backend.set_meta(PLACED_MARK, "0")
            mm._parts.hierarchy.recovery._marks = None
        n = mm._parts.hierarchy.replay(
            lambda msgs: mm.embeddings.embed_array([m.content for m in msgs])
        )
        assert n == 24
        assert_placed_once(mm)
