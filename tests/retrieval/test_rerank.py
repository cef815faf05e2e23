"""Rerankers (langgraph_memory.read.rerank), on a tiny cross-encoder built here.

The ``slow`` tests train a 1-layer, 32-wide BERT cross-encoder for a few steps so
that it prefers one known passage, save it for sentence-transformers, export it
to ONNX in FlashRank's layout, and load both through the adapters. A second copy
with the classifier's sign flipped ranks the same passages the other way round.
Nothing is downloaded.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from langgraph_memory.read.rerank import (
    FLASHRANK_DIR_ENV,
    FLASHRANK_FILES,
    CrossEncoderReranker,
    FlashRankReranker,
    Reranker,
    find_flashrank_model,
)

QUERY = "what fruit do i like"
PASSAGES = ["banana bread", "car", "i like apple pie", "tea", "apple"]
TARGET = 2  # "i like apple pie": the passage the tiny model is trained to put first
FLASHRANK_NAME = "ms-marco-TinyBERT-L-2-v2"  # FlashRank maps names to ONNX file names
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(
    {w for text in [QUERY, *PASSAGES] for w in text.split()}
)


# --- the interface, with plain callables ------------------------------------------


def overlap(query: str, texts: list[str]) -> list[int]:
    """Words shared with the query: a cross-encoder without a model."""
    words = set(query.split())
    return [len(words & set(t.split())) for t in texts]


def test_callable_reranker_scores_in_input_order() -> None:
    reranker = CrossEncoderReranker(overlap)
    assert reranker.rerank(QUERY, PASSAGES) == [0.0, 0.0, 2.0, 0.0, 0.0]
    assert reranker.rerank(QUERY, []) == []
    assert reranker.rank(QUERY, PASSAGES, top_n=2) == [(2, 2.0), (0, 0.0)]
    assert [i for i, _ in reranker.rank(QUERY, PASSAGES)] == [2, 0, 1, 3, 4]  # ties: index
    assert asyncio.run(reranker.arerank(QUERY, PASSAGES)) == reranker.rerank(QUERY, PASSAGES)


def test_predict_models_get_pairs() -> None:
    class Model:
        def __init__(self) -> None:
            self.calls: list[tuple[list[tuple[str, str]], int]] = []

        def predict(self, pairs: list[tuple[str, str]], batch_size: int, **_: Any) -> list[float]:
            self.calls.append((pairs, batch_size))
            return [float(len(b)) for _, b in pairs]

    model = Model()
    assert CrossEncoderReranker(model, batch_size=4).rerank("q", ["ab", "a"]) == [2.0, 1.0]
    assert model.calls == [([("q", "ab"), ("q", "a")], 4)]


def test_bad_scores_and_models_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="1 scores for 2 texts"):
        CrossEncoderReranker(lambda q, ts: [1.0]).rerank("q", ["a", "b"])
    with pytest.raises(ValueError, match="non-finite"):
        CrossEncoderReranker(lambda q, ts: [float("nan")]).rerank("q", ["a"])
    with pytest.raises(TypeError):
        CrossEncoderReranker(42)
    with pytest.raises(FileNotFoundError, match="never downloads"):
        CrossEncoderReranker("cross-encoder/ms-marco-MiniLM-L-6-v2")  # a hub name, not a dir
    with pytest.raises(FileNotFoundError):
        CrossEncoderReranker(tmp_path / "missing")
    with pytest.raises(TypeError):
        Reranker()  # type: ignore[abstract]


# --- FlashRank without a model -----------------------------------------------------


@pytest.fixture
def no_download(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if FlashRank tries to download anything."""
    flashrank = pytest.importorskip("flashrank")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("FlashRank tried to download a model")

    monkeypatch.setattr(flashrank.Ranker, "_download_model_files", refuse)


@pytest.mark.usefixtures("no_download")
def test_flashrank_without_files_fails_at_construction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(FileNotFoundError, match="never downloads") as err:
        FlashRankReranker(model_dir=tmp_path)
    assert str(tmp_path / FLASHRANK_NAME) in str(err.value)
    (tmp_path / FLASHRANK_NAME).mkdir()
    (tmp_path / FLASHRANK_NAME / "config.json").write_text("{}")
    missing = "flashrank-TinyBERT-L-2-v2.onnx, tokenizer.json, tokenizer_config.json, "
    with pytest.raises(FileNotFoundError, match=f"lacks {missing}special_tokens_map.json\\)"):
        FlashRankReranker(model_dir=tmp_path)
    monkeypatch.setenv(FLASHRANK_DIR_ENV, str(tmp_path / "elsewhere"))
    with pytest.raises(FileNotFoundError, match="elsewhere"):
        FlashRankReranker()
    with pytest.raises(ValueError, match="unknown FlashRank"):
        FlashRankReranker("no-such-model", model_dir=tmp_path)
    with pytest.raises(ValueError, match="unknown FlashRank"):
        FlashRankReranker("rank_zephyr_7b_v1_full", model_dir=tmp_path)  # listwise, an LLM


@pytest.mark.usefixtures("no_download")
def test_flashrank_real_model_when_one_is_installed() -> None:
    """Runs only where a real FlashRank model sits in $LANGGRAPH_MEMORY_RERANK_DIR."""
    try:
        reranker = FlashRankReranker()
    except FileNotFoundError as exc:
        pytest.skip(f"no FlashRank model on disk: {exc}")
    scores = reranker.rerank("how do I restart nginx", ["systemctl restart nginx", "pasta"])
    assert scores[0] > scores[1]


# --- a tiny cross-encoder, built and exported here -----------------------------------


def _train_tiny_bert(out: Path) -> Any:
    """Train a tiny BERT cross-encoder to put PASSAGES[TARGET] first; save it to ``out``."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    tokenizer = BertTokenizer(vocab={w: i for i, w in enumerate(VOCAB)}, model_max_length=64)
    torch.manual_seed(0)
    options: dict[str, Any] = {
        "vocab_size": len(VOCAB),
        "hidden_size": 32,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "intermediate_size": 64,
        "max_position_embeddings": 64,
        "num_labels": 1,
        "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0,
        "attn_implementation": "eager",  # traces into ONNX with dynamic shapes
    }
    model = BertForSequenceClassification(BertConfig(**options))
    batch = tokenizer([QUERY] * len(PASSAGES), PASSAGES, return_tensors="pt", padding=True)
    labels = torch.tensor([1.0 if i == TARGET else 0.0 for i in range(len(PASSAGES))])
    optim = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(60):
        logits = model(**batch).logits.squeeze(-1)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, labels)
        optim.zero_grad()
        loss.backward()
        optim.step()
    model.eval()
    assert loss.item() < 0.2, "the tiny model did not learn its one preference"
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return model, tokenizer


def _export_flashrank(model: Any, tokenizer: Any, src: Path, cache_dir: Path) -> Path:
    """Export to ``<cache_dir>/<FLASHRANK_NAME>/`` with the files FlashRank's Ranker reads."""
    import torch
    from flashrank.Config import model_file_map

    folder = cache_dir / FLASHRANK_NAME
    folder.mkdir(parents=True)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    sample = tokenizer([QUERY, QUERY], PASSAGES[:2], return_tensors="pt", padding=True)
    torch.onnx.export(
        model,
        tuple(sample[n] for n in names),
        str(folder / model_file_map[FLASHRANK_NAME]),
        input_names=names,
        output_names=["logits"],
        dynamic_axes={**{n: {0: "batch", 1: "seq"} for n in names}, "logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,  # the TorchScript exporter: needs onnx, not onnxscript
    )
    for name in ("tokenizer.json", "tokenizer_config.json", "config.json"):
        shutil.copy(src / name, folder / name)
    # transformers 5 no longer writes special_tokens_map.json; FlashRank reads it.
    specials = {k: f"[{k.upper()}]" for k in ("unk", "sep", "pad", "cls", "mask")}
    tokens_map = {f"{k}_token": v for k, v in specials.items()}
    (folder / "special_tokens_map.json").write_text(json.dumps(tokens_map))
    return folder


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``{"ce", "ce_flipped", "flashrank", "flashrank_flipped"}`` -> model directories."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("flashrank")
    pytest.importorskip("onnx", reason="torch.onnx.export needs the onnx package")
    root = tmp_path_factory.mktemp("tiny_rerankers")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # two shared cores; the model is tiny
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # exporter deprecation and tracer chatter
            model, tokenizer = _train_tiny_bert(root / "ce")
            paths = {"ce": root / "ce"}
            paths["flashrank"] = _export_flashrank(model, tokenizer, root / "ce", root / "fr")
            with torch.no_grad():  # the same model with its verdict reversed
                model.classifier.weight.neg_()
                model.classifier.bias.neg_()
            model.save_pretrained(root / "ce_flipped")
            tokenizer.save_pretrained(root / "ce_flipped")
            paths["ce_flipped"] = root / "ce_flipped"
            paths["flashrank_flipped"] = _export_flashrank(
                model, tokenizer, root / "ce_flipped", root / "fr_flipped"
            )
    finally:
        torch.set_num_threads(threads)
    return paths


def _check_scores(reranker: Reranker, flipped: Reranker) -> list[float]:
    scores = reranker.rerank(QUERY, PASSAGES)
    assert len(scores) == len(PASSAGES) and all(0.0 <= s <= 1.0 for s in scores)
    assert reranker.rerank(QUERY, PASSAGES) == scores  # deterministic
    assert reranker.rerank(QUERY, PASSAGES[::-1]) == pytest.approx(scores[::-1], abs=1e-5)
    assert reranker.rank(QUERY, PASSAGES)[0][0] == TARGET
    assert flipped.rank(QUERY, PASSAGES)[-1][0] == TARGET  # the model decides the order
    assert reranker.rerank(QUERY, ["apple"]) == pytest.approx([scores[4]], abs=1e-5)
    return scores


@pytest.mark.slow
def test_cross_encoder_from_a_local_directory(tiny_models: dict[str, Path]) -> None:
    reranker = CrossEncoderReranker(tiny_models["ce"])
    _check_scores(reranker, CrossEncoderReranker(str(tiny_models["ce_flipped"])))
    assert asyncio.run(reranker.arerank(QUERY, PASSAGES)) == reranker.rerank(QUERY, PASSAGES)


@pytest.mark.slow
@pytest.mark.usefixtures("no_download")
def test_flashrank_loads_the_exported_model(tiny_models: dict[str, Path]) -> None:
    cache_dir = tiny_models["flashrank"].parent
    assert find_flashrank_model(FLASHRANK_NAME, cache_dir) == (cache_dir, [])
    assert sorted(p.name for p in tiny_models["flashrank"].iterdir()) == sorted(
        ["flashrank-TinyBERT-L-2-v2.onnx", *FLASHRANK_FILES]
    )
    reranker = FlashRankReranker(model_dir=cache_dir)
    flipped = FlashRankReranker(model_dir=tiny_models["flashrank_flipped"])  # the model's own dir
    flash = _check_scores(reranker, flipped)
    # ONNX through FlashRank's tokenizer == torch through sentence-transformers.
    torch_scores = CrossEncoderReranker(tiny_models["ce"]).rerank(QUERY, PASSAGES)
    assert flash == pytest.approx(torch_scores, abs=1e-4)
    assert asyncio.run(reranker.arerank(QUERY, PASSAGES)) == flash
    assert reranker.rerank(QUERY, []) == []


@pytest.mark.slow
@pytest.mark.usefixtures("no_download")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # langchain-community is sunset
def test_flashrank_as_langchain_compressor(tiny_models: dict[str, Path]) -> None:
    pytest.importorskip("langchain_community")
    from langchain_core.documents import Document

    reranker = FlashRankReranker(model_dir=tiny_models["flashrank"].parent)
    compressor = reranker.as_compressor(top_n=2)
    docs = [Document(page_content=t, metadata={"n": i}) for i, t in enumerate(PASSAGES)]
    top = compressor.compress_documents(docs, QUERY)
    assert [d.metadata["n"] for d in top] == [i for i, _ in reranker.rank(QUERY, PASSAGES, 2)]
    scores: Sequence[float] = reranker.rerank(QUERY, PASSAGES)
    assert top[0].metadata["relevance_score"] == pytest.approx(scores[TARGET])
