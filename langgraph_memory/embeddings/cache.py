"""A content-hash cache in front of any embedding model, with batching.

Lookups go to an in-process LRU first, then to an optional persistent store (the
memory backend's embedding cache), and only the misses are embedded.

Example:
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> emb = CachedEmbeddings(HashingEmbeddings(dim=64))
    >>> vecs = emb.embed_documents(["hello world", "hello world"])
    >>> emb.cache_hits
    1
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
from langchain_core.embeddings import Embeddings

__all__ = [
    "CachedEmbeddings",
    "EmbedderSource",
    "model_id",
    "VectorStoreGet",
    "VectorStorePut",
]

#: ``(model_id, hashes) -> {hash: vector}`` of a persistent cache.
VectorStoreGet = Callable[[str, list[str]], dict[str, np.ndarray]]
#: ``(model_id, {hash: vector})``: fill a persistent cache.
VectorStorePut = Callable[[str, dict[str, np.ndarray]], None]


def model_id(embeddings: Embeddings) -> str:
    """A stable identifier of an embedding model, used to key the cache."""
    explicit = getattr(embeddings, "model_id", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    for attr in ("model", "model_name"):
        value = getattr(embeddings, attr, None)
        if isinstance(value, str) and value:
            return f"{type(embeddings).__name__}:{value}"
    return type(embeddings).__name__


class CachedEmbeddings(Embeddings):
    """Wraps any embeddings with a content-hash cache and batching.

    Lookups go to an in-process LRU first, then to an optional persistent store
    (the memory backend), and only the misses are embedded, in batches.

    Args:
        inner: The embedding model.
        cache_size: Entries kept in the in-process LRU.
        batch_size: Texts per call to ``inner.embed_documents``.
        store_get: ``(model_id, hashes) -> {hash: vector}`` of a persistent cache.
        store_put: ``(model_id, {hash: vector})`` to fill it.
    """

    def __init__(
        self,
        inner: Embeddings,
        *,
        cache_size: int = 10_000,
        batch_size: int = 64,
        store_get: VectorStoreGet | None = None,
        store_put: VectorStorePut | None = None,
    ) -> None:
        self.inner: Embeddings = inner.inner if isinstance(inner, CachedEmbeddings) else inner
        self.model_id = model_id(inner)
        self.cache_size = cache_size
        self.batch_size = batch_size
        self.store_get = store_get
        self.store_put = store_put
        self.cache_hits = 0
        self.cache_misses = 0
        self._lru: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def content_hash(text: str) -> str:
        """SHA-256 of the text (the cache key within one model)."""
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _remember(self, key: str, vec: np.ndarray) -> None:
        with self._lock:
            self._lru[key] = vec
            self._lru.move_to_end(key)
            while len(self._lru) > self.cache_size:
                self._lru.popitem(last=False)

    def forget(self, hashes: Sequence[str]) -> None:
        """Drop entries from the in-process cache (the persistent one is the backend's)."""
        with self._lock:
            for h in hashes:
                self._lru.pop(h, None)

    def embed_array(self, texts: Sequence[str], *, persist: bool = True) -> np.ndarray:
        """Embed texts into a float32 matrix (one row each), using the cache.

        Args:
            texts: The texts.
            persist: Also read and fill the persistent store (off for queries).
        """
        keys = [self.content_hash(t) for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for k in keys:
                if k in self._lru:
                    self._lru.move_to_end(k)
                    found[k] = self._lru[k]
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing and persist and self.store_get is not None:
            stored = self.store_get(self.model_id, missing)
            for k, v in stored.items():
                found[k] = v
                self._remember(k, v)
            missing = [k for k in missing if k not in found]
        if missing:
            wanted = set(missing)
            first_text = {k: t for k, t in zip(keys, texts, strict=True) if k in wanted}
            new: dict[str, np.ndarray] = {}
            # Chunks of batch_size: the inner model sorts and batches each one itself.
            fast = getattr(self.inner, "embed_array", None)
            for i in range(0, len(missing), self.batch_size):
                batch = missing[i : i + self.batch_size]
                chunk = [first_text[k] for k in batch]
                vecs = np.asarray(
                    fast(chunk) if callable(fast) else self.inner.embed_documents(chunk),
                    dtype=np.float32,
                )
                if len(vecs) != len(batch):
                    raise RuntimeError(
                        f"{type(self.inner).__name__} returned {len(vecs)} vectors "
                        f"for {len(batch)} texts"
                    )
                for k, v in zip(batch, vecs, strict=True):
                    new[k] = np.asarray(v, dtype=np.float32)
                    self._remember(k, new[k])
            found.update(new)
            if persist and self.store_put is not None:
                self.store_put(self.model_id, new)
        self.cache_misses += len(missing)
        self.cache_hits += len(keys) - len(missing)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.vstack([found[k] for k in keys]).astype(np.float32, copy=False)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [row.tolist() for row in self.embed_array(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_array([text])[0].tolist()


class EmbedderSource(Protocol):
    """Anything that hands out a memory's cached embedder (loading the model if need be),
    e.g. :class:`langgraph_memory.write.embedder.Embedder`."""

    def get(self) -> CachedEmbeddings:
        """The cached embedder."""
        ...
