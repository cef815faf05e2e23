"""Query routing: what a query asks for, which layers to read, and when.

:func:`route_query` classifies a query (English or Chinese) into one intent,
gives each memory layer a weight, and turns time expressions ("last May",
"上周") into a time range and a metadata filter for the backends
(``{"timestamp": {"$gte": ..., "$lt": ...}}``, see
:mod:`langgraph_memory.core.filters`).

Intents, decided by weighted cue patterns (:data:`CUES`; the highest total
wins, ties go to the earlier intent in :data:`INTENTS`; a query with no cue is
``recall`` unless it is very short, then ``chitchat``; a time expression adds
to ``recall``):

- ``preference`` — about the user: likes, dislikes, allergies, names,
  recommendations ("what do I like", "我的口味", "推荐一家餐厅").
- ``recall`` — past events and conversations ("what did we decide last week",
  "上次我们聊了什么").
- ``task`` — the work in progress: reminders, todos, next steps ("what's next",
  "帮我继续").
- ``knowledge`` — how-to and explanations ("how do I restart nginx", "什么是RRF").
- ``chitchat`` — greetings and small talk ("hi", "谢谢").

Layer weights (:data:`LAYER_WEIGHTS`; multiply a layer's scores; 1.0 = full):

============  ==========  ========  =======  =====  ========  =========  ========
intent        short_term  mid_term  profile  facts  episodes  knowledge  messages
============  ==========  ========  =======  =====  ========  =========  ========
preference    0.6         0.5       1.0      0.9    0.3       0.2        0.5
recall        0.7         1.0       0.4      0.8    0.8       0.3        1.0
task          1.0         0.6       0.5      0.5    1.0       0.8        0.6
knowledge     0.5         0.5       0.4      0.7    0.6       1.0        0.6
chitchat      1.0         0.3       0.6      0.2    0.1       0.1        0.3
============  ==========  ========  =======  =====  ========  =========  ========

With a time range, the dated layers (``messages``, ``mid_term``, ``episodes``)
are raised to at least 0.9.

Example:
    >>> from datetime import datetime, timezone
    >>> now = datetime(2024, 6, 15, tzinfo=timezone.utc)
    >>> r = route_query("What did we decide last week?", now=now)
    >>> r.intent, r.filters["timestamp"]["$gte"], r.filters["timestamp"]["$lt"]
    ('recall', '2024-06-03T00:00:00+00:00', '2024-06-10T00:00:00+00:00')
    >>> route_query("我喜欢吃什么？", now=now).intent
    'preference'
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from langgraph_memory.core.llm import structured_call
from langgraph_memory.core.tokens import count_tokens
from langgraph_memory.read.time_expressions import find_time_expressions
from langgraph_memory.read.timeline import timeline_kind

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "Route",
    "RouteDraft",
    "route_query",
    "aroute_query",
    "INTENTS",
    "LAYERS",
    "LAYER_WEIGHTS",
    "CUES",
]

#: The intents, in tie-breaking order.
INTENTS = ("preference", "recall", "task", "knowledge", "chitchat")
#: The memory layers a route weighs.
LAYERS = ("short_term", "mid_term", "profile", "facts", "episodes", "knowledge", "messages")

LAYER_WEIGHTS: dict[str, dict[str, float]] = {
    intent: dict(zip(LAYERS, row, strict=True))
    for intent, row in {
        "preference": (0.6, 0.5, 1.0, 0.9, 0.3, 0.2, 0.5),
        "recall": (0.7, 1.0, 0.4, 0.8, 0.8, 0.3, 1.0),
        "task": (1.0, 0.6, 0.5, 0.5, 1.0, 0.8, 0.6),
        "knowledge": (0.5, 0.5, 0.4, 0.7, 0.6, 1.0, 0.6),
        "chitchat": (1.0, 0.3, 0.6, 0.2, 0.1, 0.1, 0.3),
    }.items()
}
_DATED_LAYERS = ("messages", "mid_term", "episodes")
_TIME_CUE_WEIGHT = 1.0


def _cues(*items: tuple[str, float]) -> list[tuple[re.Pattern[str], float]]:
    return [(re.compile(p, re.I), w) for p, w in items]


#: Cue patterns and their weights, per intent.
CUES: dict[str, list[tuple[re.Pattern[str], float]]] = {
    "preference": _cues(
        (r"\b(?:do|did|would|will) i (?:like|love|prefer|enjoy|hate|dislike|want)\b", 1.5),
        (r"\bwhat (?:do|does) (?:i|me) (?:like|love|prefer|enjoy|hate|dislike)\b", 1.5),
        (r"\b(?:my|i) (?:favou?rites?|preferences?|tastes?|likes|dislikes|style)\b", 1.5),
        (r"\bwhat (?:kind|sort|type)s? of\b.*\b(?:i|me)\b", 1.0),
        (r"\b(?:recommend\w*|suggest\w*)\b", 1.0),
        (r"\ballerg\w*", 1.5),
        (r"\bshould i (?:eat|order|buy|watch|read|wear|cook|try|get|drink)\b", 1.0),
        (r"\bwhat(?:'s| is) my (?:name|job|occupation|age|birthday|address)\b", 1.5),
        (r"\bwhere do i (?:live|work)\b", 1.5),
        (r"\b(?:about me|know about me)\b", 1.0),
        (r"我(?:最|比较|更)?(?:喜欢|爱|偏好|讨厌|不喜欢|想要)\w{0,4}?(?:什么|吗|哪|啥|的是)", 1.5),
        (r"我(?:的)?(?:偏好|口味|爱好|喜好|习惯)", 1.5),
        (r"推荐|建议|适合我", 1.0),
        (r"过敏", 1.5),
        (r"我(?:叫什么|的名字|住在哪|在哪(?:里|儿)?(?:工作|上班))", 1.5),
    ),
    "recall": _cues(
        (r"\b(?:what|when|where|who|how|why) (?:did|had|were|was) (?:i|we|you)\b", 1.0),
        (r"\b(?:what|when|where|who|how|why) (?:did|has|had|was|were) [A-Z]\w+\b", 1.0),
        (r"\bdid (?:i|we|you) (?:ever )?(?:say|mention|tell|talk|discuss|decide|agree|ask)", 1.5),
        (r"\b(?:remember|recall)\b", 1.0),
        (r"\blast time\b", 1.5),
        (r"\b(?:earlier|previously|before|back then)\b", 0.5),
        (r"\b(?:we|i|you) (?:talked|discussed|spoke|said|mentioned|decided|agreed|told)\b", 1.0),
        (r"\bwhat was (?:the|that|our|my)\b", 0.5),
        (r"\b(?:decision|decided|conversation|discussion|meeting)s?\b", 0.5),
        (r"上次|之前|以前|曾经|那次|当时", 1.0),
        (r"还?记得|记不记得", 1.0),
        (r"(?:我们|我|你)(?:聊|谈|讨论|说|提|讲|决定)(?:过|了)", 1.5),
        (r"决定|决策|什么时候|聊了什么|说了什么", 0.5),
    ),
    "task": _cues(
        (r"\bremind me\b", 1.5),
        (r"\b(?:my|the|our) (?:tasks?|todos?|to-dos?|reminders?|plan|progress|next steps?)\b", 1.5),
        (r"\bwhat(?:'s| is) next\b|\bnext step", 1.5),
        (r"\b(?:continue|resume|keep going|pick up where|carry on)\b", 1.5),
        (r"\bwhere (?:were|are) we\b|\bstatus of\b", 1.0),
        (
            r"\b(?:help me|can you|could you|please) (?:write|fix|debug|deploy|build|create|"
            r"draft|set up|restart|book|schedule|send|finish|update)\b",
            1.0,
        ),
        (r"\b(?:todo|to-do|deadline|due)\b", 1.0),
        (r"提醒我|待办|任务|进度|下一步|继续|接着|做到哪|还没(?:做|完成)", 1.5),
        (r"帮我|请你?(?:写|修|部署|安排|预订|发送|完成|更新)", 1.0),
    ),
    "knowledge": _cues(
        (r"\bhow (?:do|does|can|should|would) (?:i|you|we|one|it|a|an|the)\b", 1.0),
        (r"\bhow to\b", 1.5),
        (r"\bwhat (?:is|are) (?:a|an|the)?\s*\w+", 0.5),
        (r"\b(?:explain|definition|define|meaning of|difference between|best practices?)\b", 1.5),
        (r"\bwhy (?:is|are|does|do|would)\b", 1.0),
        (r"怎么|如何|怎样", 1.0),
        (r"什么是|是什么|为什么|解释|区别|原理|含义|意思是", 1.0),
    ),
    "chitchat": _cues(
        (
            r"^\s*(?:hi|hello|hey|yo|hiya|good (?:morning|afternoon|evening|night)|thanks|"
            r"thank you|thx|bye|goodbye|see you|lol|haha|ok(?:ay)?|cool|nice|great)\b",
            1.5,
        ),
        (r"\bhow are you\b|\bwhat'?s up\b|\bnice to meet\b|\btell me a joke\b", 1.5),
        (
            r"^\s*(?:你好|您好|嗨|哈喽|早上好|早安|午安|晚安|谢谢|多谢|拜拜|再见|哈哈|嗯|好的|在吗)",
            1.5,
        ),
        (r"你好吗|怎么样啊|讲个笑话|无聊", 1.0),
    ),
}

#: Which memory atom kinds a query most likely wants (a hint for the facts layer).
_KIND_CUES = _cues(
    (r"\bdecid\w*|\bdecision|\bagreed?\b|决定|决策|定了", 1.0),
    (r"\btasks?\b|\btodos?\b|\bremind|提醒|待办|任务", 1.0),
)
_KIND_NAMES = ("decision", "task")


@dataclass(frozen=True)
class Route:
    """Where and when to look for the memories a query needs.

    Attributes:
        intent: One of :data:`INTENTS`.
        layer_weights: A weight in [0, 1] for each of :data:`LAYERS`.
        time_range: ``(start, end)`` (end exclusive) the query refers to, or ``None``.
        filters: A metadata filter for the backends (the time range as
            ``{"timestamp": {"$gte": start, "$lt": end}}`` in ISO form), or ``{}``.
        reason: Why this route: the cues and time expressions found.
        scores: The cue score of each intent.
        kinds: Memory atom kinds the query asks about (``decision``, ``task``,
            ``preference``, ``fact``); empty when it does not say.
        time_text: The time expressions as written in the query.
        source: ``"rules"`` or ``"llm"``.
        timeline: ``"order"`` when the query asks in what order things happened,
            ``"summary"`` when it asks how something went, else ``None``: then the
            context outlines the topic's messages oldest first (see
            :mod:`~langgraph_memory.read.timeline`).
    """

    intent: str
    layer_weights: dict[str, float]
    time_range: tuple[datetime, datetime] | None = None
    filters: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    kinds: tuple[str, ...] = ()
    time_text: tuple[str, ...] = ()
    source: str = "rules"
    timeline: str | None = None

    def weight(self, layer: str) -> float:
        """The weight of ``layer`` (0.0 for unknown layers)."""
        return self.layer_weights.get(layer, 0.0)


class RouteDraft(BaseModel):
    """What the LLM is asked to answer."""

    intent: str = Field(
        max_length=40, description="one of: preference, recall, task, knowledge, chitchat"
    )
    start: str | None = Field(
        default=None, max_length=40, description="ISO start of the time referred to"
    )
    end: str | None = Field(
        default=None, max_length=40, description="ISO end (exclusive) of that time"
    )
    reason: str = Field(default="", max_length=1000, description="one short sentence")


PROMPT = """Classify a query to a personal memory system. Now is {now}.
Intents: preference (about the user: likes, dislikes, allergies, name, recommendations),
recall (past events or conversations), task (work in progress, reminders, next steps),
knowledge (how-to, explanations), chitchat (greetings, small talk).
If the query refers to a time, give its start and end (end exclusive) as ISO datetimes.
判断用户查询的意图；如果提到时间，给出起止时间。

Query: {query}"""


def _score(query: str) -> tuple[dict[str, float], list[str]]:
    scores = dict.fromkeys(INTENTS, 0.0)
    why: list[str] = []
    for intent, cues in CUES.items():
        for pattern, weight in cues:
            m = pattern.search(query)
            if m:
                scores[intent] += weight
                why.append(f"{intent} cue {m.group().strip()!r}")
    return scores, list(dict.fromkeys(why))


def _kinds(query: str, intent: str) -> tuple[str, ...]:
    kinds = [name for name, (p, _) in zip(_KIND_NAMES, _KIND_CUES, strict=True) if p.search(query)]
    if intent == "preference":
        kinds += ["preference", "fact"]
    return tuple(kinds)


def _build(
    intent: str,
    query: str,
    time_range: tuple[datetime, datetime] | None,
    *,
    why: list[str],
    scores: dict[str, float],
    time_text: tuple[str, ...],
    source: str,
) -> Route:
    weights = dict(LAYER_WEIGHTS[intent])
    filters: dict[str, Any] = {}
    if time_range is not None:
        for layer in _DATED_LAYERS:
            weights[layer] = max(weights[layer], 0.9)
        filters = {
            "timestamp": {"$gte": time_range[0].isoformat(), "$lt": time_range[1].isoformat()}
        }
    timeline = timeline_kind(query)
    if timeline is not None:
        why = [*why, f"timeline {timeline}: the topic's messages, oldest first"]
    reason = f"intent {intent} ({source})" + (": " + "; ".join(why) if why else "")
    return Route(
        intent=intent,
        layer_weights=weights,
        time_range=time_range,
        filters=filters,
        reason=reason,
        scores=scores,
        kinds=_kinds(query, intent),
        time_text=time_text,
        source=source,
        timeline=timeline,
    )


def _rules(query: str, now: datetime) -> tuple[str, Route]:
    """The rule-based route, and the intent it chose."""
    scores, why = _score(query)
    times = find_time_expressions(query, now)
    time_range = (min(t.start for t in times), max(t.end for t in times)) if times else None
    for t in times:
        scores["recall"] += _TIME_CUE_WEIGHT
        why.append(f"time {t.text!r} → {t.start.isoformat()} .. {t.end.isoformat()}")
    best = max(INTENTS, key=lambda i: (scores[i], -INTENTS.index(i)))
    if scores[best] == 0:
        short = count_tokens(query.strip()) <= 4
        best = "chitchat" if short else "recall"
        why.append("no cue: " + ("short query" if short else "default"))
    text = tuple(t.text for t in times)
    return best, _build(
        best, query, time_range, why=why, scores=scores, time_text=text, source="rules"
    )


def _parse_iso(value: str | None, tz: Any) -> datetime | None:
    if not value:
        return None
    try:
        dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=tz)


def _from_draft(draft: RouteDraft | None, query: str, now: datetime) -> Route:
    _, rules = _rules(query, now)
    if draft is None or draft.intent.strip().lower() not in INTENTS:
        return rules
    intent = draft.intent.strip().lower()
    time_range = rules.time_range
    if time_range is None:  # the rules' dates are exact; the model's fill in when they have none
        start, end = _parse_iso(draft.start, now.tzinfo), _parse_iso(draft.end, now.tzinfo)
        if start is not None and end is not None and start <= end:
            time_range = (start, end)
    why = [draft.reason.strip()] if draft.reason.strip() else []
    return _build(
        intent,
        query,
        time_range,
        why=why,
        scores=rules.scores,
        time_text=rules.time_text,
        source="llm",
    )


def _now(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(timezone.utc)
    return now if now.tzinfo else now.replace(tzinfo=timezone.utc)


def route_query(
    query: str, *, now: datetime | None = None, llm: BaseChatModel | None = None
) -> Route:
    """Route a query: its intent, layer weights, time range and metadata filter.

    Args:
        query: The user's query, English or Chinese.
        now: The reference time for relative dates (default: now, UTC; naive = UTC).
        llm: Optional chat model that classifies the intent (structured output);
            on no answer or a malformed one, the rules decide.

    Returns:
        The :class:`Route`.

    Example:
        >>> from datetime import datetime
        >>> r = route_query("上周我们决定了什么？", now=datetime(2024, 6, 15))
        >>> r.intent, r.time_range[0].date().isoformat(), r.kinds
        ('recall', '2024-06-03', ('decision',))
        >>> route_query("how do I restart nginx?").layer_weights["knowledge"]
        1.0
    """
    ref = _now(now)
    if llm is None:
        return _rules(query, ref)[1]
    draft = structured_call(llm, RouteDraft, PROMPT.format(now=ref.isoformat(), query=query))
    return _from_draft(draft, query, ref)


async def aroute_query(
    query: str, *, now: datetime | None = None, llm: BaseChatModel | None = None
) -> Route:
    """Async :func:`route_query` (the model is called off the event loop).

    Example:
        >>> import asyncio
        >>> asyncio.run(aroute_query("hi there")).intent
        'chitchat'
    """
    ref = _now(now)
    if llm is None:
        return _rules(query, ref)[1]
    prompt = PROMPT.format(now=ref.isoformat(), query=query)
    draft = await asyncio.to_thread(structured_call, llm, RouteDraft, prompt)
    return _from_draft(draft, query, ref)
