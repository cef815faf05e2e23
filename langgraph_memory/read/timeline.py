"""Topic timelines: for "how did it go", "in what order", "summarise the project", the
user's own words on the topic, dated, oldest first, instead of a few best matches.

A question about how something evolved needs many statements spread over weeks, each
short; the best-matching messages of a hybrid search are a few of them, packed with
the long replies around them. :func:`wants_timeline` reads such a question (English
and Chinese cues) and :func:`timeline_item` turns the user messages among the
retrieved ones into one dated outline, one line per message, each an excerpt within
``line_tokens``. The outline cites every message it holds, so those messages are not
packed again.

A question is read by its form (:func:`timeline_kind`): ``order`` when it asks in what
order things happened (:data:`ORDER_CUES`: "which came first", "was X before Y?", "what
did we do after X?", "先做的是哪个？", "在X之前还是之后"), ``summary`` when it asks how
something went (:data:`SUMMARY_CUES`: "recap", "catch me up on", "how did X go",
"总结一下", "复盘", "什么情况"). An order question that lists its events ("A, B or C")
has each found on its own (:func:`timeline_parts`).

Example:
    >>> wants_timeline("Summarize how the database migration went"), wants_timeline("hi")
    (True, False)
    >>> wants_timeline("数据库迁移的进展是怎样的？")
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence, Set

from langgraph_memory.core.context import ContextItem, item_tokens
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.read.excerpts import excerpt

__all__ = [
    "wants_timeline",
    "timeline_kind",
    "timeline_parts",
    "timeline_item",
    "is_statement",
    "TIMELINE_CUES",
    "ORDER_CUES",
    "SUMMARY_CUES",
]

#: Verbs of an event whose place in time is asked ("which came first").
_EVENT_VERB = (
    r"(?:came|come|happened|happen|occurred|was done|were done|got done|did (?:we|i|you|they) "
    r"do|started|began|finished|ended|shipped|launched)"
)

#: What asks in what order things happened (English and Chinese): the order or sequence
#: named; "which came first / last"; one event placed before or after another ("was X
#: before Y?", "what did we do after X?"); "先后", "哪个先", "在X之前还是之后". A question
#: about one event that happened after another ("what did Ann do after the trip?") is
#: not one: it asks for that event.
ORDER_CUES = re.compile(
    r"\b(?:in|by) (?:what|which|the|chronological|time|date)?\s*order\b|\border (?:of|these|"
    r"them|those|the)\b|\bchronolog\w*|\bsequence\b|\btimeline\b|\bput .{1,80}? in order\b|"
    r"\b(?:sort|rank|arrange) .{1,60}? by (?:date|time)\b|\bby date\b|"
    rf"\b(?:what|which)(?: \w+){{0,3}} {_EVENT_VERB} (?:first|last|earlier|earliest|later|next)\b|"
    r"\bwhich\b[^,:?]{0,40}\b(?:first|earlier|earliest|last|later|sooner)\s*[,:?]|"
    r"\bbefore or after\b|\b(?:first|earlier) or (?:last|later|second)\b|"
    r"\b(?:what|anything) (?:else )?(?:did|had|have) (?:we|i|you|they) (?:do|done|did|"
    r"finish|try|change)\b.{0,80}?\b(?:before|after|prior to|following|since)\b|"
    r"\bwhat (?:happened|changed|came|followed|preceded)\b.{0,40}?\b(?:before|after|since|"
    r"next|then|afterwards?)\b|"
    r"^\s*(?:was|were|did|had|has|have|is|are)\b[^?]{1,80}?\b(?:before|after|prior to)\b"
    r"(?! (?:about|that|then|now|this|ever|all|and|or|too|as|so|in|on|with|to|yet|already|"
    r"once|anyway)\b)[^?]{1,80}?\?|"
    r"\b(?:preceded|came before|came after)\b"
    r"|先后|顺序|次序|排序|排个序|排一下|依次|前后|时间线|按时间|时间先后|"
    r"哪(?:个|一个|件|件事|一步|项|次)[^，。？?]{0,8}?(?:先|早|最后|后|晚)|"
    r"(?:先|最先|最早|首先)(?:做|发生|完成|进行|上线|开始)|最(?:早|晚|后)(?:一步|做|完成|发生)|"
    r"(?:之前|以前|之后|以后|后来|接着|然后|随后)[^，。？?]{0,8}?(?:做了|干了|发生了?|进行了|完成了|"
    r"又有|有了?|做过)[^，。？?]{0,4}?(?:什么|哪些|啥)|"
    r"(?:之前|以前|之后|以后|后来|后)[，,][^。？?]{0,12}?(?:什么|哪些|啥)|"
    r"是在[^，。？?]{1,30}?(?:之前|之后|以前|以后|前|后)|(?:之前|前)还是(?:之后|后)|先还是后",
    re.I,
)

#: What asks how something went, or for a summary of it (English and Chinese): summarise,
#: recap, catch me up, the story of, how did X go / come along / turn out, where X
#: stands, walk me through, from start to finish; "总结", "回顾", "复盘", "经过", "进展",
#: "怎么样了", "什么情况", "来龙去脉".
SUMMARY_CUES = re.compile(
    r"\b(?:summar(?:y|ies|i[sz]e|i[sz]ing)|sum (?:it |this |that |things |everything )?up|"
    r"recap|overview|run-?down|tl;?dr|debrief|retrospective|post-?mortem|"
    r"catch me up|up to speed|fill me in|brief me|"
    r"(?:the|a) story (?:of|with|behind|so far)|what(?:'s| is| was) the story|"
    r"highlights|key points|main points|gist|in a nutshell|big picture|"
    r"history of|evolv\w*|evolution|progress(?:ed|ing)?|so far|to date|over time|"
    r"how (?:did|does|has|have|is|are|was|were) .{1,60}? (?:go|going|gone|come along|"
    r"coming along|turn(?:ed)? out|work(?:ed)? out|unfold(?:ed)?|develop(?:ed)?|"
    r"end(?:ed)? up|shap(?:e|ed|ing) up|pan(?:ned)? out|play(?:ed)? out)|"
    r"how (?:it|things|that|this) (?:went|go|are going|is going)|"
    r"what (?:happened|went on|was going on|has been going on|'s been going on|is going on|"
    r"has happened) (?:with|to|on|in|about|during|around)|"
    r"where (?:does|do|did|is|are) .{1,60}? stand|where (?:are|were) (?:we|things) (?:with|on|"
    r"at)|status of|state of (?:the|our|my)|"
    r"walk me through|step by step|start to finish|from (?:the )?(?:start|beginning)|"
    r"beginning to end|end to end|all the (?:changes|steps|decisions|things|updates)|"
    r"everything (?:about|on|we did|that happened))\b"
    r"|总结|概括|概述|汇总|复盘|回顾|梳理|盘点|小结|归纳|进展|经过|过程|历程|来龙去脉|始末|"
    r"前因后果|演变|变化|怎么发展|推进|进行得|怎么样了|做到哪|到哪一步|什么程度|一步步|从头|"
    r"要点|(?:情况|状况|进度)(?:怎么样|如何|怎样|是什么)|什么情况|后来(?:怎么样|呢|如何)|"
    r"整体(?:情况|上|来看)|发生了什么|都做了(?:什么|哪些)|哪些(?:步骤|变化|决定)",
    re.I,
)

#: Either kind of question (kept for callers that ask only whether).
TIMELINE_CUES = re.compile(f"(?:{ORDER_CUES.pattern})|(?:{SUMMARY_CUES.pattern})", re.I)


def timeline_kind(query: str) -> str | None:
    """``"order"`` when ``query`` asks in what order things happened, ``"summary"`` when
    it asks how something went or for a summary, else ``None`` (order wins when both).

    Example:
        >>> timeline_kind("Did the launch happen before or after the crash fix?")
        'order'
        >>> timeline_kind("Catch me up on the onboarding redesign"), timeline_kind("先做的是哪个？")
        ('summary', 'order')
        >>> timeline_kind("What did I say before about my allergy?") is None
        True
    """
    if ORDER_CUES.search(query):
        return "order"
    if SUMMARY_CUES.search(query):
        return "summary"
    return None


def wants_timeline(query: str) -> bool:
    """Whether ``query`` asks how something went, in what order, or for a summary."""
    return timeline_kind(query) is not None


_LIST_SEP = re.compile(r"\s*(?:[,;:、，；：]|\bor\b|\band\b|和|与|或者?)\s*", re.I)
#: Words of an order question that name no event ("哪个", "之后", "完成的").
_NO_EVENT = frozenset(
    "之前 之后 以前 以后 哪个 哪些 什么 完成 发生 进行 先 后 最后 最先 最早 先后 顺序 "
    "before after first last happen happened earlier later order".split()
)
_PART_LEAD = re.compile(
    r"^(?:in what order|which (?:one )?came first|which|what|when|did|was|were|the|"
    r"in which order)\b\s*",
    re.I,
)


def timeline_parts(query: str, max_parts: int = 4) -> list[str]:
    """The events an order question lists ("Which came first: the docs, rate limiting
    or deprecating v0?" -> three parts), each to be found on its own; ``[]`` when it
    lists fewer than two (at most ``max_parts``, each with a content word).

    Example:
        >>> timeline_parts("Which came first: rate limiting, the v1 docs, or deprecating v0?")
        ['rate limiting', 'v1 docs', 'deprecating v0']
        >>> timeline_parts("v1文档、限流、废弃v0，哪个最先？")
        ['v1文档', '限流', '废弃v0']
    """
    from langgraph_memory.core.tokens import tokenize

    text = query.strip().rstrip("?？.。!！")
    parts = []
    for piece in _LIST_SEP.split(text):
        # less the question's own words ("which came first", "in chronological order",
        # "哪个最先", "排个序")
        piece = TIMELINE_CUES.sub(" ", piece or "")
        piece = _PART_LEAD.sub("", " ".join(piece.split())).strip()
        if [t for t in tokenize(piece) if (len(t) > 1 or not t.isascii()) and t not in _NO_EVENT]:
            parts.append(piece)
    return parts[:max_parts] if len(parts) >= 2 else []


def is_statement(m: Message) -> bool:
    """Whether a message says something (of the user's): not a question, i.e. its first
    paragraph does not end with a question mark (a request with pasted code is one)."""
    first = m.content.strip().split("\n\n", 1)[0].rstrip()
    return m.role == "user" and not first.endswith(("?", "？"))


def latest_statements(msgs: Sequence[Message]) -> Iterator[tuple[int, list[int]]]:
    """The user's statements of ``msgs``, latest first (by time, then order), each with the
    user's messages said before it, latest first: ``(index, [earlier indices])``; the
    first user message, with none before it, is not given.

    Example:
        >>> from datetime import datetime, timezone
        >>> t = datetime(2024, 3, 1, tzinfo=timezone.utc)
        >>> m = [Message(f"m{i}", "u", "s", r, x, t, seq=i) for i, (r, x) in
        ...      enumerate([("user", "a"), ("assistant", "b"), ("user", "c?"), ("user", "d")])]
        >>> list(latest_statements(m))
        [(3, [2, 0])]
    """
    users = sorted(
        (i for i, m in enumerate(msgs) if m.role == "user"),
        key=lambda i: (msgs[i].timestamp, msgs[i].seq),
    )
    for at in range(len(users) - 1, 0, -1):
        if is_statement(msgs[users[at]]):
            yield users[at], users[:at][::-1]


def timeline_item(
    messages: Sequence[Message],
    terms: Set[str],
    *,
    line_tokens: int,
    score: float,
) -> ContextItem | None:
    """The outline of ``messages`` (the user's, retrieved for the query), oldest first.

    Args:
        messages: The messages to outline, best match first (at least two kept).
        terms: The query's terms (each line is an excerpt for them).
        line_tokens: A line's cap, in tokens.
        score: The item's score.

    Returns:
        One context item citing every message, or ``None`` with fewer than two.
    """
    if len(messages) < 2:
        return None
    ordered = sorted(messages, key=lambda m: (m.timestamp, m.seq))
    lines = [
        f"{m.timestamp.strftime('%Y-%m-%d')}: {excerpt(m.content, terms, line_tokens)}"
        for m in ordered
    ]
    zh = sum(1 for m in ordered if is_cjk_text(m.content)) > len(ordered) / 2
    head = (
        "时间线（用户原话，按时间先后）："
        if zh
        else "Timeline (the user's own words, oldest first):"
    )
    text = head + "\n  " + "\n  ".join(lines)
    return ContextItem(
        layer="timeline",
        text=text,
        tokens=item_tokens(text),
        score=score,
        score_parts={"timeline": float(len(ordered))},
        source_ids=[m.id for m in ordered],
        reason=(
            f"topic timeline: the {len(ordered)} user messages among the retrieved ones, "
            "dated, oldest first (the query asks how something went or in what order)"
        ),
        timestamp=ordered[-1].timestamp,
        session_id=None,
        order=-1,
        group=None,
    )
