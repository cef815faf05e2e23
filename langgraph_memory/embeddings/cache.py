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
    "InvalidVectorsError",
    "PROBE_TEXT",
    "model_id",
    "VectorStoreGet",
    "VectorStorePut",
]

#: ``(model_id, hashes) -> {hash: vector}`` of a persistent cache.
VectorStoreGet = Callable[[str, list[str]], dict[str, np.ndarray]]
#: ``(model_id, {hash: vector})``: fill a persistent cache.
VectorStorePut = Callable[[str, dict[str, np.ndarray]], None]


#: The text embedded once to learn a model's dimension (and to see whether it is up).
PROBE_TEXT = "memory probe"


class InvalidVectorsError(ValueError):
    """An embedding model returned unusable vectors for some texts (and good ones for
    the others): a row that is not a flat sequence of numbers, is empty, has another
    length than the model's vectors, or holds NaN or an infinity.

    Attributes:
        errors: ``{position in the texts asked for: reason}``; the texts whose
            vectors were fine are cached.
    """

    def __init__(self, model: str, errors: dict[int, str]) -> None:
        first = next(iter(errors.values()), "")
        super().__init__(f"{model} returned an unusable vector for {len(errors)} text(s): {first}")
        self.errors = errors


def check_vector(value: object, dim: int | None) -> tuple[np.ndarray | None, str]:
    """``(vector, "")`` when ``value`` is a usable embedding (a flat, non-empty sequence
    of ``dim`` finite numbers; any length when ``dim`` is None), else ``(None, reason)``.

    Example:
        >>> check_vector([0.1, 0.2], 2)[1], check_vector([0.1], 2)[1]
        ('', 'its vector has 1 dimension(s), not 2')
    """
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged, or not numbers
        return None, f"its vector is not a sequence of numbers ({type(exc).__name__})"
    if arr.dtype.kind not in "fiu":
        return None, f"its vector is not a sequence of numbers (dtype {arr.dtype})"
    if arr.ndim != 1:
        return None, f"its vector has shape {arr.shape}, not one row"
    if arr.size == 0:
        return None, "its vector is empty"
    if dim is not None and arr.size != dim:
        return None, f"its vector has {arr.size} dimension(s), not {dim}"
    vec = arr.astype(np.float32)
    if not np.isfinite(vec).all():
        return None, "its vector holds NaN or an infinity"
    return vec, ""


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
        #: The length of the model's vectors, learned from a probe text on first use.
        self.dim: int | None = None
        self._dim_lock = threading.Lock()
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

    def _raw(self, texts: list[str]) -> object:
        fast = getattr(self.inner, "embed_array", None)
        return fast(texts) if callable(fast) else self.inner.embed_documents(texts)

    def learn_dim(self) -> int:
        """The length of the model's vectors, from one probe text the first time.

        Raises:
            RuntimeError: When the model's vector of the probe text is unusable (the
                model is broken, not a text).
        """
        if self.dim is None:
            with self._dim_lock:
                if self.dim is None:
                    why = self._probe()  # the model's own error, if it raises
                    if isinstance(why, str):
                        raise RuntimeError(
                            f"{type(self.inner).__name__} gives no usable vector for a "
                            f"probe text ({why})"
                        )
                    self.dim = int(why.size)
        return self.dim

    def probe(self) -> np.ndarray | str:
        """The model's vector of :data:`PROBE_TEXT`, past the cache (of :attr:`dim`
        numbers once that is known), or why there is none: the model is down or broken
        when it fails on a probe text.

        Example:
            >>> from langgraph_memory.embeddings import HashingEmbeddings
            >>> CachedEmbeddings(HashingEmbeddings(dim=8)).probe().shape
            (8,)
        """
        try:
            return self._probe()
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"

    def _probe(self) -> np.ndarray | str:
        raw = self._raw([PROBE_TEXT])
        rows = list(raw) if isinstance(raw, Sequence | np.ndarray) else []
        if len(rows) != 1:
            return f"{len(rows)} rows for 1 text"
        vec, why = check_vector(rows[0], self.dim)
        return why if vec is None else vec

    def embed_array(self, texts: Sequence[str], *, persist: bool = True) -> np.ndarray:
        """Embed texts into a float32 matrix (one row each), using the cache.

        Every vector the model returns is checked (a flat row of :attr:`dim` finite
        numbers); the good ones are kept and cached even when others are not.

        Args:
            texts: The texts.
            persist: Also read and fill the persistent store (off for queries).

        Raises:
            InvalidVectorsError: When the model's vectors of some texts are unusable
                (its ``errors`` name them by position in ``texts``).
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
            bad: dict[str, str] = {}
            dim = self.learn_dim()
            # Chunks of batch_size: the inner model sorts and batches each one itself.
            for i in range(0, len(missing), self.batch_size):
                batch = missing[i : i + self.batch_size]
                raw = self._raw([first_text[k] for k in batch])
                rows = list(raw) if isinstance(raw, Sequence | np.ndarray) else None
                if rows is None or len(rows) != len(batch):
                    raise RuntimeError(
                        f"{type(self.inner).__name__} returned "
                        f"{'no list' if rows is None else len(rows)} vectors "
                        f"for {len(batch)} texts"
                    )
                for k, row in zip(batch, rows, strict=True):
                    vec, why = check_vector(row, dim)
                    if vec is None:
                        bad[k] = why
                    else:
                        new[k] = vec
                        self._remember(k, vec)
            found.update(new)
            if persist and self.store_put is not None and new:
                self.store_put(self.model_id, new)
            if bad:
                raise InvalidVectorsError(
                    type(self.inner).__name__,
                    {i: bad[k] for i, k in enumerate(keys) if k in bad},
                )
        self.cache_misses += len(missing)
        self.cache_hits += len(keys) - len(missing)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.vstack([found[k] for k in keys]).astype(np.float32, copy=False)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of queries, cached in process only: the model's own query form when it
        has one (``embed_query_array``, e.g. e5's ``query:`` prefix), else
        :meth:`embed_array`'s (``persist=False``).

        Example:
            >>> from langgraph_memory.embeddings import HashingEmbeddings
            >>> CachedEmbeddings(HashingEmbeddings(dim=8)).embed_queries(["hi"]).shape
            (1, 8)
        """
        fast = getattr(self.inner, "embed_query_array", None)
        if not callable(fast):
            return self.embed_array(texts, persist=False)
        keys = ["query:" + self.content_hash(t) for t in texts]
        with self._lock:
            found = {k: self._lru[k] for k in keys if k in self._lru}
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in found}
        if missing:
            dim = self.learn_dim()
            rows = list(fast(list(missing.values())))
            bad: dict[str, str] = {}
            for k, row in zip(missing, rows, strict=True):
                vec, why = check_vector(row, dim)
                if vec is None:
                    bad[k] = why
                else:
                    found[k] = vec
                    self._remember(k, vec)
            if bad:
                raise InvalidVectorsError(
                    type(self.inner).__name__,
                    {i: bad[k] for i, k in enumerate(keys) if k in bad},
                )
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
