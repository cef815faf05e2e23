"""Tastes said in other words: a feeling verb or idiom and its object, both languages."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.preferences import preferences_of


@pytest.mark.parametrize(
    ("said", "value", "polarity"),
    [
        ("Honestly nothing beats a cold beer after a long hike.", "cold beer after a long hike", 1),
        ("I tend to avoid anything with peanuts.", "peanuts", -1),
        ("I've never liked olives.", "olives", -1),
        ("Spicy food doesn't agree with me.", "Spicy food", -1),
        ("My favourite way to unwind is a long bath.", "long bath", 1),
        ("海鲜我也很喜欢。", "海鲜", 1),  # no particle kept ("海鲜也")
        ("我对榴莲实在爱不起来。", "榴莲", -1),
        ("羊肉我是一口都不吃的。", "羊肉", -1),
        ("我很享受一个人旅行。", "一个人旅行", 1),
    ],
)
def test_a_feeling_in_other_words_is_a_preference(said: str, value: str, polarity: int) -> None:
    assert preferences_of(said) == [(value, polarity, "explicit")]


@pytest.mark.parametrize(
    "said",
    [
        "我女儿喜欢猫不喜欢狗。",
        "我室友特别讨厌爵士乐。",
        "我怕他不高兴。",
        "Cold showers, can't live without them",
    ],
)
def test_someone_else_or_a_pronoun_is_no_preference(said: str) -> None:
    assert all(value not in ("them", "他不高兴") for value, _, _ in preferences_of(said))
    if not said.startswith("Cold"):
        assert preferences_of(said) == []
