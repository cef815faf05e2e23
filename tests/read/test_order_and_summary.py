"""Order and summary questions: recognised by their form (English and Chinese), routed to
the topic's timeline, which holds the topic's messages found from the question, from
each event it lists and from the statements like the best of them, oldest first."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.core.records import Message
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.read import topics
from langgraph_memory.read.routing import route_query
from langgraph_memory.read.timeline import is_statement, timeline_kind, timeline_parts
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 4, 1, 9, tzinfo=timezone.utc)
REPLY = "Sure. " + "Here is a general explanation of how these systems usually behave. " * 12

ORDER = [
    "Did we ship the beta before or after the security audit?",
    "What did we do before switching to Postgres?",
    "What happened after the funding round closed?",
    "Was the contract signed before the kickoff meeting?",
    "Which came first, the redesign or the price change?",
    "List the release steps in chronological order.",
    "先做的是哪个？",
    "换数据库之前我们做了哪些事？",
    "合同是在启动会之前签的吗？",
    "把这几次发布按时间排个序。",
]
SUMMARY = [
    "Catch me up on the hiring process.",
    "How did the move to Kubernetes go, from the start?",
    "Recap the thesis work.",
    "Give me an overview of the budget discussions.",
    "Where does the grant application stand?",
    "总结一下招聘的进展。",
    "帮我复盘一下上次的发布。",
    "论文现在什么情况了？",
    "说说搬家这件事的来龙去脉。",
]
NEITHER = [
    "What is the staging server called?",
    "What did I say before about my allergy?",
    "Did I tell you before that I'm vegan?",
    "What did Melanie do after the road trip to relax?",
    "How did Ann feel after the accident?",
    "Which city was John in before traveling to Chicago?",
    "What is my latest address?",
    "我之前说过我喜欢什么？",
    "我的孩子多大了？",
    "我之前用过Docker吗？",
]


def test_order_and_summary_questions_are_read_by_their_form() -> None:
    for q in ORDER:
        assert timeline_kind(q) == "order", q
    for q in SUMMARY:
        assert timeline_kind(q) == "summary", q
    for q in NEITHER:
        assert timeline_kind(q) is None, q


def test_the_route_says_which_timeline() -> None:
    route = route_query("What did we do before switching to Postgres?")
    assert route.timeline == "order" and "timeline order" in route.reason
    assert route_query("总结一下招聘的进展。").timeline == "summary"
    assert route_query("What is the staging server called?").timeline is None


def test_the_events_an_order_question_lists() -> None:
    assert timeline_parts("Which came first: rate limiting, the v1 docs, or deprecating v0?") == [
        "rate limiting",
        "v1 docs",
        "deprecating v0",
    ]
    assert timeline_parts("把伦理审查、访谈、转录按时间先后排一下。") == [
        "把伦理审查",
        "访谈",
        "转录",
    ]
    assert timeline_parts("What did we do before switching to Postgres?") == []


def test_a_request_with_pasted_code_is_no_statement() -> None:
    def msg(text: str, role: str = "user") -> Message:
        return Message("m", "u", "s", role, text, T0)

    assert is_statement(msg("We moved the orders table to Postgres."))
    assert not is_statement(msg("Why does this fail?\n\n```sql\nSELECT 1;\n```"))
    assert not is_statement(msg("We moved the orders table.", role="assistant"))


STORY = [
    "Kicked off the database migration today, starting with the users table.",
    "The migration script choked on rows where the email column is null.",
    "I added a backfill step that fills missing emails with placeholders.",
    "Users are done; the orders table is next, we planned a two-hour window.",
]
FILLER = [
    "My sister is visiting next weekend.",
    "I prefer tea over coffee in the afternoon.",
    "The office plants need watering twice a week.",
    "I started reading a novel about sailors.",
    "Our team lunch is on Thursdays.",
    "The printer on the third floor jams a lot.",
    "I jog along the river on Sundays.",
    "The quarterly report is due on Friday.",
    "My laptop battery lasts about six hours.",
    "We adopted a cat called Miso last year.",
    "The conference talk went well, people asked good questions.",
    "I renewed my passport this spring.",
    "The database course I teach starts in October.",
    "My neighbour plays the piano every evening.",
    "We booked a cabin in the mountains for August.",
    "The team retro is moved to Monday afternoon.",
    "I finally fixed the squeaky door in the hallway.",
    "Our dog learned to fetch the newspaper.",
]


def _story(mm: MemoryManager) -> list[str]:
    ids = []
    for i, text in enumerate(FILLER):
        when = T0 + timedelta(days=i)
        mm.add_message("u", f"f{i}", "user", text, timestamp=when)
        mm.add_message("u", f"f{i}", "assistant", REPLY, timestamp=when)
    for i, text in enumerate(STORY):
        when = T0 + timedelta(days=3 * i, hours=5)
        ids.append(mm.add_message("u", f"s{i}", "user", text, timestamp=when))
        mm.add_message("u", f"s{i}", "assistant", REPLY, timestamp=when)
    mm.flush()
    return ids


def test_the_topic_around_the_best_statements_joins_the_timeline(
    minilm: Embeddings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backfill step shares no word with the question: it joins the outline as a
    statement like the migration's own (the seeds), not by the question's words."""
    question = "Catch me up on the database migration."
    found = {}
    for seeds in (0, topics.TOPIC_SEEDS):
        monkeypatch.setattr(topics, "TOPIC_SEEDS", seeds)
        config = MemoryConfig(packing={"timeline_messages": 6})
        with MemoryManager(backend=InMemoryBackend(), embeddings=minilm, config=config) as mm:
            ids = _story(mm)
            ctx = mm.build_context("u", "now", question, 1500)
            [timeline] = [it for it in ctx.items if it.layer == "timeline"]
            found[seeds] = timeline.source_ids
            shown = [s for s in timeline.source_ids if s in ids]
            assert shown == [i for i in ids if i in shown]  # oldest first
    assert ids[2] not in found[0]  # by the question's words alone: missed
    assert ids[2] in found[topics.TOPIC_SEEDS]


def test_each_listed_event_is_found_on_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Statements that share the question's other words outrank the one event named by
    words of its own; found on its own, it makes the outline."""
    events = [
        "Published the v1 docs for outside developers.",
        "Rate limiting now applies to all clients.",
        "We deprecated the v0 endpoints today.",
    ]
    noise = [
        f"Client {n} asked whether the v1 docs explain rate limiting for clients."
        for n in ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark")
    ]
    question = "Which came first: rate limiting, the v1 docs, or deprecating v0?"
    found = {}
    for split in (False, True):
        if not split:
            monkeypatch.setattr(topics, "timeline_parts", lambda q: [])
        else:
            monkeypatch.undo()
        config = MemoryConfig.flat(timeline_messages=3, dense_weight=0.0)
        mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=config)
        with mm:
            for i, text in enumerate(noise):
                mm.add_message("u", f"n{i}", "user", text, timestamp=T0 + timedelta(hours=i))
            ids = [
                mm.add_message("u", f"e{i}", "user", text, timestamp=T0 + timedelta(days=i + 1))
                for i, text in enumerate(events)
            ]
            mm.flush()
            ctx = mm.build_context("u", "now", question, 1500)
            [timeline] = [it for it in ctx.items if it.layer == "timeline"]
            found[split] = set(timeline.source_ids)
    assert ids[2] not in found[False]
    assert ids[2] in found[True]
