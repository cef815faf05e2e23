"""The records the memory system stores and returns.

Records are slotted dataclasses: cheap to create, typed, and printable.
:func:`to_data` and :func:`from_data` turn the layers' dataclasses into the JSON
data of a :class:`Record` and back.

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Note:
    ...     text: str
    ...     at: datetime
    >>> data = to_data(Note("hi", datetime(2024, 5, 1)))
    >>> data
    {'text': 'hi', 'at': '2024-05-01T00:00:00'}
    >>> from_data(Note, {**data, "unknown": 1})
    Note(text='hi', at=datetime.datetime(2024, 5, 1, 0, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from functools import cache
from typing import Any, Literal, TypeVar, get_args

__all__ = [
    "SearchLayer",
    "ContextLayer",
    "CONTEXT_LAYERS",
    "Message",
    "MemoryHit",
    "Record",
    "ROLES",
    "index_text",
    "to_data",
    "via_asdict",
    "from_data",
]

_T = TypeVar("_T")

#: The layers ``MemoryManager.search(layers=...)`` ranks: stored messages, mid-term
#: segment summaries, long-term entries (profile, facts, traits, episodes, knowledge,
#: lessons, insights), and the chunks of documents (the user's own and shared ones;
#: ``"knowledge"`` names them and the long-term knowledge); every label a hit shows
#: (``fact``, ``profile``, ``chunk``...) names the hits of that label alone.
SearchLayer = Literal[
    "message",
    "mid_term",
    "long_term",
    "document",
    "knowledge",
    "profile",
    "fact",
    "trait",
    "episode",
    "lesson",
    "insight",
    "contradiction",
    "rollup",
    "entity",
    "chunk",
    "passage",
]
#: Where a context item comes from (see :class:`~langgraph_memory.core.context.ContextItem`).
ContextLayer = Literal[
    "anchor",
    "task",
    "short_term",
    "message",
    "neighbor",
    "segment_page",
    "timeline",
    "mid_term",
    "profile",
    "fact",
    "trait",
    "episode",
    "knowledge",
    "lesson",
    "insight",
    "contradiction",
    "rollup",
    "entity",
    "chunk",
    "chain",
]

#: Every context layer, in the order of :data:`ContextLayer`.
CONTEXT_LAYERS: tuple[str, ...] = get_args(ContextLayer)

#: Roles a message may have (LangChain's message types plus common aliases).
ROLES = frozenset({"user", "assistant", "system", "tool", "human", "ai"})
ROLE_ALIASES = {"human": "user", "ai": "assistant"}


@dataclass(slots=True)
class Message:
    """One stored conversation message (the raw material of every memory).

    Attributes:
        id: The caller's message id, or a generated one.
        user_id: Whose memory this is.
        session_id: The conversation (thread) it was said in.
        role: ``user``, ``assistant``, ``system`` or ``tool``.
        content: The text.
        timestamp: When it was said (timezone-aware, UTC when none was given).
        name: The speaker's name, if any.
        metadata: Free JSON-serialisable metadata.
        seq: Insertion order within the store (assigned by the backend).
    """

    id: str
    user_id: str
    session_id: str
    role: str
    content: str
    timestamp: datetime
    name: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    seq: int = 0


def index_text(msg: Message) -> str:
    """The text a message is indexed (terms) and embedded by: its content.

    The speaker's ``name`` stays out of both: in the text it drew every turn of that
    speaker (and every turn addressing them) toward any query naming them, about
    anything. It is matched exactly instead, from the message's field
    (``speaker_boost``, :mod:`~langgraph_memory.read.speakers`), and a ``name`` filter
    selects a speaker's turns.

    Example:
        >>> from datetime import datetime, timezone
        >>> m = Message("m1", "u", "s", "user", "I moved to Lyon", datetime.now(timezone.utc))
        >>> index_text(m), index_text(Message("m2", "u", "s", "user", "hi", m.timestamp, "Ann"))
        ('I moved to Lyon', 'hi')
    """
    return msg.content


@dataclass(slots=True)
class MemoryHit:
    """One search result.

    Attributes:
        id: Id of the memory (for raw messages, the message id).
        layer: The memory layer it comes from (``"message"`` for raw messages).
        text: The memory's text.
        score: Its relevance to the query in ``[0, 1]``, the same scale for every layer
            (near 0: unrelated; from the cosine with the query, the share of the query's
            words it has and a reranker's score, see
            :mod:`~langgraph_memory.read.relevance`), so one threshold works.
        score_parts: The components the score was made of (e.g. ``bm25_rank``,
            ``dense_rank``, ``cosine``, ``rrf``, and ``rank_score``: the score its own
            layer's ranking gave it).
        source_ids: Ids of the messages this memory came from (citations).
        session_id: The session the memory was made in.
        timestamp: When it was made.
        metadata: The memory's metadata.
    """

    id: str
    layer: str
    text: str
    score: float
    score_parts: dict[str, float]
    source_ids: list[str]
    session_id: str | None = None
    timestamp: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    role: str | None = None


@dataclass(slots=True)
class Record:
    """A structured memory kept beside the messages (a task, an episode, knowledge...).

    Attributes:
        kind: What it is (``task``, ``episode``, ``knowledge``...).
        id: Its id, unique within its kind.
        user_id: Whose memory it is.
        data: Its fields, JSON-serialisable.
        created_at: When it was made.
        updated_at: When it last changed.
    """

    kind: str
    id: str
    user_id: str
    data: dict[str, Any]
    created_at: datetime
    updated_at: datetime


def to_data(obj: Any) -> dict[str, Any]:
    """A dataclass as JSON-friendly data (datetimes as ISO strings), e.g. a record's ``data``.

    Fields of plain JSON values, datetimes, lists, dicts with string keys and nested
    dataclasses are copied in one pass (``dataclasses.asdict`` deep-copied every value
    first: 0.1 ms for an entity with its twelve mentions, on every mention); anything
    else takes ``asdict``'s way, with the same result.
    """
    try:
        return {name: _plain(getattr(obj, name)) for name in _field_names(type(obj))}
    except _NotPlain:
        return via_asdict(obj)


def via_asdict(obj: Any) -> dict[str, Any]:
    """:func:`to_data` the slow way, which takes any dataclass: ``dataclasses.asdict``,
    then datetimes as ISO strings."""

    def conv(v: Any) -> Any:
        if isinstance(v, datetime):
            return v.isoformat()
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        return v

    return {k: conv(v) for k, v in asdict(obj).items()}


class _NotPlain(Exception):
    """A value :func:`_plain` leaves to ``dataclasses.asdict``."""


_ATOMIC = frozenset({str, int, float, bool, type(None)})


def _plain(v: Any) -> Any:
    """``v`` as :func:`to_data` stores it.

    Raises:
        _NotPlain: For a value of another type (a tuple, a set, a subclass...).
    """
    t = type(v)
    if t in _ATOMIC:
        return v
    if t is datetime:
        return v.isoformat()
    if t is list:
        return [_plain(x) for x in v]
    if t is dict and all(type(k) is str for k in v):
        return {k: _plain(x) for k, x in v.items()}
    if hasattr(t, "__dataclass_fields__"):
        return {name: _plain(getattr(v, name)) for name in _field_names(t)}
    raise _NotPlain


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The field names of a dataclass, looked up once per class (``TypeError`` for
    another class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def from_data(
    cls: type[_T],
    data: Mapping[str, Any],
    nested: Mapping[str, Callable[[Any], Any]] | None = None,
) -> _T:
    """The inverse of :func:`to_data`: datetime fields parsed, unknown keys dropped,
    missing ones left to their defaults.

    Args:
        cls: The dataclass.
        data: Its stored data.
        nested: Field name -> a function rebuilding that field's value (e.g. a list of
            nested dataclasses).
    """
    kwargs: dict[str, Any] = {}
    for name, dated in _field_kinds(cls):  # type: ignore[arg-type]
        if name not in data:
            continue
        value = data[name]
        if nested is not None and name in nested:
            value = nested[name](value)
        elif dated and isinstance(value, str):
            value = datetime.fromisoformat(value)
        kwargs[name] = value
    return cls(**kwargs)


@cache
def _field_kinds(cls: type) -> tuple[tuple[str, bool], ...]:
    """``(name, is a datetime)`` of a dataclass's fields (records are loaded by the
    thousand: looking the fields up once per class, not per record)."""
    return tuple((f.name, "datetime" in str(f.type)) for f in fields(cls))
