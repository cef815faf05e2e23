"""Changes of a value said in any words: a change cue and the new value, slot unknown.

People say a value changed in more ways than any slot's patterns list: "I switched to
Accenture last month", "I drive a Tesla now", "my favourite food is ramen now",
"the team is 7 people now", "我换了华为手机", "现在我的主管变成了赵哥", "健身改到每周四了".
What they share is a *change cue* (now, switched, moved, transferred, instead, anymore,
现在, 换, 改, 变成, 转…) beside a *new value*. This module reads that pair by its form,
not by the slot: the key is the slot's own word when the sentence names it ("favourite
food", "team", "主管", "drive", "开"), or :data:`CHANGE_KEY` when it does not, and the
long-term facts resolve that key to the user's slot whose value it replaces (see
:meth:`~langgraph_memory.layers.long_term.fact_store.Facts.add_fact`).

Example:
    >>> changes_of("I switched to Accenture last month.")
    [('changed to', 'Accenture', 14)]
    >>> changes_of("Actually my favourite food is ramen now, sushi is second.")
    [('favourite food', 'ramen', 30)]
    >>> changes_of("现在我的主管变成了赵哥。")
    [('主管', '赵哥', 9)]
    >>> changes_of("I drive a Tesla.")   # no change cue: not a change
    []
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text

__all__ = [
    "changes_of",
    "replacement_of",
    "CHANGE_KEY",
    "CHANGE_CUE",
    "names_change",
    "says_change",
    "ended_value",
]

#: The key of a change whose slot the sentence does not name.
CHANGE_KEY = "changed to"

Slot = tuple[str, str, int]

#: Words that say a value changed (English and Chinese).
CHANGE_CUE = re.compile(
    r"\b(?:now|anymore|any more|no longer|switched|switching|moved|transferred|changed|"
    r"instead|as of|these days|nowadays|upgraded|swapped|replaced|rescheduled|retrained|"
    r"took over|new|traded|from now on|going forward|turned|up to|renamed|rebranded)\b|"
    r"现在|目前|如今|换成|换到|换了|改成|改为|改到|改了|改[在学用坐去吃喝做当开骑住]|变成|变了|转到|转去|"
    r"转学|转行|调到|满|延期|推迟|提前|新[\u4e00-\u9fff]{1,3}是|改名|更名|"
    r"不再|已经不|不.{1,4}了|搬到|搬去|新的|(?:最后|最终)(?:还是|决定)?(?:定|订|选|挑|入手|买)",
    re.I,
)
#: A request to the assistant ("把这段改成英文", "can you switch to French"): no change of
#: the user's life.
_REQUEST = re.compile(
    r"把|帮我|帮忙|麻烦|请你?|给我|能不能|可不可以|可以|你们?|您|"
    r"^\s*(?:please|pls|can|could|would|will|change|switch|move|make|let's|let us|try)\b|"
    r"\byou\b",
    re.I,
)
#: A value the statement says ended ("not X anymore", "sold the X", "从X离职", "不用X了").
_ENDED_EN = (
    r"(?:no longer|not|sold|left|quit|quitting|ditched|dropped|gave up(?: on)?|stopped|"
    r"instead of|traded|swapped|replaced|notice at|moved out of|moved away from|goodbye to)"
)
_ENDED_ZH = (
    r"(?:不再|已经不|不|从|卖了|离开|离职|辞职|不用|换掉|告别|走了|调走|退休|辞了|卖掉|搬离)"
)

_STOP = (
    r"(?=\s+(?:this|last|next|in|on|at|from|instead|now|because|since|after|for|as)\b|[,.;!?]|$)"
)
_V_EN = r"(?:the\s+|a\s+|an\s+)?(?P<v>[\w&'/-]+(?:\s+[\w&'/-]+){0,3}?)"
_EN = [
    # "switched to Accenture", "moved my gym day to Thursdays", "transferred to Cambridge"
    re.compile(
        r"\b(?:switched|moved|changed|transferred|went|upgraded|downgraded|converted|migrated|"
        r"swapped|changed over)\s+(?:over\s+|back\s+)?"
        r"(?:(?:my|our|the)\s+(?P<k>[a-z]+(?:\s+[a-z]+)?)\s+)?(?:from\s+[\w ]{1,30}?\s+)?to\s+"
        + _V_EN
        + _STOP,
        re.I,
    ),
    # "my favourite food is ramen now", "the team is 7 people now"
    re.compile(
        r"\b(?:my|our|the)\s+(?P<k>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|'s)\s+(?:now\s+)?"
        + _V_EN
        + r"\s+(?:now|these days|nowadays)\b",
        re.I,
    ),
    # "I drive a Tesla now", "now I use Linux", "I'm seeing Sam now"
    re.compile(
        r"\b(?:I|we)(?:'m|'re| am| are)?\s+(?P<k>drive|use|own|ride|play|study|eat|drink|"
        r"take|attend|run|seeing|dating|with|at|in|on|a|an)\s+"
        + _V_EN
        + r"\s+(?:now|these days|nowadays|instead)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:now|these days|nowadays|as of [\w ]{2,20}?),?\s+(?:I|we)(?:'m|'re| am| are)?\s+"
        r"(?P<k>drive|use|own|ride|play|study|eat|drink|take|attend|run|seeing|dating|"
        r"at|in|on|a|an)\s+" + _V_EN + _STOP,
        re.I,
    ),
    # "I train with Lena now", "we bank with Monzo these days": a name the user is with now
    re.compile(
        r"\b(?:I|we)\s+(?:[a-z]+\s+){1,2}?(?:with|at|for|under|to)\s+"
        r"(?P<v>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})"
        r"\s+(?:now|these days|nowadays|instead)\b"
    ),
    # "my new supervisor, Dr. Okafor, wants…", "our new landlord is Greystar"
    re.compile(
        r"\b(?:my|our)\s+new\s+(?P<k>[a-z]+(?:\s+[a-z]+)?)\s*(?:,|:|is|'s|is called|called)\s*"
        r"(?:a company called\s+)?(?P<v>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][\w&'-]*"
        r"(?:\s+[A-Z][\w&'-]*)*)"
    ),
    # "traded the Vespa in for an e-bike", "swapped my iPhone for a Pixel"
    re.compile(
        r"\b(?:traded|swapped|exchanged|replaced)\s+(?:the|my|our)\s+[\w -]{1,30}?\s+(?:in\s+)?"
        r"(?:for|with)\s+" + _V_EN + _STOP,
        re.I,
    ),
    # "Book club is on Wednesdays from now on"
    re.compile(
        r"\b(?P<k>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|'s)\s+(?:now\s+)?(?:on|at|in)\s+"
        + _V_EN
        + r"\s+(?:from now on|going forward|now)\b",
        re.I,
    ),
    # a new name: "renamed Falcon to Horizon", "Brightloop is now Tessellate"
    re.compile(
        r"\b(?:renamed|rebranded)\s+(?:[\w ]{1,30}?\s+)?(?:to|as)\s+"
        r"(?P<v>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})"
    ),
    # a name of the user's own ("our startup is now called Tessellate"), one said called
    # ("Brightloop is now called Tessellate") or renamed ("Brightloop is now Tessellate
    # after the rebrand"); not "It is now March", "Alice is now CEO"
    re.compile(
        r"\b(?i:my|our)\s+(?:\w+\s+)?\w+\s+is\s+now\s+(?:called\s+|named\s+)?"
        r"(?P<v>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})"
    ),
    re.compile(
        r"\b(?!(?:It|He|She|They|This|That|Everything|Everyone)\b)[A-Z][\w&'-]+\s+is\s+now\s+"
        r"(?:called|named)\s+(?P<v>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})"
    ),
    re.compile(
        r"^(?=.*\b(?i:renam|rebrand)).*?"
        r"\b(?!(?:It|He|She|They|This|That|Everything|Everyone)\b)[A-Z][\w&'-]+\s+is\s+now\s+"
        r"(?P<v>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})"
    ),
    # "it's the 22nd now"
    re.compile(r"\b(?:it's|it is|that's)\s+(?:now\s+)?" + _V_EN + r"\s+now\b", re.I),
]
#: Verbs whose object is the slot itself, keyed by the verb ("drive": the car).
_VERB_KEYS = {"seeing": "partner", "dating": "partner", "with": "partner"}
#: Words that never start a value.
_NOT_VALUE = re.compile(
    r"^(?:it|this|that|them|him|her|me|you|be|do|go|get|there|here|home|work|bed|sleep|"
    r"the|a|an|my|our|and|but|so|too|too much|more|less|now|again|back|up|down|out|over|"
    r"lot|bit|few|little|better|worse|fine|ok|okay|good|bad|happy|sad|tired|busy|done|"
    r"sure|sorry|glad|able|about|going|trying|thinking|looking|not)\b",
    re.I,
)

#: A classifier and a modifier before a value ("一辆蓝色的思域": 思域) are not the value.
_ZCL = r"(?:一?[辆台部只个家位款](?:[\u4e00-\u9fff]{1,4}的)?)?"
_ZV = _ZCL + r"(?P<v>[\u4e00-\u9fffA-Za-z0-9·]{1,10}?)"
_ZSTOP = r"(?=[，,。！!；;\s]|$|了|啦|吧|呢|的|手机|电脑|这边|那边|以后|之后)"
_ZH = [
    # "换了个咨询师，现在是郑老师": the role changed hands, the value said after it (the
    # role names the slot: resolved by the long-term facts, see the module docs)
    re.compile(
        r"换了(?:一?[个位家])?[\u4e00-\u9fff]{1,5}?[，,]\s*(?:现在|新的|新来的)(?:的)?(?:是|叫)"
        + _ZV
        + _ZSTOP
    ),
    # "最后还是定了特斯拉", "试驾完最后订了辆小鹏": a choice made after weighing another
    # ends a plan (bought outright, "最后买了块手表", only when said to be chosen over one)
    re.compile(
        r"(?:最后|最终)(?:(?:还是|决定)(?P<k>定|订|选|挑|入手|买)|(?P<k2>定|订|选|挑))了?"
        r"(?:一?[块件个辆台部款])?" + _ZV + _ZSTOP
    ),
    # "现在我的主管变成了赵哥", "健身改到每周四了", "我换了华为手机", "转学去了清华"
    re.compile(
        r"(?:我的?|我们的?)?(?P<k>[\u4e00-\u9fff]{1,4}?)?(?:已经|也|又|都)?"
        r"(?:换成|换到|换了|改成|改为|改到|改在|变成|转到|转去|转学去|调到|跳槽到|跳到|搬到|搬去)了?"
        r"(?:去了?)?" + _ZV + _ZSTOP
    ),
    # "改学韩语", "最近改坐地铁上班了": the verb names the slot
    re.compile(r"改(?P<k>学|用|坐|去|吃|喝|做|当|开|骑|住|玩|听|看)" + _ZV + _ZSTOP),
    # "新房东是一家公司叫自如", "组长新换了小林"
    re.compile(
        r"新(?:的|来的)?(?P<k>[\u4e00-\u9fff]{1,3}?)(?:是|叫|换成了?)(?:一家|一个|一位)?"
        r"(?:[\u4e00-\u9fff]{1,4}?叫)?" + _ZV + _ZSTOP
    ),
    # "现在开比亚迪", "现在在长沙", "现在最喜欢粤菜", "现在八个人了", "现在的对象是小林"
    re.compile(
        r"(?:现在|目前|如今)(?:我|我们)?(?:已经|改|又)?(?P<k>在|是|叫(?![个了外车人我你他她辆份])|开|用|住在|住|做|当|吃|喝|"
        r"最喜欢|最爱|喜欢|有|养|归|的[\u4e00-\u9fff]{1,3}?(?=是))?(?:的是)?" + _ZV + _ZSTOP
    ),
]
_ZH_NOT_VALUE = re.compile(
    r"^(?:了|我|你|他|她|这|那|哪|什么|怎么|一下|一点|不|没|还|也|都|就|很|挺)"
)
#: Time words are no slot ("上周换成苹果了": when, not what).
_ZH_TIME = re.compile(r"[周天年月]|最近|今|昨|明|后来|以后|之后|刚|已经|早|晚")
_ZH_COUNT = r"[0-9一二两三四五六七八九十百]+[个只盆本辆位名人条棵]"
_ZH_SLOT_VERB = {"在": "changed to", "住": "location", "住在": "location", "归": "manager"}
#: The verbs of a choice that ends a plan ("最后还是定了…"): its slot is the plan.
_ZH_CHOSEN = frozenset({"定", "订", "选", "挑", "入手", "买"})


def _clean_en(value: str) -> str:
    value = re.sub(r"\s+(?:now|too|again|instead|already|finally)$", "", value.strip(" ,.;:!'\""))
    return value.strip()


def changes_of(said: str) -> list[Slot]:
    """``(key, value, offset)`` of each change ``said`` states (see the module docs):
    only with a change cue, or an ending followed by a start (:func:`replacement_of`); the
    key is the slot's word when the sentence names it.
    """
    if not said or _REQUEST.search(said):
        return []
    if not CHANGE_CUE.search(said):
        return replacement_of(said)
    zh = is_cjk_text(said)
    read = _zh_change if zh else _en_change
    for rx in _ZH if zh else _EN:  # the first pattern, and its first match, that reads
        for m in rx.finditer(said):
            found = read(rx, m)
            if found is not None:
                return [found]
    return replacement_of(said)


#: A clause that says a value ended: "Finished Dune", "I dropped law", "Emma and I broke
#: up", "Handed in my notice at X", "丰田卖了", "日语放弃了", "和小美分手了", "从阿里离职了".
_ENDING_EN = re.compile(
    r"\b(?:finished|quit|left|sold|dropped|ditched|gave up|stopped|broke up|split up|"
    r"resigned|retired|handed in|moved out|scrapped|cancell?ed|done with|over with|"
    r"passed away|died)\b",
    re.I,
)
_ENDING_ZH = re.compile(
    r"卖了|卖掉|辞了|辞职|离职|放弃|分手|退了|退休|走了|调走|调去|被调|不去了|不学了|不做了|不干了|不用了|不开了|"
    r"不再?[做干去学用开住玩吃喝养考读跑打骑坐抽][\u4e00-\u9fff]?了|"
    r"不住了|不玩了|取消|结束|告别"
)
#: The new value in a clause after the ending: "started on Neuromancer", "I'm doing
#: medicine", "Commerzbank starts in May", "开始学法语", "买了辆特斯拉", "现在的女朋友叫小雨".
_START_EN = [
    re.compile(
        r"\b(?:started|starting|began|beginning|joined|joining|bought|got|picked up|"
        r"(?:I'm|I am|we're|we are|now)\s+(?:doing|studying|reading|learning|with|at|"
        r"dating|seeing|using|driving|playing|taking))\s+(?:on\s+|at\s+|with\s+|in\s+)?"
        r"(?:a\s+|an\s+|the\s+|my\s+|our\s+)?(?P<v>[\w&'/-]+(?:\s+[\w&'/-]+){0,2}?)"
        r"(?=\s+(?:yesterday|today|tonight|this|last|next|in|on|at|from|instead|now|"
        r"because|since|after|for|as|and|but|so)\b|[,.;!?]|$)",
        re.I,
    ),
    # "Commerzbank starts in May", "Kev coaches me now": a name that acts in its place
    re.compile(
        r"^\s*(?P<v>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})"
        r"\s+(?!(?:says|said|thinks|thought|told|asked|reckons|wants|wanted)\b)"
        r"(?:is|'s|has|will|took|takes|[a-z]+s\b|[a-z]+ed\b)"
    ),
]
_START_ZH = re.compile(
    r"(?:开始|改|转|换|现在|如今|目前|又)(?:的)?(?:我们?)?(?:[\u4e00-\u9fff]{0,5}?(?:叫|是)|"
    r"学|用|开|做|当|去|读|练|打|玩|养|住|在|找|跟|归|给)?(?:了)?(?:一?[辆台部只个家位])?"
    r"(?P<v>[\u4e00-\u9fffA-Za-z0-9·]{1,8}?)"
    r"(?=[，,。！!；;\s]|$|了|啦|吧|呢|的|看|上班|这边|做|学|带|上课)"
    r"|(?:买|开|入|换|找|租|养|报)了"
    r"(?:一?[辆台部只个家套间](?:[\u4e00-\u9fff]{1,4}的)?)?"
    r"(?P<b>[\u4e00-\u9fffA-Za-z0-9·]{1,8}?)(?=[，,。！!；;\s]|$|了|啦|吧|呢)"
    # who or what holds the place now, said as a cleft ("接班的是孙总")
    r"|^[\u4e00-\u9fff]{1,5}的是(?P<c>[\u4e00-\u9fffA-Za-z0-9·]{1,8}?)(?=[，,。！!；;\s]|$|了|啦|吧)"
    # a plan in its place ("不考研了，准备直接找工作"): the whole of what is planned
    r"|(?:准备|打算|决定|计划)(?:直接|先|要)?(?P<p>[\u4e00-\u9fff]{2,6}?)(?=[，,。！!；;\s]|$|了|吧)"
)


def replacement_of(said: str) -> list[Slot]:
    """``(CHANGE_KEY, value, offset)`` when a clause of ``said`` says a value ended and a
    later clause names what took its place ("Finished Dune, started on Neuromancer
    yesterday", "丰田卖了，买了辆特斯拉"): the same change as "switched to …", in two
    steps; nothing otherwise.

    Example:
        >>> replacement_of("Finished Dune, started on Neuromancer yesterday.")
        [('changed to', 'Neuromancer', 26)]
        >>> replacement_of("丰田卖了，买了辆特斯拉。")
        [('changed to', '特斯拉', 8)]
        >>> replacement_of("I quit smoking.")   # an ending alone names no new value
        []
    """
    if not said or _REQUEST.search(said):
        return []
    zh = is_cjk_text(said)
    ending = (_ENDING_ZH if zh else _ENDING_EN).search(said)
    if ending is None:
        return []
    cut = re.compile(r"[，,；;。！!]" if zh else r"[,;.!]|\s(?:and|so|but|now|then)\s", re.I)
    after = cut.search(said, ending.end())
    if after is None:
        return []
    rest, at = said[after.end() :], after.end()
    if zh:
        m = _START_ZH.search(rest)
        if m is None:
            return []
        group = next(g for g in ("v", "b", "c", "p") if m[g])
        value = re.sub(r"^(?:了|在|去|成|是)", "", m[group])
        if not value or _ZH_NOT_VALUE.match(value) or re.search(r"[不没别]", value):
            return []
        return [(CHANGE_KEY, value, at + m.start(group))]
    for rx in _START_EN:
        m = rx.search(rest)
        if m is None:
            continue
        value = _clean_en(m["v"])
        if value and not _NOT_VALUE.match(value):
            return [(CHANGE_KEY, value, at + m.start("v"))]
    return []


def _zh_change(rx: re.Pattern[str], m: re.Match[str]) -> Slot | None:
    value = re.sub(r"^(?:了|在|去|成|是)", "", m["v"])
    if len(value) < 1 or _ZH_NOT_VALUE.match(value) or re.search(r"[不没别]", value):
        return None  # "现在早不玩了": an ending, not a new value
    chosen = m.groupdict().get("k2") or (m["k"] if rx is _ZH[1] else None)
    if chosen in _ZH_CHOSEN:
        return "plan", value, m.start("v")
    hint = (m.groupdict().get("k") or "").strip().removeprefix("的")
    if len(hint) > 1 and hint.endswith("被"):  # a passive: its subject is whom it befell
        if re.search(r"被(?:调|转|搬|跳)", m[0]):
            return None  # "张店长被调到万达了": someone else moved (not "我被调到…")
        hint = hint.removesuffix("被")  # "组长被换成了小林": the slot, its new value
    if rx is _ZH[-1] and not hint and not re.match(_ZH_COUNT, value):
        return None  # "现在…" with no verb: only a count ("现在八个人了")
    key = _ZH_SLOT_VERB.get(hint, hint) if hint else CHANGE_KEY
    if (
        len(key) == 1
        or re.fullmatch(r"[我你他她它们的也又都]+", key)
        or _ZH_TIME.search(key)
        # "跟老婆商量后改成了…", "下班后改成…": when, not what (a key ending in 时 may be
        # one: "工时改成了六小时")
        or re.search(r"(?:[后前完过]|之后|以后|之前|的时候)$|商量|讨论|考虑", key)
        # "只能改成…", "从销售部调到…": a modal or where from, not the slot
        or re.search(r"^从|(?:只能|只好|只得|必须|不得不|还是)$", key)
    ):
        key = CHANGE_KEY
    return key, value, m.start("v")


def _en_change(rx: re.Pattern[str], m: re.Match[str]) -> Slot | None:
    value = _clean_en(m["v"])
    if not value or _NOT_VALUE.match(value):
        return None
    chosen = m.groupdict().get("k2") or (m["k"] if rx is _ZH[1] else None)
    if chosen in _ZH_CHOSEN:
        return "plan", value, m.start("v")
    hint = (m.groupdict().get("k") or "").strip().removeprefix("的").lower()
    if rx is _EN[-1] and not re.search(
        r"\d|day\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", value, re.I
    ):
        return None  # "it's X now": only a date or a number
    key = _VERB_KEYS.get(hint, hint)
    if key in ("", "at", "in", "on", "a", "an", "have"):
        key = CHANGE_KEY
    return key, value, m.start("v")


#: Words that say something ended or began, beside :data:`CHANGE_CUE`: "Finished Dune,
#: started on Neuromancer", "broke up", "handed in my notice", "丰田卖了", "开始学法语".
_TURN = re.compile(
    r"\b(?:quit|quitting|left|sold|dropped|ditched|gave up|stopped|finished|broke up|"
    r"split up|resigned|retired|notice|started|starting|began|joined|bought|got a|"
    r"got an|pushed|bumped|postponed|delayed|extended|brought forward|cancell?ed|scrapped|"
    r"relocated|promoted|raised|down to|grew)\b|"
    r"卖了|卖掉|辞了|辞职|离职|放弃|分手|不去了|不做了|不干了|退了|开始|买了|入职|报到|涨|降|"
    r"挪到|延到|提到|取消|升职|升了|升为|升到|晋升|当上|生了|定居",
    re.I,
)


def says_change(said: str) -> bool:
    """Whether a statement says a value changed, ended or began, by its words
    (:data:`CHANGE_CUE` and the words of an ending or a start), whatever the slot.

    Example:
        >>> says_change("Finished Dune, started on Neuromancer yesterday.")
        True
        >>> says_change("丰田卖了，买了辆特斯拉。"), says_change("I can't stand coriander.")
        (True, False)
    """
    return bool(said) and bool(CHANGE_CUE.search(said) or _TURN.search(said))


#: Words right before a value that say it ended ("my last day at Shopify", "left Google",
#: "从京东离职"), and right after it ("Honda卖了", "阿里离职了").
_ENDED_BEFORE_EN = re.compile(
    r"\b(?:last day (?:at|with|of)|left|quit|quitting|sold|ditched|dropped|gave up(?: on)?|"
    r"stopped|no longer (?:at|with|in)|resigned from|retired from|moved out of|"
    r"moved away from|goodbye to|notice at|finished (?:at|with))\s+(?:the\s+|my\s+|our\s+)?$",
    re.I,
)
_ENDED_AFTER_ZH = re.compile(
    r"^(?:这边|那边|的工作)?(?:已经)?(?:离职|辞职|卖了|卖掉|退了|不干了|不去了)"
)
_ENDED_BEFORE_ZH = re.compile(r"(?:离开|离职于|辞掉|卖掉|告别|搬离)了?$")


def ended_value(said: str, value: str) -> bool:
    """Whether ``said`` names ``value`` as one that ended, by the words right around it
    (stricter than :func:`names_change`, and with no change cue needed).

    Example:
        >>> ended_value("Accepted the offer from Stripe, my last day at Shopify was Friday.",
        ...             "Shopify")
        True
        >>> ended_value("下个月入职小米，华为这边已经办完离职。", "小米")
        False
    """
    if not said or not value:
        return False
    at = said.find(value)
    if at < 0:
        return False
    if is_cjk_text(value):
        return bool(
            _ENDED_AFTER_ZH.search(said[at + len(value) :]) or _ENDED_BEFORE_ZH.search(said[:at])
        )
    return bool(_ENDED_BEFORE_EN.search(said[max(0, at - 40) : at]))


def names_change(quote: str, old: str) -> bool:
    """Whether ``quote`` names the value ``old`` as one that ended ("not at Netflix
    anymore", "Sold the Honda", "已经从京东离职了", "不用iPhone了").

    Example:
        >>> names_change("Sold the Honda, I drive a Tesla now.", "Honda Civic")
        True
        >>> names_change("I love my Honda.", "Honda")
        False
    """
    if not quote or not old or not CHANGE_CUE.search(quote):
        return False
    low = quote.casefold()
    words = [w for w in re.split(r"\s+", old.casefold()) if len(w) > 1]
    if is_cjk_text(old):
        at = low.find(old.casefold())
        if at < 0:
            return False
        return bool(re.search(_ENDED_ZH, low[max(0, at - 6) : at + len(old) + 6]))
    for w in words[:2]:
        at = low.find(w)
        if at >= 0 and re.search(_ENDED_EN, low[max(0, at - 30) : at]):
            return True
        after = low[at : at + 40]
        if at >= 0 and re.search(r"\b(?:anymore|any more|left|retired|quit|moved on)\b", after):
            return True
    return False
