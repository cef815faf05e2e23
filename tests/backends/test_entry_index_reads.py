"""Reading the long-term entry index costs what changed: a reader that has seen the
latest revision reads nothing more (no listing of the user's entries), on the index
kept as records (the Chroma backend's) and on the in-memory backend's own index; a
reader left behind by ``delete_user`` learns the new generation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from langgraph_memory.core.records import Record
from langgraph_memory.storage import InMemoryBackend
from langgraph_memory.storage.capabilities import IndexedEntry
from langgraph_memory.storage.entries_records import ENTRY_KIND, RecordEntryIndex


class RecordKept(InMemoryBackend):
    """The in-memory backend with the entry index kept as records (as Chroma keeps it),
    counting the listings of entry records."""

    put_entries = RecordEntryIndex.put_entries
    entries_since = RecordEntryIndex.entries_since
    mark_entries_built = RecordEntryIndex.mark_entries_built
    pending_entries = RecordEntryIndex.pending_entries
    store_entry_vectors = RecordEntryIndex.store_entry_vectors

    def __init__(self) -> None:
        super().__init__()
        self.listed = 0

    def query_records(
        self,
        kind: str,
        user_id: str | None = None,
        *,
        where: Mapping[str, Any] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        if kind == ENTRY_KIND:
            self.listed += 1
        return super().query_records(
            kind, user_id, where=where, limit=limit, newest_first=newest_first
        )


def entry(key: str, text: str | None, digest: str = "h") -> IndexedEntry:
    return IndexedEntry(key, text, {"w": 1} if text else {}, {"layer": "fact"}, digest)


def test_records_kept_index_lists_entries_only_when_something_changed() -> None:
    b = RecordKept()
    b.put_entries("ann", [entry(f"fact/{i}", f"fact {i}") for i in range(50)])
    gen = b.mark_entries_built("ann")
    got_gen, rows = b.entries_since("ann", 0)
    assert (got_gen, len(rows)) == (gen, 50) and b.listed == 1
    seen = max(gen, rows[-1].rev)
    for _ in range(5):  # up to date: the head record answers
        assert b.entries_since("ann", seen) == (gen, [])
    assert b.listed == 1
    b.put_entries("ann", [entry("fact/7", "fact seven", "h2")])
    _, changed = b.entries_since("ann", seen)
    assert [e.key for e in changed] == ["fact/7"] and b.listed == 2
    seen = changed[-1].rev
    assert b.store_entry_vectors([("ann", "fact/7", "h2", np.ones(3))]) == 1
    _, changed = b.entries_since("ann", seen)
    assert [e.key for e in changed] == ["fact/7"] and changed[0].vector is not None
    # another user's writes leave ann's readers alone
    listed = b.listed
    b.put_entries("bob", [entry("fact/1", "bob's fact")])
    assert b.entries_since("ann", changed[-1].rev) == (gen, []) and b.listed == listed
    # a reader left behind by delete_user learns generation 0 (its mirror is dropped)
    b.delete_user("ann")
    assert b.entries_since("ann", changed[-1].rev) == (0, [])
    assert [e.key for e in b.entries_since("bob", 0)[1]] == ["fact/1"]


def test_a_store_written_without_head_records_is_listed_until_its_next_write() -> None:
    b = RecordKept()
    b.put_entries("ann", [entry("fact/1", "one"), entry("fact/2", "two")])
    b.mark_entries_built("ann")
    b.delete_records(
        ENTRY_KIND,
        [r.id for r in b.query_records(ENTRY_KIND, "ann") if r.data["key"] == "head"],
        "ann",
    )
    gen, rows = b.entries_since("ann", 0)
    assert gen > 0 and [e.key for e in rows] == ["fact/1", "fact/2"]
    seen = rows[-1].rev
    b.listed = 0
    assert b.entries_since("ann", gen) == (gen, []) and b.listed == 1  # listed: no head
    b.put_entries("ann", [entry("fact/3", "three")])
    _, rows = b.entries_since("ann", max(seen, gen))
    assert [e.key for e in rows] == ["fact/3"]
    b.listed = 0
    assert b.entries_since("ann", rows[-1].rev) == (gen, []) and b.listed == 0


def test_in_memory_index_reads_by_revision_and_keeps_no_entry_records() -> None:
    b = InMemoryBackend()
    for i in range(300):  # many changes of few entries: the log is compacted
        b.put_entries("ann", [entry(f"fact/{i % 7}", f"fact {i}", f"h{i}")])
    gen, rows = b.entries_since("ann", 0)
    assert gen == 0 and sorted(e.key for e in rows) == [f"fact/{i}" for i in range(7)]
    assert [e.rev for e in rows] == sorted(e.rev for e in rows)
    assert {e.text for e in rows} == {f"fact {i}" for i in range(293, 300)}
    last = rows[-1].rev
    assert b.entries_since("ann", last) == (0, [])
    assert b.query_records(ENTRY_KIND) == []
    # what a reader gets shares nothing with what is stored
    rows[0].doc["layer"] = "changed"
    rows[0].terms["w"] = 99
    again = {e.key: e for e in b.entries_since("ann", 0)[1]}
    assert again[rows[0].key].doc["layer"] == "fact" and again[rows[0].key].terms["w"] == 1
