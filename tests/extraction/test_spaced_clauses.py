"""A Chinese message typed with spaces for commas is read clause by clause (issue 39).
Sentences are the helper's own."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.clauses import other_subject, spaced_clauses, taste_in_clause
from langgraph_memory.extraction.extractor import extract_atoms


def tastes(text: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "preference"]


def test_spaces_between_characters_cut_clauses_not_spaces_beside_latin_words() -> None:
    assert spaced_clauses("下班好累 我就爱喝酸奶 一喝就开心") == [
        "下班好累",
        "我就爱喝酸奶",
        "一喝就开心",
    ]
    assert spaced_clauses("我一直用 Emacs 写代码") == ["我一直用 Emacs 写代码"]
    assert spaced_clauses("I like tea and cake") == ["I like tea and cake"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the taste in the middle of chat about something else
        ("最近搬家 累坏了 我就是喜欢北欧风 对了你帮我算算搬家费", [("北欧风", 1)]),
        ("说起来我喝咖啡只喝美式 拿铁太腻 对了你知道冷萃怎么做吗", [("美式", 1)]),
        # a question among the clauses asks nothing of the others
        ("我是咸粽子党 甜的接受不了", [("咸粽子", 1), ("甜的", -1)]),
        # a kind word after the thing is no part of it
        ("说实话 跑马拉松这种事我真的不行 膝盖受不了", [("跑马拉松", -1)]),
    ],
)
def test_each_spaced_clause_is_read_on_its_own(text: str, want: list[tuple[str, int]]) -> None:
    assert tastes(text) == want


def test_a_value_ends_at_a_space_between_characters() -> None:
    assert taste_in_clause("喝可乐 太甜了") == "喝可乐"
    assert tastes("我不喜欢喝可乐 太甜了 一般都喝苏打水")[0] == ("喝可乐", -1)


@pytest.mark.parametrize(
    "text",
    [
        "他特别爱吃榴莲 天天买",  # someone else, and the clause after that names no one
        "我女儿 喜欢画画 天天画",  # someone else is the subject of it all
        "如果有钱 我天天吃日料",  # an unreal world
    ],
)
def test_someone_elses_taste_or_an_unreal_one_is_none(text: str) -> None:
    assert tastes(text) == []


def test_a_place_first_is_no_one_elses_doing() -> None:
    assert not other_subject("今天在公司被气死了")
    assert other_subject("公司规定周五穿正装")
    assert tastes("昨晚在公司加班 我对烤冷面真是没有抵抗力") == [("烤冷面", 1)]


@pytest.mark.parametrize("text", ["膝盖受不了", "我胃受不了", "眼睛受不了"])
def test_the_users_body_is_no_thing_disliked(text: str) -> None:
    assert tastes(text) == []


def test_what_is_avoided_whenever_it_can_be_is_disliked() -> None:
    assert tastes("下雨天能不出门就不出门") == [("出门", -1)]
    assert tastes("他能不开会就不开会") == []


def test_a_spaced_clause_singling_out_one_of_a_liking_before_it_is_liked() -> None:
    from langgraph_memory.extraction.preferences import preferences_of

    assert preferences_of("我特别爱吃水果 尤其是山竹") == [
        ("水果", 1, "explicit"),
        ("山竹", 1, "explicit"),
    ]


def test_a_piece_after_a_liking_read_by_the_rules_is_read_too() -> None:
    # the rules read "更喜欢狗" at the head; the spaced piece after it singles one out
    got = {
        (a.value, a.polarity)
        for a in extract_atoms("我更喜欢狗 尤其是金毛")
        if a.kind == "preference"
    }
    assert {("狗", 1), ("金毛", 1)} <= got
