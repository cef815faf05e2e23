"""Faults contained: a message the embedder fails on (it raises, or returns a vector that
is not a flat row of the model's length of finite numbers) is quarantined instead of
stopping the queue for everyone, on every backend; timestamps every backend can store;
task ids scoped by user."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.config import RetrievalSection
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.read.relevance import Relevance
from langgraph_memory.read.rerank import Reranker
from langgraph_memory.storage import MemoryBackend

POISON = "\u2603"  # the snowman this embedder refuses


class Picky(Embeddings):
    """Fails on any batch holding a snowman (a remote API refusing one input), or on
    everything once ``down`` is set (the model is gone)."""

    def __init__(self) -> None:
        self.inner = HashingEmbeddings()
        self.model_id = "picky"
        self.down = threading.Event()
        self.refuse = True

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.down.is_set():
            raise ConnectionError("embedding service unreachable")
        if self.refuse and any(POISON in t for t in texts):
            raise ValueError("input rejected by the model")
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


#: What a broken model may return for one text, besides raising.
MALFORMED: dict[str, Callable[[list[float]], object]] = {
    "nan": lambda v: [float("nan")] * len(v),
    "infinity": lambda v: [float("inf"), *v[1:]],
    "3 floats": lambda v: v[:3],
    "empty": lambda v: [],
    "one extra float": lambda v: [*v, 0.5],
    "strings": lambda v: [str(x) + "x" for x in v],
    "nested": lambda v: [v],
    "None": lambda v: None,
}


def malformed(kind: str) -> type[Embeddings]:
    """HashingEmbeddings giving a malformed vector of ``kind`` for texts with a snowman."""

    class Malformed(HashingEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            out = super().embed_documents(texts)
            return [
                MALFORMED[kind](v) if POISON in t else v  # type: ignore[misc]
                for t, v in zip(texts, out, strict=True)
            ]

    Malformed.__name__ = f"Malformed[{kind}]"
    return Malformed


@pytest.mark.parametrize(
    "embedder", [Picky, *(malformed(kind) for kind in MALFORMED)], ids=lambda e: e.__name__
)
def test_one_bad_message_is_quarantined_and_the_queue_drains(
    backend: MemoryBackend, embedder: type[Embeddings]
) -> None:
    emb = embedder()
    with MemoryManager(backend=backend, embeddings=emb) as mm:
        bad = mm.add_message("ann", "s1", "user", f"a {POISON} in July for the garden party")
        for i in range(5):
            mm.add_message("ann", "s1", "user", f"ann note {i} about tea")
            mm.add_message("bob", "s1", "user", f"bob note {i} about coffee")
        mm.flush(timeout=60)  # no error: the others are embedded
        stats = mm.stats("ann")
        assert (stats["messages"], stats["embedded"], stats["failed"], stats["pending"]) == (
            6,
            5,
            1,
            0,
        )
        assert mm.stats("bob")["embedded"] == 5 and mm.stats("bob")["failed"] == 0
        (failed,) = mm.maintenance.failed("ann")
        assert failed.message_id == bad and failed.session_id == "s1"
        assert ("ValueError" in failed.error) or ("InvalidVectorsError" in failed.error)
        assert mm.maintenance.failed("bob") == []
        # still stored and found by its words; every API works for the user
        hits = mm.search("ann", "garden party July", k=3)
        assert bad in [h.id for h in hits]
        ctx = mm.build_context("ann", "s2", "what about the garden party?", token_budget=300)
        assert bad in ctx.source_ids
        if isinstance(emb, Picky):
            emb.refuse = False  # the model was fixed
            assert mm.maintenance.retry_failed("ann") == 1
            mm.flush(timeout=60)
            assert mm.maintenance.failed("ann") == [] and mm.stats("ann")["embedded"] == 6
        assert mm.delete_user("ann") == 6
        assert mm.maintenance.failed() == []
        assert mm.stats("bob")["messages"] == 5


@pytest.mark.parametrize("failure", ["raises", "nan"])
def test_a_text_the_model_rejects_at_read_time_keeps_its_lexical_relevance(failure: str) -> None:
    """The read path embeds hit texts ranked without a cosine; one the model rejects (or
    gives a NaN cosine for) is scored on its words alone, and the others keep theirs."""
    calls: list[list[str]] = []

    def embed_cosines(texts: Sequence[str]) -> np.ndarray:
        calls.append(list(texts))
        if failure == "raises" and any(POISON in t for t in texts):
            raise ValueError("input rejected by the model")
        return np.array([float("nan") if POISON in t else 0.9 for t in texts])

    texts = [f"a {POISON} at the garden party", "the garden party is in July"]
    rel = Relevance(["garden", "party"], RetrievalSection(), embed_cosines)
    lexical = Relevance(["garden", "party"], RetrievalSection())
    got = rel.of_many(texts, [{}, {}])
    assert got[0] == lexical.of(texts[0], {})  # words only, no exception
    assert got[1] == rel.of(texts[1], {}, 0.9) > lexical.of(texts[1], {})
    assert len(calls) == (3 if failure == "raises" else 1)  # the batch, then one by one


def test_a_down_embedder_quarantines_nothing(backend: MemoryBackend) -> None:
    """When every text fails (the service is down), nothing is set aside: flush reports
    the error and the messages wait in the queue until the embedder is back."""
    emb = Picky()
    with MemoryManager(backend=backend, embeddings=emb) as mm:
        emb.down.set()
        mm.add_message("ann", "s1", "user", "a note about tea")
        with pytest.raises(RuntimeError, match="background embedding failed"):
            mm.flush(timeout=30)
        assert mm.maintenance.failed() == [] and mm.stats("ann")["pending"] == 1
        emb.down.clear()
        mm.flush(timeout=60)
        assert mm.stats("ann")["embedded"] == 1


@pytest.mark.parametrize(
    "timestamp",
    [
        "9999-12-31T23:59:59-05:00",  # year 10000 in UTC
        "0001-01-01T00:00:00+05:00",  # year 0 in UTC
        1e300,
        float("nan"),
    ],
)
def test_timestamps_out_of_every_backends_range_are_refused(
    mm: MemoryManager, timestamp: object
) -> None:
    with pytest.raises(ValueError, match="timestamp"):
        mm.add_message("ann", "s1", "user", "hello", timestamp=timestamp)
    mm.add_message("ann", "s1", "user", "still fine", timestamp="9999-12-30T00:00:00+00:00")
    mm.add_message("ann", "s1", "user", "also fine", timestamp="0001-01-02T12:00:00+00:00")
    mm.flush(timeout=60)
    assert mm.stats("ann")["embedded"] == 2
    assert len(mm.build_context("ann", "s1", "fine", token_budget=200).items) >= 1
    assert mm.delete_user("ann") == 2


def test_task_ids_are_scoped_by_their_user(mm: MemoryManager) -> None:
    tid = mm.tasks.start("ann", "s1", "rotate the logs")
    for call in (
        lambda: mm.tasks.get("bob", tid),
        lambda: mm.tasks.step("bob", tid, "rm -rf /var/log"),
        lambda: mm.tasks.update_step("bob", tid, 0, status="completed"),
        lambda: mm.tasks.complete("bob", tid, summary="done"),
    ):
        with pytest.raises(KeyError, match="bob"):
            call()
    assert mm.tasks.get("ann", tid).steps == [] and mm.tasks.get("ann", tid).status == "in_progress"
    i = mm.tasks.step("ann", tid, "logrotate -f")
    assert mm.tasks.update_step("ann", tid, i, status="completed").status == "completed"
    assert mm.tasks.complete("ann", tid, summary="rotated").outcome == "success"


class _BadScores(Reranker):
    """A reranker whose output is unusable in one of several ways."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        bad: dict[str, Any] = {
            "nan": [float("nan")] * len(texts),
            "short": [1.0] * (len(texts) - 1),
            "strings": ["high"] * len(texts),
            "None": None,
        }
        return bad[self.kind]  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", ["nan", "short", "strings", "None"])
def test_a_rerankers_bad_output_keeps_the_fused_order(kind: str) -> None:
    """A reranker's unusable scores never fail a read: the fused order stands."""
    with MemoryManager(embeddings=HashingEmbeddings(), reranker=_BadScores(kind)) as mm:
        for i in range(8):
            mm.add_message("ann", "s1", "user", f"note {i}: the garden party, bring {i} chairs")
        mm.flush()
        hits = mm.search("ann", "garden party chairs", k=5)
        ctx = mm.build_context("ann", "s2", "garden party chairs", token_budget=300, explain=True)
    assert hits and all("rerank_score" not in h.score_parts for h in hits)
    assert ctx.items and all("reranked" not in it.reason for it in ctx.items)


class _WildModel(GenericFakeChatModel):
    """Answers every structured prompt with values out of their range: a polarity of 7, a
    NaN confidence, a 100,000-character value."""

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        def answer(_prompt: Any) -> Any:
            wild = {
                "atoms": [{"kind": "fact", "key": "city", "value": "x" * 100_000, "polarity": 7}],
                "topic": "t",
                "content": "c",
                "key_points": ["k"],
                "confidence": float("nan"),
                "summary": "s" * 100_000,
                "lesson": "l" * 100_000,
            }
            return schema.model_validate(
                {k: v for k, v in wild.items() if k in schema.model_fields}
            )

        return RunnableLambda(answer)


def test_a_models_out_of_range_answers_fall_back_to_the_rules() -> None:
    """A chat model's out-of-range answer is refused by its schema, and the rule-based
    path writes the memory instead; nothing of the wild answer is stored."""

    def replies() -> Iterator[AIMessage]:
        while True:
            yield AIMessage(content="not json")

    config = MemoryConfig(long_term={"extract_every_turn": True})
    with MemoryManager(
        embeddings=HashingEmbeddings(), llm=_WildModel(messages=replies()), config=config
    ) as mm:
        mm.add_turn("ann", "s1", user="I live in Lyon and I love green tea.", assistant="ok")
        mm.add_turn("bob", "s1", user="I live in Oslo.", assistant="ok")
        mm.flush(timeout=60)
        facts = mm.profile.facts("ann")
        assert facts and all("xxxxxxxx" not in str(f) for f in facts)
        assert any("Lyon" in str(f) for f in facts)
        assert any("Oslo" in str(f) for f in mm.profile.facts("bob"))
