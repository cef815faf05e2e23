"""Whether a statement says where the user lives now, or a trip, a plan or a past story.

"上周去上海出差了", "下周去上海出差", "下个月搬去成都", "小时候在北京长大", "Flying to Tokyo for a
conference", "I'm moving to Denver next month": each names a place, and none is where the
user lives now. The slot reader (:mod:`.slots`) reads no location from such a clause, and
the read path (:mod:`~langgraph_memory.read.slot_types`) no statement of a home; a
message may say both ("我住在杭州，下周去上海出差"), so each is read by its clause
(:func:`clause_at`).

Example:
    >>> said = "我住在杭州，下周去上海出差。"
    >>> not_lived(clause_at(said, 3)), not_lived(clause_at(said, 10))
    (False, True)
"""

from __future__ import annotations

import re

__all__ = ["not_lived", "clause_at"]


def not_lived(said: str) -> bool:
    """Whether a statement naming a place says a trip ("上周去上海出差了", "Flying to Tokyo
    for a conference"), a plan ("下个月搬去成都", "moving to Denver next month") or a past
    story ("小时候在北京长大", "I used to live in Rome") rather than where the user lives now.

    Example:
        >>> not_lived("上周去上海出差了"), not_lived("下周去上海出差"), not_lived("来昆明三个月了")
        (True, True, False)
        >>> not_lived("I'm moving to Denver next month."), not_lived("We moved to Porto.")
        (True, False)
    """
    return bool(_NOT_LIVED.search(said))


#: A trip, a plan or a past story (see :func:`not_lived`).
_NOT_LIVED = re.compile(
    r"出差|旅游|旅行|度假|游玩|出游|去玩|玩了?[一两几三四五]?[天趟圈]|探亲|看望|转机|路过|开会|参会|"
    r"下周|下个?月|明年|明天|后天|过几天|打算|准备|计划|想去|要去|将要|即将|快要|"
    r"以前|之前|曾经|小时候|当年|那时候|那会儿|"
    r"\b(?:trip|vacation|holiday|visit(?:ing|ed)?|conference|layover|"
    r"next (?:week|month|year)|tomorrow|will|going to|planning|plan to|about to|"
    r"used to|years ago|when I was|grew up|as a kid|back then)\b",
    re.I,
)


def clause_at(text: str, at: int) -> str:
    """The clause of ``text`` around offset ``at`` (between commas, stops, semicolons).

    Example:
        >>> clause_at("我住在杭州，下周去上海出差。", 10)
        '下周去上海出差'
    """
    cut = re.compile(r"[，,。！!；;？?]|[.!?;](?:\s|$)")
    start = max((m.end() for m in cut.finditer(text, 0, at)), default=0)
    end = cut.search(text, at)
    return text[start : end.start() if end else len(text)]
