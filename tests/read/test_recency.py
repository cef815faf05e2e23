"""Updates shown current-first whatever words they were said in (``read.recency``), through
the public API with the packaged model: a move, a job change, a date pushed back and a count
grown, in English and Chinese, each said without any cue the change rules know (no "moved
to", "now", "换", "改到"...), and unrelated statements left as they are."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.records import Message
from langgraph_memory.embeddings import MiniLMEmbeddings
from langgraph_memory.extraction.changes import changes_of
from langgraph_memory.read.leading import clauses, current_leads
from langgraph_memory.read.recency import current_first, find_update
from langgraph_memory.storage import InMemoryBackend

pytestmark = pytest.mark.slow

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)
FILLER = {
    "en": [
        ("user", "How many cups are in a litre?"),
        ("assistant", "About 4.2 US cups."),
        ("user", "Any tips for sleeping on a plane?"),
        ("assistant", "A neck pillow and earplugs help."),
    ],
    "zh": [
        ("user", "一升等于多少毫升？"),
        ("assistant", "1000 毫升。"),
        ("user", "坐飞机怎么睡得好？"),
        ("assistant", "带个颈枕和耳塞会好很多。"),
    ],
}
# (user, language, old statement, new statement, question, old value, new value)
UPDATES = [
    ("en-move", "en", "I live in Lisbon.", "Our flat in Porto gets lovely afternoon light.",
     "Where's home for me?", "Lisbon", "Porto"),
    ("en-job", "en", "I'm a chemistry teacher at a high school.",
     "My first week as a data analyst at an insurer went well.",
     "What do I do for a living?", "chemistry teacher", "data analyst"),
    ("en-date", "en", "The wedding is on June 14.",
     "The venue only had September 20 free, so that's our wedding day.",
     "When is the wedding?", "June 14", "September 20"),
    ("en-count", "en", "We have two kids.", "Our third baby arrived on Tuesday, healthy and loud.",
     "How many children do I have?", "two", "third"),
    ("zh-move", "zh", "我住在杭州。", "住深圳最大的好处是离公司近，通勤方便多了。",
     "我住在哪个城市？", "杭州", "深圳"),
    ("zh-job", "zh", "我是中学化学老师。", "当老师那几年太累了，这份数据分析的工作轻松多了。",
     "我是做什么工作的？", "中学化学老师", "数据分析"),
    ("zh-date", "zh", "婚礼定在6月14号。", "场地只有9月20号有空，婚礼就定那天。",
     "婚礼是哪天？", "6月14号", "9月20号"),
    ("zh-count", "zh", "我们家有两个孩子。", "第三个孩子周二出生了，家里更热闹了。",
     "我有几个孩子？", "两个", "第三个"),
]  # fmt: skip
# statements of the user's that replace nothing (unrelated, someone else's, or one more
# value of the same thing), and a question that reaches them
UNRELATED = [
    ("en-none", "en", "I love hiking in the hills.", "My sister plays the cello.",
     "What do I enjoy doing?"),
    ("zh-none", "zh", "我喜欢周末去爬山。", "我妹妹喜欢拉大提琴。", "我平时喜欢做什么？"),
    # one more value, not a new one: both answer the question, both still hold
    ("en-more", "en", "I have a dog named Rex.", "I also have two cats.", "What pets do I have?"),
    ("en-both", "en", "I'm allergic to peanuts.", "I can't stand coriander.",
     "What foods should I avoid?"),
    ("zh-more", "zh", "我养了一只狗。", "我还养了两只猫。", "我养了什么宠物？"),
]  # fmt: skip


def said(mm: MemoryManager, user: str, lang: str, old: str, new: str) -> None:
    ok = "Got it." if lang == "en" else "好的。"
    turns = [("user", old), ("assistant", ok), *FILLER[lang], ("user", new)]
    for i, (role, text) in enumerate(turns):
        mm.add_message(user, "s1", role, text, timestamp=T0 + timedelta(days=i))


@pytest.fixture(scope="module")
def mm() -> Iterator[MemoryManager]:
    with MemoryManager(backend=InMemoryBackend(), embeddings=MiniLMEmbeddings()) as m:
        for user, lang, old, new, *_ in UPDATES + UNRELATED:
            said(m, user, lang, old, new)
        m.flush()
        yield m


@pytest.mark.parametrize("case", UPDATES, ids=[c[0] for c in UPDATES])
def test_an_update_said_in_other_words_is_shown_current_first(mm, case) -> None:
    user, _, old, new, question, old_value, new_value = case
    assert changes_of(new) == []  # no cue the write path's change rules read
    prompt = mm.build_context(user, "probe", question, token_budget=2048).to_prompt()
    lines = prompt.splitlines()
    # the new statement is marked the latest and comes before any line with the old value
    # (with its current value first when it opened on what the user did before)
    shown = current_leads(new, [old], question)
    assert f"- latest (2024-03-07): user: {shown}" in lines
    assert 0 <= prompt.find(new_value) < prompt.find(old_value)
    # the old statement is still there (no evidence is dropped), marked as earlier, and so
    # is every line that still holds the old value without the new one
    assert f"- earlier (2024-03-01): user: {old}" in lines
    for line in lines:
        if old_value in line and new_value not in line:
            assert "earlier" in line or "此前" in line, line


@pytest.mark.parametrize("case", UNRELATED, ids=[c[0] for c in UNRELATED])
def test_unrelated_statements_are_not_marked_earlier(mm, case) -> None:
    user, _, first, second, question = case
    ctx = mm.build_context(user, "probe", question, token_budget=2048)
    prompt = ctx.to_prompt()
    assert f"- user: {first}" in prompt.splitlines()
    assert f"- user: {second}" in prompt.splitlines()
    assert "earlier (" not in prompt and "latest (" not in prompt
    assert not any("update_mark" in it.score_parts for it in ctx.items)


def _msg(i: int, role: str, text: str) -> Message:
    return Message(f"m{i}", "u", "s", role, text, T0 + timedelta(days=i), seq=i + 1)


def test_a_repeat_is_no_update_and_a_mark_never_goes_over_the_budget() -> None:
    msgs = [
        _msg(0, "user", "I live in Lisbon."),
        _msg(1, "assistant", "Nice."),
        _msg(2, "user", "Any film tips?"),
        _msg(3, "assistant", "Try Dune."),
        _msg(4, "user", "I live in Lisbon!"),
    ]
    v = np.array([[1, 0, 0.2], [0.3, 1, 0], [0, 0.2, 1], [0, 0.3, 1], [1, 0, 0.21]])
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    assert (
        find_update(msgs, v @ np.array([1.0, 0, 0]), lambda i: v @ v[i]) is None
    )  # the same again
    v[4] = [0.7, 0.1, 0.6]
    v[4] /= np.linalg.norm(v[4])
    assert find_update(msgs, v @ np.array([1.0, 0, 0]), lambda i: v @ v[i]) is not None
    items = [
        ContextItem(
            "message", f"{m.role}: {m.content}", 0, 1.0, {}, [m.id], "",
            timestamp=m.timestamp, group=m.timestamp.strftime("%Y-%m-%d"), order=m.seq,
        )
        for m in msgs
    ]  # fmt: skip
    by_seq = {m.seq: m for m in msgs}

    def mark(budget: int) -> list[str]:
        marked = list(items)
        current_first(
            marked, budget, lambda seqs: {s: by_seq[s] for s in seqs}, lambda texts: v,
            "where do I live", lambda: np.array([1.0, 0, 0]),
        )  # fmt: skip
        return [it.text for it in marked]

    assert mark(2048)[4].startswith("latest (2024-03-05): user:")
    assert mark(2048)[0].startswith("earlier (2024-03-01): user:")
    from langgraph_memory.core.context import MemoryContext

    tight = MemoryContext(items, 2048).tokens  # exactly what the unmarked items take
    assert mark(tight) == [it.text for it in items]


def test_a_statement_of_a_value_an_entry_says_it_replaced_is_marked_earlier() -> None:
    """The write path saw the slot change (the fact names the value it replaced): the old
    statement is marked earlier even when no similarity links the two statements."""
    msgs = [
        _msg(0, "user", "I've been in Austin for five years."),
        _msg(1, "assistant", "Nice."),
        _msg(2, "user", "Any film tips?"),
        _msg(3, "assistant", "Try Dune."),
        _msg(4, "user", "The movers dropped the last boxes at the new house."),
    ]
    items = [
        ContextItem(
            "fact", "User location San Antonio (since 2024-03-05; earlier: Austin)", 0, 1.0,
            {}, ["m4"], "",
        ),
        *(
            ContextItem(
                "message", f"{m.role}: {m.content}", 0, 1.0, {}, [m.id], "",
                timestamp=m.timestamp, group=m.timestamp.strftime("%Y-%m-%d"), order=m.seq,
            )
            for m in msgs
        ),
    ]  # fmt: skip
    by_seq = {m.seq: m for m in msgs}
    v = np.eye(5)  # nothing alike: no update by similarity
    current_first(
        items, 2048, lambda seqs: {s: by_seq[s] for s in seqs}, lambda texts: v,
        "What city do I live in?", lambda: np.array([0.0, 0, 0, 0, 1.0]),
    )  # fmt: skip
    texts = [it.text for it in items]
    assert texts[1] == "earlier (2024-03-01): user: I've been in Austin for five years."
    assert texts[3] == "user: Any film tips?" and texts[5].startswith("user: The movers")


# (user, language, old statement, the reply to it, new statement, question, old, new):
# the new statement names the old value first, or the reply to the old one echoes it
OLD_FIRST = [
    ("en-oldfirst", "en", "My boss is Gerald, he's old school.", "Ha, noted.",
     "Gerald retired on Friday and his replacement, Marisol, already booked 1:1s with us.",
     "Who do I report to?", "Gerald", "Marisol"),
    ("zh-oldfirst", "zh", "我的导师是陈教授，做材料的。", "材料方向不错。",
     "陈教授退休了，我转到了李老师组里。", "谁在带我做研究？", "陈教授", "李老师"),
    ("en-echo", "en", "I have 12 direct reports at the moment.", "That's a big team to manage.",
     "After the merger my team grew to 19 people.", "How many people are on my team?",
     "12 direct reports", "19 people"),
]  # fmt: skip


@pytest.fixture(scope="module")
def told() -> Iterator[MemoryManager]:
    with MemoryManager(backend=InMemoryBackend(), embeddings=MiniLMEmbeddings()) as m:
        for user, lang, old, reply, new, *_ in OLD_FIRST:
            turns = [("user", old), ("assistant", reply), *FILLER[lang], ("user", new)]
            for i, (role, text) in enumerate(turns):
                m.add_message(user, "s1", role, text, timestamp=T0 + timedelta(days=i))
        m.flush()
        yield m


@pytest.mark.parametrize("case", OLD_FIRST, ids=[c[0] for c in OLD_FIRST])
def test_the_current_value_leads_even_when_said_after_the_old_one(told, case) -> None:
    user, _, old, _, new, question, old_value, new_value = case
    prompt = told.build_context(user, "probe", question, token_budget=2048).to_prompt()
    lines = prompt.splitlines()
    assert 0 <= prompt.find(new_value) < prompt.find(old_value)
    assert f"- earlier (2024-03-01): user: {old}" in lines
    latest = next(line for line in lines if line.startswith("- latest (2024-03-07): user: "))
    # nothing of the statement is dropped: its clauses are all there, the old value's marked
    for part in clauses(new):
        assert re.sub(r"^(?:and|so|but) ", "", part.strip(" ,，。.")) in latest
    for line in lines:
        if old_value in line and new_value not in line:
            assert "earlier" in line or "此前" in line, line
        if old_value in line and new_value in line:
            assert line.find(new_value) < line.find(old_value), line
            assert "earlier" in line[line.find(new_value) :], line


def test_statements_of_the_type_an_english_question_asks_for_are_one_update() -> None:
    """The vectors link nothing (the two counts are unlike each other and the question),
    but the question asks for a count and both statements count what it names."""
    msgs = [
        _msg(0, "user", "I have 12 direct reports."),
        _msg(1, "assistant", "Nice."),
        _msg(2, "user", "Any film tips?"),
        _msg(3, "assistant", "Try Dune."),
        _msg(4, "user", "After the merger it's 19 reports."),
    ]
    v = np.eye(5)
    items = [
        ContextItem(
            "message", f"{m.role}: {m.content}", 0, 1.0, {}, [m.id], "",
            timestamp=m.timestamp, group=m.timestamp.strftime("%Y-%m-%d"), order=m.seq,
        )
        for m in msgs
    ]  # fmt: skip
    by_seq = {m.seq: m for m in msgs}
    assert find_update(msgs, v @ np.ones(5) / 5, lambda i: v @ v[i]) is None
    for query, marked in (("How many reports do I have?", True), ("Any tips?", False)):
        shown = list(items)
        current_first(
            shown, 2048, lambda seqs: {s: by_seq[s] for s in seqs}, lambda texts: v,
            query, lambda: np.ones(5) / 5,
        )  # fmt: skip
        assert shown[4].text.startswith("latest (2024-03-05): user:") is marked
        assert shown[0].text.startswith("earlier (2024-03-01): user:") is marked


def _counted_items(old: str, fact: str) -> tuple[list[ContextItem], dict[int, Message]]:
    msgs = [
        _msg(0, "user", old),
        _msg(1, "assistant", "Nice."),
        _msg(2, "user", "Any film tips?"),
        _msg(3, "assistant", "Try Dune."),
        _msg(4, "user", "Baby number three arrived, so 3 kids now."),
    ]
    items = [
        ContextItem("fact", fact, 0, 1.0, {}, ["m4"], ""),
        *(
            ContextItem(
                "message", f"{m.role}: {m.content}", 0, 1.0, {}, [m.id], "",
                timestamp=m.timestamp, group=m.timestamp.strftime("%Y-%m-%d"), order=m.seq,
            )
            for m in msgs
        ),
    ]  # fmt: skip
    return items, {m.seq: m for m in msgs}


@pytest.mark.parametrize(
    ("old", "marked"),
    [("I've got 2 kids, both under five.", True), ("I paid 2 dollars for coffee.", False)],
)
def test_a_count_an_entry_says_it_replaced_marks_the_statement_counting_that_thing(
    old: str, marked: bool
) -> None:
    """A number alone is any price; beside the thing the entry counts it is the old count."""
    items, by_seq = _counted_items(old, "User number of children 3 (since 2024-03-05; earlier: 2)")
    v = np.eye(5)  # nothing alike: no update by similarity
    current_first(
        items, 2048, lambda seqs: {s: by_seq[s] for s in seqs}, lambda texts: v,
        "Any good films?", lambda: np.array([0.0, 0, 0, 0, 1.0]),
    )  # fmt: skip
    assert items[1].text.startswith("earlier (2024-03-01): user:") is marked
