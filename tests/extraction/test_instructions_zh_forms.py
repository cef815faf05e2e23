"""Chinese standing instructions in forms the chit-chat guards must not swallow: 回 with a
messaging noun, a modal naming a language or a tool, a bare 你 before a reply part, a
prohibition of a length; and chit-chat that stays no rule."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms


def _rules(text: str) -> list[tuple[str, int]]:
    atoms = extract_atoms(text, role="user")
    return [(str(a.value), a.polarity) for a in atoms if a.kind == "instruction"]


@pytest.mark.parametrize(
    "text",
    [
        "以后回微信都简短点。",
        "回评论要礼貌。",
        "你要用Go写。",
        "你得说人话。",
        "你要注意用词。",
        "你所有金额都换算成人民币。",
        "别写那么长了。",
    ],
)
def test_a_rule_for_the_replies_is_read(text: str) -> None:
    assert _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "你要多注意休息啊",
        "别说了，头都大了",
        "那你每周只用跑三天深圳",
        "你要用心啊",
        "别吃那么多了",
    ],
)
def test_chit_chat_is_no_rule(text: str) -> None:
    assert _rules(text) == []


def test_a_length_prohibited_is_negative() -> None:
    assert all(sign < 0 for _, sign in _rules("别写那么长了。"))
