"""Cross-encoder reranking: a small interface, a FlashRank adapter and a generic one.

A :class:`Reranker` scores ``(query, text)`` pairs jointly, which ranks better
than comparing embeddings but costs a model call per pair, so it runs on the
few dozen candidates left after fusion. Higher scores mean more relevant; both
adapters here return probabilities in ``[0, 1]`` for one-label models.

- :class:`FlashRankReranker` runs a FlashRank ONNX model (``pip install
  langgraph-memory[rerank]``). FlashRank downloads models on first use; this
  adapter never does: the model must already be on disk, in FlashRank's layout
  ``<model_dir>/<model_name>/`` (see :data:`FLASHRANK_FILES`), or construction
  fails with a message saying what is missing.
- :class:`CrossEncoderReranker` wraps a ``sentence_transformers.CrossEncoder``
  (an instance or a local directory) or any callable ``(query, texts) -> scores``.

Example:
    >>> overlap = lambda q, texts: [len(set(q.split()) & set(t.split())) for t in texts]
    >>> reranker = CrossEncoderReranker(overlap)
    >>> reranker.rerank("green tea", ["black coffee", "green tea please", "tea"])
    [0.0, 2.0, 1.0]
    >>> reranker.rank("green tea", ["black coffee", "green tea please", "tea"], top_n=2)
    [(1, 2.0), (2, 1.0)]
"""

from __future__ import annotations

import asyncio
import logging
import math
import numbers
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "Reranker",
    "FlashRankReranker",
    "CrossEncoderReranker",
    "FLASHRANK_FILES",
    "FLASHRANK_DIR_ENV",
    "find_flashrank_model",
]

#: Files FlashRank's ``Ranker`` reads from ``<cache_dir>/<model_name>/``, besides
#: the ONNX file whose name FlashRank maps from the model name.
FLASHRANK_FILES = (
    "tokenizer.json",
    "config.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
)

#: Environment variable naming the directory that holds FlashRank models, used
#: when no ``model_dir`` is given.
FLASHRANK_DIR_ENV = "LANGGRAPH_MEMORY_RERANK_DIR"

DEFAULT_FLASHRANK_MODEL = "ms-marco-TinyBERT-L-2-v2"


class Reranker(ABC):
    """Scores candidate texts against a query; higher is more relevant.

    Subclasses implement :meth:`rerank`; :meth:`arerank` runs it in a worker
    thread and :meth:`rank` sorts by it.
    """

    @abstractmethod
    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """One score per text, in the order of ``texts``.

        Args:
            query: The query.
            texts: The candidates (an empty sequence gives an empty list).

        Returns:
            Scores, higher is more relevant.
        """

    async def arerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """Async :meth:`rerank` (the model runs in a worker thread)."""
        return await asyncio.to_thread(self.rerank, query, list(texts))

    def rank(
        self, query: str, texts: Sequence[str], top_n: int | None = None
    ) -> list[tuple[int, float]]:
        """``(index, score)`` pairs, best first (ties: lower index first).

        Args:
            query: The query.
            texts: The candidates.
            top_n: Keep only the best ``top_n``.
        """
        scores = self.rerank(query, texts)
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        return [(i, scores[i]) for i in order[:top_n]]


def checked_scores(scores: Any, n: int) -> list[float]:
    """Scores as a list of ``n`` finite floats, or ``ValueError`` saying what is wrong.

    Example:
        >>> checked_scores([0.5, 1], 2)
        [0.5, 1.0]
    """
    try:
        raw = list(scores.tolist() if hasattr(scores, "tolist") else scores)
    except TypeError:
        raise ValueError(f"the reranker returned {type(scores).__name__}, not scores") from None
    if len(raw) != n:
        raise ValueError(f"the reranker returned {len(raw)} scores for {n} texts")
    values: list[float] = []
    for i, s in enumerate(raw):
        if isinstance(s, bool) or not isinstance(s, numbers.Real):
            raise ValueError(f"the reranker's score {i} is a {type(s).__name__}, not a number")
        if not math.isfinite(float(s)):
            raise ValueError(f"the reranker's score {i} is non-finite (NaN or an infinity)")
        values.append(float(s))
    return values


def _flashrank_onnx_file(model_name: str) -> str:
    """The ONNX file FlashRank loads for ``model_name``."""
    try:
        from flashrank.Config import listwise_rankers, model_file_map
    except ImportError as exc:
        raise ImportError(
            "FlashRankReranker needs flashrank: pip install 'langgraph-memory[rerank]'"
        ) from exc
    if model_name not in model_file_map or model_name in listwise_rankers:
        known = sorted(set(model_file_map) - set(listwise_rankers))
        raise ValueError(f"unknown FlashRank cross-encoder {model_name!r}; known: {known}")
    return str(model_file_map[model_name])


def find_flashrank_model(
    model_name: str = DEFAULT_FLASHRANK_MODEL, model_dir: str | os.PathLike[str] | None = None
) -> tuple[Path | None, list[str]]:
    """Where a FlashRank model is on disk, without downloading anything.

    ``model_dir`` may be FlashRank's cache directory (holding ``<model_name>/``)
    or the model's own directory (named ``<model_name>``). Without one, the
    directory in ``$LANGGRAPH_MEMORY_RERANK_DIR`` is used, else FlashRank's
    default cache directory.

    Args:
        model_name: A FlashRank cross-encoder name, e.g. ``ms-marco-TinyBERT-L-2-v2``.
        model_dir: Where to look.

    Returns:
        ``(cache_dir, [])`` when every file is there, else ``(None, problems)``
        with one line per missing piece.

    Raises:
        ImportError: If flashrank is not installed.
        ValueError: If ``model_name`` is not a FlashRank cross-encoder.
    """
    onnx_file = _flashrank_onnx_file(model_name)
    if model_dir is None:
        from flashrank.Config import default_cache_dir

        model_dir = os.environ.get(FLASHRANK_DIR_ENV) or default_cache_dir
    base = Path(model_dir)
    own_dir = base.name == model_name and not (base / model_name).is_dir()
    cache_dir = base.parent if own_dir else base
    folder = cache_dir / model_name
    if not folder.is_dir():
        return None, [f"no directory {folder}"]
    missing = [f for f in (onnx_file, *FLASHRANK_FILES) if not (folder / f).is_file()]
    return (None, [f"{folder} lacks {', '.join(missing)}"]) if missing else (cache_dir, [])


class FlashRankReranker(Reranker):
    """A FlashRank ONNX cross-encoder, loaded from a local directory.

    Args:
        model_name: FlashRank model name (it fixes the ONNX file name too).
        model_dir: FlashRank's cache directory holding ``<model_name>/``, or that
            model directory itself; default: ``$LANGGRAPH_MEMORY_RERANK_DIR``, else
            FlashRank's default cache directory.
        max_length: Longest query + text, in tokens (longer pairs are truncated).

    Raises:
        FileNotFoundError: If the model is not on disk (nothing is downloaded).
        ImportError: If flashrank is not installed.
        ValueError: If ``model_name`` is not a FlashRank cross-encoder.

    Example:
        ``FlashRankReranker(model_dir="/models/flashrank").rerank("tea", ["green tea", "car"])``
        gives two probabilities, the first higher.
    """

    def __init__(
        self,
        model_name: str = DEFAULT_FLASHRANK_MODEL,
        model_dir: str | os.PathLike[str] | None = None,
        *,
        max_length: int = 512,
    ) -> None:
        cache_dir, problems = find_flashrank_model(model_name, model_dir)
        if cache_dir is None:
            raise FileNotFoundError(
                f"FlashRank model {model_name!r} is not on disk ({'; '.join(problems)}). "
                "FlashRank would download it, and langgraph_memory never downloads at run "
                "time: put the model's files in <model_dir>/<model_name>/ and pass model_dir "
                f"(or set ${FLASHRANK_DIR_ENV})."
            )
        from flashrank import Ranker

        self.model_name = model_name
        self.cache_dir = cache_dir
        # FlashRank's own loading path; it finds the files, so it downloads nothing.
        # Its constructor calls logging.basicConfig(): undo that on the root logger.
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        try:
            self.ranker = Ranker(
                model_name=model_name,
                cache_dir=str(cache_dir),
                max_length=max_length,
                log_level="WARNING",
            )
        finally:
            root.handlers[:], root.level = handlers, level

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """FlashRank's probabilities, in the order of ``texts``."""
        if not texts:
            return []
        from flashrank import RerankRequest

        passages = [{"id": i, "text": t} for i, t in enumerate(texts)]
        ranked = self.ranker.rerank(RerankRequest(query=query, passages=passages))
        by_id = {p["id"]: p["score"] for p in ranked}
        return checked_scores([by_id[i] for i in range(len(texts))], len(texts))

    def as_compressor(self, top_n: int = 3, score_threshold: float = 0.0) -> Any:
        """This model as langchain-community's ``FlashrankRerank`` document compressor.

        For LangChain pipelines (``ContextualCompressionRetriever``); it shares
        this reranker's loaded model, so it downloads nothing either.

        Raises:
            ImportError: If langchain-community is not installed.
        """
        try:
            from langchain_community.document_compressors import FlashrankRerank
        except ImportError as exc:
            raise ImportError(
                "as_compressor needs langchain-community: pip install langchain-community"
            ) from exc
        return FlashrankRerank(
            client=self.ranker,
            model=self.model_name,
            top_n=top_n,
            score_threshold=score_threshold,
        )


ScoreFn = Callable[[str, list[str]], Sequence[float]]


class CrossEncoderReranker(Reranker):
    """Any cross-encoder: a sentence-transformers ``CrossEncoder`` or a scoring callable.

    Args:
        model: A ``CrossEncoder`` (anything with ``predict(pairs)``), the path of
            a local CrossEncoder directory, or a callable ``(query, texts) -> scores``.
        batch_size: Pairs per forward pass (CrossEncoder models only).

    Raises:
        FileNotFoundError: If ``model`` is a path that is not a local directory
            (model hub names are not fetched).
        TypeError: If ``model`` is none of the above.

    Example:
        >>> CrossEncoderReranker(lambda q, ts: [float(q in t) for t in ts]).rerank(
        ...     "tea", ["green tea", "coffee"])
        [1.0, 0.0]
    """

    def __init__(self, model: Any, *, batch_size: int = 32) -> None:
        if isinstance(model, (str, os.PathLike)):
            path = Path(model)
            if not path.is_dir():
                raise FileNotFoundError(
                    f"{str(model)!r} is not a local model directory; langgraph_memory never "
                    "downloads models at run time: save the CrossEncoder to disk and pass its path"
                )
            from sentence_transformers import CrossEncoder

            model = CrossEncoder(str(path), local_files_only=True)
        if not (hasattr(model, "predict") or callable(model)):
            raise TypeError(f"expected a CrossEncoder, a path or a callable, got {type(model)}")
        self.model = model
        self.batch_size = batch_size

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """The model's scores, in the order of ``texts``."""
        if not texts:
            return []
        if hasattr(self.model, "predict"):
            scores = self.model.predict(
                [(query, t) for t in texts], batch_size=self.batch_size, show_progress_bar=False
            )
        else:
            scores = self.model(query, list(texts))
        return checked_scores(scores, len(texts))
