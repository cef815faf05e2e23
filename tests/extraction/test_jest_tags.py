"""Jest said by a tag that takes back what came before it ("…, said no one ever", "…，才怪")
or by an over-eager yes before a liking ("对对对 我超爱…", "oh yeah I absolutely adore…"):
no belief. Sentences are the helper's own."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.clauses import JOKE
from langgraph_memory.extraction.extractor import Extractor

_RULES = Extractor(entities=False)


def prefs(text: str) -> list[tuple[str, int | None]]:
    return [(a.value, a.polarity) for a in _RULES.rules(text) if a.kind == "preference"]


@pytest.mark.parametrize(
    "text",
    [
        "I adore doing my taxes, said no one ever",
        "Love a four-hour layover. Said nobody ever.",
        "我最喜欢排长队了 才怪",
        "加班真是我的快乐源泉，才怪呢！",
        "是是是 我最爱写周报了",
        "oh yeah I absolutely love spreadsheets at 2am",
    ],
)
def test_a_taste_taken_back_or_said_in_sarcasm_is_none(text: str) -> None:
    assert JOKE.search(text)
    assert prefs(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我觉得这个说法才怪呢，我很喜欢猫", "猫"),  # 才怪 inside, taking nothing back
        ("I absolutely love sourdough", "sourdough"),  # no sarcastic opener
        ("对，我超爱爬山", "爬山"),  # one yes, not three
    ],
)
def test_look_alikes_keep_their_taste(text: str, value: str) -> None:
    assert not JOKE.search(text)
    assert (value, 1) in prefs(text)
