"""A question read by its words alone finds the user's latest statement of the type it
asks for (a place, an organisation, a person), and recency links the statements of that
type as one question's answers (langgraph_memory.read.slot_types)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core.records import Message
from langgraph_memory.embeddings import MiniLMEmbeddings
from langgraph_memory.read.recency import Update, typed_update
from langgraph_memory.read.slot_types import asked_type, latest_typed, typed
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)


def _msg(i: int, role: str, text: str) -> Message:
    return Message(f"m{i}", "u", "s", role, text, T0 + timedelta(days=i), seq=i + 1)


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("我现在在哪座城市？", "place"),
        ("我现在住哪？", "place"),
        ("Which city do I live in now?", "place"),
        ("我在哪家公司上班？", "org"),
        ("Who do I work for? Which company?", "org"),
        ("我现在的上级是谁？", "person"),
        ("Who is my manager?", "person"),
        ("我现在向谁汇报？", "person"),
        ("我和谁一起健身？", "person"),
        ("我现在做什么工作？", "job"),
        ("我在哪个部门？", "job"),
        ("What's my job title?", "job"),
        ("我哪天答辩？", "date"),
        ("When is my flight?", "date"),
        ("我有几台电脑？", "count"),
        ("我的公众号有多少粉丝？", "count"),
        ("How many cats do I have?", "count"),
        ("我明年有什么打算？", "plan"),
        ("我喜欢吃什么？", None),
        ("What's the capital of Peru?", None),
        # the same slots asked in other words
        ("Where's home these days?", "place"),
        ("Who is my partner?", "person"),
        ("Who do I work out with?", "person"),
        ("我的导师是谁？", "person"),
        ("What do I do these days?", "job"),
        ("《红楼梦》作者是谁？", None),
    ],
)
def test_the_type_a_question_asks_for(query: str, kind: str | None) -> None:
    assert asked_type(query) == kind


def test_statements_holding_a_value_of_a_type() -> None:
    assert typed("来昆明三个月了，天天晒太阳。", "place")
    assert typed("何总监第一次找我谈话。", "person")
    assert typed("我换到字节了，上周刚入职。", "org")
    # a change of anything is no change of employer; a surname then 总是 is no boss
    assert not typed("I switched to oat milk.", "org")
    assert not typed("最近我换成了燕麦奶。", "org")
    assert not typed("这个地方总是很吵。", "person")
    assert not typed("一升等于多少毫升？", "place")
    assert not typed("周一好难熬啊", "person")
    # someone else's life is no value of the user's
    assert not typed("我妹妹住在杭州。", "place")


def test_a_trip_a_plan_or_a_past_story_holds_no_home() -> None:
    assert not typed("上周去上海出差了。", "place")
    assert not typed("下周去上海出差。", "place")
    assert not typed("小时候在北京长大。", "place")
    assert typed("我住在杭州，下周去上海出差。", "place")  # the home is its own clause
    busy = "周二出差，周三开会，好在苏州这边的新家离地铁近，比之前在南京的时候近多了。"
    assert typed(busy, "place")  # a trip in another clause of a long message


def test_statements_of_a_job_a_count_a_date_a_plan() -> None:
    assert typed("我是小学语文老师。", "job")
    assert typed("辞职了，现在全职做自媒体博主。", "job")
    assert typed("考了驾照，现在改开网约车了。", "job")
    assert not typed("今天好困，昨晚刷剧刷太晚了", "job")
    # a count of what the question counts: by its measure word or one of its words
    assert typed("又配了一台主机打游戏，加起来三台了。", "count", "我有几台电脑？")
    assert typed("粉丝涨到两万了！", "count", "我的公众号有多少粉丝？")
    assert not typed("我们一起去吃饭吧。", "count", "我有几台电脑？")  # 一起: no number
    assert not typed("我养了两只猫。", "count", "我有几台电脑？")
    # a date of the event asked about
    assert typed("答辩推迟到六月三号了。", "date", "我什么时候答辩？")
    assert not typed("体检改到下周五了。", "date", "我什么时候答辩？")
    assert typed("想了想还是不考公了，打算申请去英国读研。", "plan")
    assert not typed("鱼会睡觉吗？我猜会。", "plan")


def test_latest_typed_reads_the_newest_statements_only() -> None:
    said = [
        _msg(3, "user", "来昆明三个月了。"),
        _msg(2, "user", "北京在哪个省？"),  # a question: no statement
        _msg(1, "assistant", "杭州挺好的。"),  # not the user's
        _msg(0, "user", "我住在杭州。"),
    ]
    assert [m.id for m in latest_typed(said, "place")] == ["m3", "m0"]
    assert [m.id for m in latest_typed(said, "place", n=1)] == ["m3"]


def test_typed_update_groups_the_statements_of_the_type_by_time() -> None:
    msgs = [
        _msg(0, "user", "我住在杭州。"),
        _msg(1, "assistant", "好的。"),
        _msg(2, "user", "周一好难熬啊"),
        _msg(3, "user", "来昆明三个月了。"),
    ]
    assert typed_update(msgs, "place") == Update(3, (0,))
    assert typed_update(msgs[:3], "place") is None  # one statement of the type: no update
    # one more value, not a new one: the earlier one stands
    more = [*msgs[:3], _msg(3, "user", "另外我在昆明也有套房子。")]
    assert typed_update(more, "place") is None


def test_typed_update_of_a_count_reads_the_question() -> None:
    msgs = [
        _msg(0, "user", "我有两台电脑，一台办公一台写代码。"),
        _msg(1, "user", "感冒了喝姜汤有用吗？"),
        _msg(2, "user", "我养了两只猫。"),
        _msg(3, "user", "又配了一台主机打游戏，加起来三台了。"),
    ]
    assert typed_update(msgs, "count", "我有几台电脑？") == Update(3, (0,))
    assert typed_update(msgs, "count", "我养了几只猫？") is None  # one count of cats


def test_a_change_said_too_is_no_addition() -> None:
    msgs = [
        _msg(0, "user", "我在公司销售部。"),
        _msg(1, "user", "打印机又卡纸了"),
        _msg(2, "user", "从这个月起我就坐到市场部那边了，工位也换了。"),
    ]
    assert typed_update(msgs, "job", "我在哪个部门？") == Update(2, (0,))


@pytest.mark.slow
class TestEndToEnd:
    @pytest.fixture(scope="class")
    def mm(self) -> Iterator[MemoryManager]:
        turns = [
            ("user", "我住在杭州。"),
            ("assistant", "好的。"),
            ("user", "一升等于多少毫升？"),
            ("assistant", "1000 毫升。"),
            ("user", "周一好难熬啊"),
            ("assistant", "坚持一下。"),
            ("user", "来昆明三个月了，天天晒太阳。"),
        ]
        with MemoryManager(backend=InMemoryBackend(), embeddings=MiniLMEmbeddings()) as m:
            for i, (role, text) in enumerate(turns):
                m.add_message("u", "s1", role, text, timestamp=T0 + timedelta(days=i))
            m.flush()
            yield m

    def test_a_new_place_sharing_no_word_with_the_question_comes_first(self, mm) -> None:
        ctx = mm.build_context("u", "probe", "我现在在哪座城市？", token_budget=2048)
        prompt = ctx.to_prompt()
        assert "- latest (2024-03-07): user: 来昆明三个月了，天天晒太阳。" in prompt.splitlines()
        assert 0 <= prompt.find("昆明") < prompt.find("杭州")
        assert "- earlier (2024-03-01): user: 我住在杭州。" in prompt.splitlines()

    def test_a_question_of_no_type_is_left_alone(self, mm) -> None:
        prompt = mm.build_context("u", "probe", "我喜欢吃什么？", token_budget=2048).to_prompt()
        assert "latest (" not in prompt

    def test_a_filter_keeps_the_statements_it_refuses_out(self, mm) -> None:
        """What is added beside the ranking honours the caller's filter: the newer place
        is outside it, so no message item holds it."""
        flt = {"timestamp": {"$lt": (T0 + timedelta(days=5)).isoformat()}}
        ctx = mm.build_context("u", "probe", "我现在在哪座城市？", token_budget=2048, filter=flt)
        said = [it.text for it in ctx.items if it.layer in ("message", "neighbor")]
        assert any("杭州" in t for t in said)
        assert not any("昆明" in t for t in said)


@pytest.mark.slow
def test_a_relatives_home_and_a_trip_are_not_the_users_latest_place() -> None:
    """A sister's home ("我妹妹住在杭州") and a trip ("上周去上海出差了") do not replace where
    the user lives, as a fact or as the latest statement of a place."""
    turns = [
        ("user", "我住在苏州。"),
        ("assistant", "苏州很美。"),
        ("user", "我妹妹住在杭州。"),
        ("assistant", "好的。"),
        ("user", "上周去上海出差了。"),
        ("assistant", "辛苦了。"),
        ("user", "下周去北京出差。"),
    ]
    with MemoryManager(backend=InMemoryBackend(), embeddings=MiniLMEmbeddings()) as mm:
        for i, (role, text) in enumerate(turns):
            mm.add_message("u", "s1", role, text, timestamp=T0 + timedelta(days=i))
        mm.flush()
        homes = [f.object for f in mm.profile.facts("u") if f.relation == "location"]
        assert homes == ["苏州"]
        prompt = mm.build_context("u", "p", "我现在住在哪个城市？", token_budget=2048).to_prompt()
        assert "latest (" not in prompt and "earlier (" not in prompt
        assert 0 <= prompt.find("苏州") < prompt.find("杭州")


@pytest.mark.parametrize(
    ("query", "kind", "said"),
    [  # statements the question's type words only brush against (review, finding 2)
        ("我有几个孩子？", "count", "最近学了三个月吉他。"),  # 个 counts everything
        ("我有几只猫？", "count", "今天吃了三只螃蟹"),  # another thing after the measure
        ("我每个月房租多少钱？", "count", "这个月买了两本书"),  # 月, 钱: one character
        ("我的公众号有多少粉丝？", "count", "我3号要去北京"),
        (
            "How many times did I go to the gym this month?",
            "count",
            "I paid 1200 for rent this month",
        ),
        ("我的领导是谁？", "person", "领导是个工作狂，天天加班。"),
        ("Who is my manager?", "person", "My manager is so annoying today."),
        ("Who is my manager?", "person", "My manager issued a memo."),
        ("我明年有什么打算？", "plan", "今天午饭改成吃面了。"),
        ("我明年有什么打算？", "plan", "准备好了"),
        ("What are my plans?", "plan", "I'm going to the store."),
        ("我做什么工作？", "job", "周末去了趟俱乐部。"),
        ("我做什么工作？", "job", "今天在家做了手工。"),
        ("我在哪个部门？", "job", "老家在东北部"),
    ],
)
def test_no_value_of_the_type_asked(query: str, kind: str, said: str) -> None:
    assert asked_type(query) == kind
    assert not typed(said, kind, query)


@pytest.mark.parametrize(
    ("query", "kind", "said"),
    [
        ("我有几个孩子？", "count", "我有两个孩子，一儿一女。"),
        ("我有几只猫？", "count", "又领养了一只，现在三只了。"),  # the noun left out
        ("我每个月房租多少钱？", "count", "房租每个月三千五"),
        ("我每个月还多少房贷？", "count", "提前还了一部分，现在月供降到三千二了。"),
        ("我们组现在多少人？", "count", "裁了一波，组里就剩7个人了。"),
        ("How many reports do I have?", "count", "After the merger it's 19 reports."),
        ("我的领导是谁？", "person", "我的领导换成了王磊。"),
        ("Who is my manager?", "person", "My manager is Kevin now."),
        ("我明年有什么打算？", "plan", "云南不去了，改成回老家。"),
        ("我在哪个部门？", "job", "我调到技术部了。"),
        ("我做什么工作？", "job", "我在做外卖骑手。"),
    ],
)
def test_a_value_of_the_type_asked(query: str, kind: str, said: str) -> None:
    assert typed(said, kind, query)


def test_typed_update_leaves_an_unrelated_statement_alone() -> None:
    msgs = [
        _msg(0, "user", "我有两个孩子，一儿一女。"),
        _msg(1, "user", "最近学了三个月吉他。"),
    ]
    assert typed_update(msgs, "count", "我有几个孩子？") is None
    msgs = [_msg(0, "user", "我的上级是何总监。"), _msg(1, "user", "领导是个工作狂，天天加班。")]
    assert typed_update(msgs, "person", "我的领导是谁？") is None


@pytest.mark.parametrize(
    ("said", "kind", "query"),
    [
        # another's news first, the user's own after it: the user's sentence is read
        ("My cousin just got into Oxford! As for me, I started at Deloitte last week.", "org", ""),
        ("Big week: my wife moved her studio to Hove. And I'm based in Brighton now.", "place", ""),
        ("我姐考上公务员了。我这边呢，换到腾讯上班了", "org", ""),
        ("我朋友天天跑步，太拼了。我也改成一周四次了", "count", "我一周跑几次步？"),
        # a frequency counted by 次 / 回
        ("现在一周练三回了", "count", "我一周练几回？"),
        # a trade named by its title ("做产品经理", "当项目主管")
        ("转岗了，现在做产品经理", "job", ""),
        ("调岗后我在当项目主管", "job", ""),
    ],
)
def test_the_users_own_sentence_holds_the_value(said: str, kind: str, query: str) -> None:
    assert typed(said, kind, query)


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("My cousin just started at Deloitte. So proud of him!", "org"),
        ("我姐换到腾讯上班了。真替她高兴", "org"),
    ],
)
def test_anothers_news_holds_no_value_of_the_users(said: str, kind: str) -> None:
    assert not typed(said, kind)


def test_an_also_beside_anothers_news_or_an_ending_is_no_addition() -> None:
    said = [
        _msg(0, "user", "我每周游泳两次"),
        _msg(1, "user", "我室友天天游。我现在也改成一周四次了"),
    ]
    assert typed_update(said, "count", "我一周游几次泳？") == Update(1, (0,))
    said = [
        _msg(0, "user", "I work at Lidl."),
        _msg(1, "user", "Handed in my notice and quit Lidl; I'm also settled at Aldi now."),
    ]
    assert typed_update(said, "org") == Update(1, (0,))
    said = [_msg(0, "user", "I have a dog."), _msg(1, "user", "I also have two cats.")]
    assert typed_update(said, "count", "How many pets do I have?") is None


@pytest.mark.parametrize(
    ("said", "kind", "query"),
    [
        # a workplace the slot reader does not know by name, before a verb of work or after
        # one of joining
        ("手续办完了，在顺丰也干了两周了", "org", ""),
        ("上个月跳槽到美团了", "org", ""),
        # a count said roughly (多, 来) or by another measure word (张, 双)
        ("团队现在三十多人了", "count", "我们团队多少人？"),
        ("部门就十来个人", "count", "我们部门多少人？"),
        ("手上有四张会员卡了", "count", "我有几张会员卡？"),
        # a trade said by a copula or ending in 士/生 ("我还是规培生", "现在是资深的数据分析师了")
        ("我在社区医院当护士", "job", ""),
        ("我目前还是规培生，跟着科室轮转", "job", ""),
        ("熬出头了，现在是资深的数据分析师了", "job", ""),
        # a master named as 老/小 + surname ("带我的师傅是老周")
        ("车间里带我的师傅是老周", "person", ""),
    ],
)
def test_values_said_without_a_known_name_or_measure(said: str, kind: str, query: str) -> None:
    assert typed(said, kind, query)


def test_no_workplace_at_home_and_no_count_by_a_surname() -> None:
    assert not typed("最近在家工作，挺自在", "org")
    assert not typed("张阿姨来了", "count", "我有几张会员卡？")
    assert asked_type("我在哪个机构任职？") == "org"


def test_an_entry_of_the_old_value_is_marked_earlier_by_a_newer_statement() -> None:
    """The write path read the old workplace and missed the new one: the entry with the
    old value no longer opens the prompt."""
    turns = [
        ("user", "我在美团上班，做骑手调度"),
        ("assistant", "好的。"),
        ("user", "猫为什么爱晒太阳"),
        ("assistant", "暖和，也舒服。"),
        ("user", "手续办完了，在顺丰也干了两周了，还行"),
        ("assistant", "明白。"),
    ]
    with MemoryManager(backend=InMemoryBackend(), embeddings=MiniLMEmbeddings()) as mm:
        for i, (role, text) in enumerate(turns):
            mm.add_message("u", "s1", role, text, timestamp=T0 + timedelta(days=i))
        mm.flush()
        prompt = mm.build_context("u", "p", "我在哪家公司上班？", token_budget=2048).to_prompt()
        assert 0 <= prompt.find("顺丰") < prompt.find("美团")


def test_a_department_is_of_a_job() -> None:
    # the slot reader's department ("我在用户增长部", "My team is Payments") answers a question
    # about the user's department or team, and a place or a club is none
    assert asked_type("我现在在哪个部门？") == "job"
    assert asked_type("Which team am I on now?") == "job"
    assert asked_type("What department do I work in?") == "job"
    assert typed("我在用户增长部。", "job")
    assert typed("My team is Payments now.", "job")
    assert not typed("周末去了趟俱乐部。", "job")
    assert not typed("My team is small.", "job")


@pytest.mark.parametrize(
    ("said", "typed_as_home"),
    [
        ("the movers left and the Tacoma apartment is chaos", True),
        ("first week at the new Leeds flat, the heating is broken", True),
        ("my residency permit for Oslo came through today", True),
        ("跟你说 济南这边的新房子终于收拾好了 就是有点潮", True),
        ("上个月落户青岛了 社保也转了", True),
        ("不过那只是旅游 正经的是我成都的租房合同上周签了", True),
        ("下个月去成都的租房合同还没签", False),
        ("the Tacoma apartment of my cousin is for rent", False),
        ("我们的新房子收拾好了", False),
        ("my sister's Leeds flat has a view", False),
    ],
)
def test_a_city_named_by_a_thing_of_the_home_there(said: str, typed_as_home: bool) -> None:
    assert typed(said, "place", "Where do I live now?") is typed_as_home


@pytest.mark.parametrize(
    ("said", "query", "of_the_event"),
    [
        ("the caterer cancelled so we pushed everything to June 9", "When is my wedding?", True),
        ("they moved it up to May 28, eek", "When is my surgery?", True),
        ("rebooked for the 14th, same time", "When do I fly out?", True),
        ("酒店满了，改到十月三号", "我哪天办婚礼？", True),
        ("面试提前到这周三", "我哪天面试？", True),
        ("my dentist appointment got moved to May 28", "When is my wedding?", False),
        ("we moved to Leeds on May 28", "When is my wedding?", False),
    ],
)
def test_a_date_said_as_moved_is_the_events_new_date(
    said: str, query: str, of_the_event: bool
) -> None:
    assert typed(said, "date", query) is of_the_event


def test_an_older_value_said_before_a_question_is_an_earlier_one() -> None:
    msgs = [
        _msg(0, "user", "I live in Dayton, does renter's insurance cover a stolen bike?"),
        _msg(1, "assistant", "Usually, under personal property."),
        _msg(2, "user", "Is Toledo nice in the winter?"),  # a place asked about, none stated
        _msg(3, "user", "We live in Spokane now, the river view is worth the boxes."),
    ]
    assert typed_update(msgs, "place", "Where do I live?") == Update(3, (0,))
    # a question stating a value after the newest statement is no older value of it
    late = [_msg(0, "user", "I live in Spokane now."), _msg(1, "user", msgs[0].content)]
    assert typed_update(late, "place", "Where do I live?") is None


@pytest.mark.parametrize(
    "said",
    [
        # a verb of becoming or doing, and the trade it makes the user
        "上岸了！考了三年终于成了公务员",
        "不写代码了 自己开了家店 当咖啡店老板",
        "今天第一次以讲师身份给本科生上课",
        "拿到证之后我就全职当瑜伽教练了",
        "现在跑网约车司机 至少风吹不着",
        "我做销售的 天天陪客户喝酒",
        "我做前端开发的 vue 和 react 现在哪个更吃香",
        "caught my first baby as a registered midwife last night",
        "nope, full-time dog groomer now",
        "Took the financial controller job at the smaller firm",
        "I ended up moving into the product manager role on our team",
    ],
)
def test_a_trade_said_by_a_verb_of_becoming_is_a_job(said: str) -> None:
    assert typed(said, "job")


@pytest.mark.parametrize(
    "said",
    [
        "as a matter of fact I love it",
        "I went there as a kid",
        "我跑了个马拉松",
        "我做饭的时候",
        "我做蛋糕的手艺一般",
    ],
)
def test_no_trade_without_a_word_of_one(said: str) -> None:
    assert not typed(said, "job")
