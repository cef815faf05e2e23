"""Attachments read by grammar (identity, pseudo-cleft, topic and pronoun, devotion,
refusal), clauses restated so a stance can be read (a fronted adverbial, a dropped Chinese
subject), chat spellings, and the instruction forms of issue 39 (kind-of-request scopes,
trigger words, verbless requests) with their look-alikes.

The sentences are the helper's own, written apart from the evaluation sets."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.attachment import attachment_of, restated
from langgraph_memory.extraction.extractor import extract_atoms
from langgraph_memory.extraction.spelling import plain_spelling


def of_kind(text: str, kind: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == kind]


@pytest.mark.parametrize(
    ("text", "atoms"),
    [
        ("I'm definitely a dog person.", [("dog", 1)]),  # identity
        ("I'm much more of a city person than a country person.", [("city", 1), ("country", -1)]),
        ("I'm never a Vim person.", [("Vim", -1)]),  # a negated identity
        ("I'm an Arsenal fan.", [("Arsenal", 1)]),
        ("But what I truly enjoy is slow jazz.", [("slow jazz", 1)]),  # pseudo-cleft
        ("What I can't stand is small talk.", [("small talk", -1)]),
        ("Board games — adore them.", [("Board games", 1)]),  # a topic, then a pronoun
        ("Window seats, every single time.", [("Window seats", 1)]),  # a verbless pick
        ("I've had old Motown records on repeat.", [("old Motown records", 1)]),
        ("I've had Nina Simone on repeat.", [("Nina Simone", 1)]),  # a name one plays
        ("I'm always out on my bike.", [("bike", 1)]),
        ("Karaoke sounds like my worst nightmare.", [("Karaoke", -1)]),
        ("Raisins ruin every cookie.", [("Raisins", -1)]),
        ("我对火锅是真爱。", [("火锅", 1)]),
        ("我用惯了纸质书。", [("纸质书", 1)]),
        ("科幻片我能刷好几遍。", [("科幻片", 1)]),
        ("我宁愿坐高铁。", [("坐高铁", 1)]),
        ("香菜我打死也不吃。", [("香菜", -1)]),
        ("我偶尔喝点精酿啤酒。", [("精酿啤酒", 1)]),
    ],
)
def test_an_attachment_by_its_grammar(text: str, atoms: list[tuple[str, int]]) -> None:
    assert [(v, p) for v, p, _ in attachment_of(text)] == atoms


@pytest.mark.parametrize(
    "text",
    [
        "I'm a very private person.",  # a character, not a taste
        "I'm a creative person.",
        "Thanks for always being there!",  # a clause, not a verbless pick
        "Sharing our stories isn't always easy.",
        "我对这个结果很满意。",
        # no kind named: an article, a negation or a role in its place (review 2, item 4)
        "I'm a guy.",
        "I'm the guy.",
        "I'm the type.",
        "I'm not the type.",
        "I'm the delivery guy.",
        "I'm just a regular guy.",
        # not a thing one plays, not a liking, a request (item 10)
        "I had the flu on repeat.",
        "I've got the alarm on repeat.",
        "I'm always out with the dog",
        "I'm mostly out on the road",
        "What I want is a refund.",
        "What I really want is to sleep.",
        # a medicine, a negated verb (item 8)
        "我偶尔吃点安眠药",
        "我宁愿不去",
    ],
)
def test_no_attachment_from_look_alikes(text: str) -> None:
    assert attachment_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I'm a guy.",
        "I'm the guy.",
        "I'm not the type.",
        "I'm the delivery guy.",
        "I'm just a regular guy.",
        "I had the flu on repeat.",
        "I'm always out with the dog",
        "I'm mostly out on the road",
        "What I want is a refund.",
        "还是去医院",  # a plan after all, not a liking of the place (item 8)
        "也用微信",  # an aside
        "我偶尔吃点安眠药",  # a medicine: health data, not a taste
        "我宁愿不去",
        "i luv ur cat",  # "ur" stays as written, and someone else's cat is no taste
    ],
)
def test_look_alikes_make_no_preference(text: str) -> None:
    assert of_kind(text, "preference") == []


def test_a_negated_identity_is_a_dislike() -> None:
    assert of_kind("I'm never a Vim person", "preference") == [("Vim", -1)]


def test_restated_clauses() -> None:
    assert restated("After the move to Oslo I got hooked on cross-country skiing") == (
        "I got hooked on cross-country skiing"
    )
    assert restated("更喜欢喝乌龙茶") == "我更喜欢喝乌龙茶"  # a dropped subject: the user
    assert restated("我看电影喜欢看纪录片") == "我喜欢看纪录片"  # the domain's verb phrase out
    assert restated("他更喜欢喝乌龙茶") is None  # someone named: nothing to restate
    assert restated("平时用微信") == "我平时用微信"  # a habit adverb and a verb of habit
    assert restated("还是去医院") is None  # a plan after all: no stance, no habit
    assert restated("也用微信") is None


@pytest.mark.parametrize(
    ("text", "value", "sign"),
    [
        ("Late evenings I'm always out on my bike.", "bike", 1),  # fronted adverbial
        ("If it's up to me I always order the ramen.", "ramen", 1),  # a choice's frame
        # "anymore" ends only its own clause: the liking beside it stands
        ("Aisle seats, always — I can't sit by the window anymore.", "Aisle seats", 1),
        ("Tea is fine, but what I really like is cold brew.", "cold brew", 1),
        ("我不爱吃甜的，还是喜欢咸口的零食。", "咸口的零食", 1),  # the second clause too
        ("i realy dont like olives", "olives", -1),  # chat spellings
        ("我灰常喜欢爬山", "爬山", 1),
    ],
)
def test_a_preference_in_a_message(text: str, value: str, sign: int) -> None:
    assert any(value in v and p == sign for v, p in of_kind(text, "preference"))


@pytest.mark.parametrize(
    "text", ["I used to love jazz, but not anymore.", "I loved karaoke, not anymore."]
)
def test_a_liking_said_to_be_over_stays_out(text: str) -> None:
    assert [v for v, p in of_kind(text, "preference") if p > 0] == []


def test_plain_spelling_changes_whole_lower_case_words_only() -> None:
    assert plain_spelling("plz use metric w/ u answers") == "please use metric with you answers"
    assert plain_spelling("U.S. dates, IM me, a u-turn") == "U.S. dates, IM me, a u-turn"
    # two readings stay as written: "yr" (year, your), "ur" (your, you're), "cuz" (cousin)
    assert plain_spelling("i luv my 3 yr old laptop") == "I love my 3 yr old laptop"
    assert plain_spelling("ur the best, my cuz says") == "ur the best, my cuz says"


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("For all my Excel questions assume the 2019 version.", "2019 version"),  # a kind scope
        ("So: for code reviews, list the blocking issues first.", "blocking issues"),
        ("When I type 'wrap up', that means summarise the thread in three lines.", "wrap up"),
        ("Distances in kilometres please.", "kilometres"),  # a verbless request
        ("Could you keep examples short for the rest of this course?", "examples short"),
        ("pls nevr use emojis w/ me", "emojis"),
        ("以后所有的会议纪要都要列出负责人。", "负责人"),
        ("我跟你抱怨的时候你别急着讲道理。", "讲道理"),  # a condition with no comma
        ("只要是写邮件，优先用正式的语气。", "正式"),  # a condition, not someone's words
        ("不要在结尾问我还需不需要帮助。", "帮助"),  # an ask inside a rule, not a question
        ("你能不能以后说话别那么啰嗦？", "啰嗦"),
        ("当我说“开工”，你就列出今天的待办。", "开工"),  # a trigger word
    ],
)
def test_an_instruction_by_its_form(text: str, part: str) -> None:
    assert any(part in v for v, _ in of_kind(text, "instruction"))


@pytest.mark.parametrize(
    "text",
    [
        "For this chart only, use a log scale.",  # only this one
        "就这一段，翻得口语一点。",
        "先问你个事儿，别嫌我烦。",  # the user announcing their words
        "以前每天都会跑步，后来工作忙就再没跑过了。",  # a story of the past
        "给我点面试上的建议",  # something wanted now
        "我最爱周一了😅 说正经的，周报怎么写？",  # jest before a turn to earnest
    ],
)
def test_look_alikes_make_no_instruction(text: str) -> None:
    assert of_kind(text, "instruction") == []
