"""A Chinese topic taken up again by a demonstrative before the user's stance ("X这玩意儿我…",
"X那个味儿我…"), and the little that is already too much ("隔着三米都受不了"): the topic is
the thing. Sentences are the helper's own."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.preferences import preferences_of


@pytest.mark.parametrize(
    ("text", "value", "pol"),
    [
        ("臭豆腐这玩意儿我是真接受不了", "臭豆腐", -1),
        ("香菜那个味儿我隔着老远都受不了", "香菜", -1),
        ("螺蛳粉那个味道我特别喜欢", "螺蛳粉", 1),
        ("爵士乐这种东西我真欣赏不来", "爵士乐", -1),
        ("韩剧这类我看不进去", "韩剧", -1),
    ],
)
def test_a_topic_resumed_by_a_demonstrative_is_the_thing(text: str, value: str, pol: int) -> None:
    assert preferences_of(text) == [(value, pol, "explicit")]


@pytest.mark.parametrize(
    "text",
    [
        "那个味道我真的受不了",  # no topic before the demonstrative: nothing named here
        "他那个脾气我受不了",  # someone's temper, not a kind of thing
    ],
)
def test_no_topic_no_thing(text: str) -> None:
    assert all(v not in ("那个味道", "味道") for v, _, _ in preferences_of(text))


@pytest.mark.parametrize("text", ["一玩就是一晚上", "一写就是俩小时"])
def test_once_started_it_lasts_names_no_thing(text: str) -> None:
    assert preferences_of(text) == []
