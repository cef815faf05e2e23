"""Chinese slots said by what happened to the user, not by the slot's own noun.

A new value in Chinese is often told as an event: someone now *governs* the user
("现在孙经理直接管我们"), the user was *made* something ("老板让我当店长了"), was
*transferred* from one place to another ("公司把我从西安调到厦门分公司了"), or the head noun
of a slot carries a modifier of its own ("我规培的带教老师是黄医生", "我新老板是新加坡来的，
叫Amy"). :func:`event_slots` reads these forms by their grammar — a governing verb with
the user as its object, a causative 让/叫/安排 with the user as the one made, a 从…到…
path of a transfer verb, a modified head noun — and gives ``(key, value, offset)`` slots
the caller (:func:`~langgraph_memory.extraction.slots.slots_of`) adds where its own
patterns found none of the same key.

Example:
    >>> event_slots("老周被优化了，现在孙经理直接管我们。")
    [('manager', '孙经理', 9)]
    >>> event_slots("老板让我当店长了，工资涨了一千。")
    [('occupation', '店长', 5)]
    >>> event_slots("公司把我从西安调到厦门分公司了。")
    [('location', '厦门', 9)]
    >>> event_slots("我妈管我管得很严。")   # a parent minding the user: no manager
    []
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.entities import SURNAMES

__all__ = ["event_slots"]

Slot = tuple[str, str, int]

#: Where a value's clause ends.
_STOP = r"(?=[，,。！!；;\s~～]|$|了|啦|吧|呢)"
#: A person named by a surname and a title, or familiarly ("孙经理", "吴医生", "老陈",
#: "小林", "郑老师"), or a Latin given name ("Amy").
_SURNAME = "[" + "".join(sorted(SURNAMES - set("小老阿上"))) + "]"
_TITLED = (
    rf"(?:{_SURNAME}(?:总监|总|经理|主管|主任|老师|教授|导师|医生|大夫|组长|处长|科长|部长|工|姐|哥)"
    rf"|[老小阿]{_SURNAME}|[A-Z][a-z]+)"
)
#: Head nouns of the one the user reports to (a workplace's, a trainee's, a student's).
_BOSS = r"(?:领导|上级|老板|经理|主管|组长|上司|leader|导师|带教老师|带教|师傅|师父)"
#: A modifier before a head noun that makes it someone else's ("我朋友的老板").
_NOT_MINE = (
    r"(?!\S{0,3}(?:朋友|同学|同事|哥|姐|弟|妹|妈|爸|老公|老婆|室友|男友|女友|对象|儿子|女儿))"
)

_GOVERNS = re.compile(
    r"(?:^|[，,。！!；;\s]|现在|目前|如今|以后|后来|改由|换成|由)(?P<v>" + _TITLED + r")"
    r"(?:直接|亲自|专门|负责)?(?:管|带)(?:我们|我)(?:组|部门|团队)?" + _STOP
)
_HEAD = re.compile(
    r"我们?"
    + _NOT_MINE
    + r"(?:[\u4e00-\u9fff]{1,4}的)?(?:新|直属|顶头|直接|现在的|新的)?"
    + _BOSS
    + r"(?:现在|目前|也|又)?(?:是|叫|换成了?|变成了?)(?:[^，,。！!；;]{0,10}[，,]\s*叫)?"
    r"(?P<v>[A-Z][A-Za-z]+|[\u4e00-\u9fff]{1,4}?)" + _STOP
)
#: A new head said with its name after what it is like ("新老板是新加坡来的，叫Amy").
_NEW_HEAD = re.compile(
    r"(?:新来的|新的?|现在的)" + _BOSS + r"(?:是)?[^，,。！!；;]{0,10}[，,]?\s*叫"
    r"(?P<v>[A-Z][A-Za-z]+|[\u4e00-\u9fff]{1,4}?)" + _STOP
)
_MADE = re.compile(
    r"(?:让|叫|安排|提拔|提|升)我(?:去)?(?:当|做|干)(?:上)?了?(?P<v>[\u4e00-\u9fff]{2,5}?)"
    + _STOP
    + r"|我(?:现在|已经|终于)?(?:当上了?|当了)(?P<w>[\u4e00-\u9fff]{2,5}?)"
    + _STOP
    + r"|我在[^，,。！!；;]{2,8}?(?:当|做)(?P<u>[\u4e00-\u9fff]{0,3}(?:员|师|工|手|生|长|士|家))"
    + _STOP
)
_TRANSFER = re.compile(
    r"从(?P<a>[\u4e00-\u9fff]{2,4}?)(?:被)?(?:调|派|外派|搬|转|调动)(?:到|去|来)了?"
    r"(?P<v>[\u4e00-\u9fff]{2,4}?)(?:的)?(?:分公司|总部|分部|办事处|办公室|分行|基地|工作|上班|"
    r"这边|那边)?" + _STOP
)
#: A measured quantity of the user's own and its amount, said beside it or through a verb
#: of reaching ("存款才5万", "存款终于攒到8万了", "体重减到120斤"); not a difference ("少两千").
#: (Pay is left out: it is said of offers as often as of the user's own job.)
_NUM = r"(?:[0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十百千点]+)"
_AMOUNT = re.compile(
    r"(?P<k>存款|积蓄|体重)(?:[^，,。！!；;]{0,4}?(?:到|至|是|有|才|为|就|共|变成|达到|只有))?了?"
    rf"(?P<v>{_NUM}(?:万|千)(?:[0-9]+|[一二三四五六七八九]千?)?(?:块|元)?"
    rf"|{_NUM}(?:块|元|斤|公斤|kg))"
)
#: Someone else as the subject of a transfer ("他从广州搬到深圳了").
_SOMEONE = re.compile(
    r"[他她它]|朋友|同学|同事|哥|姐|弟|妹|妈|爸|老公|老婆|室友|对象|儿子|女儿|家人|邻居"
)
#: What a made value or a transfer's end is not: a department, a group, a length of time.
_NOT_VALUE = re.compile(r"(?:部|组|科|室|团队|部门|一下|一趟|一次)$|^[这那哪一]|[个天月年周]$")


def event_slots(said: str) -> list[Slot]:
    """``(key, value, offset)`` of each slot ``said`` (one Chinese statement of the
    user's) gives a value by an event's form (see the module docs).

    Example:
        >>> event_slots("我规培的带教老师是黄医生，外科的。")
        [('manager', '黄医生', 9)]
        >>> event_slots("我在一家火锅店当服务员。")
        [('occupation', '服务员', 8)]
    """
    out: list[Slot] = []
    boss = _GOVERNS.search(said) or _NEW_HEAD.search(said) or _HEAD.search(said)
    if boss and not re.match(r"[我你他她它这那谁]|个|一", boss["v"]):
        out.append(("manager", boss["v"], boss.start("v")))
    made = _MADE.search(said)
    if made:
        group = next(g for g in ("v", "w", "u") if made[g])
        if not _NOT_VALUE.search(made[group]):
            out.append(("occupation", made[group], made.start(group)))
    moved = _TRANSFER.search(said)
    if (
        moved
        and not _NOT_VALUE.search(moved["v"])
        and moved["v"] != moved["a"]
        and not _SOMEONE.search(re.split(r"[，,。！!；;]", said[: moved.start()])[-1])
    ):
        out.append(("location", moved["v"], moved.start("v")))
    amount = _AMOUNT.search(said)
    if amount and _mine(said[: amount.start()]):
        out.append((f"number of {amount['k']}", amount["v"], amount.start("v")))
    return out


def _mine(before: str) -> bool:
    """Whether a quantity is the user's: no one else named, or reported, in its clause
    before it ("我妈体重…", "老陈说…")."""
    return not re.search(_SOMEONE.pattern + r"|说|您", re.split(r"[，,。！!；;]", before)[-1])
