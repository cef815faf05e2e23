"""Query expansion by a chat model (seed 002: multi-query and HyDE): off by default; a
good answer reaches a memory the plain query misses; a malformed or failing one changes
nothing; the model's answer is bounded."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.read.expansion import MAX_QUERIES, QueryExpander, expand_query
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
FILLER = [
    "The quarterly report is due on Friday.",
    "I had pasta for lunch today.",
    "Our team uses GitHub for code review.",
    "The printer on the third floor is broken again.",
    "My manager approved the training budget.",
    "We moved the standup to 9:30.",
    "I am reading a book about negotiation.",
    "The staging server runs Ubuntu 22.04.",
    "I jog along the river on weekends.",
    "Our office plants need watering twice a week.",
]
TARGET = "Our beehives sit on the roof of the Lyon office."
QUESTION = "Where are the insects I look after kept?"
GOOD = (
    '{"queries": ["where are my beehives", "beehives location Lyon"], '
    '"answer": "The beehives are on the office roof in Lyon."}'
)


class FailingModel(FakeListChatModel):
    """A chat model whose every call raises (a provider outage)."""

    def _call(self, *args: Any, **kwargs: Any) -> str:
        raise ConnectionError("provider down")


def recall(llm: Any, mode: str = "both") -> tuple[list[tuple[str, float]], list[str]]:
    """Message hits of a search and the sources of a small context for the question."""
    config = MemoryConfig.flat(query_expansion=mode)
    mm = MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), llm=llm, config=config
    )
    with mm:
        for i, text in enumerate(FILLER * 3):
            when = T0 + timedelta(minutes=i)
            mm.add_message("u", "s1", "user", text, timestamp=when, message_id=f"m{i}")
        mm.add_message("u", "s1", "user", TARGET, timestamp=T0 + timedelta(hours=3), message_id="t")
        mm.flush()
        hits = mm.search("u", QUESTION, k=3, layers=["message"])
        ctx = mm.build_context("u", "s2", QUESTION, 120)
        return [(h.id, round(h.score, 6)) for h in hits], ctx.source_ids


def test_a_good_expansion_finds_what_the_plain_query_misses() -> None:
    plain_hits, plain_ctx = recall(None)
    assert "t" not in [i for i, _ in plain_hits] and "t" not in plain_ctx
    for mode in ("both", "multi_query", "hyde"):
        hits, ctx = recall(FakeListChatModel(responses=[GOOD]), mode)
        assert "t" in [i for i, _ in hits], mode  # among the best three
    hits, ctx = recall(FakeListChatModel(responses=[GOOD]), "both")
    assert hits[0][0] == "t" and "t" in ctx  # first, and in a small context


def test_off_by_default_even_with_a_model() -> None:
    assert MemoryConfig().retrieval.query_expansion == "off"
    with MemoryManager(
        backend=InMemoryBackend(),
        embeddings=HashingEmbeddings(),
        llm=FakeListChatModel(responses=[GOOD]),
    ) as mm:
        assert mm._read.expander is None
    assert recall(FakeListChatModel(responses=[GOOD]), "off") == recall(None)


@pytest.mark.parametrize(
    "llm",
    [
        FakeListChatModel(responses=["I cannot help with that."]),
        FakeListChatModel(responses=['{"queries": "not a list", "answer": 7}']),
        FakeListChatModel(responses=['{"queries": ["", "   "], "answer": ""}']),
        FailingModel(responses=["unused"]),
    ],
    ids=["prose", "wrong-types", "empty", "raises"],
)
def test_a_malformed_or_failing_answer_gives_the_plain_result(llm: Any) -> None:
    assert recall(llm) == recall(None)


def test_the_answer_is_bounded() -> None:
    many = ", ".join(f'"way {i} to ask"' for i in range(20))
    llm = FakeListChatModel(responses=[f'{{"queries": [{many}], "answer": "{"word " * 500}"}}'])
    texts = expand_query("how?", llm, mode="both", max_queries=3, max_chars=50)
    assert texts[:3] == ["way 0 to ask", "way 1 to ask", "way 2 to ask"]
    assert len(texts) == 4 and all(len(t) <= 50 for t in texts)
    capped = expand_query("how?", llm, mode="multi_query", max_queries=100)
    assert len(capped) == MAX_QUERIES
    # the query itself and repeats are left out
    same = FakeListChatModel(responses=['{"queries": ["How?", "why", "why"], "answer": ""}'])
    assert expand_query("how?", same, mode="both") == ["why"]
    with pytest.raises(ValueError, match="mode"):
        expand_query("how?", llm, mode="sideways")  # type: ignore[arg-type]


def test_the_expander_asks_once_per_query() -> None:
    calls = []

    class Counting(FakeListChatModel):
        def _call(self, *args: Any, **kwargs: Any) -> str:
            calls.append(1)
            return GOOD

    expander = QueryExpander(Counting(responses=[GOOD]), "both")
    assert expander.expand(QUESTION) == expander.expand(QUESTION)
    assert len(calls) == 1


def test_the_config_is_checked() -> None:
    with pytest.raises(ValueError, match="query_expansion"):
        MemoryConfig.flat(query_expansion="always")
    with pytest.raises(ValueError, match="expansion_chars"):
        MemoryConfig.flat(expansion_chars=0)


def test_the_async_surface_expands_too() -> None:
    config = MemoryConfig.flat(query_expansion="both")
    llm = FakeListChatModel(responses=[GOOD])
    with MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), llm=llm, config=config
    ) as mm:
        for i, text in enumerate(FILLER * 3):
            mm.add_message("u", "s1", "user", text, timestamp=T0 + timedelta(minutes=i))
        mm.add_message("u", "s1", "user", TARGET, timestamp=T0 + timedelta(hours=3), message_id="t")
        mm.flush()

        async def ask() -> tuple[list[str], list[str]]:
            hits = await mm.aio.search("u", QUESTION, k=3, layers=["message"])
            ctx = await mm.aio.build_context("u", "s2", QUESTION, 120)
            return [h.id for h in hits], ctx.source_ids

        hits, sources = asyncio.run(ask())
        assert hits[0] == "t" and "t" in sources
