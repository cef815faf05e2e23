"""The read path's priority packing, routing, time match, decay and diversity."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.core.context import ContextItem
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.read.packing import Packer
from langgraph_memory.read.rerank import Reranker
from langgraph_memory.storage import InMemoryBackend

NOW = datetime.now(timezone.utc)


def manager(**cfg) -> MemoryManager:
    return MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=MemoryConfig.flat(**cfg)
    )


def test_priority_anchors_then_profile_then_task_then_session_then_retrieved() -> None:
    with manager() as mm:
        mm.add_message("u", "old", "user", "I love green tea.", timestamp=NOW - timedelta(days=3))
        mm.add_message("u", "old", "user", "The boiler broke in the basement.")
        mm.add_message("u", "now", "user", "Let us plan the trip.")
        mm.anchors.add("u", "Always answer in French.", session_id="now")
        mm._parts.working.start_task("u", "now", "Plan the Kyoto trip")
        mm._longterm.profile.upsert_preference("u", "drink", "green tea", source="explicit")
        mm.flush()
        # (a budget whose profile share holds whole lines the query is not about: below
        # it, an unrelated profile is one line, see read.essentials.brief_unrelated)
        ctx = mm.build_context("u", "now", "what broke in the basement?", token_budget=800)
        layers = [it.layer for it in ctx.items]
        # the profile: the preference set here and the one read from "I love green tea."
        assert layers[:5] == ["anchor", "profile", "profile", "task", "short_term"]
        assert "message" in layers[5:]
        assert ctx.items[0].reason == "session anchor: always rides along"
        assert ctx.items[3].text == "Task in progress: Plan the Kyoto trip"
        assert ctx.tokens <= 800
        middling = mm.build_context("u", "now", "what broke in the basement?", token_budget=400)
        layers = [it.layer for it in middling.items]
        assert layers[:4] == ["anchor", "profile", "task", "short_term"], layers
        assert "unrelated to the query: one short line" in middling.items[1].reason
        other = mm.build_context("u", "elsewhere", "what broke?", token_budget=400)
        assert "anchor" not in [it.layer for it in other.items]  # a session anchor stays home
        assert mm.stats("u")["layers"]["anchor"] == 1


def test_anchors_ride_along_before_anything_else_even_in_a_small_budget() -> None:
    with manager() as mm:
        mm.anchors.add("u", "Reply in one sentence.")
        for i in range(20):
            mm.add_message("u", "s", "user", f"note {i} about the garden fence")
        mm.flush()
        ctx = mm.build_context("u", "s", "garden fence", token_budget=30)
        assert ctx.items[0].layer == "anchor" and ctx.tokens <= 30


def test_a_statement_does_not_hide_the_message_it_came_from() -> None:
    p = Packer(500)
    fact = ContextItem("fact", "User works at Clayworks", 5, 1.0, {}, ["m1"], "")
    msg = ContextItem("message", "user: my pottery studio is Clayworks", 9, 0.9, {}, ["m1"], "")
    same = ContextItem("fact", "User works at Clayworks", 5, 0.5, {}, ["m2"], "")
    assert [it.layer for it in p.take([fact, msg, same])] == ["fact", "message"]


def test_route_weighs_layers_and_explains_itself() -> None:
    with manager() as mm:
        mm.add_message("u", "s1", "user", "I went hiking in the Alps with Sam.")
        mm._longterm.facts.add_fact("u", "user", "went_hiking_in", "the Alps", source_ids=["x"])
        mm.flush()
        ctx = mm.build_context("u", "s2", "where did I go hiking?", token_budget=500)
        fact = next(it for it in ctx.items if it.layer == "fact")
        msg = next(it for it in ctx.items if it.layer == "message")
        # recall intent: facts weigh 0.8, messages 1.0 (and 1.0 is not recorded)
        assert fact.score_parts["route_weight"] == pytest.approx(0.8)
        assert "route_weight" not in msg.score_parts
        assert "for a recall query" in fact.reason
        assert fact.score == pytest.approx(fact.score_parts["relevance"] * 0.8)
    with manager(routing=False) as mm:
        mm._longterm.facts.add_fact("u", "user", "went_hiking_in", "the Alps", source_ids=["x"])
        ctx = mm.build_context("u", "s2", "where did I go hiking?", token_budget=500)
        assert all("route_weight" not in it.score_parts for it in ctx.items)


def test_a_time_the_query_names_raises_memories_from_then() -> None:
    last_week = NOW - timedelta(days=7)
    with manager(recency_weight=0.0) as mm:
        mm.add_message("u", "a", "user", "We talked about the budget report.", timestamp=last_week)
        mm.add_message(
            "u",
            "b",
            "user",
            "We talked about the budget report.",
            timestamp=NOW - timedelta(days=60),
        )
        mm.flush()
        ctx = mm.build_context("u", "c", "what did we talk about last week?", token_budget=500)
        msgs = [it for it in ctx.items if it.layer in ("message", "neighbor")]
        boosted = [it for it in msgs if "time_match" in it.score_parts]
        assert len(boosted) == 1 and boosted[0].timestamp == last_week
        assert "said within the time the query names" in boosted[0].reason
        assert msgs[0] is boosted[0] or max(msgs, key=lambda it: it.score) is boosted[0]


def test_recency_decay_prefers_the_newer_of_two_equal_memories() -> None:
    with manager(recency_weight=0.5, recency_half_life_days=30.0, routing=False) as mm:
        old = mm.add_message(
            "u", "a", "user", "The wifi password changed.", timestamp=NOW - timedelta(days=90)
        )
        new = mm.add_message("u", "b", "user", "The wifi password changed.", timestamp=NOW)
        mm.flush()
        ctx = mm.build_context("u", "c", "wifi password", token_budget=500)
        by = {it.source_ids[0]: it for it in ctx.items}
        # 90 days = 3 half-lives: 1 - 0.5 + 0.5 / 8
        assert by[old].score_parts["recency"] == pytest.approx(0.5625, abs=1e-3)
        assert "recency" not in by[new].score_parts  # the newest is not decayed
        assert by[new].score > by[old].score


def test_importance_weighs_episodes() -> None:
    with manager() as mm:
        for request, outcome in (("restart nginx", "success"), ("deploy website", "failed")):
            t = mm._parts.working.start_task("u", "s", request)
            mm._parts.working.complete_task("u", t, outcome=outcome, summary="done")
        ctx = mm.build_context("u", "s2", "restart nginx, deploy website", token_budget=800)
        eps = [it for it in ctx.items if it.layer == "episode"]
        assert len(eps) == 2
        for it in eps:
            assert it.score_parts["importance_factor"] == pytest.approx(
                0.5 + it.score_parts["importance"]
            )


def test_mmr_passes_over_a_repeat_when_asked() -> None:
    texts = ["the red kite flew over the hill"] * 2 + ["a blue boat sailed on the lake"]
    texts += ["green tea in the morning", "the printer jammed again", "a long train ride"]

    def order(mmr_lambda: float) -> tuple[list[int], int, bool]:
        cfg = dict(routing=False, recency_weight=0.0, neighbor_window=0)
        with manager(mmr_lambda=mmr_lambda, **cfg) as mm:
            for i, t in enumerate(texts):
                mm.add_message("u", f"s{i}", "user", t + f" ({i})")
            mm.flush()
            ctx = mm.build_context("u", "q", "red kite hill boat", token_budget=500)
        got = [it.text for it in ctx.items if it.layer == "message"]
        kites = [i for i, text in enumerate(got) if "red kite" in text]
        boat = next(i for i, text in enumerate(got) if "blue boat" in text)
        return kites, boat, any("mmr_redundancy" in it.score_parts for it in ctx.items)

    kites, boat, used = order(1.0)
    assert kites == [0, 1] and boat > 1 and not used  # by score alone: the repeat second
    kites, boat, used = order(0.3)
    assert kites[0] == 0 and boat < kites[1] and used  # the repeat waits for the different one


def test_config_validates_read_path_fields() -> None:
    for bad in ({"recency_weight": 2.0}, {"mmr_lambda": -0.1}, {"working_share": 1.5}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            MemoryConfig.flat(**bad)
    with pytest.raises(ValueError, match="time_boost"):
        MemoryConfig(retrieval={"time_boost": -1.0})


class KeywordReranker(Reranker):
    """Scores a text 1 when it holds the word, else 0 (a stand-in cross-encoder)."""

    def __init__(self, word: str) -> None:
        self.word = word
        self.calls = 0

    def rerank(self, query: str, texts) -> list[float]:
        self.calls += 1
        return [1.0 if self.word in t else 0.0 for t in texts]


def test_a_reranker_reorders_the_best_candidates() -> None:
    rr = KeywordReranker("umbrella")
    mm = MemoryManager(
        backend=InMemoryBackend(),
        embeddings=HashingEmbeddings(),
        config=MemoryConfig(
            retrieval={"routing": False, "recency_weight": 0.0, "neighbor_window": 0}
        ),
        reranker=rr,
    )
    with mm:
        mm.add_message("u", "a", "user", "rain rain rain forecast for tomorrow")
        mm.add_message("u", "b", "user", "bring the umbrella, rain is coming")
        mm.flush()
        ctx = mm.build_context("u", "c", "rain forecast", token_budget=500)
        msgs = [it for it in ctx.items if it.layer == "message"]
        assert rr.calls == 1 and "umbrella" in msgs[0].text
        assert msgs[0].score_parts["rerank_rank"] == 1.0
        assert "reranked to 1 by the cross-encoder" in msgs[0].reason
        assert msgs[0].score >= msgs[1].score
    with pytest.raises(TypeError, match="reranker"):
        MemoryManager(backend=InMemoryBackend(), reranker=object())  # type: ignore[arg-type]


class _Recording(HashingEmbeddings):
    """The hashing model, recording every text it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts += texts
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.texts.append(text)
        return super().embed_query(text)


def test_a_context_reads_its_messages_cosines_from_their_stored_vectors(tmp_path) -> None:
    """A context's neighbours, later statements and session turns are judged by their
    stored vectors: the model embeds the query and no stored message again (a fresh
    process, so no in-process cache hides a re-embedding)."""
    topics = ["tulips", "jazz", "chess", "pottery", "sailing", "curry", "violin", "hiking"]
    filler = [f"We talked about {t} for a while, round {i}." for i in range(25) for t in topics]
    said = ["The landlord fixed the boiler at last.", "The landlord said the boiler is old."]
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        for i, text in enumerate(filler[:100] + said[:1] + filler[100:] + said[1:]):
            mm.add_message("u", f"s{i // 20}", "user" if i % 2 == 0 else "assistant", text)
        mm.flush()
    emb = _Recording()
    with MemoryManager(tmp_path, embeddings=emb) as mm:
        query = "what did the landlord say about the boiler?"
        ctx = mm.build_context("u", "s9", query, token_budget=2000)
    layers = {it.layer for it in ctx.items}
    assert {"short_term", "message", "neighbor"} <= layers, layers
    assert all(0.0 <= it.relevance <= 1.0 for it in ctx.items)
    texts = said + filler
    stored = set(texts) | {f"{role}: {text}" for role in ("user", "assistant") for text in texts}
    assert not stored & set(emb.texts), sorted(stored & set(emb.texts))
    assert query in emb.texts


def test_a_timeline_is_judged_by_its_lines_stored_vectors(tmp_path) -> None:
    """The outline of a "how did it go" question is not embedded at read time: its
    relevance is its closest line's, from that message's stored vector."""
    steps = [
        "We started the database migration to Postgres.",
        "The database migration hit a locking problem on the orders table.",
        "Fixed the locks; the database migration is at 80 percent.",
        "The database migration to Postgres is done, MySQL is switched off.",
    ]
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        for i, text in enumerate(steps):
            mm.add_message("u", f"s{i}", "user", text, timestamp=NOW + timedelta(days=7 * i))
        mm.flush()
    emb = _Recording()
    with MemoryManager(tmp_path, embeddings=emb) as mm:
        query = "Summarize how the database migration went"
        ctx = mm.build_context("u", "now", query, token_budget=1200)
        hits = {h.id: h.score for h in mm.search("u", query, k=10, layers=["message"])}
    [timeline] = [it for it in ctx.items if it.layer == "timeline"]
    assert not [t for t in emb.texts if "Timeline" in t or t in steps]
    # no line is scored above the outline (each line's hit is the message's relevance)
    assert timeline.relevance >= max(hits[i] for i in timeline.source_ids) - 1e-9 > 0
