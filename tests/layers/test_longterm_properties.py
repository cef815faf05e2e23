"""Property tests of long-term memory: conflict resolution, confidence, fact timelines."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from langgraph_memory.config import LongTermSection
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.layers.long_term.profile import SOURCE_RANK, SOURCES, ProfileEntry, resolve
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
SCOPES = (None, "p1", "p2")
confidences = st.floats(min_value=0, max_value=1, allow_nan=False)


@st.composite
def entry_lists(draw: st.DrawFn, min_size: int = 0) -> list[ProfileEntry]:
    """Entries of one user and key with unique ids; ties in every other field are likely."""
    n = draw(st.integers(min_size, 8))
    out = []
    for i in range(n):
        when = T0 + timedelta(hours=draw(st.integers(0, 3)))
        out.append(
            ProfileEntry(
                id=f"e{i}",
                user_id="u",
                key="k",
                value=draw(st.sampled_from(["tea", "coffee", "water"])),
                scope=draw(st.sampled_from(SCOPES)),
                source=draw(st.sampled_from(SOURCES)),
                confidence=draw(st.sampled_from([0.0, 0.2, 0.6, 0.8, 1.0]) | confidences),
                created_at=when,
                updated_at=when,
            )
        )
    return out


@given(entry_lists(), st.sampled_from(SCOPES), st.randoms(use_true_random=False))
def test_resolve_does_not_depend_on_order(
    entries: list[ProfileEntry], scope: str | None, rnd: random.Random
) -> None:
    shuffled = list(entries)
    rnd.shuffle(shuffled)
    a, b = resolve(entries, scope), resolve(shuffled, scope)
    assert (a and a.id) == (b and b.id)


@given(entry_lists(), st.sampled_from(SCOPES))
def test_resolve_only_returns_applicable_entries(
    entries: list[ProfileEntry], scope: str | None
) -> None:
    won = resolve(entries, scope)
    applicable = [e for e in entries if e.scope in (None, scope)]
    assert (won is None) == (not applicable)
    if won is not None:
        assert won.scope in (None, scope)


@given(entry_lists(min_size=1), st.sampled_from(["p1", "p2"]))
def test_scoped_beats_unscoped(entries: list[ProfileEntry], scope: str) -> None:
    won = resolve(entries, scope)
    if any(e.scope == scope for e in entries):
        assert won is not None and won.scope == scope


@given(entry_lists(min_size=1), st.sampled_from(SCOPES))
def test_stronger_source_beats_weaker_whatever_the_confidence(
    entries: list[ProfileEntry], scope: str | None
) -> None:
    won = resolve(entries, scope)
    if won is None:
        return
    rivals = [e for e in entries if e.scope == won.scope]  # same scope class as the winner
    assert SOURCE_RANK[won.source] == max(SOURCE_RANK[e.source] for e in rivals)
    if any(e.source == "explicit" for e in rivals):
        assert won.source == "explicit"
    same = [e for e in rivals if e.source == won.source]
    assert won.confidence == max(e.confidence for e in same)


def test_explicit_with_zero_confidence_still_beats_certain_inference() -> None:
    t = T0
    guess = ProfileEntry("a", "u", "k", "x", None, "inferred", 1.0, created_at=t, updated_at=t)
    said = ProfileEntry("b", "u", "k", "y", None, "explicit", 0.0, created_at=t, updated_at=t)
    assert resolve([guess, said]) is said


@given(
    st.sampled_from(SOURCES),
    st.lists(st.sampled_from(["reinforce", "correct"]), max_size=30),
    st.floats(0, 1),
    st.floats(0, 1),
)
def test_confidence_stays_in_unit_interval(
    source: str, ops: list[str], up: float, down: float
) -> None:
    lt = LongTermMemory(InMemoryBackend(), LongTermSection(reinforce_step=up, correct_step=down))
    e = lt.profile.upsert_preference("u", "drink", "tea", source=source)
    expected = e.confidence
    for op in ops:
        got = (lt.profile.reinforce if op == "reinforce" else lt.profile.correct)("u", e.id)
        assert got is not None
        expected = min(1.0, max(0.0, expected + (up if op == "reinforce" else -down)))
        assert 0.0 <= got.confidence <= 1.0
        assert abs(got.confidence - expected) < 1e-5
    in_context = lt.profile.for_context("u")
    assert in_context == (
        [] if lt.profile.get_preference("u", e.id).confidence <= 0.7 else in_context
    )
    assert all(x.confidence > 0.7 for x in in_context)


# -- fact timelines ---------------------------------------------------------------------
OBJECTS = ("Paris", "Berlin", "Rome")
add_ops = st.tuples(
    st.just("add"),
    st.sampled_from(OBJECTS),
    st.integers(0, 20),  # valid_from, in days
    st.one_of(st.none(), st.integers(1, 10)),  # length when bounded
)
delete_ops = st.tuples(st.just("delete"), st.integers(0, 50), st.just(0), st.none())


def _live(facts: list[Fact]) -> list[Fact]:
    return [f for f in facts if f.valid_to is None or f.valid_to > f.valid_from]


@given(st.lists(st.one_of(add_ops, add_ops, delete_ops), max_size=25))
def test_functional_timeline_invariants(ops: list[tuple[str, str | int, int, int | None]]) -> None:
    lt = LongTermMemory(InMemoryBackend(), clock=lambda: T0 + timedelta(days=100))
    seen: dict[str, None] = {}  # ids in the order first returned
    deleted: set[str] = set()
    for kind, obj, start, length in ops:
        if kind == "delete":
            ids = [i for i in seen if i not in deleted]
            assert isinstance(obj, int)
            if ids:
                victim = ids[obj % len(ids)]
                assert lt.delete("u", victim) == 1
                deleted.add(victim)
        else:
            assert isinstance(obj, str)
            t = T0 + timedelta(days=start)
            end = None if length is None else t + timedelta(days=length)
            kept = lt.facts.add_fact("u", "user", "lives_in", obj, valid_from=t, valid_to=end)
            seen[kept.id] = None
            deleted.discard(kept.id)  # the same assertion again has the same id
            # the newest assertion is what holds at its start
            assert [f.object for f in lt.facts.facts_at("u", t)] == [obj]
        facts = lt.facts.list_facts("u")
        # nothing is lost except what was deleted: superseded facts are kept
        assert {f.id for f in facts} == set(seen) - deleted
        live = sorted(_live(facts), key=lambda f: f.valid_from)
        # never two current facts, and at no instant two facts at once
        assert sum(f.valid_to is None for f in facts) <= 1
        for a, b in zip(live, live[1:], strict=False):
            assert a.valid_to is not None and a.valid_to <= b.valid_from
        for d in range(0, 32):
            assert len(lt.facts.facts_at("u", T0 + timedelta(days=d, hours=12))) <= 1
        for f in facts:
            if f.superseded_by is not None:
                assert f.valid_to is not None


@given(st.lists(st.tuples(st.sampled_from(OBJECTS), st.integers(0, 20)), max_size=20))
def test_non_functional_facts_accumulate_without_duplicates(adds: list[tuple[str, int]]) -> None:
    lt = LongTermMemory(InMemoryBackend(), clock=lambda: T0 + timedelta(days=100))
    for obj, start in adds:
        lt.facts.add_fact("u", "user", "likes", obj, valid_from=T0 + timedelta(days=start))
    facts = lt.facts.list_facts("u")
    assert all(f.valid_to is None and f.superseded_by is None for f in facts)
    assert sorted(f.object for f in facts) == sorted({o for o, _ in adds})
    if adds:
        assert len(lt.facts.facts_at("u", T0 + timedelta(days=20))) == len({o for o, _ in adds})


@given(
    st.lists(st.tuples(st.sampled_from(["alice", "bob"]), st.sampled_from(OBJECTS)), max_size=12)
)
def test_users_timelines_are_independent(adds: list[tuple[str, str]]) -> None:
    clock = {"now": T0}
    lt = LongTermMemory(InMemoryBackend(), clock=lambda: clock["now"])
    last: dict[str, str] = {}
    for user, obj in adds:
        clock["now"] += timedelta(days=1)
        lt.facts.add_fact(user, "user", "lives_in", obj)
        last[user] = obj
    for user in ("alice", "bob"):
        now = [f.object for f in lt.facts.facts_at(user)]
        assert now == ([last[user]] if user in last else [])
        assert all(f.user_id == user for f in lt.facts.list_facts(user))
