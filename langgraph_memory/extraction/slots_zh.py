"""The Chinese slot reader: where the user lives and works, their department, what they
do, whom they report to, who someone is to them, how many of a thing they have, when an
event is, what they plan and how old a child or a pet is.

:func:`zh_slots` reads the statements of one Chinese message into ``(key, value, offset)``
slots, checking a verb is a word of its own by jieba's segmentation;
:func:`.slots.slots_of` calls it and drops what is someone else's.

Example:
    >>> zh_slots("答辩提前到2月18号了，得抓紧。")
    [('date of 答辩', '2月18号', 5)]
    >>> names_department("用户增长部"), names_department("俱乐部")
    (True, False)
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import load_jieba
from langgraph_memory.extraction.cues import Cued
from langgraph_memory.extraction.entities import find_entities
from langgraph_memory.extraction.events_zh import event_slots
from langgraph_memory.extraction.slot_words import (
    COUNTED_RX,
    DATE_ZH,
    NUM_BIG,
    NUM_ZH,
    TENTATIVE,
    ZH_NEXT,
    ZH_NOT_NAMED,
    ZH_NOT_NAMED_WORDS,
    Slot,
    compiled,
    event_of,
    first_value,
    kind_of,
    last_value,
    within_clause,
)
from langgraph_memory.extraction.whereabouts import not_lived_at

__all__ = ["zh_slots", "names_department", "NO_PLACE"]

_ZPLACE = r"(?P<v>[\u4e00-\u9fff]{2,5}?)"
_ZH_CITY = [
    r"(?P<verb>住在|定居在?|安家在|落户)"
    + _ZPLACE
    + rf"(?=[，,。！!；;了\s]|$|这边|那边|的|{ZH_NEXT})",
    r"(?P<verb>搬来|搬到|搬去|搬回|回到|回|来到|到了|落脚)"
    + _ZPLACE
    + rf"(?=[，,。！!；;\s]|$|以后|之后|第|了|后|的|这边|那边|定居|生活|安顿|{ZH_NEXT})",
    r"在" + _ZPLACE + r"(?:安顿|定居|生活|住下|落脚|扎根|租了房|买了房)",
    r"(?:^|[，,。])"
    + _ZPLACE
    + r"这边(?=[^，,。]{0,12}(?:冬天|夏天|天气|气候|房租|空气|下雨|干|冷|热|潮))",
    r"我在" + _ZPLACE + r"住了",
]
_ZH_EMPLOYER = [
    r"(?P<verb>入职|加入|跳槽到|跳到|去了|"
    r"进了)(?:了)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|了|啦|工作|上班)",
    r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)的(?:工牌|offer|Offer|食堂|工位|同事|年终奖|团建|入职|电脑)",
    r"(?:^|[，,])在(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)的第一(?:天|周|个月|年)",
    r"新(?:东家|公司|单位)(?:是|叫)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"我(?:们|的)?(?:公司|单位|创业公司)(?:名字)?叫(?!个|了|人来|人去|人修|我|你|他|她|外卖|车)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|了|啦)",
    # "我们公司是字节跳动": a name, not what the company is like or does (ZH_NOT_NAMED)
    r"我(?:们|的)(?:公司|单位|东家)(?:现在)?是(?!"
    + ZH_NOT_NAMED_WORDS
    + r")(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|啦)",
    r"(?:在|去)(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:搬砖|打工|上班了|报到)",
    # "我在一家外企，西门子，做工程师": the kind of company, then its name
    r"我(?:现在)?在一家[\u4e00-\u9fff]{1,4}[，,](?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)[，,]",
    r"(?:我|我现在|我目前|(?:^|[，,])(?:现在|目前|如今)|并且|而且|同时)在(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)"
    r"(?:工作|上班|任职|实习|[做当](?=[\u4e00-\u9fff]{2}))",
]
_ZH_JOB = [
    r"我(?:现在)?是(?:一名|一个|个)?(?P<v>(?:初级|中级|高级|资深|首席)?[\u4e00-\u9fffA-Za-z]{0,4}(?:开发|"
    r"工程师|程序员|"
    r"老师|教师|设计师|产品经理|运营|会计|医生|护士|律师|分析师|研究员|经理|总监|实习生|学生))",
    # (a number before 升 makes it a measure: "一升等于多少毫升" is a litre, no promotion)
    r"(?<![\d一二两三四五六七八九十百千几半多毫])(?P<verb>升到|升为|升成|升|当上了?|转成|转为|晋升为?|评上了?|被评为|考上了?|转正为?)(?!职|级|值)(?P<v>(?:初级|中级|高级|资深|"
    r"首席)?[\u4e00-\u9fff]{1,6}?)"
    r"(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:转行|改行)(?:去)?(?:做|当|成了?|干)(?P<v>[\u4e00-\u9fff]{2,6}?)(?=[，,。！!；;\s]|$|了|啦)",
    # "现在做自由撰稿人", "目前当产品经理", "现在全职做自媒体博主", "我在做外卖骑手": what
    # names a trade (…人, …师, …员)
    r"(?:现在|目前|如今|我在|我是)(?:在)?(?:全职|兼职|专职)?(?:做|当|干)(?:了)?(?P<v>[\u4e00-\u9fff]{1,6}?(?:师|员|者|手|家|(?<!手)工|人|练|司机|"
    r"经理|总监|老师|医生|护士|运营|开发|销售|会计|律师|博主|主播|自由职业))(?=[，,。！!；;\s]|$|了|啦)",
    # "普通程序员一枚": a trade said of oneself, by its measure word
    r"(?:^|[，,。！!；;\s])(?:普通|小小|资深|一名|一个)?(?P<v>[\u4e00-\u9fffA-Za-z]{0,4}?(?:师|员|狗|"
    r"经理|总监|运营|开发|销售|会计|律师|博主|主播|学生|研究生|博士))一枚",
]
_ZH_ROLE = [
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)(?:升职|升了|调岗|换岗|转岗)[^。]{0,6}?(?:现在|已经)?(?:是|"
    r"成了|当了)我的?"
    r"(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)是我的?(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)(?:现在|已经|如今|也)+(?:是|成了|变成了?|当上了?|升成了?|升为|做了)"
    r"我(?:们)?的?(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)(?:成了|变成了?|当上了?|升成了?|升为)我(?:们)?的?"
    r"(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
]
_ZH_MANAGER = [
    r"我们?(?:的)?(?:新|直属|顶头|直接|现在的|新的)?(?:领导|上级|老板|经理|主管|组长|上司|leader)"
    r"(?:现在)?(?:是|叫|"
    r"换成了?)(?P<v>[\u4e00-\u9fff]{1,4}?)"
    r"(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:现在)?我?归(?P<v>[\u4e00-\u9fff]{1,4}?)管",
    r"(?:现在|目前|以后)?(?:我|我们)?(?:直接)?(?:向|跟|给)(?P<v>[\u4e00-\u9fff]{1,4}?)(?:汇报|报告)",
    r"(?:现在)?带我的(?:人|领导)?(?:是|换成了?|变成了?)(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:领导|上级|老板|经理|主管|组长|上司|leader)(?:换成了?|变成了?|换了?(?:个|一个)?人?[，,]?"
    r"(?:是|叫)?)(?P<v>[\u4e00-\u9fff]{2,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<v>[\u4e00-\u9fff]{2,4}?)(?:成了|是|当了|接任)我(?:的)?(?:新)?(?:领导|上级|老板|经理|主管|"
    r"组长|上司)",
    r"(?:新来的|新)(?:领导|上级|老板|经理|主管|组长|上司)(?:是)?(?P<v>[\u4e00-\u9fff]{2,3})"
    r"(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:领导|上级|老板|经理|主管|组长|上司)(?:换成了?|变成了?)?(?:姓|"
    r"叫)(?P<v>[\u4e00-\u9fff]{1,3}?)(?=[，,。！!；;\s]|$|了)",
]
#: "我在用户增长部", "我现在在推荐组": the user's department or team.
_ZH_DEPARTMENT = Cued(
    re.compile(
        r"我(?:现在|目前|已经)?(?:调到了?|转到了?|在|去了)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?"
        r"(?:事业部|部门|部|组|团队))(?=[，,。！!；;\s]|$|了|啦|工作|上班|做|当|干|实习)"
    )
)
#: What a department is not: a direction, a part of the body, a club, a part or a whole
#: ("东北部", "腹部", "俱乐部", "内部"), a group around a teacher ("李老师组").
_ZH_NOT_DEPARTMENT = re.compile(
    r"^(?:[东西南北中]|东北|西北|东南|西南|华东|华南|华北|华中|内|外|全|头|腹|背|腿|脸|底|顶|局|"
    r"一|这个|那个|哪个)(?:部|组)$|俱乐部|老师|教授|小组$"
)
_ZH_COUNT = [
    rf"(?:我家|我们家|家里|我)(?:有|养了|养着|一共|现在)?(?P<v>{NUM_ZH}[只个盆本辆条位名棵])"
    rf"(?P<n>[\u4e00-\u9fff]{{1,3}})",
    rf"(?:一共|总共|现在|目前|共)(?:有|是|养了|"
    rf"种了)?(?P<v>{NUM_ZH}[只个盆本辆条位名棵])(?P<n>[\u4e00-\u9fff]{{0,3}})",
    rf"(?:养了|有|种了|生了|读了|看了|"
    rf"买了)(?P<v>{NUM_ZH}[只个盆本辆条位名棵])(?P<n>[\u4e00-\u9fff]{{1,3}})",
    # "第三个孩子", not "第4次" (the fourth time: a count of nothing the user has)
    rf"(?P<v>第{NUM_ZH}(?![0-9一二两三四五六七八九十百]*[次遍回趟])(?:[只个盆本辆条位名棵]|(?![只个盆本辆条位名棵])))"
    rf"(?P<n>[\u4e00-\u9fff]{{1,3}})",
    r"(?P<v>老[二三四五六]|[二三四]胎|[二三]宝)(?:出生|来了|生了|落地|报到)",
    # "刚看完第15本": an ordinal with its measure word counts what the measure counts
    rf"(?P<v>第{NUM_ZH}[本辆])(?P<n>)(?=[，,。！!；;\s]|$|了)",
    # "才3000个粉丝", "粉丝直接涨到1万了": an audience, counted by thousands
    rf"(?P<v>{NUM_BIG})个?(?P<n>粉丝|关注者|订阅者?)",
    rf"(?P<n>粉丝|关注者|订阅)数?[^，,。！!]{{0,4}}?(?:涨到了?|达到了?|破了?|到了|变成了?|有)"
    rf"(?P<v>{NUM_BIG})",
]
_ZH_DATE_MOVED = Cued(
    re.compile(
        rf"(?P<e>[\u4e00-\u9fff]{{0,8}}?)(?:改到|改成|改在|挪到|推迟到|推到|延期到|延到|提前到|调到|"
        rf"换到|改签到|改签成)了?(?P<v>{DATE_ZH})"
    )
)
_ZH_DATE_SET = Cued(
    re.compile(
        rf"(?P<e>[\u4e00-\u9fff]{{1,8}}?)(?:安排在|定在|约在|定于|是在|在|(?<=现在|目前|已经|最后|还是)[定约])(?P<v>{DATE_ZH})"
        rf"|(?P<v2>{DATE_ZH})(?:(?P<e2>[\u4e00-\u9fff]{{1,6}})|(?=[，,。！!；;]))"
    )
)
_ZH_PLAN = [
    # a trip to come, said by its movement: "下个月去日本", "五一回老家"
    # (the user's: said with no subject, or with 我/我们 around the time)
    r"(?:^|[，,。！!；;\s]|我们?|我(?:跟|和)[\u4e00-\u9fff]{1,3})(?:今年|明年)?"
    r"(?:下个?月|下周|下星期|明年|明天|后天|这周末|下周末|周末|月底|年底|国庆|春节|五一|十一|暑假|寒假|"
    r"过几天|[0-9一二三四五六七八九十]{1,2}月(?:份|底|初|中)?)(?:我|我们)?(?:要|会|准备|打算|就)?"
    r"(?P<v>(?P<verb>去|回|飞|飞去|出发去)(?![0-9一二两三四五六七八九十几半]+个?(?:天|周|星期|礼拜|月))"
    r"[\u4e00-\u9fff]{2,8}?)"
    r"(?=[，,。！!；;\s]|$|玩|旅游|旅行|出差|度假|看|参加|过年|待)",
    r"(?P<verb>计划|打算|准备|想)(?:这个|下个)?(?:周末|假期|月|明年|今年|年底)?(?P<v>(?:去|回(?![你复答信消电话])|开车|坐|"
    r"带|在家|学(?=[\u4e00-\u9fff]{2})|考(?=[研公编博]))[^，,。！!；;？?]{1,24})",
    r"(?:计划有变|改主意了?|行程有变)[了，,]?\s*(?:改成|改为|改)?(?P<v>[^，,。！!；;？?]{2,24})",
    r"(?:改成|改为|改)(?P<v>去[^，,。！!；;？?]{2,24})",
    r"不[去回][^，,。]{0,10}了[，,]?\s*(?:改|换|还是|直接)?(?:成)?"
    r"(?P<v>(?:去|在|坐|开|带)[^，,。！!；;？?]{2,24})",
    r"(?:决定|最后还是|还是决定)(?P<v>(?:去|在家|坐|开车|带|考(?=[研公编博]))[^，,。！!；;？?]{1,24})",
    r"(?:改成|改为|换成)(?P<v>(?:坐|开车|在家|带|去)[^，,。！!；;？?]{1,20})",
]

_ZH_CITY_RX = compiled(_ZH_CITY)
_ZH_EMPLOYER_RX = compiled(_ZH_EMPLOYER)
_ZH_JOB_RX = compiled(_ZH_JOB)
_ZH_MANAGER_RX = compiled(_ZH_MANAGER)
_ZH_ROLE_RX = compiled(_ZH_ROLE)
_ZH_COUNT_RX = compiled(_ZH_COUNT)
#: A going said in the past of its clause ("去年去了日本", "上个月去了趟成都"): a trip.
_ZH_WENT = re.compile(r"(?:去年|前年|上个?月|上周|上次|那年|以前|之前|小时候)[^，,。！!；;]*去了$")
#: A home said by a thing of it, after its city ("大连新房子", "合肥的住处"); and the words
#: before one that name no city (whose home it is, or which).
_HOME_THING = re.compile(r"的?(?:新)?(?:房子|住处|新家|出租屋|公寓)")
_NOT_HOME_OF = re.compile(
    r"[我你他她们自己家友妈爸哥姐弟妹事板司人的这那个租买卖看旧新老大小了住到搬换去来回]$|"
    r"^[在从把去到回的这那对现]|附近|楼下|对面|隔壁|学校|公司|单位|酒店|宾馆|民宿"
)
_HOME_OF_AFTER = re.compile(r"(?:^|[，,。！!；;\s]|[把从在])$")
_WORK_THING = re.compile(r"的(?:工牌|offer|Offer|食堂|工位|同事|年终奖|团建|入职|电脑)")
_ZH_DEPARTMENT_END = re.compile(r"(?:事业部|部门|部|组|团队)$")
_ZH_PLAN_RX = compiled(_ZH_PLAN)


#: What no place name holds: a pronoun, a demonstrative, a measure ("回一下这条").
#: A length of time ("一个月", "三年", "半年"): never a place, employer or job.
_ZH_SPAN = re.compile(r"[0-9一二两三四五六七八九十几半多]+个?(?:多)?(?:月|天|年|周|星期|小时|礼拜)")
#: What names a person, a group or a room, never the city the user lives in.
_NOT_CITY = re.compile(
    r"^[不没]|老师|教授|经理|总监|主管|组|部门|科室|实验室|课题|团队|老家|陪|里$|"
    r"医院|公司|集团|大学|学院|银行|中学|小学|研究院|研究所"  # an organisation ("换到了华山医院")
)
#: A negation right before a move ("没回郑州", "不搬去上海了"): no move made.
_NOT_MOVED = re.compile(r"(?:没|没有|不|未|别)(?:再)?[\u4e00-\u9fff]{0,2}$")
#: A kind of place, not the name of an employer ("我在医院当护士", "在网上当博主").
_GENERIC_PLACE = re.compile(
    r"网上|线上|医院|学校|家里|家|公司|工厂|厂里|店里|单位|外面|国外|国内|本地|老家|城里|村里|工地"
)
NO_PLACE = re.compile(r"^(?:家|公司|单位|学校|一)|这|那|哪|些|我|你|他|她|条|趟|次")


#: Going home, said as one word by the segmenter ("回老家"): a trip of its verb.
_HOMEWARD = ("回老家", "回娘家", "回婆家")


def names_department(value: str) -> bool:
    """Whether ``value`` names a department or team ("用户增长部", "推荐组"), not a
    direction, a part of the body or a club ("东北部", "俱乐部").

    Example:
        >>> names_department("用户增长部"), names_department("俱乐部"), names_department("字节")
        (True, False, False)
    """
    return bool(_ZH_DEPARTMENT_END.search(value)) and not _ZH_NOT_DEPARTMENT.search(value)


def _word_bounds(text: str) -> set[int]:
    """The offsets in ``text`` where a word starts or ends, by jieba's segmentation."""
    import jieba

    load_jieba()
    bounds, at = {0}, 0
    for word in jieba.cut(text, HMM=False):
        at += len(word)
        bounds.add(at)
    return bounds


def zh_slots(text: str) -> list[Slot]:
    out: list[Slot] = []

    def add(key: str, value: str, at: int) -> None:
        value = re.sub(
            r"^(?:今天|昨天|前天|刚刚|刚|终于|已经|正式)*(?:领了|拿到了?|收到了?|签了|去了)?",
            "",
            within_clause(value.strip()),
        )
        value = re.sub(r"^(?:[拿收领签]?到了|了|在|的)|(?:了|啦|的|吧)$", "", value)
        value = re.sub(r"(?:现在|已经|如今|目前|也|又)+$", "", value)  # "小王现在是我老板"
        if _ZH_SPAN.fullmatch(value) and not key.startswith(("date", "number", "age")):
            return  # "入职一个月了": how long, not where
        if key == "location":  # "到了厦门才发现…": the place, not what was found there
            value = re.split(r"才|就|发现|以后|之后|这边|那边|也", value)[0]
            if _NOT_CITY.search(value):  # "转到了李老师组里": a group, not a city
                return
        if value and not any(k == key for k, _, _ in out):
            out.append((key, value, at))

    found: list[set[str]] = []

    def places() -> set[str]:
        """The places named in ``text``, found when first asked: the entity pass runs
        jieba's part-of-speech tagger, and most messages never need it here."""
        if not found:
            found.append({name for _, name, kind in find_entities(text) if kind == "place"})
        return found[0]

    words: list[set[int]] = []

    def whole(m: re.Match[str]) -> bool:
        """Whether the verb of ``m`` is a word of its own, not a part of a longer one
        ("回答", "回复", "想到了", "过去了", "去年": no "回"/"到了"/"去了" of a move), by
        jieba's segmentation of ``text`` (cut when first asked)."""
        if "verb" not in m.re.groupindex or m.group("verb") is None:
            return True
        if not words:
            words.append(_word_bounds(text))
        return m.start("verb") in words[0] and m.end("verb") in words[0]

    def homeward(m: re.Match[str]) -> bool:
        """:func:`whole`, or a trip home the segmenter keeps as one word ("五一回老家")."""
        if "verb" in m.re.groupindex and text.startswith(_HOMEWARD, m.start("verb") or 0):
            return whole(m) or m.start("verb") in words[0]
        return whole(m)

    city = last_value(text, _ZH_CITY_RX, whole)
    if city and _NOT_MOVED.search(text[max(0, city[1] - 4) : city[1]]):
        city = None  # "年后没回郑州": no move there
    if city and not_lived_at(text, city[1]):
        city = None  # "下个月搬去成都", "上周回北京出差": a plan or a trip, no home
    if city and not NO_PLACE.search(city[0]):
        add("location", city[0], city[1])
    home = re.search(r"我们?家?(?:在|住)(?P<v>[\u4e00-\u9fff]{2,5}?)(?=[，,。！!；;\s]|$)", text)
    if not city and home and home["v"] in places():
        add("location", home["v"], home.start("v"))
    if (
        not city
        and re.search(r"搬过来|搬来这|搬家过来|来了之后|过来之后|定居|安顿", text)
        and places()
    ):
        name = min(places(), key=text.find)
        add("location", name, text.find(name))
    for thing in [] if city else _HOME_THING.finditer(text):  # "大连新房子的宽带", "合肥的住处"
        if not words:
            words.append(_word_bounds(text))
        start = max((b for b in words[0] if thing.start() - 4 < b < thing.start() - 1), default=-1)
        name = text[start : thing.start()] if start >= 0 else ""
        if (
            re.fullmatch(r"[\u4e00-\u9fff]{2,3}", name)
            and not _NOT_HOME_OF.search(name)
            and _HOME_OF_AFTER.search(text[:start])  # "把大连新房子", "从合肥的住处", "东莞房子"
        ):
            if not not_lived_at(text, start):  # a home there, tentatively (if it replaces one)
                add(f"{TENTATIVE}place", name, start)
                break
    work = last_value(text, _ZH_EMPLOYER_RX, whole)
    if work and work[0] in places() and _ZH_WENT.search(text[max(0, work[1] - 16) : work[1]]):
        pass  # "去年去了日本": a trip there once, no home
    elif work and work[0] in places() and not _WORK_THING.match(text, work[1] + len(work[0])):
        # "我在新加坡工作": where the user is (not "京东的食堂": a workplace's)
        add("location", work[0], work[1])
    elif work and _ZH_DEPARTMENT_END.search(work[0]):  # "我在用户增长部工作": a department
        if names_department(work[0]):  # (not 俱乐部: then neither a department nor whom for)
            add("department", work[0], work[1])
    elif (
        work
        and not re.match(r"^(?:我|你|他|她|这|那|家里|公司|一?趟|一?次|一下)", work[0])
        and not _GENERIC_PLACE.fullmatch(work[0])  # "我在网上当博主": where, not whom for
    ):
        add("employer", work[0], work[1])
    team = _ZH_DEPARTMENT.search(text)
    if team and names_department(team["v"]):
        add("department", team["v"], team.start("v"))
    job = last_value(text, _ZH_JOB_RX, whole)
    if job and len(job[0]) >= 2:  # "升走了": no trade in one character
        add("occupation", job[0], job[1])
    boss = last_value(  # (not where from: "新来的经理是上海人，叫老林")
        text, _ZH_MANAGER_RX, lambda m: not ZH_NOT_NAMED.match(m["v"]) and m["v"][-1] != "人"
    )
    if boss:
        add("manager", boss[0], boss[1])
    for pattern in _ZH_ROLE_RX:
        m = pattern.search(text)
        if (
            m
            and not re.match(r"我|你|他|她|这|那|现在|目前|已经|如今", m["who"])
            and not re.search(r"领导|上级|老板|经理|主管|上司", m["v"])
        ):
            add(f"role of {m['who']}", m["v"], m.start("v"))
            break
    for pattern in _ZH_COUNT_RX:
        m = pattern.search(text)
        if m is None:
            continue
        kind = kind_of((m.groupdict().get("n") or "") + m["v"], COUNTED_RX) or kind_of(
            text, COUNTED_RX
        )
        if kind:
            add(f"number of {kind}", m["v"], m.start("v"))
            break
    for rx in (_ZH_DATE_MOVED, _ZH_DATE_SET):
        m = rx.search(text)
        if m is None:
            continue
        value = m["v"] or m.groupdict().get("v2") or ""
        event = event_of((m["e"] or "") + (m.groupdict().get("e2") or ""), text)
        if event and value:
            add(f"date of {event}", value, text.find(value))
            break
    plan = first_value(text, _ZH_PLAN_RX, homeward)
    if plan and re.search(r"(?<!我)说", re.split(r"[。！!；;]", text[: plan[1]])[-1]):
        plan = None  # "浩浩说…想学围棋": someone else's plan, reported
    if plan:
        add("plan", plan[0], plan[1])
    age = _ZH_AGE.search(text)
    if age:
        add(f"age of {age['who']}", age["v"], age.start("v"))
    for key, value, at in event_slots(text):  # "现在孙经理直接管我们", "让我当店长了"
        add(key, value, at)
    return out


_ZH_AGE = Cued(
    re.compile(
        r"(?P<who>女儿|儿子|孩子|宝宝|闺女|大宝|二宝|狗狗?|猫咪?)(?:今年|今天|已经|刚)*(?:满了?|过了)?"
        r"(?P<v>[0-9一二两三四五六七八九十]+(?:岁半?|个月))"
    )
)
