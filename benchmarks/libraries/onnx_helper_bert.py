"""``bert_onnx.build_bert`` with the ``onnx`` package's protos in place of ``onnx_proto``'s.

:func:`build_with_onnx_helper` runs the package's graph builder with its ``Node``,
``Tensor``, ``ValueInfo``, ``Graph`` and ``Model`` names bound (for the call only) to
functions that return protos made by ``onnx.helper`` / ``onnx.numpy_helper``: the same
nodes, attributes and initializers, the large weights left external as ours does (ONNX
Runtime takes them from memory). Kept light (``onnx`` is imported by the call), so a
fresh interpreter can import this module without skewing what it times.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def build_with_onnx_helper(
    weights: Mapping[str, np.ndarray], heads: int, eps: float
) -> tuple[Any, dict[str, np.ndarray]]:
    """The ``onnx.ModelProto`` of ``build_bert(weights, heads, eps, external=True)`` and
    its external initializers."""
    from onnx import TensorProto, helper, numpy_helper

    import langgraph_memory.embeddings.bert_onnx as bo

    def node(
        op: str,
        inputs: Sequence[str],
        outputs: Sequence[str],
        name: str = "",
        attrs: Mapping[str, Any] | None = None,
    ) -> Any:
        return helper.make_node(op, inputs, outputs, name=name or None, **(attrs or {}))

    def tensor(name: str, value: np.ndarray, external: bool = False) -> Any:
        value = np.ascontiguousarray(value)
        if not external:
            return numpy_helper.from_array(value, name)
        t = TensorProto()
        t.name = name
        t.data_type = helper.np_dtype_to_tensor_dtype(value.dtype)
        t.dims.extend(value.shape)
        for k, v in (("location", "memory"), ("offset", "0"), ("length", str(value.nbytes))):
            e = t.external_data.add()
            e.key = k
            e.value = v
        t.data_location = TensorProto.EXTERNAL
        return t

    def value_info(name: str, elem: int, shape: Sequence[Any]) -> Any:
        return helper.make_tensor_value_info(name, elem, list(shape))

    def graph(name: str, nodes: list, inputs: list, outputs: list, inits: list) -> Any:
        return helper.make_graph(nodes, name, inputs, outputs, inits)

    def model(graph: Any, opset: int, producer_name: str = "") -> Any:
        m = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", opset)], producer_name=producer_name
        )
        m.ir_version = 8
        return m

    names = ("Node", "Tensor", "ValueInfo", "Graph", "Model")
    saved = {k: getattr(bo, k) for k in names}
    for k, f in zip(names, (node, tensor, value_info, graph, model), strict=True):
        setattr(bo, k, f)
    try:
        return bo.build_bert(weights, heads=heads, eps=eps, external=True)
    finally:
        for k, v in saved.items():
            setattr(bo, k, v)
