"""Someone the user named before is gone, and someone else has their place."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory.core.records import Message
from langgraph_memory.read.handovers import ended_names, handover, handover_lead, new_names

T0 = datetime(2024, 5, 1, tzinfo=timezone.utc)


def _msgs(*said: str) -> list[Message]:
    return [
        Message(f"m{i}", "u", "s", "user", text, T0 + timedelta(days=i), seq=i)
        for i, text in enumerate(said)
    ]


@pytest.mark.parametrize(
    ("said", "gone", "came"),
    [
        ("Marta retired last week. Yusuf runs the night shift now", ["Marta"], ["Yusuf"]),
        ("Tom's on paternity leave, so Priyanka signs off my reports", ["Tom"], ["Priyanka"]),
        ("Dr. Hale moved practices; I see Dr. Osei from now on", ["Dr. Hale"], ["Dr. Osei"]),
        ("Ellie and I broke up in May. Now I'm seeing Jonah", ["Ellie"], ["Jonah"]),
        ("王经理离职了，现在是赵主管带我们组", ["王经理"], ["赵主管"]),
        ("小雨搬走了，新合租的是阿青", ["小雨"], ["阿青"]),
        ("跟阿伟早就分了，现在跟小吴在一起", ["阿伟"], ["小吴"]),
        ("Marta is great, she runs the night shift", [], []),
        ("我们周经理今天请客", [], []),
    ],
)
def test_who_went_and_who_came(said: str, gone: list[str], came: list[str]) -> None:
    assert ended_names(said) == gone
    assert new_names(said, gone) == came


def test_a_handover_makes_the_earlier_message_naming_who_went_earlier() -> None:
    msgs = _msgs(
        "My manager Marta wants the report by Friday, any tips?",  # a question names her too
        "what's a good pasta recipe",
        "Marta retired last week. Yusuf runs the night shift now",
    )
    assert handover(msgs) == (2, (0,))
    lead = handover_lead(msgs[2].content, [msgs[0].content])
    assert lead.startswith("Yusuf runs the night shift now")
    assert lead.endswith("(on the earlier one: Marta retired last week)")


@pytest.mark.parametrize(
    "said",
    [
        # who went was never named before: no earlier value to replace
        ["I like my job", "Marta retired last week. Yusuf runs the night shift now"],
        # no one new named after who went: news about someone, no handover
        ["My manager Marta is strict", "Marta retired last week, we had cake"],
        # the newest is a question
        ["My manager Marta is strict", "Marta retired, so who will Yusuf report to?"],
    ],
)
def test_no_handover(said: list[str]) -> None:
    assert handover(_msgs(*said)) is None


def test_who_went_said_as_a_clause_subject_or_by_a_pronoun() -> None:
    # any form of name as the subject of an ending, tied by the earlier message naming it
    said = "晓峰搬走了 跟女朋友同居去了 周末思思搬进来"
    assert ended_names(said) == ["晓峰"] and new_names(said, ["晓峰"]) == ["思思"]
    said = "大刘去外地了 现在每天早上是楼下的小敏拉我出门"
    assert ended_names(said) == ["大刘"] and new_names(said, ["大刘"]) == ["小敏"]
    # the ending said of them by "he" in the next clause
    said = "Luis won't get to taste it again, he left to open his own place. Annika runs it now"
    assert ended_names(said) == ["Luis"] and new_names(said, ["Luis"]) == ["Annika"]
    assert ended_names("我们家搬走了") == []


def test_a_doubled_adverb_is_no_name_and_a_name_given_outright_is_one() -> None:
    said = "大刘搬走了，新搬来一个程序员叫浩子，天天半夜敲键盘"
    assert new_names(said, ["大刘"]) == ["浩子"]
    assert handover_lead(said, ["我室友是大刘，特别爱干净"]).startswith("新搬来一个程序员叫浩子")


@pytest.mark.parametrize("said", ["工资调到八千了", "公司搬走了", "项目组调走了两个人"])
def test_a_thing_that_moved_is_no_one_who_left(said: str) -> None:
    assert ended_names(said) == []
