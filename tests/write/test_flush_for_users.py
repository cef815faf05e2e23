"""``flush(user_ids=...)`` waits for those users' messages accepted before it, not for
other users' (a service flushing for one tenant while another writes), on every backend.

The embedder holds any batch with a marked text until the test releases it (bounded), so
another user's message stays pending, really, while the worker is busy with it.
"""

from __future__ import annotations

import threading

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage.base import MemoryBackend

HELD = "\u23f8"  # a batch holding this waits for ``release``


class HoldingEmbeddings(Embeddings):
    """HashingEmbeddings that holds a batch holding :data:`HELD` until :meth:`release`."""

    model_id = "holding"

    def __init__(self) -> None:
        self.inner = HashingEmbeddings()
        self.released = threading.Event()
        self.holding = threading.Event()  # a held batch is waiting

    def release(self) -> None:
        self.released.set()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if any(HELD in t for t in texts):
            self.holding.set()
            assert self.released.wait(timeout=60), "never released"
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


@pytest.mark.timeout(120)
def test_a_flush_for_some_users_does_not_wait_for_the_others(backend: MemoryBackend) -> None:
    emb = HoldingEmbeddings()
    mm = MemoryManager(backend=backend, embeddings=emb)
    try:
        mm.add_message("ann", "s1", "user", "Ann grows tomatoes on her balcony.")
        mm.flush(timeout=30, user_ids=["ann"])
        assert mm.stats("ann")["embedded"] == 1
        # bob's message holds the worker
        mm.add_message("bob", "s1", "user", f"Bob's pending note {HELD}")
        assert emb.holding.wait(timeout=30)
        mm.flush(timeout=30, user_ids=["ann"])  # ann has nothing pending: returns
        mm.flush(timeout=30, user_ids=[])
        assert mm.stats("bob")["pending"] == 1  # bob's is still held
        with pytest.raises(TimeoutError):
            mm.flush(timeout=0.3)  # the whole queue: bob's too
        with pytest.raises(TimeoutError):
            mm.flush(timeout=0.3, user_ids=["ann", "bob"])
        # a message of ann's accepted now waits behind bob's: her flush waits for it
        mm.add_message("ann", "s2", "user", "Ann also keeps two hens.")
        with pytest.raises(TimeoutError):
            mm.flush(timeout=0.3, user_ids=["ann"])
        emb.release()
        mm.flush(timeout=30, user_ids=["ann"])
        assert mm.stats("ann")["pending"] == 0 and mm.stats("ann")["embedded"] == 2
        hits = mm.search("ann", "hens", k=1)
        assert hits and "hens" in hits[0].text
        mm.flush(timeout=30)
        assert mm.stats("bob")["pending"] == 0
    finally:
        emb.release()
        mm.close()


def test_user_ids_are_checked(backend: MemoryBackend) -> None:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        with pytest.raises(TypeError, match="user_ids"):
            mm.flush(user_ids="ann")
        with pytest.raises(ValueError, match=r"user_ids\[\]"):
            mm.flush(user_ids=["ann", ""])
        with pytest.raises(TypeError, match=r"user_ids\[\]"):
            mm.flush(user_ids=["ann", 3])  # type: ignore[list-item]
