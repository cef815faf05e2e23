"""Preferences said by comparison, choice and idiom (issue 39), and look-alikes that are
no taste: a reaction to what just happened, people in general.

The sentences are the helper's own tuning half, written apart from the evaluation sets."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms


def prefs(text: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "preference"]


@pytest.mark.parametrize(
    ("text", "part", "sign"),
    [
        ("I favor sci-fi over fantasy.", "sci-fi", 1),  # a verb of liking takes "over"
        ("I'd sooner walk than take the bus.", "walk", 1),  # "sooner" as "rather"
        ("If I had to pick, I'd pick Italian food.", "Italian food", 1),  # asked to choose
        ("Jazz really isn't my cup of tea.", "Jazz", -1),  # an adverb, not a person's name
        ("Red wine gives me a headache, I stick to white.", "white", 1),  # the second clause
        ("与其看电影，我宁可在家看书。", "看书", 1),
        ("科幻片和爱情片比，我选科幻片。", "科幻片", 1),
        ("要我选的话，我选日料。", "日料", 1),
        ("我会选靠窗的位置。", "靠窗", 1),
        ("这种老电影很对我胃口。", "老电影", 1),  # an idiom of taste
        ("我特别热衷于旅行。", "旅行", 1),
        ("红酒喝了头疼，我一般只喝白的。", "白", 1),
    ],
)
def test_preference_forms(text: str, part: str, sign: int) -> None:
    got = prefs(text)
    assert any(part in v and p == sign for v, p in got), got


@pytest.mark.parametrize(
    "text",
    [
        "Haha, I hate when that happens.",  # a reaction to what just happened
        "很多人受不了夏天的热。",  # people in general
        "I picked the vegetarian option at the wedding again, I always do.",  # "do" is no thing
    ],
)
def test_no_taste_from_look_alikes(text: str) -> None:
    assert not [v for v, _ in prefs(text) if v in ("when that happens", "夏天的热", "do")]


def test_a_clause_that_repeats_the_value_adds_nothing() -> None:
    got = prefs("我是夜猫子，晚上十一点以后效率最高。")
    assert ("晚上十一点以后", 1) in got
    assert not any("效率" in v for v, _ in got)
