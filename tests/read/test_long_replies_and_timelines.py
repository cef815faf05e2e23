"""Long replies do not crowd out the user's words: excerpts of long messages, long turns
off the query's topic left out, and topic timelines for "how did it go" questions."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.config import RetrievalSection
from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.records import Message, index_text
from langgraph_memory.core.tokens import count_tokens, tokenize
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.mid_term.summaries import extractive_summary
from langgraph_memory.read.excerpts import GAP, TAIL_KEEP, excerpt, take_excerpting
from langgraph_memory.read.followups import _lexical_many
from langgraph_memory.read.messages import MessageRetriever
from langgraph_memory.read.packing import Packer
from langgraph_memory.read.timeline import wants_timeline
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 4, 1, 9, tzinfo=timezone.utc)
LONG_REPLY = (
    "Here is a practical way to handle that. "
    + "Keep the worker pool small and watch the queue depth during the day. " * 30
    + "Set the retry timeout to five seconds for the uploader. "
    + "```python\nclient = Client(timeout=5)\n```\n"
    + "Then deploy it behind the load balancer as usual. " * 10
)


def manager(**cfg: object) -> MemoryManager:
    return MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=MemoryConfig.flat(**cfg)
    )


def test_excerpt_keeps_the_opening_and_the_sentences_on_the_query() -> None:
    terms = set(tokenize("what retry timeout for the uploader?"))
    cut = excerpt(LONG_REPLY, terms, 60)
    assert cut.startswith("Here is a practical way to handle that.")
    assert "retry timeout to five seconds for the uploader" in cut and GAP.strip() in cut
    assert count_tokens(cut) <= 60 + 4  # the gap marks
    assert excerpt("Short and sweet.", terms, 60) == "Short and sweet."
    assert excerpt(LONG_REPLY, terms, 0) == LONG_REPLY  # 0: never cut
    zh = "这是总体思路。" + "先检查队列长度，再看工作线程。" * 40 + "上传模块的重试超时设为五秒。"
    zh_cut = excerpt(zh, set(tokenize("上传模块的重试超时")), 40)
    assert zh_cut.startswith("这是总体思路。") and "重试超时设为五秒" in zh_cut


def _item(layer: str, text: str, score: float, source: str) -> ContextItem:
    return ContextItem(layer, text, count_tokens("- " + text), score, {}, [source], "retrieved")  # type: ignore[arg-type]


def test_the_best_message_that_no_longer_fits_goes_in_as_its_excerpt() -> None:
    """At the end of a nearly full context the best candidate left, when the room holds
    most of it, goes in as its excerpt (the query's sentence first, then the rest in
    order) before smaller ones ranked below it; one the room holds too little of, a
    statement, or a message already in the context is passed over as before."""
    terms = set(tokenize("when did Anna move to Lyon?"))
    best = _item(
        "message",
        "Anna: Big news since we talked. We moved to Lyon in May, right after my new job "
        "started. The flat is small but bright, and the kids love the park next door.",
        3.0,
        "m1",
    )
    small = _item("message", "Ben: Sounds great, congrats!", 1.0, "m2")
    top = _item("profile", "User preference: " + "likes long walks by the river. " * 2, 9.0, "p")
    excerpted = passed = 0
    for budget in range(40, 90):
        p = Packer(budget)
        p.add(top)
        room = budget - p.tokens - 2
        taken = take_excerpting(p, [best, small], terms, {"message"})
        assert p.tokens <= budget
        if p.add(best) or any(it is best for it in taken):
            continue  # (never here: it was offered first)
        cut = [it for it in taken if it.source_ids == ["m1"]]
        if room >= TAIL_KEEP * best.tokens:
            [it] = cut
            assert "moved to Lyon in May" in it.text and it.text.endswith(GAP.rstrip())
            assert it.score_parts["excerpt_of_tokens"] == count_tokens(best.text)
            assert "excerpt for the room left" in it.reason and it.tokens < best.tokens
            assert taken[0] is it  # before the smaller one ranked below it
            excerpted += 1
        elif room < TAIL_KEEP * best.tokens - 2:
            assert not cut  # mostly cut away: passed over, the smaller one may go
            passed += 1
    assert excerpted >= 5 and passed >= 5, (excerpted, passed)
    # only its opening would fit, and that shares no word with the query: passed over
    opening = _item(
        "message",
        "Ben: Great! By the way, how is the orange cat you adopted from the shelter doing?",
        3.0,
        "m3",
    )
    exercised = 0
    for budget in range(30, 60):
        p = Packer(budget)
        p.add(top)
        room = budget - p.tokens - 2
        taken = take_excerpting(p, [opening, small], terms, {"message"})
        assert all(it.source_ids != ["m3"] for it in taken) or opening in taken
        if TAIL_KEEP * opening.tokens <= room < opening.tokens - 2:
            exercised += 1
            assert taken == [small]
    assert exercised >= 3
    fact = _item("fact", best.text, 3.0, "f1")
    p = Packer(60)
    p.add(top)
    assert [it.text for it in take_excerpting(p, [fact, small], terms, {"message"})] == [small.text]
    p = Packer(60, shown={"m1"})  # the reader has it already
    p.add(top)
    assert all(it.source_ids != ["m1"] for it in take_excerpting(p, [best], terms, {"message"}))


def test_a_long_retrieved_reply_is_packed_as_its_excerpt() -> None:
    with manager(excerpt_tokens=80) as mm:
        mm.add_message("u", "s1", "user", "How should the uploader retry?", timestamp=T0)
        mid = mm.add_message("u", "s1", "assistant", LONG_REPLY, timestamp=T0)
        mm.flush()
        ctx = mm.build_context("u", "s2", "uploader retry timeout", 1000)
        [item] = [it for it in ctx.items if mid in it.source_ids]
        assert "five seconds" in item.text and item.tokens < 100
        assert item.score_parts["excerpt_of_tokens"] == count_tokens(LONG_REPLY)


def test_a_long_turn_off_the_topic_is_not_packed_beside_its_hit() -> None:
    off = "Thanks! " + "Unrelated chatter about weekend hiking and mountain huts. " * 30
    with manager(neighbor_tokens=40, dense_weight=0.0) as mm:  # found by its words alone
        hit = mm.add_message("u", "s1", "user", "The invoice export runs at noon.", timestamp=T0)
        nb = mm.add_message("u", "s1", "assistant", off, timestamp=T0 + timedelta(minutes=1))
        mm.flush()
        ctx = mm.build_context("u", "s2", "when does the invoice export run?", 1000)
        cited = [s for it in ctx.items for s in it.source_ids]
        assert hit in cited and nb not in cited


def test_timeline_questions_en_and_zh() -> None:
    for q in (
        "Summarize how the database migration went",
        "In what order did we do the releases?",
        "How did the onboarding redesign evolve?",
        "总结一下数据库迁移的经过",
        "这几次发布的先后顺序是什么？",
    ):
        assert wants_timeline(q), q
    for q in ("What is the staging server called?", "我住在哪里？", "Which library for HTTP?"):
        assert not wants_timeline(q), q


def test_a_timeline_outlines_the_users_words_oldest_first() -> None:
    steps = [
        "We started the database migration to Postgres.",
        "The database migration hit a locking problem on the orders table.",
        "Fixed the locks; the database migration is at 80 percent.",
        "The database migration to Postgres is done, MySQL is switched off.",
    ]
    with manager() as mm:
        ids = []
        for i, text in enumerate(steps):
            when = T0 + timedelta(days=7 * i)
            ids.append(mm.add_message("u", f"s{i}", "user", text, timestamp=when))
            mm.add_message("u", f"s{i}", "assistant", LONG_REPLY, timestamp=when)
        mm.flush()
        ctx = mm.build_context("u", "now", "Summarize how the database migration went", 1200)
        [timeline] = [it for it in ctx.items if it.layer == "timeline"]
        assert timeline.source_ids == ids  # every step, oldest first
        assert all(step in timeline.text for step in steps)
        assert timeline.text.index("2024-04-01") < timeline.text.index("2024-04-22")
        # the messages it holds are not packed again
        assert not any(it.layer == "message" and it.source_ids[0] in ids for it in ctx.items)
        plain = mm.build_context("u", "now", "database migration locking problem", 1200)
        assert "timeline" not in [it.layer for it in plain.items]
    with manager(timeline_messages=0) as mm:
        mm.add_message("u", "s", "user", steps[0], timestamp=T0)
        mm.add_message("u", "s", "user", steps[1], timestamp=T0)
        mm.flush()
        ctx = mm.build_context("u", "now", "Summarize the database migration", 500)
        assert "timeline" not in [it.layer for it in ctx.items]


def test_a_long_story_keeps_every_step_in_its_timeline() -> None:
    """A project's story is told in many short statements over weeks: the outline holds
    them all (the default takes up to 48), where the old cap of 12 kept a third."""
    steps = [
        f"Week {i}: the warehouse migration moved batch {i} of the orders tables."
        for i in range(30)
    ]
    for cap, expected in ((None, 30), (12, 12)):
        with manager(**({} if cap is None else {"timeline_messages": cap})) as mm:
            for i, text in enumerate(steps):
                when = T0 + timedelta(days=7 * i)
                mm.add_message("u", f"s{i}", "user", text, timestamp=when)
                mm.add_message("u", f"s{i}", "assistant", LONG_REPLY, timestamp=when)
            mm.flush()
            ctx = mm.build_context("u", "now", "Summarize how the warehouse migration went", 2048)
            [timeline] = [it for it in ctx.items if it.layer == "timeline"]
            assert len(timeline.source_ids) == expected
            assert timeline.tokens <= 1024  # timeline_share of the budget


def test_summaries_put_the_users_words_first() -> None:
    msgs = [
        Message("a", "u", "s", "user", "We moved the billing service to Kubernetes.", T0, seq=1),
        Message("b", "u", "s", "assistant", "self.client = client\nself.pool = pool", T0, seq=2),
        Message(
            "c", "u", "s", "assistant", "Kubernetes billing service moves need care.", T0, seq=3
        ),
    ]
    summary = extractive_summary(msgs, max_tokens=14)
    assert summary.text.startswith("user: We moved the billing service") and "self." not in (
        summary.text
    )


def test_a_later_statement_like_a_retrieved_one_joins_as_a_possible_update(
    minilm: Embeddings,
) -> None:
    filler = [
        "How do I add an index to the orders table?",
        "The mobile app crashes on login sometimes.",
        "Which API gateway should we use for rate limiting?",
        "The time zone of the server is UTC.",
    ]
    placed = {}
    for k in (0, 2):
        with MemoryManager(
            backend=InMemoryBackend(),
            embeddings=minilm,
            config=MemoryConfig(packing={"successor_k": k}),
        ) as mm:
            old = mm.add_message("u", "s1", "user", "The API response time is 400 ms at p95.")
            for i, text in enumerate(filler * 2):
                mm.add_message("u", "s2", "user", text, timestamp=T0 + timedelta(minutes=i))
            new = mm.add_message(
                "u", "s3", "user", "After the caching work, p95 latency dropped to 250 ms.",
                timestamp=T0 + timedelta(days=9),
            )  # fmt: skip
            mm.flush()
            ctx = mm.build_context("u", "now", "What is the current response time of the API?", 400)
            ids = [s for it in ctx.items for s in it.source_ids]
            [item] = [it for it in ctx.items if it.source_ids == [new]]
            placed[k] = ids.index(new)
            if k:
                assert f"like retrieved message {old}" in item.reason
                assert item.score_parts["cosine_to_statement"] >= 0.5
            else:
                assert "successor_of_score" not in item.score_parts
    assert placed[2] < placed[0]  # the update moves up, next to what it updates


def test_a_chinese_update_is_found_by_the_words_it_shares(minilm: Embeddings) -> None:
    filler = [
        "订单表怎么加索引？",
        "移动端登录偶尔会闪退。",
        "服务器时区是 UTC。",
        "周报模板在哪里？",
    ]
    with MemoryManager(backend=InMemoryBackend(), embeddings=minilm) as mm:
        old = mm.add_message(
            "u", "s1", "user", "接口目前的P95响应时间大约是400毫秒。", timestamp=T0
        )
        for i, text in enumerate(filler * 3):
            mm.add_message("u", "s2", "user", text, timestamp=T0 + timedelta(hours=i + 1))
        new = mm.add_message(
            "u",
            "s3",
            "user",
            "加了缓存之后，延迟已经降到250毫秒了。",
            timestamp=T0 + timedelta(days=9),
        )
        mm.flush()
        ctx = mm.build_context("u", "now", "接口现在的响应时间是多少？", 300)
        [item] = [it for it in ctx.items if new in it.source_ids]
        assert f"like retrieved message {old}" in item.reason
        assert item.score_parts["bm25_to_statement"] > 0  # found by the terms it shares


def test_a_timeline_is_made_of_statements_not_questions() -> None:
    with manager() as mm:
        said = [
            "We started the database migration to Postgres.",
            "Can you explain how a database migration handles foreign keys?",
            "The database migration to Postgres is done.",
        ]
        ids = [
            mm.add_message("u", f"s{i}", "user", text, timestamp=T0 + timedelta(days=i))
            for i, text in enumerate(said)
        ]
        mm.flush()
        ctx = mm.build_context("u", "now", "Summarize how the database migration went", 800)
        [timeline] = [it for it in ctx.items if it.layer == "timeline"]
        assert timeline.source_ids == [ids[0], ids[2]]


def test_successor_searches_at_once_give_what_one_by_one_gives() -> None:
    class ServerLike(InMemoryBackend):  # a store that waits on a server: searches at once
        parallel_reads = True

    backend = ServerLike()
    texts = ["接口的响应时间大约是400毫秒。", "缓存之后延迟降到250毫秒。", "服务器时区是 UTC。"]
    said = []
    for i, text in enumerate(texts * 3):
        msg = Message(f"m{i}", "u", "s1", "user", text, T0 + timedelta(hours=i))
        said.append(backend.insert_message(msg, tokenize(index_text(msg)))[0])
    one_by_one = [backend.lexical_search("u", tokenize(index_text(m)), 5) for m in said[:3]]
    threads = MessageRetriever(backend, None, RetrievalSection())  # type: ignore[arg-type]
    ran: list[int] = []

    def run_all(calls):  # the retriever's threads, counted
        ran.append(len(calls))
        return threads.run_all(calls)

    try:
        assert _lexical_many(backend, "u", said[:3], 5, run_all) == one_by_one
    finally:
        threads.close()
    assert ran == [3]
    assert all(one_by_one)


def test_successor_searches_go_by_the_statements_rarer_words(monkeypatch) -> None:
    from langgraph_memory.read import followups

    backend = InMemoryBackend()
    texts = ["缓存之后延迟降到250毫秒。", "缓存已经清空。", *["延迟很高。"] * 20]
    said = []
    for i, text in enumerate(texts):
        msg = Message(f"m{i}", "u", "s1", "user", text, T0 + timedelta(hours=i))
        said.append(backend.insert_message(msg, tokenize(index_text(msg)))[0])
    found = _lexical_many(backend, "u", said[:1], 5, None)[0]
    assert {s for s, _ in found} >= {said[0].seq, said[1].seq, said[2].seq}  # 延迟 counts
    # with room for fewer postings, the word 21 messages hold is left out: not the others
    monkeypatch.setattr(followups, "SUCCESSOR_POSTINGS", 10)
    found = _lexical_many(backend, "u", said[:1], 5, None)[0]
    assert [s for s, _ in found] == [said[0].seq, said[1].seq]


def test_a_later_statement_outside_the_callers_filter_is_not_added(minilm: Embeddings) -> None:
    """Later statements like a retrieved one join only when the caller's filter lets
    them through (here: the sessions asked for)."""
    filler = ["How do I rotate logs?", "What's a good lunch spot?", "Remind me about taxes."]
    with MemoryManager(backend=InMemoryBackend(), embeddings=minilm) as mm:
        mm.add_message("u", "s1", "user", "The API response time is 400 ms at p95.", timestamp=T0)
        for i, text in enumerate(filler * 2):
            mm.add_message("u", "s2", "user", text, timestamp=T0 + timedelta(minutes=i + 1))
        new = mm.add_message(
            "u", "s3", "user", "After the caching work, p95 latency dropped to 250 ms.",
            timestamp=T0 + timedelta(days=9),
        )  # fmt: skip
        mm.flush()
        query = "What is the current response time of the API?"
        wide = mm.build_context("u", "now", query, 400)
        assert new in {s for it in wide.items for s in it.source_ids}
        narrow = mm.build_context(
            "u", "now", query, 400, filter={"session_id": {"$in": ["s1", "s2"]}}
        )
        assert new not in {s for it in narrow.items for s in it.source_ids}
