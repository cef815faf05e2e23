"""The hierarchy in motion: places embedded messages into pages, chains and segments.

:class:`Hierarchy` runs on the background worker (after each embedded batch), never on the caller's
path. It caches every session's short-term state and every segment in process, written through to
the store (:mod:`~langgraph_memory.layers.hierarchy.records`). It also answers the read path:
segments ranked for a query (each retrieval warms them), a session's short-term pages, which segment
a message belongs to, and per-layer stats.

Messages never leave the message store here: a page that moves from short-term
to mid-term, or a segment that is archived, only changes which layer lists it.

Placement is recoverable (:mod:`~langgraph_memory.layers.hierarchy.recovery`: marks that bracket it,
replayed after a crash, or per-message flags when several processes embed at once), and several
processes on one store take turns: every write happens inside the store's writer lease (a *hold*,
see :meth:`Hierarchy.begin_hold`), and a user's cached state is reloaded when another process
changed it since (:mod:`~langgraph_memory.layers.hierarchy.coherence`).

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     for i in range(9):
    ...         _ = mm.add_turn("ann", "s1", user=f"Question {i} about tea?", assistant="Tea!")
    ...     mm.flush()
    ...     st = mm.stats("ann")["hierarchy"]
    >>> st["short_term_pages"], st["mid_term_pages"]
    (7, 2)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np

from langgraph_memory.config import HierarchySection
from langgraph_memory.core.concurrency import yield_gil
from langgraph_memory.core.records import Message
from langgraph_memory.layers.hierarchy.coherence import Coherence
from langgraph_memory.layers.hierarchy.erasure import (
    forget_in_segment,
    forget_in_state,
    remaining,
    seqs_left,
)
from langgraph_memory.layers.hierarchy.records import HierarchyRecords
from langgraph_memory.layers.hierarchy.recovery import Recovery, RecoveryStorage
from langgraph_memory.layers.mid_term.segments import Segment, coldest, place_page
from langgraph_memory.layers.mid_term.summaries import summarize
from langgraph_memory.layers.short_term.pages import Page, f_score
from langgraph_memory.layers.short_term.sessions import SessionState
from langgraph_memory.retrieval.scoring import heat_factor
from langgraph_memory.storage.capabilities import ClaimQueue, RecordStore, grouped

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from langgraph_memory.layers.working.redis_cache import WorkingMemoryCache

__all__ = ["Distiller", "Hierarchy", "HierarchyStorage", "Promoter", "RankedSegment"]

log = logging.getLogger(__name__)

#: Sessions expired per hold of the hierarchy lock.
_EXPIRE_CHUNK = 50
#: How many of a segment's latest pages its summary is made from.
_SUMMARY_PAGES = 40

Promoter = Callable[[str, Segment, list[Message]], int]


class Distiller(Protocol):
    """What reads every placed message into the layers (extraction on every exchange)."""

    def placed(self, messages: Sequence[Message]) -> int:
        """Messages just placed, of any users; returns entries written or refreshed."""
        ...


class HierarchyStorage(RecordStore, RecoveryStorage, Protocol):
    """The store as the hierarchy uses it: records, metadata and messages."""


class RankedSegment(NamedTuple):
    """A mid-term segment ranked for a query."""

    segment: Segment
    #: Its f_score with the query (cosine + keyword Jaccard).
    score: float
    #: ``f_score`` and ``heat``, for explanations.
    parts: dict[str, float]


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Hierarchy:
    """Short-term and mid-term memory of every user of one store.

    Args:
        storage: Where records, metadata and messages live.
        config: Capacities, thresholds and heat parameters.
        llm: Optional chat model for chain and segment summaries.
        promote: Called with ``(user_id, segment, messages)`` when a segment's
            heat passes ``config.heat_threshold``; returns entries written.
        claims: The store's claim queue when several processes embed at once
            (placement is then flagged per message, see
            :mod:`~langgraph_memory.layers.hierarchy.recovery`).
        distill: Called with every batch of messages placed (also when a crash is
            replayed); its errors are logged, never raised.
    """

    def __init__(
        self,
        storage: HierarchyStorage,
        config: HierarchySection,
        *,
        llm: BaseChatModel | None = None,
        promote: Promoter | None = None,
        claims: ClaimQueue | None = None,
        distill: Distiller | None = None,
    ) -> None:
        self.storage = storage
        self.config = config
        self.llm = llm
        self.promote = promote
        self.distill = distill
        #: Held while the cached state changes (re-entrant; readers take it too).
        self.lock = threading.RLock()
        self.kept = HierarchyRecords(storage)
        self.coherence = Coherence(storage)
        self.recovery = Recovery(storage, self, claims)
        self._stm: dict[tuple[str, str], SessionState] = {}
        self._segs: dict[str, dict[str, Segment]] = {}
        self._seg_of: dict[str, dict[int, str]] = {}
        self._visited: set[tuple[str, str]] = set()
        self._to_promote: set[tuple[str, str]] = set()
        self._last_expiry = time.monotonic()
        self.promoted = 0
        #: The working-memory cache told of each saved session state, or None.
        self.window: WorkingMemoryCache | None = None

    # -- state ------------------------------------------------------------------------
    def _heat_kw(self) -> dict[str, float]:
        c = self.config
        return {
            "alpha": c.heat_alpha,
            "beta": c.heat_beta,
            "gamma": c.heat_gamma,
            "mu_seconds": c.heat_mu_seconds,
        }

    # -- coherence between processes ---------------------------------------------------
    def begin_hold(self) -> None:
        """The writer lease was just taken: check each user's epoch again at first use,
        and re-read the placement marks (another process may have moved them)."""
        with self.lock:
            self.coherence.begin_hold()
            self.recovery.forget_marks()

    def end_hold(self) -> None:
        """The lease is about to be released: publish a new epoch for every user whose
        hierarchy this hold changed, so other processes reload it."""
        with self.lock:
            self.coherence.end_hold()

    def _fresh(self, user_id: str) -> None:
        """Drop the user's cached state when another process changed it since it was
        loaded (see :mod:`~langgraph_memory.layers.hierarchy.coherence`)."""
        if self.coherence.stale(user_id):
            self._drop(user_id)

    def _drop(self, user_id: str) -> None:
        self._stm = {k: v for k, v in self._stm.items() if k[0] != user_id}
        self._segs.pop(user_id, None)
        self._seg_of.pop(user_id, None)
        self._visited = {k for k in self._visited if k[0] != user_id}
        self._to_promote = {k for k in self._to_promote if k[0] != user_id}

    def state(self, user_id: str, session_id: str) -> SessionState:
        """The short-term memory of one session (loaded once, then cached)."""
        key = (user_id, session_id)
        with self.lock:
            self._fresh(user_id)
            st = self._stm.get(key)
            if st is None:
                st = self._stm[key] = self.kept.load_state(user_id, session_id)
            return st

    def segments(self, user_id: str) -> dict[str, Segment]:
        """Every segment of a user by id, archived ones included."""
        with self.lock:
            self._fresh(user_id)
            segs = self._segs.get(user_id)
            if segs is None:
                segs = self._segs[user_id] = self.kept.load_segments(user_id)
                self._seg_of[user_id] = {s: seg.id for seg in segs.values() for s in seg.seqs()}
            return segs

    def forget_user(self, user_id: str) -> None:
        """Drop a user's cached state (after ``delete_user``)."""
        with self.lock:
            self._drop(user_id)
            self.coherence.forget(user_id)

    def forget_messages(
        self,
        user_id: str,
        msgs: Sequence[Message],
        embed: Callable[[list[Message]], np.ndarray] | None = None,
    ) -> None:
        """Take deleted messages out of the user's short-term pages and mid-term segments
        (see :mod:`~langgraph_memory.layers.hierarchy.erasure`); the summaries made from them are
        made again from what remains, and with ``embed`` the vectors of the short-term pages they
        were in.
        Call it before or after the store deleted them (their ids are what counts)."""
        ids = {m.id for m in msgs}
        if not ids:
            return
        with self.lock:
            states = [self.state(user_id, s) for s in sorted({m.session_id for m in msgs})]
            segs = [
                seg
                for seg in self.segments(user_id).values()
                if ids & set(seg.summary_source_ids)
                or any(ids & set(p.message_ids) for p in seg.pages)
            ]
            pages = [p for st in states for p in st.pages] + [p for s in segs for p in s.pages]
            left = self._messages(user_id, seqs_left(pages, ids))
            mine = [m for m in left if any(m.seq in p.seqs for st in states for p in st.pages)]
            kept = remaining(left) | remaining(mine, embed(mine) if embed and mine else None)
            moved: dict[tuple[str, str], list[str]] = {}  # what moved pages lost, by chain
            changed = [seg for seg in segs if forget_in_segment(seg, ids, kept, moved)]
            # the chains first: a crash before the segments are saved finds their pages
            # again on the next run (the other order would lose what the chains count)
            for st in states:
                mine_moved = {c: w for (sid, c), w in moved.items() if sid == st.session_id}
                if forget_in_state(st, ids, kept, mine_moved):
                    self._summarize_chains(st)
                    self._save_state(st)
            for seg in changed:
                self._summarize_segment(seg)
                self.coherence.changed(user_id)
                self.kept.rewrite_segment(seg)
            seg_of = self._seg_of.get(user_id, {})
            for m in msgs:
                seg_of.pop(m.seq, None)

    # -- writing (background worker) ---------------------------------------------------
    def begin_batch(self, batch: Sequence[Message]) -> None:
        """Right before a batch's vectors are stored: mark how far embedding goes, so that
        a crash before the batch is placed can be replayed."""
        self.recovery.begin_batch(batch)

    def replay(self, embed: Callable[[list[Message]], np.ndarray]) -> int:
        """Place what was embedded but never placed (see :meth:`.Recovery.replay`)."""
        return self.recovery.replay(embed)

    def place_embedded(self, embed: Callable[[list[Message]], np.ndarray]) -> int:
        """Place what any process embedded (see :meth:`.Recovery.place_embedded`)."""
        return self.recovery.place_embedded(embed)

    def reload(self) -> None:
        """Forget every cached session state and segment (read again from the store)."""
        self._stm.clear()
        self._segs.clear()
        self._seg_of.clear()

    def on_embedded(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Place freshly embedded messages into pages, chains and segments.

        Segments are saved before session states, and the placed mark moves last (see
        :mod:`~langgraph_memory.layers.hierarchy.recovery`).
        """
        self.place(items)
        self.recovery.placed(items)
        self.run_pending()

    def place(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Place messages (in seq order) and save the segments and session states they
        changed, segments first."""
        cfg = self.config
        states: dict[tuple[str, str], SessionState] = {}
        segs: set[tuple[str, str]] = set()
        for msg, vec in sorted(items, key=lambda it: it[0].seq):
            # One message per hold of the lock, then the GIL goes round: readers ranking
            # segments wait for one placement, not a batch's (hundreds of ms).
            with self.lock:
                st = self.state(msg.user_id, msg.session_id)
                states[(msg.user_id, msg.session_id)] = st
                left = st.add(
                    msg,
                    vec,
                    capacity_pages=cfg.stm_capacity_pages,
                    capacity_tokens=cfg.stm_capacity_tokens,
                    chain_threshold=cfg.chain_threshold,
                )
                for page in left:
                    segs |= self._to_midterm(msg.user_id, page)
            yield_gil()
        with self.lock:
            touched = [self.segments(user_id)[seg_id] for user_id, seg_id in segs]
            for seg in touched:  # summaries (an LLM's, perhaps) before the store is held
                if seg.dirty:
                    self._summarize_segment(seg)
            for st in states.values():
                self._summarize_chains(st)
            self._restart_due(touched)
            with grouped(self.storage):  # one commit for the batch's saves
                for seg in touched:
                    self._save_segment(seg)
                for st in states.values():
                    self._save_state(st)
        if self.distill is not None:
            try:
                self.distill.placed([msg for msg, _ in items])
            except Exception:  # extraction never stops placement
                log.exception("extracting memory atoms from placed messages failed")

    def expire_sessions(self, now: datetime | None = None) -> int:
        """Hand every page of sessions idle longer than ``session_ttl_seconds`` on.

        The worker's housekeeping calls it under the manager's write lock; other callers
        should not race ``delete_user`` either (promotions run outside the hierarchy's
        own lock, see :meth:`run_pending`).

        Returns:
            How many pages moved to mid-term memory.
        """
        now = now or _now()
        ttl = timedelta(seconds=self.config.session_ttl_seconds)
        moved = 0
        sessions = self.kept.sessions()
        for start in range(0, len(sessions), _EXPIRE_CHUNK):
            # A chunk of sessions per hold of the lock: readers get in between.
            with self.lock:
                touched: set[tuple[str, str]] = set()
                drained: list[SessionState] = []
                for user_id, session_id in sessions[start : start + _EXPIRE_CHUNK]:
                    st = self.state(user_id, session_id)
                    if not st.pages or st.last_active is None or now - st.last_active < ttl:
                        continue
                    for page in st.drain(self.config.chain_threshold):
                        touched |= self._to_midterm(st.user_id, page)
                        moved += 1
                    drained.append(st)
                # Segments first, as in on_embedded; each once per chunk.
                for user_id, seg_id in touched:
                    self._save_segment(self.segments(user_id)[seg_id])
                for st in drained:
                    self._save_state(st)
            yield_gil()
        self.run_pending()
        return moved

    def _to_midterm(self, user_id: str, page: Page) -> set[tuple[str, str]]:
        cfg = self.config
        segs = self.segments(user_id)
        index = self._seg_of.setdefault(user_id, {})
        if any(s in index for s in page.seqs):  # placed before a crash: replayed, not twice
            return set()
        seg, created = place_page(
            page, list(segs.values()), user_id, threshold=cfg.segment_threshold
        )
        if created:
            segs[seg.id] = seg
        for s in page.seqs:
            index[s] = seg.id
        touched = {(user_id, seg.id)}
        active = [s for s in segs.values() if not s.archived and s.id != seg.id]
        if len(active) + 1 > cfg.midterm_capacity:
            cold = coldest(active, _now(), **self._heat_kw())
            if cold is not None:
                cold.archived = True
                touched.add((user_id, cold.id))
        if seg.heat(_now(), **self._heat_kw()) > cfg.heat_threshold:
            self._to_promote.add((user_id, seg.id))
        return touched

    def _messages(self, user_id: str, seqs: list[int]) -> list[Message]:
        got = self.storage.get_messages(user_id, seqs)
        return [got[s] for s in seqs if s in got]

    def _summarize_chains(self, st: SessionState) -> None:
        by_id = {p.id: p for p in st.pages}
        for chain in st.chains.values():
            if not chain.dirty:
                continue
            seqs = [s for pid in chain.page_ids if pid in by_id for s in by_id[pid].seqs]
            summary = summarize(
                self._messages(st.user_id, seqs),
                llm=self.llm,
                max_tokens=self.config.chain_summary_tokens,
                what="topic thread of a conversation",
            )
            chain.summary, chain.summary_source_ids = summary.text, summary.source_ids
            chain.dirty = False

    def _summarize_segment(self, seg: Segment) -> None:
        seqs = [s for p in seg.pages[-_SUMMARY_PAGES:] for s in p.seqs]
        summary = summarize(
            self._messages(seg.user_id, seqs),
            llm=self.llm,
            max_tokens=self.config.segment_summary_tokens,
            what="group of related conversation turns",
        )
        seg.summary, seg.summary_source_ids = summary.text, summary.source_ids
        seg.dirty = False

    def _save_state(self, st: SessionState) -> None:
        self.coherence.changed(st.user_id)
        self.kept.save_state(st)
        if self.window is not None:  # the chain summaries, written through to Redis
            self.window.summaries_changed(st)

    def _save_segment(self, seg: Segment) -> None:
        if seg.dirty:
            self._summarize_segment(seg)
        self.coherence.changed(seg.user_id)
        self.kept.save_segment(seg)

    def run_pending(self) -> int:
        """Persist retrieval visits and run due promotions; returns promotions run."""
        done = 0
        with self.lock:
            visited, self._visited = self._visited, set()
            due, self._to_promote = self._to_promote, set()
            work: list[tuple[Segment, bool]] = []
            for user_id, seg_id in visited | due:
                seg = self.segments(user_id).get(seg_id)
                if seg is not None:
                    hot = (user_id, seg_id) in due and seg.heat(
                        _now(), **self._heat_kw()
                    ) > self.config.heat_threshold
                    work.append((seg, hot))
        for seg, hot in work:
            if hot:
                # Extraction runs outside the lock, so readers ranking segments do not
                # wait for it (callers hold the manager's write lock: no delete_user
                # runs meanwhile, and the worker is the only writer of segments).
                self._promote(seg)
                done += 1
            with self.lock:
                if self.segments(seg.user_id).get(seg.id) is seg:
                    self._save_segment(seg)
            yield_gil()
        return done

    def _restart_due(self, segs: Sequence[Segment]) -> None:
        """Without a promoter, a due segment's promotion only restarts its counts: done
        before the batch saves it (:meth:`run_pending` saved it a second time)."""
        if self.promote is None:
            for seg in segs:
                key = (seg.user_id, seg.id)
                if key in self._to_promote:
                    self._to_promote.discard(key)
                    if seg.heat(_now(), **self._heat_kw()) > self.config.heat_threshold:
                        seg.promoted()

    def _promote(self, seg: Segment) -> None:
        # Pages already promoted were extracted then; only the new ones are read again.
        fresh = seg.pages[-seg.interactions :] if seg.interactions else []
        pages = seg.pages if seg.promotions == 0 else fresh
        if self.promote is not None and pages:
            try:
                seqs = [s for p in pages for s in p.seqs]
                self.promoted += self.promote(seg.user_id, seg, self._messages(seg.user_id, seqs))
            except Exception:  # a failing extractor must not stop the hierarchy
                log.exception("promotion of segment %s failed", seg.id)
                return
        seg.promoted()

    # -- reading ------------------------------------------------------------------------
    def rank_segments(
        self,
        user_id: str,
        query_vector: np.ndarray | None,
        query_terms: Sequence[str],
        k: int,
        *,
        visit: bool = True,
    ) -> list[RankedSegment]:
        """The ``k`` active segments closest to a query, by f_score weighed by their heat
        (``segment_heat_weight``); each counts a visit."""
        terms = {t for t in query_terms if len(t) > 1}
        scored: list[RankedSegment] = []
        tau = max(self.config.heat_threshold, 1e-6)
        with self.lock:
            now = _now()
            for seg in self.segments(user_id).values():
                # A segment made by a placement still in progress has no summary until
                # it is saved; its pages are searchable as messages meanwhile.
                if seg.archived or seg.vector is None or not seg.summary:
                    continue
                vec = query_vector if query_vector is not None else np.zeros_like(seg.vector)
                closeness = f_score(vec, seg.vector, terms, seg.keywords())
                hot = seg.heat(now, **self._heat_kw())
                boost = heat_factor(hot, tau=tau, weight=self.config.segment_heat_weight)
                score = closeness * boost
                parts = {"f_score": closeness, "heat": hot, "heat_factor": boost}
                scored.append(RankedSegment(seg, score, parts))
            scored.sort(key=lambda x: (-x[1], x[0].id))
            top = scored[:k]
            if visit and top:
                for seg, _, _ in top:
                    seg.visit(now)
                    self._visited.add((user_id, seg.id))
                    if seg.heat(now, **self._heat_kw()) > self.config.heat_threshold:
                        self._to_promote.add((user_id, seg.id))
                # Visits are persisted (and promotions run) by the worker's next idle
                # pass, at most a second later: waking it on every query would make
                # readers queue behind its writes.
        return top

    def segment_of(self, user_id: str, seqs: Iterable[int]) -> dict[int, str]:
        """Message seq -> id of the segment holding its page, for the given seqs."""
        self.segments(user_id)
        with self.lock:
            index = self._seg_of.get(user_id, {})
            return {s: index[s] for s in seqs if s in index}

    def stats(self, user_id: str, hottest: int = 5) -> dict[str, Any]:
        """Per-layer counts, the hottest segments and the chains of each session."""
        with self.lock:
            states = [self.state(user_id, sid) for sid in self.kept.session_ids(user_id)]
            segs = list(self.segments(user_id).values())
            now = _now()
            active = [s for s in segs if not s.archived]
            hot = sorted(active, key=lambda s: -s.heat(now, **self._heat_kw()))[:hottest]
            return {
                "short_term_pages": sum(len(st.pages) for st in states),
                "sessions": len(states),
                "chains": {
                    st.session_id: [
                        {
                            "id": c.id,
                            "pages": len(c.page_ids),
                            "pages_total": c.pages_total,
                            "summary": c.summary,
                            "keywords": c.keywords(8),
                        }
                        for c in st.chains.values()
                    ]
                    for st in states
                    if st.chains
                },
                "mid_term_segments": len(active),
                "mid_term_pages": sum(len(s.pages) for s in active),
                "archived_segments": len(segs) - len(active),
                "archived_pages": sum(len(s.pages) for s in segs if s.archived),
                "hottest_segments": [
                    {
                        "id": s.id,
                        "heat": round(s.heat(now, **self._heat_kw()), 4),
                        "pages": len(s.pages),
                        "visits": s.visits,
                        "promotions": s.promotions,
                        "keywords": s.keywords(8),
                        "summary": s.summary,
                    }
                    for s in hot
                ],
                "promotions": sum(s.promotions for s in segs),
            }

    def maybe_expire(self, every_s: float = 60.0) -> None:
        """Run :meth:`expire_sessions` at most every ``every_s`` seconds (worker hook)."""
        if time.monotonic() - self._last_expiry >= every_s:
            self._last_expiry = time.monotonic()
            self.expire_sessions()
