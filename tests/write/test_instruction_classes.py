"""Standing instructions by their grammatical class, in both languages: a rule after a
reason ("…so quote prices in euros", "…，所以字数尽量少一点"), what the assistant makes as
the subject ("Any email you draft must…", "帮我写的邮件落款统一用…"), a condition whose
consequence is a verbless request (", bullet points please") or said with 就 and no comma
("聊到吃的就顺便说一下热量"), a polite question after its occasion ("算数之前能不能…"), a
request with its tag ("…了好吗"), "do me a favour and…"; and the look-alikes of each
class that are none: a reason then a task now, a passing state, what happened, praise of
what it made, a guess after a condition ("说不定会…"), a sentence about one thing ("这题…").

The sentences are the helper's own, written apart from the evaluation sets; the second
half of each list was written after the rules and only measured."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms


def instructions(text: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "instruction"]


@pytest.mark.parametrize(
    ("text", "part", "sign"),
    [
        # a reason of the user's, then "so" and the rule
        ("I hate scrolling so put the answer first", "answer first", 1),
        ("I like choosing myself, so give me two options instead of one", "two options", 1),
        ("My team reads your summaries too, so keep everything PG, always", "PG", 1),
        ("I'm lactose intolerant so never suggest recipes with cream", "cream", -1),
        ("We use Postgres at work, so write any SQL for Postgres", "Postgres", 1),
        ("I read on my phone, so keep your answers short", "short", 1),
        ("我眼睛不好，所以字数尽量少一点", "字数", 1),
        # what the assistant makes, as the subject of the rule
        ("Every recipe you suggest has to be vegetarian", "vegetarian", 1),
        ("Any plan you make for me should include a rest day", "rest day", 1),
        ("All the code you write should have docstrings", "docstrings", 1),
        ("any summary you give me should be under 100 words", "100 words", 1),
        ("帮我写的邮件都要用正式的语气", "正式", 1),
        ("帮我起草的合同别用缩写", "缩写", -1),
        ("每次帮我订的机票都要靠窗", "靠窗", 1),
        # a condition, then a verbless request or a rule after 就
        ("when you explain anything, examples please", "examples", 1),
        ("if you list things, numbered lists please, I lose track otherwise", "numbered", 1),
        ("if you give me a recipe, metric units please", "metric", 1),
        ("提到钱就用人民币算", "人民币", 1),
        ("以后聊到吃的就顺便说一下大概热量", "热量", 1),
        ("提到价格就换算成人民币", "人民币", 1),
        # a polite question after its occasion; a request with its tag; a favour asked
        ("写代码之前能不能每次先确认需求", "确认需求", 1),
        ("写代码之前能不能先跟我确认需求", "确认需求", 1),
        ("以后别用英文回答了好吗", "英文", -1),
        ("你以后别再叫我全名了好吗", "全名", -1),
        ("do me a favor and never use the word delve", "delve", -1),
        ("It would help if you nudged me to stretch every hour", "stretch", 1),
        ("要是回答会很长的话，先问我要不要详细版", "详细版", 1),
    ],
)
def test_an_instruction_of_its_class(text: str, part: str, sign: int) -> None:
    got = instructions(text)
    assert any(part in value and pol == sign for value, pol in got), (text, got)


@pytest.mark.parametrize(
    "text",
    [
        # a reason, then a task now, a passing state, or what happened
        "I love Italian food so recommend a restaurant",
        "I'm tired so tell me a joke",
        "I'm hungry so suggest a recipe",
        "I went hiking so give me a stretching routine",
        "We went to Rome so it was fun",
        "My sister lives in Paris so she speaks French",
        "I'm on a budget so suggest a cheap dinner",
        "I was late so my boss was mad",
        "我最近很忙，所以今天就不聊了",
        # what it made, said of; what others make; a past one
        "The prices you quoted yesterday must be wrong",
        "The emails my boss writes must be formal",
        "你给我推荐的电影很好看",
        "帮我写的代码有bug",
        "给我推荐的书都挺好看的",
        "给我推荐的那家餐厅挺好吃的",
        "帮我做的表格都很清楚",
        # a condition not about the replies, a feeling after 就, a guess after a condition
        "when I'm sad, ice cream please",
        "说到他就来气",
        "说到减肥就头疼",
        "要是我搬去东京住，说不定会爱上纳豆哈哈",
        "要是你不确定的话，说不定可以先查一下",
        # a polite question about the user's own doing; stop it now; a favour between people
        "出门之前能不能帮我看看天气？",
        "出门之前能不能带把伞",
        "你别哭了好吗",
        "你别生气了好吗",
        "do me a favour and grab milk on the way home",
        # a sentence about one thing: its clauses are about it
        "这题直接给答案，不用解释",
        "这篇文章帮我改改，别改太多",
    ],
)
def test_a_look_alike_of_a_class_is_no_instruction(text: str) -> None:
    assert instructions(text) == [], text
