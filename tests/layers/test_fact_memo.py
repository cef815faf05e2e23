"""``Facts.batch``: a batch's fact writes read each subject from the store once, and
store exactly what unbatched writes store (the worker's batches use it)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory.layers.index.entries import EntryIndexer, IndexedRecords
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend

T0 = datetime(2024, 5, 1, tzinfo=timezone.utc)
SUBJECTS = ["user", "User", "Ann", "my sister", "Bob"]
RELATIONS = ["lives_in", "lives in", "works_at", "likes", "manager", "住在", "pet", "change"]
OBJECTS = ["Paris", "Rome", "ACME", "Globex", "tea", "jazz", "Kim", "上海", "a cat", "Lyon"]


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def memory(backend):
    index = EntryIndexer(backend, backend, kinds={"fact": Fact})
    records = IndexedRecords(backend, index)
    return LongTermMemory(records, clock=Clock()), records


def assertions(seed: int, n: int = 120):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        out.append(
            (
                rng.choice(SUBJECTS),
                rng.choice(RELATIONS),
                rng.choice(OBJECTS),
                T0 + timedelta(days=rng.randrange(60), hours=i % 3),
                rng.random() < 0.2,  # a quote with a change cue
            )
        )
    return out


def run(lt: LongTermMemory, items, *, batched: bool) -> list[tuple]:
    def write():
        kept = []
        for subject, relation, obj, when, now_cue in items:
            quote = f"my {relation} is {obj} now" if now_cue else None
            f = lt.facts.add_fact(
                "ann", subject, relation, obj, valid_from=when, source_ids=[f"m{len(kept)}"],
                quote=quote,
            )  # fmt: skip
            kept.append((f.id, f.object, f.earlier))
        return kept

    if batched:
        with lt.facts.batch():
            return write()
    return write()


def stored(backend) -> list[tuple]:
    return sorted(
        (r.id, tuple(sorted((k, repr(v)) for k, v in r.data.items())))
        for r in backend.query_records("fact", "ann")
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("make", [InMemoryBackend, "sqlite"])
def test_a_batch_stores_what_single_writes_store(seed, make, tmp_path):
    items = assertions(seed)
    backends = [
        SQLiteBackend(tmp_path / f"{name}.db") if make == "sqlite" else make()
        for name in ("plain", "batched")
    ]
    (plain, _), (batched, _) = memory(backends[0]), memory(backends[1])
    assert run(plain, items, batched=False) == run(batched, items, batched=True)
    assert stored(backends[0]) == stored(backends[1])
    for b in backends:
        b.close()


def test_a_batch_reads_each_subject_once():
    backend = InMemoryBackend()
    lt, records = memory(backend)
    calls = []
    query = records.query_records

    def counting(kind, *args, **kwargs):
        calls.append(kwargs.get("where"))
        return query(kind, *args, **kwargs)

    records.query_records = counting  # type: ignore[method-assign]
    with lt.facts.batch():
        for i, obj in enumerate(["Paris", "Rome", "Lyon", "Oslo"]):
            lt.facts.add_fact("ann", "user", "lives_in", obj, valid_from=T0 + timedelta(days=i))
    assert len(calls) == 2  # the subject's facts, the legacy names: once each
    assert [f.object for f in lt.facts.facts_at("ann", T0 + timedelta(days=9))] == ["Oslo"]


def test_a_write_from_elsewhere_during_a_batch_is_not_lost():
    """A read's access count written between two of the batch's writes stays: the
    memo sees the store's count of fact writes move and reads again."""
    backend = InMemoryBackend()
    lt, _ = memory(backend)
    first = lt.facts.add_fact("ann", "user", "likes", "tea", valid_from=T0)
    with lt.facts.batch():
        lt.facts.add_fact("ann", "user", "likes", "jazz", valid_from=T0)
        lt.touch("ann", [first.id], times=5)  # elsewhere: not through the batch's writes
        again = lt.facts.add_fact("ann", "user", "likes", "tea", valid_from=T0, quote="tea!")
    assert again.id == first.id
    [rec] = [r for r in backend.query_records("fact", "ann") if r.id == first.id]
    assert rec.data["access_count"] == 5 and rec.data["quote"] == "tea!"


def test_no_memo_without_a_write_count():
    """A plain backend (no ``writes``): a batch changes nothing."""
    lt = LongTermMemory(InMemoryBackend())
    with lt.facts.batch():
        lt.facts.add_fact("ann", "user", "lives_in", "Paris", valid_from=T0)
        new = lt.facts.add_fact("ann", "user", "lives_in", "Rome", valid_from=T0 + timedelta(1))
    assert new.earlier == "Paris"
