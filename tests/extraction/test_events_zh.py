"""Chinese slots said as events (langgraph_memory.extraction.events_zh, through slots_of):
someone governs the user, the user was made something, a transfer from one place to
another, a modified head noun; dates end with their suffix and a further week (下下周); a
modal or a "from" is no slot's name. Each form in several phrasings of our own, with the
look-alikes that give nothing."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.changes import changes_of
from langgraph_memory.extraction.events_zh import event_slots
from langgraph_memory.extraction.slots import slots_of


def _slot(said: str, key: str) -> str | None:
    return next((v for k, v, _ in slots_of(said) if k == key), None)


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        # a governing verb with the user as its object
        ("老周被优化了😅 现在孙经理直接管我们，饼倒是少了", "manager", "孙经理"),
        ("以后李主管带我们组", "manager", "李主管"),
        ("现在老陈管我", "manager", "老陈"),
        # a head noun with a modifier of its own, or its name said after what it is like
        ("我规培的带教老师是黄医生，外科的。", "manager", "黄医生"),
        ("我读博的导师是陈教授", "manager", "陈教授"),
        ("我实习的师傅是老刘，人很好", "manager", "老刘"),
        ("我上级是Kevin，香港人", "manager", "Kevin"),
        ("Kevin离职了，新老板是新加坡来的，叫Amy", "manager", "Amy"),
        ("新来的经理是上海人，叫老林", "manager", "老林"),
        # a causative: the user made something
        ("老板让我当店长了，工资涨了一千", "occupation", "店长"),
        ("领导安排我做组长了", "occupation", "组长"),
        ("我终于当上了主任", "occupation", "主任"),
        ("我在一家火锅店当服务员。", "occupation", "服务员"),
        ("我在医院当护士", "occupation", "护士"),
        # a transfer's path
        ("公司把我从西安调到厦门分公司了，上周已经过来了", "location", "厦门"),
        ("我从北京调到上海工作了", "location", "上海"),
        ("去年从成都搬到了重庆", "location", "重庆"),
        # dates: the suffix stays, a week further on is read
        ("上线又延期两周，现在定6月15号，测试那边bug太多", "date of launch", "6月15号"),
        ("搬家公司说那天排不开，只能改成下下周日了", "date of move", "下下周日"),
        ("体检约在下下周一", "date of appointment", "下下周一"),
        ("我科目二约在周三", "date of exam", "周三"),
    ],
)
def test_a_slot_said_as_an_event_is_read(said: str, key: str, value: str) -> None:
    assert _slot(said, key) == value


@pytest.mark.parametrize(
    "said",
    [
        "我妈管我管得很严",  # a parent minding the user
        "你别管我",
        "他管我们叫小朋友",
        "谁管我们啊",
        "我朋友的老板是王总",  # someone else's boss
        "我朋友从广州搬到深圳了",  # someone else's move
        "我从销售部调到市场部了",  # a department, not a city
        "我从早上到晚上都在忙",
        "我在公司当一下午的摆设",
    ],
)
def test_look_alikes_give_no_event_slot(said: str) -> None:
    assert event_slots(said) == []


def test_a_modal_or_where_from_is_no_slot_name() -> None:
    assert [k for k, _, _ in changes_of("只能改成下下周日了")] == ["changed to"]
    assert [k for k, _, _ in changes_of("我从销售部调到市场部了")] == ["changed to"]
    assert [k for k, _, _ in changes_of("还是改成周五吧")] == ["changed to"]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        # a role changed hands, the value said after it: a change, its slot resolved later
        ("换了个咨询师，现在是郑老师，感觉更合得来", "changed to", "郑老师"),
        ("换了个理发师，新的叫Tony", "changed to", "Tony"),
        ("换了家健身房，现在是乐刻", "changed to", "乐刻"),
        # a choice made after weighing another ends a plan
        ("最后还是定了特斯拉Model 3，定金都交了", "plan", "特斯拉Model"),
        ("试驾完最后订了辆小鹏，下个月提车", "plan", "小鹏"),
        ("最后还是选了青岛！", "plan", "青岛"),
        # a plan by going back, staying home or learning; one dropped for another
        ("过年打算回老家，好几年没回去了。", "plan", "回老家"),
        ("国庆准备回老家。", "plan", "回老家"),
        ("今年打算学日语，已经买好教材了。", "plan", "学日语"),
        ("今年过年不回了，带爸妈去海南过，机票都买好了", "plan", "带爸妈去海南过"),
        # a trip home the segmenter keeps as one word; a holiday said with its year
        ("五一回老家", "plan", "回老家"),
        ("五一我回老家，票已经买好了", "plan", "回老家"),
        ("春节回娘家", "plan", "回娘家"),
        ("今年春节去婆家过，轮流嘛", "plan", "去婆家过"),
    ],
)
def test_a_change_of_hands_or_a_choice_is_read(said: str, key: str, value: str) -> None:
    assert (key, value) in [(k, v) for k, v, _ in slots_of(said)]


@pytest.mark.parametrize(
    "said",
    [
        "我最后买了块佳明手表，两千三百九十九。",  # bought, not said to be chosen over one
        "还有浩浩说不想学奥数了，想学围棋",  # someone else's plan, reported
        "我打算回你消息",  # a reply, not a trip home
        "回国啦！给你带的东西都买到了。",  # back already: no plan, and no city "国"
    ],
)
def test_no_plan_from_a_purchase_a_report_or_a_reply(said: str) -> None:
    assert "plan" not in [k for k, _, _ in slots_of(said)]


def test_coming_back_is_no_city() -> None:
    assert "location" not in [k for k, _, _ in slots_of("回国啦！给你带的东西都买到了。")]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        # a measured quantity of the user's life and its amount
        ("工作两年存款才5万，有点焦虑。", "number of 存款", "5万"),
        ("年终奖到账，存款终于攒到8万了", "number of 存款", "8万"),
        ("体重减到120斤了", "number of 体重", "120斤"),
        ("积蓄一共两万块", "number of 积蓄", "两万块"),
        ("存款三万五", "number of 存款", "三万五"),
        # a child by its birth order; an ordinal with its measure word
        ("二胎出生了！！七斤二两，母子平安", "number of children", "二胎"),
        ("二宝来了", "number of children", "二宝"),
        ("刚看完第15本，进度还行吧", "number of books", "第15本"),
        ("这是我今年看的第3本", "number of books", "第3本"),
    ],
)
def test_an_amount_or_an_ordinal_is_a_count(said: str, key: str, value: str) -> None:
    assert (key, value) in [(k, v) for k, v, _ in slots_of(said)]


def test_someone_elses_amount_is_none() -> None:
    assert slots_of("我妈体重130斤") == []
    assert slots_of("这是我第4次来") == []
    assert slots_of("是呀，就是工资少两千左右") == []  # a difference, not an amount
