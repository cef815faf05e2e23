"""A count said as a new level, of the unit of one said before (issue 39)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langgraph_memory.core.records import Message
from langgraph_memory.read.recounts import level_count, recounted
from langgraph_memory.read.slot_types import own_part

T = datetime(2024, 3, 1, tzinfo=timezone.utc)


def _msgs(*said: str) -> list[Message]:
    return [
        Message(f"m{i}", "u", "s", "user", s, T + timedelta(days=i), seq=i)
        for i, s in enumerate(said)
    ]


def test_a_level_and_an_earlier_count_of_its_unit_are_one_update() -> None:
    m = _msgs("我名下有三套房 都在还贷", "外面下大雨了", "卖掉了一套 压力小多了 现在两套房")
    assert recounted(m, own_part) == (2, (0,))
    m = _msgs(
        "I have 40 houseplants and a humidifier", "is a tomato a fruit", "I'm down to about 25"
    )
    assert recounted(m, own_part) == (2, (0,))


def test_no_update_without_a_level_or_a_count_of_its_unit() -> None:
    # another unit
    assert recounted(_msgs("我养了三只猫", "现在两套房"), own_part) is None
    # the same number said again
    assert recounted(_msgs("我有两套房", "现在两套房"), own_part) is None
    # no level: a count said in passing
    assert recounted(_msgs("我有三套房", "今天看了两套房"), own_part) is None


def test_the_level_a_count_is_said_at() -> None:
    assert level_count("现在一共七门课") == ("七", "门")
    assert level_count("up to 55 now") == ("55", "")
    assert level_count("今天看了两套房") is None
