"""Whose life a statement is about, and whether it says where the user lives now: a
relative's home, a trip, a planned move or a past story is no value of the user's slots
(langgraph_memory.extraction.slots, .whereabouts), in English and in Chinese; and the values a slot
reads are whole ("下周一早上", "the 17th of May", "自媒体博主")."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.changes import CHANGE_KEY, changes_of, says_change
from langgraph_memory.extraction.slots import event_named, names_date, slots_of
from langgraph_memory.extraction.whereabouts import clause_at, not_lived, not_lived_at


def _slot(said: str, key: str) -> str | None:
    return next((v for k, v, _ in slots_of(said) if k == key), None)


@pytest.mark.parametrize(
    "said",
    [
        "我妹妹住在杭州。",
        "My sister lives in Boston.",
        "上周去上海出差了。",
        "下周去上海出差。",
        "下个月搬去成都。",
        "I'm moving to Denver next month.",
        "Landed in Tokyo for the conference!",
        "陈教授退休了，我转到了李老师组里。",
    ],
)
def test_no_home_of_the_users(said: str) -> None:
    assert _slot(said, "location") is None
    assert not any(k.startswith("maybe") and "place" in k for k, _, _ in slots_of(said))


@pytest.mark.parametrize(
    ("said", "city"),
    [
        ("我住在杭州，下周去上海出差。", "杭州"),  # the trip is another clause
        ("My wife and I moved to Porto.", "Porto"),  # the user is a subject too
        ("我老公和我搬到了深圳。", "深圳"),
        ("搬来深圳第一周，还在适应。", "深圳"),
        ("Me and my wife moved to Porto.", "Porto"),  # review, finding 7
        ("我爸妈和我搬到了深圳。", "深圳"),
    ],
)
def test_the_users_home_said_beside_others(said: str, city: str) -> None:
    assert _slot(said, "location") == city


@pytest.mark.parametrize(
    ("said", "city"),
    [  # another doing in the home's clause says nothing of the home (review, finding 3)
        ("I live in Boston and I'm going to the gym tomorrow.", "Boston"),
        ("I live in Boston and will start a new job soon.", "Boston"),
        ("I live in Paris and visit London often.", "Paris"),
        ("I live in Austin but I am flying to Tokyo tomorrow.", "Austin"),
        ("We just moved to Austin — planning a housewarming next month.", "Austin"),
        ("Finally settled in Lisbon after a long trip.", "Lisbon"),
        ("搬到苏州了下周开始上班。", "苏州"),
    ],
)
def test_a_home_beside_another_doing(said: str, city: str) -> None:
    assert _slot(said, "location") == city


def test_the_words_governing_a_place() -> None:
    assert not not_lived_at("我住在杭州准备考研。", 3)
    assert not not_lived_at("我住在上海比以前舒服多了。", 3)
    assert not_lived_at("I lived in Rome when I was a kid.", 11)  # a past story still counts
    assert not_lived_at("I used to live in Rome.", 18) and not_lived_at("下周去上海出差。", 3)
    assert clause_at("We just moved to Austin — planning a party.", 30) == "planning a party."
    tokyo = "I have lived in Tokyo since the conference in 2019."
    assert ("maybe name", "Tokyo", 16) in slots_of(tokyo)


def test_a_move_not_made() -> None:
    assert _slot("年后没回郑州。", "location") is None
    assert _slot("年后没回郑州，直接去了东莞。", "location") == "东莞"


def test_trips_plans_and_past_stories() -> None:
    assert not_lived("上周去上海出差了") and not_lived("小时候在北京长大")
    assert not_lived("We're flying to Lisbon next week.")
    assert not not_lived("来昆明三个月了") and not not_lived("We moved to Porto.")


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("辞职了，现在全职做自媒体博主。", "occupation", "自媒体博主"),
        ("我在做外卖骑手，每天跑十几个小时。", "occupation", "外卖骑手"),
        ("我在协和医院当护士。", "employer", "协和医院"),
        ("我们公司叫小蓝科技，做智能硬件的。", "employer", "小蓝科技"),
        ("Our startup is called Brightloop.", "employer", "Brightloop"),
        ("航班取消了，改签到下周一早上。", "date of flight", "下周一早上"),
        ("Legal wants another review, so launch slips to April 12.", "date of launch", "April 12"),
    ],
)
def test_whole_values(said: str, key: str, value: str) -> None:
    assert _slot(said, key) == value


def test_the_17th_of_may_is_one_date() -> None:
    said = "Committee pushed my defense back to the 17th of May because someone's travelling."
    assert any(v == "the 17th of May" for k, v, _ in slots_of(said) if k.startswith("date of"))


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("We rebranded — Brightloop is now Tessellate, new logo.", "Tessellate"),
        ("Marketing renamed Falcon to Horizon for the launch.", "Horizon"),
        ("公司改名了，现在叫蔚蓝智能，名片都得重印。", "蔚蓝智能"),
    ],
)
def test_a_new_name_is_a_change(said: str, value: str) -> None:
    assert [(k, v) for k, v, _ in changes_of(said)] == [(CHANGE_KEY, value)]


def test_a_clause_of_when_is_no_slot_name() -> None:
    assert changes_of("跟老婆商量后改成了新中式。") == [(CHANGE_KEY, "新中式", 9)]


def test_a_promotion_says_a_change() -> None:
    assert says_change("刚升了销售主管，手下管五个人。")
    assert not says_change("我是销售专员。")


def test_dates_and_events() -> None:
    assert names_date("改签到下周一早上") and not names_date("我的航班很早")
    assert event_named("答辩推迟了") == "答辩" and event_named("随便聊聊") is None


@pytest.mark.parametrize(
    "said",
    [  # common chat the change and slot patterns read as the user's new value (review, finding 6)
        "It is now March and still cold.",
        "He is now Director of Sales.",
        "Alice is now CEO.",
        "现在叫个车回家。",
        "我现在叫外卖吃。",
    ],
)
def test_no_change_in_common_chat(said: str) -> None:
    assert changes_of(said) == []


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("我们公司叫了外卖。", "employer"),
        ("我们公司叫人来修空调了。", "employer"),
        ("My company is Hiring.", "employer"),
        ("My employer is UK-based.", "employer"),
        ("Our company is HQ'd in Austin.", "employer"),
        ("我在网上当博主。", "employer"),
        ("我在医院当护士。", "employer"),
        ("我在做手工。", "occupation"),
        ("Mom moves in with us for next week.", "date of move"),
    ],
)
def test_no_slot_in_common_chat(said: str, key: str) -> None:
    assert _slot(said, key) is None


def test_a_name_said_new_and_a_key_ending_in_shi() -> None:
    assert changes_of("Our startup is now called Tessellate.") == [(CHANGE_KEY, "Tessellate", 26)]
    assert (
        changes_of("We rebranded — Brightloop is now Tessellate, new logo.")[0][1] == "Tessellate"
    )
    assert changes_of("工时改成了六小时") == [("工时", "六小时", 5)]
    assert _slot("我们公司叫星云科技。", "employer") == "星云科技"
    assert _slot("The wedding moves to June 5.", "date of wedding") == "June 5"


def test_a_relative_telling_the_user_of_their_own_move() -> None:
    assert _slot("我老婆跟我说她搬到深圳了。", "location") is None  # reported, not joint


def test_a_company_named_with_ren_is_an_employer() -> None:
    from langgraph_memory.extraction.slots import slots_of

    assert ("employer", "人人网") in [(k, v) for k, v, _ in slots_of("我们公司叫人人网。")]
    assert slots_of("我们公司叫人来修空调了。") == []


@pytest.mark.parametrize(
    "said",
    [
        "他从广州搬到深圳了",
        "她现在在腾讯上班。",
        "他们搬到杭州了",
        "He moved to Denver last week.",
        "She works at Google now.",
        "They relocated to Austin in May.",
        "Anna moved to Monterey.",  # someone by name
        "安娜调去数据组了，现在预发布的发布审批归小芮。",
        "小王搬到杭州了",
        "十二份录音都转成文字了。",  # things counted, not the user
        "Tom Baker just moved to Denver in May.",
        "Anna moved to the data team, so Rui approves deploys to staging now.",
    ],
)
def test_a_third_persons_move_or_work_is_no_slot_of_the_users(said: str) -> None:
    # no place, workplace or change of the user's is read from a sentence whose subject is
    # someone else and that names the user nowhere
    assert not [s for s in slots_of(said) if s[0] in ("location", "employer", CHANGE_KEY)]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("They promoted me — I'm the audit manager now.", "occupation", "the audit manager"),
        ("他们让我当店长了", "occupation", "店长"),
        ("我搬到深圳了，他留在广州", "location", "深圳"),
        ("I moved to Denver, she stayed in Boston.", "location", "Denver"),
        ("Monday I moved to Leeds.", "location", "Leeds"),  # a day, not someone by name
        ("Just joined Stripe as a backend engineer.", "employer", "Stripe"),  # an adverb
        ("Recently relocated to Berlin for work.", "location", "Berlin"),
        ("两个月前搬到杭州了", "location", "杭州"),  # a time span, not things counted
        ("一个月前跳槽到腾讯了", "employer", "腾讯"),
    ],
)
def test_the_users_own_news_beside_a_third_person_stays(said: str, key: str, value: str) -> None:
    assert _slot(said, key) == value


def test_a_space_in_chinese_chat_ends_the_clause_a_trip_is_read_in() -> None:
    said = "杭州这边的社保今天终于转好了 以后看病方便了 不过西湖边周末人太多了根本不想去"
    assert not not_lived_at(said, 0)  # the plan ("想去") is another clause's
    said = "本来说好要去大连的 后来单位调动黄了 最后还是来了青岛"
    assert not_lived_at(said, said.index("大连"))
    assert not not_lived_at(said, said.index("青岛"))
    assert clause_at("我住大连 想周末带娃去海边玩", 2) == "我住大连"
    assert not_lived_at("下周去上海出差 顺便看朋友", 3)


def test_the_users_change_beside_someone_elses_move_is_read() -> None:
    # the user's own sentence still tells a change when another's move stands beside it
    said = "Eli moved to Nashville, good for him. I'm doing lessons with Mariana now."
    assert [v for _, v, _ in slots_of(said)] == ["Mariana"]


@pytest.mark.parametrize(
    "said",
    [
        "The design review moved to Thursday at 3 pm.",  # a time: a meeting moved
        "Anna moved to the data team.",  # a unit of an organisation
        "I moved to the night shift.",
    ],
)
def test_moved_to_a_time_or_a_team_is_no_home(said: str) -> None:
    from langgraph_memory.extraction.extractor import extract_atoms

    homes = [a for a in extract_atoms(said) if a.key in ("lives_in", "location")]
    assert homes == []


@pytest.mark.parametrize("said", ["My sister moved to Maryland.", "Tom moved to Mayfair."])
def test_a_place_named_like_a_month_is_a_place(said: str) -> None:
    from langgraph_memory.extraction.extractor import extract_atoms

    assert [a.key for a in extract_atoms(said) if a.kind == "relation"] == ["lives_in"]


@pytest.mark.parametrize("said", ["老周走了，组长换成了小林。", "老周走了 组长换成了小林"])
def test_the_users_news_after_someone_by_name_left_is_read(said: str) -> None:
    # only the clause of the one who left is theirs; the user's new manager is read
    assert [(k, v) for k, v, _ in slots_of(said)] == [("manager", "小林")]
