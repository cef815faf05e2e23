"""One query's retrieval over every layer, shared by ``search`` and ``build_context``.

:class:`Retrieval` embeds the query once (on a thread of its own, started at once) and
ranks, on first use: the mid-term segments closest to the query, the user's messages by
hybrid search (the segments' pages may join as a third ranking), the long-term entries
from the entry index (and extra entries, the profile, ranked alike beside them), the
entities the query names and the lessons of tasks like the one in progress. It runs on
a :class:`~langgraph_memory.read.pipeline.ReadPipeline` and reads its collaborators.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, Literal, Protocol

import numpy as np

from langgraph_memory.config import RetrievalSection
from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.filters import compile_filter
from langgraph_memory.core.records import MemoryHit, Message
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.layers.hierarchy.placement import RankedSegment
from langgraph_memory.layers.index.entries import EntryIndexer
from langgraph_memory.layers.index.passages import PASSAGE_KIND
from langgraph_memory.layers.index.ranking import LongTermDoc, RankedDoc, rank_hybrid
from langgraph_memory.layers.knowledge.documents import CHUNK_KIND, SHARED_OWNER
from langgraph_memory.layers.short_term.sessions import SessionState
from langgraph_memory.read.candidates import doc_item
from langgraph_memory.read.external import Pending
from langgraph_memory.read.messages import MessageRetriever, RankedMessage, to_hit
from langgraph_memory.read.request import Query
from langgraph_memory.read.speakers import SpeakerNames
from langgraph_memory.retrieval.fusion import rrf_fuse
from langgraph_memory.retrieval.vectors import cosines
from langgraph_memory.storage.base import MemoryBackend

__all__ = ["Retrieval", "UNRANKED_KINDS", "LESSON_MIN_COSINE", "chunk_filter"]

#: The indexed kinds not ranked as long-term entries for a query that asks for no summary
#: or timeline (day and week roll-ups are ranked only for those; document chunks are a
#: layer of their own, and passages of long messages count for their messages).
UNRANKED_KINDS = frozenset({"rollup", "entity", CHUNK_KIND, PASSAGE_KIND})
#: A lesson sharing no term with the task in progress rides along when its cosine with
#: the task's request is at least this.
LESSON_MIN_COSINE = 0.5


def chunk_filter(flt: Mapping[str, Any] | None) -> Callable[[LongTermDoc], bool]:
    """Which document chunks a search keeps: those whose fields (``document_id``,
    ``version``, ``title``, ``status``, ``shared`` and the document's metadata) match
    ``flt`` (the language of :mod:`~langgraph_memory.core.filters`). Archived chunks only
    when the filter names a ``status`` or a ``version``.

    Raises:
        ValueError: On a malformed filter.
    """
    wanted = dict(flt or {})
    if "status" not in wanted and "version" not in wanted:
        wanted["status"] = "active"
    pred = compile_filter(wanted)
    assert pred is not None

    def keep(doc: LongTermDoc) -> bool:
        when = doc.timestamp or _EPOCH
        return pred(Message(doc.id, "", "", "system", doc.text, when, metadata=doc.meta or {}))

    return keep


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class SegmentSource(Protocol):
    """The memory hierarchy as the read path sees it."""

    def state(self, user_id: str, session_id: str) -> SessionState:
        """A session's short-term state."""
        ...

    def rank_segments(
        self,
        user_id: str,
        query_vector: np.ndarray | None,
        query_terms: Sequence[str],
        k: int,
        *,
        visit: bool = True,
    ) -> list[RankedSegment]:
        """The ``k`` segments closest to a query (each retrieval warms them)."""
        ...

    def segment_of(self, user_id: str, seqs: Sequence[int]) -> dict[int, str]:
        """Message seq -> id of the segment holding its page."""
        ...


class ReadSources(Protocol):
    """What a retrieval reads (the read pipeline's collaborators)."""

    @property
    def retrieval(self) -> RetrievalSection: ...

    @property
    def storage(self) -> MemoryBackend: ...

    @property
    def segments(self) -> SegmentSource: ...

    @property
    def retriever(self) -> MessageRetriever: ...

    @property
    def entries(self) -> EntryIndexer: ...

    @property
    def speakers(self) -> SpeakerNames: ...


class Retrieval:
    """One query's retrieval: its vector (made once), its ranked segments (ranked once,
    on first use), its messages and its long-term entries.

    Args:
        pipeline: What it reads (the read pipeline).
        user_id: Whose memory.
        query: The query.
        external: The searches started in the user's attached vector stores, if any
            (see :mod:`~langgraph_memory.read.external`); their passages are ranked with the
            documents.
        agent_id: The agent asking: other agents' traits are left out (``None``: the
            traits of every agent count).
    """

    def __init__(
        self,
        pipeline: ReadSources,
        user_id: str,
        query: str,
        external: Pending | None = None,
        *,
        agent_id: str | None = None,
    ) -> None:
        self._p = pipeline
        self.user_id = user_id
        self.query = query
        self.agent_id = agent_id
        self._external = external
        #: What was left out of this retrieval and why (an attached store that failed).
        self.notes: list[str] = []
        cfg = pipeline.retrieval
        reads = getattr(pipeline.retriever.embedder, "reads", None)
        if cfg.dense_weight > 0 and reads is not None and not reads(query):
            # an English-only model's vector of a Chinese query ranks nothing (on Chinese
            # daily-life histories 0.687 → 0.736 at 256 tokens without it)
            cfg = dataclasses.replace(cfg, dense_weight=0.0)
        #: The retrieval settings of this query.
        self.retrieval = cfg
        dense = cfg.dense_weight > 0
        #: The text embedded for the query: without the names of the user's speakers
        #: (see :mod:`~langgraph_memory.read.speakers`), or the query itself.
        self.dense_query = (
            pipeline.speakers.dense_query(user_id, query)
            if dense and cfg.dense_without_speakers
            else query
        )
        #: The query's embedding, started now on a thread of its own.
        self.vector = pipeline.retriever.query_vector(self.dense_query, start=dense)
        #: The speakers whose names the message ranking's BM25 leaves to the speaker
        #: boost when a dense ranking runs beside it (see
        #: :mod:`~langgraph_memory.read.speakers`).
        self._speakers: frozenset[str] = (
            pipeline.speakers.get(user_id)
            if cfg.speaker_boost > 0 and cfg.lexical_weight > 0 and dense
            else frozenset()
        )
        #: The query value every ranker of this retrieval reads (terms made once).
        self.q = Query(query, self.vector, dense=dense, speakers=self._speakers)
        self._segments: list[RankedSegment] | None = None
        self._expansions: list[str] | None = None
        self._allowed: dict[str, set[int]] = {}  # filter -> the seqs it lets through

    def segments(self) -> list[RankedSegment]:
        """The mid-term segments closest to the query (each retrieval warms them)."""
        if self._segments is None:
            cfg = self.retrieval
            k = cfg.segments_per_query
            if k <= 0:
                self._segments = []
            else:
                qvec = self.vector.get() if cfg.dense_weight > 0 else None
                self._segments = self._p.segments.rank_segments(self.user_id, qvec, self.q.terms, k)
        return self._segments

    def ranked_so_far(self) -> list[RankedSegment]:
        """The segments when they were ranked, else none (nothing is ranked here)."""
        return self._segments or []

    def segment_pages(self) -> list[tuple[int, float]]:
        """``(seq, cosine)`` of the messages of the segments' pages, closest to the query
        first (at most ``candidate_pool``): the ranking of messages reached through their
        segments. Empty when ``segment_page_weight`` or ``dense_weight`` is 0."""
        cfg = self.retrieval
        segments = self.segments()
        if not segments or cfg.segment_page_weight <= 0 or cfg.dense_weight <= 0:
            return []
        seqs = {s for seg, _, _ in segments for s in seg.seqs()}
        if not seqs:
            return []
        return self._p.storage.vector_search(
            self.user_id, self.vector.get(), cfg.candidate_pool, seqs
        )

    def allowed(self, flt: Mapping[str, Any] | None) -> set[int] | None:
        """The seqs of the user's messages that ``flt`` lets through (``None``: no
        filter), read once for this retrieval: a timeline question ranks the question,
        each event it names and the topic with one filter (``role: user``), and each
        read walks every message of the user. The set is shared: not to be changed.

        Raises:
            ValueError: When ``flt`` is malformed (see
                :func:`~langgraph_memory.core.filters.compile_filter`).
        """
        predicate = compile_filter(flt)
        if predicate is None or flt is None:
            return None
        key = repr(sorted(flt.items()))
        found = self._allowed.get(key)
        if found is None:
            found = self._allowed[key] = self._p.storage.filter_seqs(self.user_id, predicate)
        return found

    def stored_cosines(self, seqs: Collection[int]) -> dict[int, float]:
        """The cosine with the query of each stored message among ``seqs`` that has a
        vector in the store (one vector search among them: nothing is embedded); empty
        when the dense ranking is off for this query."""
        if not seqs or self.retrieval.dense_weight <= 0:
            return {}
        found = self._p.storage.vector_search(self.user_id, self.vector.get(), len(seqs), set(seqs))
        return dict(found)

    def _pages_join(self) -> bool:
        cfg = self.retrieval
        return cfg.segment_page_weight > 0 and cfg.dense_weight > 0

    def messages(
        self,
        k: int,
        flt: Mapping[str, Any] | None,
        *,
        via_segments: bool,
        fusion: Literal["convex", "rrf"] | None = None,
    ) -> list[RankedMessage]:
        """The best ``k`` messages; with ``via_segments`` the segments are ranked too
        (after the BM25 and dense rankings, unless their pages join the messages as a
        ranking: then first); ``fusion`` overrides ``retrieval.fusion``."""
        pages = self.segment_pages() if via_segments and self._pages_join() else []
        ranked = self._p.retriever.rank(
            self.user_id, self.q, k, flt, pages=pages, fusion=fusion, allowed=self.allowed(flt)
        )
        if via_segments:
            self.segments()  # ranked once the query is embedded (the rankings waited)
        return self._expanded(ranked, k, flt)

    def expansions(self) -> list[str]:
        """The chat model's other phrasings of the query and its hypothetical answer
        (asked once; ``[]`` without a model, when ``query_expansion`` is off, or when the
        model fails: see :mod:`~langgraph_memory.read.expansion`)."""
        if self._expansions is None:
            expander = getattr(self._p, "expander", None)
            self._expansions = expander.expand(self.query) if expander is not None else []
        return self._expansions

    def _expanded(
        self, ranked: list[RankedMessage], k: int, flt: Mapping[str, Any] | None
    ) -> list[RankedMessage]:
        """``ranked`` fused with the rankings of the query's expansions (weighted RRF).
        The fused order keeps the plain ranking's scores, best first (the i-th message
        takes the i-th best score), so the candidates weigh against the other layers as
        before; a message fused within ``fusion_depth`` is primary. A message a ranking
        holds without evidence (no shared word, no positive cosine: a dense ranking lists
        every message) earns nothing from it: such filler, listed by every ranking alike,
        would otherwise outrank what only the expansions find. What no ranking has
        evidence for follows in the plain ranking's order."""
        texts = self.expansions()
        if not texts:
            return ranked
        cfg = self._p.retrieval
        rankings = {"query": [m.seq for m in ranked if _evidence(m.parts)]}
        weights = {"query": 1.0}
        found: dict[int, RankedMessage] = {}
        for i, text in enumerate(texts, 1):
            extra = self.messages_for(text, k, flt)
            rankings[f"expansion{i}"] = [m.seq for m in extra if _evidence(m.parts)]
            weights[f"expansion{i}"] = cfg.expansion_weight
            for m in extra:
                found.setdefault(m.seq, m)
        fused = rrf_fuse(rankings, k=cfg.rrf_k, weights=weights)
        placed = {seq for seq, _, _ in fused}
        fused += [(m.seq, 0.0, {}) for m in ranked if m.seq not in placed]
        fused = fused[: max(k, len(ranked))]
        plain = {m.seq: m for m in ranked}
        scores = sorted((m.score for m in ranked), reverse=True) or [1.0]
        out = []
        for i, (seq, rrf, parts) in enumerate(fused):
            base = plain.get(seq) or found[seq]
            score = scores[min(i, len(scores) - 1)]
            primary = base.primary or i < cfg.fusion_depth
            merged = {**base.parts, **{p: v for p, v in parts.items() if p != "query_rank"}}
            out.append(RankedMessage(seq, score, {**merged, "expansion_rrf": rrf}, primary))
        return out

    def messages_for(self, text: str, k: int, flt: Mapping[str, Any] | None) -> list[RankedMessage]:
        """The best ``k`` messages for another text than the query (a part of it, e.g.
        one event an order question lists), by rank fusion of BM25 and dense (the text
        embedded once more; BM25 alone with ``dense_weight`` 0)."""
        dense = self._p.retrieval.dense_weight > 0
        q = Query(text, self._p.retriever.query_vector(text, start=dense), speakers=self._speakers)
        return self._p.retriever.rank(
            self.user_id, q, k, flt, fusion="rrf", allowed=self.allowed(flt)
        )

    def message_hits(
        self, k: int, flt: Mapping[str, Any] | None, *, via_segments: bool
    ) -> list[MemoryHit]:
        """:meth:`messages` as search hits."""
        if self.expansions():  # fused with the expansions' rankings
            ranked = self.messages(k, flt, via_segments=via_segments)
            msgs = self._p.storage.get_messages(self.user_id, [m.seq for m in ranked])
            return [to_hit(msgs[m.seq], m.score, m.parts) for m in ranked if m.seq in msgs]
        pages = self.segment_pages() if via_segments and self._pages_join() else []
        hits = self._p.retriever.search(self.user_id, self.q, k, flt, pages=pages)
        if via_segments:
            self.segments()
        return hits

    def closest_first(self, texts: Sequence[str]) -> list[tuple[int, float]]:
        """``(index, closeness)`` of ``texts``, closest to the query first: the cosine of
        their embeddings with the query's (texts embedded through the cached embedder,
        in process only), or with ``dense_weight`` 0 the share of the query's terms
        each text has. Used for what rides along whatever its words (the profile,
        standing instructions): when the budget holds only some, the closest go in.
        """
        if not texts:
            return []
        if self.retrieval.dense_weight > 0:
            embedder = self._p.retriever.embedder.get()
            close = cosines(embedder.embed_array(list(texts), persist=False), self.vector.get())
        else:
            terms = self.q.term_set
            close = np.array(
                [len(terms & set(tokenize(t))) / max(len(terms), 1) for t in texts], dtype=float
            )
        order = np.argsort(-close, kind="stable")
        return [(int(i), float(close[i])) for i in order]

    def long_term(
        self, message_parts: list[dict[str, float]], k: int, extra: Sequence[LongTermDoc] = ()
    ) -> list[RankedDoc]:
        """The user's indexed long-term entries (current facts, traits, episodes,
        knowledge) by hybrid search over the entry index (see
        :mod:`~langgraph_memory.layers.index.entries`), and ``extra`` entries (the profile,
        for search) ranked alike beside them, best ``k`` of both by score.

        An entry sharing no term with the query must be at least as close to it as the
        messages ranked within ``fusion_depth`` by cosine (``message_parts``: score
        parts of the retrieved messages).
        """
        cfg = self.retrieval
        weight = cfg.long_term_dense_weight if cfg.dense_weight > 0 else 0.0
        floor = self._floor(message_parts)
        qvec = self.vector.get() if weight > 0 else None
        # day and week summaries answer how something went, not what was said
        ranked_kinds = frozenset(self._p.entries.kinds) - UNRANKED_KINDS
        layers = ranked_kinds | {"rollup"} if self.q.timeline else ranked_kinds
        ranked = self._rank_entries(k, qvec, weight, floor, layers=layers)
        ranked += self.named_entities(k)
        ranked.sort(key=lambda r: -r.score)
        ranked = ranked[:k]
        if not extra:
            return ranked
        return self._beside(ranked, extra, k, qvec, weight, floor)

    def _rank_entries(
        self,
        k: int,
        qvec: np.ndarray | None,
        weight: float,
        floor: float | None,
        *,
        layers: Collection[str],
        owners: Sequence[str] = (),
        keep: Callable[[LongTermDoc], bool] | None = None,
    ) -> list[RankedDoc]:
        """The best ``k`` of the user's entries of ``layers`` in the entry index by
        hybrid search (``owners``: further owners read, e.g. shared knowledge; ``keep``:
        which entries count; never the traits of an agent other than :attr:`agent_id`)."""
        cfg = self.retrieval
        return self._p.entries.rank(
            self.user_id,
            self.q.term_set,
            k,
            query_vector=qvec,
            lexical_weight=cfg.lexical_weight,
            dense_weight=weight,
            rrf_k=cfg.rrf_k,
            min_cosine=floor,
            layers=layers,
            owners=owners,
            keep=keep,
            agent_id=self.agent_id,
        )

    def _beside(
        self,
        ranked: list[RankedDoc],
        extra: Sequence[LongTermDoc],
        k: int,
        qvec: np.ndarray | None,
        weight: float,
        floor: float | None,
    ) -> list[RankedDoc]:
        """``extra`` docs (not in the entry index) ranked alike and merged into
        ``ranked``: the best ``k`` of both by score (their texts embedded in process)."""
        cfg = self.retrieval
        vectors = None
        if qvec is not None:
            vectors = self._p.retriever.embedder.get().embed_array(
                [d.text for d in extra], persist=False
            )
        ranked = ranked + rank_hybrid(
            extra,
            self.q.term_set,
            k,
            query_vector=qvec,
            doc_vectors=vectors,
            lexical_weight=cfg.lexical_weight,
            dense_weight=weight,
            rrf_k=cfg.rrf_k,
            min_cosine=floor,
        )
        ranked.sort(key=lambda r: -r.score)
        return ranked[:k]

    def _floor(self, message_parts: list[dict[str, float]]) -> float | None:
        """The cosine an entry sharing no term with the query must reach: that of the
        messages ranked within ``fusion_depth`` by cosine."""
        depth = self.retrieval.fusion_depth
        close = [
            p["cosine"]
            for p in message_parts
            if "cosine" in p and p.get("dense_rank", depth + 1) <= depth
        ]
        return min(close) if close else None

    def documents(
        self,
        k: int,
        flt: Mapping[str, Any] | None = None,
        message_parts: list[dict[str, float]] | None = None,
        *,
        shared: bool = True,
    ) -> list[RankedDoc]:
        """The best ``k`` chunks of the user's documents and of shared knowledge, in one
        hybrid ranking over the entry index (active chunks only, unless ``flt`` names a
        status or version; see :func:`chunk_filter`), and the passages of the user's
        attached vector stores ranked alike beside them (embedded in process only).
        With ``message_parts`` a chunk sharing no term with the query must be as close
        to it as the best messages; with ``shared=False`` only the owner's own chunks
        are ranked."""
        cfg = self.retrieval
        weight = cfg.long_term_dense_weight if cfg.dense_weight > 0 else 0.0
        floor = self._floor(message_parts) if message_parts is not None else None
        qvec = self.vector.get() if weight > 0 else None
        keep = chunk_filter(flt)
        ranked = self._rank_entries(
            k,
            qvec,
            weight,
            floor,
            layers=(CHUNK_KIND,),
            owners=(SHARED_OWNER,) if shared else (),
            keep=keep,
        )
        if self._external is None:
            return ranked
        found, self.notes = self._external.collect()
        outside = {id(d): (d, parts) for d, parts in found if keep(d)}
        if not outside:
            return ranked
        merged = self._beside(ranked, [d for d, _ in outside.values()], k, qvec, weight, floor)
        # the store's own rank and relevance join the parts of its passages
        return [
            r._replace(parts={**r.parts, **outside[id(r.doc)][1]}) if id(r.doc) in outside else r
            for r in merged
        ]

    def named_entities(self, k: int) -> list[RankedDoc]:
        """The cards of the entities the query names (every word of the name in the
        query), those with the longest names first, each scored as a long-term entry
        ranked by words alone."""
        cfg = self.retrieval
        named = self._p.entries.named(self.user_id, self.q.term_set)[:k]
        return [
            RankedDoc(doc, 1.0 / (cfg.rrf_k + rank), {"named": 1.0, "entity_rank": float(rank)})
            for rank, doc in enumerate(named, 1)
        ]

    def lessons_for(self, request: str, k: int = 3) -> list[ContextItem]:
        """Lessons of earlier tasks like ``request`` (the task in progress), best first:
        those sharing its terms, or close to it by meaning (cosine with the request's
        embedding at least :data:`LESSON_MIN_COSINE`)."""
        cfg = self.retrieval
        weight = cfg.long_term_dense_weight if cfg.dense_weight > 0 else 0.0
        qvec = None
        if weight > 0:
            qvec = self._p.retriever.embedder.get().embed_queries([request])[0]
        ranked = self._p.entries.rank(
            self.user_id,
            request,
            k,
            query_vector=qvec,
            lexical_weight=cfg.lexical_weight,
            dense_weight=weight,
            rrf_k=cfg.rrf_k,
            min_cosine=LESSON_MIN_COSINE,
            layers=("lesson",),
            agent_id=self.agent_id,
        )
        reason = "lesson of a similar earlier task: rides along with the task in progress"
        return [doc_item(d, score, {**parts, "lesson": 1.0}, reason) for d, score, parts in ranked]


def _evidence(parts: Mapping[str, float]) -> bool:
    """Whether a ranked message shares a word with its query or is close to it (a
    positive BM25 score or cosine)."""
    return any(parts.get(p, 0.0) > 0 for p in ("bm25", "cosine", "passage_cosine"))
