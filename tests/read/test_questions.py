"""What a question asks for, by its form, whoever it names the user as."""

from __future__ import annotations

import pytest

from langgraph_memory.read.questions import as_users_own, asked_by_form
from langgraph_memory.read.slot_types import asked_type


@pytest.mark.parametrize(
    ("query", "own"),
    [
        ("Where does he live now?", "Where do I live now?"),
        ("Is she still at the bank?", "Am I still at the bank?"),
        ("Who supervises her now?", "Who supervises me now?"),
        ("What is the user's job?", "What is my job?"),
        ("Who does this person report to?", "Who do I report to?"),
        ("她现在住哪？", "我现在住哪？"),
        ("该用户在哪家公司？", "我在哪家公司？"),
        ("Where does my sister live?", "Where does my sister live?"),
        # a question naming someone is about them
        ("When did Gina open her store?", "When did Gina open her store?"),
        ("她们周末去哪了？", "她们周末去哪了？"),
    ],
)
def test_the_user_named_in_the_third_person_is_the_user(query: str, own: str) -> None:
    assert as_users_own(query) == own


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        # a concept of a slot, said by a verb or a noun, whatever the question word
        ("Who pays her salary these days?", "person"),
        ("Which firm employs him?", "org"),
        ("我现在的雇主是谁？", "org"),
        ("他在哪家单位上班？", "org"),
        ("What title does she have now?", "job"),
        ("他现在干的是哪个行当？", "job"),
        ("Whose class is he in this term?", "person"),
        ("谁在教她弹吉他？", "person"),
        ("When is his graduation?", "date"),
        ("她的婚期是哪一天？", "date"),
        ("How often does she swim?", "count"),
        ("他健身的频率如何？", "count"),
        ("What is she training for this spring?", "plan"),
        ("他毕业后的出路是什么？", "plan"),
        ("Where does this person reside?", "place"),
        ("她目前定居在哪？", "place"),
        ("What's her cat called?", "person"),
    ],
)
def test_the_type_asked_by_the_form_of_the_question(query: str, kind: str) -> None:
    assert asked_type(query) == kind


@pytest.mark.parametrize(
    "query",
    [
        "What should I cook tonight?",
        "Tell me a joke",
        "给我讲个笑话",
        "Summarise the meeting.",
        "Who painted the Mona Lisa?",
        "这首歌是谁唱的？",
        "Where does Nate live now?",
        "Which US states might Tim visit?",
    ],
)
def test_no_type_where_no_slot_is_asked(query: str) -> None:
    assert asked_type(query) is None


def test_a_request_is_no_question() -> None:
    assert asked_by_form("Book a table where we went last time") is None


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        # a living is earned by a job, not lived in a place
        ("How do I earn a living?", "job"),
        ("What does she do for a living?", "job"),
        ("她如今的营生是什么？", "job"),
        ("他在学校担任什么职务？", "job"),
        # the organisation by a noun of it, whatever asks its name
        ("我供职的机构叫什么名字？", "org"),
        # one over the user, though asked with a workplace
        ("我在单位归哪位领导？", "person"),
        ("Who is her manager at the bank?", "person"),
        # how many by a noun of number
        ("我选修的科目数量是？", "count"),
        ("Where's his current address?", "place"),
    ],
)
def test_the_type_asked_by_more_nouns_of_a_slot(query: str, kind: str) -> None:
    assert asked_type(query) == kind
