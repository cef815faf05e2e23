"""``Facts.batch``: a batch's fact writes read each subject from the store once, and
store exactly what unbatched writes store (the worker's batches use it)."""

from __future__ import annotations

import contextlib
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


def test_a_batch_decodes_each_stored_fact_once(monkeypatch):
    """A fact the memo holds is decoded once per stored version, not once per write
    that meets it (the same writes unbatched decode every fact they meet)."""
    loads = []
    real = Fact.load.__func__

    def counting(cls, data):
        loads.append(data["object"])
        return real(cls, data)

    def writes(batched: bool) -> int:
        lt, _ = memory(InMemoryBackend())
        for i in range(5):
            lt.facts.add_fact("ann", "user", "likes", f"thing {i}", valid_from=T0)
        loads.clear()
        with monkeypatch.context() as m:
            m.setattr(Fact, "load", classmethod(counting))
            with lt.facts.batch() if batched else contextlib.nullcontext():
                for j in range(4):
                    lt.facts.add_fact("ann", "user", "owns", f"car {j}", valid_from=T0)
        return len(loads)

    # unbatched, the four writes meet 5, 6, 7 and 8 stored facts and decode each;
    # batched, the five stored once and each new one once (the last is met by none)
    assert writes(False) - writes(True) == (5 + 6 + 7 + 8) - (5 + 3)


def test_a_failed_write_in_a_batch_leaves_no_changed_fact_behind(monkeypatch):
    """A write that fails after changing a stored fact in memory (its store refused
    it) must not hand that changed fact to the batch's next write."""
    backend = InMemoryBackend()
    lt, records = memory(backend)
    lt.facts.add_fact("ann", "user", "lives_in", "Paris", valid_from=T0)
    put = records.put_record
    with lt.facts.batch():
        lt.facts.add_fact("ann", "user", "likes", "tea", valid_from=T0)  # memo holds Paris

        def refuse(record):
            raise RuntimeError("disk full")

        monkeypatch.setattr(records, "put_record", refuse)
        with pytest.raises(RuntimeError):  # Paris closed in memory, never stored
            lt.facts.add_fact("ann", "user", "lives_in", "Rome", valid_from=T0 + timedelta(1))
        monkeypatch.setattr(records, "put_record", put)
        again = lt.facts.add_fact("ann", "user", "lives_in", "Oslo", valid_from=T0 + timedelta(2))
    assert again.earlier == "Paris"  # Paris was still open in the store
    [paris] = [f for f in lt.facts.list_facts("ann") if f.object == "Paris"]
    assert paris.superseded_by == again.id
