"""Deletion complete: ``delete_user`` leaves nothing of the user, not the store items
under the user's namespaces nor the cache rows of a batch embedded while it ran."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager, MemoryStore
from langgraph_memory.backends import InMemoryBackend, SQLiteBackend
from langgraph_memory.embeddings import CachedEmbeddings, HashingEmbeddings

WORKER = "langgraph-memory-embed"  # the worker's threads (the ones embedding ahead too)


class Slow(Embeddings):
    """HashingEmbeddings that take ``delay`` seconds per call on the worker's threads."""

    def __init__(self, delay: float) -> None:
        self.inner = HashingEmbeddings()
        self.model_id = "slow-hashing"
        self.delay = delay

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if threading.current_thread().name.startswith(WORKER):
            time.sleep(self.delay)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def _cache_hashes(path: Path) -> set[str]:
    with sqlite3.connect(path / "memory.sqlite3") as con:
        return {h for (h,) in con.execute("SELECT hash FROM embedding_cache")}


@pytest.mark.parametrize("run", range(20))
def test_delete_user_during_ingestion_leaves_no_cache_rows(tmp_path: Path, run: int) -> None:
    """A batch embedded ahead (outside the writer lease) while the user is deleted is
    dropped, not cached: no row of the embedding cache holds a deleted text's hash."""
    cfg = MemoryConfig(embed_batch_size=4)
    with MemoryManager(tmp_path, embeddings=Slow(0.05), config=cfg) as mm:
        gone = [f"gone note {run}-{i} about the lake" for i in range(40)]
        for i, text in enumerate(gone):
            mm.add_message("gone", "s1", "user", text)
            mm.add_message("stay", "s1", "user", f"stay note {run}-{i} about tea")
        deadline = time.monotonic() + 30
        while mm.stats("gone")["embedded"] < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert mm.delete_user("gone") == 40
        mm.flush(timeout=120)
        assert mm.stats("stay")["embedded"] == 40
    wanted = {CachedEmbeddings.content_hash(t) for t in gone}
    assert not wanted & _cache_hashes(tmp_path)
    files = b"".join(f.read_bytes() for f in tmp_path.glob("memory.sqlite3*") if f.is_file())
    assert b"gone note" not in files and b"stay note" in files
    assert not any(h.encode() in files for h in wanted)
    kept = {CachedEmbeddings.content_hash(f"stay note {run}-{i} about tea") for i in range(40)}
    assert kept <= _cache_hashes(tmp_path)  # the other user's are cached as before


@pytest.mark.parametrize("backend_kind", ["memory", "sqlite"])
def test_delete_user_removes_the_store_items_of_the_users_namespaces(
    tmp_path: Path, backend_kind: str
) -> None:
    backend = InMemoryBackend() if backend_kind == "memory" else SQLiteBackend(tmp_path / "db")
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        store = MemoryStore(mm)
        store.put(("memories", "alice"), "food", {"likes": "tea"})
        store.put(("alice", "prefs"), "theme", {"mode": "dark"})
        store.put(("memories", "bob"), "food", {"likes": "coffee"})
        store.put(("shared",), "alice-notes", {"who": "alice"})  # a key, not a label
        mm.add_message("alice", "s1", "user", "hello")
        mm.flush()
        mm.delete_user("alice")
        assert store.get(("memories", "alice"), "food") is None
        assert store.get(("alice", "prefs"), "theme") is None
        assert store.search(("memories", "alice")) == []
        assert store.get(("memories", "bob"), "food").value == {"likes": "coffee"}
        assert store.get(("shared",), "alice-notes") is not None
        assert [ns for ns in store.list_namespaces()] == [("memories", "bob"), ("shared",)]
