"""Standing instructions by form, round 9: Chinese whose clauses are set off by spaces
("写代码的时候 加上注释"), an earlier request made standing by a pro-form ("do that every
time", "以后都这样"), a default ("Could you default to…?", "默认…"), a topic the talk comes
to before a comma ("提到钱，用人民币算"), a condition with its rule before the comma ("if
you don't know just say so, …"), an indirect question inside a rule ("先告诉我要不要…"), a
word named by its quote ("别再用“亲”这个字了"), "keep it X" under a lasting scope, a wish
whose subject is what the assistant writes ("It would help if all your summaries…"); and the
look-alikes that are none: the talk put off ("再说吧", "以后再说"), a state become ("以后都
这样了"), someone's own doings ("I'll do that every time I go"), courtesies ("no rush"), a
taste said as a pick ("give me Civ over CoD"), a noun and its verb ("start date is the
3rd"), the user's habit ("写代码我基本就用Python").

The sentences are the helper's own, written apart from the evaluation sets."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms
from langgraph_memory.extraction.instruction_gaps import spaced


def instructions(text: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "instruction"]


@pytest.mark.parametrize(
    ("text", "part", "sign"),
    [
        # spaces for commas
        ("写代码的时候 加上注释", "注释", 1),
        ("讲历史的时候 多讲点背景", "背景", 1),
        ("每次推荐电影 别剧透", "剧透", -1),
        ("回答我的时候 用英文", "英文", 1),
        ("如果不确定 就直接说不知道", "不知道", 1),
        ("那个回答太啰嗦了 以后跟我说话简洁点", "简洁", 1),
        ("我是程序员 所以例子尽量用代码", "代码", 1),
        # an earlier request made standing
        ("nice, do the same for every email from now on", "do the same", 1),
        ("yes, keep doing that going forward", "keep doing that", 1),
        ("do that every time I ask for a summary", "do that", 1),
        ("很好，以后都这样", "以后都这样", 1),
        ("对 以后就照这个来吧", "照这个来", 1),
        # a default; a topic, then a comma
        ("Can you default to metric units from now on?", "metric", 1),
        ("Could you default to British spelling?", "British", 1),
        ("提到钱，用人民币算", "人民币", 1),
        ("聊到旅行，默认我从上海出发", "上海", 1),
        # the rule before the condition's comma; an indirect question; a named word
        ("if you don't know just say so, no guessing", "say so", 1),
        ("如果我问你法律问题，先告诉我该不该找律师", "律师", 1),
        ("别再用“亲爱的”这个词了", "亲爱的", -1),
        ("I share my screen a lot, so keep it clean at all times", "keep it clean", 1),
        # a wish whose subject is what the assistant writes
        ("It would help if all your summaries started with the conclusion", "conclusion", 1),
        ("I'd love it if your answers had fewer bullet points", "bullet points", 1),
        ("give me metric units over imperial", "metric", 1),  # a pick of the replies' make-up
    ],
)
def test_an_instruction_of_its_form(text: str, part: str, sign: int) -> None:
    got = instructions(text)
    assert any(part in value and pol == sign for value, pol in got), got


@pytest.mark.parametrize(
    "text",
    [
        "讲历史的时候",  # a condition alone, no rule (not "候" of its 时候)
        "嗯 再说吧",
        "以后再说 先吃饭",
        "回头再聊吧",
        "以后都这样了，没办法",
        "好的，就这样吧",
        "今天好累 不想说话",
        "别哭了 没事的",
        "别担心 一切都会好的",
        "明天提醒我 交水电费",
        "说到这个，推荐你去云南",
        "推荐本周的电影",
        "I'll do that every time I go",
        "we should do that every summer",
        "do that again",
        "keep doing that, you're doing great",
        "if you get a chance look at the draft, no rush",
        "no rush, take your time",
        "keep it up, always",
        "I'd appreciate it if the report was done by Friday",
        "It would be great if the kids were in bed by nine",
        # a taste said as a pick; a noun and its verb; the user's own habit
        "give me hiking holidays over cruises any day, I hate crowds",
        "honestly give me vinyl over streaming",
        "end result was fine, start time is 9 though",
        "if the flat had been free I'd have moved in, but nope",  # what did not happen
        "画画我基本就用Procreate，别的软件太复杂了",
        "现在走路到单位只要五分钟",  # 只要 before a quantity: it only takes
        "我只用安卓，别的用不习惯",  # "别的": other ones, no prohibition
        "反正周末都放假",  # "放假": a word, not 放 + what
        "想换个笔记本 推荐啥牌子",  # a question without its mark
        "我们老师很好 一道题能给我讲好几遍",  # what one can do, not a rule
    ],
)
def test_a_look_alike_is_none(text: str) -> None:
    assert instructions(text) == []


def test_a_space_beside_a_latin_word_parts_no_clause() -> None:
    assert spaced("翻译的时候保留原文 放在译文上面")
    assert not spaced("代码用 Tab 缩进")
    assert not spaced("日期用 YYYY-MM-DD 格式")
