"""After a Chinese dislike, "还是X好/有感觉…" picks the other one ("我不喜欢看综艺 还是纪录片好看"):
X is liked; with no dislike before it, or with nothing picked ("还是算了吧"), nothing is.
Sentences are the helper's own."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import Extractor
from langgraph_memory.extraction.leanings import instead
from langgraph_memory.extraction.preferences import preferences_of

_RULES = Extractor(entities=False)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("速溶的我喝不惯 还是手冲香", "手冲"),
        ("我不爱看短视频 还是长视频有意思", "长视频"),
        ("皮鞋我穿不惯 还是布鞋舒服", "布鞋"),
    ],
)
def test_the_other_one_after_a_spaced_dislike_is_liked(text: str, value: str) -> None:
    assert (value, 1, "explicit") in preferences_of(text)


def test_the_other_one_after_a_comma_is_liked_too() -> None:
    got = [(a.value, a.polarity) for a in _RULES.rules("我不喜欢坐大巴，还是高铁舒服")]
    assert ("高铁", 1) in got


@pytest.mark.parametrize(
    "text",
    [
        "还是高铁舒服",  # no dislike before it: no pick out of anything
        "我不爱吃辣 还是算了吧",  # nothing picked
        "我喜欢猫 还是狗好",  # after a liking, not a dislike
    ],
)
def test_no_pick_without_a_dislike_or_a_thing(text: str) -> None:
    assert all(pol < 0 or v in ("猫",) for v, pol, _ in preferences_of(text))


def test_instead_reads_both_languages() -> None:
    assert instead("还是纸质书有感觉") == "纸质书"
    assert instead("give me mountains") == "mountains"
    assert instead("还是算了吧") is None
