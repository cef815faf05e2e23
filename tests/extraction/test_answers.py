"""A choice said as the answer to the assistant's question: the user's words carry the
pick, the question only tells what was offered. Sentences are the helper's own."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.answers import answer_head, chosen


def picks(question: str, answer: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in chosen(question, answer)]


@pytest.mark.parametrize(
    ("question", "answer", "value"),
    [
        ("Do you like your eggs scrambled or poached?", "Poached, runny yolk please", "Poached"),
        ("Window or middle seat on the bus?", "window for sure, I get carsick", "window"),
        (
            "Shall I look for a quiet cafe or a lively bar?",
            "quiet cafe. I want to read",
            "quiet cafe",
        ),
        ("Paperbacks or e-books?", "e-books — they weigh nothing", "e-books"),
        ("你吃面喜欢宽面还是细面？", "宽面吧，有嚼劲", "宽面"),
        ("周末想去爬山还是看展？", "看展！我膝盖不好", "看展"),
        ("好的。早饭吃包子还是煎饼？", "嗯，煎饼吧", "煎饼"),
    ],
)
def test_a_pick_among_the_offered_options_is_a_liking_in_the_users_words(
    question: str, answer: str, value: str
) -> None:
    [atom] = chosen(question, answer)
    assert (atom.value, atom.polarity, atom.kind) == (value, 1, "preference")
    assert atom.value in answer  # the user's words, never the question's
    assert atom.text == answer.strip()


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Tea or juice?", "tea for now, thanks"),  # a pick for now only
        ("Tea or juice?", "either is fine"),  # a hedge
        ("Tea or juice?", "neither, just water"),
        ("Tea or juice?", "tea? what do you have"),  # asks back
        ("Did you order the soup or the salad?", "the salad"),  # a fact of the past
        ("Is the exam on Monday or Friday?", "Friday"),
        ("会议是周三还是周四？", "周四"),  # a fact, not a taste
        ("你昨天吃了面还是饭？", "面"),
        ("喝点红茶还是绿茶？", "都行"),
        ("这次坐地铁还是打车？", "这次打车吧"),  # this time only
        ("Any plans tonight?", "cinema, probably"),  # nothing offered to pick from
        ("Green tea or black tea?", "tea"),  # named on both sides: no pick
        ("Coffee or tea?", "I honestly could not care less about hot drinks today"),
    ],
)
def test_no_pick_no_liking(question: str, answer: str) -> None:
    assert picks(question, answer) == []


def test_the_head_is_cheap_and_short() -> None:
    assert answer_head("Aisle, always.") == "Aisle"
    assert answer_head("煎饼吧，") == "煎饼"
    assert answer_head("I think I'd rather talk about something else entirely today") is None
    assert answer_head("我觉得都差不多吧") is None


@pytest.mark.parametrize(
    ("question", "answer", "value"),
    [
        (
            "Nice! Do you have a favourite?",
            "Oh definitely rooibos. Red bush tea in general.",
            "rooibos",
        ),
        (
            "What kind of cheese do you usually go for?",
            "Aged goudas, mostly Dutch ones.",
            "Aged goudas",
        ),
        (
            "Do you have a preferred font for slides?",
            "sans serif, nothing fancy please",
            "sans serif",
        ),
        ("Sure, which do you prefer?", "corner booth please, I like the quiet", "corner booth"),
        ("你最喜欢什么水果？", "山竹，甜", "山竹"),
        ("你平时一般听什么类型的歌？", "民谣 安静", "民谣"),
    ],
)
def test_a_thing_named_when_asked_what_the_user_likes_is_a_liking(
    question: str, answer: str, value: str
) -> None:
    assert picks(question, answer) == [(value, 1)]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What does your husband usually order?", "the lamb"),  # someone else's taste
        ("What would you like for lunch today?", "a wrap"),  # for now
        ("What did you have for dinner?", "ramen"),  # the past
        ("Do you have a favourite?", "Good question"),  # no thing
        ("Do you have a favourite?", "yes, a few"),
        ("你平时喝茶吗？", "喝，普洱最好"),  # a yes/no question answered yes
        ("他平时喜欢什么？", "篮球"),  # someone else
        ("你最喜欢什么水果？", "不知道"),
    ],
)
def test_no_liking_when_the_question_asks_no_lasting_taste_of_the_user(
    question: str, answer: str
) -> None:
    assert picks(question, answer) == []


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Do you have a favourite series?", "For sure! Both are amazing"),  # agreeing
        ("What do you usually do for the holidays?", "During Easter, we bake"),  # a time
        ("你平时最喜欢什么运动？", "在家的话，瑜伽"),  # a place first
    ],
)
def test_an_agreement_or_a_time_is_no_thing_named(question: str, answer: str) -> None:
    assert picks(question, answer) == []


@pytest.mark.parametrize(
    ("question", "answer", "values"),
    [
        # the part after the pick singles one thing out of it: both are liked
        ("Beer or cider, in general?", "cider, specifically a dry Normandy one", ["cider"]),
        (
            "Do you prefer cats or dogs?",
            "dogs, mostly Labradors, they're goofy",
            ["dogs", "Labradors"],
        ),
        ("你平时喜欢喝红茶还是绿茶？", "绿茶！尤其是龙井", ["绿茶", "龙井"]),
        # a part after the pick that narrows nothing adds nothing
        ("Do you prefer cats or dogs?", "dogs, they're goofy", ["dogs"]),
        ("Do you prefer cats or dogs?", "dogs, mostly because they're goofy", ["dogs"]),
    ],
)
def test_a_narrower_part_after_the_pick_is_liked_too(
    question: str, answer: str, values: list[str]
) -> None:
    assert picks(question, answer) == [(v, 1) for v in values]


@pytest.mark.parametrize(
    ("question", "answer", "value"),
    [
        (
            "What do you usually put on when you cook?",
            "mostly old soul records",
            "old soul records",
        ),
        ("What do you normally grab for lunch?", "Pho, when I can", "Pho"),
    ],
)
def test_what_the_user_usually_does_whatever_the_verb(
    question: str, answer: str, value: str
) -> None:
    assert picks(question, answer) == [(value, 1)]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What time do you usually leave the office?", "mostly six"),
        ("What does your brother usually reach for?", "mostly comics"),
    ],
)
def test_a_habit_question_about_a_time_or_someone_else_is_no_taste(
    question: str, answer: str
) -> None:
    assert picks(question, answer) == []


@pytest.mark.parametrize(
    ("question", "answer", "value"),
    [
        ("你们平时喜欢吃什么？", "火锅吧 我们几个都能吃辣", "火锅"),  # the user among those asked
        (
            "What do you all usually play?",
            "co-op stuff, we get too heated otherwise",
            "co-op stuff",
        ),
    ],
)
def test_a_question_to_a_group_holding_the_user_is_answered_for_them(
    question: str, answer: str, value: str
) -> None:
    assert picks(question, answer) == [(value, 1)]


def test_a_question_about_their_organisation_is_no_taste() -> None:
    assert picks("你们公司一般用什么软件？", "飞书吧 还行") == []
