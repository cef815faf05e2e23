"""The long-term entry index: facts, traits, episodes and knowledge are indexed when
written, ranked from an in-process mirror that follows the store's revisions (other
managers' writes included), built for stores that never had one, and emptied by
delete_user; the read path's ranking is the one rank_hybrid gives over listed entries."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.index.ranking import rank_hybrid
from langgraph_memory.storage import MemoryBackend, SQLiteBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)
CITIES = ["Lyon", "Oslo", "Porto", "Kyoto", "Quito", "Perth", "Turin", "Accra"]


@pytest.fixture
def mm(backend: MemoryBackend) -> Iterator[MemoryManager]:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as m:
        yield m


def fill(mm: MemoryManager, user: str, n: int) -> None:
    for i in range(n):
        mm._longterm.facts.add_fact(
            user,
            f"project {i}",
            "runs_in",
            f"{CITIES[i % len(CITIES)]} cluster {i}",
            valid_from=T0 + timedelta(minutes=i),
            source_ids=[f"m{i}"],
        )


def listed(mm: MemoryManager, user: str):
    _, docs = mm._parts.long_term_docs.long_term_docs(user)
    return docs


def test_index_ranks_as_rank_hybrid_over_listed_entries(mm: MemoryManager) -> None:
    fill(mm, "ann", 40)
    for i in range(5):
        task = mm.tasks.start("ann", "s1", f"deploy the Oslo cluster {i}")
        mm.tasks.complete("ann", task, summary=f"cluster {i} deployed in Oslo", target="oslo")
    assert mm.maintenance.consolidate("ann")  # knowledge too
    mm.flush()
    index = mm._parts.read.entries
    embed = mm.embeddings.embed_array
    # in the index's order of equal term scores: by entry key
    docs = sorted(listed(mm, "ann"), key=lambda d: f"{d.layer}/{d.id}")
    assert sorted(d.id for d in index.docs("ann")) == sorted(d.id for d in docs)
    for query in ["which cluster runs in Oslo?", "deploy Kyoto", "project 7", "nothing here"]:
        qvec = embed([query], persist=False)[0]
        want = rank_hybrid(
            docs,
            query,
            10,
            query_vector=qvec,
            doc_vectors=embed([d.text for d in docs], persist=False),
            min_cosine=0.2,
        )
        got = index.rank("ann", query, 10, query_vector=qvec, min_cosine=0.2)
        assert [(d.id, round(s, 9)) for d, s, _ in got] == [(d.id, round(s, 9)) for d, s, _ in want]
        words = rank_hybrid(docs, query, 10)
        assert [d.id for d, _, _ in index.rank("ann", query, 10)] == [d.id for d, _, _ in words]


def test_changes_reach_the_ranking(mm: MemoryManager) -> None:
    lt = mm._longterm
    fill(mm, "ann", 3)
    index = mm._parts.read.entries
    old = lt.facts.add_fact("ann", "ann", "location", "Lyon", valid_from=T0)
    assert old.id in {d.id for d, _, _ in index.rank("ann", "where is Lyon", 5)}
    # superseded: the closed fact leaves the ranking, the new one is there
    new = lt.facts.add_fact("ann", "ann", "location", "Oslo", valid_from=T0 + timedelta(days=3))
    ids = {d.id for d in index.docs("ann")}
    assert new.id in ids and old.id not in ids
    lt.delete("ann", [new.id])  # deleting reopens the old span: it is back
    ids = {d.id for d in index.docs("ann")}
    assert old.id in ids and new.id not in ids
    # other users never see it
    assert index.docs("bob") == []


def test_the_worker_embeds_entries_and_flush_waits_for_them(mm: MemoryManager) -> None:
    fill(mm, "ann", 12)
    assert mm._backend.pending_entries(100)  # written, not embedded yet
    mm.flush()
    assert mm._backend.pending_entries(100) == []
    _, rows = mm._backend.entries_since("ann", 0)
    want = mm.embeddings.embed_array([rows[0].text], persist=False)[0]
    assert np.allclose(rows[0].vector, want, atol=1e-6)


def test_delete_user_empties_the_index(mm: MemoryManager) -> None:
    fill(mm, "ann", 5)
    fill(mm, "bob", 2)
    index = mm._parts.read.entries
    assert len(index.docs("ann")) == 5
    mm.add_message("ann", "s1", "user", "hello")
    mm.flush()
    mm.delete_user("ann")
    assert index.docs("ann") == []
    assert mm._backend.entries_since("ann", 0)[1] == []
    assert len(index.docs("bob")) == 2
    ctx = mm.build_context("ann", "s1", "which project runs in Lyon?", 2000)
    assert not [it for it in ctx.items if it.layer == "fact"]


def test_two_managers_on_one_store_see_each_others_entries(tmp_path) -> None:
    a = MemoryManager(path=tmp_path, embeddings=HashingEmbeddings())
    b = MemoryManager(path=tmp_path, embeddings=HashingEmbeddings())
    try:
        fill(a, "ann", 3)
        assert len(b._parts.read.entries.docs("ann")) == 3  # b's mirror is built now
        fact = a._longterm.facts.add_fact("ann", "ann", "employer", "Initech", valid_from=T0)
        assert fact.id in {d.id for d, _, _ in b._parts.read.entries.rank("ann", "Initech", 3)}
        a._longterm.delete("ann", [fact.id])
        assert fact.id not in {d.id for d in b._parts.read.entries.docs("ann")}
        a.delete_user("ann")  # a new generation: b's mirror is dropped, not patched
        assert b._parts.read.entries.docs("ann") == []
        fill(a, "ann", 1)
        assert len(b._parts.read.entries.docs("ann")) == 1
    finally:
        a.close()
        b.close()


def test_a_store_without_an_index_is_read_from_records_and_indexed_on_first_write(
    tmp_path,
) -> None:
    with MemoryManager(path=tmp_path, embeddings=HashingEmbeddings()) as mm:
        fill(mm, "ann", 6)
        mm.flush()
    raw = SQLiteBackend(tmp_path)  # as a 0.1 store: records, no index
    with raw._tx(messages=False) as c:
        c.execute("DELETE FROM entry_index")
    raw.close()
    with MemoryManager(path=tmp_path, embeddings=HashingEmbeddings()) as mm:
        assert mm._backend.entries_since("ann", 0) == (0, [])
        ctx = mm.build_context("ann", "s1", "which project runs in Porto?", 2000)
        assert any("Porto" in it.text for it in ctx.items if it.layer == "fact")
        assert mm._backend.entries_since("ann", 0) == (0, [])  # a read writes nothing
        mm._longterm.facts.add_fact("ann", "ann", "employer", "Initech", valid_from=T0)
        gen, rows = mm._backend.entries_since("ann", 0)
        assert gen > 0 and len(rows) == 7  # the first write built it whole


def test_a_relevant_fact_among_thousands_reaches_the_context(tmp_path) -> None:
    cfg = MemoryConfig()
    with MemoryManager(path=tmp_path, embeddings=HashingEmbeddings(), config=cfg) as mm:
        fill(mm, "ann", 1500)
        mm._longterm.facts.add_fact("ann", "ann", "allergy", "hazelnuts", valid_from=T0)
        mm.add_message("ann", "s1", "user", "Let's plan the team dinner.", timestamp=T0)
        mm.flush()
        ctx = mm.build_context("ann", "s1", "is there an allergy to keep in mind?", 1000)
        facts = [it for it in ctx.items if it.layer == "fact"]
        assert facts and "hazelnuts" in facts[0].text


def test_cosines_kept_for_a_query_vector_follow_every_change(mm: MemoryManager) -> None:
    fill(mm, "ann", 30)
    mm.flush()
    index = mm._parts.read.entries
    query = "ann keeps bees on the roof"
    qvec = mm.embeddings.embed_array([query], persist=False)[0]
    first = index.rank("ann", "unrelated words", 5, query_vector=qvec)
    assert first == index.rank("ann", "unrelated words", 5, query_vector=qvec)  # kept
    fact = mm._longterm.facts.add_fact("ann", "ann", "keeps", "bees on the roof", valid_from=T0)
    # not embedded by the worker yet: embedded for this read, then ranked by meaning
    top = index.rank("ann", "unrelated words", 5, query_vector=qvec)[0]
    assert top.doc.id == fact.id and top.parts["dense_rank"] == 1
    mm.flush()  # now the worker's vector replaces the one made in process
    assert index.rank("ann", "unrelated words", 5, query_vector=qvec)[0].doc.id == fact.id
    mm._longterm.delete("ann", [fact.id])
    assert index.rank("ann", "unrelated words", 5, query_vector=qvec) == first
    # an entry whose text changes in place (same key): its new vector counts
    trait = mm._longterm.add_trait("ann", "hobby", "chess and go")
    mm.flush()
    assert trait.id not in {r.doc.id for r in index.rank("ann", "x", 1, query_vector=qvec)}
    again = mm._longterm.add_trait("ann", "hobby", "keeps bees on the roof")
    assert again.id == trait.id
    mm.flush()
    assert index.rank("ann", "unrelated words", 1, query_vector=qvec)[0].doc.id == trait.id
