"""The value-shape reading of secrets near a secret word (sensitivity/nearby.py): its
invariants over many phrasings, and its own development set."""

from __future__ import annotations

import itertools
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripts import load_script

from langgraph_memory.sensitivity.nearby import nearby_secrets, shape_score
from langgraph_memory.sensitivity.patterns import to_halfwidth
from langgraph_memory.sensitivity.policy import SensitivityFilter

ROOT = Path(__file__).resolve().parents[2]
FILTER = SensitivityFilter()

WORDS_EN = ("password", "passwd", "passwrod", "pwd", "passcode", "secret", "api key", "token")
WORDS_ZH = ("密码", "口令", "密钥", "秘钥", "令牌")
#: Ways of linking a secret word to its value, the value after or before the word.
PHRASINGS_EN = (
    "{w} is {v}",
    "my {w} is still {v}",
    "the {w} for the build box is {v}",
    "{w}: {v}",
    "{w} = {v}",
    "{w} -> {v}",
    "I changed the {w} again, now it's {v}",
    "the {w}, in case you need it, is {v}",
    "{v} is the new {w}",
    "the {w} ended up being {v}",
    "the {w} has been set to {v}",
    "{w} (prod): {v}",
    "the {w} is still the old one, {v}",
    "use {v} as the {w}",
    "the {w}? {v}",
    "{w} (expires Friday): {v}",
)
PHRASINGS_ZH = (
    "{w}是 {v}",
    "{w}我改成了 {v}",
    "{w}，我记得是 {v}",
    "{w}：{v}",
    "{v} 是新的{w}",
    "{w}已经换成 {v} 了",
    "{w}换了，现在是 {v}",
    "{w}用 {v} 就行",
    "用 {v} 作为{w}",
)
#: A secret word with no value: nothing is found.
NO_VALUE_EN = (
    "I forgot my {w} again, can you reset it?",
    "Reset the {w} before Friday.",
    "We should all use a {w} manager.",
    "the {w} expired yesterday, so log in again",
    "is the {w} still valid after the 2.4.1 upgrade?",
    "{w} rotation is planned for 2026-03-14",
    "the {w} is the same as last time",
)
NO_VALUE_ZH = (
    "我忘记{w}了，怎么重置？",
    "{w}要至少8位，包含大小写字母",
    "{w}过期了，需要重新生成",
    "{w}管理器推荐用 Bitwarden",
    "{w}在 2026-03-01 轮换过",
)

#: Values of a secret's shape: letters of both cases, a digit and a symbol.
_SYMBOLS = "!@#&*+~^"
VALUES = st.text(string.ascii_letters + string.digits + _SYMBOLS, min_size=8, max_size=24).filter(
    lambda v: (
        any(c.islower() for c in v)
        and any(c.isupper() for c in v)
        and any(c.isdigit() for c in v)
        and any(c in _SYMBOLS for c in v)
        and v[-1].isalnum()
        and "xxxx" not in v.lower()
        and "**" not in v
    )
)


def found(text: str) -> list[str]:
    """What this reading alone finds (on the half-width copy, as the filter scans)."""
    half = to_halfwidth(text)
    return [half[a:b] for a, b, _, _ in nearby_secrets(half)]


def _redacted(text: str, value: str) -> bool:
    clean = FILTER.redact(text)
    return value not in clean and "[SECRET]" in clean


@settings(max_examples=60, deadline=None)
@given(value=VALUES)
def test_a_value_after_a_secret_word_is_redacted_in_every_phrasing(value: str) -> None:
    phrasings = itertools.chain(
        itertools.product(PHRASINGS_EN, WORDS_EN), itertools.product(PHRASINGS_ZH, WORDS_ZH)
    )
    for phrasing, word in phrasings:
        text = phrasing.format(w=word, v=value)
        assert _redacted(text, value), text
        # and by this reading alone, without the label reader
        assert value in found(text), text


@pytest.mark.parametrize(
    "text",
    [p.format(w=w) for p in NO_VALUE_EN for w in WORDS_EN]
    + [p.format(w=w) for p in NO_VALUE_ZH for w in WORDS_ZH],
)
def test_a_secret_word_without_a_value_is_not_redacted(text: str) -> None:
    assert found(text) == []
    assert [f for f in FILTER.scan(text) if f.kind == "secret"] == []


@pytest.mark.parametrize(
    "value",
    [
        "YOUR_TOKEN",
        "<token>",
        "xxxxxxxx",
        "********",
        "${API_TOKEN}",
        "2026-03-14",
        "v2.4.1-rc1",
        "$30.47",
        "87.5%",
        "3f786850e387550fdab836ed7e6dc881de23001b",
        "550e8400-e29b-41d4-a716-446655440000",
        "INC-20931",
        "DD20260314001",
        "api-gw-02.internal",
        "/etc/ssl/private/server.key",
        "li.lei@example.com",
        "getToken()",
        "self.secret",
    ],
)
def test_what_is_not_a_value_is_left_alone(value: str) -> None:
    for text in (f"the token is {value}", f"password: {value}", f"密钥是 {value}"):
        assert found(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "the token expires in 3600 seconds",
        "wifi: Guest_5G / Office-5G, both on channel 36",
        "Primary key: order_id, sort key: created_at",
        "the public key pk_live_51HxYzAbCdEfGhIjKlMnOpQr is safe to share",
        "密码重置时需要身份证号：11010519491231002Y",
        "密码为 123456 的账号很危险",
        "登录账号是 zhang_san2024，密码另行通知",
        "https://example.com/reset?token=Ab3!xY9kLm",
    ],
)
def test_near_misses_are_not_values(text: str) -> None:
    assert found(text) == []


def test_a_user_name_before_its_password_is_skipped() -> None:
    text = "credentials: admin@db01 / S3cret!x"
    assert found(text) == ["S3cret!x"]


def test_shape_score() -> None:
    assert shape_score("Vx9!kq2m") == 5
    assert shape_score("sunshine") == shape_score("12345678") == shape_score("SUNSHINE") == 0
    assert shape_score("Summ3r!Rain-2026") == 6


def _bench():
    return load_script(ROOT / "benchmarks" / "sensitivity.py", "sensitivity_bench_nearby")


def test_nearby_dev_set() -> None:
    """Sentences written for this reading (English and Chinese; positives in phrasings
    the label reader misses, and negatives naming a secret without one)."""
    bench = _bench()
    report = bench.evaluate(ROOT / "tests" / "data" / "sensitivity_nearby_dev.jsonl")
    assert report.lines >= 60 and report.gold >= 30
    assert report.recall() >= 0.97 and report.precision() >= 0.99, report.errors


@pytest.mark.parametrize(
    ("name", "half"),
    [
        ("sensitivity_corpus.jsonl", "tune"),
        ("sensitivity_dev.jsonl", None),
        ("sensitivity_nearby_dev.jsonl", None),
    ],
)
def test_every_finding_of_this_reading_covers_a_labelled_span(name: str, half: str | None) -> None:
    """This reading alone never flags what the sets do not label (whatever the kind:
    a prefixed key it also finds is labelled ``api_key``)."""
    bench = _bench()
    stray = []
    for row in bench.load(ROOT / "tests" / "data" / name):
        if half is not None and bench.half_of(row["text"]) != half:
            continue
        gold = bench.gold_spans(row["text"], row["spans"])
        half_width = to_halfwidth(row["text"])
        for a, b, _, _ in nearby_secrets(half_width):
            if not any(a <= s and e <= b for s, e, _ in gold):
                stray.append(half_width[a:b])
    assert stray == []
