"""The default backend of the default model: the BERT graph run by ONNX Runtime.

No PyTorch: the tokenizer is read from ``tokenizer.json``
(:mod:`~langgraph_memory.embeddings.wordpiece`, plain Python giving ``tokenizers``' ids;
``tokenizers`` itself for another kind), the graph is built in memory from ``model.safetensors``
(:mod:`~langgraph_memory.embeddings.bert_onnx`) and ONNX Runtime takes the weights from the arrays
read from disk. Loading takes a few tenths of a second where sentence-transformers and torch took
about eight.

Each call of the network runs on one thread (one intra-op thread per session run on 2 cores: nothing
spins between calls): texts that fit one batch (a query, a read's few texts) on the caller's thread,
more on model streams, one thread each, sharing one session, where the batches of callers' threads
go ahead of those of the library's background threads (a read's long-term entries, of the worker's
windows: see :mod:`~langgraph_memory.embeddings.streams`). Texts are tokenised once, then cut into
batches by padded tokens.

Example:
    >>> from langgraph_memory.embeddings.minilm import default_model_dir
    >>> enc = OnnxMiniLM(default_model_dir(), batch_size=64, batch_tokens=1024)  # doctest: +SKIP
    >>> enc.embed_array(["hello"]).shape  # doctest: +SKIP
    (1, 384)
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_memory.embeddings.batching import token_batches
from langgraph_memory.embeddings.bert_onnx import (
    GRAPH_VERSION,
    build_bert,
    cache_dir,
    quantized,
    read_safetensors,
    weights_digest,
)
from langgraph_memory.embeddings.streams import Streams
from langgraph_memory.embeddings.wordpiece import WordPieceTokenizer, unsupported_tokenizer

__all__ = ["OnnxMiniLM", "unsupported_layout"]


def unsupported_layout(model_dir: Path) -> str | None:
    """Why the ONNX backend cannot run this model directory, or ``None`` when it can
    (a BERT with ``model.safetensors`` and ``tokenizer.json``, mean-pooled)."""
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        if not (model_dir / name).is_file():
            return f"{name} is missing"
    kind = unsupported_tokenizer(_tokenizer_spec(model_dir / "tokenizer.json"))
    if kind is not None and importlib.util.find_spec("tokenizers") is None:
        return f"{kind} and the tokenizers package is not installed"
    config = json.loads((model_dir / "config.json").read_text("utf-8"))
    if config.get("model_type") != "bert":
        return f"model_type is {config.get('model_type')!r}, not 'bert'"
    pooling = model_dir / "1_Pooling" / "config.json"
    if pooling.is_file():
        modes = json.loads(pooling.read_text("utf-8"))
        used = sorted(k for k, v in modes.items() if k.startswith("pooling_mode") and v)
        if used != ["pooling_mode_mean_tokens"]:
            return f"pooling is {used}, not mean pooling"
    return None


def _max_length(model_dir: Path, config: dict[str, Any]) -> int:
    """The tokens read per text: sentence-transformers' ``max_seq_length`` (256 for
    all-MiniLM-L6-v2), within the position table."""
    positions = int(config.get("max_position_embeddings", 512))
    st_config = model_dir / "sentence_bert_config.json"
    if st_config.is_file():
        value = json.loads(st_config.read_text("utf-8")).get("max_seq_length")
        if value:
            return min(int(value), positions)
    return positions


class OnnxMiniLM:
    """A mean-pooled BERT sentence encoder on ONNX Runtime (see the module docs).

    Args:
        model_dir: A sentence-transformers model directory holding
            ``model.safetensors``, ``tokenizer.json`` and ``config.json``.
        batch_size: At most this many texts go through the network at once.
        batch_tokens: At most this many padded tokens go through it at once.
        quantize: Quantise the dense layers' weights to int8 (the quantised model is
            cached under :func:`~langgraph_memory.embeddings.bert_onnx.cache_dir`, keyed by the
            weights' hash).

    Raises:
        ImportError: When onnxruntime is missing.
        ValueError: When the directory holds a model this backend does not run.
    """

    def __init__(
        self, model_dir: Path, *, batch_size: int, batch_tokens: int, quantize: bool = False
    ) -> None:
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                "The default embedder needs onnxruntime: pip install 'langgraph-memory[embed]'"
            ) from exc
        reason = unsupported_layout(model_dir)
        if reason is not None:
            raise ValueError(
                f"the ONNX backend cannot run {model_dir} ({reason}); use backend='torch'"
            )
        config = json.loads((model_dir / "config.json").read_text("utf-8"))
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.dimension = int(config["hidden_size"])
        self.max_length = _max_length(model_dir, config)
        self._encode_batch = _tokenizer(model_dir / "tokenizer.json", self.max_length)
        heads = int(config["num_attention_heads"])
        eps = float(config.get("layer_norm_eps", 1e-12))
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, (os.cpu_count() or 1) // 2)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # shape-merge warnings of the optimiser
        weights_path = model_dir / "model.safetensors"
        if quantize:
            data = _quantized_model(weights_path, heads, eps)
            self._external: tuple[Any, ...] = ()
        else:
            weights = read_safetensors(weights_path)
            model, external = build_bert(weights, heads=heads, eps=eps, external=True)
            data = model.SerializeToString()
            values = [ort.OrtValue.ortvalue_from_numpy(v) for v in external.values()]
            options.add_external_initializers(list(external), values)
            # The session reads the weights from these buffers: keep them alive.
            self._external = (weights, external, values)
        self._session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
        streams = 2 if (os.cpu_count() or 1) >= 2 else 1
        self._streams = Streams(streams, "lgm-model")

    def lengths(self, texts: Sequence[str]) -> list[int]:
        """Each text's token count as the model reads it (special tokens included)."""
        return [len(row) for row in self._encode_batch(list(texts))]

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts`` (float32, one row each, in order)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        ids = self._encode_batch(list(texts))
        batches = token_batches([len(row) for row in ids], self.batch_size, self.batch_tokens)
        if len(batches) == 1:
            # One pass of the network (a query, a read's few texts) runs on the caller's
            # thread: on the streams it queued behind another caller's batches (a read
            # waited for the worker's windows of 512, half a second each).
            return self._run(ids)
        # on the streams: a caller's batches ahead of the background worker's
        futures = self._streams.run(
            [partial(self._run, [ids[i] for i in rows]) for rows in batches]
        )
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for rows, fut in zip(batches, futures, strict=True):
            out[rows] = fut.result()
        return out

    def _run(self, ids: list[list[int]]) -> np.ndarray:
        """The network on one batch of token ids, padded to its longest."""
        width = max(len(row) for row in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for i, row in enumerate(ids):
            input_ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        feed = {
            "input_ids": input_ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(input_ids),
        }
        return np.asarray(self._session.run(None, feed)[0], dtype=np.float32)


@lru_cache(maxsize=4)
def _tokenizer_spec(path: Path) -> dict[str, Any]:
    """A model's parsed ``tokenizer.json`` (about 7 ms for the default model's: read once
    a process, for the layout checks and the tokenizer alike; nothing changes it)."""
    spec: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return spec


def _tokenizer(path: Path, max_length: int) -> Callable[[list[str]], list[list[int]]]:
    """Token ids of texts, at most ``max_length`` each, by the model's tokenizer: the
    plain-Python WordPiece for BERT's (the default model's), else ``tokenizers``.

    ``tokenizer.json`` pads every text to 128 tokens and truncates there; the model
    reads up to ``max_seq_length``, and batches are padded here to their longest.
    """
    spec = _tokenizer_spec(path)
    if unsupported_tokenizer(spec) is None:
        own = WordPieceTokenizer.from_spec(spec, max_length=max_length, source=str(path))
        return own.encode_batch
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_truncation(max_length)
    tokenizer.no_padding()
    return lambda texts: [e.ids for e in tokenizer.encode_batch(texts)]


def _quantized_model(weights_path: Path, heads: int, eps: float) -> bytes:
    """The int8 model of these weights, from the cache or built (and cached when the
    cache directory is writable)."""
    name = f"bert-{weights_digest(weights_path)}-g{GRAPH_VERSION}-int8.onnx"
    path = cache_dir() / name
    if path.is_file():
        return path.read_bytes()
    model, _ = build_bert(read_safetensors(weights_path), heads=heads, eps=eps)
    data = quantized(model)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:  # a read-only home: build it again next time
        pass
    return data
