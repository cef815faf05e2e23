"""Employers named bare in a frame of work, whose clause is whose, and pronouns as values."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.pronouns import is_pronoun, resolved
from langgraph_memory.extraction.slots import about_others, slots_of
from langgraph_memory.extraction.workplaces import WORKPLACE_KEY, others_clauses, workplace_of


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Netflix's first all-hands was wild, still getting used to the new badge", "Netflix"),
        ("first standup at Revolut today and everyone talks SO fast", "Revolut"),
        ("just finished orientation at Guy's, the wards are massive", "Guy's"),
        ("my first payslip from Deloitte came through", "Deloitte"),
        ("米哈游这边氛围挺二次元的哈哈哈，工位上全是手办", "米哈游"),
        ("在快手这边加班少一点，也可能是新人保护期", "快手"),
        ("我已经在小米干了一个月了", "小米"),
        ("米哈游第一个月，福利是真的好，食堂我能吃一年", "米哈游"),
    ],
)
def test_an_employer_named_bare_in_a_frame_of_work(said: str, name: str) -> None:
    assert workplace_of(said) is not None and workplace_of(said)[0] == name
    assert (WORKPLACE_KEY, name) in [(k, v) for k, v, _ in slots_of(said)]


@pytest.mark.parametrize(
    "said",
    [
        "Apple's new phone is nice",
        "我们这边下雨了",
        "北京这边天气不错",
        "I start Monday",
        "在家干活",
    ],
)
def test_no_employer_without_a_frame_of_work(said: str) -> None:
    assert workplace_of(said) is None


def test_a_workplace_thing_names_an_employer_the_tagger_takes_for_a_place() -> None:
    assert ("employer", "京东") in [(k, v) for k, v, _ in slots_of("京东的食堂比之前的好吃多了")]


def test_a_chinese_sentence_about_someone_else_is_theirs_clause_by_clause() -> None:
    said = "我老公还在华为，我已经在小米干了一个月了"
    assert others_clauses(said, about_others) == [(0, 8)]
    assert others_clauses("我妹妹搬到杭州了，住在西湖边", about_others) == [(0, 9), (9, 14)]
    assert ("employer", "宁德时代") in [
        (k, v) for k, v, _ in slots_of("国企实在待不住了，去了宁德时代，我爸到现在还在念叨我不懂事")
    ]
    assert slots_of("我妹妹搬到杭州了，住在西湖边") == []


@pytest.mark.parametrize(
    ("said", "manager"),
    [
        ("Jason接了那个位置，现在我每周一向他汇报，Amy去新加坡了", "Jason"),
        ("老王调走了，新来的李姐接了他的位置，以后我向她汇报", "李姐"),
        ("Met Dan today. He's my new manager.", "Dan"),
        ("He's my new manager.", None),
    ],
)
def test_a_pronoun_is_never_a_value(said: str, manager: str | None) -> None:
    got = [v for k, v, _ in slots_of(said) if k == "manager"]
    assert got == ([manager] if manager else [])
    assert not any(is_pronoun(v) for _, v, _ in slots_of(said))


def test_resolved_drops_a_pronoun_with_no_one_named() -> None:
    assert resolved("以后我向他汇报", [("manager", "他", 5)]) == []
    assert is_pronoun("them") and not is_pronoun("Theo")


@pytest.mark.parametrize(
    ("said", "slot"),
    [
        ("普通程序员一枚，天天写业务代码", ("occupation", "程序员")),
        ("我是UI设计师，在一家小公司", ("occupation", "UI设计师")),
        ("我小红书才3000个粉丝，更新得太少", ("number of followers", "3000")),
        ("那条笔记爆了，粉丝直接涨到1万了，私信都回不过来", ("number of followers", "1万")),
        ("现在从合肥的住处骑车到单位只要十分钟", ("maybe place", "合肥")),
        ("周末要去厦门玩一趟，但走之前得先把大连新房子的宽带装好", ("maybe place", "大连")),
    ],
)
def test_chinese_values_said_in_passing(said: str, slot: tuple[str, str]) -> None:
    got = [(k, v) for k, v, _ in slots_of(said)]
    assert slot in got
    assert not any(k == "location" and v.startswith(("不", "没")) for k, v in got)  # 回不过来


@pytest.mark.parametrize(
    "said", ["我朋友的新房子装修好了", "租的房子太小了", "下周去上海出差，住在公司附近的公寓"]
)
def test_a_home_thing_of_someone_or_something_else_names_no_city(said: str) -> None:
    assert not any(k.endswith("place") for k, _, _ in slots_of(said))


@pytest.mark.parametrize(
    ("said", "slot"),
    [
        ("We launch the app on September 5, crunch time", ("date of launch", "September 5")),
        ("fyi I'm Boston-based, in case it matters", ("location", "Boston")),
        (
            "they made me tech lead as of this sprint so now I'm in ALL the meetings",
            ("occupation", "tech lead"),
        ),
        ("机票太贵了，国庆改成去云南，大理丽江走一圈", ("plan", "去云南")),
        ("我打算明年考研，报的本校", ("plan", "考研")),
        ("想了很久还是决定考公了，稳定一点，我爸妈也支持", ("plan", "考公")),
        ("房子租到7月31号，得赶紧找新的", ("date of move", "7月31号")),
        ("房东让我住到8月20号再搬", ("date of move", "8月20号")),
    ],
)
def test_values_said_by_a_doing(said: str, slot: tuple[str, str]) -> None:
    assert slot in [(k, v) for k, v, _ in slots_of(said)]


def test_a_london_based_company_is_no_home_and_an_exam_is_no_plan_by_itself() -> None:
    assert slots_of("I work for a London-based startup") == []
    assert slots_of("我想考一下驾照") == []


@pytest.mark.parametrize(
    ("said", "slot"),
    [
        ("我在一家外企，西门子，做工程师", ("employer", "西门子")),
        ("I do my 1:1s with Greg now; Lisa moved over to the Berlin office.", ("manager", "Greg")),
        ("我下周二去看牙", ("date of dentist", "下周二")),
    ],
)
def test_more_values_said_in_passing(said: str, slot: tuple[str, str]) -> None:
    assert slot in [(k, v) for k, v, _ in slots_of(said)]


def test_spanish_is_no_dentist() -> None:
    said = "报了个西班牙语班，学西班牙语是为了明年去南美"
    assert not any(k == "date of dentist" for k, _, _ in slots_of(said))


def test_a_bare_employer_replaces_the_employer_slot_only() -> None:
    """The tentative employer is kept where it replaces the user's employer, never as a
    place or a manager, nor with no employer said before."""
    from datetime import datetime, timedelta, timezone

    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import MiniLMEmbeddings
    from langgraph_memory.storage import InMemoryBackend

    t0 = datetime(2024, 3, 1, tzinfo=timezone.utc)
    told = {
        "zh": ["我在网易做游戏策划", "米哈游这边氛围挺二次元的，工位上全是手办"],
        "en": ["I live in Boston.", "Netflix's first all-hands was wild"],
    }
    with MemoryManager(backend=InMemoryBackend(), embeddings=MiniLMEmbeddings()) as mm:
        for user, said in told.items():
            for i, text in enumerate(said):
                mm.add_message(user, "s", "user", text, timestamp=t0 + timedelta(days=i))
        mm.flush()
        zh = {(f.relation, f.object, f.valid_to is None) for f in mm.profile.facts("zh")}
        en = {(f.relation, f.object) for f in mm.profile.facts("en")}
    assert ("employer", "米哈游", True) in zh and ("employer", "网易", False) in zh
    assert en == {("location", "Boston")}


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("so I signed the Initech offer, start date is the 3rd", "Initech"),
        ("Umbrella Labs hired me, first week is all training", "Umbrella Labs"),
        ("好消息 青藤科技录用我了 下个月入职", "青藤科技"),
        ("下周一去蓝鲸工作室报到 有点紧张", "蓝鲸工作室"),
    ],
)
def test_an_employer_named_by_hiring_the_user(said: str, name: str) -> None:
    assert workplace_of(said) is not None
    assert workplace_of(said)[0] == name  # type: ignore[index]


@pytest.mark.parametrize(
    "said", ["我的工牌丢了", "我们公司发的工牌好丑", "The offer is still open"]
)
def test_no_employer_by_a_thing_of_work_alone(said: str) -> None:
    assert workplace_of(said) is None


@pytest.mark.parametrize(
    ("said", "theirs"),
    [
        # a clause set off by a space is a clause (a chat habit): the user's turns back
        ("我表妹要去长沙读研 让我帮她找房 可我都在厦门待了两个月了", [(0, 10), (10, 17)]),
        ("我闺蜜那边也换老板了 我这边现在是阿杰带我们", [(0, 11)]),
        # an English sentence turns to the user in a clause of their own
        ("My brother took my old flat, but I'm in Lisbon now", [(0, 27)]),
        ("My brother took my old flat in Porto, which is funny because I've been away", [(0, 36)]),
        # no turn: all theirs
        ("My sister moved to Denver last spring", [(0, 37)]),
    ],
)
def test_whose_clause_after_someone_elses_news(said: str, theirs: list[tuple[int, int]]) -> None:
    assert others_clauses(said, about_others) == theirs


def test_the_users_value_in_a_message_telling_anothers_news_first() -> None:
    said = "我爸退休前也是招商银行的 不过我上周已经去理想汽车报到了 做用户运营"
    assert ("employer", "理想汽车") in [(k, v) for k, v, _ in slots_of(said)]
    assert ("employer", "招商银行") not in [(k, v) for k, v, _ in slots_of(said)]
    assert slots_of("我表妹下个月要去长沙读研 让我给她推荐住的地方") == []
