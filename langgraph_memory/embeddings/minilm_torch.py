"""The torch backend of the default model: sentence-transformers on PyTorch.

Loaded from disk with the Hugging Face hub switched off, so nothing is downloaded at
run time. The module holds how the model is run fast on a few CPU cores with torch:
batches cut by padded tokens, two single-thread model streams, and a traced network that calls back
into Python once per batch. :class:`~langgraph_memory.embeddings.minilm.MiniLMEmbeddings` uses it
with ``backend="torch"``; the default backend is ONNX Runtime
(:mod:`~langgraph_memory.embeddings.minilm_onnx`).
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np

from langgraph_memory.embeddings.batching import token_batches

__all__ = ["TorchMiniLM"]


class TorchMiniLM:
    """all-MiniLM-L6-v2 run by sentence-transformers on PyTorch (``backend="torch"``).

    Batches run on model threads (two streams sharing the intra-op threads when
    there are two or more) and single texts (queries) on a query thread with one
    PyTorch intra-op thread; both call the network through a TorchScript trace
    when it gives the vectors ``SentenceTransformer.encode`` gives (checked on load).

    Args:
        model_dir: A sentence-transformers model directory.
        device: Torch device (``"cpu"`` by default).
        batch_size: At most this many texts go through the network at once.
        batch_tokens: At most this many padded tokens go through it at once.

    Raises:
        ImportError: When sentence-transformers is missing (install
            ``langgraph-memory[embed-torch]``).
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        device: str = "cpu",
        batch_size: int = 64,
        batch_tokens: int = 1024,
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                "The torch backend needs sentence-transformers: "
                "pip install 'langgraph-memory[embed-torch]'"
            ) from exc
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        # Batches run on one thread. PyTorch's OpenMP gives each calling thread its own
        # team of worker threads, and an idle team keeps spinning: with queries embedded
        # on the caller's thread and documents on the background worker, two teams fought
        # over 2 cores and the worker embedded at ~60 % speed.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lgm-model")
        self._model = self._executor.submit(
            SentenceTransformer, str(model_dir), device=device, local_files_only=True
        ).result()
        # One text (a query) runs on a thread of its own with one OpenMP thread: no team
        # spins after it, so the vector search that follows keeps its core (a 2-thread
        # query made the next one up to 10x slower at p95 on 2 cores), and a query never
        # waits for a batch of documents.
        self._query_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lgm-query")
        self._single: Callable[[str], np.ndarray] | None = None
        self._batch: Callable[..., np.ndarray] = self._encode_general
        self._lengths = _token_lengths(self._model)
        # Batches of documents run on model streams: one thread each, with its own
        # tokenizer and its share of the intra-op threads (see _split_streams).
        self._streams: list[tuple[ThreadPoolExecutor, str]] = [(self._executor, "batch")]
        count = self._query_executor.submit(_one_intra_op_thread, self._executor).result()
        if count:
            paths = self._executor.submit(self._direct_paths).result()
            if paths is not None:
                self._batch, self._single = paths
                if count >= 2:
                    self._streams = _split_streams(self._executor, count)

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

        One text (a query) runs on the query thread. More go to the model streams
        in batches cut down the token-length order (see :func:`_token_batches`),
        each batch to the stream with the fewest padded tokens queued so far, so
        that the streams finish together.
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        texts = list(texts)
        if len(texts) == 1 and self._single is not None:
            return self._query_executor.submit(self._single, texts[0]).result()
        streams = self._streams
        lengths = self._lengths(texts)
        queued = [0] * len(streams)
        # Every batch is queued at once: a stream never waits for another between them.
        pending = []
        for rows in token_batches(lengths, self.batch_size, self.batch_tokens):
            j = queued.index(min(queued))
            queued[j] += len(rows) * lengths[rows[0]]
            thread, key = streams[j]
            pending.append((rows, thread.submit(self._batch, [texts[i] for i in rows], key)))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for rows, fut in pending:
            out[rows] = fut.result()
        return out

    def _direct_paths(
        self,
    ) -> tuple[Callable[..., np.ndarray], Callable[[str], np.ndarray]] | None:
        """Encoders for a batch and for one text (a query) that call the network
        directly, or ``None`` to keep ``SentenceTransformer.encode`` for both.

        They tokenise, then run the network, mean-pool and normalise in one module,
        traced with TorchScript when that works: a traced call takes Python's GIL back
        once, where the eager one takes it back after each of its ~140 operations and
        waits up to the 5 ms switch interval each time another thread runs Python (a
        query took 475 ms instead of 13 beside a busy thread; ingestion's model
        thread shares the GIL with ``add_message`` and the worker). ``encode`` also
        spends about 2 of a query's 13 ms on batching machinery. Each path is used
        only when it gives the same vectors as ``encode`` on probe texts (one alone,
        and a padded batch), so a model with another pooling or layout keeps
        ``encode``.
        """
        try:
            import torch

            model = self._model
            network: Any = model[0].auto_model
            max_len = int(model.max_seq_length or 512)
            # One tokenizer per thread: a fast tokenizer is not safe to share that way.
            tokenizers = {
                "batch": model.tokenizer,
                "batch1": copy.deepcopy(model.tokenizer),  # the second model stream's
                "one": copy.deepcopy(model.tokenizer),
            }
        except Exception:  # another model layout: encode
            return None

        def tokenise(which: str, texts: list[str]) -> Any:
            return tokenizers[which](
                texts, padding=True, truncation=True, max_length=max_len, return_tensors="pt"
            )

        probes = [
            "A probe sentence, checked once: 一个探针句子。",
            "short",
            "a longer probe that needs no padding, unlike the two others in its batch",
        ]
        example = tokenise("batch", probes[1:])
        keys = list(example.keys())
        if "attention_mask" not in keys:
            return None
        eager = _mean_pooled(network, keys)
        expected = self._encode_general(probes)
        for candidate in (_trace(eager, tuple(example[k] for k in keys)), eager):
            if candidate is None:
                continue

            def encode(texts: list[str], which: str = "batch", net: Any = candidate) -> np.ndarray:
                enc = tokenise(which, texts)
                with torch.inference_mode():
                    unit = net(*(enc[k] for k in keys))
                return np.asarray(unit.numpy(), dtype=np.float32)

            try:
                same = np.allclose(encode(probes), expected, atol=1e-5) and np.allclose(
                    encode(probes[:1], "one"), expected[:1], atol=1e-5
                )
            except Exception:
                same = False
            if same:
                return encode, partial(_one_text, encode)
        return None

    def _encode_general(self, texts: list[str], which: str = "batch") -> np.ndarray:
        arr = self._model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(arr, dtype=np.float32)


def _token_lengths(model: Any) -> Callable[[list[str]], list[int]]:
    """A function giving the token count (special tokens included, truncated as
    the model truncates) of each text, with a tokenizer of its own; character
    counts when ``model`` has no usable tokenizer.

    It only orders and groups texts, so any error falls back to characters.
    """
    try:
        tokenizer = copy.deepcopy(model.tokenizer)
        max_len = int(model.max_seq_length or 512)
    except Exception:  # another model layout
        return _char_lengths
    # A fast tokenizer is not safe to call from two threads at once, and the worker
    # embeds from two.
    lock = threading.Lock()

    def lengths(texts: list[str]) -> list[int]:
        try:
            with lock:
                ids = tokenizer(texts, truncation=True, max_length=max_len)["input_ids"]
            return [max(len(row), 1) for row in ids]
        except Exception:
            return _char_lengths(texts)

    return lengths


def _char_lengths(texts: list[str]) -> list[int]:
    return [max(len(t), 1) for t in texts]


def _mean_pooled(network: Any, keys: list[str]) -> Any:
    """A module: ``network``'s last hidden states mean-pooled over the attention mask
    and L2-normalised (what sentence-transformers does for this model), taking the
    tokenizer's outputs in the order of ``keys``."""
    import torch

    class MeanPooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.network = network

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            named = dict(zip(keys, inputs, strict=True))
            out = self.network(**named)
            hidden = out[0] if isinstance(out, tuple | list) else out["last_hidden_state"]
            mask = named["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    return MeanPooled().eval()


def _trace(module: Any, example: tuple[Any, ...]) -> Any:
    """``module`` traced by TorchScript on ``example`` (a padded batch, so the
    attention mask stays in the graph), or ``None`` when tracing fails."""
    import warnings

    import torch

    try:
        with warnings.catch_warnings():
            # Deprecated in favour of torch.compile/export, which run no faster here
            # (export's module runs op by op in Python) or need a C compiler.
            warnings.simplefilter("ignore")
            with torch.inference_mode():
                return torch.jit.trace(module, example, strict=False)
    except Exception:
        return None


def _one_text(encode: Callable[..., np.ndarray], text: str) -> np.ndarray:
    """One text through ``encode`` with the query thread's tokenizer."""
    return encode([text], "one")


def _one_intra_op_thread(model_thread: ThreadPoolExecutor) -> int:
    """Run on the query thread: give it one PyTorch intra-op (OpenMP) thread, and
    leave the model thread and threads started later with the count they had.

    PyTorch keeps the count per calling thread, and ``torch.set_num_threads`` also
    sets the default for threads that have not used torch yet, which the model thread
    puts back. Returns the model thread's count, or 0 without torch (then the query
    path is not used).
    """
    try:
        import torch
    except ImportError:  # pragma: no cover - sentence-transformers needs torch
        return 0
    count = model_thread.submit(torch.get_num_threads).result()
    torch.set_num_threads(1)
    # A thread takes the default on its first use of torch: use it now, while it is 1.
    torch.get_num_threads()
    model_thread.submit(torch.set_num_threads, count).result()
    return int(count)


def _use_threads(count: int) -> None:
    """Run on a thread: give it ``count`` PyTorch intra-op threads, fixed now."""
    import torch

    torch.set_num_threads(count)
    torch.get_num_threads()


def _split_streams(model_thread: ThreadPoolExecutor, count: int) -> list[tuple[Any, str]]:
    """Two model streams sharing the model thread's ``count`` intra-op threads.

    One stream of two OpenMP threads loses whenever anything else runs: a thread
    of its team taken off its core leaves the other spinning at the next barrier,
    ~140 times per batch. During ingestion ``add_message`` and the worker's placing
    run beside the model, and the 2-thread stream burnt 20-30 % more CPU per text
    than when it ran alone. Two streams of one thread each share no barrier and
    each keeps its core busy while the other is off it: ingesting 10,000 messages
    on 2 cores took 76-85 CPU-s instead of 88-99, and alone the two streams embed
    as fast as one stream of two threads (310 vs 336, 284 vs 279 texts/s).
    The threads started later get ``count`` again by default.
    """
    import threading

    import torch

    second = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lgm-model-2")
    second.submit(_use_threads, count // 2).result()
    model_thread.submit(_use_threads, count - count // 2).result()
    # Put the default back from a thread of its own (the call sets the caller's count).
    reset = threading.Thread(target=torch.set_num_threads, args=(count,))
    reset.start()
    reset.join()
    return [(model_thread, "batch"), (second, "batch1")]
