"""Query routing: intents (English and Chinese), exact time ranges for a fixed ``now``,
layer weights and filters, the LLM path with fake chat models, and properties."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory.core.records import Message
from langgraph_memory.read.routing import INTENTS, LAYERS, aroute_query, route_query
from langgraph_memory.read.time_expressions import find_time_expressions, parse_time_range
from langgraph_memory.storage import compile_filter

NOW = datetime(2024, 6, 15, 10, 30, tzinfo=timezone.utc)  # a Saturday

INTENT_CASES = [
    ("What do I like to eat?", "preference"),
    ("What's my favorite color?", "preference"),
    ("Can you recommend a restaurant for me?", "preference"),
    ("Am I allergic to anything?", "preference"),
    ("Where do I live?", "preference"),
    ("What did we talk about yesterday?", "recall"),
    ("What did we decide last week about the database?", "recall"),
    ("When did Caroline go to the LGBTQ support group?", "recall"),
    ("Do you remember the hiking trip?", "recall"),
    ("What did I say about my sister last time?", "recall"),
    ("Remind me to call mom tomorrow", "task"),
    ("What's next on my todo list?", "task"),
    ("Let's continue with the report", "task"),
    ("Help me write an email to my boss", "task"),
    ("How do I restart an nginx container?", "knowledge"),
    ("What is reciprocal rank fusion?", "knowledge"),
    ("Explain the difference between BM25 and TF-IDF", "knowledge"),
    ("Why does Python use a GIL?", "knowledge"),
    ("hi", "chitchat"),
    ("Thanks a lot!", "chitchat"),
    ("How are you today?", "chitchat"),
    ("Good morning", "chitchat"),
    ("我喜欢吃什么？", "preference"),
    ("我的口味偏好是什么", "preference"),
    ("给我推荐一本书", "preference"),
    ("我对什么过敏", "preference"),
    ("上次我们聊了什么", "recall"),
    ("还记得我们去年五月的讨论吗", "recall"),
    ("我们上周决定了什么", "recall"),
    ("帮我继续写那份报告", "task"),
    ("提醒我明天开会", "task"),
    ("下一步做什么", "task"),
    ("如何部署 Docker", "knowledge"),
    ("什么是向量数据库", "knowledge"),
    ("为什么天空是蓝色的", "knowledge"),
    ("你好", "chitchat"),
    ("谢谢你", "chitchat"),
    ("哈哈哈", "chitchat"),
]


@pytest.mark.parametrize(("query", "intent"), INTENT_CASES)
def test_intents(query: str, intent: str) -> None:
    assert route_query(query, now=NOW).intent == intent


def test_intent_accuracy_reported() -> None:
    right = sum(route_query(q, now=NOW).intent == i for q, i in INTENT_CASES)
    print(f"\nrouting intents: {right}/{len(INTENT_CASES)}")
    assert len(INTENT_CASES) >= 30 and right == len(INTENT_CASES)


def _d(year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=timezone.utc)


TIME_CASES = [
    ("yesterday", _d(2024, 6, 14), _d(2024, 6, 15)),
    ("last week", _d(2024, 6, 3), _d(2024, 6, 10)),
    ("last month", _d(2024, 5, 1), _d(2024, 6, 1)),
    ("last May", _d(2024, 5, 1), _d(2024, 6, 1)),
    ("last June", _d(2023, 6, 1), _d(2023, 7, 1)),
    ("in May 2023", _d(2023, 5, 1), _d(2023, 6, 1)),
    ("two weeks ago", _d(2024, 5, 27), _d(2024, 6, 3)),
    ("this morning", _d(2024, 6, 15, 5), _d(2024, 6, 15, 12)),
    ("on 8 May 2023", _d(2023, 5, 8), _d(2023, 5, 9)),
    ("May 8, 2023", _d(2023, 5, 8), _d(2023, 5, 9)),
    ("in 2022", _d(2022, 1, 1), _d(2023, 1, 1)),
    ("recently", _d(2024, 6, 1), _d(2024, 6, 16)),
    ("three days ago", _d(2024, 6, 12), _d(2024, 6, 13)),
    ("last night", _d(2024, 6, 14, 18), _d(2024, 6, 15, 6)),
    ("last weekend", _d(2024, 6, 8), _d(2024, 6, 10)),
    ("in July", _d(2023, 7, 1), _d(2023, 8, 1)),
    ("昨天", _d(2024, 6, 14), _d(2024, 6, 15)),
    ("前天", _d(2024, 6, 13), _d(2024, 6, 14)),
    ("上周", _d(2024, 6, 3), _d(2024, 6, 10)),
    ("上个月", _d(2024, 5, 1), _d(2024, 6, 1)),
    ("去年", _d(2023, 1, 1), _d(2024, 1, 1)),
    ("今年五月", _d(2024, 5, 1), _d(2024, 6, 1)),
    ("2023年5月", _d(2023, 5, 1), _d(2023, 6, 1)),
    ("5月8日", _d(2024, 5, 8), _d(2024, 5, 9)),
    ("12月25日", _d(2023, 12, 25), _d(2023, 12, 26)),
    ("三天前", _d(2024, 6, 12), _d(2024, 6, 13)),
    ("两个月前", _d(2024, 4, 1), _d(2024, 5, 1)),
    ("最近", _d(2024, 6, 1), _d(2024, 6, 16)),
    ("昨晚", _d(2024, 6, 14, 18), _d(2024, 6, 15, 6)),
    ("二〇二三年五月八日", _d(2023, 5, 8), _d(2023, 5, 9)),
]


@pytest.mark.parametrize(("text", "start", "end"), TIME_CASES)
def test_time_ranges_exact(text: str, start: datetime, end: datetime) -> None:
    assert parse_time_range(f"what happened {text}?", NOW) == (start, end)


@pytest.mark.parametrize("text", ["I may go", "nothing here", "2月30日", "2024-02-30", "may I?"])
def test_no_time(text: str) -> None:
    assert parse_time_range(text, NOW) is None


def test_timezone_of_now_is_kept() -> None:
    tz = timezone(timedelta(hours=8))
    found = parse_time_range("昨天", datetime(2024, 6, 15, 1, 0, tzinfo=tz))
    assert found is not None
    start, end = found
    assert (start.isoformat(), end.isoformat()) == (
        "2024-06-14T00:00:00+08:00",
        "2024-06-15T00:00:00+08:00",
    )


def test_route_weights_and_filter_work_on_the_backend_filter() -> None:
    r = route_query("What did we decide last week?", now=NOW)
    assert r.intent == "recall" and set(r.layer_weights) == set(LAYERS)
    assert r.kinds == ("decision",) and r.time_text == ("last week",)
    assert "last week" in r.reason
    pred = compile_filter(r.filters)
    assert pred is not None

    def msg(ts: datetime) -> Message:
        return Message("m", "u", "s", "user", "x", ts)

    assert pred(msg(_d(2024, 6, 5, 12)))
    assert not pred(msg(_d(2024, 6, 10)))  # end is exclusive
    assert not pred(msg(_d(2024, 6, 2, 23)))


def test_no_time_no_filter() -> None:
    r = route_query("how do I restart nginx?", now=NOW)
    assert r.time_range is None and r.filters == {} and r.weight("knowledge") == 1.0


# -- the LLM path ------------------------------------------------------------------------------
def test_llm_intent_and_time() -> None:
    llm = FakeListChatModel(
        responses=[
            '{"intent": "task", "start": "2024-06-01T00:00:00", "end": "2024-06-08T00:00:00",'
            ' "reason": "asks about work in progress"}'
        ]
    )
    r = route_query("where are we with the migration from the first week", now=NOW, llm=llm)
    assert r.source == "llm" and r.intent == "task"
    assert r.time_range == (_d(2024, 6, 1), _d(2024, 6, 8))
    assert "work in progress" in r.reason


def test_llm_time_never_overrides_rule_dates() -> None:
    llm = FakeListChatModel(
        responses=['{"intent": "recall", "start": "1999-01-01", "end": "1999-01-02"}']
    )
    r = route_query("what did we do yesterday", now=NOW, llm=llm)
    assert r.time_range == (_d(2024, 6, 14), _d(2024, 6, 15))


@pytest.mark.parametrize(
    "answer", ["no idea", '{"intent": "gossip"}', '{"reason": "x"}', '{"intent": 3']
)
def test_llm_malformed_falls_back(answer: str) -> None:
    r = route_query("上周我们决定了什么？", now=NOW, llm=FakeListChatModel(responses=[answer]))
    assert r.source == "rules" and r.intent == "recall"
    assert r.time_range == (_d(2024, 6, 3), _d(2024, 6, 10))


def test_llm_bad_dates_are_dropped() -> None:
    llm = FakeListChatModel(responses=['{"intent": "recall", "start": "2024-06-08", "end": "x"}'])
    r = route_query("what about the migration", now=NOW, llm=llm)
    assert r.intent == "recall" and r.time_range is None


def test_async_twin() -> None:
    r = asyncio.run(aroute_query("last May", now=NOW))
    assert r.time_range == (_d(2024, 5, 1), _d(2024, 6, 1))
    llm = FakeListChatModel(responses=['{"intent": "knowledge"}'])
    assert asyncio.run(aroute_query("hmm", now=NOW, llm=llm)).intent == "knowledge"


# -- properties --------------------------------------------------------------------------------
_pieces = st.sampled_from(
    "yesterday last week May 2023 in 8 on ago two weeks days 3 recently this morning last "
    "昨天 前天 上周 上个月 去年 今年 五月 2023年 5月 8日 三天前 最近 月 日 年 号 十二 三十一 "
    "what did we decide 我们 决定 ? ？ , 2月30日 9999年 00月00日".split()
)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(st.text(max_size=60), st.lists(_pieces, max_size=10).map(" ".join)),
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 12, 31)),
)
def test_never_raises_and_ranges_are_ordered(query: str, now: datetime) -> None:
    r = route_query(query, now=now)
    assert r.intent in INTENTS
    assert all(0.0 <= w <= 1.0 for w in r.layer_weights.values())
    if r.time_range is not None:
        assert r.time_range[0] <= r.time_range[1]
    for e in find_time_expressions(query, now):
        assert e.start <= e.end and query[e.span[0] : e.span[1]] == e.text
