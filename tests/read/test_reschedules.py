"""A date said as moved, of the event the user told last (issue 39)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langgraph_memory.core.records import Message
from langgraph_memory.read.reschedules import rescheduled, said_moved
from langgraph_memory.read.slot_types import own_part

T = datetime(2024, 3, 1, tzinfo=timezone.utc)


def _msgs(*said: str) -> list[Message]:
    return [
        Message(f"m{i}", "u", "s", "user", s, T + timedelta(days=i), seq=i)
        for i, s in enumerate(said)
    ]


def test_a_moved_date_moves_the_event_told_last() -> None:
    m = _msgs(
        "我们婚礼定在五月二十号 现在订酒店还来得及吗",
        "今天好困啊",
        "那天酒店全满了 我们改到国庆了 十月三号",
    )
    assert rescheduled(m, "她哪天办喜事？", own_part) == (2, (0,))
    m = _msgs("my exam is on May 3", "it's raining", "they rebooked it for June 9")
    assert rescheduled(m, "When do I sit the boards?", own_part) == (2, (0,))


def test_a_moved_date_of_another_event_or_of_someone_else_moves_nothing() -> None:
    # the moved date names an event of its own, another than the one told
    m = _msgs("我们婚礼定在五月二十号", "我的航班改签到周四了")
    assert rescheduled(m, "她哪天办喜事？", own_part) is None
    # no date moved: a date said again
    m = _msgs("我们婚礼定在五月二十号", "今天是三月五号")
    assert rescheduled(m, "她哪天办喜事？", own_part) is None
    # an event the reader knows is read by its name (slot_types.typed), not here
    m = _msgs("我的手术约在下个月12号", "让我提前到这个月28号")
    assert rescheduled(m, "我的手术是哪天？", own_part) is None


def test_said_moved_reads_the_event_moved_if_named() -> None:
    assert said_moved("驾校帮我改约到4月1号") is None
    assert said_moved("考试改约到4月1号") == "exam"
    assert said_moved("they moved it up to May 28") is None
    assert said_moved("I moved to Leeds") is False


def test_a_question_naming_someone_is_about_them() -> None:
    m = _msgs("搬家定在八月三十号", "好消息是李明升了销售经理", "浩浩游泳改到周日早上九点")
    assert rescheduled(m, "李明什么时候升职的？", own_part) is None
    assert rescheduled(m, "When did Gina move?", own_part) is None


def test_a_move_of_house_is_no_moved_date() -> None:
    from langgraph_memory.read.reschedules import said_moved

    assert said_moved("We moved house to Leeds on May 3") is False
    assert said_moved("they moved it up to May 28") is None
