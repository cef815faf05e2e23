"""Hierarchical roll-ups: a day and a week are summarised once a later one begins,
citing the messages they summarise, the week from its days' summaries; a summary is a
long-term entry that reaches a context; nothing is summarised while its span is open."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.long_term.rollups import ROLLUP_KIND, Rollup
from langgraph_memory.storage import MemoryBackend

MONDAY = datetime(2024, 3, 4, 9, tzinfo=timezone.utc)
DAYS = [
    ["Kicked off the database migration with the users table.", "Users table copied fine."],
    ["The orders table copy locked writes for three hours.", "We rebuilt the index online."],
    ["迁移结束，旧的 MySQL 实例已经下线。", "下周开始清理旧的备份。"],
]


@pytest.fixture
def mm(backend: MemoryBackend) -> Iterator[MemoryManager]:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as m:
        yield m


def rollups(mm: MemoryManager, user: str = "ann") -> list[Rollup]:
    got = [Rollup.load(r.data) for r in mm._backend.list_records(ROLLUP_KIND, user)]
    return sorted(got, key=lambda r: (r.start, r.level))


def chat(
    mm: MemoryManager, day: int, texts: list[str], user: str = "ann", turns: int = 6
) -> list[str]:
    """A day of ``turns`` exchanges (12 messages: a day is summarised from 12): the texts,
    then notes of that day."""
    texts = texts + [f"Note {k} of day {day} on the checklist." for k in range(turns - len(texts))]
    ids = []
    for i, text in enumerate(texts):
        when = MONDAY + timedelta(days=day, minutes=10 * i)
        ids += mm.add_turn(user, f"d{day}", user=text, assistant="Noted.", timestamp=when)
    return ids


def test_days_and_weeks_are_summarised_as_they_close(mm: MemoryManager) -> None:
    first = chat(mm, 0, DAYS[0])
    mm.flush()
    assert all(not r.closed and not r.summary for r in rollups(mm))  # still open
    chat(mm, 1, DAYS[1])
    chat(mm, 2, DAYS[2])
    mm.flush()
    days = [r for r in rollups(mm) if r.level == "day"]
    assert [r.start.date().isoformat() for r in days] == ["2024-03-04", "2024-03-05", "2024-03-06"]
    monday = days[0]
    assert monday.closed and "database migration" in monday.summary
    assert set(monday.source_ids) <= set(first) and monday.source_ids
    assert sorted(monday.message_ids) == sorted(first)
    assert not days[2].closed  # the current day
    [week] = [r for r in rollups(mm) if r.level == "week"]
    assert not week.closed
    chat(mm, 7, ["A new week: planning the cleanup of old backups."], turns=1)  # next Monday
    mm.flush()
    [week, _] = [r for r in rollups(mm) if r.level == "week"]
    assert week.closed and week.start == MONDAY.replace(hour=0)
    assert "migration" in week.summary and "迁移" in week.summary
    day_cited = {i for r in rollups(mm) if r.level == "day" and r.closed for i in r.source_ids}
    assert set(week.source_ids) <= day_cited  # the week rolls up its days
    assert week.text().startswith("Summary of the week 2024-03-04 to 2024-03-10")
    # a closed span is a long-term entry that reaches a context, cited
    ctx = mm.build_context("ann", "live", "how did the database migration week go?", 2000)
    items = [it for it in ctx.items if it.layer == "rollup"]
    assert items and all(it.source_ids for it in items)
    assert rollups(mm, "bob") == []


def test_a_short_day_is_not_summarised(mm: MemoryManager) -> None:
    chat(mm, 0, DAYS[0], turns=2)  # 4 messages
    chat(mm, 1, DAYS[1])
    mm.flush()
    monday = mm.profile.rollups("ann", "day")[0]
    assert monday.closed and monday.count == 4 and monday.summary == ""
    assert not [d for d in mm._parts.read.entries.docs("ann") if d.layer == "rollup"]


def test_roll_ups_can_be_turned_off(backend: MemoryBackend) -> None:
    cfg = MemoryConfig(hierarchy={"rollups": False})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        chat(mm, 0, DAYS[0])
        chat(mm, 1, DAYS[1])
        mm.flush()
        assert rollups(mm) == []


def test_the_manager_lists_roll_ups(mm: MemoryManager) -> None:
    chat(mm, 0, DAYS[0])
    chat(mm, 1, DAYS[1])
    mm.flush()
    days = mm.profile.rollups("ann", "day")
    assert [r.closed for r in days] == [True, False]
    assert [r.level for r in mm.profile.rollups("ann")] == ["day", "week", "day"]
    with pytest.raises(ValueError, match="level"):
        mm.profile.rollups("ann", "month")  # type: ignore[arg-type]
