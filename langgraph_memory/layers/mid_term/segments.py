"""Mid-term memory: per user, segments of similar pages ranked by heat.

A page leaving short-term memory joins the active segment with the highest
``f_score`` (cosine + keyword Jaccard) at or above ``threshold``, else it starts
a new segment. Each segment keeps its keywords, a summary and its **heat**
(``α·visits + β·interactions + γ·exp(−Δt/μ)``). When more than ``capacity``
segments are active, the coldest is archived: it leaves mid-term retrieval, but
its pages stay stored and searchable as history. A segment whose heat passes
``τ`` is promoted: long-term entries are extracted from its pages, then its
visit and interaction counts restart.

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
from typing import Any

import numpy as np

from langgraph_memory.layers.short_term.pages import (
    Page,
    counts_of,
    decode_vector,
    encode_vector,
    heat,
    jaccard,
)

__all__ = ["Segment", "place_page", "coldest"]

_SEGMENT_KEYWORDS = 20


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
        """Count one retrieval."""
        self.visits += 1
        self.last_access = max(self.last_access, now or _now())

    def promoted(self) -> None:
        """Restart the counts after a promotion to long-term memory."""
        self.visits = 0
        self.interactions = 0
        self.promotions += 1

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
        }

    @classmethod
    def load(cls, user_id: str, d: dict[str, Any]) -> Segment:
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
            last_access=datetime.fromisoformat(d["last_access"]),
            archived=bool(d.get("archived", False)),
            promotions=int(d.get("promotions", 0)),
            dirty=bool(d.get("dirty", False)),
            sealed=int(d.get("sealed", 0)),
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
