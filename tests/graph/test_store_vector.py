"""LangGraph's semantic-search store cases on ``InMemoryStore`` and ``MemoryStore``.

Ported from ``langgraph-checkpoint`` 4.3.2 ``tests/test_store.py`` (vector tests)
with LangGraph's own ``CharacterEmbeddings``. The one intended difference is the
meaning of ``SearchItem.score``: LangGraph's stores return the cosine of the
best indexed text; ``MemoryStore`` ranks by BM25 + cosine fused by RRF and
returns that fused score normalised to ``(0, 1]`` (1.0 = first by both
signals). Cases that compare scores hold for both; ``test_scores`` pins each
store's own definition.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_store import CharacterEmbeddings, MakeStore, fake_embeddings, make_store

from langgraph_memory.integrations.graph.store import MemoryStore
from langgraph_memory.retrieval.scoring import calibrated_relevance

__all__ = ["fake_embeddings", "make_store"]  # fixtures imported for pytest


def _index(emb: CharacterEmbeddings, **extra: Any) -> dict[str, Any]:
    return {"dims": emb.dims, "embed": emb, **extra}


def test_vector_store_initialization(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    assert store.index_config is not None  # type: ignore[attr-defined]
    assert store.index_config["dims"] == fake_embeddings.dims  # type: ignore[attr-defined]
    assert store.index_config["embed"] == fake_embeddings  # type: ignore[attr-defined]


DOCS = [
    ("doc1", {"text": "short text"}),
    ("doc2", {"text": "longer text document"}),
    ("doc3", {"text": "longest text document here"}),
    ("doc4", {"description": "text in description field"}),
    ("doc5", {"content": "text in content field"}),
    ("doc6", {"body": "text in body field"}),
]


def test_vector_insert_with_auto_embedding(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    for key, value in DOCS:
        store.put(("test",), key, value)
    keys = [r.key for r in store.search(("test",), query="long text")]
    assert "doc2" in keys and "doc3" in keys


@pytest.mark.asyncio
async def test_async_vector_insert_with_auto_embedding(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    for key, value in DOCS:
        await store.aput(("test",), key, value)
    keys = [r.key for r in await store.asearch(("test",), query="long text")]
    assert "doc2" in keys and "doc3" in keys


def test_vector_update_with_embedding(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    store.put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    store.put(("test",), "doc2", {"text": "something about dogs"})
    store.put(("test",), "doc3", {"text": "text about birds"})
    initial = store.search(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    initial_score = initial[0].score
    assert initial_score is not None

    store.put(("test",), "doc1", {"text": "new text about dogs"})
    after = store.search(("test",), query="Zany Xerxes")
    after_score = next((r.score for r in after if r.key == "doc1"), 0.0)
    assert after_score is not None and after_score < initial_score
    for r in store.search(("test",), query="new text about dogs"):
        if r.key == "doc1":
            assert r.score is not None and r.score > after_score

    store.put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    top3 = store.search(("test",), query="new text about dogs", limit=3)
    assert not any(r.key == "doc4" for r in top3)


@pytest.mark.asyncio
async def test_async_vector_update_with_embedding(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    await store.aput(("test",), "doc1", {"text": "zany zebra Xerxes"})
    await store.aput(("test",), "doc2", {"text": "something about dogs"})
    initial = await store.asearch(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    await store.aput(("test",), "doc1", {"text": "new text about dogs"})
    after = await store.asearch(("test",), query="Zany Xerxes")
    after_score = next(r.score for r in after if r.key == "doc1")
    assert after_score is not None and initial[0].score is not None
    assert after_score < initial[0].score


FILTER_DOCS = [
    ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
    ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
    ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
    ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
]
FILTER_CASES: list[tuple[str, dict[str, Any], int, str]] = [
    ("apple", {"color": "red"}, 2, "doc1"),
    ("car", {"color": "red"}, 2, "doc2"),
    ("bbbbluuu", {"score": {"$gt": 3.2}}, 3, "doc4"),
    ("apple", {"score": {"$gte": 4.0}, "color": "green"}, 1, "doc3"),
]


def test_vector_search_with_filters(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    for key, value in FILTER_DOCS:
        store.put(("test",), key, value)
    for query, flt, n, first in FILTER_CASES:
        results = store.search(("test",), query=query, filter=flt)
        assert (len(results), results[0].key) == (n, first), (query, flt)


@pytest.mark.asyncio
async def test_async_vector_search_with_filters(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    for key, value in FILTER_DOCS:
        await store.aput(("test",), key, value)
    for query, flt, n, first in FILTER_CASES:
        results = await store.asearch(("test",), query=query, filter=flt)
        assert (len(results), results[0].key) == (n, first), (query, flt)


@pytest.mark.asyncio
async def test_async_concurrent_vector_search(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    """Ported from ``test_async_batched_vector_search_concurrent`` (run on the store itself)."""
    store = make_store(_index(fake_embeddings))
    colors = ["red", "blue", "green", "yellow", "purple"]
    things = ["apple", "car", "house", "book", "phone"]
    docs = [
        (f"doc{i}", {"text": f"{colors[i % 5]} {things[i % 5]}", "color": colors[i % 5], "i": i})
        for i in range(30)
    ]
    await asyncio.gather(*[store.aput(("test",), k, v) for k, v in docs])
    await asyncio.gather(*[store.adelete(("test",), k) for k, _ in docs[:10]])
    queries: list[tuple[str, dict[str, Any]]] = [
        ("apple", {"color": "red"}),
        ("car", {"color": "blue"}),
        ("house", {"i": {"$gt": 25}}),
        ("phone", {"i": {"$lte": 14}}),
    ]
    found = await asyncio.gather(*[store.asearch(("test",), query=q, filter=f) for q, f in queries])
    for results, (_, flt) in zip(found, queries, strict=True):
        assert results
        for r in results:
            assert r.value["i"] >= 10
            if "color" in flt:
                assert r.value["color"] == flt["color"]
            if "i" in flt:
                op, bound = next(iter(flt["i"].items()))
                assert r.value["i"] > bound if op == "$gt" else r.value["i"] <= bound


def test_vector_search_pagination(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = store.search(("test",), query="test", limit=2)
    page2 = store.search(("test",), query="test", limit=2, offset=2)
    assert len(page1) == len(page2) == 2
    assert {r.key for r in page1}.isdisjoint(r.key for r in page2)
    assert len(store.search(("test",), query="test", limit=10)) == 5


def test_vector_search_scores_every_item(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    for i in range(4):
        store.put(("test",), f"other{i}", {"text": f"zzz qqq {i}"})
    store.put(("test",), "match", {"text": "apple pie"})
    assert [r.key for r in store.search(("test",), query="apple pie", limit=1)] == ["match"]


def test_vector_search_edge_cases(
    make_store: MakeStore, fake_embeddings: CharacterEmbeddings
) -> None:
    store = make_store(_index(fake_embeddings))
    store.put(("test",), "doc1", {"text": "test document"})
    for query in ["", None, "test " * 100, "test!@#$%^&*()"]:
        assert len(store.search(("test",), query=query)) == 1


@pytest.mark.asyncio
async def test_embed_with_path(make_store: MakeStore, fake_embeddings: CharacterEmbeddings) -> None:
    store = make_store(_index(fake_embeddings, fields=["key0", "key1", "key3"]))
    await store.aput(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    await store.aput(
        ("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"}
    )
    results = await store.asearch(("test",), query="xxx")
    assert len(results) == 2 and results[0].key != results[1].key
    ascore, bscore = results[0].score, results[1].score
    assert ascore is not None and bscore is not None
    assert ascore == pytest.approx(bscore, abs=1e-5)

    results = await store.asearch(("test",), query="uuu")
    assert [r.key for r in results][0] == "doc2"
    assert results[0].score is not None and results[0].score > results[1].score  # type: ignore[operator]
    assert ascore == pytest.approx(results[0].score, abs=1e-5)

    results = await store.asearch(("test",), query="www")  # not indexed
    assert len(results) == 2
    assert all(r.score is not None and r.score < ascore for r in results)

    store2 = make_store(_index(fake_embeddings, fields=["key17"]))
    await store2.aput(
        ("test",), "doc3", {"key0": "aaa", "key1": "bbb", "key2": "ccc"}, index=["key0", "key1"]
    )
    await store2.aput(
        ("test",), "doc4", {"key0": "eee", "key1": "bbb", "key3": "ggg"}, index=["key1", "key3"]
    )
    for query, first in [("aaa", "doc3"), ("ggg", "doc4")]:
        results = await store2.asearch(("test",), query=query)
        assert results[0].key == first
        assert results[0].score > results[1].score  # type: ignore[operator]
    results = await store2.asearch(("test",), query="bbb")
    assert results[0].key != results[1].key and results[0].score == results[1].score
    results = await store2.asearch(("test",), query="ccc")
    assert all(r.score < ascore for r in results)  # type: ignore[operator]

    await store2.aput(("test",), "doc5", {"key0": "hhh", "key1": "iii"}, index=False)
    results = await store2.asearch(("test",), query="hhh")
    assert len(results) == 3
    assert next(r for r in results if r.key == "doc5").score is None


def test_non_ascii(make_store: MakeStore, fake_embeddings: CharacterEmbeddings) -> None:
    store = make_store(_index(fake_embeddings))
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, start=1):
        store.put(("user_123", "memories"), str(i), {"text": text})
    for i, text in enumerate(texts, start=1):
        assert store.search(("user_123", "memories"), query=text)[0].key == str(i)


def test_scores(make_store: MakeStore, fake_embeddings: CharacterEmbeddings) -> None:
    """Ported from SqliteStore's ``test_scores``; the intended difference is here.

    LangGraph's stores score by cosine; MemoryStore by the calibrated relevance every
    hit of the library carries: the cosine through a logistic, combined with the share
    of the query's words the item has (an item with the query's word and its cosine 1
    scores about 1; one with no query word scores its dense evidence alone).
    """
    store = make_store(_index(fake_embeddings, fields=["key0"]))
    store.put(("test",), "doc", {"key0": "aaa"}, index=["key0", "key1"])
    for query in ["aaa", "bbb"]:
        [result] = store.search((), query=query)
        cos = fake_embeddings.embed_query(query)
        doc = fake_embeddings.embed_query("aaa")
        cosine = sum(a * b for a, b in zip(cos, doc, strict=True))
        if isinstance(store, MemoryStore):
            r = store.memory.config.retrieval
            expected = calibrated_relevance(
                cosine,
                1.0 if query == "aaa" else 0.0,
                cosine_mid=r.relevance_cosine_mid,
                cosine_scale=r.relevance_cosine_scale,
                lexical_weight=r.relevance_lexical_weight,
            )
            assert result.score == pytest.approx(expected, abs=1e-6)
            assert (result.score > 0.99) == (query == "aaa")
        else:
            assert result.score == pytest.approx(cosine, abs=1e-3)


def test_default_index_searches_whole_items(make_store: MakeStore) -> None:
    """Intended difference: without ``index``, InMemoryStore does no semantic search
    (a query is ignored: insertion order, no score); MemoryStore indexes every item
    whole with the manager's embeddings and ranks it."""
    store = make_store()
    store.put(("docs",), "a", {"text": "weather in Paris"})
    store.put(("docs",), "b", {"text": "peanut allergy"})
    results = store.search(("docs",), query="allergy to peanuts")
    if isinstance(store, MemoryStore):
        assert results[0].key == "b" and results[0].score is not None
    else:
        assert [r.key for r in results] == ["a", "b"]
        assert all(r.score is None for r in results)
