"""Retrieval across layers: long-term entries by hybrid search, segments then their pages."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.index.ranking import LongTermDoc, rank_docs, rank_hybrid
from langgraph_memory.read.messages import RankedMessage
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 3, 1, tzinfo=timezone.utc)


def manager(embeddings: Embeddings | None = None, **cfg) -> MemoryManager:
    return MemoryManager(
        backend=InMemoryBackend(),
        embeddings=embeddings or HashingEmbeddings(),
        config=MemoryConfig.flat(**cfg),
    )


def docs(*texts: str) -> list[LongTermDoc]:
    return [LongTermDoc(f"f{i}", "fact", t, [f"m{i}"], T0) for i, t in enumerate(texts)]


# -- long-term: the hybrid ranking itself --------------------------------------------------
def test_without_vectors_the_ranking_is_the_words_only_one() -> None:
    ds = docs("User lives in Lyon", "User works in Lyon at ACME", "User owns a cat")
    words = rank_docs(ds, "Lyon ACME job")
    hybrid = rank_hybrid(ds, "Lyon ACME job", rrf_k=60)
    assert [d.id for d, _, _ in hybrid] == [d.id for d, _ in words] == ["f1", "f0"]
    assert [s for _, s, _ in hybrid] == [1 / 61, 1 / 62]
    assert hybrid[0][2]["term_score"] == words[0][1] and "cosine" not in hybrid[0][2]
    vecs = np.eye(3)  # vectors, but a dense weight of 0: words only still
    same = rank_hybrid(ds, "Lyon ACME job", query_vector=vecs[2], doc_vectors=vecs, dense_weight=0)
    assert [d.id for d, _, _ in same] == ["f1", "f0"]


def test_hybrid_fuses_both_ranks_and_gates_entries_sharing_no_word() -> None:
    ds = docs("User lives in Lyon", "User plays the cello", "User owns a cat")
    vecs = np.array([[0.2, 1.0, 0.0], [1.0, 0.1, 0.0], [0.0, 0.0, 1.0]])
    q = np.array([1.0, 0.0, 0.0])
    ranked = rank_hybrid(ds, "Lyon music", query_vector=q, doc_vectors=vecs, min_cosine=0.5)
    ids = [d.id for d, _, _ in ranked]
    assert ids == ["f0", "f1"]  # the cat is neither named nor close: left out
    lyon, cello = ranked[0][2], ranked[1][2]
    assert set(cello) == {"cosine", "dense_rank", "rrf"} and cello["dense_rank"] == 1
    assert {"term_score", "bm25_rank", "cosine", "dense_rank", "rrf"} <= set(lyon)
    # ranked first by both would score 1/(k+1): one ranking alone is worth half of that
    assert ranked[1][1] == pytest.approx(0.5 / 61)
    assert ranked[0][1] == pytest.approx((1 / 61 + 1 / 62) / 2)
    everyone = rank_hybrid(ds, "Lyon music", query_vector=q, doc_vectors=vecs)
    assert len(everyone) == 3  # no floor: every entry, the closest first


def test_context_explains_both_parts_of_a_long_term_entry() -> None:
    with manager() as mm:
        mm.add_message("u", "s", "user", "I repaired the garden fence today.")
        mm._longterm.facts.add_fact("u", "user", "repaired", "the garden fence", valid_from=T0)
        mm.flush()
        ctx = mm.build_context("u", "q", "who repaired the garden fence?", token_budget=400)
        [fact] = [it for it in ctx.items if it.layer == "fact"]
        assert {"term_score", "bm25_rank", "cosine", "dense_rank", "rrf"} <= set(fact.score_parts)
        assert "hybrid search" in fact.reason
        [hit] = mm.search("u", "who repaired the garden fence?", layers=["long_term"])
        assert {"term_score", "cosine"} <= set(hit.score_parts)


def test_long_term_ranking_is_words_only_without_dense_weights() -> None:
    for cfg in ({"long_term_dense_weight": 0.0}, {"dense_weight": 0.0}):
        with manager(**cfg) as mm:
            mm._longterm.facts.add_fact("u", "user", "repaired", "the garden fence", valid_from=T0)
            mm._longterm.facts.add_fact("u", "user", "owns", "a red bicycle", valid_from=T0)
            ctx = mm.build_context("u", "q", "what did they repair in the garden?", 400)
            facts = [it for it in ctx.items if it.layer == "fact"]
            assert [f.text.split(" (since")[0] for f in facts] == ["User repaired the garden fence"]
            assert "cosine" not in facts[0].score_parts and "shared words" in facts[0].reason


def test_the_query_is_embedded_once_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    with manager(segment_page_weight=1.0) as mm:
        for i in range(12):
            mm.add_turn("u", "s", user=f"note {i} about the tea garden", assistant="noted")
        mm._longterm.facts.add_fact("u", "user", "grows", "green tea", valid_from=T0)
        mm.flush()
        emb = mm.embeddings
        seen: list[list[str]] = []
        real = emb.embed_array

        def spy(texts, *, persist=True):  # type: ignore[no-untyped-def]
            seen.append(list(texts))
            return real(texts, persist=persist)

        monkeypatch.setattr(emb, "embed_array", spy)
        query = "what grows in the garden?"
        mm.build_context("u", "q", query, token_budget=400)
        assert sum(t == [query] for t in seen) == 1
        seen.clear()
        mm.search("u", query, k=5)
        assert sum(t == [query] for t in seen) == 1


def test_long_term_entries_never_cross_users() -> None:
    with manager() as mm:
        mm.add_message("ann", "s", "user", "The weather was grey.")
        mm.add_message("bob", "s", "user", "The weather was grey.")
        mm._longterm.facts.add_fact(
            "bob", "user", "plays", "the cello in an orchestra", valid_from=T0
        )
        mm._longterm.profile.upsert_preference("bob", "music", "baroque cello", source="explicit")
        mm._longterm.facts.add_fact("ann", "user", "owns", "a red bicycle", valid_from=T0)
        mm.flush()
        ctx = mm.build_context("ann", "q", "does she play the cello?", token_budget=800)
        hits = mm.search("ann", "does she play the cello?", k=20)
        texts = [it.text for it in ctx.items] + [h.text for h in hits]
        assert texts and not any("cello" in t for t in texts)


@pytest.mark.slow
def test_an_entry_sharing_no_word_is_found_by_meaning(minilm: Embeddings) -> None:
    with manager(minilm) as mm:
        for text in ("The weather was grey all week.", "I paid the electricity bill."):
            mm.add_message("u", "s", "user", text)
            mm.add_message("v", "s", "user", text)
        mm._longterm.facts.add_fact(
            "u", "user", "plays", "the cello in an orchestra", valid_from=T0
        )
        mm._longterm.facts.add_fact("u", "user", "owns", "a red bicycle", valid_from=T0)
        mm._longterm.facts.add_fact("u", "user", "works at", "a bank", valid_from=T0)
        mm._longterm.facts.add_fact(
            "v", "user", "performs", "violin music in a quartet", valid_from=T0
        )
        mm.flush()
        query = "Which musical instrument does she perform with?"
        ctx = mm.build_context("u", "q", query, token_budget=600)
        facts = [it for it in ctx.items if it.layer == "fact"]
        assert facts and facts[0].text.startswith("User plays the cello")
        assert "term_score" not in facts[0].score_parts  # no word in common
        assert facts[0].score_parts["dense_rank"] == 1
        assert not any("violin" in it.text for it in ctx.items)  # v's entry stays v's
        [top, *_] = mm.search("u", query, k=3, layers=["long_term"])
        assert top.text.startswith("User plays the cello")
    with manager(minilm, long_term_dense_weight=0.0) as mm:
        mm._longterm.facts.add_fact(
            "u", "user", "plays", "the cello in an orchestra", valid_from=T0
        )
        ctx = mm.build_context("u", "q", query, token_budget=600)
        assert not [it for it in ctx.items if it.layer == "fact"]  # words alone miss it


# -- mid-term: segments, then their pages ----------------------------------------------------
def _segment_and_kettles(mm: MemoryManager) -> tuple[set[str], set[str]]:
    """Ten tea pages in s1 (the first three reach a mid-term segment) and four pages that
    name the query exactly in s2 (still short-term). Returns (segment ids, s2 ids)."""
    for i in range(10):
        mm.add_turn(
            "ann",
            "s1",
            user=f"I brewed green tea number {i} with honey",
            assistant="Green tea with honey sounds calming",
            timestamp=T0 + timedelta(minutes=i),
        )
    near = set()
    for i in range(4):
        near |= set(
            mm.add_turn(
                "ann",
                "s2",
                user=f"the tea kettle whistled {i}",
                assistant="a whistling tea kettle",
                timestamp=T0 + timedelta(hours=1, minutes=i),
            )
        )
    mm.add_turn("bob", "s1", user="I brewed green tea with honey", assistant="Green tea!")
    mm.flush()
    segs = mm._parts.hierarchy.segments("ann")
    return {m for s in segs.values() for m in s.message_ids()}, near


def test_a_page_missed_by_plain_retrieval_is_found_through_its_segment() -> None:
    # Plain retrieval considers 4 messages: the four that name the query best.
    cfg = {"candidate_pool": 4, "fusion_depth": 2, "neighbor_window": 0, "segments_per_query": 1}
    with manager(segment_page_weight=1.0, **cfg) as mm:
        in_segment, near = _segment_and_kettles(mm)
        assert in_segment and not in_segment & near
        query = "tea kettle"
        ranked = mm._read.retriever.rank("ann", query, 4)
        msgs = mm._backend.get_messages("ann", [r.seq for r in ranked])
        plain = {m.id for m in msgs.values()}
        ctx = mm.build_context("ann", "q", query, token_budget=2000)
        pages = [it for it in ctx.items if it.layer == "segment_page"]
        assert pages
        for it in pages:
            [mid] = it.source_ids
            assert mid in in_segment and mid not in plain
            assert {"segment_page_rank", "cosine", "segment_rank"} <= set(it.score_parts)
            assert "through its mid-term segment" in it.reason
        ann_ids = {m.id for m in mm._backend.iter_messages("ann")}
        assert all(set(it.source_ids) <= ann_ids for it in ctx.items)  # never bob's
    with manager(**cfg) as mm:  # the default: off
        _segment_and_kettles(mm)
        ctx = mm.build_context("ann", "q", query, token_budget=2000)
        assert not [it for it in ctx.items if it.layer == "segment_page"]


def test_segment_pages_reach_what_dense_missed_and_do_not_reweigh_what_it_found() -> None:
    with manager(segment_page_weight=1.0, fusion_depth=2, tail_factor=0.1) as mm:
        fused = [
            RankedMessage(1, 0.03, {"bm25_rank": 1.0, "dense_rank": 1.0}),
            RankedMessage(2, 0.02, {"bm25_rank": 2.0}),
        ]
        routed = [(1, 0.9), (3, 0.5), (2, 0.4), (4, 0.3)]
        out = mm._read.retriever._with_segment_pages(fused, routed, dense={1})
        got = {s: (score, parts) for s, score, parts, _ in out}
        primary = {r.seq: r.primary for r in out}
        assert got[1] == (0.03, {"bm25_rank": 1.0, "dense_rank": 1.0})  # its cosine counted once
        assert got[3][0] == pytest.approx(1 / 62) and got[3][1]["segment_page_rank"] == 2
        assert got[2][0] == pytest.approx(0.02 + 0.1 / 63)  # rank 3: past the fusion depth
        assert not primary[4] and got[4][0] == pytest.approx(0.1 / 64)
        assert [r.seq for r in out] == [1, 2, 3, 4]
