"""``mm.inspect``: read-only pages of a user's memory, on every backend of the ``mm`` fixture.

Pages are keyset pages: walking them covers every message exactly once, newest first,
also while messages are added; another user's data never shows; a deleted message is
gone from every view.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import GatedEmbeddings

from langgraph_memory import MemoryManager
from langgraph_memory.config import HierarchySection, MemoryConfig
from langgraph_memory.core.records import Message, Record
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.mid_term.segments import Segment
from langgraph_memory.parts.inspect import Fact, Listing, SessionRow
from langgraph_memory.storage import MemoryBackend, RecordStore, StorageCore


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
    assert (ov.messages, ov.sessions, ov.pending, ov.quarantined) == (12, 3, 0, 0)
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


def _talk(mm: MemoryManager) -> None:
    """ann says things extraction reads (a preference, facts, one superseding another,
    an instruction), over enough turns that pages leave short-term memory."""
    said = [
        "I prefer green tea in the morning.",
        "I live in Lyon.",
        "Always answer in short bullet points.",
        "My sister Alice lives in Berlin.",
        "I moved to Paris last month.",
        "我更喜欢喝乌龙茶",
    ]
    for i in range(24):
        text = said[i] if i < len(said) else f"Turn {i}: the garden fence needs paint {i}."
        mm.add_turn("ann", "s1" if i < 16 else "s2", user=text, assistant=f"Noted ({i}).")
    mm.add_turn("bob", "s1", user="I prefer coffee. I live in Rome.", assistant="ok")
    mm.flush()


def test_profile_views_match_the_profile_part(mm: MemoryManager) -> None:
    _talk(mm)
    prof = mm.inspect.profile("ann", limit=500)
    prefs = mm.profile.preferences("ann")
    assert prefs and {p.id for p in prof.preferences.items} == {p.id for p in prefs}
    facts = mm.profile.facts("ann")
    current = [f for f in facts if f.superseded_by is None and f.valid_to is None]
    assert {f.id for f in prof.current_facts.items} == {f.id for f in current}
    assert {f.id for f in prof.superseded_facts.items} == {f.id for f in facts} - {
        f.id for f in current
    }
    assert all(f.superseded_by or f.valid_to for f in prof.superseded_facts.items)
    assert prof.threshold == mm.config.long_term.preference_threshold
    assert {a.id for a in prof.instructions.items} == {a.id for a in mm.anchors.list("ann")}
    assert all(p.user_id == "ann" for p in prof.preferences.items)
    # every list pages through all of its records once, newest first
    for layer in ("facts", "current_facts", "superseded_facts", "preferences"):
        whole = mm.inspect.records("ann", layer, limit=500).items
        paged = _walk(lambda c, n, k=layer: mm.inspect.records("ann", k, cursor=c, limit=n), 1)
        assert [x.id for x in paged] == [x.id for x in whole]
        stamps = [x.created_at for x in paged]
        assert stamps == sorted(stamps, reverse=True)
    bob = mm.inspect.records("bob", "facts", limit=500).items
    assert bob and all(f.user_id == "bob" for f in bob)
    assert not {f.id for f in bob} & {f.id for f in facts}


def test_entities_with_their_relations(mm: MemoryManager) -> None:
    _talk(mm)
    ents = _walk(lambda c, n: mm.inspect.entities("ann", cursor=c, limit=n), 2)
    assert {e.entity.id for e in ents} == {e.id for e in mm.profile.entities("ann")}
    for ev in ents:
        assert all(isinstance(f, Fact) for f in ev.relations)
        assert all(f.subject.casefold() == ev.entity.name.casefold() for f in ev.relations)


def test_sessions_and_segments(mm: MemoryManager) -> None:
    _talk(mm)
    view = mm.inspect.session("ann", "s1")
    assert (view.session.session_id, view.session.messages) == ("s1", 32)
    stats = mm.stats("ann")
    window_ids = [mid for p in view.window for mid in p.message_ids]
    assert 0 < len(view.window) <= mm.config.hierarchy.stm_capacity_pages
    s1 = {m.id for m in mm.inspect.messages("ann", session_id="s1", limit=500).items}
    assert set(window_ids) <= s1
    assert view.window_tokens == sum(p.tokens for p in view.window)
    assert {c.id for c in view.chains} == {c["id"] for c in stats["hierarchy"]["chains"]["s1"]}
    with pytest.raises(KeyError):
        mm.inspect.session("ann", "nope")
    with pytest.raises(KeyError):
        mm.inspect.session("bob", "s2")
    segs = _walk(lambda c, n: mm.inspect.segments("ann", cursor=c, limit=n), 1)
    assert len(segs) == stats["hierarchy"]["mid_term_segments"] > 0
    heats = [s.heat for s in segs]
    assert heats == sorted(heats, reverse=True)
    archived = mm.inspect.segments("ann", archived=True, limit=500).items
    assert len(archived) == stats["hierarchy"]["archived_segments"]
    placed = set(window_ids)
    for seg in segs:
        pages = _walk(
            lambda c, n, sid=seg.id: mm.inspect.segment("ann", sid, cursor=c, limit=n).pages, 1
        )
        detail = mm.inspect.segment("ann", seg.id)
        assert len(pages) == seg.pages == len(detail.page_times)
        assert detail.segment.id == seg.id
        times = list(detail.page_times)
        assert times == sorted(times)
        placed |= {mid for p in pages for mid in p.message_ids}
    # every message of ann's first session is in its window or in a segment
    assert s1 <= placed
    with pytest.raises(KeyError):
        mm.inspect.segment("bob", segs[0].id)
    assert not {s.id for s in mm.inspect.segments("bob", archived=None).items} & {
        s.id for s in segs
    }


def test_a_segments_heat_over_time_is_kept_on_every_backend(
    make_backend: Callable[[str], MemoryBackend],
    backend_factories: dict[str, Callable[[Path], MemoryBackend]],
) -> None:
    """Retrievals visit segments (timed in memory: a read writes no row), the worker
    saves their times and the promotions with the segment's record; the inspector's
    curve ends at the heat now, on every backend (Chroma's too)."""
    config = MemoryConfig(hierarchy=HierarchySection(stm_capacity_pages=2, heat_threshold=3.0))
    for name in backend_factories:
        backend = make_backend(name)
        mm = MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=config)
        try:
            for i in range(10):
                text = f"Note {i}: green tea and the quarterly report"
                mm.add_turn("ann", "s1", user=text, assistant="OK.")
            mm.flush()
            for _ in range(5):
                mm.search("ann", "green tea quarterly report", layers=["mid_term"])
                mm.flush()  # the worker saves the visits (and runs due promotions)
            segs = mm.inspect.segments("ann", archived=None, limit=500).items
            assert segs, name
            stored = {
                r.id: Segment.load("ann", r.data)
                for r in mm._parts.storage.list_records("segment", "ann")
            }
            promoted = 0
            for seg in segs:
                d = mm.inspect.segment("ann", seg.id, samples=30)
                assert d.heat_curve[-1].heat == pytest.approx(d.segment.heat, rel=1e-12), name
                assert d.heat_curve[0].at == d.history_from
                assert [p.at for p in d.heat_curve] == sorted(p.at for p in d.heat_curve)
                assert len(d.heat_curve) >= 30
                kept = stored[seg.id]
                assert [v.timestamp() for v in d.visit_times] == kept.visit_times, name
                assert [p.timestamp() for p in d.promotion_times] == [
                    p.at for p in kept.promotion_log
                ], name
                assert len(d.promotion_times) == d.segment.promotions
                promoted += d.segment.promotions
            assert any(mm.inspect.segment("ann", s.id).visit_times for s in segs), name
            assert promoted, name
        finally:
            mm.close()
    with MemoryManager(backend=make_backend("memory"), embeddings=HashingEmbeddings()) as mm:
        with pytest.raises(ValueError, match="samples"):
            mm.inspect.segment("ann", "seg-x", samples=1)


def test_work_and_documents(mm: MemoryManager) -> None:
    for k in range(3):
        tid = mm.tasks.start("ann", "s1", f"book train {k}")
        mm.tasks.step("ann", tid, f"search trains {k}", tool_name="search")
        mm.tasks.complete("ann", tid, summary=f"booked {k}", target="trains")
    open_task = mm.tasks.start("ann", "s1", "plan the trip")
    mm.documents.add("ann", "# Guide\n## Wi-Fi\nOn the fridge.", document_id="g", version="1")
    mm.documents.add("ann", "# Guide\n## Wi-Fi\nAsk the desk.", document_id="g", version="2")
    mm.documents.add("bob", "# Bob's\nnotes", document_id="b")
    mm.flush()
    eps = mm.inspect.records("ann", "episodes").items
    assert sorted(e.outcome_summary for e in eps) == ["booked 0", "booked 1", "booked 2"]
    assert [
        t.id for t in mm.inspect.records("ann", "tasks").items if t.status == "in_progress"
    ] == [open_task]
    assert len(mm.inspect.records("ann", "lessons").items) == len(mm.tasks.lessons("ann"))
    docs = mm.inspect.records("ann", "documents").items
    assert [(d.document_id, d.version, [v["version"] for v in d.versions]) for d in docs] == [
        ("g", "2", ["1", "2"])
    ]
    assert [d.document_id for d in mm.inspect.records("bob", "documents").items] == ["b"]
    with pytest.raises(ValueError, match="layer"):
        mm.inspect.records("ann", "passwords")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cursor"):
        mm.inspect.records("ann", "episodes", cursor="12")


def test_each_backends_pages_equal_the_reference_pages(
    backend: MemoryBackend, gated_embeddings: type[GatedEmbeddings]
) -> None:
    """The storage's own pages (SQL on SQLite and PostgreSQL) equal what the reference
    implementation (:class:`StorageCore`'s, reading everything) gives on the same data,
    for every cursor, session, term set and page size tried."""
    emb = gated_embeddings()
    mm = MemoryManager(backend=backend, embeddings=emb)
    try:
        _seed(mm)
        emb.open()
        mm.flush()  # postings written for these...
        emb.gate.clear()  # ...not this one: held pending until the end (counted below)
        mm.add_message("ann", "s2", "user", "green tea again", message_id="w1")
        mm.delete("ann", "a5")
        store = mm._parts.storage
        seqs = [m.seq for m in store.iter_messages("ann")]
        cursors = [None, *seqs, seqs[-1] + 1]
        for before in cursors:
            for sid in (None, "s1", "s2", "nope"):
                for terms in ((), ("green", "tea"), ("北京",), ("tea",), ("zeppelin",)):
                    for limit in (1, 3, 50):
                        kw = {"session_id": sid, "terms": terms, "before": before, "limit": limit}
                        want = StorageCore.message_page(store, "ann", **kw)  # type: ignore[arg-type]
                        assert store.message_page("ann", **kw) == want, kw  # type: ignore[arg-type]
            for limit in (1, 2, 10):
                want_s = StorageCore.session_page(store, "ann", before=before, limit=limit)
                assert store.session_page("ann", before=before, limit=limit) == want_s
                if hasattr(backend, "SESSION_WALK"):  # SQLite: a walk too short for the page
                    backend.SESSION_WALK = 2  # lists every session's latest instead
                    assert store.session_page("ann", before=before, limit=limit) == want_s
                    del backend.SESSION_WALK
        st = store.stats("ann")
        counts = store.message_counts("ann")
        assert (counts.messages, counts.sessions) == (st.messages, st.sessions) == (12, 3)
        assert counts.pending == st.messages - st.embedded == 1
        now = datetime(2024, 5, 1, tzinfo=timezone.utc)
        for i in range(7):
            t = now + timedelta(seconds=i // 2)  # ties broken by id
            store.put_record(Record("note", f"n{i}", "ann", {"i": i}, t, t))
        store.put_record(Record("note", "x", "bob", {}, now, now))
        notes = store.list_records("note", "ann")
        marks = [None] + [(r.created_at.isoformat(), r.id) for r in notes]
        for mark in marks:
            for limit in (1, 3, 10):
                want_r = RecordStore.record_page(store, "note", "ann", before=mark, limit=limit)
                assert store.record_page("note", "ann", before=mark, limit=limit) == want_r
    finally:
        emb.open()
        mm.close()


def test_a_message_shows_what_was_read_from_it(mm: MemoryManager) -> None:
    mid = mm.add_message("ann", "s1", "user", "I prefer green tea. I live in Lyon.")
    other = mm.add_message("ann", "s1", "user", "The weather is grey.")
    mm.flush()
    view = mm.inspect.message("ann", mid)
    assert view.derived_complete
    layers = {d.layer for d in view.derived}
    assert {"preferences", "facts"} <= layers
    for d in view.derived:
        rec = d.record
        cited = [
            *getattr(rec, "source_ids", []),
            *getattr(rec, "message_ids", []),
            *(m[0] for m in getattr(rec, "mentions", [])),
        ]
        assert mid in cited, d
    bare = mm.inspect.message("ann", mid, derived=False)
    assert (bare.message, bare.derived, bare.derived_complete) == (view.message, (), False)
    read = {d.record.id for d in view.derived if d.layer in ("preferences", "facts")}
    assert read and not read & {d.record.id for d in mm.inspect.message("ann", other).derived}
    mm.delete("ann", mid)
    prefs = mm.inspect.records("ann", "preferences").items
    assert not any(mid in p.source_ids for p in prefs)
