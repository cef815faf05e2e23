"""A date said as moved, of the event the user told last: the event's new date.

A date is moved in words that leave the event unsaid, or say it in other words than the
question: "我的手术约在下个月12号" … "医院打电话说有人取消 让我提前到这个月28号" (asked:
"哪天住院开刀？"), "我们婚礼定在五月二十号" … "我们改到国庆了 十月三号" (asked: "她哪天办喜事？").
The question's event is then none the reader knows by its words ("住院开刀", "办喜事", "give
birth"), so no statement is of its type by the event, and nothing ties the two dates.

What ties them is the discourse: a moved date, with no event of its own or the same one,
moves the date of the event the user told last with a date (the nearest antecedent, as a
pronoun's). :func:`rescheduled` reads that: the user's latest statement saying a date was
moved (:data:`MOVED`), and the latest earlier message of the user's naming a date of an
event (a question telling it counts: "my due date is November 20, when should I pack?").
Used for a date question whose event the reader does not know (one it knows is read by the
event: :func:`~langgraph_memory.read.slot_types.typed`).

Example:
    >>> bool(MOVED.search("医院让我提前到这个月28号")), bool(MOVED.search("moved to Leeds"))
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from langgraph_memory.core.records import Message
from langgraph_memory.extraction.entities import find_entities
from langgraph_memory.extraction.slots import event_named, names_date
from langgraph_memory.read.timeline import latest_statements

__all__ = ["MOVED", "said_moved", "rescheduled"]

#: A date said as moved, its event left unsaid ("they moved it up to May 28", "pushed
#: everything to September 20", "rebooked for the 9th", "改签到周四", "提前到6月20号", "定在
#: 七月二十八号", "报名改成明年3月那一场"): the new date of the event on the user's mind.
MOVED = re.compile(
    # (moved or shifted with something between: "moved to Leeds" is a move of house)
    r"\b(?:moved|shifted)\s+(?!(?:to|into|in|out|back to|house|home|flat|apartments?|"
    r"countries|cities|towns)\b)[^.!?;]{1,30}?\b(?:to|onto)\b|"
    r"\b(?:pushed|bumped|brought|rescheduled|rebooked|postponed|delayed|changed|slipped)\b"
    r"[^.!?;]{0,30}?\b(?:to|for|onto|until|till)\b|"
    r"\b(?:instead|new date)\b|改签到?|改约到|改到|改成|提前到|推迟到|延到|延期到|挪到|定在",
    re.I,
)


def said_moved(said: str) -> str | None | bool:
    """Whether ``said`` names a date said as moved (:data:`MOVED`): False when it does not;
    else the event it names, None when it names none ("they moved it to May 28": a date
    moved, no move of house).

    Example:
        >>> said_moved("改约到4月1号了 愚人节考试"), said_moved("改到十月三号了")
        ('exam', None)
        >>> said_moved("我们婚礼定在五月二十号"), said_moved("今天好困")
        ('wedding', False)
    """
    if not names_date(said) or MOVED.search(said) is None:
        return False
    named = event_named(said)
    return None if named == "move" else named


#: A name inside an English question (a capitalised word other than its first and "I").
_NAMED_EN = re.compile(r"(?<!^)(?<![.?!]\s)\b(?!I\b)[A-Z][a-z]+")


def _names_someone(query: str) -> bool:
    """Whether ``query`` names a person: a question about them, not the user."""
    return any(k == "person" for _, _, k in find_entities(query)) or bool(_NAMED_EN.search(query))


def rescheduled(
    msgs: Sequence[Message], query: str, own: Callable[[str], str]
) -> tuple[int, tuple[int, ...]] | None:
    """For a date ``query`` naming no event the reader knows, nor anyone (a question about
    the user, in any person: "哪天住院开刀？", "When will she give birth?"): the user's
    latest statement in ``msgs`` saying a date was moved (in its ``own`` part), and
    the latest earlier message of the user's naming a date of an event (the moved one's
    event, when it names one), as indices into ``msgs``; None when there are none.

    Example:
        >>> from datetime import datetime, timedelta, timezone
        >>> t = datetime(2024, 3, 1, tzinfo=timezone.utc)
        >>> said = ["我的手术约在下个月12号", "外面下大雨了", "医院有人取消 让我提前到这个月28号"]
        >>> m = [Message(f"m{i}", "u", "s", "user", s, t + timedelta(days=i), seq=i)
        ...      for i, s in enumerate(said)]
        >>> rescheduled(m, "哪天住院开刀？", lambda s: s)
        (2, (0,))
        >>> rescheduled(m, "我的手术是哪天？", lambda s: s) is None  # an event it knows
        True
    """
    if event_named(query) is not None or _names_someone(query):
        return None  # an event it knows, or someone else's ("李明什么时候升职的？")
    for at, earlier in latest_statements(msgs):
        moved = said_moved(own(msgs[at].content))
        if moved is False:
            continue
        for before in earlier:
            said = own(msgs[before].content)
            told = event_named(said) if names_date(said) else None
            if told is not None and moved in (None, told):
                return at, (before,)
        return None
    return None
