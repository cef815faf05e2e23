"""Extraction of memory atoms: a labelled table in English and Chinese (precision and
recall measured and asserted), entities, the LLM path with fake chat models, and
properties (never raises; spans are substrings of the input)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory.extraction.extractor import (
    CONFIDENCE,
    KINDS,
    Extractor,
    MemoryAtom,
    aextract_atoms,
    extract_atoms,
)

# (text, expected atoms as (kind, key or None, value, polarity)); entities are scored apart.
Expected = tuple[str, str | None, str, int]
EN: list[tuple[str, list[Expected]]] = [
    ("I'm allergic to peanuts.", [("fact", "allergy", "peanuts", 1)]),
    (
        "I prefer tea over coffee.",
        [("preference", None, "tea", 1), ("preference", None, "coffee", -1)],
    ),
    ("I love hiking in the mountains.", [("preference", None, "hiking in the mountains", 1)]),
    ("I don't like horror movies.", [("preference", None, "horror movies", -1)]),
    ("I hate waiting in line.", [("preference", None, "waiting in line", -1)]),
    ("I don't think I like jazz.", [("preference", None, "jazz", -1)]),
    ("My name is Sarah Connor.", [("fact", "name", "Sarah Connor", 1)]),
    ("Call me Bob.", [("fact", "preferred_name", "Bob", 1)]),
    ("I live in Berlin.", [("fact", "location", "Berlin", 1)]),
    ("I moved to Tokyo last year.", [("fact", "location", "Tokyo", 1)]),
    ("I work at Google.", [("fact", "employer", "Google", 1)]),
    ("I work as a nurse.", [("fact", "occupation", "nurse", 1)]),
    ("I'm a software engineer.", [("fact", "occupation", "software engineer", 1)]),
    ("I'm 34 years old.", [("fact", "age", "34", 1)]),
    ("My favorite color is blue.", [("preference", "favorite color", "blue", 1)]),
    ("My sister is Anna.", [("relation", "sister", "Anna", 1)]),
    ("Anna is my sister.", [("relation", "sister", "Anna", 1)]),
    ("My brother works at Microsoft.", [("relation", "works_at", "Microsoft", 1)]),
    ("From now on, please answer in English.", [("instruction", None, "answer in English", 1)]),
    ("Always use metric units.", [("instruction", None, "use metric units", 1)]),
    ("Never use emojis.", [("instruction", None, "use emojis", -1)]),
    (
        "We decided to use PostgreSQL for the backend.",
        [("decision", "decision", "use PostgreSQL for the backend", 1)],
    ),
    ("Let's go with the blue design.", [("decision", "decision", "the blue design", 1)]),
    ("Remind me to call mom tomorrow.", [("task", "reminder", "call mom tomorrow", 1)]),
    ("I need to renew my passport.", [("task", "todo", "renew my passport", 1)]),
    (
        "At work, I prefer Slack over email.",
        [("preference", None, "Slack", 1), ("preference", None, "email", -1)],
    ),
    ("I prefer oat milk for coffee.", [("preference", None, "oat milk", 1)]),
    ("I usually drink green tea in the morning.", [("preference", None, "drink green tea", 1)]),
    (
        "I really enjoy reading science fiction, but I hate fantasy.",
        [("preference", None, "reading science fiction", 1), ("preference", None, "fantasy", -1)],
    ),
    ("I'm a big fan of the Beatles.", [("preference", None, "the Beatles", 1)]),
    ("I no longer eat meat.", [("preference", None, "eat meat", -1)]),
    ("My dog's name is Rex.", [("relation", "dog", "Rex", 1)]),
    ("I have a peanut allergy.", [("fact", "allergy", "peanut", 1)]),
    ("I'm originally from Lyon.", [("fact", "hometown", "Lyon", 1)]),
    ("Going forward, don't use bullet points.", [("preference", None, "use bullet points", -1)]),
    ("We agreed on a weekly sync.", [("decision", "decision", "a weekly sync", 1)]),
    ("Don't let me forget to water the plants.", [("task", "reminder", "water the plants", 1)]),
    ("I can't stand loud music.", [("preference", None, "loud music", -1)]),
    ("I think I like spicy food.", [("preference", None, "spicy food", 1)]),
    (
        "I live in Paris and I work at Airbus.",
        [("fact", "location", "Paris", 1), ("fact", "employer", "Airbus", 1)],
    ),
    # negatives: questions, hypotheticals, hedges, requests, past, other people
    ("If I liked jazz, I'd go to the concert.", []),
    ("Do I like sushi?", []),
    ("I'm not sure if I like opera.", []),
    ("I'm not allergic to anything.", []),
    ("I used to like coffee.", []),
    ("I like it.", []),
    ("I'd like a coffee, please.", []),
    ("What do I like?", []),
    ("Suppose I lived in Rome, what would I eat?", []),
    ("Do you remember where I live?", []),
    ("The weather is nice today.", []),
    ("Could you explain how transformers work?", []),
    ("My opinion is not important here.", []),
    ("Would you like some tea?", []),
]
ZH: list[tuple[str, list[Expected]]] = [
    ("我喜欢喝咖啡", [("preference", None, "喝咖啡", 1)]),
    ("我更喜欢茶而不是咖啡", [("preference", None, "茶", 1), ("preference", None, "咖啡", -1)]),
    ("我不喜欢香菜", [("preference", None, "香菜", -1)]),
    ("我讨厌下雨天", [("preference", None, "下雨天", -1)]),
    ("我对花生过敏", [("fact", "allergy", "花生", 1)]),
    ("我住在上海", [("fact", "location", "上海", 1)]),
    ("我在腾讯工作", [("fact", "employer", "腾讯", 1)]),
    ("我叫小明", [("fact", "name", "小明", 1)]),
    ("叫我老王就好", [("fact", "preferred_name", "老王", 1)]),
    ("以后请用中文回答", [("instruction", None, "用中文回答", 1)]),
    ("以后不要给我推荐辣的菜", [("instruction", None, "给我推荐辣的菜", -1)]),
    ("请记住我的生日是五月三日", [("fact", "生日", "五月三日", 1)]),
    ("我们决定用Redis做缓存", [("decision", "decision", "用Redis做缓存", 1)]),
    ("提醒我明天下午三点开会", [("task", "reminder", "明天下午三点开会", 1)]),
    ("我需要买一台新电脑", [("task", "todo", "买一台新电脑", 1)]),
    ("我的妹妹叫小红", [("relation", "妹妹", "小红", 1)]),
    ("小红是我的妹妹", [("relation", "妹妹", "小红", 1)]),
    ("我最喜欢的颜色是蓝色", [("preference", "颜色", "蓝色", 1)]),
    ("我不觉得我喜欢爵士乐", [("preference", None, "爵士乐", -1)]),
    ("工作的时候我更喜欢安静的环境", [("preference", None, "安静的环境", 1)]),
    ("我平时喝绿茶", [("preference", None, "喝绿茶", 1)]),
    ("我是一名软件工程师", [("fact", "occupation", "软件工程师", 1)]),
    ("我今年三十岁", [("fact", "age", "三十", 1)]),
    ("我的同事张伟在阿里巴巴工作", [("relation", "works_at", "阿里巴巴", 1)]),
    ("比起猫，我更喜欢狗", [("preference", None, "狗", 1), ("preference", None, "猫", -1)]),
    ("我一点也不喜欢加班", [("preference", None, "加班", -1)]),
    ("请总是用简体中文回复", [("instruction", None, "用简体中文回复", 1)]),
    ("那就用方案B吧", [("decision", "decision", "方案B", 1)]),
    ("我搬到了深圳", [("fact", "location", "深圳", 1)]),
    ("我来自四川", [("fact", "hometown", "四川", 1)]),
    ("我是北京人", [("fact", "hometown", "北京", 1)]),
    ("我非常喜欢看科幻电影", [("preference", None, "看科幻电影", 1)]),
    (
        "我对海鲜过敏，以后请别推荐海鲜餐厅",
        [("fact", "allergy", "海鲜", 1), ("instruction", None, "推荐海鲜餐厅", -1)],
    ),
    ("我的名字是李雷", [("fact", "name", "李雷", 1)]),
    ("我们最后决定下周发布", [("decision", "decision", "下周发布", 1)]),
    ("别忘了提醒我交房租", [("task", "reminder", "交房租", 1)]),
    ("我受不了吵闹的环境", [("preference", None, "吵闹的环境", -1)]),
    ("我现在住在杭州，在阿里巴巴上班", [("fact", "location", "杭州", 1)]),
    ("我不吃辣", [("preference", None, "辣", -1)]),
    ("我爱吃火锅", [("preference", None, "火锅", 1)]),
    # negatives
    ("如果我喜欢爵士乐，我就会去听音乐会", []),
    ("我喜欢什么？", []),
    ("我以前喜欢咖啡", []),
    ("我爱你", []),
    ("你喜欢什么？", []),
    ("我对花生不过敏", []),
    ("我不确定我是否喜欢歌剧", []),
    ("你还记得我住在哪里吗？", []),
    ("今天天气不错", []),
    ("请解释一下什么是向量数据库", []),
    ("假如我住在北京，我会每天骑车", []),
    ("他喜欢打篮球", []),
]


def _norm(s: str) -> str:
    return s.strip().lower()


def _matches(atom: MemoryAtom, exp: Expected) -> bool:
    kind, key, value, polarity = exp
    return (
        atom.kind == kind
        and _norm(atom.value) == _norm(value)
        and atom.polarity == polarity
        and (key is None or _norm(atom.key) == _norm(key))
    )


def _score(table: list[tuple[str, list[Expected]]]) -> tuple[float, float, list[str]]:
    ex = Extractor(entities=False)
    tp = fp = fn = 0
    misses: list[str] = []
    for text, expected in table:
        got = ex.extract(text)
        for atom in got:
            if any(_matches(atom, e) for e in expected):
                tp += 1
            else:
                fp += 1
                misses.append(f"FP {text!r}: {atom.kind} {atom.key}={atom.value} {atom.polarity}")
        for e in expected:
            if not any(_matches(a, e) for a in got):
                fn += 1
                misses.append(f"FN {text!r}: {e}")
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, misses


def test_table_sizes() -> None:
    assert len(EN) >= 40 and len(ZH) >= 40
    assert sum(not e for _, e in EN) >= 10 and sum(not e for _, e in ZH) >= 10


@pytest.mark.parametrize(("name", "table"), [("en", EN), ("zh", ZH)])
def test_precision_and_recall(name: str, table: list[tuple[str, list[Expected]]]) -> None:
    precision, recall, misses = _score(table)
    print(
        f"\nextraction {name}: precision {precision:.3f} recall {recall:.3f} on {len(table)} cases"
    )
    for line in misses:
        print("  " + line)
    assert precision >= 0.85, misses
    assert recall >= 0.85, misses


#: Standing instructions (to the assistant, about what it says or makes), and advice
#: between people that only looks like one.
INSTRUCTIONS: list[tuple[str, list[tuple[str, int]]]] = [
    ("From now on, always use APA 7th edition for references.", [("use APA 7th edition", 1)]),
    ("Going forward, don't use pandas in the examples.", [("use pandas in the examples", -1)]),
    ("When I ask about deployment, give me the shell commands first.", [("give me the", 1)]),
    ("Whenever you write Python, add type hints.", [("add type hints", 1)]),
    ("For any SQL you write for me, stick to uppercase keywords.", [("uppercase keywords", 1)]),
    ("Please always answer with code blocks.", [("answer with code blocks", 1)]),
    ("Start every answer with a one-line summary.", [("one-line summary", 1)]),
    ("以后回答都用中文并附上代码注释", [("用中文并附上代码注释", 1)]),
    ("每次给代码都加上类型注解", [("加上类型注解", 1)]),
    ("当我问到部署的时候，请先给出命令", [("先给出命令", 1)]),
    ("问到部署的时候，先给我命令行步骤。", [("先给我命令行步骤", 1)]),
    ("回答开头先用一句话总结。", [("先用一句话总结", 1)]),
    ("以后不要给我推荐辣的菜", [("给我推荐辣的菜", -1)]),
    ("Never give up!", []),
    ("Always be yourself.", []),
    ("In every city, I found a nice cafe.", []),
    # a polite question asking for something lasting is a standing instruction
    ("Could you always use tabs?", [("use tabs", 1)]),
    ("以后要多锻炼身体", []),
    ("如果以后都用中文回答，会不会更慢？", []),
]


@pytest.mark.parametrize(("text", "expected"), INSTRUCTIONS)
def test_standing_instructions_en_and_zh(text: str, expected: list[tuple[str, int]]) -> None:
    found = [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "instruction"]
    assert len(found) == len(expected), found
    for (value, polarity), (part, sign) in zip(found, expected, strict=True):
        assert part in value and polarity == sign


def test_preferences_with_would_always_and_rather() -> None:
    atoms = extract_atoms("Personally I'd always go with boring, proven tech over shiny tools.")
    assert [(a.value, a.polarity) for a in atoms if a.kind == "preference"] == [
        ("boring, proven tech", 1),
        ("shiny tools", -1),
    ]
    rather = extract_atoms("I'd rather use Postgres.")
    assert [a.value for a in rather if a.kind == "preference"] == ["Postgres"]
    assert extract_atoms("I'd rather not.") == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("I love your turtles so much!", []),  # a compliment, not the user's taste
        ("You're right, I love it and that'll keep my confidence up.", []),
        ("I love you guys!", []),
        ("我喜欢你做的菜", []),
        ("I prefer you use tabs.", ["you use tabs"]),  # what the other should do stays
        ("我喜欢你用中文回答", ["你用中文回答"]),
        ("I love all dances, but contemporary is my top pick.", ["all dances"]),
        ("我喜欢绿茶", ["绿茶"]),
    ],
)
def test_a_liking_without_an_object_of_ones_own_is_no_preference(
    text: str, values: list[str]
) -> None:
    assert [a.value for a in extract_atoms(text) if a.kind == "preference"] == values


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a big believer in minimal dependencies.", [("minimal dependencies", 1)]),
        ("Minimal dependencies matter a lot to me.", [("Minimal dependencies", 1)]),
        ("Readability matters more to me than performance.", [("Readability", 1)]),
        ("Simplicity is very important to me.", [("Simplicity", 1)]),
        ("Tests are a must for me.", [("Tests", 1)]),
        ("Dark mode works best for me.", [("Dark mode", 1)]),
        ("I tend to avoid heavy frameworks.", [("heavy frameworks", -1)]),
        ("I'm not a fan of ORMs.", [("ORMs", -1)]),
        ("I lean towards static typing.", [("static typing", 1)]),
        ("I'm more of a Vim person.", [("Vim", 1)]),
        ("I find tabs easier to read than spaces.", [("tabs", 1)]),
        ("I'd prefer answers in bullet points.", [("answers in bullet points", 1)]),
        ("我习惯用 Python 写脚本。", [("用 Python 写脚本", 1)]),
        ("对我来说，可读性最重要。", [("可读性", 1)]),
        # no liked thing of the user's own
        ("It matters to me that you're here.", []),
        ("What works best for me is morning runs.", []),
        ("I find it hard to focus.", []),
        ("I'd prefer not to say.", []),
        ("I'm a very private person.", []),
    ],
)
def test_preferences_said_without_like_or_prefer(
    text: str, expected: list[tuple[str, int]]
) -> None:
    got = [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "preference"]
    assert got == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Use APA style for every citation you give me.",
            [("Use APA style for every citation you give me", 1)],
        ),
        ("I want every answer to start with a summary.", [("start with a summary", 1)]),
        ("Remember to always format dates as ISO 8601.", [("format dates as ISO 8601", 1)]),
        ("For the rest of this project, use TypeScript.", [("use TypeScript", 1)]),
        ("Stop using bullet points.", [("using bullet points", -1)]),
        ("No more emojis, please.", [("emojis", -1)]),
        ("Default to Python 3.12 syntax in examples.", [("Python 3.12 syntax in examples", 1)]),
        (
            "You should always explain your reasoning briefly.",
            [("explain your reasoning briefly", 1)],
        ),
        ("Be concise from here on.", [("Be concise", 1)]),
        ("所有的回答都要附上参考来源。", [("附上参考来源", 1)]),
        ("记得每次都用ISO格式写日期。", [("用ISO格式写日期", 1)]),
        # not instructions to the assistant
        ("Stop worrying about it.", []),
        ("No more excuses!", []),
        ("My sister says you should always stretch before running.", []),
        ("We should be fine from now on.", []),
        ("我每次都用这个杯子喝水。", []),
        ("所有的孩子都要参加。", []),
    ],
)
def test_more_ways_to_say_a_standing_instruction(
    text: str, expected: list[tuple[str, int]]
) -> None:
    got = [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "instruction"]
    assert got == expected


def test_diets_are_facts() -> None:
    for text, value in [("I'm vegetarian.", "vegetarian"), ("我是素食者。", "素食者")]:
        facts = [(a.key, a.value) for a in extract_atoms(text) if a.kind == "fact"]
        assert facts == [("diet", value)]


# -- details: sources, confidences, scopes, spans, roles ---------------------------------------
def test_explicit_and_inferred_confidence() -> None:
    (atom,) = [a for a in extract_atoms("I love Rust.", llm=None) if a.kind != "entity"]
    assert (
        (atom.source, atom.confidence)
        == ("explicit", CONFIDENCE["explicit"])
        == (
            "explicit",
            1.0,
        )
    )
    (habit,) = [a for a in extract_atoms("I usually drink green tea.") if a.kind == "preference"]
    assert (habit.source, habit.confidence) == ("explicit", 1.0)  # the user said it
    (hedge,) = [a for a in extract_atoms("I think I like jazz.") if a.kind == "preference"]
    assert (hedge.source, hedge.confidence) == ("inferred", 0.6)


def test_scopes_en_and_zh() -> None:
    (a, b) = [x for x in extract_atoms("At work, I prefer Slack over email.") if x.kind != "entity"]
    assert a.scope == b.scope == "At work"
    (c,) = [x for x in extract_atoms("I prefer oat milk for coffee.") if x.kind != "entity"]
    assert c.scope == "for coffee"
    (d,) = [x for x in extract_atoms("工作的时候我更喜欢安静的环境") if x.kind != "entity"]
    assert d.scope == "工作的时候" and d.language == "zh"


def test_assistant_statements_are_inferred_and_about_the_assistant() -> None:
    atoms = [a for a in extract_atoms("I prefer short answers.", role="assistant")]
    assert [(a.subject, a.source, a.confidence) for a in atoms] == [("assistant", "inferred", 0.6)]
    assert [a.kind for a in extract_atoms("I like tea.", role="tool")] == []


def test_timestamp_is_copied() -> None:
    ts = datetime(2024, 5, 8, tzinfo=timezone.utc)
    assert all(a.timestamp == ts for a in extract_atoms("我住在上海", timestamp=ts))


def test_entities_en_and_zh() -> None:
    atoms = extract_atoms("I met Alice Smith in Paris. She works at Acme Corp.")
    ents = {(a.value, a.key) for a in atoms if a.kind == "entity"}
    assert {("Alice Smith", "person"), ("Paris", "place"), ("Acme Corp", "org")} <= ents
    zh = {(a.value, a.key) for a in extract_atoms("我的同事张伟在北京工作") if a.kind == "entity"}
    assert {("张伟", "person"), ("北京", "place")} <= zh
    assert not [a for a in extract_atoms("The cat sat on the mat.") if a.kind == "entity"]


def test_async_twin() -> None:
    atoms = asyncio.run(aextract_atoms("I live in Berlin."))
    assert ("location", "Berlin") in [(a.key, a.value) for a in atoms]


# -- the LLM path ------------------------------------------------------------------------------
GOOD = (
    '{"atoms": [{"kind": "preference", "subject": "user", "key": "drink", "value": "tea", '
    '"polarity": 1, "scope": null, "source": "explicit", "text": "I really like tea"}, '
    '{"kind": "fact", "subject": "user", "key": "city", "value": "Paris", "polarity": 1, '
    '"source": "inferred", "text": "made-up span"}]}'
)


def test_llm_good_json() -> None:
    llm = FakeListChatModel(responses=[GOOD])
    atoms = extract_atoms("I really like tea, and Paris is home.", llm=llm)
    assert [(a.kind, a.key, a.value, a.confidence) for a in atoms] == [
        ("preference", "drink", "tea", 1.0),
        ("fact", "city", "Paris", 0.6),
    ]
    assert atoms[0].text == "I really like tea"
    assert atoms[1].text == "Paris"  # a span not in the message is replaced by the value


@pytest.mark.parametrize("answer", ["not json at all", '{"atoms": [{"kind": "mood"}]}', "{}"])
def test_llm_malformed_falls_back_to_rules(answer: str) -> None:
    llm = FakeListChatModel(responses=[answer])
    atoms = extract_atoms("I don't like horror movies.", llm=llm)
    assert [(a.kind, a.value, a.polarity) for a in atoms] == [("preference", "horror movies", -1)]


def test_llm_exception_falls_back_to_rules() -> None:
    class Broken(FakeListChatModel):
        def _call(self, *args: object, **kwargs: object) -> str:
            raise RuntimeError("provider down")

    atoms = extract_atoms("我住在上海", llm=Broken(responses=["x"]))
    assert ("location", "上海") in [(a.key, a.value) for a in atoms]


def test_llm_async() -> None:
    atoms = asyncio.run(
        aextract_atoms("I really like tea", llm=FakeListChatModel(responses=[GOOD]))
    )
    assert atoms[0].value == "tea"


# -- properties --------------------------------------------------------------------------------
_words = st.sampled_from(
    "I I'm my we like love prefer don't hate never always if not tea Paris Alice is at in to "
    "remind me decided let's go with 我 我们 喜欢 不 讨厌 过敏 对 住在 叫 以后 请 提醒 决定 "
    "如果 吗 ？ ? , ， . 。 the a coffee 咖啡 北京 张伟".split()
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=80), st.lists(_words, max_size=14).map(" ".join)))
def test_never_raises_and_spans_are_substrings(text: str) -> None:
    for atom in extract_atoms(text):
        assert atom.text in text
        assert atom.kind in KINDS
        assert atom.polarity in (1, -1)
        assert atom.confidence == CONFIDENCE[atom.source]


_WORDS = [w for text, _ in EN + ZH for w in text.replace(".", " . ").split()] + [
    "我",
    "喜欢",
    "不",
    "以后请",
    "过敏",
    "?",
    "I",
    "don't",
    "like",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12), st.booleans())
def test_the_rules_cue_gates_skip_no_sentence_a_rule_matches(
    words: list[str], spaced: bool
) -> None:
    from langgraph_memory.extraction.cues import opened
    from langgraph_memory.extraction.extractor import _RULES_BY_LANG, _language

    sentence = (" " if spaced else "").join(words)
    rules, gates = _RULES_BY_LANG[_language(sentence)]
    searched = set(opened(gates, sentence))
    for i, (r, gated) in enumerate(zip(rules, gates, strict=True)):
        # each rule's cue gate (extraction/cues.py) skips no match
        assert [m.span() for m in gated.finditer(sentence)] == [
            m.span() for m in r.pattern.finditer(sentence)
        ]
        assert i in searched or r.pattern.search(sentence) is None


def test_the_rule_gates_open_for_every_labelled_sentence() -> None:
    from langgraph_memory.extraction.cues import opened
    from langgraph_memory.extraction.extractor import _RULES_BY_LANG, _language

    for text, _ in EN + ZH:
        rules, gates = _RULES_BY_LANG[_language(text)]
        searched = set(opened(gates, text))
        assert all(i in searched for i, r in enumerate(rules) if r.pattern.search(text))
