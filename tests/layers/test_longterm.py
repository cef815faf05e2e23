"""Long-term memory (profile, facts, agent traits) on every backend."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from langgraph_memory.config import LongTermSection
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.layers.long_term.profile import ProfileEntry
from langgraph_memory.storage import MemoryBackend, SQLiteBackend

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


class Clock:
    """A settable clock, so ``updated_at`` and default ``valid_from`` are predictable."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def tick(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def lt(backend: MemoryBackend, clock: Clock) -> LongTermMemory:
    return LongTermMemory(backend, clock=clock)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


# -- preferences: confidence ------------------------------------------------------------
def test_inferred_starts_at_06_and_follows_the_confidence_rules(lt: LongTermMemory) -> None:
    e = lt.profile.upsert_preference("u", "drink", "coffee", source_ids=["m1"])
    assert (e.source, e.confidence, e.source_ids) == ("inferred", 0.6, ["m1"])
    assert lt.profile.reinforce("u", e.id, source_ids=["m2"]).confidence == 0.8
    assert lt.profile.reinforce("u", e.id).confidence == 1.0
    assert lt.profile.reinforce("u", e.id).confidence == 1.0  # clamped
    assert lt.profile.correct("u", e.id).confidence == 0.6  # type: ignore[union-attr]
    assert lt.profile.correct("u", e.id).confidence == 0.2  # type: ignore[union-attr]
    assert lt.profile.correct("u", e.id).confidence == 0.0  # type: ignore[union-attr]
    assert lt.profile.get_preference("u", e.id).source_ids == ["m1", "m2"]


def test_explicit_and_confirmed_start_levels(lt: LongTermMemory) -> None:
    assert lt.profile.upsert_preference("u", "tone", "concise", source="explicit").confidence == 1.0
    assert (
        lt.profile.upsert_preference("u", "tz", "Asia/Tokyo", source="confirmed").confidence == 0.8
    )
    assert lt.profile.upsert_preference("u", "x", "y", confidence=0.3).confidence == 0.3


def test_only_entries_above_threshold_enter_context(lt: LongTermMemory) -> None:
    guess = lt.profile.upsert_preference("u", "drink", "coffee")
    lt.profile.upsert_preference("u", "editor", "vim", confidence=0.7)  # not strictly above
    assert lt.profile.for_context("u") == []
    lt.profile.reinforce("u", guess.id)
    assert [(e.key, e.value) for e in lt.profile.for_context("u")] == [("drink", "coffee")]
    lt.profile.correct("u", guess.id)
    assert lt.profile.for_context("u") == []


def test_custom_config_numbers_are_used(backend: MemoryBackend) -> None:
    cfg = LongTermSection(inferred_confidence=0.5, reinforce_step=0.1, preference_threshold=0.55)
    lt = LongTermMemory(backend, cfg)
    e = lt.profile.upsert_preference("u", "drink", "tea")
    assert e.confidence == 0.5 and lt.profile.for_context("u") == []
    assert lt.profile.reinforce("u", e.id).confidence == 0.6
    assert [x.value for x in lt.profile.for_context("u")] == ["tea"]


# -- preferences: upsert and conflicts ----------------------------------------------------
def test_same_value_refreshes_instead_of_duplicating(lt: LongTermMemory, clock: Clock) -> None:
    a = lt.profile.upsert_preference("u", "Drink ", "tea", source_ids=["m1"])
    clock.tick(hours=1)
    b = lt.profile.upsert_preference("u", "drink", "tea", source_ids=["m2", "m1"])
    assert a.id == b.id and b.key == "drink"
    assert b.source_ids == ["m1", "m2"]
    assert (b.created_at, b.updated_at) == (T0, T0 + timedelta(hours=1))
    assert len(lt.profile.list_preferences("u")) == 1


def test_reinferred_guess_keeps_its_corrected_confidence(lt: LongTermMemory) -> None:
    e = lt.profile.upsert_preference("u", "drink", "coffee")
    lt.profile.correct("u", e.id)
    assert lt.profile.upsert_preference("u", "drink", "coffee").confidence == 0.2
    said = lt.profile.upsert_preference("u", "tone", "formal", source="explicit")
    lt.profile.correct("u", said.id)
    assert lt.profile.upsert_preference("u", "tone", "formal", source="explicit").confidence == 1.0


def test_new_value_replaces_the_entry_of_that_source(lt: LongTermMemory, clock: Clock) -> None:
    e = lt.profile.upsert_preference("u", "drink", "coffee", source_ids=["m1"])
    lt.profile.reinforce("u", e.id)
    clock.tick(days=1)
    f = lt.profile.upsert_preference("u", "drink", "tea", source_ids=["m9"])
    assert f.id == e.id
    assert (f.value, f.confidence, f.source_ids, f.created_at) == ("tea", 0.6, ["m9"], day(1))
    assert len(lt.profile.list_preferences("u")) == 1


def test_explicit_beats_inferred_whatever_the_confidence(lt: LongTermMemory) -> None:
    guess = lt.profile.upsert_preference("u", "drink", "coffee", confidence=1.0)
    said = lt.profile.upsert_preference("u", "drink", "tea", source="explicit", confidence=0.75)
    lt.profile.upsert_preference("u", "drink", "water", source="confirmed", confidence=0.95)
    assert len(lt.profile.list_preferences("u", key="drink")) == 3
    assert lt.profile.effective_profile("u")["drink"].id == said.id
    assert [e.value for e in lt.profile.for_context("u")] == ["tea"]
    lt.profile.correct("u", said.id)  # explicit now 0.35: confirmed takes over in context
    assert [e.value for e in lt.profile.for_context("u")] == ["water"]
    assert lt.profile.effective_profile("u")["drink"].value == "tea"  # unfiltered resolution
    assert guess.id in {e.id for e in lt.profile.list_preferences("u")}


def test_scoped_entry_beats_global_only_in_its_scope(lt: LongTermMemory) -> None:
    lt.profile.upsert_preference("u", "language", "Python", source="explicit")
    lt.profile.upsert_preference(
        "u", "language", "Go", source="inferred", scope="proj-x", confidence=0.8
    )
    lt.profile.upsert_preference("u", "language", "Rust", source="explicit", scope="proj-y")
    assert lt.profile.effective_profile("u", "proj-x")["language"].value == "Go"
    assert lt.profile.effective_profile("u", "proj-y")["language"].value == "Rust"
    assert lt.profile.effective_profile("u")["language"].value == "Python"
    assert lt.profile.effective_profile("u", "other")["language"].value == "Python"
    assert lt.profile.effective_profile("u", "global")["language"].value == "Python"
    assert {e.value for e in lt.profile.list_preferences("u", scope="proj-x")} == {"Python", "Go"}


def test_low_confidence_scoped_guess_does_not_hide_a_usable_entry(lt: LongTermMemory) -> None:
    lt.profile.upsert_preference("u", "language", "Python", source="explicit")
    lt.profile.upsert_preference("u", "language", "Go", scope="proj-x")  # inferred, 0.6
    assert lt.profile.effective_profile("u", "proj-x")["language"].value == "Go"
    assert [e.value for e in lt.profile.for_context("u", "proj-x")] == ["Python"]


def test_correct_with_a_value_stores_it_as_explicit(lt: LongTermMemory) -> None:
    guess = lt.profile.upsert_preference("u", "drink", "coffee", polarity="positive", scope="work")
    new = lt.profile.correct("u", guess.id, value="tea", source_ids=["m5"])
    assert new is not None
    assert (new.value, new.source, new.scope, new.polarity) == (
        "tea",
        "explicit",
        "work",
        "positive",
    )
    assert lt.profile.get_preference("u", guess.id).confidence == 0.2
    assert lt.profile.correct("u", guess.id, delete=True) is None
    with pytest.raises(KeyError):
        lt.profile.get_preference("u", guess.id)


def test_preference_texts_in_english_and_chinese(lt: LongTermMemory) -> None:
    a = lt.profile.upsert_preference(
        "u", "drink", "tea over coffee", source="explicit", polarity="positive"
    )
    b = lt.profile.upsert_preference(
        "u", "food", "cilantro", source="explicit", polarity="negative"
    )
    c = lt.profile.upsert_preference(
        "u", "timezone", "Asia/Tokyo", source="confirmed", scope="proj-1"
    )
    d = lt.profile.upsert_preference("u", "饮料", "绿茶", source="explicit", polarity="positive")
    assert a.text() == "User prefers tea over coffee (drink; explicit, 1.0)"
    assert b.text() == "User dislikes cilantro (food; explicit, 1.0)"
    assert c.text() == "In proj-1: User's timezone: Asia/Tokyo (confirmed, 0.8)"
    assert d.text() == "用户喜欢绿茶（饮料）（explicit, 1.0）"


# -- facts ------------------------------------------------------------------------------
def test_contradicting_fact_supersedes_and_keeps_the_old(lt: LongTermMemory) -> None:
    paris = lt.facts.add_fact(
        "u", "user", "lives_in", "Paris", valid_from=day(0), source_ids=["m1"]
    )
    berlin = lt.facts.add_fact(
        "u", "user", "lives in", "Berlin", valid_from=day(100), source_ids=["m2"]
    )
    old = {f.id: f for f in lt.facts.list_facts("u")}[paris.id]
    assert (old.valid_to, old.superseded_by) == (day(100), berlin.id)
    assert [f.object for f in lt.facts.facts_at("u", day(50))] == ["Paris"]
    assert [f.object for f in lt.facts.facts_at("u", day(100))] == ["Berlin"]
    assert [f.object for f in lt.facts.facts_at("u", day(-1))] == []
    assert [f.object for f in lt.facts.list_facts("u", include_superseded=False)] == ["Berlin"]
    assert len(lt.facts.list_facts("u", subject="User", relation="LIVES_IN")) == 2


@pytest.mark.parametrize("others", [3, 205])
def test_timeline_found_among_many_facts_of_the_subject(lt: LongTermMemory, others: int) -> None:
    # the subject's latest facts hold its timeline while they are fewer than the scan; past
    # it, the timeline is read on its own: the oldest value is superseded either way
    paris = lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0))
    for i in range(others):
        lt.facts.add_fact("u", "user", f"hobby_{i}", f"thing{i}", valid_from=day(1))
    berlin = lt.facts.add_fact("u", "user", "lives in", "Berlin", valid_from=day(100))
    old = {f.id: f for f in lt.facts.list_facts("u")}[paris.id]
    assert (old.valid_to, old.superseded_by) == (day(100), berlin.id)


def test_default_valid_from_is_now(lt: LongTermMemory, clock: Clock) -> None:
    a = lt.facts.add_fact("u", "user", "works_at", "Acme")
    clock.tick(days=3)
    b = lt.facts.add_fact("u", "user", "works_at", "Globex")
    assert (a.valid_from, b.valid_from) == (T0, day(3))
    assert [f.object for f in lt.facts.facts_at("u")] == ["Globex"]


def test_non_functional_relations_accumulate(lt: LongTermMemory) -> None:
    lt.facts.add_fact("u", "user", "likes", "jazz", valid_from=day(0))
    lt.facts.add_fact("u", "user", "likes", "tea", valid_from=day(5))
    lt.facts.add_fact("u", "Alice", "knows", "Bob", valid_from=day(5))
    assert sorted(f.object for f in lt.facts.facts_at("u", day(6))) == ["Bob", "jazz", "tea"]
    assert all(f.superseded_by is None for f in lt.facts.list_facts("u"))


def test_non_functional_fact_told_earlier_extends_backwards(lt: LongTermMemory) -> None:
    a = lt.facts.add_fact("u", "user", "likes", "jazz", valid_from=day(10))
    b = lt.facts.add_fact("u", "user", "likes", "jazz", valid_from=day(2))
    assert (b.id, b.valid_from) == (a.id, day(2)) and len(lt.facts.list_facts("u")) == 1


def test_identical_reassertion_refreshes(lt: LongTermMemory, clock: Clock) -> None:
    a = lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0), source_ids=["m1"])
    a2 = lt.facts.add_fact("u", "user", "likes", "jazz", source_ids=["m1"], confidence=0.6)
    clock.tick(days=10)
    b = lt.facts.add_fact("u", "user", "lives_in", " paris ", source_ids=["m3"], confidence=0.7)
    b2 = lt.facts.add_fact("u", "user", "likes", "Jazz", source_ids=["m4"], confidence=0.9)
    assert (b.id, b2.id) == (a.id, a2.id)
    assert (b.source_ids, b.confidence, b.updated_at) == (["m1", "m3"], 1.0, day(10))
    assert (b2.source_ids, b2.confidence) == (["m1", "m4"], 0.9)
    assert b.valid_from == day(0) and len(lt.facts.list_facts("u")) == 2


def test_chinese_functional_relation(lt: LongTermMemory) -> None:
    lt.facts.add_fact("u", "用户", "住在", "上海", valid_from=day(0))
    bj = lt.facts.add_fact("u", "用户", "住在", "北京", valid_from=day(30))
    assert [f.object for f in lt.facts.facts_at("u", day(31))] == ["北京"]
    assert bj.text() == "用户住在北京（自 2024-01-31 起；此前：上海）"


def test_earlier_fact_is_bounded_by_the_later_one(lt: LongTermMemory) -> None:
    berlin = lt.facts.add_fact("u", "user", "lives_in", "Berlin", valid_from=day(100))
    paris = lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0))
    assert (paris.valid_to, paris.superseded_by) == (day(100), berlin.id)
    assert lt.facts.facts_at("u", day(100))[0].valid_to is None
    # the same object told as having started earlier extends the later fact backwards
    again = lt.facts.add_fact("u", "user", "lives_in", "Berlin", valid_from=day(50))
    assert (again.id, again.valid_from) == (berlin.id, day(50))
    assert [f.object for f in lt.facts.facts_at("u", day(60))] == ["Berlin"]
    assert {f.id: f for f in lt.facts.list_facts("u")}[paris.id].valid_to == day(50)


def test_bounded_fact_and_close_fact(lt: LongTermMemory) -> None:
    a = lt.facts.add_fact("u", "user", "works_at", "Acme", valid_from=day(0), valid_to=day(10))
    assert [f.object for f in lt.facts.facts_at("u", day(20))] == []
    b = lt.facts.add_fact("u", "user", "works_at", "Globex", valid_from=day(20))
    closed = lt.facts.close_fact("u", b.id, day(40))
    assert closed.valid_to == day(40) and closed.superseded_by is None
    assert lt.facts.facts_at("u", day(41)) == [] and a.valid_to == day(10)
    with pytest.raises(ValueError, match="closed already"):
        lt.facts.close_fact("u", b.id, day(50))
    with pytest.raises(ValueError, match="later than valid_from"):
        lt.facts.add_fact("u", "user", "works_at", "X", valid_from=day(5), valid_to=day(5))


def test_deleting_a_fact_reopens_the_one_it_superseded(lt: LongTermMemory) -> None:
    paris = lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0))
    wrong = lt.facts.add_fact("u", "user", "lives_in", "Lyon", valid_from=day(10))
    assert lt.delete("u", wrong.id) == 1
    back = lt.facts.list_facts("u")
    assert [(f.id, f.valid_to, f.superseded_by) for f in back] == [(paris.id, None, None)]


def test_functional_relations_are_configurable(backend: MemoryBackend) -> None:
    lt = LongTermMemory(
        backend, LongTermSection(functional_relations=frozenset({"Favourite Color"}))
    )
    lt.facts.add_fact("u", "user", "favourite_color", "red", valid_from=day(0))
    lt.facts.add_fact("u", "user", "favourite color", "blue", valid_from=day(1))
    lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0))
    lt.facts.add_fact("u", "user", "lives_in", "Rome", valid_from=day(1))  # no longer functional
    assert sorted(f.object for f in lt.facts.facts_at("u", day(2))) == ["Paris", "Rome", "blue"]


def test_fact_text_shows_span_and_supersession(lt: LongTermMemory) -> None:
    lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0))
    lt.facts.add_fact("u", "user", "lives_in", "Berlin", valid_from=day(31))
    texts = [f.text() for f in lt.facts.list_facts("u")]
    assert texts == [
        "User lives in Paris (from 2024-01-01 until 2024-02-01; superseded)",
        "User lives in Berlin (since 2024-02-01; earlier: Paris)",  # the current value first
    ]


# -- agent traits -----------------------------------------------------------------------
def test_traits_per_agent(lt: LongTermMemory) -> None:
    a = lt.add_trait("u", "code language", "Python", source_ids=["m1"])
    b = lt.add_trait("u", "tone", "academic", agent_id="writer")
    c = lt.add_trait("u", "code_language", "Python", source_ids=["m2"])
    assert c.id == a.id and c.source_ids == ["m1", "m2"]
    d = lt.add_trait("u", "code_language", "Java")
    assert d.id == a.id and d.source_ids == []
    assert len(lt.list_traits("u")) == 2
    assert {t.trait for t in lt.list_traits("u", "writer")} == {"code_language", "tone"}
    assert {t.trait for t in lt.list_traits("u", "coder")} == {"code_language"}
    assert b.text() == "Agent writer trait tone: academic"
    assert d.text() == "Agent trait code language: Java"


# -- everything -------------------------------------------------------------------------
def test_users_never_see_each_other(lt: LongTermMemory) -> None:
    pa = lt.profile.upsert_preference("alice", "drink", "tea", source="explicit")
    pb = lt.profile.upsert_preference("bob", "drink", "tea", source="explicit")
    fa = lt.facts.add_fact("alice", "user", "lives_in", "Paris", valid_from=day(0))
    ta = lt.add_trait("alice", "tone", "dry")
    assert pa.id != pb.id
    for other_ids in (pa.id, fa.id, ta.id):
        assert lt.delete("bob", other_ids) == 0
        assert lt.touch("bob", [other_ids]) == 0
    with pytest.raises(KeyError):
        lt.profile.get_preference("bob", pa.id)
    with pytest.raises(KeyError):
        lt.profile.reinforce("bob", pa.id)
    with pytest.raises(KeyError):
        lt.facts.close_fact("bob", fa.id)
    assert lt.facts.list_facts("bob") == [] and lt.facts.facts_at("bob", day(1)) == []
    assert lt.list_traits("bob") == []
    assert [e.id for e in lt.profile.list_preferences("bob")] == [pb.id]
    assert {t.id for t in lt.texts_for_search("bob")} == {pb.id}
    lt.facts.add_fact(
        "bob", "user", "lives_in", "Rome", valid_from=day(5)
    )  # no cross-user supersession
    assert lt.facts.facts_at("alice", day(6))[0].object == "Paris"


def test_texts_for_search(lt: LongTermMemory) -> None:
    lt.profile.upsert_preference(
        "u", "drink", "tea over coffee", source="explicit", polarity="positive", source_ids=["m7"]
    )
    lt.profile.upsert_preference("u", "drink", "coffee", confidence=0.9)  # shadowed by explicit
    lt.profile.upsert_preference("u", "music", "jazz")  # 0.6: observation only
    lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0), source_ids=["m1"])
    lt.facts.add_fact("u", "user", "lives_in", "Berlin", valid_from=day(31), source_ids=["m2"])
    lt.add_trait("u", "code_language", "Python", source_ids=["m3"])
    items = lt.texts_for_search("u")
    assert [(t.kind, t.text, t.source_ids) for t in items] == [
        ("profile", "User prefers tea over coffee (drink; explicit, 1.0)", ["m7"]),
        ("fact", "User lives in Paris (from 2024-01-01 until 2024-02-01; superseded)", ["m1"]),
        ("fact", "User lives in Berlin (since 2024-02-01; earlier: Paris)", ["m2"]),
        ("trait", "Agent trait code language: Python", ["m3"]),
    ]
    current = [t.text for t in lt.texts_for_search("u", include_history=False)]
    assert (
        "User lives in Berlin (since 2024-02-01; earlier: Paris)" in current and len(current) == 3
    )


def test_delete_touch_and_stats(lt: LongTermMemory, clock: Clock) -> None:
    p = lt.profile.upsert_preference("u", "drink", "tea", source="explicit")
    lt.profile.upsert_preference("u", "music", "jazz")
    lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=day(0))
    f = lt.facts.add_fact("u", "user", "lives_in", "Berlin", valid_from=day(1))
    t = lt.add_trait("u", "tone", "dry")
    clock.tick(days=5)
    assert lt.stats("u") == {
        "profile": 2,
        "profile_in_context": 1,
        "profile_explicit": 1,
        "profile_confirmed": 0,
        "profile_inferred": 1,
        "facts": 2,
        "facts_current": 1,
        "facts_superseded": 1,
        "traits": 1,
    }
    assert lt.touch("u", [p.id, f.id, t.id, "pref-nope", "nope"]) == 3
    assert lt.profile.get_preference("u", p.id).access_count == 1
    assert lt.profile.get_preference("u", p.id).last_accessed_at == day(5)
    assert lt.delete("u", [p.id, t.id, "nope"]) == 2
    assert lt.delete("u", f.id) == 1
    s = lt.stats("u")
    assert (s["profile"], s["traits"], s["facts"], s["facts_current"]) == (1, 0, 1, 1)


def test_backend_delete_user_removes_long_term_entries(
    backend: MemoryBackend, lt: LongTermMemory
) -> None:
    lt.profile.upsert_preference("a", "drink", "tea")
    lt.facts.add_fact("a", "user", "likes", "jazz")
    lt.add_trait("a", "tone", "dry")
    lt.add_trait("b", "tone", "warm")
    backend.delete_user("a")
    assert lt.profile.list_preferences("a") == [] and lt.facts.list_facts("a") == []
    assert lt.list_traits("a") == [] and len(lt.list_traits("b")) == 1


def test_entries_survive_reopening_sqlite(tmp_path: Path) -> None:
    b = SQLiteBackend(tmp_path / "store")
    lt = LongTermMemory(b)
    p = lt.profile.upsert_preference("u", "drink", {"like": "tea", "avoid": ["coffee"]}, scope="p1")
    f = lt.facts.add_fact(
        "u", "user", "lives_in", "Paris", valid_from="2020-01-01", source_ids=["m"]
    )
    b.close()
    b2 = SQLiteBackend(tmp_path / "store")
    try:
        lt2 = LongTermMemory(b2)
        assert lt2.profile.get_preference("u", p.id) == p
        assert lt2.facts.list_facts("u") == [f]
        assert isinstance(lt2.facts.list_facts("u")[0], Fact)
        assert isinstance(lt2.profile.list_preferences("u")[0], ProfileEntry)
    finally:
        b2.close()


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda lt: lt.profile.upsert_preference("u", "k", "v", source="guessed"), ValueError),
        (lambda lt: lt.profile.upsert_preference("u", "k", "v", polarity="love"), ValueError),
        (lambda lt: lt.profile.upsert_preference("u", "k", "v", confidence=1.5), ValueError),
        (lambda lt: lt.profile.upsert_preference("u", "k", "v", confidence=True), ValueError),
        (lambda lt: lt.profile.upsert_preference("u", "k", "  "), ValueError),
        (lambda lt: lt.profile.upsert_preference("u", "k", {1, 2}), ValueError),
        (lambda lt: lt.profile.upsert_preference("u", "k", "v", source_ids="m1"), TypeError),
        (lambda lt: lt.profile.upsert_preference("", "k", "v"), ValueError),
        (lambda lt: lt.profile.upsert_preference("u", "", "v"), ValueError),
        (lambda lt: lt.facts.add_fact("u", "user", "likes", ""), ValueError),
        (lambda lt: lt.facts.add_fact("u", "user", "likes", "x", valid_from="someday"), ValueError),
        (lambda lt: lt.facts.add_fact("u", "user", "likes", "x", confidence=-0.1), ValueError),
        (lambda lt: lt.add_trait("u", "tone", None), ValueError),
        (lambda lt: lt.profile.reinforce("u", "pref-missing"), KeyError),
    ],
)
def test_bad_input_is_refused(
    lt: LongTermMemory, call: Callable[[LongTermMemory], object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        call(lt)
    assert lt.stats("u")["profile"] == 0 and lt.facts.list_facts("u") == []


def test_config_is_validated(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="within"):
        LongTermSection(inferred_confidence=1.2)
    with pytest.raises(TypeError):
        LongTermSection(reinforce_step="0.2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        LongTermSection(functional_relations="lives_in")  # type: ignore[arg-type]
    default = LongTermMemory(SQLiteBackend(tmp_path)).functional_relations
    assert "lives_in" in default and "住在" in default
