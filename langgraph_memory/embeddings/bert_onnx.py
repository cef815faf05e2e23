"""A BERT encoder as an ONNX graph, built from a sentence-transformers model's weights.

The graph is what sentence-transformers computes for all-MiniLM-L6-v2: word, position
and token-type embeddings, LayerNorm, the encoder layers (multi-head self-attention
with an additive mask, an erf GELU feed-forward, a residual LayerNorm after each),
then the mean over the attention mask and L2 normalisation. It takes ``input_ids``,
``attention_mask`` and ``token_type_ids`` (int64, batch x tokens) and gives
``sentence_embedding`` (float32, batch x hidden).

The weights are read from ``model.safetensors`` (its header parsed here, so no ``safetensors``
package is needed) and the graph is written as ONNX protobuf by
:mod:`~langgraph_memory.embeddings.onnx_proto`, in memory (no ``onnx`` package): nothing is exported
by PyTorch and nothing is downloaded. Dynamic int8 quantisation of the dense layers is optional
(:func:`quantized`).

Example:
    >>> import numpy as np
    >>> w = tiny_weights(hidden=8, heads=2, layers=1, vocab=10)
    >>> model, external = build_bert(w, heads=2, eps=1e-12)
    >>> [i.name for i in model.graph.input], model.graph.output[0].name
    (['input_ids', 'attention_mask', 'token_type_ids'], 'sentence_embedding')
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_memory.embeddings.onnx_proto import (
    FLOAT,
    INT64,
    Graph,
    Model,
    Node,
    Tensor,
    ValueInfo,
)

__all__ = [
    "GRAPH_VERSION",
    "build_bert",
    "cache_dir",
    "quantized",
    "read_safetensors",
    "tiny_weights",
    "weights_digest",
]

#: Bump when the graph changes, so cached quantised models are rebuilt.
GRAPH_VERSION = 1

_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32}


def read_safetensors(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The tensors of a ``.safetensors`` file as numpy arrays (read-only views of one
    buffer read from disk).

    Raises:
        ValueError: On a dtype other than F32, F16, I64 or I32.
    """
    data = Path(path).read_bytes()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    buf = memoryview(data)[8 + size :]
    out: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(info["dtype"])
        if dtype is None:
            raise ValueError(f"{path}: tensor {name!r} has unsupported dtype {info['dtype']}")
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(buf[start:end], dtype=dtype).reshape(info["shape"])
    return out


def weights_digest(path: str | os.PathLike[str]) -> str:
    """A short SHA-256 of a weights file (keys the cached quantised model)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """Where derived models are cached: ``$XDG_CACHE_HOME/langgraph-memory`` (or
    ``~/.cache/langgraph-memory``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "langgraph-memory"


class _Graph:
    """Nodes and initializers of a graph being built, with fresh names.

    With ``external``, initializers of more than 1 KiB are declared external and
    collected in :attr:`external` for ONNX Runtime to take from memory
    (``SessionOptions.add_external_initializers``): the ~90 MB of weights are then
    neither copied into the protobuf nor parsed back out of it.
    """

    def __init__(self, external: bool) -> None:
        self.nodes: list[Node] = []
        self.inits: list[Tensor] = []
        self.external: dict[str, np.ndarray] | None = {} if external else None
        self._n = 0

    def const(self, name: str, value: np.ndarray) -> str:
        value = np.ascontiguousarray(value)
        if self.external is None or value.nbytes <= 1024:
            self.inits.append(Tensor(name, value))
            return name
        self.inits.append(Tensor(name, value, external=True))
        self.external[name] = value
        return name

    def op(self, kind: str, inputs: list[str], name: str = "", **attrs: Any) -> str:
        self._n += 1
        out = f"{name or kind.lower()}_{self._n}"
        self.nodes.append(Node(kind, inputs, [out], name=out, attrs=attrs))
        return out

    def dense(self, x: str, w: Mapping[str, np.ndarray], prefix: str) -> str:
        """``x @ W.T + b`` for the torch Linear ``prefix`` (its weight stored transposed)."""
        weight = self.const(f"{prefix}.weight_t", w[f"{prefix}.weight"].T)
        bias = self.const(f"{prefix}.bias", w[f"{prefix}.bias"])
        return self.op("Add", [self.op("MatMul", [x, weight], name=f"{prefix}.matmul"), bias])

    def norm(self, x: str, w: Mapping[str, np.ndarray], prefix: str, eps: float) -> str:
        scale = self.const(f"{prefix}.weight", w[f"{prefix}.weight"])
        bias = self.const(f"{prefix}.bias", w[f"{prefix}.bias"])
        return self.op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=eps)


def build_bert(
    weights: Mapping[str, np.ndarray], *, heads: int, eps: float, external: bool = False
) -> tuple[Model, dict[str, np.ndarray]]:
    """An ONNX model (opset 18; :class:`~langgraph_memory.embeddings.onnx_proto.Model`) of
    the BERT sentence encoder with these
    weights (names as in a Hugging Face ``BertModel``), mean pooling and L2
    normalisation (see the module docs), and the initializers it leaves external
    (empty unless ``external``).

    Args:
        weights: The model's tensors by name.
        heads: Attention heads.
        eps: The LayerNorm epsilon.
        external: Leave the large weights out of the protobuf (see :class:`_Graph`).
    """
    w = weights
    hidden = int(w["embeddings.word_embeddings.weight"].shape[1])
    layers = 1 + max(int(k.split(".")[2]) for k in w if k.startswith("encoder.layer."))
    g = _Graph(external)
    i64 = np.int64
    ids, mask, types = "input_ids", "attention_mask", "token_type_ids"

    # Embeddings: word + token type, then + position (Hugging Face's order), LayerNorm.
    word = g.op("Gather", [g.const("word", w["embeddings.word_embeddings.weight"]), ids])
    kind = g.op("Gather", [g.const("type", w["embeddings.token_type_embeddings.weight"]), types])
    length = g.op("Shape", [ids], start=1, end=2)
    zero = g.const("zero", np.array([0], i64))
    table = g.const("position", w["embeddings.position_embeddings.weight"])
    pos = g.op("Slice", [table, zero, length, zero])
    x = g.norm(g.op("Add", [g.op("Add", [word, kind]), pos]), w, "embeddings.LayerNorm", eps)

    # Additive mask, batch x 1 x 1 x tokens: 0 where attended, float32's minimum elsewhere.
    maskf = g.op("Cast", [mask], to=FLOAT)
    blocked = g.op("Sub", [g.const("onef", np.array(1.0, np.float32)), maskf])
    lowest = g.const("lowest", np.array(np.finfo(np.float32).min, np.float32))
    additive = g.op(
        "Unsqueeze", [g.op("Mul", [blocked, lowest]), g.const("axes12", np.array([1, 2], i64))]
    )

    size = hidden // heads
    split = g.const("split_heads", np.array([0, 0, heads, size], i64))
    merge = g.const("merge_heads", np.array([0, 0, hidden], i64))
    scale = g.const("scale", np.array(1.0 / np.sqrt(size), np.float32))
    half = g.const("half", np.array(0.5, np.float32))
    root2 = g.const("sqrt2", np.array(np.sqrt(2.0), np.float32))

    def heads_of(x: str, prefix: str, perm: list[int]) -> str:
        """A projection split into heads: batch x heads x tokens x size (``perm``)."""
        projected = g.dense(x, w, prefix)
        return g.op("Transpose", [g.op("Reshape", [projected, split])], perm=perm)

    for n in range(layers):
        p = f"encoder.layer.{n}"
        q = heads_of(x, f"{p}.attention.self.query", [0, 2, 1, 3])
        k = heads_of(x, f"{p}.attention.self.key", [0, 2, 3, 1])
        v = heads_of(x, f"{p}.attention.self.value", [0, 2, 1, 3])
        scores = g.op("Mul", [g.op("MatMul", [q, k], name=f"{p}.scores"), scale])
        probs = g.op("Softmax", [g.op("Add", [scores, additive])], axis=-1)
        context = g.op("MatMul", [probs, v], name=f"{p}.context")
        context = g.op("Reshape", [g.op("Transpose", [context], perm=[0, 2, 1, 3]), merge])
        attended = g.dense(context, w, f"{p}.attention.output.dense")
        x = g.norm(g.op("Add", [attended, x]), w, f"{p}.attention.output.LayerNorm", eps)
        h = g.dense(x, w, f"{p}.intermediate.dense")
        erf = g.op("Erf", [g.op("Div", [h, root2])])
        h = g.op("Mul", [g.op("Mul", [h, half]), g.op("Add", [erf, "onef"])])
        out = g.dense(h, w, f"{p}.output.dense")
        x = g.norm(g.op("Add", [out, x]), w, f"{p}.output.LayerNorm", eps)

    # Mean over the attended tokens, then L2 normalisation (torch's eps clamps both).
    weights3 = g.op("Unsqueeze", [maskf, g.const("axis2", np.array([2], i64))])
    axis1 = g.const("axis1", np.array([1], i64))
    total = g.op("ReduceSum", [g.op("Mul", [x, weights3]), axis1], keepdims=0)
    count = g.op("ReduceSum", [weights3, axis1], keepdims=0)
    count = g.op("Max", [count, g.const("tiny", np.array(1e-9, np.float32))])
    pooled = g.op("Div", [total, count])
    norm = g.op("ReduceL2", [pooled, g.const("axis_last", np.array([-1], i64))], keepdims=1)
    norm = g.op("Max", [norm, g.const("eps_norm", np.array(1e-12, np.float32))])
    g.nodes.append(Node("Div", [pooled, norm], ["sentence_embedding"]))

    batch_tokens = ["batch", "tokens"]
    graph = Graph(
        "bert_sentence_encoder",
        g.nodes,
        [ValueInfo(n, INT64, batch_tokens) for n in (ids, mask, types)],
        [ValueInfo("sentence_embedding", FLOAT, ["batch", hidden])],
        g.inits,
    )
    return Model(graph, opset=18, producer_name="langgraph_memory"), g.external or {}


def quantized(model: Model) -> bytes:
    """``model`` with its dense layers' weights quantised to int8 (ONNX Runtime's
    dynamic quantisation: activations are quantised per batch at run time), serialised.
    ONNX Runtime's quantiser needs the ``onnx`` package (``pip install onnx``).

    Only the products with a weight are quantised, per output channel (one scale
    per tensor gave cosines down to 0.90 against the fp32 vectors, per channel
    0.98); the attention products of two activations stay float32.
    """
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:  # onnx missing: the quantiser imports it
        raise ImportError(
            f"int8 quantisation (quantize=True) needs the onnx package: pip install onnx ({exc})"
        ) from exc

    attention = [n.name for n in model.graph.node if ".scores_" in n.name or ".context_" in n.name]
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
        src.write_bytes(model.SerializeToString())
        quantize_dynamic(
            src,
            dst,
            op_types_to_quantize=["MatMul"],
            nodes_to_exclude=attention,
            weight_type=QuantType.QInt8,
            per_channel=True,
        )
        return dst.read_bytes()


def tiny_weights(*, hidden: int, heads: int, layers: int, vocab: int) -> dict[str, np.ndarray]:
    """Random weights of a small BERT with these sizes (for tests and examples)."""
    rng = np.random.default_rng(0)

    def t(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.2, size=shape).astype(np.float32)

    w = {
        "embeddings.word_embeddings.weight": t(vocab, hidden),
        "embeddings.position_embeddings.weight": t(64, hidden),
        "embeddings.token_type_embeddings.weight": t(2, hidden),
        "embeddings.LayerNorm.weight": 1 + t(hidden),
        "embeddings.LayerNorm.bias": t(hidden),
    }
    dense = {
        "attention.self.query": (hidden, hidden),
        "attention.self.key": (hidden, hidden),
        "attention.self.value": (hidden, hidden),
        "attention.output.dense": (hidden, hidden),
        "intermediate.dense": (4 * hidden, hidden),
        "output.dense": (hidden, 4 * hidden),
    }
    for n in range(layers):
        for name, shape in dense.items():
            w[f"encoder.layer.{n}.{name}.weight"] = t(*shape)
            w[f"encoder.layer.{n}.{name}.bias"] = t(shape[0])
        for name in ("attention.output.LayerNorm", "output.LayerNorm"):
            w[f"encoder.layer.{n}.{name}.weight"] = 1 + t(hidden)
            w[f"encoder.layer.{n}.{name}.bias"] = t(hidden)
    return w
