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
        # an adverb inside the polite frame, a lasting scope before the polite question
        ("It would honestly help if you could cite page numbers from now on.", "page numbers", 1),
        ("In future, could you skip the small talk?", "small talk", 1),
        ("Going forward, can you put the summary first?", "summary first", 1),
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
        "So, could you help me with this one?",  # a polite one-off after a lead word
        "In future, could we meet on Mondays?",  # a plan of ours, not the replies
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
        ("Ramen is my all-time favourite thing to cook.", "Ramen", 1),  # what it is a favourite of
        ("Whenever I fly, I book an aisle seat.", "aisle seat", 1),  # "whenever": a habit
        ("篮球是我最喜欢的运动。", "篮球", 1),  # the thing first, then what it is
        ("榴莲是我最爱吃的水果。", "榴莲", 1),
        ("Board meetings bore me.", "Board meetings", -1),  # a verb of feeling, the user its object
        ("Open-plan offices drive me up the wall.", "Open-plan offices", -1),
        ("Slow walkers get on my nerves.", "Slow walkers", -1),
        ("I've been hooked on sourdough baking.", "sourdough baking", 1),
        ("Espresso, the stronger the better.", "Espresso", 1),
        ("Techno isn't really for me.", "Techno", -1),  # "for me", negated
        ("I'm big into chess.", "chess", 1),
        ("My evenings are all about crosswords.", "crosswords", 1),
        ("I usually steer clear of energy drinks.", "energy drinks", -1),
        ("Okra feels slimy to me, I avoid it.", "Okra", -1),  # "it": the clause before
        ("I'm sensitive to caffeine, so I stay away from it.", "caffeine", -1),
        ("甜口的我真吃不了。", "甜口的", -1),
        ("我是铁杆的曼联球迷。", "曼联", 1),  # a fan of it
        ("我对网游没什么兴趣。", "网游", -1),
        ("我对天文特别感兴趣。", "天文", 1),
        ("我特别怕热。", "热", -1),
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
        "If I had more time, I'd bake bread every weekend.",  # an unreal world, every clause
        "要是我中了彩票，我天天坐头等舱。",
        "假如有一天退休了，我每天都去钓鱼。",
        "My neighbour bores me.",  # a person, not a taste
        "我之前一直用安卓，后来换了苹果。",  # a habit that ended
        "If I ever open a bakery, I'll only bake rye.",  # a future in an unreal world
        "我怕他不高兴。",  # a fear about someone else, no taste
        "My sister adores it, I avoid it.",  # "it" names nothing plain
        "I can't avoid rush hour.",
        "I was a big energy-drink guy until last year.",  # a liking that is over
        "以前我特别爱喝奶茶，现在戒了。",
        "Yeah, because I just adore filling in forms.",  # sarcasm
        "Sure, I love waiting on hold 😒",
        "我闺蜜不吃辣，一点都不行。",  # a friend's taste, named by how she is related
        "发小特别爱吃香菜。",
        "我对象不喜欢看恐怖片。",
    ],
)
def test_look_alikes_make_no_preference(text: str) -> None:
    assert "preference" not in kinds(text)


def test_habits_the_user_states_are_explicit_hedged_or_not() -> None:
    assert preferences_of("Every morning I have a flat white.")[0][2] == "explicit"
    assert preferences_of("Mostly I listen to 90s hip hop while coding.")[0][2] == "explicit"
    assert preferences_of("出差我一般住全季。") == [("住全季", 1, "explicit")]
    # only the side a comparison implies is guessed
    assert preferences_of("I'd take tea over coffee.")[1] == ("coffee", -1, "inferred")


def test_a_habit_with_a_perfect_subject_or_after_a_clause_of_when() -> None:
    # "I've been…" as "Been…"; "Whenever…" with no comma before the user's habit
    assert preferences_of("I've been using Arch Linux for 6 years.") == [
        ("Arch Linux", 1, "explicit")
    ]
    assert preferences_of("Whenever I fly I pick an aisle seat.") == [("aisle seat", 1, "explicit")]
    assert preferences_of("I've been so tired for 6 years.") == []


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
        ("Spent the weekend painting our Lisbon flat.", "location", "Lisbon"),  # a home by city
        ("Changed jobs, currently at Atlassian.", "employer", "Atlassian"),  # "now at", job talk
        ("Ines is leading my team now.", "manager", "Ines"),  # who runs the user's team
        ("Rescued one more cat, four cats in total.", "number of cats", "four"),  # said outright
        ("Got promoted, I'm staff engineer now.", "occupation", "staff engineer"),  # no article
        ("I'm based in Oslo these days.", "location", "Oslo"),  # no time words in the value
        ("The vet called: the appointment is now May 9.", "date of appointment", "May 9"),
        ("Dentist's office rang, the appointment is now June 2.", "date of dentist", "June 2"),
        ("我的顶头上司换成了赵姐。", "manager", "赵姐"),  # a modifier before the role
        ("去年评上了高级工程师。", "occupation", "高级工程师"),
        ("I'm at Airbus working on wings.", "employer", "Airbus"),  # "I'm at X" in job talk
        ("Wrapped up my fourth half marathon today.", "number of marathons", "fourth"),  # ordinal
        ("I've finished nine books so far this year.", "number of books", "nine"),
        ("我在拼多多做采购。", "employer", "拼多多"),
        ("上个月离职了，现在在网易上班。", "employer", "网易"),  # the time word is no person
        ("不干了，现在做健身教练。", "occupation", "健身教练"),
        ("我们组长是阿杰。", "manager", "阿杰"),
    ],
)
def test_a_slot_said_in_passing(text: str, key: str, value: str) -> None:
    assert (key, value) in [(k, v) for k, v, _ in slots_of(text)]


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("I'd prefer you to leave out the caveats.", "leave out the caveats"),  # "I'd" + modal
        ("我的回复里不要出现繁体字。", "出现繁体字"),  # the replies to the user
        ("你说话委婉一点。", "委婉"),  # how to talk, asked of the assistant
        ("回答简洁些。", "简洁"),
        ("It would help if you always included a TL;DR.", "include a TL;DR"),  # tense of "if you"
        ("You don't need to repeat my question every time.", "repeat my question"),
        ("Let's keep every query in SQL.", "SQL"),
        ("Be brutally honest about my drafts.", "honest"),
        ("Temperatures should always be in Celsius.", "Celsius"),  # a noun of the replies
        ("Talk to me like a colleague.", "like a colleague"),
        ("不要动不动就道歉。", "道歉"),  # "动不动" is no question
        ("别再推荐健身房了。", "推荐健身房"),  # an imperative names no one who said it
        ("不许编造数据。", "编造数据"),
        ("说话别那么客气。", "客气"),  # a topic, then the prohibition for it
    ],
)
def test_more_instruction_forms(text: str, part: str) -> None:
    got = instruction_of(text)
    assert got is not None and part in got[0], got


@pytest.mark.parametrize(
    "text",
    [
        "这次回答简洁些。",
        "他说话直接一点。",
        "用德语回一下这条。",
        "For this reply only, drop the intro.",
        "The prices should drop soon.",  # a forecast
        "Let's meet tomorrow.",
        "You don't need to book anything today.",
    ],
)
def test_manner_for_once_or_of_others_is_no_instruction(text: str) -> None:
    assert "instruction" not in kinds(text)
    assert [k for k, _, _ in slots_of(text)] == []  # "回一下这条" names no city


@pytest.mark.parametrize(
    "text",
    [
        "Yep, let's keep making great memories with our loved ones and cherishing the time.",
        "Let's keep working together to make our town something to be proud of!",
        "Let's keep working to make a difference.",
        "Let's talk again soon!",
        "Let us always look out for each other.",
    ],
)
def test_a_plan_of_ours_is_no_instruction(text: str) -> None:
    # "let's…" proposes what the speakers do together; it instructs the replies only when
    # it names them ("Let's keep answers short.")
    assert "instruction" not in kinds(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Let's keep answers short.", "short"),
        ("Let's stick to English from now on.", "English"),
        ("Let's keep our replies brief.", "brief"),
    ],
)
def test_a_lets_about_the_replies_is_an_instruction(text: str, word: str) -> None:
    found = [a.value for a in extract_atoms(text) if a.kind == "instruction"]
    assert any(word in v for v in found), found


def test_a_lasting_dislike_is_no_ended_liking() -> None:
    found = [(a.value, a.polarity) for a in extract_atoms("I don't eat meat anymore.")]
    assert ("meat", -1) in found or any("meat" in v and p == -1 for v, p in found), found


@pytest.mark.parametrize(
    "text",
    [
        "Where do I work now?",
        "Could you review my plan to compact small files?",
        "同学的论文截止日期推到了九月。",
        "小赵升走了。",  # "升走": no trade
        "现在做饭呢。",  # no trade named
        "I'm at the gym, working out.",
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
        (
            ["我在新加坡工作。", "一升等于多少毫升？", "搬回吉隆坡以后，通勤短多了。"],
            "我住在哪座城市？", "新加坡", "吉隆坡", "此前：新加坡",  # a city is no employer
        ),
        (
            ["We have two cats.", "Any tips for a squeaky door?",
             "We took in another kitten, so that's three cats now."],
            "How many cats do I have?", "two", "three", "earlier: two",
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
