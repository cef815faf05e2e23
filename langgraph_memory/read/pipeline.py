"""The read path: ``search`` and ``build_context`` over every layer, in one orchestration.

One query's retrieval (:class:`~langgraph_memory.read.query.Retrieval`) embeds the query once and
ranks, for both calls alike: the user's messages by hybrid search (BM25 and dense, fused by RRF),
the mid-term segments closest to the query (each retrieval warms them; their pages' messages may
join as a third ranking), and long-term facts, traits, episodes and knowledge by hybrid search too.
``search`` interleaves the layers' rankings by reciprocal rank; ``build_context`` packs, by
priority, the session's anchors, the standing instructions read from the user's messages (up to
``instruction_share`` of the budget) and the user profile (``profile_share``), both closest to the
query first, the task in progress (``working_share``), the current session's short-term pages
(``session_share``), for a question about how something went a timeline of the user's own messages
(``timeline_share``, see :mod:`~langgraph_memory.read.timeline`), then the retrieved candidates best
first (long messages as excerpts, see :mod:`~langgraph_memory.read.excerpts`; the best one that no
longer fits whole as its excerpt for the room left), scored relevance ×
the query route's layer weight × time match × recency × importance × length, optionally reranked and
diversified.

The layers reach the read path through small protocols: :class:`SegmentSource` (the hierarchy),
:class:`LongTermSource`, :class:`WorkingSource` and :class:`AccessRecorder`; vector stores the user
keeps elsewhere, attached as knowledge, through
:class:`~langgraph_memory.read.external.VectorStores` (searched at query time, ranked with the
documents).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from langgraph_memory.config import PackingSection, RetrievalSection
from langgraph_memory.core.context import ContextItem, MemoryContext
from langgraph_memory.core.filters import compile_filter
from langgraph_memory.core.records import MemoryHit, Message
from langgraph_memory.core.validation import HIT_GROUP, LAYERS, check_id
from langgraph_memory.layers.hierarchy.promotion import INSTRUCTION_SOURCE
from langgraph_memory.layers.index.entries import EntryIndexer
from langgraph_memory.layers.index.ranking import LongTermDoc
from langgraph_memory.layers.working.tasks import Anchor, TaskState
from langgraph_memory.read.candidates import (
    MESSAGE_ITEM_LAYERS,
    anchor_item,
    chain_items,
    doc_item,
    message_candidates,
    message_item,
    segment_hit,
    segment_items,
    task_item,
)
from langgraph_memory.read.essentials import brief_unrelated, essential_limit, pack_essentials
from langgraph_memory.read.excerpts import take_excerpting
from langgraph_memory.read.expansion import QueryExpander
from langgraph_memory.read.external import PREFETCHED, VectorStores
from langgraph_memory.read.followups import add_successors, pack_timeline
from langgraph_memory.read.hits import merge_hits, score_hits
from langgraph_memory.read.messages import MessageRetriever
from langgraph_memory.read.packing import STATEMENT_LAYERS, Packer
from langgraph_memory.read.query import Retrieval, SegmentSource
from langgraph_memory.read.recency import current_first, stored_vectors
from langgraph_memory.read.relevance import Relevance, cosine_of
from langgraph_memory.read.rerank import Reranker
from langgraph_memory.read.rescoring import credit_segments, diversify, rerank, rescore
from langgraph_memory.read.slot_types import add_typed
from langgraph_memory.read.speakers import SpeakerNames, boost_speakers
from langgraph_memory.read.topics import topic_messages
from langgraph_memory.retrieval.vectors import cosines

if TYPE_CHECKING:
    from langgraph_memory.layers.working.redis_cache import WorkingMemoryCache
    from langgraph_memory.storage.base import MemoryBackend

__all__ = [
    "ReadPipeline",
    "Retrieval",
    "SegmentSource",
    "LongTermSource",
    "WorkingSource",
    "AccessRecorder",
]


class LongTermSource(Protocol):
    """Long-term memory as the read path sees it (the rest of it is ranked from the
    entry index)."""

    def profile_docs(self, user_id: str, scope: str | None = None) -> list[LongTermDoc]:
        """The profile for the context (resolved in ``scope``)."""
        ...


class WorkingSource(Protocol):
    """Working memory as the read path sees it."""

    def anchors(self, user_id: str, session_id: str | None = None) -> list[Anchor]:
        """The anchors that ride along in a session."""
        ...

    def current_task(self, user_id: str, session_id: str) -> TaskState | None:
        """The session's latest task still in progress."""
        ...


class AccessRecorder(Protocol):
    """Counts the long-term entries a context included (they weigh the forget gate)."""

    def note(self, user_id: str, used: Sequence[tuple[str, str]]) -> None:
        """``used``: ``(layer, entry id)`` of each entry included."""


class ReadPipeline:
    """``search`` and ``build_context`` (arguments are validated by the manager).

    Args:
        storage: The store (messages, vector search).
        retriever: Ranks one user's messages by hybrid search.
        retrieval: How memories are ranked.
        packing: How a context fills its budget.
        segments: The hierarchy.
        long_term: Long-term memory (the profile).
        working: Working memory.
        entries: The long-term entry index (facts, traits, episodes, knowledge).
        accesses: Counts the long-term entries contexts include.
        reranker: An optional cross-encoder for the best candidates.
        sources: The vector stores attached as knowledge (shared or per user).
        expander: Expands queries by a chat model (see :mod:`~langgraph_memory.read.expansion`).
    """

    def __init__(
        self,
        storage: MemoryBackend,
        retriever: MessageRetriever,
        retrieval: RetrievalSection,
        packing: PackingSection,
        segments: SegmentSource,
        long_term: LongTermSource,
        working: WorkingSource,
        entries: EntryIndexer,
        *,
        accesses: AccessRecorder | None = None,
        reranker: Reranker | None = None,
        sources: VectorStores | None = None,
        expander: QueryExpander | None = None,
    ) -> None:
        self.storage = storage
        self.entries = entries
        self.retriever = retriever
        self.retrieval = retrieval
        self.packing = packing
        self.segments = segments
        self.long_term = long_term
        self.working = working
        self.accesses = accesses
        self.reranker = reranker
        #: The names of each user's speakers, which the query's embedding leaves out.
        self.speakers = SpeakerNames(storage)
        self.sources = sources or VectorStores()
        #: Expands each query by the chat model (``retrieval.query_expansion``), or None.
        self.expander = expander
        #: Serves sessions' latest messages and chain summaries from Redis, or None.
        self.window: WorkingMemoryCache | None = None

    def close(self) -> None:
        """Stop the threads of concurrent searches."""
        self.retriever.close()
        self.sources.close()

    def users(self) -> list[str]:
        """Every user id with stored messages, sorted."""
        return self.storage.users()

    # -- search ---------------------------------------------------------------------------
    def search(
        self,
        user_id: str,
        query: str,
        k: int,
        layers: set[str],
        flt: Mapping[str, Any] | None,
        agent_id: str | None = None,
    ) -> list[MemoryHit]:
        """The best ``k`` hits of the wanted layers, by relevance (see
        :mod:`~langgraph_memory.read.relevance`), one per source.

        Each layer is ranked on its own (a metadata filter applies to messages and to
        document chunks, by their own fields: with one, the other layers are left out;
        with ``agent_id``, other agents' traits are); the best of each ranking are then
        scored by one relevance in ``[0, 1]`` and merged best first, their ranking score
        kept as ``score_parts["rank_score"]``. A hit whose sources a better hit cites
        already, or that reads the same, is merged into it (its id in
        ``metadata["merged_ids"]``, its sources cited). ``layers`` holds the groups
        (``message``, ``mid_term``, ``long_term``, ``document``) and the hit layers to
        keep (see :func:`~langgraph_memory.core.validation.check_layers`). The attached
        vector stores' searches start here, unless the async twin started them on its
        loop (:data:`~langgraph_memory.read.external.PREFETCHED`)."""
        external = PREFETCHED.get()
        if external is None and "document" in layers:
            external = self.sources.start(user_id, query)
        r = Retrieval(self, user_id, query, external, agent_id=agent_id)
        routed = (
            flt is None
            and self.retrieval.segment_page_weight > 0
            and self.retrieval.dense_weight > 0
        )
        # a few more than k of each ranking: merging may fold some into others
        depth = k + max(3, k // 2)
        found: list[MemoryHit] = []
        if "message" in layers:
            # hits said by a speaker the query names go first, as in a context: they
            # are boosted among twice as many
            terms = r.q.term_set
            named = self.retrieval.speaker_boost > 0 and self.speakers.named(user_id, terms)
            message_hits = r.message_hits(2 * depth if named else depth, flt, via_segments=routed)
            if named:
                message_hits = boost_speakers(message_hits, terms, self.retrieval.speaker_boost)
            found += message_hits[:depth]
        else:
            message_hits = []
        if flt is None:
            if "mid_term" in layers:
                found += [segment_hit(s) for s in r.segments()]
            if "long_term" in layers:
                profile = self.long_term.profile_docs(user_id)
                parts_of = [h.score_parts for h in message_hits]
                found += [
                    MemoryHit(
                        d.id, d.layer, d.text, score, parts, d.source_ids, timestamp=d.timestamp
                    )
                    for d, score, parts in r.long_term(parts_of, depth, profile)
                ]
        if "document" in layers:
            found += [_chunk_hit(d, score, parts) for d, score, parts in r.documents(depth, flt)]
        found = [h for h in found if _wanted(h.layer, layers)]
        return merge_hits(score_hits(self.relevance(r), found), k)

    def relevance(self, r: Retrieval) -> Relevance:
        """The calibrated relevance of one query's hits and items (texts ranked without
        a cosine, and not given one from stored vectors by :func:`stored_cosines`, are
        embedded in process when the dense ranking is on)."""
        if self.retrieval.dense_weight <= 0 or not r.q.dense:  # no cosine means anything
            return Relevance(r.q.term_set, self.retrieval, own=r.q.own, dense=False)

        def embed_cosines(texts: Sequence[str]) -> np.ndarray:
            vectors = self.retriever.embedder.get().embed_array(list(texts), persist=False)
            return cosines(vectors, r.vector.get())

        return Relevance(r.q.term_set, self.retrieval, embed_cosines, own=r.q.own)

    def document_hits(
        self, owner: str, query: str, k: int, flt: Mapping[str, Any] | None
    ) -> list[MemoryHit]:
        """Hits of one owner's document chunks only (a user's own, or shared knowledge
        for :data:`~langgraph_memory.layers.knowledge.documents.SHARED_OWNER`), ranked as
        :meth:`search` ranks chunks; attached vector stores are not read."""
        r = Retrieval(self, owner, query)
        hits = [_chunk_hit(*ranked) for ranked in r.documents(k, flt, shared=False)]
        return merge_hits(score_hits(self.relevance(r), hits), k)

    # -- build_context --------------------------------------------------------------------
    def short_term(self, user_id: str, session_id: str) -> list[Message]:
        """The session's short-term pages, plus messages not placed in them yet.

        At least the latest ``recent_messages`` when the session has any.
        """
        st = self.segments.state(user_id, session_id)
        placed = sum(len(p.seqs) for p in st.pages)
        first = st.pages[0].seqs[0] if st.pages else None
        msgs = (self.window or self.storage).session_messages(
            user_id, session_id, last=placed + self.packing.recent_messages
        )
        if first is None:
            return msgs[-self.packing.recent_messages :] if self.packing.recent_messages else []
        keep = [m for m in msgs if m.seq >= first or m.seq > st.last_seq]
        tail = msgs[-self.packing.recent_messages :] if self.packing.recent_messages else []
        return keep if len(keep) >= len(tail) else tail

    def build_context(
        self,
        user_id: str,
        session_id: str,
        query: str,
        budget: int,
        *,
        explain: bool = False,
        flt: Mapping[str, Any] | None = None,
        scope: str | None = None,
        agent_id: str | None = None,
        shown: frozenset[str] = frozenset(),
    ) -> MemoryContext:
        """The context for ``query`` within ``budget`` tokens (see the module docs);
        ``scope``: the session's scope, whose preferences beat global ones; ``agent_id``:
        the agent asking (other agents' traits stay out); ``shown``: ids of messages the
        model reads anyway (never recalled again). The attached vector stores are
        searched as for :meth:`search`."""
        t0 = time.perf_counter()
        external = PREFETCHED.get()
        if external is None and self.retrieval.document_k > 0:
            external = self.sources.start(user_id, query)  # answers while we read
        # the query is embedded meanwhile
        r = Retrieval(self, user_id, query, external, agent_id=agent_id)
        packer = Packer(budget, shown)
        # What needs no query vector is read first, then the messages are ranked (BM25
        # first): the model thread embeds the query during both. Packing follows, in
        # priority order.
        anchors = self.working.anchors(user_id, session_id)
        task = self.working.current_task(user_id, session_id)
        recent = self.short_term(user_id, session_id)
        if scope is None:  # the session's own, from its latest message that names one
            scope = _session_scope(recent)
        profile = self.long_term.profile_docs(user_id, scope)
        t1 = time.perf_counter()
        # The segments are ranked after the BM25 and dense rankings: the query is
        # embedded by then.
        ranked = r.messages(self.retrieval.candidate_pool, flt, via_segments=not flt)
        long_ranked = r.long_term([m.parts for m in ranked], self.retrieval.long_term_k)
        chunks = r.documents(self.retrieval.document_k, None, [m.parts for m in ranked])
        t2 = time.perf_counter()
        said = [a for a in anchors if a.metadata.get("source") == INSTRUCTION_SOURCE]
        pinned = [a for a in anchors if a.metadata.get("source") != INSTRUCTION_SOURCE]
        said_items = [
            anchor_item(said[i], close) for i, close in r.closest_first([a.text for a in said])
        ]
        doc_of: dict[int, LongTermDoc] = {}  # id(item) -> the entry it renders
        profile_items = []
        for i, close in r.closest_first([d.text for d in profile]):
            reason = "user profile: rides along, the entries closest to the query first"
            item = doc_item(profile[i], 1.0, {"profile": 1.0, "closeness": close}, reason)
            doc_of[id(item)] = profile[i]
            profile_items.append(item)
        # at a small budget a profile the query is not about rides along as one pointer
        texts, known = [it.text for it in profile_items], [it.score_parts for it in profile_items]
        for item, value in zip(profile_items, self.relevance(r).of_many(texts, known), strict=True):
            item.relevance = value
        if self.packing.essential_tokens <= 0:  # (with it, every entry is wanted)
            brief = brief_unrelated(profile_items, budget, self.packing.profile_share, r.q.term_set)
            for whole, short in zip(profile_items, brief, strict=False):
                doc_of[id(short)] = doc_of[id(whole)]
            profile_items = brief
        # what rides along goes first, at every budget (shortened when it must be)
        shares = self.packing.instruction_share + self.packing.profile_share
        for whole, packed in pack_essentials(
            packer,
            [
                ([anchor_item(a) for a in pinned], None),
                (said_items, self.packing.instruction_share),
                (profile_items, self.packing.profile_share),
            ],
            essential_limit(packer.tokens, budget, self.packing.essential_tokens, shares),
            r.q.term_set,
        ):
            if id(whole) in doc_of:
                doc_of[id(packed)] = doc_of[id(whole)]
        if task is not None:
            packer.take([task_item(task)], int(budget * self.packing.working_share))
            if self.packing.lesson_share > 0:
                packer.take(
                    r.lessons_for(task.original_request), packer.share(self.packing.lesson_share)
                )
        session_items = [
            message_item(
                m,
                "short_term",
                float(i + 1),
                {"recency_rank": float(len(recent) - i)},
                "short-term memory: a page of the current session",
                show_dates=self.packing.show_dates,
            )
            for i, m in enumerate(recent)
        ]
        packer.take(session_items, int(budget * self.packing.session_share))
        if self.packing.chain_share > 0:  # what of the session did not fit, compressed
            w = self.window
            st = w.session_summaries if w else self.segments.state  # summaries from Redis
            chains = chain_items(st(user_id, session_id))
            packer.take(chains, packer.share(self.packing.chain_share), by_score=False)
        t3 = time.perf_counter()
        segments = r.ranked_so_far()
        skip = {s for it in packer.items if it.layer not in STATEMENT_LAYERS for s in it.source_ids}
        skip |= shown
        terms = r.q.term_set
        outline: list[int] = []  # the seqs of the timeline's lines
        if self.packing.timeline_messages > 0 and r.q.timeline:
            # the user's own words on the topic (see read.topics)
            mine = {**(flt or {}), "role": "user"}
            embedder, rrf_k = self.retriever.embedder.get, self.retrieval.rrf_k
            own = topic_messages(r, self.storage, embedder, mine, self.packing, rrf_k=rrf_k)
            outline = pack_timeline(packer, self.storage, user_id, own, terms, self.packing)
        msgs = self.storage.get_messages(user_id, [r.seq for r in ranked])
        keep = compile_filter(flt)  # what is added beside the ranking honours the filter too
        cands = message_candidates(
            self.storage, user_id, ranked, msgs, skip, self.retrieval, self.packing, terms
        )
        if self.retrieval.dense_weight > 0:  # later statements like the best ones
            add_successors(
                self.storage, self.retriever.embedder.get, user_id, ranked, msgs, cands, skip,
                terms, self.packing, self.retriever.run_all, keep,
            )  # fmt: skip
        if not r.q.dense:  # the latest statements of the type asked for (no shared word)
            add_typed(self.storage, user_id, query, cands, skip, self.packing, terms, keep)
        cands += segment_items(segments, skip, self.retrieval, self.packing)
        for rank, (doc, fused, parts) in enumerate(long_ranked, 1):
            score = self.retrieval.long_term_weight * fused
            parts["long_term_rank"] = float(rank)
            how = "hybrid search" if "dense_rank" in parts else "shared words"
            reason = f"long-term {doc.layer}: rank {rank} by {how}"
            item = doc_item(doc, score, parts, reason)
            doc_of[id(item)] = doc
            cands.append(item)
        for rank, (doc, fused, parts) in enumerate(chunks, 1):
            parts["document_rank"] = float(rank)
            how = "hybrid search" if "dense_rank" in parts else "shared words"
            reason = f"semantic memory: document chunk ranked {rank} by {how}"
            if store := (doc.meta or {}).get("vector_store"):
                reason = (
                    f"semantic memory: passage of vector store {store!r} (read at query "
                    f"time), ranked {rank} with the documents by {how}"
                )
            cands.append(doc_item(doc, self.retrieval.long_term_weight * fused, parts, reason))
        if segments:
            seg_of = self.segments.segment_of(user_id, [it.order for it in cands])
            credit_segments(cands, segments, seg_of, self.retrieval.segment_boost)
        route = r.q.route() if self.retrieval.routing else None
        rescore(cands, route, self.retrieval, self.packing)
        rerank(self.reranker, query, cands, self.retrieval.rerank_top)
        # a candidate that no longer fits whole goes in as its excerpt when the room holds
        # most of it (what rides along on top then costs the end of the list)
        take_excerpting(packer, diversify(cands, self.retrieval), terms, MESSAGE_ITEM_LAYERS)
        self._note_accesses(user_id, packer.items, doc_of)
        rel = self.relevance(r).of_many(
            [it.text for it in packer.items],
            [it.score_parts for it in packer.items],
            stored_cosines(r, packer.items, outline),
        )
        for it, value in zip(packer.items, rel, strict=True):
            it.relevance = value
        # updates current-first (by the stored vectors, or by terms without a query vector)
        vectors = partial(stored_vectors, self.retriever.embedder.get()) if r.q.dense else None
        current_first(
            packer.items, budget, partial(self.storage.get_messages, user_id), vectors,
            query, r.vector.get,
        )  # fmt: skip
        t4 = time.perf_counter()
        return MemoryContext(
            items=packer.items,
            token_budget=budget,
            query=query,
            user_id=user_id,
            session_id=session_id,
            explain=explain,
            notes=r.notes,
            timings_ms={
                "short_term": (t1 - t0 + t3 - t2) * 1e3,
                "retrieve": (t2 - t1) * 1e3,
                "pack": (t4 - t3) * 1e3,
            },
        )

    def _note_accesses(
        self, user_id: str, items: list[ContextItem], doc_of: dict[int, LongTermDoc]
    ) -> None:
        if self.accesses is not None:
            used = [(d.layer, d.id) for it in items if (d := doc_of.get(id(it)))]
            if used:
                self.accesses.note(user_id, used)


def stored_cosines(
    r: Retrieval, items: Sequence[ContextItem], outline: Sequence[int] = ()
) -> list[float | None] | None:
    """The cosine with the query of each item made of stored messages and ranked without
    one, read from the messages' stored vectors as their search hits' are: a message item
    (a neighbour, a later statement, a turn of the session) its message's, the timeline
    (whose lines are the messages ``outline``) its closest line's. ``None`` for the
    other items (and where no message has a vector yet), or no list at all when there is
    none to read. Embedding these texts again at read time made ``build_context`` 5-7
    times slower (about 60 texts at a budget of 2,000, and a timeline of 48 lines)."""
    if not r.q.dense:
        return None
    seqs = {
        it.order
        for it in items
        if it.layer in MESSAGE_ITEM_LAYERS and cosine_of(it.score_parts) is None
    }
    timeline = any(it.layer == "timeline" for it in items)
    found = r.stored_cosines(seqs | set(outline) if timeline else seqs)
    if not found:
        return None
    lines = [found[s] for s in outline if s in found]
    best_line = max(lines) if lines else None
    return [
        found.get(it.order)
        if it.layer in MESSAGE_ITEM_LAYERS
        else best_line
        if it.layer == "timeline"
        else None
        for it in items
    ]


def _session_scope(recent: Sequence[Message]) -> str | None:
    """The ``"scope"`` metadata of the session's latest message that has a usable one
    (a value that is no valid scope is passed over, never an error)."""
    for m in reversed(recent):
        value = m.metadata.get("scope")
        try:
            return check_id(value, "scope").strip()
        except (TypeError, ValueError):
            continue
    return None


def _wanted(layer: str, layers: set[str]) -> bool:
    """Whether a hit of ``layer`` is wanted: its group is (and, when ``layers`` names hit
    layers of that group, it is one of them)."""
    group = HIT_GROUP.get(layer, "long_term")
    if group not in layers:
        return False
    named = {x for x in layers if x not in LAYERS and HIT_GROUP.get(x, "long_term") == group}
    return not named or layer in named


def _chunk_hit(doc: LongTermDoc, score: float, parts: dict[str, float]) -> MemoryHit:
    """A document chunk (or an attached store's passage) as a search hit."""
    return MemoryHit(
        doc.id,
        doc.layer,
        doc.text,
        score,
        parts,
        doc.source_ids,
        timestamp=doc.timestamp,
        metadata=dict(doc.meta or {}),
    )
