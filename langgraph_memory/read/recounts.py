"""A count said as a new level, of the same unit as one said before: the new count.

A count changes in words that leave the thing counted unsaid, or name it otherwise than the
question: "这学期我只选了四门课" … "加了 一口气加到七门" (asked: "他一共上几科？"), "我名下有三套房"
… "卖掉了一套 现在两套房" (asked: "手上有多少处房产？"), "I have 40 houseplants" … "I'm down to
about 25" (asked: "How many indoor greens do I keep?"). Neither statement shares the
question's words, so neither is of its type by them.

What ties the two is the count itself: a number said as a level now (现在, 一共, 加到, 降到,
剩, "down to", "up to"), and an earlier number of the same unit (the measure word: 门, 套,
只), as the slot's two values at two times. :func:`recounted` reads that: the user's latest
statement saying a count as a level, and the latest earlier message of the user's saying
a count of its unit with another number (in English, where no measure word says the unit,
a number with the thing it counts).

Example:
    >>> level_count("加了 一口气加到七门"), level_count("现在两套房 一套自住"), level_count("hi")
    (('七', '门'), ('两', '套'), None)
    >>> level_count("the move killed a bunch, I'm down to about 25")
    ('25', '')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from langgraph_memory.core.records import Message
from langgraph_memory.read.timeline import latest_statements

__all__ = ["MEASURES", "level_count", "recounted"]

#: The measure words a count is said by, other than 个 (次 and 回 count how often; 门 and
#: 科 count courses).
MEASURES = "只台本辆位名条棵件套口盆次回张双把部份间门科"
_NUM = r"\d+|[一二两三四五六七八九十百千万]+"
_EN_NUM = (
    r"\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    r"fifty|hundred"
)
#: A count said as the level it is at now ("现在一共七门课", "加到七门", "降到两套", "只剩三只",
#: "down to about 25", "up to 55").
_LEVEL_ZH = re.compile(
    rf"(?:现在|如今|目前|一共|总共|加到|增加到|减到|减少到|降到|涨到|变成|只剩|剩下?)(?:了|就|还|也)?"
    rf"(?:一共|总共|只有|有|是)?(?P<n>{_NUM})(?:多|余|来)?(?P<u>[{MEASURES}])"
)
_LEVEL_EN = re.compile(
    rf"\b(?:down|up) to (?:about |around |like |just |only )?(?P<n>{_EN_NUM})\b(?P<u>)", re.I
)
#: A count of a unit said before ("我名下有三套房"), or in English a number and the thing
#: it counts ("I have 40 houseplants"; not a time: "3 weeks").
_COUNT_ZH = re.compile(rf"(?P<n>{_NUM})(?:多|余|来)?(?P<u>[{MEASURES}])")
_COUNT_EN = re.compile(
    rf"\b(?P<n>{_EN_NUM})\s+(?!(?:minutes?|hours?|days?|weeks?|months?|years?|times?|am|pm|"
    r"of|or|and|to|in|on|at|a|the)\b)(?P<u>[a-z]{3,})",
    re.I,
)


def level_count(said: str) -> tuple[str, str] | None:
    """The count ``said`` says as a level now (its number and its measure word, "" in
    English), if any."""
    m = _LEVEL_ZH.search(said) or _LEVEL_EN.search(said)
    return (m["n"], m["u"]) if m else None


def recounted(
    msgs: Sequence[Message], own: Callable[[str], str]
) -> tuple[int, tuple[int, ...]] | None:
    """The user's latest statement in ``msgs`` saying a count as a level (in its ``own``
    part, the user's sentences) and the latest earlier message of the user's saying
    another count of the same unit, as indices into ``msgs``; None when there are none.

    Example:
        >>> from datetime import datetime, timedelta, timezone
        >>> t = datetime(2024, 3, 1, tzinfo=timezone.utc)
        >>> said = ["这学期选了四门课", "今天好困", "加了 一口气加到七门 现在天天早八"]
        >>> m = [Message(f"m{i}", "u", "s", "user", s, t + timedelta(days=i), seq=i)
        ...      for i, s in enumerate(said)]
        >>> recounted(m, lambda s: s)
        (2, (0,))
    """
    for at, earlier in latest_statements(msgs):
        level = level_count(own(msgs[at].content))
        if level is None:
            continue
        number, unit = level
        for before in earlier:
            said = own(msgs[before].content)
            counts = _COUNT_ZH.finditer(said) if unit else _COUNT_EN.finditer(said)
            if any(c["n"] != number and (not unit or c["u"] == unit) for c in counts):
                return at, (before,)
        return None
    return None
