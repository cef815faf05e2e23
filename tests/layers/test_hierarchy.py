"""The short-term and mid-term layers: pages, chains, segments, heat, promotion, expiry."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.core.records import Message, Record
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.mid_term.segments import Segment, coldest, place_page
from langgraph_memory.layers.mid_term.summaries import extractive_summary, summarize
from langgraph_memory.layers.short_term.pages import Page, cosine, f_score, heat, jaccard, keywords
from langgraph_memory.layers.short_term.sessions import SessionState
from langgraph_memory.storage import MemoryBackend, SQLiteBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)
words = st.lists(st.sampled_from(["tea", "cake", "rust", "go", "猫", "咖啡", "lyon"]), max_size=6)
vectors = st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=3)


def msg(i: int, role: str = "user", text: str = "hello", session: str = "s") -> Message:
    return Message(f"m{i}", "u", session, role, text, T0 + timedelta(minutes=i), seq=i)


def manager(backend: MemoryBackend, **cfg: object) -> MemoryManager:
    return MemoryManager(
        backend=backend, embeddings=HashingEmbeddings(), config=MemoryConfig.flat(**cfg)
    )


# -- formulas (property-based) -----------------------------------------------------------
@given(
    st.integers(0, 50),
    st.integers(0, 50),
    st.floats(0, 1e9),
    st.floats(0, 1e9),
)
def test_heat_is_monotone(visits: int, pages: int, idle: float, more_idle: float) -> None:
    h = heat(visits, pages, idle)
    assert h >= visits + pages  # recency adds at most γ=1
    assert h <= visits + pages + 1
    assert heat(visits + 1, pages, idle) > h  # each retrieval warms
    assert heat(visits, pages + 1, idle) > h  # each page warms
    assert heat(visits, pages, idle + more_idle) <= h  # time cools
    assert heat(visits, pages, -5.0) == heat(visits, pages, 0.0)  # clock skew is not heat


def test_heat_formula_matches_memoryos() -> None:
    h = heat(3, 4, 1e7, alpha=0.5, beta=2.0, gamma=3.0, mu_seconds=1e7)
    assert h == pytest.approx(0.5 * 3 + 2.0 * 4 + 3.0 * math.exp(-1))


@given(vectors, vectors, words, words)
def test_f_score_is_cosine_plus_jaccard(a: list[float], b: list[float], ka, kb) -> None:
    s = f_score(a, b, ka, kb)
    assert s == pytest.approx(cosine(a, b) + jaccard(ka, kb), abs=1e-6)
    assert -1.0 - 1e-6 <= s <= 2.0 + 1e-6
    assert f_score(a, b, ka, kb) == pytest.approx(f_score(b, a, kb, ka), abs=1e-6)
    assert 0.0 <= jaccard(ka, kb) <= 1.0
    if ka:
        assert jaccard(ka, ka) == 1.0


def test_keywords_english_and_chinese() -> None:
    assert keywords("Tea, tea and more tea. Cake too.")[:2] == ["tea", "cake"]
    zh = keywords("我喜欢喝咖啡，咖啡让我开心")
    assert zh[0] == "咖啡"


# -- short-term ---------------------------------------------------------------------------
def test_pages_are_exchanges_and_fifo_capacity() -> None:
    state = SessionState("u", "s")
    left: list[Page] = []
    v = np.ones(3, dtype=np.float32)
    for i in range(1, 21):
        role = "user" if i % 2 else "assistant"
        left += state.add(msg(i, role), v, capacity_pages=3)
    assert len(state.pages) == 3
    assert all(len(p.message_ids) == 2 for p in state.pages + left)  # user + reply
    assert [p.id for p in left] == [f"m{i}" for i in range(1, 14, 2)]
    assert state.add(msg(5), v) == [] and state.last_seq == 20  # replays are ignored
    # A reply without a question is a page of its own.
    lone = SessionState("u", "s2")
    lone.add(msg(1, "assistant"), v)
    assert [p.message_ids for p in lone.pages] == [["m1"]]


def test_token_capacity_moves_pages_on() -> None:
    state = SessionState("u", "s")
    left = []
    for i in range(1, 6):
        left += state.add(msg(i, text="x" * 400), np.ones(3), capacity_tokens=250)
    assert state.tokens <= 250 or len(state.pages) == 1
    assert len(left) + len(state.pages) == 5


def test_topic_chains_follow_the_seed_example() -> None:
    """Seed 001: weather → film → film → film → weather gives two chains."""
    emb = HashingEmbeddings()
    turns = [
        ("今天天气怎么样？", "天气还可以"),
        ("那你有什么计划吗？", "我想去看电影"),
        ("你想去看什么电影？", "我想看《黑客帝国》电影"),
        ("黑客帝国是什么电影？", "它是一个90年代的科幻电影"),
        ("好像要下雨了，天气不好，你没带伞吗？", "我没带，天气不好要不改天？"),
    ]
    state = SessionState("u", "s")
    i = 0
    for q, a in turns:
        for role, text in (("user", q), ("assistant", a)):
            i += 1
            state.add(msg(i, role, text), np.asarray(emb.embed_query(text)), chain_threshold=0.3)
    state.close(state.pages[-1], 0.3)
    chain_of = [p.chain_id for p in state.pages]
    assert chain_of[1] == chain_of[2] == chain_of[3]
    assert chain_of[0] == chain_of[4] != chain_of[1]
    assert len(state.chains) == 2


# -- mid-term -----------------------------------------------------------------------------
def page(i: int, vec: list[float], kw: list[str]) -> Page:
    return Page(
        f"p{i}", "s", [f"m{i}"], [i], T0, kw, vector=np.asarray(vec, np.float32), open=False
    )


def test_place_page_joins_best_segment_above_threshold() -> None:
    segs: list[Segment] = []
    for i, (v, kw) in enumerate([([1, 0, 0], ["tea"]), ([0, 1, 0], ["rust"])]):
        seg, created = place_page(page(i, v, kw), segs, "u")
        assert created
        segs.append(seg)
    seg, created = place_page(page(3, [0.9, 0.1, 0], ["tea"]), segs, "u")
    assert not created and seg is segs[0] and len(seg.pages) == 2
    assert seg.interactions == 2 and seg.keywords()[0] == "tea"
    # Below the threshold: a new segment, even though segment 0 is the closest.
    seg, created = place_page(page(4, [0.5, 0, 0.86], ["yoga"]), segs, "u", threshold=0.9)
    assert created
    segs[0].archived = True  # archived segments take no pages
    _, created = place_page(page(5, [1, 0, 0], ["tea"]), segs, "u")
    assert created


def test_coldest_and_promotion_reset() -> None:
    a = Segment("seg-a", "u", last_access=T0)
    b = Segment("seg-b", "u", last_access=T0)
    b.visit(T0)
    assert coldest([a, b], T0) is a
    a.archived = True
    assert coldest([a, b], T0) is b and coldest([a], T0) is None
    b.interactions = 6
    b.promoted()
    assert (b.visits, b.interactions, b.promotions) == (0, 0, 1)


# -- through the manager --------------------------------------------------------------------
def topic_turns(mm: MemoryManager, user: str, session: str, topic: str, n: int, t0: datetime):
    ids = []
    for i in range(n):
        ids += mm.add_turn(
            user,
            session,
            user=f"{topic}? {topic} {i}?",
            assistant=f"{topic}: {topic} indeed.",
            timestamp=t0 + timedelta(minutes=i),
        )
    return ids


def test_pages_move_from_short_term_to_segments(backend: MemoryBackend) -> None:
    with manager(backend) as mm:
        ids = topic_turns(mm, "ann", "s1", "tea", 10, T0)
        ids += topic_turns(mm, "ann", "s1", "rust compiler", 10, T0 + timedelta(hours=1))
        mm.flush()
        h = mm.stats("ann")["hierarchy"]
        assert h["short_term_pages"] == 7 and h["mid_term_pages"] == 13
        segs = mm._parts.hierarchy.segments("ann")
        placed = [mid for s in segs.values() for mid in s.message_ids()]
        stm = mm._parts.hierarchy.state("ann", "s1").message_ids()
        assert sorted(placed + stm) == sorted(ids)  # every message in exactly one layer
        assert all(s.summary and set(s.summary_source_ids) <= set(ids) for s in segs.values())
        # The ten tea pages do not share a segment with rust pages.
        for s in segs.values():
            texts = {mm._backend.get_message("ann", m).content for m in s.message_ids()}
            assert len({"tea" in t for t in texts}) == 1
        ctx = mm.build_context("ann", "s1", "what about tea?", token_budget=400)
        short = [it for it in ctx.items if it.layer == "short_term"]
        assert short and all(set(it.source_ids) <= set(stm) for it in short)


def test_retrieval_warms_segments_and_promotes(backend: MemoryBackend) -> None:
    promoted: list[tuple[str, int]] = []
    with manager(backend, stm_capacity_pages=1, heat_threshold=4.5) as mm:
        mm._parts.hierarchy.promote = lambda user, seg, msgs: (
            promoted.append((user, len(msgs))) or 1
        )
        topic_turns(mm, "ann", "s1", "tea", 3, T0)  # two pages reach mid-term
        mm.flush()
        seg = next(iter(mm._parts.hierarchy.segments("ann").values()))
        assert seg.interactions == 2 and not promoted
        before = seg.heat()
        ctx = mm.build_context("ann", "other", "tea", token_budget=300)
        assert seg.visits == 1 and seg.heat() > before
        [hot] = mm.stats("ann")["hierarchy"]["hottest_segments"]
        assert (hot["id"], hot["visits"], hot["pages"]) == (seg.id, 1, 2)
        assert hot["heat"] == pytest.approx(seg.heat(), abs=1e-3) and "tea" in hot["keywords"]
        assert any(it.layer == "mid_term" for it in ctx.items) or any(
            "segment_rank" in it.score_parts for it in ctx.items
        )
        mm.build_context("ann", "other", "tea", token_budget=300)  # heat 2+2+1 > 4.5
        mm.flush()
        assert promoted == [("ann", 4)]
        assert (seg.visits, seg.interactions, seg.promotions) == (0, 0, 1)
        assert mm.stats("ann")["hierarchy"]["promotions"] == 1


def test_a_batch_saves_a_hot_segment_once_with_its_promotion(backend: MemoryBackend) -> None:
    """Atoms are written as messages are placed (no promoter): a segment made hot by a
    batch has its counts restarted before the batch saves it, and is not saved again."""
    with manager(backend, stm_capacity_pages=1, heat_threshold=1.5) as mm:
        mm._write.worker.stop()  # the batch is placed below, by hand
        hier = mm._parts.hierarchy
        assert hier.promote is None
        saved: list[str] = []
        save = hier.kept.save_segment
        hier.kept.save_segment = lambda seg: saved.append(seg.id) or save(seg)  # type: ignore[method-assign]
        for i in range(4):  # one batch: three pages reach the tea segment
            mm.add_message("ann", "s1", "user", f"tea? tea {i}?", timestamp=T0)
            mm.add_message("ann", "s1", "assistant", "tea: tea indeed.", timestamp=T0)
        batch = backend.pending_embeddings(99)
        hier.on_embedded([(m, HashingEmbeddings().embed_query(m.content)) for m in batch])
        [seg] = hier.segments("ann").values()
        assert (seg.promotions, seg.interactions) == (1, 0)  # heat 3 + recency > 1.5
        assert saved == [seg.id]  # once, promotion included
        stored = backend.get_record("segment", seg.id, "ann")
        assert stored is not None and stored.data["promotions"] == 1


def test_midterm_capacity_archives_coldest_and_keeps_pages_searchable(
    backend: MemoryBackend,
) -> None:
    topics = ["tea", "rust", "violin", "volcano", "bakery", "surfing"]
    with manager(backend, stm_capacity_pages=1, midterm_capacity=3, segment_threshold=1.2) as mm:
        ids = []
        for j, topic in enumerate(topics):
            ids += topic_turns(mm, "ann", "s1", topic, 2, T0 + timedelta(days=j))
        mm.flush()
        h = mm.stats("ann")["hierarchy"]
        assert h["mid_term_segments"] <= 3 and h["archived_segments"] >= 1
        archived = [s for s in mm._parts.hierarchy.segments("ann").values() if s.archived]
        for s in archived:  # archived history stays searchable
            for mid in s.message_ids():
                text = mm._backend.get_message("ann", mid).content
                # identical texts come back as one hit citing every message
                hits = mm.search("ann", text, k=5)
                assert mid in {i for x in hits for i in [x.id, *x.source_ids]}


def test_session_ttl_hands_pages_on(backend: MemoryBackend) -> None:
    with manager(backend, session_ttl_seconds=3600) as mm:
        topic_turns(mm, "ann", "old", "tea", 3, T0)
        topic_turns(mm, "ann", "new", "rust", 2, datetime.now(timezone.utc))
        mm.flush()
        moved = mm._parts.hierarchy.expire_sessions()
        assert moved == 3
        assert mm._parts.hierarchy.state("ann", "old").pages == []
        assert len(mm._parts.hierarchy.state("ann", "new").pages) == 2
        assert mm.stats("ann")["hierarchy"]["mid_term_pages"] == 3


def test_hierarchy_persists_and_is_user_scoped(tmp_path) -> None:
    with manager(SQLiteBackend(tmp_path / "m"), stm_capacity_pages=2) as mm:
        topic_turns(mm, "ann", "s1", "tea", 5, T0)
        topic_turns(mm, "bob", "s1", "rust", 5, T0)
        mm.flush()
        before = mm.stats("ann")["hierarchy"]
    with manager(SQLiteBackend(tmp_path / "m"), stm_capacity_pages=2) as mm:
        after = mm.stats("ann")["hierarchy"]
        assert after["short_term_pages"] == before["short_term_pages"] == 2
        assert after["mid_term_pages"] == before["mid_term_pages"] == 3
        ann = {m for s in mm._parts.hierarchy.segments("ann").values() for m in s.message_ids()}
        bob = {m for s in mm._parts.hierarchy.segments("bob").values() for m in s.message_ids()}
        assert ann and bob and not ann & bob
        mm.delete_user("ann")
        assert mm._parts.hierarchy.segments("ann") == {}
        assert mm.stats("ann")["hierarchy"]["short_term_pages"] == 0
        assert mm.stats("bob")["hierarchy"]["mid_term_pages"] == 3


def test_segments_store_sealed_page_blocks(backend: MemoryBackend, monkeypatch) -> None:
    """A segment's pages go into sealed blocks once; a reload puts them back in order, a
    block left by a save that died before its segment record is ignored, and
    delete_user removes the blocks too."""
    from langgraph_memory.layers.hierarchy import records as hmod

    monkeypatch.setattr(hmod, "BLOCK_PAGES", 3)
    with manager(backend, stm_capacity_pages=2) as mm:
        topic_turns(mm, "ann", "s1", "tea", 12, T0)
        mm.flush()
        before = {k: (s.seqs(), s.sealed) for k, s in mm._parts.hierarchy.segments("ann").items()}
        assert any(sealed >= 3 for _, sealed in before.values())
        blocks = backend.list_records(hmod.SEGMENT_PAGES_KIND, "ann")
        assert blocks and all(len(b.data["pages"]) == 3 for b in blocks)
        seg_id = next(k for k, (_, sealed) in before.items() if sealed)
        stored = backend.get_record(hmod.SEGMENT_KIND, seg_id, "ann")
        assert stored is not None and len(stored.data["pages"]) < len(before[seg_id][0])
        # a torn save: the next block is written, its segment record is not
        seg = mm._parts.hierarchy.segments("ann")[seg_id]
        now = datetime.now(timezone.utc)
        junk = {"segment": seg_id, "pages": [seg.pages[0].dump(with_vector=False)] * 3}
        rid = f"{seg_id}#{seg.sealed // 3}"
        backend.put_record(Record(hmod.SEGMENT_PAGES_KIND, rid, "ann", junk, now, now))
        mm._parts.hierarchy.forget_user("ann")  # reload from the store
        after = {k: (s.seqs(), s.sealed) for k, s in mm._parts.hierarchy.segments("ann").items()}
        assert after == before
        mm.delete_user("ann")
        assert backend.list_records(hmod.SEGMENT_PAGES_KIND, "ann") == []


# -- summaries: LLM path and fallback ------------------------------------------------------------
def test_summaries_llm_and_fallback() -> None:
    msgs = [msg(1, text="I adopted a cat named Miso."), msg(2, "assistant", "Miso is cute!")]
    good = FakeListChatModel(responses=['{"summary": "Ann has a cat, Miso.", "keywords": ["cat"]}'])
    s = summarize(msgs, llm=good)
    assert s.by_llm and s.text == "Ann has a cat, Miso." and s.source_ids == ["m1", "m2"]
    bad = FakeListChatModel(responses=["I cannot do that"] * 3)
    s = summarize(msgs, llm=bad, max_tokens=30)
    assert not s.by_llm and s.text and set(s.source_ids) <= {"m1", "m2"}
    zh = extractive_summary(
        [msg(1, text="我养了一只猫。它叫米索。"), msg(2, text="米索很可爱。")], 12
    )
    assert "米索" in zh.text and zh.source_ids


def test_chain_summaries_use_the_llm_when_given(backend: MemoryBackend) -> None:
    llm = FakeListChatModel(responses=['{"summary": "About tea.", "keywords": ["tea"]}'] * 50)
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), llm=llm) as mm:
        topic_turns(mm, "ann", "s1", "tea", 3, T0)
        mm.flush()
        chains = mm.stats("ann")["hierarchy"]["chains"]["s1"]
        assert chains and all(c["summary"] == "About tea." for c in chains)


# -- a long simulated history ------------------------------------------------------------------
@pytest.mark.slow
def test_long_history_stays_within_capacity_and_loses_nothing(tmp_path) -> None:
    cfg = dict(
        stm_capacity_pages=7,
        stm_capacity_tokens=300,
        midterm_capacity=8,
        session_ttl_seconds=3600,
    )
    topics = [f"topic{j} subject{j % 7} theme{j % 13}" for j in range(120)]
    rng = np.random.default_rng(7)
    with manager(SQLiteBackend(tmp_path / "long"), **cfg) as mm:
        ids: list[str] = []
        t = T0
        for session in range(60):
            for _ in range(int(rng.integers(20, 60))):
                topic = topics[int(rng.integers(len(topics)))]
                t += timedelta(minutes=3)
                ids += mm.add_turn(
                    "ann",
                    f"s{session}",
                    user=f"What about {topic}? (question {len(ids)})",
                    assistant=f"Notes on {topic} #{len(ids)}",
                    timestamp=t,
                )
            if session % 5 == 4:  # a task now and then: episodes for the forget gate
                tid = mm.tasks.start("ann", f"s{session}", f"fix {topics[session]}")
                mm.tasks.complete("ann", tid, outcome="failed" if session % 2 else "success")
            if session % 10 == 9:
                mm.flush()
                mm._parts.hierarchy.expire_sessions(now=t + timedelta(hours=2))
                mm.build_context("ann", f"s{session}", topics[session], token_budget=500)
        mm.flush()
        h = mm.stats("ann")["hierarchy"]
        states = [mm._parts.hierarchy.state("ann", f"s{i}") for i in range(60)]
        assert len(ids) > 2000 * 2 // 2  # thousands of messages, ~1000+ pages
        assert all(len(s.pages) <= 7 for s in states)
        # the token capacity holds too (a single page over it would stay alone)
        assert all(sum(p.tokens for p in s.pages) <= 300 or len(s.pages) == 1 for s in states)
        assert h["mid_term_segments"] <= 8 and h["archived_segments"] >= 1
        segs = mm._parts.hierarchy.segments("ann").values()
        in_layers = [m for s in segs for m in s.message_ids()] + [
            m for s in states for m in s.message_ids()
        ]
        assert sorted(in_layers) == sorted(ids)  # each message in exactly one page
        assert mm.stats("ann")["messages"] == len(ids)
        for mid in ids:  # every message stays searchable, archived ones included
            m = mm._backend.get_message("ann", mid)
            assert m.id in {x.id for x in mm.search("ann", m.content, k=10, layers=["message"])}
        # the forget gate drops old unimportant episodes only, and says why
        later = datetime.now(timezone.utc) + timedelta(days=200)
        n_eps = len(mm.tasks.episodes("ann"))
        dry = mm.maintenance.forget(dry_run=True, now=later)
        assert dry.scored == n_eps == 12 and len(mm.tasks.episodes("ann")) == n_eps
        assert dry.forgotten and all("importance" in why for _, _, why in dry.forgotten)
        done = mm.maintenance.forget(now=later)
        assert {f[0] for f in done.forgotten} == {f[0] for f in dry.forgotten}
        assert len(mm.tasks.episodes("ann")) == n_eps - len(done.forgotten)
        assert mm.stats("ann")["messages"] == len(ids)  # episodes go, messages stay
        mm.delete_user("ann")
        assert mm.stats("ann")["messages"] == 0 and mm.search("ann", topics[0]) == []
        assert (
            mm.tasks.episodes("ann") == []
            and mm.stats("ann")["hierarchy"]["mid_term_segments"] == 0
        )


def test_config_validates_hierarchy_fields() -> None:
    with pytest.raises(ValueError, match="stm_capacity_pages"):
        MemoryConfig(hierarchy={"stm_capacity_pages": 0})
    with pytest.raises(ValueError, match="heat_threshold"):
        MemoryConfig(hierarchy={"heat_threshold": -1.0})
    assert MemoryConfig().replace(heat_mu_seconds=5.0).hierarchy.heat_mu_seconds == 5.0
