"""Statements naming someone in the relation a question asks about."""

from __future__ import annotations

import pytest

from langgraph_memory.read.relations import asked_relation, names_relation
from langgraph_memory.read.slot_types import asked_type, typed


@pytest.mark.parametrize(
    ("query", "said", "named"),
    [
        ("Who is my roommate?", "my roommate Chloe is a night owl, it's a problem", True),
        ("Who is my roommate?", "new roommate Sam moved in yesterday, he's tidy", True),
        ("Who is my roommate?", "my roommate is a night owl", False),
        ("Who is my roommate?", "my boss Rachel is away", False),
        ("我的室友是谁？", "我室友小雨是个夜猫子，每天两点才睡", True),
        ("我的室友是谁？", "新室友佳佳昨天搬进来了，超爱干净", True),
        ("我的室友是谁？", "室友又没洗碗", False),
        ("我的牙医是谁？", "以后洗牙就找钱医生了，下个月约了", True),
        ("我的牙医是谁？", "钱医生说我血压有点高", False),
    ],
)
def test_a_statement_naming_someone_in_the_relation_asked(
    query: str, said: str, named: bool
) -> None:
    assert names_relation(said, query) is named
    assert asked_type(query) == "person"
    if named:
        assert typed(said, "person", query)


def test_the_relation_asked() -> None:
    assert asked_relation("Who is my roommate?") == "roommate"
    assert asked_relation("我的室友是谁？") == "室友"
    assert asked_relation("Where do I live?") is None


def test_the_users_clauses_of_a_sentence_that_ends_with_someone_elses() -> None:
    from langgraph_memory.read.slot_types import own_part

    assert (
        own_part("想了很久还是决定考公了，稳定一点，我爸妈也支持")
        == "想了很久还是决定考公了，稳定一点"
    )
    assert own_part("我妹妹住在杭州。") == ""
    assert typed("想了很久还是决定考公了，我爸妈也支持", "plan", "我明年打算考什么？")
