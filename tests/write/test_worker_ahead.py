"""The background worker embeds the next batch while it places the current one: every
message is still embedded exactly once, and vectors made ahead are only stored for
messages that are still pending as they were."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from contextlib import contextmanager

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.core.records import Message
from langgraph_memory.embeddings import CachedEmbeddings, HashingEmbeddings
from langgraph_memory.embeddings.cache import PROBE_TEXT
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend
from langgraph_memory.write.worker import EmbeddingWorker


class CountingEmbeddings(Embeddings):
    """HashingEmbeddings that counts, per text, how often the background embedded it (the
    probe that learns the model's dimension aside)."""

    model_id = "counting"

    def __init__(self) -> None:
        self.inner = HashingEmbeddings()
        self.counts: dict[str, int] = {}
        self.threads: set[str] = set()
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        with self._lock:
            self.threads.add(threading.current_thread().name)
            for t in texts:
                if t != PROBE_TEXT:
                    self.counts[t] = self.counts.get(t, 0) + 1
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def test_every_message_is_embedded_once_with_batches_made_ahead(tmp_path) -> None:
    emb = CountingEmbeddings()
    cfg = MemoryConfig(write={"embed_batch_size": 16})
    texts = [f"message number {i} about topic {i % 7}" for i in range(400)]
    with MemoryManager(backend=SQLiteBackend(tmp_path), embeddings=emb, config=cfg) as mm:
        for i, text in enumerate(texts):
            mm.add_message("u", f"s{i // 40}", "user" if i % 2 == 0 else "assistant", text)
        mm.flush()
        stats = mm.stats("u")
        assert stats["messages"] == stats["embedded"] == len(texts)
        assert stats["layers"]["short_term"] + stats["layers"]["mid_term"] > 0  # placed
    assert emb.counts == dict.fromkeys(texts, 1)  # once each: ahead vectors were used
    # some batches were embedded ahead, on the worker's helper thread
    assert any(name.startswith("langgraph-memory-embed-ahead") for name in emb.threads)


class _NeverMine:
    """A lease never held: the worker's own passes do nothing, the test drives _take_ahead."""

    @contextmanager
    def hold(self, wait: float = 0.0):
        yield False


class _Source:
    def __init__(self, cached: CachedEmbeddings) -> None:
        self.cached = cached

    def get(self) -> CachedEmbeddings:
        return self.cached


class _NoPlacement:
    def begin_batch(self, batch) -> None:
        pass

    def on_embedded(self, items) -> None:
        pass

    def replay(self, embed) -> int:
        return 0

    def place_embedded(self, embed) -> int:
        return 0


def _messages(backend: InMemoryBackend, n: int) -> list[Message]:
    from datetime import datetime, timezone

    out = []
    for i in range(n):
        msg = Message(
            id=f"m{i}",
            user_id="u",
            session_id="s",
            role="user",
            content=f"text {i}",
            timestamp=datetime(2024, 1, 1, tzinfo=timezone.utc),
        )
        out.append(backend.insert_message(msg, [f"text{i}"])[0])
    return out


@pytest.fixture
def idle_worker():
    backend = InMemoryBackend()
    emb = CountingEmbeddings()
    cached = CachedEmbeddings(emb)
    worker = EmbeddingWorker(
        backend, _Source(cached), _NeverMine(), batch_size=8, placement=_NoPlacement()
    )
    yield backend, emb, worker
    worker.stop()


def _done(value: np.ndarray) -> Future[np.ndarray]:
    future: Future[np.ndarray] = Future()
    future.set_result(value)
    return future


def test_vectors_made_ahead_are_used_for_the_same_pending_batch(idle_worker) -> None:
    backend, emb, worker = idle_worker
    msgs = _messages(backend, 6)
    early = msgs[:4]
    marker = np.full((4, 256), 0.5, dtype=np.float32)
    worker._ahead = [(early, _done(marker))]
    batch, vectors = worker._take_ahead(msgs)  # two more came since: they wait
    assert [m.id for m in batch] == ["m0", "m1", "m2", "m3"]
    assert np.array_equal(vectors, marker)
    assert emb.counts == {}  # nothing embedded again
    assert worker._ahead == []


def test_vectors_made_ahead_are_dropped_when_the_batch_changed(idle_worker) -> None:
    backend, emb, worker = idle_worker
    msgs = _messages(backend, 6)
    worker._ahead = [(msgs[:4], _done(np.zeros((4, 256), dtype=np.float32)))]
    backend.delete_user("u")  # say a delete_user ran in between
    fresh = _messages(backend, 3)
    batch, vectors = worker._take_ahead(fresh)
    assert [m.seq for m in batch] == [m.seq for m in fresh]
    assert emb.counts == {m.content: 1 for m in fresh}  # embedded now, not taken from ahead
    assert vectors.shape == (3, 256) and np.abs(vectors).sum() > 0


def test_a_failed_ahead_embedding_is_done_again(idle_worker) -> None:
    backend, emb, worker = idle_worker
    msgs = _messages(backend, 2)
    failed: Future[np.ndarray] = Future()
    failed.set_exception(RuntimeError("model crashed"))
    worker._ahead = [(msgs, failed)]
    batch, vectors = worker._take_ahead(msgs)
    assert [m.id for m in batch] == ["m0", "m1"]
    assert emb.counts == {"text 0": 1, "text 1": 1}
    assert vectors.shape == (2, 256)


def test_two_batches_are_made_ahead_the_second_only_when_full(idle_worker) -> None:
    backend, emb, worker = idle_worker  # batch_size 8
    msgs = _messages(backend, 20)
    worker._embed_ahead()
    assert [[m.id for m in early] for early, _ in worker._ahead] == [
        [m.id for m in msgs[:8]],
        [m.id for m in msgs[8:16]],
    ]  # the last 4 wait for a fuller batch
    first, second = (future.result() for _, future in worker._ahead)
    # the first is stored: the next pass takes it, and tops the queue up behind the second
    backend.store_vectors(list(zip(msgs[:8], first, strict=True)))
    batch, vectors = worker._take_ahead(backend.pending_embeddings(8))
    assert [m.id for m in batch] == [m.id for m in msgs[8:16]]
    assert np.array_equal(vectors, second)
    backend.store_vectors(list(zip(batch, vectors, strict=True)))
    worker._embed_ahead()  # 4 left, nothing in the making: a short batch is fine now
    assert [[m.id for m in early] for early, _ in worker._ahead] == [[m.id for m in msgs[16:]]]
    worker._ahead[0][1].result()
    assert sorted(emb.counts.values()) == [1] * 20  # each embedded once


def test_a_flush_has_the_last_short_batch_made_ahead_at_once(idle_worker) -> None:
    """While a flush waits, no more messages are expected: the short rest is embedded
    beside the full batch in the making instead of after it (the model idled there)."""
    backend, emb, worker = idle_worker  # batch_size 8
    msgs = _messages(backend, 12)
    worker._flushing.set()
    try:
        worker._embed_ahead()
    finally:
        worker._flushing.clear()
    assert [[m.id for m in early] for early, _ in worker._ahead] == [
        [m.id for m in msgs[:8]],
        [m.id for m in msgs[8:]],
    ]
    for _, future in worker._ahead:
        future.result()
    assert sorted(emb.counts.values()) == [1] * 12


def test_a_changed_queue_drops_every_batch_made_ahead(idle_worker) -> None:
    backend, emb, worker = idle_worker
    msgs = _messages(backend, 16)
    worker._embed_ahead()
    assert len(worker._ahead) == 2
    backend.delete_user("u")
    fresh = _messages(backend, 3)
    batch, vectors = worker._take_ahead(backend.pending_embeddings(8))
    assert [m.seq for m in batch] == [m.seq for m in fresh]
    assert worker._ahead == []
    assert vectors.shape == (3, 256)
    assert not {m.seq for m in msgs} & {m.seq for m in batch}
