"""Standing instructions, preferences and slots read by their form (English and Chinese),
and what the memory shows of an update: the current value first, the earlier one marked.

The sentences here are the helper's own, written apart from the evaluation set
(``benchmarks/beliefs.py`` measures that one)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.extraction.clauses import strip_particles
from langgraph_memory.extraction.extractor import extract_atoms
from langgraph_memory.extraction.instructions import instruction_of
from langgraph_memory.extraction.preferences import preferences_of
from langgraph_memory.extraction.slots import slots_of
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 3, 1, tzinfo=timezone.utc)


def kinds(text: str) -> set[str]:
    return {a.kind for a in extract_atoms(text) if a.kind != "entity"}


# -- standing instructions -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "part", "sign"),
    [
        ("Use metric units.", "metric units", 1),  # a plain imperative about the replies
        ("Don't use emojis.", "use emojis", -1),  # a prohibition
        ("Avoid jargon.", "jargon", -1),
        ("Keep your answers short.", "answers short", 1),
        ("If you're not sure, say so.", "say so", 1),  # a conditional
        ("You should always cite your sources.", "cite your sources", 1),  # a modal
        ("I'd appreciate it if you'd use 24-hour time from now on.", "24-hour time", 1),
        ("Could you stop apologising all the time?", "apologising", -1),  # a polite request
        ("Heads up: I'm on a Mac, so give me keyboard shortcuts with Cmd.", "shortcuts", 1),
        ("Two rules for this repo: tabs not spaces, and snake_case names.", "tabs", 1),
        ("用中文回答。", "用中文回答", 1),
        ("不要用表情符号。", "用表情符号", -1),
        ("别给我推荐辣的菜。", "推荐辣的菜", -1),
        ("如果你不确定，就直接说不知道。", "直接说不知道", 1),
        ("今后所有金额都换算成人民币。", "换算成人民币", 1),
        ("凡是涉及到钱的计算，保留两位小数。", "保留两位小数", 1),
        ("不要再道歉了。", "道歉", -1),
    ],
)
def test_an_instruction_is_read_by_its_form(text: str, part: str, sign: int) -> None:
    found = [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "instruction"]
    assert len(found) == 1, found
    value, polarity = found[0]
    assert part in value and polarity == sign


@pytest.mark.parametrize(
    "text",
    [
        "Write me a poem about spring.",  # a one-off request
        "Translate this into French.",
        "Use the second approach instead.",
        "Just answer in French this time.",
        "Don't worry about it.",  # advice between people
        "Never give up!",
        "Keep going.",
        "Do you always use tabs?",  # a question
        "Can you log each request?",
        "Imagine you never used emojis.",  # a hypothetical
        "My boss always says never use emojis.",  # someone else's words
        '"Always answer in French," she said.',
        "帮我翻译一下这段话。",
        "用Python写一个排序函数。",
        "别担心。",
        "菜谱上说一定要用无盐黄油，真有区别吗？",
        "我老板说不要用表情符号。",
        "所有客户端都启用了限流。",  # what happened, not what to do
        "隔壁组的人都用浅色主题。",
        "我决定以后只吃火锅了，别的都不吃了😂 开玩笑的",  # a joke
    ],
)
def test_look_alikes_make_no_instruction(text: str) -> None:
    assert "instruction" not in kinds(text)


def test_instruction_of_on_its_own() -> None:
    assert instruction_of("Never apologize in your replies.") == ("apologize in your replies", -1)
    assert instruction_of("Explain how transformers work.") is None
    assert instruction_of("") is None


# -- preferences ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value", "sign"),
    [
        ("Given the choice, I'd pick the window seat.", "window seat", 1),  # choice
        ("My go-to is a cold brew.", "cold brew", 1),
        ("Spicy food is not my thing.", "Spicy food", -1),
        ("Tea beats coffee any day.", "Tea", 1),  # comparison
        ("Dogs are way better than cats.", "Dogs", 1),
        ("I run every morning.", "run", 1),  # habit
        ("I buy the same black sneakers every year.", "black sneakers", 1),
        ("I almost never drive, I bike everywhere.", "drive", -1),
        ("Not a big fan of cilantro tbh.", "cilantro", -1),
        ("比起咖啡，我更喜欢茶。", "茶", 1),
        ("我宁可走路也不坐公交。", "走路", 1),
        ("咖啡我只喝美式。", "美式", 1),
        ("黑色运动鞋我每年都买同一款。", "黑色运动鞋", 1),
        ("甜的我吃不来。", "甜的", -1),
        ("我对海鲜不太感冒。", "海鲜", -1),
    ],
)
def test_a_preference_is_read_by_its_form(text: str, value: str, sign: int) -> None:
    found = [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "preference"]
    assert any((value in v or v in value) and p == sign for v, p in found), found


@pytest.mark.parametrize(
    "text",
    [
        "My roommate can't stand jazz.",  # someone else's taste
        "I used to drink four coffees a day but I quit.",  # ended
        "Tonight I'm in the mood for pizza.",  # for now only
        "If I were rich I'd live in Paris.",
        "我女儿喜欢猫不喜欢狗。",
        "我以前每天喝三杯咖啡，去年戒了。",
        "我们绝对不会支持平板，只做手机。",
        "这个适不适合回调处理器？",
    ],
)
def test_look_alikes_make_no_preference(text: str) -> None:
    assert "preference" not in kinds(text)


def test_habits_are_stated_or_guessed_by_their_frequency() -> None:
    assert preferences_of("Every morning I have a flat white.")[0][2] == "explicit"
    assert preferences_of("Mostly I listen to 90s hip hop while coding.")[0][2] == "inferred"


def test_code_and_material_make_no_belief() -> None:
    text = "Could you review this?\n\n```python\ndef f(rows: list[dict]) -> list[dict]:\n```"
    assert kinds(text) == set()
    assert kinds("Translate this: I live in Paris and I love cheese.") == set()


# -- particles ---------------------------------------------------------------------------------
def test_a_chinese_value_keeps_no_particle() -> None:
    assert strip_particles("海鲜也") == "海鲜"
    facts = [(a.key, a.value) for a in extract_atoms("我对海鲜也过敏。") if a.kind == "fact"]
    assert facts == [("allergy", "海鲜")]


# -- slots and updates ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Our new place in Porto has a river view.", "location", "Porto"),
        ("Took a full-time job at Deloitte.", "employer", "Deloitte"),
        ("Started my new job as a UX designer today.", "occupation", "UX designer"),
        ("Marco moved teams, so now I answer to Lena.", "manager", "Lena"),
        ("Sarah moved out, she's just a friend now.", "role of Sarah", "friend"),
        ("We adopted a second dog last week!", "number of dogs", "a second"),
        ("The launch slipped to April 10.", "date of launch", "April 10"),
        ("Scratch that, we're doing Korea instead.", "plan", "doing Korea"),
        ("搬来深圳第一周，天天下雨。", "location", "深圳"),
        ("今天领了华为的工牌，正式入职啦。", "employer", "华为"),
        ("王总退休了，新来的领导姓陈。", "manager", "陈"),
        ("又领养了一只狗，现在两只了。", "number of dogs", "两只"),
        ("第三个孩子出生了！", "number of children", "第三个"),
        ("婚礼推迟到十月了。", "date of wedding", "十月"),
    ],
)
def test_a_slot_said_in_passing(text: str, key: str, value: str) -> None:
    assert (key, value) in [(k, v) for k, v, _ in slots_of(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Where do I work now?",
        "Could you review my plan to compact small files?",
        "同学的论文截止日期推到了九月。",
        # "the 4th / 13th / 36th time": no count (it was read as a count of plants, from 花生)
        "我对花生过敏，第4次提到。",
        "我对花生过敏，第十三次提到。",
        "花生我已经说了第36遍了。",
    ],
)
def test_questions_and_others_things_fill_no_slot(text: str) -> None:
    assert slots_of(text) == []


@pytest.fixture()
def mm():
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as m:
        yield m


@pytest.mark.parametrize(
    ("said", "question", "old", "new", "marker"),
    [
        (
            ["I work at Shopify on the payments team.", "What's a good pasta recipe?",
             "Last day at Shopify was Friday; I start at Stripe on Monday!"],
            "Which company am I with now?", "Shopify", "Stripe", "earlier: Shopify",
        ),
        (
            ["The wedding is on June 14.", "We pushed the wedding back to September 20."],
            "When is the wedding?", "June 14", "September 20", "earlier: June 14",
        ),
        (
            ["我领导是张姐，人挺好的。", "一升等于多少毫升？", "张姐调走了，现在我归李总管。"],
            "我现在的上级是谁？", "张姐", "李总", "此前：张姐",
        ),
    ],
)  # fmt: skip
def test_an_update_shows_the_current_value_first_and_the_old_one_as_earlier(
    mm: MemoryManager, said: list[str], question: str, old: str, new: str, marker: str
) -> None:
    for i, text in enumerate(said):
        mm.add_message("u", "s1", "user", text, timestamp=T0 + timedelta(days=i))
    mm.flush()
    prompt = mm.build_context("u", "s2", question, token_budget=1000).to_prompt()
    assert new in prompt and prompt.index(new) < prompt.index(old)
    assert marker in prompt
    current = [f for f in mm.profile.facts("u", current=True) if f.object == new]
    assert current and current[0].earlier == old
