"""MemoryManager: writing, searching, building context, housekeeping and async twins."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timezone

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings
from langchain_core.messages import SystemMessage

from langgraph_memory import (
    ContextItem,
    MemoryConfig,
    MemoryContext,
    MemoryHit,
    MemoryManager,
    count_tokens,
    tokenize,
)
from langgraph_memory.core.context import item_tokens
from langgraph_memory.core.lexicon import query_terms
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend, MemoryBackend

CONVERSATION = [
    ("s1", "user", "I moved to Lyon last spring."),
    ("s1", "assistant", "Lyon is lovely in spring!"),
    ("s1", "user", "My sister Clara lives in Berlin and works as an architect."),
    ("s1", "assistant", "Berlin has great architecture."),
    ("s2", "user", "I am allergic to peanuts, please remember that."),
    ("s2", "assistant", "Noted: no peanuts."),
    ("s2", "user", "Do you know a good recipe for ratatouille?"),
    ("s2", "assistant", "Yes: aubergine, courgette, tomato, pepper and onion."),
    ("s3", "user", "我对花生过敏，也不喜欢香菜。"),
    ("s3", "assistant", "好的，我记住了：不要花生和香菜。"),
    ("s3", "user", "下个月我要去成都出差。"),
    ("s3", "assistant", "成都的火锅很有名。"),
]


def load(mm: MemoryManager, user: str = "alice") -> list[str]:
    ids = []
    for i, (session, role, text) in enumerate(CONVERSATION):
        ts = datetime(2024, 1, 1 + i, 10, 0, tzinfo=timezone.utc)
        ids.append(mm.add_message(user, session, role, text, timestamp=ts))
    return ids


# -- adding ---------------------------------------------------------------------------------
def test_add_message_returns_given_id(mm: MemoryManager) -> None:
    assert (
        mm.add_message("alice", "s1", "user", "hello there", message_id="lc-msg-42") == "lc-msg-42"
    )
    stored = mm._backend.get_message("alice", "lc-msg-42")
    assert stored is not None and stored.content == "hello there"


def test_add_message_generates_unique_ids(mm: MemoryManager) -> None:
    ids = [mm.add_message("alice", "s1", "user", f"message {i}") for i in range(20)]
    assert len(set(ids)) == 20
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert all(mm._backend.get_message("alice", i) is not None for i in ids)


def test_add_message_stores_every_field(mm: MemoryManager) -> None:
    mid = mm.add_message(
        "alice",
        "s1",
        "Human",
        "I prefer green tea",
        name="Alice",
        timestamp="1:56 pm on 8 May, 2023",
        metadata={"topic": "food", "tags": ["tea"]},
    )
    m = mm._backend.get_message("alice", mid)
    assert m is not None
    assert m.role == "user"  # LangChain's "human" maps onto "user"
    assert m.name == "Alice"
    assert m.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)
    assert m.metadata == {"topic": "food", "tags": ["tea"]}
    assert m.session_id == "s1"
    ai = mm.add_message("alice", "s1", "ai", "Noted.")
    assert mm._backend.get_message("alice", ai).role == "assistant"


def test_default_timestamp_is_now(mm: MemoryManager) -> None:
    before = datetime.now(timezone.utc)
    mid = mm.add_message("alice", "s1", "user", "timing")
    after = datetime.now(timezone.utc)
    m = mm._backend.get_message("alice", mid)
    assert m is not None and before <= m.timestamp <= after


def test_re_adding_same_id_is_idempotent(mm: MemoryManager) -> None:
    a = mm.add_message("alice", "s1", "user", "I like jazz", message_id="m1")
    b = mm.add_message("alice", "s1", "user", "I like jazz", message_id="m1")
    assert a == b == "m1"
    mm.flush()
    s = mm.stats("alice")
    assert (s["messages"], s["embedded"], s["pending"]) == (1, 1, 0)
    assert len(mm.search("alice", "jazz", layers=["message"])) == 1
    with pytest.raises(ValueError, match="m1"):
        mm.add_message("alice", "s1", "user", "I hate jazz", message_id="m1")
    assert mm._backend.get_message("alice", "m1").content == "I like jazz"
    assert mm.stats("alice")["messages"] == 1


def test_add_turn(mm: MemoryManager) -> None:
    ids = mm.add_turn(
        "alice",
        "s1",
        user="Where should I travel?",
        assistant="Try Lisbon.",
        user_name="Alice",
        assistant_name="Bot",
        timestamp="2024-02-03T04:05:06Z",
        metadata={"k": 1},
    )
    assert len(ids) == 2
    msgs = mm._backend.session_messages("alice", "s1")
    assert [m.id for m in msgs] == ids
    assert [(m.role, m.name, m.content) for m in msgs] == [
        ("user", "Alice", "Where should I travel?"),
        ("assistant", "Bot", "Try Lisbon."),
    ]
    assert all(m.timestamp == datetime(2024, 2, 3, 4, 5, 6, tzinfo=timezone.utc) for m in msgs)
    assert all(m.metadata == {"k": 1} for m in msgs)
    only = mm.add_turn("alice", "s1", user="Just me")
    assert len(only) == 1
    assert mm.stats("alice")["messages"] == 3


# -- flush ----------------------------------------------------------------------------------
def test_flush_embeds_everything(mm: MemoryManager) -> None:
    load(mm)
    mm.flush()
    s = mm.stats("alice")
    assert s["messages"] == len(CONVERSATION)
    assert s["embedded"] == len(CONVERSATION)
    assert s["pending"] == 0
    assert mm._backend.pending_embeddings(10) == []


def test_flush_times_out_while_embedding_is_held(gated_mm) -> None:
    mm, emb = gated_mm
    mm.add_message("alice", "s1", "user", "waiting for the model")
    with pytest.raises(TimeoutError):
        mm.flush(timeout=0.3)
    assert mm.stats("alice")["pending"] == 1
    emb.open()
    mm.flush(timeout=10)
    assert mm.stats("alice")["pending"] == 0


def test_flush_reports_background_failure(backend: MemoryBackend, failing_embeddings) -> None:
    with MemoryManager(backend=backend, embeddings=failing_embeddings()) as mm:
        mm.add_message("alice", "s1", "user", "this will not embed")
        with pytest.raises(RuntimeError, match="background embedding failed"):
            mm.flush(timeout=20)
        # the accepted message is still stored and pending, not lost
        assert mm.stats("alice")["messages"] == 1
        assert mm.stats("alice")["pending"] == 1
        assert mm.search("alice", "embed")[0].text == "this will not embed"


# -- search ---------------------------------------------------------------------------------
def test_search_finds_by_keyword_before_flush(gated_mm) -> None:
    mm, emb = gated_mm
    ids = load(mm)
    assert mm.stats("alice")["embedded"] == 0
    hits = mm.search("alice", "peanuts allergic")
    assert hits[0].id == ids[4]
    assert "bm25" in hits[0].score_parts and "bm25_rank" in hits[0].score_parts
    assert "cosine" not in hits[0].score_parts  # no vector yet: found by BM25 alone
    emb.open()
    mm.flush()
    hits = mm.search("alice", "peanuts allergic")
    assert hits[0].id == ids[4]
    assert hits[0].score_parts["cosine"] > 0
    assert hits[0].score_parts["dense_rank"] == 1.0


CONCEPTS = {
    "pet": {"pet", "puppy", "dog", "kitten", "cat", "hamster"},
    "travel": {"trip", "travel", "flight", "holiday", "vacation", "rome"},
    "food": {"pasta", "dinner", "cook", "recipe", "meal"},
}


class ConceptEmbeddings(Embeddings):
    """A toy semantic model: words of one concept share a direction (no words in common needed)."""

    model_id = "concepts-test"

    def _one(self, text: str) -> list[float]:
        v = np.full(len(CONCEPTS) + 1, 0.0)
        v[-1] = 0.05
        for term in tokenize(text):
            for i, words in enumerate(CONCEPTS.values()):
                v[i] += term in words
        return (v / np.linalg.norm(v)).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


def test_search_finds_by_meaning_after_flush(backend: MemoryBackend, gated_embeddings) -> None:
    emb = gated_embeddings(ConceptEmbeddings())
    with MemoryManager(backend=backend, embeddings=emb) as mm:
        mm.add_message("alice", "s1", "user", "I booked a flight to Rome")
        target = mm.add_message("alice", "s1", "user", "I adopted a puppy named Biscuit")
        mm.add_message("alice", "s1", "user", "I cooked pasta for dinner")
        # no shared word, even with the query lexicon's slot words ("pet" would bring
        # "puppy": see core.lexicon), and no vector yet
        query = "which hamster do I have?"
        assert not set(query_terms(query)) & set(tokenize("I adopted a puppy named Biscuit"))
        assert mm.search("alice", query) == []  # no shared word, no vector yet
        emb.open()
        mm.flush()
        hits = mm.search("alice", query, k=3)
        assert hits[0].id == target
        assert hits[0].score_parts["dense_rank"] == 1.0
        assert "bm25_rank" not in hits[0].score_parts


def test_search_hits_carry_citations_and_fields(mm: MemoryManager) -> None:
    mid = mm.add_message(
        "alice",
        "s9",
        "user",
        "I keep bees on my roof",
        name="Alice",
        timestamp="2024-04-01T08:00:00+02:00",
        metadata={"topic": "hobby"},
    )
    mm.flush()
    (hit,) = mm.search("alice", "bees roof", k=1)
    assert isinstance(hit, MemoryHit)
    assert hit.id == mid and hit.source_ids == [mid]
    assert hit.layer == "message"
    assert hit.text == "I keep bees on my roof"
    assert hit.session_id == "s9"
    assert hit.timestamp == datetime(2024, 4, 1, 6, 0, tzinfo=timezone.utc)
    assert hit.metadata == {"topic": "hobby"}
    assert (hit.name, hit.role) == ("Alice", "user")
    # the score is the calibrated relevance; the ranking's own score is kept
    assert 0 < hit.score <= 1
    assert hit.score_parts["rank_score"] == pytest.approx(hit.score_parts["rrf"])
    # the speaker's name is searchable too
    assert mm.search("alice", "Alice", k=1)[0].id == mid


def test_search_k_and_order(mm: MemoryManager) -> None:
    load(mm)
    mm.flush()
    for k in (1, 2, 5, 50):
        hits = mm.search("alice", "Lyon Berlin peanuts spring", k=k)
        assert 0 < len(hits) <= k
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        assert len({h.id for h in hits}) == len(hits)
    every = mm.search("alice", "Lyon Berlin peanuts spring", k=50, layers=["message"])
    assert len(every) == len(CONVERSATION)


def test_search_layers(mm: MemoryManager) -> None:
    ids = load(mm)
    mm.flush()
    default = mm.search("alice", "Lyon")
    messages = [h.id for h in default if h.layer == "message"]
    assert set(messages[:2]) == {ids[0], ids[1]}
    only = [h.id for h in mm.search("alice", "Lyon", layers=["message"])]
    assert only[: len(messages)] == messages
    # what every turn's extraction read from "I moved to Lyon" is found with the message:
    # one hit per source, the message naming what was folded into it
    [moved] = [h for h in default if h.id == ids[0]]
    assert {"fact", "profile"} & set(moved.metadata.get("merged_layers", []))
    facts = mm.search("alice", "Lyon", layers=["fact", "profile"])
    assert any(ids[0] in h.source_ids for h in facts)
    assert mm.search("alice", "Lyon", layers=[]) == []
    with pytest.raises(ValueError, match="unknown layers"):
        mm.search("alice", "Lyon", layers=["message", "episodes-typo"])
    with pytest.raises(TypeError, match="layers"):
        mm.search("alice", "Lyon", layers="message")


def test_search_chinese_with_jieba(mm: MemoryManager) -> None:
    ids = load(mm)
    mm.add_message("alice", "s4", "user", "我喜欢在花园里喝茶")
    hits = mm.search("alice", "花生过敏", k=3)  # before flush: BM25 over jieba terms
    assert hits[0].id == ids[8]
    assert "bm25" in hits[0].score_parts
    mm.flush()
    assert mm.search("alice", "成都出差", k=1)[0].id == ids[10]
    assert mm.search("alice", "香菜", k=1)[0].id in (ids[8], ids[9])


def test_search_unknown_user_is_empty(mm: MemoryManager) -> None:
    load(mm)
    mm.flush()
    assert mm.search("nobody", "Lyon") == []


# -- filters --------------------------------------------------------------------------------
@pytest.fixture
def filtered(mm: MemoryManager) -> tuple[MemoryManager, dict[str, str]]:
    rows = {
        "paris": (
            "trip to Paris",
            "2024-01-10T09:00:00",
            {"topic": "travel", "importance": 5, "place": {"city": "Paris"}},
        ),
        "rome": (
            "trip to Rome",
            "2024-03-10T09:00:00",
            {"topic": "travel", "importance": 2, "place": {"city": "Rome"}},
        ),
        "food": ("trip snacks list", "2024-05-01T00:00:00", {"topic": "food"}),
        "bare": ("trip without metadata", "2023-12-01T00:00:00", None),
    }
    ids = {
        key: mm.add_message("alice", f"s-{key}", "user", text, timestamp=ts, metadata=meta)
        for key, (text, ts, meta) in rows.items()
    }
    mm.add_message("alice", "s-bot", "assistant", "trip reply from the assistant")
    mm.flush()
    return mm, ids


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        ({"topic": "travel"}, {"paris", "rome"}),
        ({"topic": {"$eq": "food"}}, {"food"}),
        ({"topic": {"$in": ["food", "travel"]}}, {"paris", "rome", "food"}),
        ({"topic": {"$nin": ["travel"]}, "role": "user"}, {"food", "bare"}),
        ({"topic": {"$ne": "travel"}, "role": "user"}, {"food", "bare"}),
        ({"topic": {"$exists": False}, "role": "user"}, {"bare"}),
        ({"importance": {"$gte": 3}}, {"paris"}),
        ({"importance": {"$lt": 3}}, {"rome"}),
        ({"timestamp": {"$gte": "2024-02-01"}, "role": "user"}, {"rome", "food"}),
        ({"timestamp": {"$gte": "2024-01-10T09:00:00Z", "$lt": "2024-05-01"}}, {"paris", "rome"}),
        ({"timestamp": {"$lte": "2023-12-31T23:59:59+00:00"}}, {"bare"}),
        ({"place.city": "Rome"}, {"rome"}),
        ({"metadata.place.city": "Paris"}, {"paris"}),
        ({"metadata.place": {"$exists": True}}, {"paris", "rome"}),
        ({"topic": "travel", "importance": {"$lt": 3}}, {"rome"}),
        ({"session_id": {"$in": ["s-food", "s-bare"]}}, {"food", "bare"}),
        ({"topic": "nothing-matches"}, set()),
    ],
)
def test_search_metadata_filters(filtered, flt: dict, expected: set[str]) -> None:
    mm, ids = filtered
    by_id = {v: k for k, v in ids.items()}
    hits = mm.search("alice", "trip", k=20, filter=flt)
    assert {by_id.get(h.id, "other") for h in hits} == expected


def test_filter_by_role_and_id(filtered) -> None:
    mm, ids = filtered
    hits = mm.search("alice", "trip", k=20, filter={"role": "assistant"})
    assert [h.text for h in hits] == ["trip reply from the assistant"]
    hits = mm.search("alice", "trip", k=20, filter={"id": {"$in": [ids["rome"]]}})
    assert [h.id for h in hits] == [ids["rome"]]


def test_build_context_respects_filter(filtered) -> None:
    mm, ids = filtered
    ctx = mm.build_context("alice", "s-other", "trip", token_budget=500, filter={"topic": "food"})
    assert ctx.items
    assert set(ctx.source_ids) == {ids["food"]}


# -- build_context --------------------------------------------------------------------------
@pytest.mark.parametrize("budget", [1, 3, 6, 8, 10, 15, 20, 30, 50, 80, 120, 200, 500, 2000, 10000])
def test_build_context_never_exceeds_budget(mm: MemoryManager, budget: int) -> None:
    load(mm)
    for i in range(30):
        mm.add_message(
            "alice", "s5", "user", f"filler {i} about Lyon, Berlin and 花生 " * (i % 4 + 1)
        )
    mm.flush()
    ctx = mm.build_context("alice", "s5", "Where does my sister live? 花生", token_budget=budget)
    assert ctx.token_budget == budget
    assert ctx.tokens <= budget
    assert count_tokens(ctx.to_prompt()) <= budget
    assert ctx.tokens == count_tokens(ctx.to_prompt())
    if budget >= 30:
        assert ctx.items
    if budget >= 500:
        assert any(it.layer in ("message", "neighbor") for it in ctx.items)


def test_build_context_default_budget(backend: MemoryBackend) -> None:
    cfg = MemoryConfig(packing={"default_token_budget": 40})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        load(mm)
        mm.flush()
        ctx = mm.build_context("alice", "s1", "Lyon")
        assert ctx.token_budget == 40
        assert 0 < ctx.tokens <= 40


def test_build_context_items_are_cited_and_explained(mm: MemoryManager) -> None:
    ids = load(mm)
    mm.add_message("bob", "s1", "user", "My sister lives in Berlin too")
    mm.flush()
    ctx = mm.build_context("alice", "s2", "Where does my sister live?", token_budget=400)
    assert isinstance(ctx, MemoryContext)
    assert ctx.items
    assert (ctx.user_id, ctx.session_id, ctx.query) == ("alice", "s2", "Where does my sister live?")
    for it in ctx.items:
        assert isinstance(it, ContextItem)
        assert it.source_ids and set(it.source_ids) <= set(ids)
        for sid in it.source_ids:
            assert mm._backend.get_message("alice", sid) is not None
        assert isinstance(it.score, float) and it.score > 0
        assert isinstance(it.score_parts, dict) and it.score_parts
        assert it.tokens == item_tokens(it.text) == count_tokens(f"- {it.text}")
        assert isinstance(it.reason, str) and it.reason
        assert it.layer in (
            "short_term",
            "chain",
            "message",
            "neighbor",
            "mid_term",
            "profile",
            "fact",
        )
        assert it.text in ctx.to_prompt()
    retrieved = [it for it in ctx.items if it.layer == "message"]
    assert retrieved and any(ids[2] in it.source_ids for it in retrieved)
    said = [it for it in ctx.items if it.layer in ("short_term", "message")]
    cited = [sid for it in said for sid in it.source_ids]
    assert len(set(cited)) == len(cited)  # each message at most once
    assert set(ctx.timings_ms) == {"short_term", "retrieve", "pack"}


def test_build_context_current_session_layer(mm: MemoryManager) -> None:
    load(mm)
    current = [mm.add_message("alice", "now", "user", f"current step {i}") for i in range(8)]
    mm.flush()
    ctx = mm.build_context("alice", "now", "Lyon", token_budget=2000)
    session = [it for it in ctx.items if it.layer == "short_term"]
    assert session
    assert all(it.session_id == "now" for it in session)
    # Eight lone user messages are eight pages; short-term holds the last seven.
    cited = {s for it in session for s in it.source_ids}
    assert cited <= set(current[-mm.config.hierarchy.stm_capacity_pages :])
    assert current[-1] in cited and current[0] not in cited
    assert all(it.reason.startswith("short-term memory") for it in session)
    assert any(it.layer == "message" and "Lyon" in it.text for it in ctx.items)


def test_build_context_rendering(mm: MemoryManager) -> None:
    load(mm)
    mm.flush()
    ctx = mm.build_context("alice", "s2", "peanuts", token_budget=300)
    prompt = ctx.to_prompt()
    assert prompt.startswith("Relevant memories:\n")
    assert str(ctx) == prompt
    msgs = ctx.to_messages()
    assert len(msgs) == 1 and isinstance(msgs[0], SystemMessage)
    assert msgs[0].content == prompt
    assert "[2024-01-05]" in prompt  # items are grouped under the date they were said
    d = ctx.to_dict()
    assert d["tokens"] == ctx.tokens and len(d["items"]) == len(ctx.items)
    empty = mm.build_context("alice", "s2", "peanuts", token_budget=1)
    assert empty.items == [] and empty.to_messages() == [] and empty.tokens == 0


def test_build_context_explain(mm: MemoryManager) -> None:
    load(mm)
    mm.flush()
    ctx = mm.build_context("alice", "s3", "Lyon spring", token_budget=300, explain=True)
    text = str(ctx)
    assert text != ctx.to_prompt()
    assert f"{ctx.tokens}/300 tokens" in text
    for it in ctx.items:
        assert it.reason in text
        assert ",".join(it.source_ids) in text
    assert text.count("why:") == len(ctx.items)


def test_build_context_brings_the_turns_around_a_hit(backend: MemoryBackend) -> None:
    # One hit, the rest are neighbours; scored by relevance alone (no route, no decay).
    cfg = MemoryConfig(
        retrieval={"candidate_pool": 1, "fusion_depth": 1, "routing": False, "recency_weight": 0.0}
    )
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        ids = load(mm)
        mm.flush()
        ctx = mm.build_context("alice", "other", "ratatouille recipe", token_budget=2000)
        by_id = {it.source_ids[0]: it for it in ctx.items}
        assert by_id[ids[6]].layer == "message"  # the question is the hit
        neighbors = [it for it in ctx.items if it.layer == "neighbor"]
        # window 2 inside session s2 only (s2 holds ids[4..7])
        assert {it.source_ids[0] for it in neighbors} == {ids[4], ids[5], ids[7]}
        assert all(it.session_id == "s2" for it in neighbors)
        hit = by_id[ids[6]]
        # its neighbours inherit from its score before a question factor
        hit_score = hit.score / hit.score_parts.get("question_factor", 1.0)
        answer = by_id[ids[7]]
        assert answer.reason == f"reply to retrieved message {ids[6]}"
        assert answer.score == pytest.approx(hit_score * cfg.retrieval.answer_decay)
        assert by_id[ids[5]].reason == f"turn next to retrieved message {ids[6]}"
        assert by_id[ids[5]].score == pytest.approx(hit_score * cfg.retrieval.neighbor_decay)
        assert answer.score_parts == {"neighbor_of_score": pytest.approx(hit_score)}


def test_build_context_turn_that_is_hit_and_neighbour_is_one_item(mm: MemoryManager) -> None:
    ids = load(mm)
    mm.flush()
    ctx = mm.build_context("alice", "other", "ratatouille recipe", token_budget=2000)
    turns = [it for it in ctx.items if it.layer == "message"]  # not what rides along
    assert len({it.source_ids[0] for it in turns}) == len(turns)
    by_id = {it.source_ids[0]: it for it in turns}
    question, answer = by_id[ids[6]], by_id[ids[7]]
    assert question.score == max(it.score for it in turns)
    assert f"reply to retrieved message {ids[6]}" in answer.reason
    assert answer.score >= question.score * mm.config.retrieval.answer_decay
    for it in ctx.items:  # a turn is only ever explained by a hit of its own session
        for other_id, other in by_id.items():
            if f"retrieved message {other_id}" in it.reason:
                assert other.session_id == it.session_id


TEXT = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF),
        st.sampled_from(list("abcdefghij klmnop XYZ 0123 ,.?!\n花生过敏成都")),
    ),
    min_size=1,
    max_size=400,
).filter(lambda s: s.strip() != "")


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    texts=st.lists(TEXT, min_size=1, max_size=12),
    query=TEXT,
    budget=st.integers(min_value=1, max_value=2000),
    show_dates=st.booleans(),
)
def test_build_context_budget_property(
    texts: list[str], query: str, budget: int, show_dates: bool
) -> None:
    cfg = MemoryConfig(packing={"show_dates": show_dates})
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=cfg) as mm:
        for i, t in enumerate(texts):
            mm.add_message("u", f"s{i % 3}", ("user", "assistant")[i % 2], t, timestamp=i * 86400)
        mm.flush()
        ctx = mm.build_context("u", "s0", query, token_budget=budget)
        assert ctx.tokens <= budget
        assert count_tokens(ctx.to_prompt()) <= budget
        assert len(ctx.source_ids) == len(ctx.items)


# -- housekeeping ---------------------------------------------------------------------------
def test_delete_user(mm: MemoryManager) -> None:
    load(mm, "alice")
    bob = load(mm, "bob")
    mm.flush()
    assert mm.delete_user("alice") == len(CONVERSATION)
    assert mm.search("alice", "Lyon") == []
    assert mm.build_context("alice", "s1", "Lyon", token_budget=500).items == []
    assert mm.stats("alice")["messages"] == 0
    assert mm.search("bob", "moved to Lyon")[0].id == bob[0]
    assert mm.stats("bob")["messages"] == len(CONVERSATION)
    assert mm.delete_user("alice") == 0
    # alice can be added again and is found again
    mid = mm.add_message("alice", "s1", "user", "I moved to Lyon last spring.")
    mm.flush()
    assert [h.id for h in mm.search("alice", "Lyon", layers=["message"])] == [mid]
    assert all(h.source_ids == [mid] for h in mm.search("alice", "Lyon") if h.id != mid)


def test_stats(mm: MemoryManager) -> None:
    empty = mm.stats()
    assert (empty["messages"], empty["users"], empty["pending"]) == (0, 0, 0)
    load(mm, "alice")
    load(mm, "bob")
    mm.flush()
    s = mm.stats("alice")
    assert s["messages"] == s["embedded"] == len(CONVERSATION)
    assert s["pending"] == 0
    assert s["sessions"] == 3
    assert s["users"] == 1
    assert s["backend"] == mm._backend.name
    assert s["layers"] == {
        "message": len(CONVERSATION),
        "anchor": 0,
        "task": 0,
        "episode": 0,
        "knowledge": 0,
        "lesson": 0,
        "insight": s["layers"]["insight"],
        "contradiction": 0,
        # a span per day and per week of the conversation
        "rollup": s["layers"]["rollup"],
        # the people and places named in it
        "entity": s["layers"]["entity"],
        "short_term": s["hierarchy"]["short_term_pages"],
        "mid_term": s["hierarchy"]["mid_term_segments"],
        "archived_segments": 0,
        # read from every turn: the move, the allergies, the sister, the dislike of coriander
        "profile": s["layers"]["profile"],
        "facts": s["layers"]["facts"],
        "traits": 0,
    }
    assert s["layers"]["profile"] >= 2 and s["layers"]["facts"] >= 2
    h = s["hierarchy"]
    assert h["short_term_pages"] + h["mid_term_pages"] == len(CONVERSATION) // 2  # turns = pages
    total = mm.stats()
    assert total["messages"] == 2 * len(CONVERSATION)
    assert total["users"] == 2 and total["sessions"] == 6
    if mm._backend.name == "sqlite":
        assert s["path"] == str(mm._backend.file)


def test_close_and_context_manager(backend: MemoryBackend) -> None:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        assert isinstance(mm, MemoryManager)
        mm.add_message("alice", "s1", "user", "before close")
    for call in (
        lambda: mm.add_message("alice", "s1", "user", "after close"),
        lambda: mm.add_turn("alice", "s1", user="after close"),
        lambda: mm.search("alice", "close"),
        lambda: mm.build_context("alice", "s1", "close"),
        lambda: mm.flush(),
        lambda: mm.stats(),
        lambda: mm.delete_user("alice"),
    ):
        with pytest.raises(RuntimeError, match="closed"):
            call()
    mm.close()  # closing twice is fine


def test_sqlite_manager_from_path(tmp_path) -> None:
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as mm:
        mid = mm.add_message("alice", "s1", "user", "persist me please")
        mm.flush()
        assert mm.path == tmp_path / "mem" / "memory.sqlite3"
    assert (tmp_path / "mem" / "memory.sqlite3").is_file()
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as mm:
        hit = mm.search("alice", "persist")[0]
        assert hit.id == mid and "cosine" in hit.score_parts


def test_store_refuses_a_different_embedding_model(tmp_path) -> None:
    path = tmp_path / "mem"
    with MemoryManager(path, embeddings=HashingEmbeddings(dim=64)) as mm:
        mm.add_message("alice", "s1", "user", "vectors of one model")
        mm.flush()
    # Opening works (stats and delete_user need no model); embedding with the other
    # model is refused, and nothing is embedded with it.
    with MemoryManager(path, embeddings=HashingEmbeddings(dim=32)) as other:
        assert other.stats("alice")["messages"] == 1
        with pytest.raises(ValueError, match="hashing-64"):
            other.search("alice", "model")
        other.add_message("alice", "s1", "user", "a second message")
        with pytest.raises(RuntimeError, match="hashing-64"):
            other.flush(timeout=20)
        assert other.stats("alice")["embedded"] == 1
    with MemoryManager(path, embeddings=HashingEmbeddings(dim=64)) as mm:  # same model: fine
        assert mm.search("alice", "model")[0].score_parts["cosine"] > 0


def test_store_without_vectors_may_switch_model(tmp_path, failing_embeddings) -> None:
    path = tmp_path / "mem"
    mm = MemoryManager(path, embeddings=failing_embeddings())
    mm.add_message("alice", "s1", "user", "never embedded")
    mm.close()
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.flush(timeout=20)
        assert mm.stats("alice")["embedded"] == 1
        assert mm._backend.get_meta("embedding_model") == "hashing-256"


def test_hit_metadata_mutation_does_not_change_memory(
    mm: MemoryManager,
) -> None:
    mm.add_message("alice", "s1", "user", "I like tea", metadata={"topic": "food"})
    mm.flush()
    hit = mm.search("alice", "tea")[0]
    hit.metadata["topic"] = "changed"
    assert [h.text for h in mm.search("alice", "tea", filter={"topic": "food"})] == ["I like tea"]


# -- async twins ----------------------------------------------------------------------------
def test_async_twins(mm: MemoryManager) -> None:
    async def scenario() -> None:
        mid = await mm.aio.add_message(
            "alice", "s1", "user", "I collect vintage cameras", message_id="cam", metadata={"a": 1}
        )
        assert mid == "cam"
        ids = await mm.aio.add_turn("alice", "s1", user="My dog is Rex", assistant="Hi Rex!")
        assert len(ids) == 2
        await mm.aio.flush()
        stats = await mm.aio.stats("alice")
        assert (stats["messages"], stats["pending"]) == (3, 0)
        hits = await mm.aio.search("alice", "cameras", 2, ["message"], {"a": 1})
        assert [h.id for h in hits] == ["cam"]
        assert await mm.aio.search("alice", "cameras", 5, []) == []
        ctx = await mm.aio.build_context("alice", "s2", "dog name", 200, explain=True)
        assert ids[0] in ctx.source_ids and ctx.tokens <= 200 and ctx.explain
        sync = mm.search("alice", "dog")
        assert [h.id for h in await mm.aio.search("alice", "dog")] == [h.id for h in sync]
        with pytest.raises(ValueError, match="content"):
            await mm.aio.add_message("alice", "s1", "user", "   ")
        assert await mm.aio.delete_user("alice") == 3
        assert (await mm.aio.stats("alice"))["messages"] == 0
        await mm.aio.close()
        with pytest.raises(RuntimeError, match="closed"):
            await mm.aio.search("alice", "dog")

    asyncio.run(scenario())


def test_async_calls_run_concurrently(mm: MemoryManager) -> None:
    async def scenario() -> list[str]:
        return await asyncio.gather(
            *(
                mm.aio.add_message("alice", f"s{i % 3}", "user", f"parallel note {i}")
                for i in range(40)
            )
        )

    ids = asyncio.run(scenario())
    assert len(set(ids)) == 40
    mm.flush()
    assert mm.stats("alice")["messages"] == mm.stats("alice")["embedded"] == 40


class _WatchingEmbeddings(HashingEmbeddings):
    """Records, for each query embedded, whether a foreground call was running."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[bool] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        from langgraph_memory.core.concurrency import foreground

        if any("?" in t for t in texts):  # the queries below, not the stored message
            self.seen.append(foreground.active)
        return super().embed_documents(texts)


def test_background_loops_yield_only_while_a_foreground_call_runs(tmp_path) -> None:
    from langgraph_memory.core import concurrency as worker

    emb = _WatchingEmbeddings()
    with MemoryManager(tmp_path, embeddings=emb) as mm:
        mm.add_message("u", "s", "user", "I moved to Lyon last spring.")
        mm.flush()
        assert not worker.foreground.active
        mm.search("u", "where do I live?")
        mm.build_context("u", "s", "which city?")
        assert emb.seen[-2:] == [True, True]  # both embedded their query inside the call
        assert not worker.foreground.active  # and left it
        with pytest.raises(ValueError):
            mm.search("u", "")
        assert not worker.foreground.active  # an error leaves it too


def test_warm_up_loads_the_chinese_dictionaries_and_the_model(tmp_path) -> None:
    import sys

    from langgraph_memory.core import tokens as tokens

    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        mm.maintenance.warm_up()
        assert tokens._jieba_ready and "jieba.posseg" in sys.modules
        asyncio.run(mm.aio.maintenance.warm_up(chinese=False))
        mm.add_message("u", "s", "user", "我对花生过敏")
        mm.flush()
        assert mm.search("u", "花生")[0].text == "我对花生过敏"
