"""What a new user sees believed of them from one message (langgraph_memory.extraction.slots
and the atoms the write path keeps, extraction.extractor): a slot's value ends with its
clause; a Chinese movement verb inside a longer word (回答, 回来, 想到了, 去年) names no
place; a possessive copula names an employer, a boss or a team ("our company is Acme
Corp", "我的领导是张三", "我在用户增长部") but its look-alikes name none; a trip to come is
a plan, not a new home. English and Chinese, several phrasings each."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms
from langgraph_memory.extraction.slots import slots_of, within_clause


def _slot(said: str, key: str) -> str | None:
    return next((v for k, v, _ in slots_of(said) if k == key), None)


def _facts(said: str) -> dict[str, str]:
    """The facts the write path keeps of a user's message, by key."""
    return {a.key: a.value for a in extract_atoms(said) if a.kind == "fact"}


# -- 1. a value ends where its clause ends ---------------------------------------------------
@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("I live in Boston and work at Google", "location", "Boston"),
        ("I live in Boston and I work at Google.", "location", "Boston"),
        ("I live in Boston, and I'm a nurse.", "location", "Boston"),
        ("I'm based in Berlin but I work remotely.", "location", "Berlin"),
        ("I live in Boston and Cambridge is nearby.", "location", "Boston"),
        ("I work at Google and love it.", "employer", "Google"),
        ("I work as a nurse and live in Leeds.", "occupation", "nurse"),
        ("I'm planning to visit Rome and I'm so excited.", "plan", "visit Rome"),
        ("我住在北京并且在字节上班", "location", "北京"),
        ("我住在北京并且在字节上班", "employer", "字节"),
        ("我在字节工作，而且住在北京", "location", "北京"),
        ("我住在上海，然后周末去杭州", "location", "上海"),
    ],
)
def test_a_value_ends_with_its_clause(said: str, key: str, value: str) -> None:
    assert _facts(said).get(key) == value


@pytest.mark.parametrize(
    "value",
    ["Boston and Cambridge", "salt and pepper", "Procter & Gamble", "Ernst and Young", "北京"],
)
def test_a_value_of_one_clause_stays_whole(value: str) -> None:
    assert within_clause(value) == value


# -- 2. a movement verb inside a longer word ---------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "以后回答都用中文",
        "麻烦以后回答都用中文。",
        "回答尽量简短，三句话以内。",
        "回复我的时候用英文",
        "我回来了，好累",
        "那过年回来估计更忙。",
        "回头再说吧",
        "天天钓鱼，等我回去吃。",
        "想到了厦门才发现下雨",
        "过去了一年我还是很想家",
        "我去年去了日本",
        "收到，浩浩拿到了两百米的证书！",
    ],
)
def test_a_verb_inside_a_word_makes_no_place(said: str) -> None:
    assert _slot(said, "location") is None
    assert "location" not in _facts(said)


@pytest.mark.parametrize(
    ("said", "place"),
    [
        ("我搬到了深圳", "深圳"),
        ("回到厦门以后一切都好", "厦门"),
        ("年后回杭州了", "杭州"),
        ("我住在北京", "北京"),
        ("年后没回郑州，直接去了东莞。", "东莞"),
    ],
)
def test_a_verb_of_its_own_still_moves(said: str, place: str) -> None:
    assert _slot(said, "location") == place


# -- 3. possessive copulas: employer, manager, department --------------------------------------
@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("Our company is Acme Corp.", "employer", "Acme Corp"),
        ("My company is Stripe now.", "employer", "Stripe"),
        ("my boss is kevin", "manager", "kevin"),
        ("My manager is Priya.", "manager", "Priya"),
        ("My team is Payments.", "department", "Payments"),
        ("我们公司是字节跳动", "employer", "字节跳动"),
        ("我的领导是张三", "manager", "张三"),
        ("我在用户增长部", "department", "用户增长部"),
        ("我在用户增长部工作", "department", "用户增长部"),
        ("我现在在推荐组实习", "department", "推荐组"),
    ],
)
def test_a_possessive_copula_names_the_slot(said: str, key: str, value: str) -> None:
    assert _facts(said).get(key) == value


@pytest.mark.parametrize(
    "said",
    ["my boss is kevin", "My new manager is Sarah who joined from Meta.", "我的新领导是王强"],
)
def test_one_statement_one_fact(said: str) -> None:
    """ "my boss is kevin": the ``manager``, not also a ``boss`` (nor a "new manager")."""
    assert [a.key for a in extract_atoms(said) if a.kind == "fact"] == ["manager"]


@pytest.mark.parametrize(
    "said",
    [
        "my company is great",
        "our company is hiring",
        "My company is Hiring.",
        "my boss is annoying",
        "My boss is away this week.",
        "my manager is so strict",
        "my team is small",
        "我们公司是做电商的",
        "我们公司是一家创业公司",
        "我们公司是国企",
        "我的领导是个工作狂",
        "我在东北部",
        "我在俱乐部",
        "还加入了小米的摄影俱乐部，每个月组织一次外拍。",
    ],
)
def test_a_look_alike_names_no_one(said: str) -> None:
    facts = _facts(said)
    for key in ("employer", "manager", "department", "boss", "company", "team", "领导"):
        assert key not in facts, (key, facts)
    assert not [a for a in extract_atoms(said) if a.kind == "relation"]


# -- 4. a trip to come is a plan, not a move ---------------------------------------------------
@pytest.mark.parametrize(
    ("said", "plan"),
    [
        ("I'm going to Japan in May", "going to Japan in May"),
        ("We're heading back to Lisbon on Friday.", "heading back to Lisbon on Friday"),
        ("I'll fly to Rome next week.", "fly to Rome"),
        ("I'm moving to Denver next month.", "moving to Denver"),
        ("我下个月去日本", "去日本"),
        ("国庆我去深圳找你", "去深圳找你"),
        ("我跟阿杰国庆要去日本！", "去日本"),
    ],
)
def test_a_trip_to_come_is_a_plan(said: str, plan: str) -> None:
    facts = _facts(said)
    assert facts.get("plan") == plan
    assert "location" not in facts


@pytest.mark.parametrize(
    "said",
    [
        "I'm going to try making it tonight!",
        "I went to Japan in May.",
        "I'm going to Walmart",
        "老陈七月要去北京出差两周",
        "重庆可以，五一去三天",
    ],
)
def test_no_trip_of_the_users_is_no_plan(said: str) -> None:
    assert "plan" not in _facts(said)


# -- a number before 升 makes it a litre, not a promotion ------------------------------------
@pytest.mark.parametrize("said", ["一升等于多少毫升", "2升水够不够一天喝", "这锅能装三升汤"])
def test_a_measure_of_litres_is_no_promotion(said: str) -> None:
    assert _slot(said, "occupation") is None


@pytest.mark.parametrize(
    ("said", "job"), [("升成技术经理了", "技术经理"), ("我去年升为高级工程师", "高级工程师")]
)
def test_a_promotion_still_names_the_job(said: str, job: str) -> None:
    assert _slot(said, "occupation") == job


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I'm a regulatory writer at Pfizer", "Pfizer"),
        ("I work as a data analyst at Spotify", "Spotify"),
        ("I'm an engineer at Google now", "Google"),
        ("I'm a designer for Apple and I love it", "Apple"),
    ],
)
def test_who_a_job_is_for_is_the_employer(text: str, employer: str) -> None:
    assert ("employer", employer) in {(k, v) for k, v, _ in slots_of(text)}


@pytest.mark.parametrize(
    "text", ["I'm a student at MIT", "I'm a teacher at the local school", "I'm a nurse at night"]
)
def test_a_school_or_no_name_after_a_job_is_no_employer(text: str) -> None:
    assert "employer" not in {k for k, _, _ in slots_of(text)}


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "if Moderna hadn't called back I'd have stayed put, but anyway — Moderna onboarding "
            "is a LOT of compliance videos",
            "maybe employer",
        ),
        ("如果去了深圳我就搬过去，不过现在还在杭州上班", "maybe place"),
    ],
)
def test_what_follows_the_turn_after_a_hypothetical_is_read(text: str, slot: str) -> None:
    assert slot in {k for k, _, _ in slots_of(text)}


@pytest.mark.parametrize(
    "text", ["If I got the Google job I would move to NYC", "要是我搬到上海，我就去字节上班"]
)
def test_a_hypothetical_with_no_turn_back_gives_no_slot(text: str) -> None:
    assert slots_of(text) == []
