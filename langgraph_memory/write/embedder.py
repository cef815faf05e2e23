"""The embedder of one memory: loaded on first use, checked against the store, cached.

The model (the packaged default, or the ``Embeddings`` given) is loaded when a vector
is first needed, usually by the background worker, so a slow load stays off the
caller's path. A store records which model made its vectors; opening it with another
one is refused, since vectors of two models cannot be compared. Vectors are cached by
content hash, in process and in the store's embedding cache when it has one.

Example:
    >>> from langgraph_memory.config import WriteSection
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> store = InMemoryBackend()
    >>> emb = Embedder(store, WriteSection(), HashingEmbeddings(dim=8))
    >>> emb.get().embed_array(["hello"]).shape, store.get_meta("embedding_model")
    ((1, 8), 'hashing-8')
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from langchain_core.embeddings import Embeddings

from langgraph_memory.config import WriteSection
from langgraph_memory.core.tokens import count_cjk, count_tokens
from langgraph_memory.embeddings import CachedEmbeddings, model_id
from langgraph_memory.embeddings.multilingual import (
    embedding_model,
    embedding_model_class,
    embedding_model_id,
)
from langgraph_memory.storage.capabilities import EmbeddingCache

if TYPE_CHECKING:
    from langgraph_memory.storage.base import StorageCore

__all__ = ["Embedder"]


class Embedder:
    """The memory's embedder (see the module docs).

    Args:
        storage: The store: its metadata records the model, its embedding cache (when it
            has one) keeps vectors across restarts.
        config: ``embed_cache_size`` and ``embed_batch_size``.
        embeddings: The model; ``None`` for the packaged one ``config.embedding_model``
            names (all-MiniLM-L6-v2 by default).
    """

    def __init__(
        self, storage: StorageCore, config: WriteSection, embeddings: Embeddings | None
    ) -> None:
        self._storage = storage
        self._config = config
        self._given = embeddings
        self._lock = threading.Lock()
        self._cached: CachedEmbeddings | None = None

    def get(self) -> CachedEmbeddings:
        """The cached embedder (loads the model on first use).

        Raises:
            ValueError: When the store's vectors were made by another model.
        """
        if self._cached is None:
            with self._lock:
                if self._cached is None:
                    given = self._given
                    name = self._config.embedding_model
                    self._check_model(
                        model_id(given) if given is not None else embedding_model_id(name)
                    )
                    store = self._storage
                    kept = store if isinstance(store, EmbeddingCache) else None
                    self._cached = CachedEmbeddings(
                        given or embedding_model(name),
                        cache_size=self._config.embed_cache_size,
                        batch_size=self._config.embed_batch_size,
                        store_get=kept.cache_get if kept is not None else None,
                        store_put=kept.cache_put if kept is not None else None,
                    )
        return self._cached

    def reads(self, text: str) -> bool:
        """Whether the model's vector of ``text`` means something: not for text mostly in
        Chinese (or Japanese, Korean: at least half its tokens) with a model that declares
        itself ``english_only`` (the default all-MiniLM-L6-v2); a model that says nothing
        is trusted. Loads nothing.

        Example:
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> emb = Embedder(InMemoryBackend(), WriteSection(), None)
            >>> emb.reads("Where do I work?"), emb.reads("我在哪里工作？")
            (True, False)
            >>> emb.reads("What did 小明 say about the trip to Paris?")
            True
        """
        if 2 * count_cjk(text) < count_tokens(text):
            return True
        model: object = self._given
        if model is None:
            model = embedding_model_class(self._config.embedding_model)
        inner = getattr(model, "inner", model)
        return not getattr(inner, "english_only", False)

    def _check_model(self, mid: str) -> None:
        """Refuse to mix vectors of two embedding models in one store."""
        stored = self._storage.get_meta("embedding_model")
        if stored is not None and stored != mid and self._storage.stats().embedded > 0:
            raise ValueError(
                f"this memory's vectors were made by embedding model {stored!r}, not {mid!r}; "
                "open it with the same embeddings, or use another memory path"
            )
        if stored != mid:
            self._storage.set_meta("embedding_model", mid)

    def embed_texts(self, texts: Sequence[str]) -> np.ndarray:
        """The vectors of texts, cached in process only (long-term renderings change with
        their entry, and ``delete_user`` must reach every vector)."""
        return self.get().embed_array(texts, persist=False)

    def forget(self, hashes: Sequence[str]) -> None:
        """Drop cached vectors from the process (a deleted user's texts)."""
        if self._cached is not None:
            self._cached.forget(hashes)
