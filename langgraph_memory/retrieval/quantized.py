"""Blocks of unit vectors as int8, scanned on ONNX Runtime to pick search candidates.

An exact scan of float32 vectors reads 1.5 KB a row (384 dimensions): 153 MB at
100,000 messages, on every query. A :class:`Int8Block` holds a fixed block of rows
as int8 codes, a quarter of the bytes, inside an ONNX Runtime session whose
``MatMulInteger`` has them as a constant: MLAS packs them once for its integer
kernels, and a query is one uint8 row against them. Its approximate cosines only
pick candidates, which the float32 rows then score exactly (``VectorMatrix.search``).
Used when ``onnxruntime`` and ``onnx`` are installed (the default embedder's
``[embed]`` extra); without them every scan is float32.

Example:
    >>> import numpy as np
    >>> codes, scale = quantize(np.array([[0.6, -0.8], [1.0, 0.0]], dtype=np.float32))
    >>> codes.tolist(), round(scale, 1)
    ([[76, -102], [127, 0]], 127.0)
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

__all__ = ["Int8Block", "int8_available", "quantize", "quantize_queries", "quantize_query"]

_LIMIT = 127
#: The query's zero point: a uint8 row ``q8 + 128`` stands for the int8 ``q8``.
_ZERO = 128

_available: bool | None = None
_available_lock = threading.Lock()


def quantize(vectors: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, float]:
    """``(codes, scale)``: rows as int8 ``round(x * scale)``, clipped to [-127, 127];
    without ``scale``, the one that puts the largest absolute component at 127."""
    vecs = np.asarray(vectors, dtype=np.float32)
    if scale is None:
        top = float(np.abs(vecs).max()) if vecs.size else 0.0
        scale = _LIMIT / top if top > 0 else 1.0
    codes = np.clip(np.rint(vecs * np.float32(scale)), -_LIMIT, _LIMIT)
    return codes.astype(np.int8), scale


def quantize_query(query: np.ndarray) -> tuple[np.ndarray, float]:
    """``(row, scale)``: the query as one uint8 row ``round(q * scale) + 128``,
    ``scale`` putting its largest absolute component at 127."""
    rows, scales = quantize_queries(np.asarray(query, dtype=np.float32).reshape(1, -1))
    return rows, float(scales[0])


def quantize_queries(queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, scales)``: each query as :func:`quantize_query` makes it, one row each."""
    q = np.asarray(queries, dtype=np.float32)
    top = np.abs(q).max(axis=1).astype(np.float64)
    scales = np.where(top > 0, _LIMIT / np.where(top > 0, top, 1.0), 1.0)
    rows = np.rint(q * scales.astype(np.float32)[:, None]) + _ZERO
    return rows.astype(np.uint8), scales


class Int8Block:
    """A block of rows as int8 codes in an ONNX Runtime session (one thread a call, no
    spinning: the caller spreads the blocks over its own threads).

    Args:
        vectors: The block's float32 rows (unit length).
        scale: The codes' scale (see :func:`quantize`). Blocks of one matrix share it,
            so equal rows get equal codes and tie in every block.
    """

    def __init__(self, vectors: np.ndarray, scale: float) -> None:
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper

        codes, self.scale = quantize(vectors, scale)
        self.rows, dim = codes.shape
        graph = helper.make_graph(
            [helper.make_node("MatMulInteger", ["query", "codes", "zero"], ["scores"])],
            "int8_block",
            [helper.make_tensor_value_info("query", TensorProto.UINT8, ["queries", dim])],
            [helper.make_tensor_value_info("scores", TensorProto.INT32, ["queries", self.rows])],
            [
                numpy_helper.from_array(np.ascontiguousarray(codes.T), "codes"),
                numpy_helper.from_array(np.array(_ZERO, dtype=np.uint8), "zero"),
            ],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session: Any = ort.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )

    def cosines(self, row: np.ndarray, query_scale: float) -> np.ndarray:
        """Approximate cosines of the block's rows with a query from :func:`quantize_query`."""
        return self.cosines_many(row, np.array([query_scale]))[0]

    def cosines_many(self, rows: np.ndarray, query_scales: np.ndarray) -> np.ndarray:
        """Approximate cosines of the block's rows (columns) with queries from
        :func:`quantize_queries` (rows), in one pass over the codes: the scan is bound by
        reading them, so a few queries cost about what one does. Each row equals what
        :meth:`cosines` gives for its query alone (the integer products are exact)."""
        out = np.asarray(self._session.run(None, {"query": rows})[0], dtype=np.float32)
        scales = (np.asarray(query_scales, dtype=np.float64) * self.scale).astype(np.float32)
        return out / scales[:, None]


def int8_available() -> bool:
    """Whether :class:`Int8Block` works here (ONNX Runtime and ``onnx`` installed, and
    an integer kernel that computes a probe right)."""
    global _available
    if _available is None:
        with _available_lock:
            if _available is None:
                try:
                    vecs = np.array([[0.6, -0.8], [1.0, 0.0]], dtype=np.float32)
                    row, scale = quantize_query(np.array([1.0, 0.0], dtype=np.float32))
                    got = Int8Block(vecs, 127.0).cosines(row, scale)
                    _available = bool(np.allclose(got, [0.6, 1.0], atol=0.01))
                except Exception:  # not installed, or no kernel for this CPU
                    _available = False
    return _available
