"""A segment's heat over time (``layers.mid_term.heat_history``), against a replay.

The curve is rebuilt backward from what a segment keeps (its counts now, the counts each
promotion reset, its last visits' times, its pages); the reference here replays every
event forward from the start, as the segment lived them. They agree at every point of
the curve, the last point is the segment's heat now, the history stays bounded, and a
record saved before the history was kept loads (its curve starts where nothing before is
known).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langgraph_memory.layers.mid_term.heat_history import heat_curve
from langgraph_memory.layers.mid_term.segments import PROMOTION_HISTORY, VISIT_HISTORY, Segment
from langgraph_memory.layers.short_term.pages import Page, heat

T0 = datetime(2024, 3, 1, tzinfo=timezone.utc)
KW = {"alpha": 1.3, "beta": 0.7, "gamma": 2.0, "mu_seconds": 5000.0}


@dataclass
class Replay:
    """A segment and every event it lived, in order: ``(time, kind, page timestamp)``."""

    seg: Segment
    events: list[tuple[float, str, float]] = field(default_factory=list)

    def page(self, at: datetime, said: datetime | None = None) -> None:
        said = said or at
        n = len(self.seg.pages)
        self.seg.add(Page(f"p{n}", "s", [f"m{n}"], [n + 1], said, ["tea"], open=False))
        self.events.append((at.timestamp(), "page", said.timestamp()))

    def visit(self, at: datetime) -> None:
        self.seg.visit(at)
        self.events.append((at.timestamp(), "visit", 0.0))

    def promote(self, at: datetime) -> None:
        self.seg.promoted(at)
        self.events.append((at.timestamp(), "promote", 0.0))

    def heat_at(self, t: float, strict: bool) -> float:
        """The formula on the events up to ``t`` (before ``t`` when ``strict``), replayed
        from the segment's creation."""
        visits = pages = 0
        last = self.seg.created_at.timestamp()
        for at, kind, said in self.events:
            if at > t or (strict and at == t):
                break
            if kind == "visit":
                visits += 1
                last = max(last, at)
            elif kind == "page":
                pages += 1
                last = max(last, said)
            else:
                visits = pages = 0
        return heat(visits, pages, t - last, **KW)


def _new() -> Replay:
    seg = Segment("seg-1", "u", created_at=T0, last_access=T0)
    r = Replay(seg)
    r.page(T0)
    return r


def _agrees(r: Replay, now: datetime, samples: int = 50) -> None:
    curve = heat_curve(r.seg, now, samples=samples, **KW)
    assert [p.at for p in curve] == sorted(p.at for p in curve)
    for p in curve:
        t = p.at.timestamp()
        want = [r.heat_at(t, s) for s in (False, True)]  # (``at`` is to the microsecond)
        assert min(abs(p.heat - w) for w in want) < 1e-9, (p, want)
    assert curve[-1].heat == pytest.approx(r.seg.heat(now, **KW), rel=1e-12, abs=1e-12)
    assert curve[-1].at == now


@given(st.lists(st.tuples(st.integers(1, 900), st.sampled_from("ppvvvP")), max_size=40))
def test_the_curve_is_the_formula_replayed_at_every_point(steps: list[tuple[int, str]]) -> None:
    r = _new()
    t = T0
    for gap, kind in steps:  # distinct, increasing times: events never tie
        t += timedelta(seconds=gap)
        {"p": r.page, "v": r.visit, "P": r.promote}[kind](t)
    _agrees(r, t + timedelta(seconds=1234))


def test_the_last_point_is_the_heat_now_and_events_show_as_steps() -> None:
    r = _new()
    for h in range(1, 6):
        r.visit(T0 + timedelta(minutes=h))
    r.promote(T0 + timedelta(minutes=7))
    r.page(T0 + timedelta(minutes=8))
    now = T0 + timedelta(minutes=30)
    curve = heat_curve(r.seg, now, **KW)
    assert curve[-1].heat == pytest.approx(r.seg.heat(now, **KW), rel=1e-12)
    promo = T0 + timedelta(minutes=7)
    before, after = [p.heat for p in curve if p.at == promo]
    assert round(before - after, 6) == round(5 * KW["alpha"] + KW["beta"], 6)  # the reset
    _agrees(r, now)


def test_history_is_bounded_and_the_curve_exact_where_it_is_complete() -> None:
    r = _new()
    t = T0
    for i in range(VISIT_HISTORY + 60):
        t += timedelta(seconds=10)
        r.visit(t)
        if i % 40 == 39:
            t += timedelta(seconds=10)
            r.page(t)
    seg = r.seg
    assert len(seg.visit_times) == VISIT_HISTORY
    dropped = T0 + timedelta(seconds=10 * 61)  # the 60th visit (a page joined meanwhile)
    assert seg.history_from == dropped
    assert seg.history_access == dropped
    _agrees(r, t + timedelta(minutes=5))
    assert heat_curve(seg, t, **KW)[0].at == dropped
    for _ in range(PROMOTION_HISTORY + 5):
        t += timedelta(seconds=10)
        r.visit(t)
        t += timedelta(seconds=10)
        r.promote(t)
    assert len(seg.promotion_log) == PROMOTION_HISTORY
    assert len(seg.visit_times) <= VISIT_HISTORY
    assert seg.history_from is not None and seg.history_from > dropped
    _agrees(r, t + timedelta(minutes=5))
    # the record stays small: a few KB of history whatever the visits
    record = seg.dump()
    assert len(str(record["visit_times"])) + len(str(record["promotion_log"])) < 12_000


def test_a_page_said_long_ago_and_placed_after_a_promotion_counts_after_it() -> None:
    r = _new()
    r.visit(T0 + timedelta(hours=1))
    r.promote(T0 + timedelta(hours=2))
    # an imported message: said before the promotion, placed after it
    r.seg.add(Page("old", "s", ["m-old"], [99], T0 + timedelta(minutes=30), ["tea"], open=False))
    now = T0 + timedelta(hours=3)
    curve = heat_curve(r.seg, now, **KW)
    assert r.seg.interactions == 1
    assert curve[-1].heat == pytest.approx(r.seg.heat(now, **KW), rel=1e-12)
    # just after the promotion the page has joined: one page, no visit
    after = [p.heat for p in curve if p.at == T0 + timedelta(hours=2)][-1]
    assert after == pytest.approx(heat(0, 1, 3600.0, **KW))


def test_a_record_saved_before_the_history_loads() -> None:
    r = _new()
    for m in (1, 2, 3):
        r.visit(T0 + timedelta(minutes=m))
    old = r.seg.dump()
    for key in ("visit_times", "promotion_log", "history_from", "history_access"):
        old.pop(key)
    seg = Segment.load("u", old)
    assert (seg.visit_times, seg.promotion_log, seg.visits) == ([], [], 3)
    assert seg.history_from == seg.history_access == seg.last_access
    now = T0 + timedelta(hours=1)
    curve = heat_curve(seg, now, **KW)
    assert curve[0].at == seg.last_access
    assert curve[-1].heat == pytest.approx(seg.heat(now, **KW), rel=1e-12)
    # nothing was lost for a segment never visited nor promoted: its curve starts at birth
    fresh = _new()
    fresh.page(T0 + timedelta(minutes=5))
    plain = fresh.seg.dump()
    for key in ("visit_times", "promotion_log", "history_from", "history_access"):
        plain.pop(key)
    loaded = Segment.load("u", plain)
    assert loaded.history_from is None
    assert heat_curve(loaded, now, **KW)[0].at == T0
    # a new record round-trips its history
    again = Segment.load("u", r.seg.dump())
    assert again.visit_times == r.seg.visit_times
    assert heat_curve(again, now, **KW) == heat_curve(r.seg, now, **KW)


def test_since_zooms_on_the_latest_events_with_the_same_values() -> None:
    r = _new()
    for h in range(1, 30):
        r.visit(T0 + timedelta(days=h))
    now = T0 + timedelta(days=31)
    since = now - timedelta(days=5)
    zoom = heat_curve(r.seg, now, since=since, **KW)
    assert zoom[0].at == since and zoom[-1].at == now
    assert sum(1 for p in zoom if p.at == T0 + timedelta(days=29)) == 2  # a step
    for p in zoom:
        want = [r.heat_at(p.at.timestamp(), s) for s in (False, True)]
        assert min(abs(p.heat - w) for w in want) < 1e-9


def test_bad_samples_are_named() -> None:
    seg = _new().seg
    with pytest.raises(ValueError, match="samples"):
        heat_curve(seg, samples=1)
    with pytest.raises(TypeError, match="samples"):
        heat_curve(seg, samples=2.5)  # type: ignore[arg-type]
