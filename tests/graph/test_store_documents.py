"""The memory's documents through ``MemoryStore``: a read-only namespace (issue 24), and
the manager calls behind it (``search_documents``, ``document_chunks``)."""

from __future__ import annotations

import asyncio

import pytest
from langgraph.store.base import InvalidNamespaceError

from langgraph_memory import MemoryManager, MemoryStore
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend

HANDBOOK_V1 = """# Handbook
## Parking
Visitors park on level minus two behind the orange gate.
## Lunch
The canteen serves ramen on Thursdays.
"""
HANDBOOK_V2 = """# Handbook
## Parking
Visitors park in the north lot beside the bicycle racks.
## Lunch
The canteen serves ramen on Thursdays.
"""
NOTES = "# Notes\n## Garden\nWater the tomatoes every morning before work."


@pytest.fixture
def mm(backend: MemoryBackend) -> MemoryManager:
    m = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
    m.documents.add(None, HANDBOOK_V1, document_id="handbook")
    m.documents.add("ann", NOTES, document_id="notes")
    m.add_message("ann", "s1", "user", "hello there")
    m.add_message("bob", "s1", "user", "hi")
    m.flush()
    yield m
    m.close()


def test_chunks_are_items_keyed_by_document_and_index(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    item = store.get(("documents",), "handbook#0")
    assert item is not None and item.namespace == ("documents",)
    assert item.value["text"] == "Visitors park on level minus two behind the orange gate."
    assert item.value["citation"] == "[doc: Handbook § Handbook > Parking, v1]"
    assert item.value["headings"] == ["Handbook", "Parking"] and item.value["shared"] is True
    assert store.get(("documents", "ann"), "notes#0").value["title"] == "Notes"
    # a user's documents are under their own namespace only
    assert store.get(("documents", "bob"), "notes#0") is None
    assert store.get(("documents",), "notes#0") is None
    for bad in ("handbook", "handbook#x", "#0", "handbook#9"):
        assert store.get(("documents",), bad) is None
    assert store.get(("documents", "ann", "deeper"), "notes#0") is None


def test_a_query_ranks_the_chunks(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    hits = store.search(("documents",), query="where do visitors park", limit=1)
    assert [h.key for h in hits] == ["handbook#0"] and hits[0].score > 0
    assert [h.key for h in store.search(("documents", "ann"), query="tomatoes")] == ["notes#0"]
    # another user's namespace holds nothing of ann's, and shared knowledge stays shared
    assert store.search(("documents", "bob"), query="tomatoes") == []
    assert all(h.value["shared"] for h in store.search(("documents",), query="tomatoes"))
    # an empty prefix searches the store's own items, never documents
    assert store.search((), query="tomatoes") == []


def test_listing_filters_and_pages(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    listed = store.search(("documents",))
    assert [h.key for h in listed] == ["handbook#0", "handbook#1"]
    assert [h.key for h in store.search(("documents",), offset=1)] == ["handbook#1"]
    lunch = store.search(("documents",), filter={"headings": ["Handbook", "Lunch"]})
    assert [h.key for h in lunch] == ["handbook#1"]
    ranked = store.search(("documents",), query="park", filter={"chunk": 1})
    assert [h.key for h in ranked] == ["handbook#1"]
    assert set(store.list_namespaces()) >= {("documents",), ("documents", "ann")}
    assert ("documents", "bob") not in store.list_namespaces()
    assert store.list_namespaces(prefix=("documents", "ann")) == [("documents", "ann")]


def test_only_the_current_version_shows(mm: MemoryManager) -> None:
    mm.documents.add(None, HANDBOOK_V2, document_id="handbook")
    mm.flush()
    store = MemoryStore(mm)
    item = store.get(("documents",), "handbook#0")
    assert item.value["version"] == "2" and "north lot" in item.value["text"]
    texts = [h.value["text"] for h in store.search(("documents",), query="orange gate park")]
    assert texts and not any("orange gate" in t for t in texts)
    # the archived version stays reachable through the manager
    old = mm.documents.chunks(None, "handbook", version="1")
    assert [c.status for c in old] == ["archived", "archived"]
    assert [c.version for c in mm.documents.chunks(None, "handbook")] == ["2", "2"]


def test_the_namespace_is_read_only(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    for namespace in (("documents",), ("documents", "ann"), ("documents", "ann", "x")):
        with pytest.raises(InvalidNamespaceError, match="read-only.*documents.add"):
            store.put(namespace, "handbook#0", {"text": "overwritten"})
        with pytest.raises(InvalidNamespaceError, match="read-only"):
            store.delete(namespace, "handbook#0")
    assert "orange gate" in store.get(("documents",), "handbook#0").value["text"]
    assert [d.document_id for d in mm.documents.list(None)] == ["handbook"]


def test_the_view_can_be_switched_off_or_moved(mm: MemoryManager) -> None:
    plain = MemoryStore(mm, documents_namespace=None)
    plain.put(("documents", "ann"), "k", {"text": "my own item"})
    assert plain.get(("documents", "ann"), "k").value == {"text": "my own item"}
    assert plain.get(("documents",), "handbook#0") is None
    moved = MemoryStore(mm, documents_namespace="kb")
    assert moved.get(("kb",), "handbook#0") is not None
    assert moved.get(("documents", "ann"), "k").value == {"text": "my own item"}
    with pytest.raises(ValueError, match="documents_namespace"):
        MemoryStore(mm, documents_namespace="")


def test_async_reads(mm: MemoryManager) -> None:
    store = MemoryStore(mm)

    async def run() -> tuple:
        item = await store.aget(("documents",), "handbook#1")
        hits = await store.asearch(("documents", "ann"), query="water tomatoes")
        return item, hits

    item, hits = asyncio.run(run())
    assert item.value["text"] == "The canteen serves ramen on Thursdays."
    assert [h.key for h in hits] == ["notes#0"]


def test_search_documents_keeps_owners_apart(mm: MemoryManager) -> None:
    shared = mm.documents.search(None, "tomatoes ramen parking", k=10)
    assert shared and all(h.metadata["shared"] for h in shared)
    own = mm.documents.search("ann", "tomatoes", k=10)
    assert [h.metadata["document_id"] for h in own] == ["notes"]
    assert mm.documents.search("bob", "tomatoes") == []
    both = mm.search("ann", "tomatoes ramen", k=10, layers=["document"])
    assert {h.metadata["document_id"] for h in both} == {"notes", "handbook"}
    lunch = mm.documents.search(None, "visitors canteen", filter={"chunk": 1})
    assert [h.metadata["chunk"] for h in lunch] == [1]
    with pytest.raises(ValueError, match="k"):
        mm.documents.search(None, "x", k=0)
    with pytest.raises(ValueError, match="user_id"):
        mm.documents.search("", "x")
    assert [h.id for h in asyncio.run(mm.aio.documents.search("ann", "tomatoes"))] == [
        h.id for h in own
    ]
    assert asyncio.run(mm.aio.documents.chunks("ann", "notes"))[0].body.startswith("Water")
    assert mm.documents.chunks("ann", "missing") == []
