"""Standing instructions read by their form when they are addressed to the assistant, and
no instruction or preference from two-person chit-chat (exclamations, reactions to what
the other speaker showed, advice between friends).

The sentences are the helper's own, written apart from the evaluation sets."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms


def of_kind(text: str, kind: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == kind]


@pytest.mark.parametrize(
    ("text", "part", "sign"),
    [
        ("I want short answers.", "short answers", 1),  # a want whose object is the replies
        ("I need distances in kilometres.", "distances in kilometres", 1),
        ("I'd prefer that you answer in one paragraph.", "one paragraph", 1),
        ("Don't ever round numbers in calculations.", "round numbers", -1),
        ("Quote prices in euros.", "prices in euros", 1),  # "quote" the verb, not a quote
        ("Assume I'm a beginner when explaining finance.", "beginner", 1),  # a late condition
        ("Give me the answer first, then the explanation.", "answer first", 1),  # an order
        ("Show the code before explaining it.", "code before", 1),  # "it" is the code
        ("Explain like I'm twelve.", "twelve", 1),
        ("Remember to give me the metric and imperial units.", "imperial units", 1),
        ("I love it when you use bullet points.", "bullet points", 1),
        ("我要简短的回答。", "简短的回答", 1),
        ("推荐餐厅的时候别推荐有肉的，我吃素。", "有肉", -1),  # a condition with no comma
        ("给菜谱的时候先写准备时间。", "准备时间", 1),
        ("讲理财的时候把我当新手。", "新手", 1),
        ("不确定的时候先问我，别自己猜。", "问我", 1),
        ("不知道就直说不知道。", "不知道", 1),
        ("别老说“好问题”。", "好问题", -1),  # what the assistant says, not quoted speech
        ("每次都在开头放一句话总结。", "总结", 1),
        ("代码用Tab缩进，不要空格。", "Tab", 1),  # a part of the replies, then its rule
        ("温度同时给摄氏和华氏。", "摄氏", 1),
        ("例子尽量短一点。", "短", 1),
        ("结尾都加一句总结。", "总结", 1),
        ("说话随意点就行。", "随意", 1),
        ("给我写邮件时语气正式一点。", "正式", 1),
        ("跟我说话像朋友一样，别像教科书。", "朋友", 1),
        ("以后能不能别再加表情了？", "表情", -1),
        ("你犯错不用道歉。", "道歉", -1),
        ("别用表情包了，看着累。", "表情包", -1),  # stop now, but a part of the replies
        ("你回复要简短。", "简短", 1),  # a modal about the replies
        ("每次都提醒我喝水。", "提醒我喝水", 1),  # a reminder with a lasting scope
        ("回我消息的时候用英文。", "英文", 1),  # 回 with its object: reply
        ("你代码都用Python写。", "Python", 1),  # "你", then a part of the replies
    ],
)
def test_an_instruction_to_the_assistant_by_its_form(text: str, part: str, sign: int) -> None:
    got = of_kind(text, "instruction")
    assert any(part.casefold() in v.casefold() and p == sign for v, p in got), got


@pytest.mark.parametrize(
    "text",
    [
        "Call me when you land.",  # acts between friends, not on the replies
        "Give me a call if you need anything.",
        "Never thought I'd say this, but I miss school.",  # a past form: what happened
        "I like your answers!",  # a compliment
        "It's great that you get to spend time with your family!",
        "Let's keep working together on this project, it's been fun.",
        "You should totally try that bakery next time you're in town!",
        "Keep me updated on how the interview goes!",
        "你知道吗，我超爱吃辣。",  # a bare "你…" is no request
        "你一定要去参加那个比赛，肯定能赢！",
        "面试结果出来了告诉我哈！",
        "这狗也太可爱了吧！叫什么名字？",
    ],
)
def test_chit_chat_makes_no_instruction(text: str) -> None:
    assert of_kind(text, "instruction") == []


@pytest.mark.parametrize(
    "text",
    [
        "你要注意身体啊，别太拼了。",  # a modal of care for the listener, not the replies
        "你得按时吃饭啊。",
        "你要多加小心，路上慢点。",
        "别讲了，烦死了。",  # 别…了: stop it now
        "别写了，早点睡吧。",
        "提醒她带上身份证，不然进不去。",  # a one-off reminder about someone else
        "先回公司拿电脑，再去机场。",  # 回 is going back, not replying
        "真羡慕，那你每天只用上半天班。",  # a bare "你", then the listener's own week
        "你每周只用去两次健身房就行。",
    ],
)
def test_talk_between_people_makes_no_standing_instruction(text: str) -> None:
    """Said to a friend (or a one-off errand), these rode along as standing instructions
    in every context of a two-person chat and pushed the evidence out (zh_daily)."""
    assert of_kind(text, "instruction") == []


@pytest.mark.parametrize(
    "text",
    [
        "I love that you chose pottery for your art.",  # the other speaker's news
        "Wow! Winning first place is amazing!",  # an exclamation at their news
        "Wow, Mel, family love and support is the best!",
        "That photo is amazing, I love the colours!",  # a part of what was shown
        "I love how supportive you are.",
        "Art's allowed me to grow. I love that it teaches me patience.",
        "I don't want future generations to go through that.",
        "你下次来一定要去那家面包店尝尝！",  # advice to the other speaker
        "那张照片好美，颜色我很喜欢！",
    ],
)
def test_reactions_in_a_chat_make_no_preference(text: str) -> None:
    assert of_kind(text, "preference") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I love that kind of music.", "kind of music"),
        ("I love creating art!", "creating art"),
        ("Thanks, Gina! I love running my own studio.", "running my own studio"),
        ("I prefer you use tabs.", "you use tabs"),  # what the assistant should do stays
        ("我喜欢这个牌子的咖啡。", "这个牌子的咖啡"),
        ("我还是喜欢那种小场地的民谣。", "民谣"),
        ("你知道吗，我超爱吃辣。", "辣"),
    ],
)
def test_a_taste_of_ones_own_stays(text: str, value: str) -> None:
    assert any(value in v for v, _ in of_kind(text, "preference"))
