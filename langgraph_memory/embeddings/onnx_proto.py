"""The few ONNX protobuf messages :mod:`.bert_onnx` writes, encoded here without the
``onnx`` package (31 MB, with ``protobuf`` and ``ml_dtypes``, that the default embedder
would otherwise install only to serialise one graph).

The field numbers and types are those of ``onnx.proto`` (a proto2 file): a
:class:`Model` holds a :class:`Graph` of :class:`Node` s with their attributes, tensor
initializers (raw little-endian data, or external: ONNX Runtime takes them from memory)
and typed graph inputs and outputs. ``SerializeToString()`` gives the bytes ONNX
Runtime's ``InferenceSession`` reads; ``tests/embeddings/test_onnx_proto.py`` checks
that ``onnx`` itself parses them into the messages its own helpers build.

Example:
    >>> import numpy as np
    >>> g = Graph("g", [Node("Relu", ["x"], ["y"], "relu")], [ValueInfo("x", FLOAT, ["n"])],
    ...           [ValueInfo("y", FLOAT, ["n"])], [])
    >>> Model(g, opset=18).SerializeToString()[:2]
    b'\\x08\\x08'
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["FLOAT", "INT64", "Tensor", "Node", "ValueInfo", "Graph", "Model", "tensor_type"]

#: ``TensorProto.DataType`` values.
FLOAT, INT64 = 1, 7
_DTYPES = {np.dtype(np.float32): FLOAT, np.dtype(np.int64): INT64}
#: ``AttributeProto.AttributeType`` values.
_ATTR_FLOAT, _ATTR_INT, _ATTR_INTS = 1, 2, 7
#: The IR version written (ONNX 1.13; every ONNX Runtime from 1.14 reads it).
IR_VERSION = 8


def tensor_type(dtype: np.dtype) -> int:
    """The ONNX data type of a numpy dtype (float32 and int64, the graph's two)."""
    try:
        return _DTYPES[np.dtype(dtype)]
    except KeyError:
        raise ValueError(f"no ONNX data type for {dtype} here") from None


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # a negative int64 is written as its two's complement
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _int(number: int, value: int) -> bytes:
    return _key(number, 0) + _varint(int(value))


def _bytes(number: int, value: bytes) -> bytes:
    return _key(number, 2) + _varint(len(value)) + value


def _str(number: int, value: str) -> bytes:
    return _bytes(number, value.encode("utf-8"))


@dataclass
class Tensor:
    """An initializer: ``value`` as raw data, or only described (``external``: its data
    handed to ONNX Runtime from memory, as ``onnx`` marks it, location ``"memory"``)."""

    name: str
    value: np.ndarray
    external: bool = False

    def encode(self) -> bytes:
        value = np.ascontiguousarray(self.value)
        out = b"".join(_int(1, d) for d in value.shape)
        out += _int(2, tensor_type(value.dtype)) + _str(8, self.name)
        if not self.external:
            return out + _bytes(9, value.astype(value.dtype.newbyteorder("<")).tobytes())
        where = {"location": "memory", "offset": "0", "length": str(value.nbytes)}
        out += b"".join(_bytes(13, _str(1, k) + _str(2, v)) for k, v in where.items())
        return out + _int(14, 1)  # data_location = EXTERNAL


@dataclass
class Node:
    """An operator: its inputs, outputs, name and attributes (int, float or ints)."""

    op_type: str
    input: list[str]
    output: list[str]
    name: str = ""
    attrs: Mapping[str, int | float | Sequence[int]] = field(default_factory=dict)

    def encode(self) -> bytes:
        out = b"".join(_str(1, i) for i in self.input)
        out += b"".join(_str(2, o) for o in self.output)
        if self.name:
            out += _str(3, self.name)
        out += _str(4, self.op_type)
        for key, value in sorted(self.attrs.items()):
            out += _bytes(5, _attribute(key, value))
        return out


def _attribute(name: str, value: int | float | Sequence[int]) -> bytes:
    out = _str(1, name)
    if isinstance(value, bool) or isinstance(value, (int, np.integer)):
        return out + _int(3, int(value)) + _int(20, _ATTR_INT)
    if isinstance(value, (float, np.floating)):
        return out + _key(2, 5) + struct.pack("<f", float(value)) + _int(20, _ATTR_FLOAT)
    if isinstance(value, Sequence) and all(isinstance(v, (int, np.integer)) for v in value):
        return out + b"".join(_int(8, int(v)) for v in value) + _int(20, _ATTR_INTS)
    raise TypeError(f"attribute {name!r}: no encoding for {value!r}")


@dataclass
class ValueInfo:
    """A graph input or output: its name, element type and dimensions (a number, or a
    name for a dynamic one)."""

    name: str
    elem_type: int
    shape: Sequence[int | str]

    def encode(self) -> bytes:
        dims = b"".join(
            _bytes(1, _str(2, d) if isinstance(d, str) else _int(1, d)) for d in self.shape
        )
        tensor = _int(1, self.elem_type) + _bytes(2, dims)
        return _str(1, self.name) + _bytes(2, _bytes(1, tensor))


@dataclass
class Graph:
    """A graph: its nodes in order, name, inputs, outputs and initializers."""

    name: str
    node: list[Node]
    input: list[ValueInfo]
    output: list[ValueInfo]
    initializer: list[Tensor]

    def encode(self) -> bytes:
        out = b"".join(_bytes(1, n.encode()) for n in self.node)
        out += _str(2, self.name)
        out += b"".join(_bytes(5, t.encode()) for t in self.initializer)
        out += b"".join(_bytes(11, v.encode()) for v in self.input)
        return out + b"".join(_bytes(12, v.encode()) for v in self.output)


@dataclass
class Model:
    """A model: one graph and the default domain's opset."""

    graph: Graph
    opset: int
    producer_name: str = ""

    def SerializeToString(self) -> bytes:  # noqa: N802 - the name protobuf messages use
        """The model as ONNX protobuf bytes."""
        out = _int(1, IR_VERSION)
        if self.producer_name:
            out += _str(2, self.producer_name)
        out += _bytes(7, self.graph.encode())
        return out + _bytes(8, _str(1, "") + _int(2, self.opset))
