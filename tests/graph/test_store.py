"""LangGraph's own store test cases, run on ``InMemoryStore`` and on ``MemoryStore``.

Ported from ``langgraph-checkpoint`` 4.3.2 ``tests/test_store.py`` and
``langgraph-checkpoint-sqlite`` 3.1.2 ``tests/test_store.py``. Every case runs
against LangGraph's ``InMemoryStore`` (the reference) and ``MemoryStore`` over
the in-memory and the SQLite backend, so any difference is a failure. Where
``MemoryStore`` differs on purpose (search scores are fused ranks, not cosine;
``batch`` validates namespaces), the test says so and asserts our behaviour.
Tests of LangGraph internals (``AsyncBatchedBaseStore``, op dedup, path parsing)
are not ported: they test no store.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.store import MemoryStore
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend

STORES = ["langgraph-inmemory", "memory-inmemory", "memory-sqlite"]


class CharacterEmbeddings(Embeddings):
    """LangGraph's test embedder: character frequencies through random projections."""

    def __init__(self, dims: int = 50, seed: int = 42) -> None:
        self._rng = random.Random(seed)
        self.dims = dims
        self._proj: defaultdict[str, list[float]] = defaultdict(
            lambda: [self._rng.gauss(0, 1 / math.sqrt(self.dims)) for _ in range(self.dims)]
        )

    def _one(self, text: str) -> list[float]:
        counts = Counter(text)
        total = sum(counts.values())
        if total == 0:
            return [0.0] * self.dims
        out = [0.0] * self.dims
        for char, count in counts.items():
            for i, p in enumerate(self._proj[char]):
                out[i] += count / total * p
        norm = math.sqrt(sum(x * x for x in out))
        return [x / norm for x in out] if norm > 0 else out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharacterEmbeddings) and self.dims == other.dims

    __hash__ = None  # type: ignore[assignment]


MakeStore = Callable[..., BaseStore]


@pytest.fixture(params=STORES)
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MakeStore]:
    """A factory of stores of one kind: ``make_store(index=None)``."""
    managers: list[MemoryManager] = []

    def make(index: Any = None) -> BaseStore:
        if request.param == "langgraph-inmemory":
            return InMemoryStore(index=index)
        backend = (
            InMemoryBackend()
            if request.param == "memory-inmemory"
            else SQLiteBackend(tmp_path / f"db{len(managers)}")
        )
        mm = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
        managers.append(mm)
        return MemoryStore(mm, index=index)

    yield make
    for mm in managers:
        mm.close()


@pytest.fixture
def store(make_store: MakeStore) -> BaseStore:
    return make_store()


@pytest.fixture
def fake_embeddings() -> CharacterEmbeddings:
    return CharacterEmbeddings(dims=500)


def _is_ours(store: BaseStore) -> bool:
    return isinstance(store, MemoryStore)


# -- list_namespaces (langgraph-checkpoint) -------------------------------------------------
def test_list_namespaces_basic(store: BaseStore) -> None:
    namespaces = [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
        ("users", "123"),
        ("users", "456", "settings"),
        ("admin", "users", "789"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})

    ab = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "b"))) == ab
    assert sorted(store.list_namespaces(suffix=("f",))) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
    ]
    assert sorted(store.list_namespaces(prefix=("a",), suffix=("f",))) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
    ]
    assert sorted(store.list_namespaces(prefix=("a", "b"), max_depth=3)) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == ab[:2]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == ab[2:]
    assert sorted(store.list_namespaces(prefix=("a", "*", "f"))) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
    ]
    assert sorted(store.list_namespaces(suffix=("*", "f"))) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
    ]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store: BaseStore) -> None:
    namespaces = [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
        ("admin", "users", "789"),
        ("guests", "123"),
        ("guests", "456", "preferences"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces(prefix=("users", "*"))) == [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
    ]
    assert store.list_namespaces(suffix=("*", "preferences")) == [("guests", "456", "preferences")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []
    store.put(("admin", "users", "settings", "789"), "foo", {"data": "some_val"})
    assert store.list_namespaces(prefix=("*", "users"), suffix=("settings", "*")) == [
        ("admin", "users", "settings", "789")
    ]


def test_list_namespaces_pagination(store: BaseStore) -> None:
    for i in range(20):
        store.put(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": f"value_{i:02d}"})
    for offset in (0, 5, 15):
        got = store.list_namespaces(prefix=("namespace",), limit=5, offset=offset)
        assert got == [("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]


def test_list_namespaces_max_depth(store: BaseStore) -> None:
    for i, ns in enumerate(
        [("a", "b", "c", "d"), ("a", "b", "c", "e"), ("a", "b", "f"), ("a", "g"), ("h", "i", "j")]
    ):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces(max_depth=2)) == [("a", "b"), ("a", "g"), ("h", "i")]


def test_list_namespaces_no_conditions_and_empty(store: BaseStore) -> None:
    assert store.list_namespaces() == []
    namespaces = [("a", "b"), ("c", "d"), ("e", "f", "g")]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces()) == namespaces


def test_list_namespaces_segment_boundary(store: BaseStore) -> None:
    for ns in [
        ("foo",),
        ("foo", "child"),
        ("foobar",),
        ("foobar", "baz"),
        ("uid", "users", "alice"),
        ("uid", "users", "malice"),
        ("uid", "a", "b", "alice"),
    ]:
        store.put(ns, "k", {"v": 1})
    assert set(store.list_namespaces(prefix=("foo",), limit=100)) == {("foo",), ("foo", "child")}
    assert set(store.list_namespaces(suffix=("alice",), limit=100)) == {
        ("uid", "users", "alice"),
        ("uid", "a", "b", "alice"),
    }
    assert set(store.list_namespaces(prefix=("uid", "*", "alice"), limit=100)) == {
        ("uid", "users", "alice")
    }


def test_list_namespaces_metacharacter_labels(store: BaseStore) -> None:
    pairs = [("star*", "starX"), ("q?m", "qXm"), ("br[ack]et", "brXacXket"), ("a%b", "axxb")]
    for label, decoy in pairs:
        store.put((label,), "k", {"v": 1})
        store.put((decoy,), "k", {"v": 1})
        store.put((label, "child"), "k", {"v": 1})
    for label, _ in pairs:
        assert set(store.list_namespaces(prefix=(label,), limit=100)) == {
            (label,),
            (label, "child"),
        }


def test_namespace_labels_with_trailing_newline(store: BaseStore) -> None:
    store.put(("users", "alice"), "k", {"v": 1})
    store.put(("users", "alice\n"), "k", {"v": 2})
    assert set(store.list_namespaces(suffix=("alice",), limit=100)) == {("users", "alice")}
    assert store.get(("users", "alice\n"), "k").value == {"v": 2}  # type: ignore[union-attr]


# -- basic operations (langgraph-checkpoint-sqlite) ------------------------------------------
def test_basic_store_ops(store: BaseStore) -> None:
    namespace = ("test", "documents")
    store.put(namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    item = store.get(namespace, "doc1")
    assert item is not None
    assert (item.namespace, item.key) == (namespace, "doc1")
    assert item.value == {"title": "Test Document", "content": "Hello, World!"}
    assert item.created_at is not None and item.updated_at is not None
    store.put(namespace, "doc1", {"title": "Updated"})
    updated = store.get(namespace, "doc1")
    assert updated is not None and updated.value == {"title": "Updated"}
    assert updated.updated_at >= item.updated_at
    assert store.get(("test", "other_documents"), "doc1") is None
    store.delete(namespace, "doc1")
    assert store.get(namespace, "doc1") is None


def test_batch_order(store: BaseStore) -> None:
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})
    results = store.batch(
        [
            GetOp(namespace=("test", "foo"), key="key1"),
            PutOp(namespace=("test", "bar"), key="key2", value={"data": "value2"}),
            SearchOp(namespace_prefix=("test",), filter={"data": "value1"}),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
            GetOp(namespace=("test",), key="key3"),
        ]
    )
    assert isinstance(results[0], Item) and results[0].value == {"data": "value1"}
    assert results[1] is None
    assert [i.key for i in results[2]] == ["key1"]  # type: ignore[union-attr]
    assert ("test", "foo") in results[3] and ("test", "bar") in results[3]  # type: ignore[operator]
    assert results[4] is None


def test_batch_reads_before_puts_and_last_put_wins(store: BaseStore) -> None:
    store.put(("t",), "k", {"v": 0})
    got = store.batch(
        [
            PutOp(("t",), "k", {"v": 1}),
            GetOp(("t",), "k"),
            PutOp(("t",), "k", {"v": 2}),
            PutOp(("t",), "gone", {"v": 3}),
            PutOp(("t",), "gone", None),
        ]
    )
    assert got[1].value == {"v": 0}  # type: ignore[union-attr]
    assert store.get(("t",), "k").value == {"v": 2}  # type: ignore[union-attr]
    assert store.get(("t",), "gone") is None


def test_batch_search_and_list_ops(store: BaseStore) -> None:
    for ns, key, value in [
        (("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
        (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
        (("test", "baz"), "key3", {"data": "value3", "tag": "b"}),
    ]:
        store.put(ns, key, value)
    tagged, first2, foo, depth1, ends = store.batch(
        [
            SearchOp(namespace_prefix=("test",), filter={"tag": "a"}),
            SearchOp(namespace_prefix=("test",), limit=2),
            SearchOp(namespace_prefix=("test", "foo")),
            ListNamespacesOp(max_depth=1),
            ListNamespacesOp(match_conditions=(MatchCondition("suffix", ("baz",)),)),
        ]
    )
    assert sorted(i.key for i in tagged) == ["key1", "key2"]  # type: ignore[union-attr]
    assert len(first2) == 2  # type: ignore[arg-type]
    assert [i.namespace for i in foo] == [("test", "foo")]  # type: ignore[union-attr]
    assert depth1 == [("test",)]
    assert ends == [("test", "baz")]


def test_search_filters_and_pagination(store: BaseStore) -> None:
    data = [
        (("test", "docs"), "doc1", {"title": "First", "author": "Alice", "tags": ["important"]}),
        (("test", "docs"), "doc2", {"title": "Second", "author": "Bob", "tags": ["draft"]}),
        (("test", "images"), "img1", {"title": "Image", "author": "Alice", "tags": ["draft"]}),
    ]
    for ns, key, value in data:
        store.put(ns, key, value)
    assert len(store.search(("test",))) == 3
    assert {i.key for i in store.search(("test", "docs"))} == {"doc1", "doc2"}
    assert {i.key for i in store.search(("test",), filter={"author": "Alice"})} == {"doc1", "img1"}
    assert {i.key for i in store.search(("test",), filter={"tags": ["draft"]})} == {"doc2", "img1"}
    assert len(store.search(("test",), limit=2)) == 2
    assert len(store.search(("test",), offset=2)) == 1
    assert store.search(("test",), filter={"author": {"$ne": "Alice"}})[0].key == "doc2"


def test_filter_operators_and_nesting(store: BaseStore) -> None:
    store.put(("f",), "a", {"n": 1, "meta": {"kind": "x", "deep": {"v": True}}, "s": "1"})
    store.put(("f",), "b", {"n": 5, "meta": {"kind": "y"}, "flag": False})
    store.put(("f",), "c", {"n": 10, "my-key": "z"})

    def keys(flt: dict[str, Any]) -> set[str]:
        return {i.key for i in store.search(("f",), filter=flt)}

    assert keys({"n": {"$gt": 1, "$lte": 10}}) == {"b", "c"}
    assert keys({"n": {"$gte": 5}, "meta": {"kind": "y"}}) == {"b"}
    assert keys({"n": {"$eq": 1}}) == {"a"}
    assert keys({"meta": {"deep": {"v": True}}}) == {"a"}
    assert keys({"flag": False}) == {"b"}
    assert keys({"my-key": "z"}) == {"c"}
    assert keys({"name": "' OR 1=1 --"}) == set()


def test_search_pages_match_full_listing(store: BaseStore) -> None:
    for ns in [("a",), ("a", "b"), ("ab",), ("a", "c", "d")]:
        for i in range(7):
            store.put(ns, f"k{i}", {"i": i, "even": i % 2 == 0})

    def keys(items: list[Any]) -> list[tuple[tuple[str, ...], str]]:
        return [(item.namespace, item.key) for item in items]

    full = keys(store.search(("a",), limit=100))
    assert {ns for ns, _ in full} == {("a",), ("a", "b"), ("a", "c", "d")}
    assert len(full) == 21
    paged = [k for off in range(0, 21, 4) for k in keys(store.search(("a",), limit=4, offset=off))]
    assert paged == full
    even = keys(store.search(("a",), filter={"even": True}, limit=100))
    assert keys(store.search(("a",), filter={"even": True}, limit=3, offset=2)) == even[2:5]


def test_search_namespace_boundaries(store: BaseStore) -> None:
    for ns in [("foo",), ("foo", "child"), ("foobar",), ("user_1",), ("userX1",), ("Foo",)]:
        store.put(ns, "k", {"v": 1})

    def found(prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
        return {i.namespace for i in store.search(prefix, limit=100)}

    assert found(("foo",)) == {("foo",), ("foo", "child")}
    assert found(("fo",)) == set()
    assert found(("user_1",)) == {("user_1",)}
    assert found(("Foo",)) == {("Foo",)}
    assert len(found(())) == 6


def test_search_and_listing_keep_empty_prefixes_and_wildcards(store: BaseStore) -> None:
    store.put(("tenant", "a_%"), "key", {"v": 1})
    store.put(("tenant", "b", "child"), "key", {"v": 1})
    assert len(store.search(())) == 2
    assert [i.namespace for i in store.search(("tenant", "a_%"))] == [("tenant", "a_%")]
    assert sorted(store.list_namespaces(prefix=("tenant", "*"), suffix=("*",))) == [
        ("tenant", "a_%"),
        ("tenant", "b", "child"),
    ]


async def _async_prefixes(store: BaseStore) -> None:
    await store.aput(("tenant", "a_%"), "key", {"v": 1})
    await store.aput(("tenant", "b", "child"), "key", {"v": 1})
    assert len(await store.asearch(())) == 2
    assert sorted(await store.alist_namespaces(prefix=("tenant", "*"), suffix=("*",))) == [
        ("tenant", "a_%"),
        ("tenant", "b", "child"),
    ]


@pytest.mark.asyncio
async def test_async_search_and_listing(store: BaseStore) -> None:
    await _async_prefixes(store)


# -- namespace validation ----------------------------------------------------------------------
@pytest.mark.asyncio
async def test_cannot_put_empty_namespace(store: BaseStore) -> None:
    doc = {"foo": "bar"}
    for bad in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "foo", doc)
        with pytest.raises(InvalidNamespaceError):
            await store.aput(bad, "foo", doc)
    ns = ("foo", "langgraph", "foo")
    await store.aput(ns, "bar", doc)
    assert (await store.aget(ns, "bar")).value == doc  # type: ignore[union-attr]
    assert (await store.asearch(ns, query="bar"))[0].value == doc
    await store.adelete(ns, "bar")
    assert await store.aget(ns, "bar") is None
    # Past the public API, a "langgraph" root is allowed.
    store.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert store.get(("langgraph", "foo"), "bar").value == doc  # type: ignore[union-attr]
    assert store.search(("langgraph", "foo"))[0].value == doc
    store.delete(("langgraph", "foo"), "bar")
    assert store.get(("langgraph", "foo"), "bar") is None


INVALID_NAMESPACES = [("foo.bar",), ("foo\x00",), ("foo", ""), (123,)]
NAMESPACE_METHODS = ["get", "delete", "search", "prefix", "suffix"]


@pytest.mark.parametrize("namespace", INVALID_NAMESPACES)
@pytest.mark.parametrize("method", NAMESPACE_METHODS)
def test_rejects_invalid_namespace_labels(
    store: BaseStore, namespace: tuple[Any, ...], method: str
) -> None:
    call = {
        "get": lambda: store.get(namespace, "key"),
        "delete": lambda: store.delete(namespace, "key"),
        "search": lambda: store.search(namespace),
        "prefix": lambda: store.list_namespaces(prefix=namespace),
        "suffix": lambda: store.list_namespaces(suffix=namespace),
    }[method]
    with pytest.raises(InvalidNamespaceError):
        call()


@pytest.mark.asyncio
@pytest.mark.parametrize("namespace", INVALID_NAMESPACES)
async def test_async_rejects_invalid_namespace_labels(
    store: BaseStore, namespace: tuple[Any, ...]
) -> None:
    for call in (
        lambda: store.aget(namespace, "key"),
        lambda: store.adelete(namespace, "key"),
        lambda: store.asearch(namespace),
        lambda: store.alist_namespaces(prefix=namespace),
    ):
        with pytest.raises(InvalidNamespaceError):
            await call()


@pytest.mark.parametrize("namespace", [("foo.bar",), ("foo", ""), ("foo", 1)])
@pytest.mark.parametrize("kind", ["get", "put", "delete", "search", "list_prefix"])
def test_batch_rejects_invalid_namespace_labels(
    store: BaseStore, namespace: tuple[Any, ...], kind: str
) -> None:
    """Ported from SqliteStore. Intended difference: InMemoryStore's ``batch`` takes
    ops as given; MemoryStore (like SqliteStore) rejects the whole batch first."""
    op = {
        "get": GetOp(namespace, "key"),
        "put": PutOp(namespace, "key", {"changed": True}),
        "delete": PutOp(namespace, "key", None),
        "search": SearchOp(namespace),
        "list_prefix": ListNamespacesOp((MatchCondition("prefix", namespace),)),
    }[kind]
    if not _is_ours(store):
        pytest.skip("InMemoryStore.batch does not validate ops")
    store.put(("foo", "bar"), "key", {"original": True})
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("valid",), "key", {}), op])
    assert store.get(("foo", "bar"), "key").value == {"original": True}  # type: ignore[union-attr]
    assert store.get(("valid",), "key") is None
