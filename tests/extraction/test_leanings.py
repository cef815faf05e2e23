"""Leanings said by scope, habituation and emphasis (langgraph_memory.extraction.leanings,
through the write path's extract_atoms): 偏 + a thing, 只 + a habitual verb, V惯了 / V不惯,
the verb doubled around 都不, 标配, a specification after a liking (尤其是, "esp.", "X
especially"), a pseudo-cleft ("X is what I put on"), a liking parted from the user by an
adverbial or a topic, and a taste said as a kind ("甜的"). Several phrasings of our own for
each, with the look-alikes that give none."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms
from langgraph_memory.extraction.leanings import instead, leanings_of, restated, specified


def _prefs(said: str) -> set[tuple[str, int]]:
    return {(a.value, a.polarity) for a in extract_atoms(said) if a.kind == "preference"}


@pytest.mark.parametrize(
    ("said", "value", "polarity"),
    [
        # a lean
        ("川菜和粤菜比，我还是偏粤菜，清淡点", "粤菜", 1),
        ("我口味偏清淡", "清淡", 1),
        ("我比较偏爱日料", "日料", 1),
        # a scope word before a habitual verb
        ("手机只用苹果，安卓用不惯", "苹果", 1),
        ("王者我玩腻了，现在只玩原神", "原神", 1),
        ("咖啡我只喝美式", "美式", 1),
        # habituation
        ("手机只用苹果，安卓用不惯", "安卓", -1),
        ("用惯了苹果，安卓我是真用不来", "苹果", 1),
        ("用惯了苹果，安卓我是真用不来", "安卓", -1),
        ("西餐我实在吃不惯", "西餐", -1),
        # an emphatic refusal
        ("榴莲我是真的闻都不能闻", "榴莲", -1),
        ("香菜我看都不想看", "香菜", -1),
        # a standard kit
        ("古典乐是我写作业的标配", "古典乐", 1),
        ("冰美式是我上班的必备", "冰美式", 1),
        # a specification after a liking
        ("比起咖啡我更喜欢喝茶，尤其是乌龙", "乌龙", 1),
        ("我爱吃水果，特别是芒果", "芒果", 1),
        ("jazz is what I put on when I work, esp. Coltrane", "Coltrane", 1),
        ("board game night is the highlight of my week, Catan especially", "Catan", 1),
        # a pseudo-cleft
        ("jazz is what I put on when I work, esp. Coltrane", "jazz", 1),
        ("Oat milk is all I drink", "Oat milk", 1),
        # a pick after a dislike, or said with "any time" (a taste, not a rule)
        ("Beach holidays bore me — give me mountains and hiking any time.", "mountains", 1),
        ("I'm not a beach person — give me mountains and a cabin.", "mountains", 1),
        ("Crowds wear me out, give me a quiet cafe every time.", "quiet cafe", 1),
        # a hedge after the verb is no part of the thing
        ("I drink mostly tea", "tea", 1),
        ("I listen to mostly jazz while coding", "jazz", 1),
        # a liking parted from the user by an adverbial or a topic
        ("我坐车喜欢靠窗的位置，能看风景", "靠窗的位置", 1),
        ("开会我最怕开长会，超过半小时我就走神", "开长会", -1),
        ("我出差喜欢住连锁酒店", "连锁酒店", 1),
        # a taste said as a kind keeps its 的
        ("我不太喜欢吃甜的。", "甜的", -1),
        ("我讨厌酸的", "酸的", -1),
    ],
)
def test_a_leaning_is_read_as_a_preference(said: str, value: str, polarity: int) -> None:
    # (the value may keep its verb: "住连锁酒店", "吃甜的")
    assert any(value in v and p == polarity for v, p in _prefs(said)), _prefs(said)


@pytest.mark.parametrize(
    "said",
    [
        "他只用苹果",  # someone else's
        "我妈只喝绿茶",
        "这回他自己也害怕了，说只喝啤酒不喝白酒了",  # someone else's, reported
        "这家店偏贵",  # a price, not a taste
        "那你每周只用跑三天",  # "only needs to"
        "我之前买基金亏了三万多，现在看都不敢看。",  # a time, not a thing refused
        "我领导更喜欢用微信沟通",  # someone else's liking
        "That is what I want",
    ],
)
def test_look_alikes_give_no_leaning(said: str) -> None:
    assert _prefs(said) == set()


def test_a_pick_said_as_an_imperative_is_no_rule() -> None:
    kinds = {a.kind for a in extract_atoms("Beach holidays bore me — give me mountains any time.")}
    assert "instruction" not in kinds
    assert instead("give me a minute") is None
    assert instead("give me mountains and a cabin.") == "mountains and a cabin"


def test_the_readers_by_themselves() -> None:
    assert leanings_of("我不只用苹果") == []  # "not only"
    assert specified("especially when it rains") is None
    assert specified("特别是芒果") == "芒果"
    assert restated("我妈喜欢吃辣") is None
    assert restated("我不太喜欢吃辣") is None
    assert restated("周末我喜欢爬山") == "我喜欢爬山"
