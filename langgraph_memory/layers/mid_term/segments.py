"""Mid-term memory: per user, segments of similar pages ranked by heat.

A page leaving short-term memory joins the active segment with the highest
``f_score`` (cosine + keyword Jaccard) at or above ``threshold``, else it starts
a new segment. Each segment keeps its keywords, a summary and its **heat**
(``α·visits + β·interactions + γ·exp(−Δt/μ)``). When more than ``capacity``
segments are active, the coldest is archived: it leaves mid-term retrieval, but
its pages stay stored and searchable as history. A segment whose heat passes
``τ`` is promoted: long-term entries are extracted from its pages, then its
visit and interaction counts restart.

A segment also keeps the events its heat curve needs, bounded: the times of its last
:data:`VISIT_HISTORY` visits and its last :data:`PROMOTION_HISTORY` promotions (with the
counts each one reset), and since when those lists are complete (``history_from``).
With its pages' times they give its heat at any time since then (see
:mod:`langgraph_memory.layers.mid_term.heat_history`).

Example:
    >>> import numpy as np
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.layers.short_term.pages import Page
    >>> t = datetime(2024, 1, 1, tzinfo=timezone.utc)
    >>> segs: list[Segment] = []
    >>> for i, v in enumerate([[1, 0], [1, 0.1], [0, 1]]):
    ...     p = Page(f"p{i}", "s", [f"m{i}"], [i + 1], t, ["tea"] if i < 2 else ["rust"],
    ...              vector=np.array(v, dtype=np.float32), open=False)
    ...     seg, created = place_page(p, segs, "u", threshold=0.6)
    ...     if created:
    ...         segs.append(seg)
    >>> [len(s.pages) for s in segs]
    [2, 1]
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, NamedTuple

import numpy as np

from langgraph_memory.layers.short_term.pages import (
    Page,
    counts_of,
    decode_vector,
    encode_vector,
    heat,
    jaccard,
)

__all__ = ["Segment", "Promotion", "place_page", "coldest", "VISIT_HISTORY", "PROMOTION_HISTORY"]

_SEGMENT_KEYWORDS = 20
#: Visit times a segment keeps (the latest): ~18 bytes each in its record.
VISIT_HISTORY = 200
#: Promotions a segment keeps (the latest).
PROMOTION_HISTORY = 50


class Promotion(NamedTuple):
    """A promotion of a segment to long-term memory, and the counts it reset.

    Attributes:
        at: When (epoch seconds).
        visits: Its visits just before (``N_visit``, restarted at 0).
        interactions: Its pages gained just before (``L_interaction``, restarted at 0).
        pages: How many pages it held then (the pages after them joined later).
        last_access: Its ``last_access`` then (epoch seconds).
    """

    at: float
    visits: int
    interactions: int
    pages: int
    last_access: float

    def dump(self) -> dict[str, Any]:
        return self._asdict()

    @classmethod
    def load(cls, d: dict[str, Any]) -> Promotion:
        at = float(d["at"])
        return cls(
            at,
            int(d["visits"]),
            int(d["interactions"]),
            int(d["pages"]),
            float(d.get("last_access", at)),
        )


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(slots=True)
class Segment:
    """A group of similar pages of one user.

    Attributes:
        id: ``"seg-<random hex>"``, unique in the store.
        user_id: Whose.
        pages: Its pages (without vectors), in the order they joined.
        keyword_counts: Content words of its pages with their counts.
        vector: Sum of its pages' vectors (its direction is the topic).
        summary: What it is about.
        summary_source_ids: Messages the summary was made from.
        visits: Retrievals since the last promotion (``N_visit``).
        interactions: Pages gained since the last promotion (``L_interaction``).
        created_at: When it was made.
        last_access: When it was last retrieved or extended.
        archived: Evicted from mid-term retrieval (its pages stay searchable).
        promotions: How often it was promoted to long-term memory.
        dirty: Whether the summary is behind its pages.
        visit_times: When it was retrieved (epoch seconds, oldest first): the last
            :data:`VISIT_HISTORY` visits.
        promotion_log: Its promotions, oldest first: the last :data:`PROMOTION_HISTORY`.
        history_from: Since when ``visit_times`` and ``promotion_log`` hold every visit
            and promotion (``None``: since ``created_at``); its heat curve is exact from
            then on.
        history_access: The latest access (``last_access``) known at ``history_from``
            from the events no longer kept (``None``: none dropped).
    """

    id: str
    user_id: str
    pages: list[Page] = field(default_factory=list)
    keyword_counts: dict[str, int] = field(default_factory=dict)
    vector: np.ndarray | None = None
    summary: str = ""
    summary_source_ids: list[str] = field(default_factory=list)
    visits: int = 0
    interactions: int = 0
    created_at: datetime = field(default_factory=_now)
    last_access: datetime = field(default_factory=_now)
    archived: bool = False
    promotions: int = 0
    dirty: bool = True
    visit_times: list[float] = field(default_factory=list)
    promotion_log: list[Promotion] = field(default_factory=list)
    history_from: datetime | None = None
    history_access: datetime | None = None
    #: How many of its first pages are stored in sealed blocks of their own (see
    #: ``layers.hierarchy.BLOCK_PAGES``): saving it writes only the pages after them.
    sealed: int = 0
    #: ``keywords(limit)`` by limit, until the next page (placing a page asks every
    #: segment for its keywords: recounting them each time grew with the segment).
    _keywords: dict[int, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _keyword_set: frozenset[str] | None = field(default=None, repr=False, compare=False)

    def keywords(self, limit: int = _SEGMENT_KEYWORDS) -> list[str]:
        """Its most frequent keywords."""
        got = self._keywords.get(limit)
        if got is None:
            got = [w for w, _ in Counter(self.keyword_counts).most_common(limit)]
            self._keywords[limit] = got
        return list(got)

    def keyword_set(self) -> frozenset[str]:
        """:meth:`keywords` as a set (cached as they are)."""
        got = self._keyword_set
        if got is None:
            got = self._keyword_set = frozenset(self.keywords())
        return got

    def message_ids(self) -> list[str]:
        """Ids of the messages of its pages."""
        return [mid for p in self.pages for mid in p.message_ids]

    def seqs(self) -> list[int]:
        """Sequence numbers of the messages of its pages."""
        return [s for p in self.pages for s in p.seqs]

    def heat(
        self,
        now: datetime | None = None,
        *,
        alpha: float = 1.0,
        beta: float = 1.0,
        gamma: float = 1.0,
        mu_seconds: float = 1e7,
    ) -> float:
        """Its heat at ``now`` (see :func:`~langgraph_memory.layers.short_term.pages.heat`)."""
        idle = ((now or _now()) - self.last_access).total_seconds()
        return heat(
            self.visits,
            self.interactions,
            idle,
            alpha=alpha,
            beta=beta,
            gamma=gamma,
            mu_seconds=mu_seconds,
        )

    def forget_keywords(self) -> None:
        """Drop the cached :meth:`keywords` (after its pages' keywords changed)."""
        self._keywords.clear()
        self._keyword_set = None

    def add(self, page: Page) -> None:
        """Take ``page`` in (its vector is folded into the segment's, then dropped)."""
        if page.vector is not None:
            unit = page.vector / max(float(np.linalg.norm(page.vector)), 1e-12)
            self.vector = unit.copy() if self.vector is None else self.vector + unit
        counts = self.keyword_counts  # in place: a copy per page grew with the segment
        for word in page.keywords:
            counts[word] = counts.get(word, 0) + 1
        self._keywords.clear()
        self._keyword_set = None
        page.vector = None
        page.open = False
        self.pages.append(page)
        self.interactions += 1
        self.last_access = max(self.last_access, page.timestamp)
        self.dirty = True

    def visit(self, now: datetime | None = None) -> None:
        """Count one retrieval (its time kept, the last :data:`VISIT_HISTORY`)."""
        when = now or _now()
        self.visits += 1
        self.last_access = max(self.last_access, when)
        self.visit_times.append(when.timestamp())
        if len(self.visit_times) > VISIT_HISTORY:
            dropped = self.visit_times[-VISIT_HISTORY - 1]
            del self.visit_times[:-VISIT_HISTORY]
            self._complete_since(dropped, dropped)

    def promoted(self, now: datetime | None = None) -> None:
        """Restart the counts after a promotion to long-term memory (kept, with the
        counts it reset: the last :data:`PROMOTION_HISTORY`)."""
        at = (now or _now()).timestamp()
        self.promotion_log.append(
            Promotion(
                at, self.visits, self.interactions, len(self.pages), self.last_access.timestamp()
            )
        )
        self.visits = 0
        self.interactions = 0
        self.promotions += 1
        if len(self.promotion_log) > PROMOTION_HISTORY:
            dropped = self.promotion_log[-PROMOTION_HISTORY - 1]
            del self.promotion_log[:-PROMOTION_HISTORY]
            self._complete_since(dropped.at, dropped.last_access)

    def _complete_since(self, at: float, access: float) -> None:
        """The history is complete only from ``at`` on (an event at ``at`` was dropped;
        the latest access known then was ``access``): the visits up to then are of no
        use any more."""
        since = datetime.fromtimestamp(at, tz=timezone.utc)
        if self.history_from is None or since > self.history_from:
            self.history_from = since
        seen = datetime.fromtimestamp(access, tz=timezone.utc)
        if self.history_access is None or seen > self.history_access:
            self.history_access = seen
        self.visit_times = [v for v in self.visit_times if v > at]

    def dump(self, *, from_page: int = 0) -> dict[str, Any]:
        """Its record; ``from_page`` leaves out the pages before it (stored elsewhere)."""
        return {
            "id": self.id,
            "pages": [p.dump(with_vector=False) for p in self.pages[from_page:]],
            "sealed": from_page,
            "keyword_counts": self.keyword_counts,
            "vector": encode_vector(self.vector),
            "summary": self.summary,
            "summary_source_ids": self.summary_source_ids,
            "visits": self.visits,
            "interactions": self.interactions,
            "created_at": self.created_at.isoformat(),
            "last_access": self.last_access.isoformat(),
            "archived": self.archived,
            "promotions": self.promotions,
            "dirty": self.dirty,
            "visit_times": list(self.visit_times),
            "promotion_log": [p.dump() for p in self.promotion_log],
            "history_from": self.history_from.isoformat() if self.history_from else None,
            "history_access": self.history_access.isoformat() if self.history_access else None,
        }

    @classmethod
    def load(cls, user_id: str, d: dict[str, Any]) -> Segment:
        """A segment from its record (:meth:`dump`). A record written before the heat
        history was kept has none: its history then starts at its last access (since
        its creation when it was never visited nor promoted), where nothing before is
        known."""
        last_access = datetime.fromisoformat(d["last_access"])
        since = seen = None
        if "visit_times" in d:
            raw, acc = d.get("history_from"), d.get("history_access")
            since = datetime.fromisoformat(raw) if raw else None
            seen = datetime.fromisoformat(acc) if acc else None
        elif int(d.get("visits", 0)) or int(d.get("promotions", 0)):
            since = seen = last_access
        return cls(
            id=d["id"],
            user_id=user_id,
            pages=[Page.load(p) for p in d.get("pages", [])],
            keyword_counts=counts_of(d.get("keyword_counts")),
            vector=decode_vector(d.get("vector")),
            summary=d.get("summary", ""),
            summary_source_ids=list(d.get("summary_source_ids", [])),
            visits=int(d.get("visits", 0)),
            interactions=int(d.get("interactions", 0)),
            created_at=datetime.fromisoformat(d["created_at"]),
            last_access=last_access,
            archived=bool(d.get("archived", False)),
            promotions=int(d.get("promotions", 0)),
            dirty=bool(d.get("dirty", False)),
            sealed=int(d.get("sealed", 0)),
            visit_times=[float(v) for v in d.get("visit_times", [])],
            promotion_log=[Promotion.load(p) for p in d.get("promotion_log", [])],
            history_from=since,
            history_access=seen,
        )


def place_page(
    page: Page, segments: Sequence[Segment], user_id: str, *, threshold: float = 0.6
) -> tuple[Segment, bool]:
    """Put ``page`` into the best active segment, or a new one.

    Returns:
        ``(segment, created)``; a created segment is not in ``segments`` yet.
    """
    best = _best_segment(page, segments, threshold)
    created = best is None
    if best is None:
        best = Segment(
            f"seg-{uuid.uuid4().hex[:16]}",
            user_id,
            created_at=page.timestamp,
            last_access=page.timestamp,
        )
    best.add(page)
    return best, created


def _best_segment(page: Page, segments: Sequence[Segment], threshold: float) -> Segment | None:
    """The active segment of highest :func:`~..short_term.pages.f_score` at or above ``threshold``
    (the last one in ``segments`` on a tie), or ``None``.

    The cosines come from one product with the segments' vectors; the keyword Jaccard
    (at most 1) is counted only for segments whose cosine plus 1 can still reach the
    best score found, best cosine first.
    """
    if page.vector is None:
        return None
    pairs = [(s, s.vector) for s in segments if not s.archived and s.vector is not None]
    if not pairs:
        return None
    live = [s for s, _ in pairs]
    vec = np.asarray(page.vector, dtype=np.float32)
    page_norm = float(vec @ vec)
    if page_norm <= 0.0:
        return None
    mat = np.stack([v for _, v in pairs]).astype(np.float32, copy=False)
    norms = np.einsum("ij,ij->i", mat, mat).astype(np.float64) * page_norm
    dots = (mat @ vec).astype(np.float64)
    cos = np.divide(dots, np.sqrt(norms), out=np.zeros_like(dots), where=norms > 0.0)
    words = frozenset(page.keywords)
    best_at, best_score = -1, threshold
    for at in np.argsort(-cos, kind="stable").tolist():
        c = float(cos[at])
        if c + 1.0 < best_score:
            break
        score = c + jaccard(words, live[at].keyword_set())
        if score > best_score or (score == best_score and at > best_at):
            best_at, best_score = at, score
    return live[best_at] if best_at >= 0 else None


def coldest(
    segments: Sequence[Segment], now: datetime | None = None, **heat_kw: float
) -> Segment | None:
    """The active segment with the lowest heat (the oldest on ties)."""
    active = [s for s in segments if not s.archived]
    if not active:
        return None
    return min(active, key=lambda s: (s.heat(now, **heat_kw), s.last_access, s.id))
