"""Hostile input through every public write entry point, on every backend.

Hypothesis draws strings (lone surrogates, NUL and other control characters, zero-width
and bidirectional marks, emoji, Chinese, very long runs), ids, timestamps (out of range,
NaN, wrong types) and metadata (deep, NaN, non-str keys) and drives them through
``add_message``, ``add_turn``, ``anchors.add``, the task calls, core blocks and
``MemoryStore.put``. Invariants:

- each call raises ``TypeError`` or ``ValueError`` (naming what is wrong), or stores
  a value that reads back as documented (the text through the sensitivity gate);
- nothing already stored changes: another user's messages, search results and
  counts are the same before and after;
- the worker keeps draining: ``flush`` succeeds and nothing stays pending.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import MemoryManager, MemoryStore
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend

HOSTILE_CHARS = st.sampled_from(
    [
        "\x00",
        "\x07",
        "\x1b",
        "\x7f",
        "\ud800",
        "\udfff",
        "\u200b",
        "\u200e",
        "\u202e",
        "\u2060",
        "\ufeff",
        "\ufffd",
        "\U0001f600",
        "测",
        "试",
        "'",
        '"',
        "%",
        "\\",
        "\n",
        " ",
        "a",
        "Z",
        "0",
        "@",
    ]
)


#: Characters every text field accepts (format marks, emoji, Chinese, quotes...).
FAIR_CHARS = st.sampled_from(
    ["\u200b", "\u200e", "\u202e", "\ufeff", "\U0001f600", "测", "试", "'", '"', "%", "\\"]
    + ["\n", " ", "a", "Z", "0", "@", ".", "-"]
)
#: Text with at least one visible character: accepted by every text field.
FAIR_TEXTS = st.builds(
    lambda a, b: a + "x" + b, st.text(FAIR_CHARS, max_size=30), st.text(FAIR_CHARS, max_size=30)
)
HOSTILE_TEXTS = st.one_of(
    st.text(HOSTILE_CHARS, max_size=40),
    st.text(max_size=40),
    st.just(""),
    st.just("x" * 100_001),
    st.integers(),
    st.none(),
    st.binary(max_size=8),
)
FAIR_IDS = st.text(
    st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12
).filter(lambda s: s.strip())
HOSTILE_IDS = st.one_of(st.text(HOSTILE_CHARS, max_size=12), st.text(max_size=12), st.none())
FAIR_TIMESTAMPS = st.one_of(
    st.none(),
    st.datetimes(timezones=st.just(timezone.utc)),
    st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(3000, 1, 1)),
    st.integers(min_value=0, max_value=4_000_000_000),
)
HOSTILE_TIMESTAMPS = st.one_of(
    st.just("9999-12-31T23:59:59-05:00"),
    st.just("0001-01-01T00:00:00+05:00"),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**13), max_value=10**13),
    st.text(max_size=12),
    st.booleans(),
)
JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(HOSTILE_CHARS, max_size=8)
)
FAIR_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(FAIR_CHARS, max_size=8),
)
FAIR_METADATA = st.one_of(
    st.none(), st.dictionaries(st.text(FAIR_CHARS, max_size=6), FAIR_LEAVES, max_size=4)
)
HOSTILE_METADATA = st.one_of(
    st.dictionaries(st.text(HOSTILE_CHARS, max_size=6), JSON_LEAVES, max_size=4),
    st.recursive(JSON_LEAVES, lambda c: st.dictionaries(st.text(max_size=3), c, max_size=2)),
    st.just({1: "non-str key"}),
    st.builds(lambda d: _deep(d), st.integers(min_value=30, max_value=200)),
)


def _deep(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.fixture
def fuzz_mm(backend: MemoryBackend) -> Iterator[MemoryManager]:
    mm = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
    mm.add_message("keeper", "s1", "user", "I keep bees behind the barn.")
    mm.add_message("keeper", "s1", "assistant", "How many hives?")
    mm.add_message("keeper", "s2", "user", "Three hives, and honey in August.")
    mm.flush()
    yield mm
    mm.close()


def _keeper(mm: MemoryManager) -> tuple:
    msgs = [(m.id, m.content, m.timestamp) for m in mm._backend.iter_messages("keeper")]
    hits = [h.id for h in mm.search("keeper", "bees hives honey", k=5)]
    stats = mm.stats("keeper")
    return msgs, hits, stats["messages"], stats["embedded"]


def _call(fn: Any, *args: Any, **kw: Any) -> Any:
    """The call's result, or ``None`` when it refused with a clear error."""
    try:
        return fn(*args, **kw)
    except (TypeError, ValueError) as exc:
        assert str(exc), "an error must say what is wrong"
        return None


#: Each field: what every entry point accepts, and what should be refused (or taken).
FIELDS = {
    "user": (FAIR_IDS, HOSTILE_IDS),
    "session": (FAIR_IDS, HOSTILE_IDS),
    "role": (st.sampled_from(["user", "assistant", "human", "ai"]), HOSTILE_TEXTS),
    "content": (FAIR_TEXTS, HOSTILE_TEXTS),
    "timestamp": (FAIR_TIMESTAMPS, HOSTILE_TIMESTAMPS),
    "metadata": (FAIR_METADATA, HOSTILE_METADATA),
    # a fair id is a generated one: the store lives across examples, and an id stored
    # before with other content is refused (test_validation tests that)
    "message_id": (st.none(), HOSTILE_IDS),
    "name": (st.one_of(st.none(), FAIR_IDS), HOSTILE_IDS),
}


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(bad=st.sampled_from([None, *FIELDS]), data=st.data())
def test_hostile_writes_are_refused_or_stored_as_documented(
    fuzz_mm: MemoryManager, bad: str | None, data: st.DataObject
) -> None:
    """One field at a time is hostile (or none): every call refuses it clearly or stores
    what the documentation says."""
    v = {
        f: data.draw(hostile if f == bad else fair, label=f)
        for f, (fair, hostile) in FIELDS.items()
    }
    user, session, content, name = v["user"], v["session"], v["content"], v["name"]
    metadata = v["metadata"]
    mm = fuzz_mm
    before = _keeper(mm)
    mid = _call(
        mm.add_message,
        user,
        session,
        v["role"],
        content,
        name=name,
        timestamp=v["timestamp"],
        message_id=v["message_id"],
        metadata=metadata,
    )
    if bad is None:
        assert mid is not None, "every field was fair"
    if mid is not None:
        got = mm._backend.get_message(user, mid)
        assert got is not None and got.content == mm.maintenance.redact(content, field="content")
        assert got.session_id == session and got.user_id == user
        assert isinstance(got.timestamp, datetime) and got.timestamp.tzinfo is not None
    _call(mm.add_turn, user, session, user=content, assistant=content, metadata=metadata)
    _call(mm.anchors.add, user, content, session_id=session, metadata=metadata)
    tid = _call(mm.tasks.start, user, session, content, context=metadata)
    if tid is not None:
        step = _call(mm.tasks.step, user, tid, content, tool_name=name, args=metadata)
        if step is not None:
            _call(mm.tasks.update_step, user, tid, step, status="completed", result=content)
        _call(mm.tasks.complete, user, tid, summary=content, target=content, tags=[content])
    _call(mm.items.set_core_block, user, "human", content)
    store = MemoryStore(mm)
    ns = (user, "memories") if isinstance(user, str) else ("memories",)
    _call(store.put, ns, "k", {"text": content, "meta": metadata})
    mm.flush(timeout=60)
    assert mm.stats()["pending"] == 0  # the worker keeps draining
    assert _keeper(mm) == before  # nothing already stored changed
