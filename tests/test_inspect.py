"""``mm.inspect``: read-only pages of a user's memory, on every backend of the ``mm`` fixture.

Pages are keyset pages: walking them covers every message exactly once, newest first,
also while messages are added; another user's data never shows; a deleted message is
gone from every view.
"""

from __future__ import annotations

import asyncio

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core.records import Message
from langgraph_memory.parts.inspect import Listing, SessionRow


def _walk(page_of, limit: int) -> list:  # type: ignore[no-untyped-def]
    """Every item of a list, page by page (bounded: at most 1000 pages)."""
    out: list = []
    cursor = None
    for _ in range(1000):
        page = page_of(cursor, limit)
        assert len(page.items) <= limit
        out += page.items
        if page.cursor is None:
            return out
        assert page.items, "a page with a cursor must hold items"
        cursor = page.cursor
    raise AssertionError("more than 1000 pages")


def _seed(mm: MemoryManager) -> dict[str, list[str]]:
    """ann: 3 sessions of unequal sizes, interleaved; bob: one session saying the same."""
    ids: dict[str, list[str]] = {"s1": [], "s2": [], "s3": []}
    for i in range(12):
        sid = ("s1", "s2", "s1", "s3")[i % 4]
        text = f"note {i} about green tea" if i % 3 == 0 else f"note {i} about 北京 trains"
        ids[sid].append(mm.add_message("ann", sid, "user", text, message_id=f"a{i}"))
    for i in range(5):
        mm.add_message("bob", "s1", "user", f"bob says green tea {i}", message_id=f"b{i}")
    return ids


def test_pages_cover_every_message_once_newest_first(mm: MemoryManager) -> None:
    ids = _seed(mm)
    every = [f"a{i}" for i in range(12)][::-1]
    for limit in (1, 5, 12, 50):
        got = _walk(lambda c, n: mm.inspect.messages("ann", cursor=c, limit=n), limit)
        assert [m.id for m in got] == every
        assert all(m.user_id == "ann" for m in got)
    for sid, mine in ids.items():
        got = _walk(
            lambda c, n, s=sid: mm.inspect.messages("ann", session_id=s, cursor=c, limit=n), 2
        )
        assert [m.id for m in got] == mine[::-1]


def test_a_page_walk_is_not_shifted_by_new_messages(mm: MemoryManager) -> None:
    _seed(mm)
    first = mm.inspect.messages("ann", limit=4)
    mm.add_message("ann", "s9", "user", "a late message", message_id="late")
    rest = _walk(lambda c, n: mm.inspect.messages("ann", cursor=c or first.cursor, limit=n), 4)
    seen = [m.id for m in first.items + tuple(rest)]
    assert seen == [f"a{i}" for i in range(12)][::-1]


def test_search_finds_messages_holding_every_term_newest_first(mm: MemoryManager) -> None:
    _seed(mm)
    mm.flush()  # half of them with postings written, the rest waiting in their rows
    mm.add_message("ann", "s2", "user", "more green tea, please", message_id="late")
    tea = _walk(lambda c, n: mm.inspect.messages("ann", query="green tea", cursor=c, limit=n), 2)
    assert [m.id for m in tea] == ["late", "a9", "a6", "a3", "a0"]
    beijing = mm.inspect.messages("ann", query="北京", limit=50).items
    assert [m.id for m in beijing] == [f"a{i}" for i in range(12) if i % 3][::-1]
    in_s1 = mm.inspect.messages("ann", query="tea", session_id="s1").items
    assert [m.id for m in in_s1] == ["a6", "a0"]
    assert mm.inspect.messages("ann", query="tea 北京").items == ()
    assert mm.inspect.messages("ann", query="zeppelin").items == ()


def test_sessions_most_recent_first(mm: MemoryManager) -> None:
    ids = _seed(mm)
    rows = _walk(lambda c, n: mm.inspect.sessions("ann", cursor=c, limit=n), 1)
    assert all(isinstance(r, SessionRow) for r in rows)
    assert [r.session_id for r in rows] == ["s3", "s1", "s2"]
    assert {r.session_id: r.messages for r in rows} == {s: len(v) for s, v in ids.items()}
    s1 = next(r for r in rows if r.session_id == "s1")
    assert s1.first_at <= s1.last_at
    mm.add_message("ann", "s2", "user", "back to s2")
    assert mm.inspect.sessions("ann", limit=1).items[0].session_id == "s2"


def test_another_users_data_never_shows(mm: MemoryManager) -> None:
    _seed(mm)
    assert all(m.user_id == "bob" for m in mm.inspect.messages("bob", limit=500).items)
    assert [m.id for m in mm.inspect.messages("bob", query="green tea").items] == [
        f"b{i}" for i in range(5)
    ][::-1]
    assert [r.session_id for r in mm.inspect.sessions("bob").items] == ["s1"]
    assert [r.messages for r in mm.inspect.sessions("bob").items] == [5]
    with pytest.raises(KeyError, match="b1"):
        mm.inspect.message("ann", "b1")
    nobody = mm.inspect.overview("carol")
    assert (nobody.messages, nobody.sessions, nobody.latest_messages.items) == (0, 0, ())
    assert set(nobody.layers.values()) == {0}


def test_a_deleted_message_is_gone_from_every_view(mm: MemoryManager) -> None:
    _seed(mm)
    mm.flush()
    assert mm.delete("ann", ["a6", "a11"]) == 2
    every = _walk(lambda c, n: mm.inspect.messages("ann", cursor=c, limit=n), 3)
    assert [m.id for m in every] == [f"a{i}" for i in range(12) if i not in (6, 11)][::-1]
    tea = mm.inspect.messages("ann", query="green tea").items
    assert [m.id for m in tea] == ["a9", "a3", "a0"]
    s1 = _walk(lambda c, n: mm.inspect.messages("ann", session_id="s1", cursor=c, limit=n), 2)
    assert "a6" not in [m.id for m in s1]
    with pytest.raises(KeyError):
        mm.inspect.message("ann", "a6")
    rows = {r.session_id: r.messages for r in mm.inspect.sessions("ann").items}
    assert rows == {"s1": 5, "s2": 3, "s3": 2}
    assert mm.inspect.overview("ann").messages == 10


def test_overview_and_message_view(mm: MemoryManager) -> None:
    _seed(mm)
    mm.flush()
    ov = mm.inspect.overview("ann", limit=2)
    assert (ov.messages, ov.sessions, ov.embedded + ov.pending) == (12, 3, 12)
    assert [m.id for m in ov.latest_messages.items] == ["a11", "a10"]
    assert ov.latest_messages.cursor is not None
    assert [r.session_id for r in ov.recent_sessions.items] == ["s3", "s1"]
    view = mm.inspect.message("ann", "a4", window=1)  # s1 holds a0 a2 a4 a6 a8 a10
    assert view.message.content == "note 4 about 北京 trains"
    assert ([m.id for m in view.before], [m.id for m in view.after]) == (["a2"], ["a6"])


def test_bad_arguments_are_named(mm: MemoryManager) -> None:
    with pytest.raises(ValueError, match="cursor"):
        mm.inspect.messages("ann", cursor="'; DROP TABLE messages")
    with pytest.raises(ValueError, match="limit"):
        mm.inspect.messages("ann", limit=0)
    with pytest.raises(ValueError, match="limit"):
        mm.inspect.sessions("ann", limit=10_000)
    with pytest.raises(TypeError, match="limit"):
        mm.inspect.messages("ann", limit="5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no searchable term"):
        mm.inspect.messages("ann", query="the, and!")
    with pytest.raises(ValueError, match="user_id"):
        mm.inspect.overview("")


def test_the_async_view_awaits_the_same(mm: MemoryManager) -> None:
    _seed(mm)

    async def main() -> tuple[Listing[Message], Listing[Message]]:
        amm = mm.aio
        return await amm.inspect.messages("ann", limit=3), await amm.inspect.messages(
            "ann", limit=3, cursor="7"
        )

    first, deep = asyncio.run(main())
    assert first == mm.inspect.messages("ann", limit=3)
    assert [m.seq for m in deep.items] == sorted((m.seq for m in deep.items), reverse=True)
    assert all(m.seq < 7 for m in deep.items)
