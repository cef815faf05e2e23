"""A change said in any words replaces the slot's value; the old value is kept as earlier."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.extraction.changes import CHANGE_KEY, changes_of, names_change
from langgraph_memory.extraction.slots import about_others, slots_of
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I switched to Accenture last month.", "Accenture"),
        ("Sold the Honda, I drive a Tesla now.", "Tesla"),
        ("Actually my favourite food is ramen now, sushi is second.", "ramen"),
        ("现在我的主管变成了赵哥。", "赵哥"),
        ("我换了华为手机，不用iPhone了。", "华为"),
        ("组里又来了两个人，现在八个人了。", "八个人"),
    ],
)
def test_a_change_cue_gives_the_new_value(said: str, value: str) -> None:
    assert [v for _, v, _ in changes_of(said)] == [value]


@pytest.mark.parametrize(
    "said",
    [
        "I drive a Tesla.",  # no change cue
        "上大学的时候天天熬夜打游戏，现在早不玩了。",  # an ending, no new value
        "帮我把这段改成英文。",  # a request to the assistant
        "Can you switch to French?",
        "Now I have a question.",
    ],
)
def test_no_change_without_a_cue_and_a_new_value(said: str) -> None:
    assert changes_of(said) == []


def test_names_change_reads_an_ended_value() -> None:
    assert names_change("I'm no longer at Netflix, I joined Spotify.", "Netflix")
    assert names_change("已经从京东离职了，现在在美团。", "京东")
    assert not names_change("I love my Honda.", "Honda")


def _memory(turns: list[str]) -> MemoryManager:
    mm = MemoryManager(backend=InMemoryBackend())
    for i, text in enumerate(turns):
        mm.add_message("u", "s", "user", text, timestamp=T0 + timedelta(days=i))
    mm.flush()
    return mm


@pytest.mark.parametrize(
    ("turns", "old", "new", "question"),
    [
        (["I work for IBM as a consultant.", "I switched to Accenture last month."],
         "IBM", "Accenture", "Who do I work for?"),
        (["我的主管是陈姐。", "现在我的主管变成了赵哥。"], "陈姐", "赵哥", "我的主管是谁？"),
        (["我在腾讯上班。", "我换到字节了，上周刚入职。"], "腾讯", "字节", "我在哪家公司？"),
    ],
)  # fmt: skip
def test_the_new_value_is_shown_first_and_the_old_one_as_earlier(
    turns: list[str], old: str, new: str, question: str
) -> None:
    mm = _memory(turns)
    try:
        facts = mm.profile.facts("u")
        current = [f.object for f in facts if f.valid_to is None]
        assert new in current and old not in current
        assert all(f.relation != CHANGE_KEY for f in facts if f.object == new)
        text = mm.build_context("u", "probe", question, token_budget=2048).to_prompt()
        assert 0 <= text.find(new) < text.find(old)
    finally:
        mm.close()


def test_a_tentative_name_changes_only_a_slot_the_user_filled() -> None:
    mm = _memory(["I live in Vancouver.", "Finally got my Toronto library card, feels official."])
    try:
        current = {f.relation: f.object for f in mm.profile.facts("u") if f.valid_to is None}
        assert current == {"location": "Toronto"}
    finally:
        mm.close()
    mm = _memory(["Finally got my Toronto library card, feels official."])
    try:
        assert mm.profile.facts("u") == []  # nothing said before: a guess is not a belief
    finally:
        mm.close()


@pytest.mark.parametrize(
    ("turns", "new"),
    [
        (["My manager is Linda.", "Reporting to Omar from now on."], "Omar"),
        (["我们组长是老周。", "老周走了，组长换成了小林。"], "小林"),
        (["小王是我同事。", "小王现在是我老板了。"], "小王"),
    ],
)
def test_other_words_for_a_new_manager(turns: list[str], new: str) -> None:
    mm = _memory(turns)
    try:
        text = mm.build_context("u", "probe", turns[0], token_budget=2048).to_prompt()
        assert new in text.split("\n")[1]  # the first memory line shows the new value
    finally:
        mm.close()


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("Finished Dune, started on Neuromancer yesterday.", "Neuromancer"),
        ("I dropped law and I'm doing medicine at Edinburgh now.", "medicine"),
        ("Danny retired so Kev coaches me now.", "Kev"),
        ("丰田卖了，买了辆特斯拉。", "特斯拉"),
        ("日语放弃了，开始学法语。", "法语"),
        ("和小美分手了，现在的女朋友叫小雨。", "小雨"),
        ("刘总退休了，接班的是孙总。", "孙总"),
        ("小王被调去别的组了，现在带我们的是老陈。", "老陈"),
    ],
)
def test_an_ending_then_a_start_is_a_change(said: str, value: str) -> None:
    assert [v for _, v, _ in changes_of(said)] == [value]


@pytest.mark.parametrize(
    "said",
    ["I quit smoking.", "I quit smoking, Tom says I look better.", "I left early, got home at 9."],
)
def test_an_ending_alone_is_no_change(said: str) -> None:
    assert changes_of(said) == []


def test_a_value_the_statement_says_ended_is_not_its_new_value() -> None:
    said = "Big news: accepted the offer from Stripe, my last day at Shopify was Friday."
    assert ("employer", "Shopify") not in [(k, v) for k, v, _ in slots_of(said)]


def test_a_relative_after_the_user_is_no_statement_about_others() -> None:
    assert not about_others("I live with my parents in Cork.")
    assert not about_others("我和我妈住在一起。")
    assert about_others("My sister plays the cello.")
    assert about_others("I think my sister moved to Rome.")


def test_a_relative_named_as_what_something_is_is_the_users() -> None:
    # after a copula the relative is what the user's gym partner is, not the subject
    assert not about_others("Jake moved away, so my new gym partner is my neighbour Sam.")
    assert about_others("My neighbour Sam moved to Leeds.")


def test_the_slot_named_before_its_new_value() -> None:
    # "现在的X是V": the slot is X (the 学 of 大学 ends no value)
    assert changes_of("和阿杰分手了，现在的对象是大学同学小林。") == [("对象", "大学同学小林", 12)]
    assert changes_of("现在的老板是王总。") == [("老板", "王总", 5)]


def test_a_length_of_time_or_a_verb_is_no_employer() -> None:
    # (no "一个月": where, tentatively, is 腾讯: "这边" in a message of work)
    assert [(k, v) for k, v, _ in slots_of("腾讯这边的项目节奏更快，入职一个月了。")] == [
        ("maybe employer", "腾讯")
    ]
    assert [(k, v) for k, v, _ in slots_of("拿到了OPPO的offer，下周一入职。")] == [
        ("employer", "OPPO")
    ]


@pytest.mark.parametrize(
    ("turns", "old", "new", "question"),
    [
        # an unnamed change to an organisation's name changes the employer, not the job
        (["我在协和医院当护士。", "调到了朝阳医院急诊科，上个月的事。"],
         "协和医院", "朝阳医院", "我在哪家医院上班？"),
        (["我在仁济医院当医生。", "换到了华山医院，离家近。"],
         "仁济医院", "华山医院", "我在哪家医院？"),
        # a new value said as an event (events_zh)
        (["我们主管是老周，天天画饼。", "老周被优化了😅 现在孙经理直接管我们"],
         "老周", "孙经理", "我的主管现在是谁？"),
        (["我规培的带教老师是黄医生。", "轮转到内科了，现在带我的是吴医生"],
         "黄医生", "吴医生", "带我的老师是谁？"),
        (["我人在西安，做外贸的。", "公司把我从西安调到厦门分公司了"],
         "西安", "厦门", "我在哪个城市？"),
        (["我在一家火锅店当服务员。", "老板让我当店长了，工资涨了"],
         "服务员", "店长", "我是什么职位？"),
        # the entry of another slot quoting the old statement follows the replacing one
        (["I'm a nurse at St Mary's Hospital.", "I switched to Kings College Hospital."],
         "St Mary's", "Kings College", "Which hospital do I work at?"),
    ],
)  # fmt: skip
def test_a_change_of_one_slot_leads_the_entries_quoting_its_old_value(
    turns: list[str], old: str, new: str, question: str
) -> None:
    mm = _memory(turns)
    try:
        text = mm.build_context("u", "probe", question, token_budget=2048).to_prompt()
        assert 0 <= text.find(new) < text.find(old)
    finally:
        mm.close()


@pytest.mark.parametrize(
    ("turns", "old", "new", "question"),
    [
        # the role a change names resolves its slot ("咨询师" of "心理咨询师")
        (["我的心理咨询师是林老师。", "换了个咨询师，现在是郑老师"],
         "林老师", "郑老师", "我的咨询师是谁？"),
        # a Chinese value holding 日 or 月 is no date ("学日语"): the change finds the plan
        (["今年打算学日语，已经买好教材了。", "日语放弃了，改学韩语"],
         "日语", "韩语", "我在学哪门外语？"),
        (["过年打算回老家。", "今年过年不回了，带爸妈去海南过"],
         "回老家", "海南", "今年过年怎么安排？"),
        (["想买一辆比亚迪，电车省钱。", "最后还是定了特斯拉，定金都交了"],
         "比亚迪", "特斯拉", "我准备买什么车？"),
        (["工作两年存款才5万，有点焦虑。", "存款终于攒到8万了"], "5万", "8万", "我存了多少钱？"),
        (["今年到现在看了12本书。", "刚看完第15本，进度还行吧"],
         "12本", "15本", "我今年看了多少本书？"),
        (["我家就一个娃，刚上幼儿园", "二胎出生了！！母子平安"],
         "一个娃", "二胎", "我有几个孩子？"),
        (["I was going to buy a Honda.", "Any tips for sleeping on a plane?",
          "How many cups are in a litre?", "In the end I decided to get a Mazda instead."],
         "Honda", "Mazda", "What car am I planning to buy?"),
    ],
)  # fmt: skip
def test_a_plan_or_a_role_changed_is_shown_current_first(
    turns: list[str], old: str, new: str, question: str
) -> None:
    mm = _memory(turns)
    try:
        text = mm.build_context("u", "probe", question, token_budget=2048).to_prompt()
        assert 0 <= text.find(new) < text.find(old), text
        line = next(x for x in text.splitlines() if old in x and new not in x)
        assert re.search(r"earlier|此前|已被取代", line), text
    finally:
        mm.close()


def test_a_passive_move_befell_someone_else() -> None:
    said = "张店长被调到万达那家店去了 现在是刘姐管我们"
    assert all(not key.endswith("被") for key, _, _ in slots_of(said))
    assert all(value != "万达那家店去" for _, value, _ in slots_of(said))
    # the user moved: the user's change
    assert ("changed to", "技术部") in [(k, v) for k, v, _ in slots_of("我被调到技术部了")]
