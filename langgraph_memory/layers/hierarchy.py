"""The hierarchy in motion: places embedded messages into pages, chains and segments.

:class:`Hierarchy` runs on the background worker (after each embedded batch),
never on the caller's path. It keeps one record per session (kind ``"stm"``: the
short-term pages and chains) and one per segment (kind ``"segment"``), cached in
process and written through to the backend. It also answers the read path:
segments ranked for a query (each retrieval warms them), a session's
short-term pages, which segment a message belongs to, and per-layer stats.

Messages never leave the message store here: a page that moves from short-term
to mid-term, or a segment that is archived, only changes which layer lists it.

Placement is recoverable. Two store-wide marks (backend meta, plain seq numbers)
bracket it: ``hierarchy_embedding_seq``, written just before a batch's vectors
are stored, and ``hierarchy_placed_seq``, written once the batch's segments and
session states are saved (segments first: a page found in a segment already is
not placed again, and a session ignores seqs it has placed). When a process dies
between the two, or placement fails, :meth:`Hierarchy.replay` (run by the worker
before its next batch, so on every start) places the messages in between, in
seq order. This assumes one writer at a time per store, whose worker embeds the
oldest pending messages first, so messages are placed in increasing seq order.

Backends whose workers embed concurrently (``MemoryBackend.concurrent_embedding``:
PostgreSQL, several processes claiming batches with ``FOR UPDATE SKIP LOCKED``) break
that assumption: batches commit out of seq order, and a seq is drawn before its row
commits, so a placed-up-to-seq mark could pass a message that commits later and skip it
for good. There, placement is a per-message flag instead (:meth:`Hierarchy.place_embedded`):
the writer places what the backend lists as embedded but unplaced (each user's messages
in seq order, never past the user's oldest pending one) and flags it once its segments
and session states are saved. ``hierarchy_placing`` (:data:`PLACING_MARK`) is set while
a chunk is being placed: found set at the next placement, a placement died half-way
(in this process or another), and the cached state is reloaded before the chunk is
placed again (idempotently, as in a replay).

Several processes on one store take turns: every write happens inside the store's
writer lease (``MemoryBackend.writer_lease``, which the manager's worker holds for
a batch or a housekeeping pass, see :meth:`Hierarchy.begin_hold`). A user's cached
state is checked against a per-user epoch record (kind ``"hierarchy_epoch"``,
rewritten at the end of each hold that changed the user) at the first use in a
hold, and by readers at most every :data:`SYNC_SECONDS`; when another process
wrote since, it is reloaded (retrieval visits not yet saved are lost then).

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.backends import InMemoryBackend
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

import hashlib
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np
from langchain_core.language_models import BaseChatModel

from ..backends.base import MemoryBackend
from ..config import MemoryConfig
from ..records import Message, Record
from ..worker import yield_gil
from .midterm import Segment, coldest, place_page
from .pages import Page, f_score
from .shortterm import SessionState
from .summaries import summarize

__all__ = [
    "Hierarchy",
    "STM_KIND",
    "SEGMENT_KIND",
    "SEGMENT_PAGES_KIND",
    "EPOCH_KIND",
    "PLACED_MARK",
    "EMBEDDING_MARK",
    "PLACING_MARK",
]

log = logging.getLogger(__name__)

#: Record kinds the hierarchy keeps.
STM_KIND = "stm"
SEGMENT_KIND = "segment"
#: A sealed block of a segment's pages (id ``"<segment id>#<block number>"``).
SEGMENT_PAGES_KIND = "segment_pages"
#: Pages per sealed block. A segment record holds only its pages after its sealed
#: blocks, so saving a segment no longer grows with it (it used to rewrite every page
#: on every save: most of the load time of a 100k-message user).
BLOCK_PAGES = 256
#: One record per user: who last changed the user's hierarchy (see the module docs).
EPOCH_KIND = "hierarchy_epoch"
#: Readers check a user's epoch at most this often (seconds).
SYNC_SECONDS = 1.0
#: Backend meta keys: every embedded message up to this seq is placed...
PLACED_MARK = "hierarchy_placed_seq"
#: ...and no message after this seq has a vector (written before vectors are stored).
EMBEDDING_MARK = "hierarchy_embedding_seq"
#: Flag placement (concurrent embedding): set while a chunk is being placed, see the module docs.
PLACING_MARK = "hierarchy_placing"
#: Seqs looked up per step when replaying placement (and messages per flagged chunk).
_REPLAY_CHUNK = 1000
#: Sessions expired per hold of the hierarchy lock.
_EXPIRE_CHUNK = 50
#: How many of a segment's latest pages its summary is made from.
_SUMMARY_PAGES = 40

Promoter = Callable[[str, Segment, list[Message]], int]


def _now() -> datetime:
    return datetime.now(timezone.utc)


def epoch_record_id(user_id: str) -> str:
    """The id of a user's epoch record (unique across users, as record ids must be)."""
    return "epoch-" + hashlib.sha1(user_id.encode()).hexdigest()[:20]


def stm_record_id(user_id: str, session_id: str) -> str:
    """Record ids are unique per kind across users: the session's is derived from both."""
    digest = hashlib.sha1(f"{user_id}\x00{session_id}".encode()).hexdigest()[:20]
    return f"stm-{digest}"


class Hierarchy:
    """Short-term and mid-term memory of every user of one backend.

    Args:
        backend: Where records and messages live.
        config: Capacities, thresholds and heat parameters.
        llm: Optional chat model for chain and segment summaries.
        promote: Called with ``(user_id, segment, messages)`` when a segment's
            heat passes ``config.heat_threshold``; returns entries written.
    """

    def __init__(
        self,
        backend: MemoryBackend,
        config: MemoryConfig,
        *,
        llm: BaseChatModel | None = None,
        promote: Promoter | None = None,
    ) -> None:
        self.backend = backend
        self.config = config
        self.llm = llm
        self.promote = promote
        self._lock = threading.RLock()
        self._stm: dict[tuple[str, str], SessionState] = {}
        self._segs: dict[str, dict[str, Segment]] = {}
        self._seg_of: dict[str, dict[int, str]] = {}
        self._visited: set[tuple[str, str]] = set()
        self._to_promote: set[tuple[str, str]] = set()
        self._last_expiry = time.monotonic()
        self._marks: tuple[int, int] | None = None  # (placed, embedding), see PLACED_MARK
        self._gap = False  # the batch being stored follows unplaced messages
        self.promoted = 0
        # Coherence between processes (see the module docs).
        self._token = uuid.uuid4().hex[:16]
        self._epochs = 0
        self._epoch_seen: dict[str, str | None] = {}
        self._checked: dict[str, float] = {}
        self._dirty: set[str] = set()
        self._holding = False

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
        with self._lock:
            self._holding = True
            self._checked.clear()
            self._marks = None

    def end_hold(self) -> None:
        """The lease is about to be released: publish a new epoch for every user whose
        hierarchy this hold changed, so other processes reload it."""
        with self._lock:
            try:
                for user_id in sorted(self._dirty):
                    self._epochs += 1
                    value = f"{self._token}:{self._epochs}"
                    now = _now()
                    rid = epoch_record_id(user_id)
                    rec = Record(EPOCH_KIND, rid, user_id, {"epoch": value}, now, now)
                    self.backend.put_record(rec)
                    self._epoch_seen[user_id] = value
            finally:
                self._dirty.clear()
                self._holding = False

    def _fresh(self, user_id: str) -> None:
        """Drop the user's cached state when another process changed it since it was
        loaded (checked once per hold, and by readers at most every SYNC_SECONDS)."""
        now = time.monotonic()
        last = self._checked.get(user_id)
        if last is not None and (self._holding or now - last < SYNC_SECONDS):
            return
        self._checked[user_id] = now
        rec = self.backend.get_record(EPOCH_KIND, epoch_record_id(user_id), user_id)
        value = rec.data.get("epoch") if rec is not None else None
        if user_id in self._epoch_seen and self._epoch_seen[user_id] != value:
            self._drop(user_id)
        self._epoch_seen[user_id] = value

    def _drop(self, user_id: str) -> None:
        self._stm = {k: v for k, v in self._stm.items() if k[0] != user_id}
        self._segs.pop(user_id, None)
        self._seg_of.pop(user_id, None)
        self._visited = {k for k in self._visited if k[0] != user_id}
        self._to_promote = {k for k in self._to_promote if k[0] != user_id}

    def state(self, user_id: str, session_id: str) -> SessionState:
        """The short-term memory of one session (loaded once, then cached)."""
        key = (user_id, session_id)
        with self._lock:
            self._fresh(user_id)
            st = self._stm.get(key)
            if st is None:
                rec = self.backend.get_record(STM_KIND, stm_record_id(user_id, session_id), user_id)
                st = (
                    SessionState.load(user_id, rec.data)
                    if rec
                    else SessionState(user_id, session_id)
                )
                self._stm[key] = st
            return st

    def segments(self, user_id: str) -> dict[str, Segment]:
        """Every segment of a user by id, archived ones included."""
        with self._lock:
            self._fresh(user_id)
            segs = self._segs.get(user_id)
            if segs is None:
                segs = {
                    r.id: Segment.load(user_id, r.data)
                    for r in self.backend.list_records(SEGMENT_KIND, user_id)
                }
                if any(seg.sealed for seg in segs.values()):
                    self._load_blocks(user_id, segs)
                self._segs[user_id] = segs
                self._seg_of[user_id] = {s: seg.id for seg in segs.values() for s in seg.seqs()}
            return segs

    def _load_blocks(self, user_id: str, segs: dict[str, Segment]) -> None:
        """Put the pages of sealed blocks back in front of each segment's own pages.

        Only the blocks a segment's record counts are used: a block written by a save
        that died before its segment record is ignored (that record still holds those
        pages itself) and overwritten by the next save.
        """
        blocks: dict[tuple[str, int], list[Page]] = {}
        for r in self.backend.list_records(SEGMENT_PAGES_KIND, user_id):
            seg_id, _, block_no = r.id.rpartition("#")
            blocks[(seg_id, int(block_no))] = [Page.load(p) for p in r.data["pages"]]
        for seg in segs.values():
            if not seg.sealed:
                continue
            front: list[Page] = []
            for number in range(seg.sealed // BLOCK_PAGES):
                block = blocks.get((seg.id, number))
                if block is None or len(block) != BLOCK_PAGES:
                    raise RuntimeError(
                        f"segment {seg.id!r} of user {user_id!r}: sealed page block "
                        f"{number} is missing or damaged"
                    )
                front += block
            seg.pages = front + seg.pages

    def forget_user(self, user_id: str) -> None:
        """Drop a user's cached state (after ``delete_user``)."""
        with self._lock:
            self._drop(user_id)
            self._epoch_seen.pop(user_id, None)
            self._checked.pop(user_id, None)
            self._dirty.discard(user_id)

    # -- writing (background worker) ---------------------------------------------------
    def _get_marks(self) -> tuple[int, int]:
        if self._marks is None:
            got = [self.backend.get_meta(k) for k in (PLACED_MARK, EMBEDDING_MARK)]
            placed, embedding = (int(v) if v else 0 for v in got)
            self._marks = (placed, embedding)
        return self._marks

    def _set_mark(self, key: str, seq: int) -> None:
        placed, embedding = self._get_marks()
        if key == PLACED_MARK and seq > placed:
            self.backend.set_meta(key, str(seq))
            self._marks = (seq, embedding)
        elif key == EMBEDDING_MARK and seq > embedding:
            self.backend.set_meta(key, str(seq))
            self._marks = (placed, seq)

    def begin_batch(self, batch: Sequence[Message]) -> None:
        """Worker hook, right before a batch's vectors are stored: mark how far embedding
        goes, so that a crash before the batch is placed can be replayed."""
        if not batch:
            return
        with self._lock:
            placed, embedding = self._get_marks()
            self._gap = placed < embedding
            self._set_mark(EMBEDDING_MARK, max(m.seq for m in batch))

    def replay(self, embed: Callable[[list[Message]], np.ndarray]) -> int:
        """Place the messages embedded but never placed (the process died between storing
        their vectors and saving their placement, or placement failed).

        Session states and segments are reloaded from the store first (a failed placement
        may have left the in-process copies half-changed; retrieval visits not yet saved
        are lost then). Idempotent: a session ignores seqs it placed, a page already in a
        segment is not placed again.

        Args:
            embed: The vectors of messages, one row each (the cached embedder: the vectors
                were made before, so this is normally a cache hit).

        Returns:
            How many messages were placed again.
        """
        if self.backend.concurrent_embedding:
            return self.place_embedded(embed)
        with self._lock:
            placed, embedding = self._get_marks()
            if placed >= embedding:
                return 0
            self._reload()
            users = self.backend.users()
            done = 0
            for start in range(placed + 1, embedding + 1, _REPLAY_CHUNK):
                seqs = list(range(start, min(start + _REPLAY_CHUNK, embedding + 1)))
                msgs = [m for u in users for m in self.backend.get_messages(u, seqs).values()]
                if msgs:
                    msgs.sort(key=lambda m: m.seq)
                    vectors = np.asarray(embed(msgs))
                    self._gap = True  # the mark moves below, once the chunk is saved
                    self.on_embedded(list(zip(msgs, vectors, strict=True)))
                    done += len(msgs)
                self._set_mark(PLACED_MARK, seqs[-1])
            self._gap = False
            if done:
                log.info("replayed the hierarchy placement of %d messages", done)
            return done

    def _reload(self) -> None:
        """Forget every cached session state and segment (read again from the store)."""
        self._stm.clear()
        self._segs.clear()
        self._seg_of.clear()

    def place_embedded(
        self, embed: Callable[[list[Message]], np.ndarray], chunk: int = _REPLAY_CHUNK
    ) -> int:
        """Place every message the backend lists as embedded but unplaced, flagging each
        once placed (backends with ``concurrent_embedding``; see the module docs).

        Called by the one hierarchy writer (under the writer lease) while any number of
        processes embed. A chunk is flagged only after its segments and session states
        are saved; :data:`PLACING_MARK` brackets it, so that a placement that died
        half-way is placed again on state reloaded from the store (a session ignores
        seqs it placed, a page found in a segment is not placed again).

        Args:
            embed: The vectors of messages, one row each (normally embedding-cache hits).
            chunk: Messages placed (and flagged) per step.

        Returns:
            How many messages were placed.
        """
        with self._lock:
            if self.backend.get_meta(PLACING_MARK):  # an earlier placement died half-way
                self._reload()
        done = 0
        while msgs := self.backend.unplaced_messages(chunk):
            vectors = np.asarray(embed(msgs))
            self.backend.set_meta(PLACING_MARK, str(msgs[-1].seq))
            self._place(list(zip(msgs, vectors, strict=True)))
            self.backend.mark_placed([m.seq for m in msgs])
            self.backend.set_meta(PLACING_MARK, "")
            done += len(msgs)
        if done:
            self.run_pending()
        return done

    def on_embedded(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Place freshly embedded messages into pages, chains and segments.

        Segments are saved before session states, and the placed mark moves last (see
        :meth:`replay`).
        """
        self._place(items)
        with self._lock:
            if items and not self._gap:
                self._set_mark(PLACED_MARK, max(msg.seq for msg, _ in items))
        self.run_pending()

    def _place(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Place messages (in seq order) and save the segments and session states they
        changed, segments first."""
        cfg = self.config
        states: dict[tuple[str, str], SessionState] = {}
        segs: set[tuple[str, str]] = set()
        for msg, vec in sorted(items, key=lambda it: it[0].seq):
            # One message per hold of the lock, then the GIL goes round: readers ranking
            # segments wait for one placement, not a batch's (hundreds of ms).
            with self._lock:
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
        with self._lock:
            for user_id, seg_id in segs:
                self._save_segment(self.segments(user_id)[seg_id])
            for st in states.values():
                self._summarize_chains(st)
                self._save_state(st)

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
        records = self.backend.list_records(STM_KIND)
        for start in range(0, len(records), _EXPIRE_CHUNK):
            # A chunk of sessions per hold of the lock: readers get in between.
            with self._lock:
                touched: set[tuple[str, str]] = set()
                drained: list[SessionState] = []
                for rec in records[start : start + _EXPIRE_CHUNK]:
                    st = self.state(rec.user_id, rec.data["session_id"])
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
        got = self.backend.get_messages(user_id, seqs)
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
        now = _now()
        rid = stm_record_id(st.user_id, st.session_id)
        self._dirty.add(st.user_id)
        self.backend.put_record(Record(STM_KIND, rid, st.user_id, st.dump(), now, now))

    def _save_segment(self, seg: Segment) -> None:
        if seg.dirty:
            self._summarize_segment(seg)
        self._dirty.add(seg.user_id)
        now = _now()
        while len(seg.pages) - seg.sealed >= BLOCK_PAGES:  # seal full blocks, once each
            number = seg.sealed // BLOCK_PAGES
            pages = seg.pages[seg.sealed : seg.sealed + BLOCK_PAGES]
            data = {"segment": seg.id, "pages": [p.dump(with_vector=False) for p in pages]}
            rid = f"{seg.id}#{number}"
            self.backend.put_record(Record(SEGMENT_PAGES_KIND, rid, seg.user_id, data, now, now))
            seg.sealed += BLOCK_PAGES
        data = seg.dump(from_page=seg.sealed)
        self.backend.put_record(Record(SEGMENT_KIND, seg.id, seg.user_id, data, now, now))

    def run_pending(self) -> int:
        """Persist retrieval visits and run due promotions; returns promotions run."""
        done = 0
        with self._lock:
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
            with self._lock:
                if self.segments(seg.user_id).get(seg.id) is seg:
                    self._save_segment(seg)
            yield_gil()
        return done

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
    ) -> list[tuple[Segment, float, dict[str, float]]]:
        """The ``k`` active segments closest to a query, by f_score; each counts a visit."""
        terms = {t for t in query_terms if len(t) > 1}
        scored: list[tuple[Segment, float, dict[str, float]]] = []
        with self._lock:
            now = _now()
            for seg in self.segments(user_id).values():
                # A segment made by a placement still in progress has no summary until
                # it is saved; its pages are searchable as messages meanwhile.
                if seg.archived or seg.vector is None or not seg.summary:
                    continue
                vec = query_vector if query_vector is not None else np.zeros_like(seg.vector)
                score = f_score(vec, seg.vector, terms, seg.keywords())
                parts = {"f_score": score, "heat": seg.heat(now, **self._heat_kw())}
                scored.append((seg, score, parts))
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
        with self._lock:
            index = self._seg_of.get(user_id, {})
            return {s: index[s] for s in seqs if s in index}

    def stats(self, user_id: str, hottest: int = 5) -> dict[str, Any]:
        """Per-layer counts, the hottest segments and the chains of each session."""
        with self._lock:
            states = [
                self.state(user_id, r.data["session_id"])
                for r in self.backend.list_records(STM_KIND, user_id)
            ]
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
