"""Faults contained: a message the embedder fails on is quarantined instead of stopping
the queue for everyone; timestamps every backend can store; task ids scoped by user."""

from __future__ import annotations

import threading

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
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


class NaNs(HashingEmbeddings):
    """Gives NaN for texts with a snowman."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out = super().embed_documents(texts)
        return [
            [float("nan")] * len(v) if POISON in t else v for t, v in zip(texts, out, strict=True)
        ]


@pytest.mark.parametrize("embedder", [Picky, NaNs])
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
        assert ("ValueError" in failed.error) or ("NaN" in failed.error)
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
