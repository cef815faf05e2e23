"""A segment's heat over time, rebuilt from the events it keeps.

The heat a segment has at time ``t`` is the formula it is ranked and promoted by,
applied to the events up to ``t``::

    heat(t) = α·visits(t) + β·interactions(t) + γ·exp(−max(t − last_access(t), 0)/μ)

- ``visits(t)``: retrievals since the last promotion at or before ``t``. It is counted
  back from a value the segment knows (its visits now, or the visits a later promotion
  restarted), less the visits kept between ``t`` and then;
- ``interactions(t)``: pages gained since that promotion, counted back the same way. A
  page joined at its timestamp, kept between the promotions around it (a promotion
  records how many pages the segment held then);
- ``last_access(t)``: the latest access up to ``t``: the segment's creation, the
  timestamps of the pages joined by then, the visits, the stored ``last_access`` (an
  access made by then, at the latest now) and the latest access of the events no longer
  kept.

The segment keeps its last :data:`~.segments.VISIT_HISTORY` visits and
:data:`~.segments.PROMOTION_HISTORY` promotions, so the curve is exact from
``history_from`` (its creation while nothing was dropped) on, and at ``now`` it is the
segment's heat now.

Example:
    >>> from datetime import datetime, timedelta, timezone
    >>> from langgraph_memory.layers.mid_term.segments import Segment
    >>> t0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
    >>> seg = Segment("seg-1", "u", created_at=t0, last_access=t0)
    >>> for h in (1, 2, 3):
    ...     seg.visit(t0 + timedelta(hours=h))
    >>> seg.promoted(t0 + timedelta(hours=4))
    >>> now = t0 + timedelta(hours=5)
    >>> curve = heat_curve(seg, now, samples=6, gamma=0.0)
    >>> [(p.at.hour, p.heat) for p in curve if p.at.minute == 0 and p.at.second == 0]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(0, 0.0), (1, 0.0), (1, 1.0), (2, 1.0), (2, 2.0), (3, 2.0), (3, 3.0), (4, 3.0),
     (4, 0.0), (5, 0.0)]
    >>> curve[-1].heat == seg.heat(now, gamma=0.0)
    True
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from datetime import datetime, timezone
from typing import NamedTuple

import numpy as np

from langgraph_memory.layers.mid_term.segments import Segment
from langgraph_memory.layers.short_term.pages import heat

__all__ = ["HeatPoint", "heat_curve", "MAX_SAMPLES"]

#: The most evenly spaced samples a curve takes (events add two points each).
MAX_SAMPLES = 1000
#: The latest page joins that add points of their own (all pages count in the heat).
_PAGE_EVENTS = 200


class HeatPoint(NamedTuple):
    """A segment's heat at a time.

    Attributes:
        at: When (UTC).
        heat: Its heat then. At an event's time the curve has two points: the heat just
            before the event, then with it.
    """

    at: datetime
    heat: float


class _Epoch:
    """The span between two promotions (or after the last): the counts it ends with
    (those the promotion closing it reset, or the segment's now), its visits' and its
    pages' join times (each sorted)."""

    __slots__ = ("end_visits", "end_pages", "visits", "joins")

    def __init__(self, end_visits: int, end_pages: int) -> None:
        self.end_visits = end_visits
        self.end_pages = end_pages
        self.visits: list[float] = []
        self.joins: list[float] = []


class _History:
    """A segment's events, sorted for :meth:`counts_at` (a few bisections a time)."""

    def __init__(self, seg: Segment, end: float) -> None:
        promos = seg.promotion_log
        self.bounds = [p.at for p in promos]
        self.epochs = [_Epoch(p.visits, p.interactions) for p in promos]
        self.epochs.append(_Epoch(seg.visits, seg.interactions))
        for v in seg.visit_times:  # a visit at a promotion's time was counted before it
            self.epochs[bisect_left(self.bounds, v)].visits.append(v)
        n = len(seg.pages)
        starts = [0]
        for p in promos:  # the page counts, never decreasing, at most the pages left
            starts.append(min(max(starts[-1], p.pages), n))
        starts.append(n)
        said = np.fromiter((p.timestamp.timestamp() for p in seg.pages), np.float64, n)
        joins = np.empty(n, np.float64)
        for e, ep in enumerate(self.epochs):
            lo = self.bounds[e - 1] if e > 0 else -math.inf
            hi = min(self.bounds[e], end) if e < len(self.bounds) else end
            clipped = np.clip(said[starts[e] : starts[e + 1]], lo, max(lo, hi))
            joins[starts[e] : starts[e + 1]] = clipped
            ep.joins = np.sort(clipped).tolist()
            ep.visits.sort()
        order = np.argsort(joins, kind="stable")
        self.join_at: list[float] = joins[order].tolist()
        # the latest page timestamp among the first k joined
        self.latest_ts: list[float] = np.maximum.accumulate(said[order]).tolist() if n else []
        self.visits = sorted(seg.visit_times)
        stored = seg.last_access.timestamp()
        self.stored = (min(stored, end), stored)  # (made by, value)
        floor = seg.created_at.timestamp()
        if seg.history_access is not None:
            floor = max(floor, seg.history_access.timestamp())
        self.floor = floor

    def counts_at(self, t: float, strict: bool) -> tuple[int, int, float]:
        """``(visits, interactions, last_access)`` with the events at or before ``t``
        (before ``t`` when ``strict``)."""
        cut = bisect_left if strict else bisect_right
        e = cut(self.bounds, t)
        ep = self.epochs[e]
        visits = ep.end_visits - (len(ep.visits) - cut(ep.visits, t))
        pages = ep.end_pages - (len(ep.joins) - cut(ep.joins, t))
        last = self.floor
        k = cut(self.join_at, t)
        if k:
            last = max(last, self.latest_ts[k - 1])
        k = cut(self.visits, t)
        if k:
            last = max(last, self.visits[k - 1])
        made, value = self.stored
        if (made < t) if strict else (made <= t):
            last = max(last, value)
        return max(visits, 0), max(pages, 0), last


def heat_curve(
    seg: Segment,
    now: datetime | None = None,
    *,
    samples: int = 120,
    since: datetime | None = None,
    alpha: float = 1.0,
    beta: float = 1.0,
    gamma: float = 1.0,
    mu_seconds: float = 1e7,
) -> list[HeatPoint]:
    """The segment's heat from ``history_from`` (or its creation; or ``since`` when
    later) to ``now``, oldest first: ``samples`` evenly spaced times, and each kept
    visit, promotion and latest page join twice (the heat just before it, then with it).

    Args:
        seg: The segment (read only; hold the hierarchy's lock while this runs).
        now: The curve's end (default: now).
        samples: Evenly spaced times (2 to :data:`MAX_SAMPLES`).
        since: Start no earlier than this (a zoom on the latest events).
        alpha: Weight of visits (``α``, as configured).
        beta: Weight of pages gained (``β``).
        gamma: Weight of recency (``γ``).
        mu_seconds: Time constant of recency (``μ``).

    Raises:
        ValueError: When ``samples`` is out of range.
    """
    if isinstance(samples, bool) or not isinstance(samples, int):
        raise TypeError(f"samples must be an int, got {type(samples).__name__}")
    if not 2 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be between 2 and {MAX_SAMPLES}, got {samples}")
    end = (now or datetime.now(timezone.utc)).timestamp()
    start = (seg.history_from or seg.created_at).timestamp()
    if since is not None:
        start = max(start, since.timestamp())
    start = min(start, end)
    hist = _History(seg, end)
    times = {(start + (end - start) * k / (samples - 1), 1) for k in range(samples - 1)}
    times.add((end, 1))
    events = [*seg.visit_times, *(p.at for p in seg.promotion_log)]
    events += hist.join_at[-_PAGE_EVENTS:]
    for t in events:
        if start < t <= end:
            times.add((t, 0))
            times.add((t, 1))
    out = []
    for t, with_it in sorted(times):
        visits, pages, last = hist.counts_at(t, strict=not with_it)
        value = heat(
            visits, pages, t - last, alpha=alpha, beta=beta, gamma=gamma, mu_seconds=mu_seconds
        )
        out.append(HeatPoint(datetime.fromtimestamp(t, tz=timezone.utc), value))
    return out
