"""Whether a user's sentence is said to the assistant: the gates before the learned second
opinion (cue, the addressee's own life, the user telling and not asking)."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.instructions_addressed import (
    addressed,
    cue,
    own_life,
    told_not_asked,
)


@pytest.mark.parametrize(
    "sentence",
    [
        "Never use emojis.",
        "Skip the small talk.",
        "ok so please just cite sources",
        "I'm tracking my intake so include rough calories",
        "Leave them out in anything you write for me.",
        "for anything work-related keep it formal, please",
        "My last assistant kept giving me paragraph-long answers, it drove me nuts.",
        "以后都用中文回答",
        "嗯，以后一直这样，三句话以内。",
        "代码注释给我写英文的哈 组里有外国同事",
    ],
)
def test_a_sentence_that_may_ask_the_assistant_has_a_cue(sentence: str) -> None:
    assert cue(sentence)
    assert addressed(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["We went hiking last weekend.", "The weather was lovely.", "My sister got a new job."],
)
def test_plain_chat_has_no_cue(sentence: str) -> None:
    assert not cue(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Whenever you get a chance, call your mum.",
        "That way your videos don't flop when you post them.",
        "Take your car in for a service before the trip.",
    ],
)
def test_advice_about_the_addressees_own_life_is_not_for_the_assistant(sentence: str) -> None:
    assert own_life(sentence)
    assert not addressed(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Keep your answers short.",
        "Double-check your arithmetic before giving me a number.",
        "Give me your top pick and one alternative.",
        "把你的回答控制在三句话以内。",
    ],
)
def test_what_the_assistant_writes_or_gives_the_user_is_not_its_own_life(sentence: str) -> None:
    assert not own_life(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "每次算账的时候我都头疼。",
        "Sometimes it's hard when things don't go my way, but I'm sure if I keep pushing, "
        "I'll reach my dreams!",
        "I skip breakfast most days, I just don't feel hungry until noon.",
        "我家小孩今年上小学了。",
    ],
)
def test_the_user_telling_of_themself_asks_nothing(sentence: str) -> None:
    assert told_not_asked(sentence)
    assert not addressed(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm vegetarian, so never suggest meat.",
        "I watch everything late, so no spoilers ever.",
        "I don't want reminders.",
        "我是色弱，以后画图表别用红绿配色",
        "我问英语单词的时候顺便给个例句。",
        "我家孩子也会用这个账号 所以内容必须适合小学生",
    ],
)
def test_a_reason_about_the_user_with_a_rule_beside_it_is_still_asked(sentence: str) -> None:
    assert not told_not_asked(sentence)


def test_a_rule_for_the_replies_does_not_swallow_the_taste_beside_it() -> None:
    from langgraph_memory.extraction.extractor import extract_atoms

    said = "No commute, no small talk, give me remote work any day."
    kinds = {(a.kind, a.value) for a in extract_atoms(said) if a.kind == "preference"}
    assert kinds == {("preference", "remote work")}


@pytest.mark.parametrize(
    "said",
    [
        "团队想在下个版本之前统一错误格式。",  # a group's wish, reported
        "团队的密钥都放在 Vault 的 kv/team-atlas 路径下。",  # where someone's things are
        "我的代码都放在 GitHub 上。",
        "填学校表格要用：我的学号是 20417736。",  # the user's own value, a bare verb before it
        "Sparse documentation is a dealbreaker for me, no matter how elegant the code.",
    ],
)
def test_a_statement_is_no_standing_instruction(said: str) -> None:
    from langgraph_memory.extraction.extractor import extract_atoms

    assert [a.value for a in extract_atoms(said) if a.kind == "instruction"] == []


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("你的回答都放在一个代码块里", "放在一个代码块里"),  # the assistant's things: a rule
        ("所有的代码都放在一个代码块里", "放在一个代码块里"),  # every one: a rule
        ("代码的注释都用英文写", "用英文写"),  # what the assistant writes: a rule
        ("生成的代码都加上类型注解", "加上类型注解"),
        ("No emojis, no matter what.", "emojis, no matter what"),
    ],
)
def test_a_rule_beside_those_forms_stays(said: str, value: str) -> None:
    from langgraph_memory.extraction.extractor import extract_atoms

    assert [a.value for a in extract_atoms(said) if a.kind == "instruction"] == [value]
