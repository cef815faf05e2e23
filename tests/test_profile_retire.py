"""``mm.profile.retire``: a fact that stopped holding is closed, kept, and no longer cited.

On every backend of the suite (``mm`` fixture): the retired fact leaves the context and
the search, stays in ``facts()`` with its end, and another user cannot retire it.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryManager


def _lyon(mm: MemoryManager, user: str = "ann") -> str:
    mm.add_turn(user, "s1", user="I live in Lyon with my sister.", assistant="Nice!")
    mm.flush()
    facts = [f for f in mm.profile.facts(user) if f.object.startswith("Lyon")]
    assert len(facts) == 1
    return facts[0].id


def test_a_retired_fact_is_kept_closed_and_never_cited(mm: MemoryManager) -> None:
    fid = _lyon(mm)
    before = mm.build_context("ann", "s2", "where do I live?", 2000)
    assert any(it.layer == "fact" and "Lyon" in it.text for it in before.items)
    assert any(h.layer == "fact" for h in mm.search("ann", "Lyon", 10))
    fact = mm.profile.retire("ann", fid)
    assert fact.id == fid and fact.valid_to is not None and fact.superseded_by is None
    kept = [f for f in mm.profile.facts("ann") if f.id == fid]
    assert kept and kept[0].valid_to == fact.valid_to
    after = mm.build_context("ann", "s2", "where do I live?", 2000)
    assert not any(it.layer == "fact" and "Lyon" in it.text for it in after.items)
    assert not any(h.layer == "fact" for h in mm.search("ann", "Lyon", 10))
    assert mm.search("ann", "Lyon", 10)  # its message stays
    with pytest.raises(ValueError, match="closed already"):
        mm.profile.retire("ann", fid)


def test_retire_refuses_another_users_fact_and_bad_input(mm: MemoryManager) -> None:
    fid = _lyon(mm)
    mm.add_message("bob", "b1", "user", "hello")
    with pytest.raises(KeyError):
        mm.profile.retire("bob", fid)
    assert all(f.valid_to is None for f in mm.profile.facts("ann"))
    with pytest.raises(KeyError):
        mm.profile.retire("ann", "fact-none")
    with pytest.raises(ValueError, match="fact_id"):
        mm.profile.retire("ann", "")
    with pytest.raises(ValueError, match="valid_from"):
        mm.profile.retire("ann", fid, when=datetime(2000, 1, 1, tzinfo=timezone.utc))


def test_retire_at_a_time_and_awaited(mm: MemoryManager) -> None:
    fid = _lyon(mm)
    when = datetime.now(timezone.utc) + timedelta(days=1)
    fact = asyncio.run(mm.aio.profile.retire("ann", fid, when=when))
    assert fact.valid_to == when
