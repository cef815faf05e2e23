"""Our ONNX protobuf writer (``embeddings/onnx_proto.py`` + ``bert_onnx.py``) vs the ``onnx``
package's helpers building the very same graph (:mod:`onnx_helper_bert`), and the model
load against sentence-transformers.

Run (from the repository root)::

    python benchmarks/libraries/run.py onnx [--reps 5] [--texts 200] [--quick]

Prints (fresh interpreter per timing, cases interleaved, medians):

- the two serialisations: byte-identical? equal as parsed ONNX messages? does
  ``onnx.checker`` accept ours? ORT outputs of the two graphs equal?
- ours vs sentence-transformers vectors on LoCoMo turns: max abs diff, min cosine
- cold model load to the first vector: ours (``MiniLMEmbeddings(backend="onnx")``), ours
  step by step (read_safetensors, build_bert, SerializeToString, ORT session), the same
  with the onnx-helper graph, sentence-transformers ``SentenceTransformer(dir)``
- import time of onnx; installed sizes

Without ``onnx`` the comparison is skipped; without sentence-transformers, its parts.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from common import added_footprint, all_turn_texts, fresh_python, import_seconds, med, missing
from common import subprocess_env as env_for

HERE = Path(__file__).resolve().parent

# One fresh interpreter: time each step of a model load up to the first vector.
COLD = r"""
import json, sys, time, os
which, model_dir, here = sys.argv[1:4]
sys.path.insert(0, here)
import numpy as np
import langgraph_memory.embeddings  # the package side is imported in every case
from onnx_helper_bert import build_with_onnx_helper  # imports only numpy (onnx when called)
T = {}
t0 = time.perf_counter()
if which == "ours":
    from langgraph_memory.embeddings import MiniLMEmbeddings
    m = MiniLMEmbeddings(model_dir, backend="onnx")
    T["load"] = time.perf_counter() - t0
    m.embed_query("trip to Kyoto")
elif which in ("ours_build", "helper_build"):
    import onnxruntime as ort
    from langgraph_memory.embeddings.bert_onnx import read_safetensors, build_bert
    if which == "helper_build":
        import onnx
    t1 = time.perf_counter(); T["import"] = t1 - t0
    w = read_safetensors(os.path.join(model_dir, "model.safetensors"))
    t2 = time.perf_counter(); T["read_safetensors"] = t2 - t1
    if which == "ours_build":
        model, ext = build_bert(w, heads=12, eps=1e-12, external=True)
    else:
        model, ext = build_with_onnx_helper(w, 12, 1e-12)
    t3 = time.perf_counter(); T["build"] = t3 - t2
    data = model.SerializeToString()
    t4 = time.perf_counter(); T["serialize"] = t4 - t3
    o = ort.SessionOptions(); o.intra_op_num_threads = 1; o.log_severity_level = 3
    vals = [ort.OrtValue.ortvalue_from_numpy(v) for v in ext.values()]
    o.add_external_initializers(list(ext), vals)
    s = ort.InferenceSession(data, o, providers=["CPUExecutionProvider"])
    t5 = time.perf_counter(); T["session"] = t5 - t4
    T["load"] = t5 - t0
    ids = np.array([[101, 4440, 2000, 21888, 102]], dtype=np.int64)
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids)}
    s.run(None, feed)
elif which == "st":
    from sentence_transformers import SentenceTransformer
    t1 = time.perf_counter(); T["import"] = t1 - t0
    m = SentenceTransformer(model_dir, device="cpu", local_files_only=True)
    T["load"] = time.perf_counter() - t0
    m.encode(["trip to Kyoto"])
T["first_vector"] = time.perf_counter() - t0
print(json.dumps(T))
"""

LABELS = {
    "ours": "ours MiniLMEmbeddings(onnx)",
    "ours_build": "ours build + ORT session",
    "helper_build": "onnx.helper build + ORT session",
    "st": "sentence-transformers",
}
OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def model_dir() -> Path:
    from langgraph_memory.embeddings.minilm import default_model_dir

    return default_model_dir()


def cold(reps: int, warm_up: bool, st: bool) -> dict[str, list[dict[str, float]]]:
    """Each case ``reps`` times in a fresh interpreter, interleaved (after one untimed
    round that warms the page cache, with ``warm_up``)."""
    cases = ["ours", "ours_build", "helper_build"] + (["st"] if st else [])
    out: dict[str, list[dict[str, float]]] = {c: [] for c in cases}
    env = env_for(**OFFLINE)
    for r in range(reps + int(warm_up)):
        for c in cases:
            got = json.loads(fresh_python(COLD, c, str(model_dir()), str(HERE), env=env))
            if r or not warm_up:
                out[c].append(got)
    return out


def session(data: bytes, ext: dict[str, Any]) -> tuple[Any, list[Any]]:
    import onnxruntime as ort

    o = ort.SessionOptions()
    o.intra_op_num_threads = 1
    o.log_severity_level = 3
    vals = [ort.OrtValue.ortvalue_from_numpy(v) for v in ext.values()]
    o.add_external_initializers(list(ext), vals)
    return ort.InferenceSession(data, o, providers=["CPUExecutionProvider"]), vals


def graphs(n_texts: int) -> Any:
    """The two writers' graphs compared; returns our embedder and its vectors of the texts."""
    import numpy as np
    import onnx
    from onnx_helper_bert import build_with_onnx_helper

    from langgraph_memory.embeddings import MiniLMEmbeddings
    from langgraph_memory.embeddings.bert_onnx import build_bert, read_safetensors

    w = read_safetensors(model_dir() / "model.safetensors")
    ours_model, ours_ext = build_bert(w, heads=12, eps=1e-12, external=True)
    helper_model, helper_ext = build_with_onnx_helper(w, 12, 1e-12)
    ours_bytes, helper_bytes = ours_model.SerializeToString(), helper_model.SerializeToString()
    parsed = onnx.load_from_string(ours_bytes)
    ext_mb = sum(v.nbytes for v in ours_ext.values()) / 1e6
    print("== graphs ==")
    print(
        f"  ours: {len(ours_model.graph.node)} nodes, {len(ours_model.graph.initializer)} "
        f"initializers, {len(ours_ext)} external ({ext_mb:.1f} MB), protobuf "
        f"{len(ours_bytes) / 1e3:.1f} kB; onnx.helper: protobuf {len(helper_bytes) / 1e3:.1f} kB"
    )
    print(
        f"  byte-identical: {ours_bytes == helper_bytes}; "
        f"equal as parsed ONNX messages: {parsed == helper_model}"
    )
    full_ours, _ = build_bert(w, heads=12, eps=1e-12, external=False)
    try:
        onnx.checker.check_model(onnx.load_from_string(full_ours.SerializeToString()))
        print("  onnx.checker accepts ours (weights inline): yes")
    except Exception as e:  # noqa: BLE001
        print(f"  onnx.checker on ours: {e}")

    texts = all_turn_texts()[:n_texts]
    ours_emb = MiniLMEmbeddings(backend="onnx")
    a = ours_emb.embed_array(texts)
    # ORT on the helper graph, same tokens
    s_h, _keep = session(helper_bytes, helper_ext)
    b = np.zeros_like(a)
    for i, ids in enumerate(ours_emb._encoder._encode_batch(texts)):
        x = np.array([ids], dtype=np.int64)
        feed = {
            "input_ids": x,
            "attention_mask": np.ones_like(x),
            "token_type_ids": np.zeros_like(x),
        }
        b[i] = s_h.run(None, feed)[0][0]
    print(
        f"  ORT output, ours vs onnx.helper graph ({len(texts)} texts): "
        f"max abs diff {np.abs(a - b).max():.2e}"
    )
    return ours_emb, texts, a


def vs_sentence_transformers(ours_emb: Any, texts: list[str], a: Any) -> None:
    import numpy as np

    os.environ.update(OFFLINE)  # before huggingface_hub reads it
    import sentence_transformers
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # its "Loading weights" bar

    st = sentence_transformers.SentenceTransformer(
        str(model_dir()), device="cpu", local_files_only=True
    )
    c = st.encode(texts, batch_size=32, normalize_embeddings=False, convert_to_numpy=True)
    cos = (a * c).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(c, axis=1)
    print(
        f"\n== ours (ONNX fp32) vs sentence-transformers {sentence_transformers.__version__}, "
        f"{len(texts)} LoCoMo turns =="
    )
    print(
        f"  max abs diff {np.abs(a - c).max():.2e}, mean abs diff {np.abs(a - c).mean():.2e}, "
        f"min cosine {cos.min():.7f}"
    )
    zh = ["我昨天去北京出差，住在王府井附近的一家酒店。", "下个月我打算带父母去云南旅游。"]
    d = np.abs(ours_emb.embed_array(zh) - st.encode(zh)).max()
    print(f"  (2 Chinese sentences: max abs diff {d:.2e})")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reps", type=int, help="repetitions (default 5; --quick 1)")
    parser.add_argument("--texts", type=int, help="LoCoMo turns embedded (default 200; --quick 50)")


def run(args: argparse.Namespace) -> None:
    if missing("onnx"):
        print("onnx is not installed (pip install onnx): comparison skipped")
        return
    reps = args.reps or (1 if args.quick else 5)
    has_st = not missing("sentence_transformers")
    ours_emb, texts, a = graphs(args.texts or (50 if args.quick else 200))
    if has_st:
        vs_sentence_transformers(ours_emb, texts, a)
    else:
        print("\n(sentence-transformers is not installed: its comparisons skipped)")

    print(
        "\n== cold load, fresh interpreter each (after `import langgraph_memory.embeddings`), "
        f"median of {reps} =="
    )
    for case, rows in cold(reps, warm_up=not args.quick, st=has_st).items():
        m = {k: med([r[k] for r in rows]) for k in rows[0]}
        steps = ", ".join(f"{k} {v * 1e3:.0f} ms" for k, v in m.items())
        print(f"  {LABELS[case]:32s}: {steps}")

    print(
        "\n== import time (fresh interpreter, after onnxruntime + langgraph_memory.embeddings), "
        f"median of {reps} =="
    )
    pre = "import onnxruntime, langgraph_memory.embeddings"
    imp = import_seconds(
        [
            (
                "ours: import bert_onnx (+onnx_proto)",
                pre,
                "import langgraph_memory.embeddings.bert_onnx",
            ),
            ("onnx: import onnx, onnx.helper", pre, "import onnx, onnx.helper, onnx.numpy_helper"),
        ],
        repeat=reps,
    )
    for k, v in imp.items():
        print(f"  {k:38s}: {v * 1e3:6.1f} ms")

    import onnx

    import langgraph_memory.embeddings.onnx_proto as op

    print("\n== installed size ==")
    kb = os.path.getsize(op.__file__) / 1e3
    print(f"  ours: onnx_proto.py {kb:.1f} kB source (bert_onnx.py needed either way)")
    own, added, names = added_footprint("onnx")
    print(
        f"  onnx {onnx.__version__}: {own / 1e6:.1f} MB itself; {added / 1e6:.1f} MB added to "
        f"[embed]: {', '.join(names)}"
    )
    if has_st:
        own, added, names = added_footprint("sentence-transformers")
        print(
            f"  sentence-transformers: {added / 1e6:.0f} MB added to [embed] "
            f"({len(names)} distributions, torch among them)"
        )
