"""SQLite's grouped writes: one commit for several writes, each still whole or not at all."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest

from langgraph_memory.core.records import Record
from langgraph_memory.storage import SQLiteBackend
from langgraph_memory.storage.capabilities import AtomicWrites, GroupedWrites, IndexedEntry

T = datetime(2024, 5, 1, tzinfo=timezone.utc)


def _record(rid: str, user: str = "ann") -> Record:
    return Record("note", rid, user, {"text": rid}, T, T)


def test_writes_of_a_group_commit_once_at_its_end(tmp_path):
    b = SQLiteBackend(tmp_path)
    assert isinstance(b, GroupedWrites)
    other = SQLiteBackend(tmp_path)  # another connection sees only what is committed
    with b.grouped_writes():
        b.put_record(_record("r1"))
        b.put_entries("ann", [IndexedEntry("note/r1", "r1 text", {"r1": 1}, {}, "h1")])
        assert b.get_record("note", "r1") is not None  # its own writes, at once
        assert other.get_record("note", "r1") is None
        _, entries = b.entries_since("ann", 0)  # a read snapshot inside the group
        assert [e.key for e in entries] == ["note/r1"]
    assert other.get_record("note", "r1") is not None
    assert [e.key for e in other.entries_since("ann", 0)[1]] == ["note/r1"]
    other.close()
    b.close()


def a_failing_write_is_undone_alone(b, scope) -> None:
    """Within ``scope()`` (grouped or atomic writes), a write refused and caught leaves
    nothing of itself, and the group's other writes commit."""
    b.put_record(_record("taken", user="bob"))
    with scope():
        b.put_record(_record("r1"))
        with pytest.raises(ValueError, match="another user"):
            b.put_record(_record("taken"))  # bob's id: refused, nothing of it kept
        b.put_record(_record("r2"))
    assert {r.id for r in b.list_records("note", "ann")} == {"r1", "r2"}
    assert b.get_record("note", "taken", "bob") is not None


def test_a_failing_write_is_undone_alone(tmp_path):
    b = SQLiteBackend(tmp_path)
    a_failing_write_is_undone_alone(b, b.grouped_writes)
    b.close()


def test_other_threads_wait_for_the_group(tmp_path):
    b = SQLiteBackend(tmp_path)
    seen: list[bool] = []
    with b.grouped_writes():
        b.put_record(_record("r1"))
        reader = threading.Thread(
            target=lambda: seen.append(b.get_record("note", "r1") is not None)
        )
        reader.start()
        reader.join(timeout=0.2)
        assert reader.is_alive()  # blocked until the group ends
    reader.join(timeout=10)
    assert seen == [True]
    b.close()


# -- PostgreSQL: atomic writes, one transaction ----------------------------------------------
@pytest.mark.server
def test_postgres_groups_writes_in_one_transaction(make_backend):
    b = make_backend("postgres")
    assert isinstance(b, AtomicWrites) and not isinstance(b, GroupedWrites)
    from langgraph_memory.sensitivity.policy import SensitivityFilter
    from langgraph_memory.storage.guard import GuardedStore

    # what every collaborator holds passes them on (the entry index's records use it)
    assert isinstance(GuardedStore(b, SensitivityFilter()), AtomicWrites)
    seen: list[bool] = []

    def look() -> None:  # another thread: another connection, the committed state
        seen.append(b.get_record("note", "r1") is not None)

    with b.atomic_writes():
        b.put_record(_record("r1"))
        b.put_entries("ann", [IndexedEntry("note/r1", "r1 text", {"r1": 1}, {}, "h1")])
        assert b.get_record("note", "r1") is not None  # its own writes, at once
        _, entries = b.entries_since("ann", 0)
        assert [e.key for e in entries] == ["note/r1"]
        reader = threading.Thread(target=look)
        reader.start()
        reader.join(timeout=30)
        assert seen == [False]  # not committed yet
    look()
    assert seen == [False, True]
    assert [e.key for e in b.entries_since("ann", 0)[1]] == ["note/r1"]


@pytest.mark.server
def test_postgres_group_left_by_an_error_keeps_nothing_and_a_caught_one_alone(make_backend):
    b = make_backend("postgres")
    with pytest.raises(RuntimeError, match="crash"), b.atomic_writes():
        b.put_record(_record("r0"))
        b.put_entries("ann", [IndexedEntry("note/r0", "r0 text", {"r0": 1}, {}, "h0")])
        raise RuntimeError("crash")
    assert b.get_record("note", "r0") is None and b.entries_since("ann", 0)[1] == []
    a_failing_write_is_undone_alone(b, b.atomic_writes)
