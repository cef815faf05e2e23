"""The read path: ``build_context`` packs working memory, the profile and retrieved memories.

By priority (the architecture's): the session's anchors, the user profile (up to
``profile_share`` of the budget), the task in progress (``working_share``), the
current session's short-term pages (``session_share``), then the retrieved
candidates best first: messages from hybrid search with the turns around them
(BM25, dense, and the messages of the pages of the mid-term segments closest to
the query, fused by RRF), summaries of those segments (retrieving a segment
warms it), and long-term facts, traits, episodes and knowledge ranked by hybrid
search too (their term score and cosine, fused by RRF). The query is embedded
once for all of them. Candidates are
scored relevance × the query route's layer weight × time match × recency ×
importance, optionally reordered by a cross-encoder and diversified by MMR, and
packed exactly into the budget; each keeps its score parts and reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from typing import Any

import numpy as np

from .backends.base import MemoryBackend
from .config import MemoryConfig
from .context import ContextItem, MemoryContext, item_tokens
from .layers.hierarchy import Hierarchy
from .layers.longterm_read import LongTermDoc, rank_hybrid
from .layers.midterm import Segment
from .packing import STATEMENT_LAYERS, Packer
from .records import MemoryHit, Message
from .retrieval.hybrid import SEGMENT_RANKING, HybridRetriever, QueryVector
from .retrieval.rerank import Reranker
from .retrieval.routing import Route, route_query
from .retrieval.scoring import age_days, mmr_order, recency_decay
from .tokens import tokenize
from .working import Anchor, TaskState

__all__ = ["ContextBuilder"]

#: The routing layer that weighs each context layer's candidates.
_ROUTE_LAYER = {
    "message": "messages",
    "neighbor": "messages",
    "short_term": "short_term",
    "mid_term": "mid_term",
    "segment_page": "mid_term",
    "profile": "profile",
    "fact": "facts",
    "trait": "facts",
    "episode": "episodes",
    "knowledge": "knowledge",
}


def _anchor_item(a: Anchor) -> ContextItem:
    """An anchor as a context item (it opens the prompt)."""
    return ContextItem(
        layer="anchor",
        text=a.text,
        tokens=item_tokens(a.text),
        score=1.0,
        score_parts={"anchor": 1.0},
        source_ids=[f"anchor:{a.id}"],
        reason=(
            "session anchor: always rides along"
            if a.session_id
            else "user anchor: rides along in every session"
        ),
        timestamp=a.updated_at,
        session_id=a.session_id,
        order=-2,
    )


def _task_item(task: TaskState) -> ContextItem:
    """The task in progress as one prompt line: the request, then where it stands."""
    steps = "; ".join(
        f"{i}. {st.description} ({st.status})" for i, st in enumerate(task.steps, start=1)
    )
    text = f"Task in progress: {task.original_request}" + (f" — steps: {steps}" if steps else "")
    return ContextItem(
        layer="task",
        text=text,
        tokens=item_tokens(text),
        score=1.0,
        score_parts={"working": 1.0},
        source_ids=[f"task:{task.id}"],
        reason="working memory: the task in progress in this session",
        timestamp=task.started_at,
        session_id=task.session_id,
        order=-1,
    )


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


class ContextBuilder:
    """Builds :class:`MemoryContext` objects (arguments are validated by the manager)."""

    def __init__(
        self,
        backend: MemoryBackend,
        retriever: HybridRetriever,
        config: MemoryConfig,
        hierarchy: Hierarchy,
        long_term: Callable[[str], tuple[list[LongTermDoc], list[LongTermDoc]]] | None = None,
        *,
        working: Callable[[str, str], tuple[list[Anchor], TaskState | None]] | None = None,
        reranker: Reranker | None = None,
        on_access: Callable[[str, list[tuple[str, str]]], None] | None = None,
    ) -> None:
        self.reranker = reranker
        #: Called with ``(user_id, [(layer, id), ...])`` of the long-term entries a
        #: context included (their access counts weigh the forget gate).
        self.on_access = on_access
        self.backend = backend
        self._retriever = retriever
        self.config = config
        self.hierarchy = hierarchy
        #: ``user_id -> (profile docs, other long-term docs)``.
        self.long_term = long_term or (lambda user_id: ([], []))
        #: ``(user_id, session_id) -> (anchors, task in progress)``.
        self.working = working or (lambda user_id, session_id: ([], None))

    def short_term(self, user_id: str, session_id: str) -> list[Message]:
        """The session's short-term pages, plus messages not placed in them yet.

        At least the latest ``recent_messages`` when the session has any.
        """
        st = self.hierarchy.state(user_id, session_id)
        placed = sum(len(p.seqs) for p in st.pages)
        first = st.pages[0].seqs[0] if st.pages else None
        msgs = self.backend.session_messages(
            user_id, session_id, last=placed + self.config.recent_messages
        )
        if first is None:
            return msgs[-self.config.recent_messages :] if self.config.recent_messages else []
        keep = [m for m in msgs if m.seq >= first or m.seq > st.last_seq]
        tail = msgs[-self.config.recent_messages :] if self.config.recent_messages else []
        return keep if len(keep) >= len(tail) else tail

    def ranked_segments(
        self,
        user_id: str,
        query: str,
        *,
        visit: bool = True,
        query_vector: QueryVector | None = None,
    ) -> list[tuple[Segment, float, dict[str, float]]]:
        """The mid-term segments closest to ``query`` (each retrieval warms them)."""
        k = self.config.segments_per_query
        if k <= 0:
            return []
        qvec = None
        if self.config.dense_weight > 0:
            qvec = (query_vector or self._retriever.query_vector(query)).get()
        return self.hierarchy.rank_segments(user_id, qvec, tokenize(query), k, visit=visit)

    def segment_pages(
        self,
        user_id: str,
        segments: list[tuple[Segment, float, dict[str, float]]],
        query_vector: QueryVector,
    ) -> list[tuple[int, float]]:
        """``(seq, cosine)`` of the messages of the segments' pages, closest to the query
        first (at most ``candidate_pool``): the ranking of messages reached through their
        segments. Empty when ``segment_page_weight`` or ``dense_weight`` is 0."""
        cfg = self.config
        if not segments or cfg.segment_page_weight <= 0 or cfg.dense_weight <= 0:
            return []
        seqs = {s for seg, _, _ in segments for s in seg.seqs()}
        if not seqs:
            return []
        return self.backend.vector_search(user_id, query_vector.get(), cfg.candidate_pool, seqs)

    def rank_long_term(
        self,
        docs: list[LongTermDoc],
        query: str,
        query_vector: QueryVector,
        message_parts: list[dict[str, float]],
        k: int,
    ) -> list[tuple[LongTermDoc, float, dict[str, float]]]:
        """Long-term entries by hybrid search (see
        :func:`~langgraph_memory.layers.longterm_read.rank_hybrid`).

        Their texts are embedded through the cached embedder, in process only (a
        rendering changes with the entry, and ``delete_user`` must reach every
        vector). An entry sharing no term with the query must be at least as close
        to it as the messages ranked within ``fusion_depth`` by cosine
        (``message_parts``: score parts of the retrieved messages).
        """
        cfg = self.config
        weight = cfg.long_term_dense_weight if cfg.dense_weight > 0 else 0.0
        if weight <= 0 or not docs:
            return rank_hybrid(docs, query, k, lexical_weight=cfg.lexical_weight, rrf_k=cfg.rrf_k)
        vectors = self._retriever.embedder().embed_array([d.text for d in docs], persist=False)
        close = [
            p["cosine"]
            for p in message_parts
            if "cosine" in p and p.get("dense_rank", cfg.fusion_depth + 1) <= cfg.fusion_depth
        ]
        return rank_hybrid(
            docs,
            query,
            k,
            query_vector=query_vector.get(),
            doc_vectors=vectors,
            lexical_weight=cfg.lexical_weight,
            dense_weight=weight,
            rrf_k=cfg.rrf_k,
            min_cosine=min(close) if close else None,
        )

    def build(
        self,
        user_id: str,
        session_id: str,
        query: str,
        budget: int,
        *,
        explain: bool = False,
        filter: Mapping[str, Any] | None = None,  # noqa: A002
    ) -> MemoryContext:
        """The context for ``query`` within ``budget`` tokens."""
        t0 = time.perf_counter()
        cfg = self.config
        qvec = self._retriever.query_vector(query, start=cfg.dense_weight > 0)
        packer = Packer(budget)
        anchors, task = self.working(user_id, session_id)
        packer.take([_anchor_item(a) for a in anchors], by_score=False)
        profile, long_docs = self.long_term(user_id)
        doc_of: dict[int, LongTermDoc] = {}  # id(item) -> the entry it renders
        profile_items = [
            self._doc_item(d, 1.0, {"profile": 1.0}, "user profile: before retrieved memories")
            for d in profile
        ]
        doc_of.update((id(it), d) for it, d in zip(profile_items, profile, strict=True))
        packer.take(profile_items, int(budget * cfg.profile_share))
        if task is not None:
            packer.take([_task_item(task)], int(budget * cfg.working_share))
        recent = self.short_term(user_id, session_id)
        session_items = [
            self._item(
                m,
                "short_term",
                float(i + 1),
                {"recency_rank": float(len(recent) - i)},
                "short-term memory: a page of the current session",
            )
            for i, m in enumerate(recent)
        ]
        packer.take(session_items, int(budget * cfg.session_share))
        t1 = time.perf_counter()
        segments: list[tuple[Segment, float, dict[str, float]]] = []

        def via_segments() -> list[tuple[int, float]]:
            # after the BM25 and dense rankings: the query is embedded by then
            segments.extend(self.ranked_segments(user_id, query, query_vector=qvec))
            return self.segment_pages(user_id, segments, qvec)

        ranked = self._retriever.rank(
            user_id,
            query,
            cfg.candidate_pool,
            filter,
            query_vector=qvec,
            via_segments=None if filter else via_segments,
        )
        long_ranked = self.rank_long_term(
            long_docs, query, qvec, [p for _, _, p in ranked], cfg.long_term_k
        )
        t2 = time.perf_counter()
        skip = {s for it in packer.items if it.layer not in STATEMENT_LAYERS for s in it.source_ids}
        cands = self._candidates(user_id, ranked, skip)
        cands += self._segment_items(segments, skip)
        for rank, (doc, fused, parts) in enumerate(long_ranked, 1):
            score = cfg.long_term_weight * fused
            parts["long_term_rank"] = float(rank)
            how = "hybrid search" if "dense_rank" in parts else "shared words"
            reason = f"long-term {doc.layer}: rank {rank} by {how}"
            item = self._doc_item(doc, score, parts, reason)
            doc_of[id(item)] = doc
            cands.append(item)
        self._credit_segments(user_id, cands, segments)
        route = route_query(query) if cfg.routing else None
        self._rescore(cands, route)
        self._rerank(query, cands)
        packer.take(self._diversify(cands), by_score=False)
        if self.on_access is not None:
            used = [(d.layer, d.id) for it in packer.items if (d := doc_of.get(id(it)))]
            if used:
                self.on_access(user_id, used)
        t3 = time.perf_counter()
        return MemoryContext(
            items=packer.items,
            token_budget=budget,
            query=query,
            user_id=user_id,
            session_id=session_id,
            explain=explain,
            timings_ms={
                "short_term": (t1 - t0) * 1e3,
                "retrieve": (t2 - t1) * 1e3,
                "pack": (t3 - t2) * 1e3,
            },
        )

    def _candidates(
        self, user_id: str, ranked: list[tuple[int, float, dict[str, float]]], skip: set[str]
    ) -> list[ContextItem]:
        """Retrieved messages, plus the turns around the primary ones.

        A turn next to a strong hit inherits a share of its score; when a turn is
        both a hit and a neighbour it is one item with the higher score, and its
        explanation keeps both reasons.
        """
        cfg = self.config
        msgs = self.backend.get_messages(user_id, [s for s, _, _ in ranked])
        items: dict[int, ContextItem] = {}
        page_rank = f"{SEGMENT_RANKING}_rank"
        for rank, (seq, score, parts) in enumerate(ranked, start=1):
            msg = msgs.get(seq)
            if msg is not None and msg.id not in skip:
                if page_rank in parts and "bm25_rank" not in parts and "dense_rank" not in parts:
                    layer = "segment_page"
                    reason = (
                        f"retrieved: rank {rank}, through its mid-term segment (rank "
                        f"{int(parts[page_rank])} by cosine among the segments' pages)"
                    )
                else:
                    layer, reason = "message", f"retrieved: rank {rank} by hybrid search"
                items[seq] = self._item(msg, layer, score, dict(parts), reason)
        if cfg.neighbor_window <= 0:
            return list(items.values())
        primary = [(s, sc) for (s, sc, p) in ranked if s in items and "tier" not in p]
        around = self.backend.neighbors_many(user_id, [s for s, _ in primary], cfg.neighbor_window)
        for hit_seq, score in primary:
            hit = msgs[hit_seq]
            asks = hit.content.rstrip().endswith(("?", "？"))
            for nb in around[hit_seq]:
                answer = asks and nb.seq > hit_seq
                nscore = score * (cfg.answer_decay if answer else cfg.neighbor_decay)
                reason = f"{'reply to' if answer else 'turn next to'} retrieved message {hit.id}"
                existing = items.get(nb.seq)
                if nb.id in skip or nscore <= 0 or (existing and existing.score >= nscore):
                    continue
                if existing is None:
                    items[nb.seq] = self._item(
                        nb, "neighbor", nscore, {"neighbor_of_score": score}, reason
                    )
                else:  # a weaker hit, or a neighbour of a weaker hit: raise it, keep its story
                    existing.score = nscore
                    existing.score_parts["neighbor_of_score"] = score
                    existing.reason = f"{reason}; {existing.reason}"
        return list(items.values())

    @staticmethod
    def segment_hit(seg: Segment, fscore: float, parts: dict[str, float]) -> MemoryHit:
        """A segment as a search hit (its summary, citing the messages it came from)."""
        return MemoryHit(
            id=seg.id,
            layer="mid_term",
            text=seg.summary,
            score=fscore,
            score_parts=dict(parts),
            source_ids=list(seg.summary_source_ids),
            timestamp=seg.last_access,
            metadata={"pages": len(seg.pages), "keywords": seg.keywords(8)},
        )

    def _segment_items(
        self, segments: list[tuple[Segment, float, dict[str, float]]], skip: set[str]
    ) -> list[ContextItem]:
        """Summaries of the closest segments, scored like a fused rank of weight
        ``segment_summary_weight`` (so they follow strong message hits)."""
        cfg = self.config
        out: list[ContextItem] = []
        for rank, (seg, fscore, parts) in enumerate(segments, start=1):
            if not seg.summary or set(seg.summary_source_ids) <= skip:
                continue
            score = cfg.segment_summary_weight / (cfg.rrf_k + rank)
            text = f"(summary of {len(seg.pages)} related turns) {seg.summary}"
            out.append(
                ContextItem(
                    layer="mid_term",
                    text=text,
                    tokens=item_tokens(text),
                    score=score,
                    score_parts={**parts, "segment_rank": float(rank)},
                    source_ids=list(seg.summary_source_ids),
                    reason=(
                        f"mid-term segment {seg.id}: rank {rank} by f_score {fscore:.2f}, "
                        f"heat {parts['heat']:.2f}"
                    ),
                    timestamp=seg.pages[-1].timestamp if seg.pages else None,
                    order=max(seg.seqs(), default=0),
                    group=(
                        seg.pages[-1].timestamp.strftime("%Y-%m-%d")
                        if cfg.show_dates and seg.pages
                        else None
                    ),
                )
            )
        return out

    def _rescore(self, items: list[ContextItem], route: Route | None) -> None:
        """Relevance × route weight of the layer × time match × recency × importance.

        Every factor other than 1 is recorded in the item's ``score_parts`` and
        named in its reason.
        """
        cfg = self.config
        stamps = [it.timestamp for it in items if it.timestamp is not None]
        newest = max(stamps) if stamps else None
        for it in items:
            factors: dict[str, float] = {}
            if route is not None:
                factors["route_weight"] = route.weight(_ROUTE_LAYER.get(it.layer, "messages"))
                if route.time_range is not None and it.timestamp is not None:
                    start, end = route.time_range
                    if start <= _aware(it.timestamp) < end:
                        factors["time_match"] = 1.0 + cfg.time_boost
            if cfg.recency_weight > 0 and newest is not None and it.timestamp is not None:
                decay = recency_decay(
                    age_days(it.timestamp, newest), half_life_days=cfg.recency_half_life_days
                )
                factors["recency"] = 1.0 - cfg.recency_weight + cfg.recency_weight * decay
            if "importance" in it.score_parts:
                factors["importance_factor"] = 0.5 + it.score_parts["importance"]
            factors = {k: v for k, v in factors.items() if v != 1.0}
            if not factors:
                continue
            it.score_parts["relevance"] = it.score
            for name, value in factors.items():
                it.score *= value
                it.score_parts[name] = value
            if "time_match" in factors:
                it.reason += "; said within the time the query names"
            if route is not None and factors.get("route_weight", 1.0) != 1.0:
                it.reason += f"; weighed {factors['route_weight']:.2f} for a {route.intent} query"

    def _rerank(self, query: str, items: list[ContextItem]) -> None:
        """Reorder the best ``rerank_top`` candidates by the cross-encoder, if one is set.

        The reordered items take over the scores of the places they move to, so
        they keep their standing against the candidates not reranked.
        """
        n = self.config.rerank_top
        if self.reranker is None or n <= 0 or len(items) < 2:
            return
        top = sorted(items, key=lambda it: -it.score)[:n]
        scores = self.reranker.rerank(query, [it.text for it in top])
        order = sorted(range(len(top)), key=lambda i: (-scores[i], i))
        places = [it.score for it in top]
        for rank, i in enumerate(order, start=1):
            it = top[i]
            it.score_parts["rerank_score"] = float(scores[i])
            it.score_parts["rerank_rank"] = float(rank)
            it.score = places[rank - 1]
            it.reason += f"; reranked to {rank} by the cross-encoder"

    def _diversify(self, items: list[ContextItem]) -> list[ContextItem]:
        """Items best first; with ``mmr_lambda`` < 1 the best ``mmr_pool`` in MMR order.

        Similarity is the cosine of the items' term sets (as 0/1 rows for
        :func:`~langgraph_memory.retrieval.scoring.mmr_order`), so no vector is fetched.
        """
        cfg = self.config
        ranked = sorted(items, key=lambda it: -it.score)
        if cfg.mmr_lambda >= 1.0 or len(ranked) < 3:
            return ranked
        pool, rest = ranked[: cfg.mmr_pool], ranked[cfg.mmr_pool :]
        terms = [set(tokenize(it.text)) for it in pool]
        vocab = {t: j for j, t in enumerate(sorted(set().union(*terms)))}
        rows = np.zeros((len(pool), max(len(vocab), 1)), dtype=np.float32)
        for i, ts in enumerate(terms):
            rows[i, [vocab[t] for t in ts]] = 1.0
        chosen = mmr_order([it.score for it in pool], rows, lambda_=cfg.mmr_lambda)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        unit = rows / np.where(norms == 0, 1.0, norms)
        for n, i in enumerate(chosen[1:], start=1):
            redundancy = float((unit[chosen[:n]] @ unit[i]).max())
            if redundancy > 0:
                pool[i].score_parts["mmr_redundancy"] = redundancy
        return [pool[i] for i in chosen] + rest

    def _doc_item(
        self, doc: LongTermDoc, score: float, parts: dict[str, float], reason: str
    ) -> ContextItem:
        if doc.importance is not None:
            parts = {**parts, "importance": doc.importance}
        return ContextItem(
            layer=doc.layer,
            text=doc.text,
            tokens=item_tokens(doc.text),
            score=score,
            score_parts=parts,
            source_ids=list(doc.source_ids),
            reason=reason,
            timestamp=doc.timestamp,
            order=-1,  # long-term entries open the prompt
            group=None,
        )

    def _credit_segments(
        self,
        user_id: str,
        items: list[ContextItem],
        segments: list[tuple[Segment, float, dict[str, float]]],
    ) -> None:
        """Messages whose page is in a retrieved segment: say so, and boost them (those
        retrieved through their segment are not boosted again)."""
        if not segments:
            return
        rank_of = {seg.id: r for r, (seg, _, _) in enumerate(segments, start=1)}
        seg_of = self.hierarchy.segment_of(user_id, (it.order for it in items))
        for it in items:
            if it.layer not in ("message", "neighbor", "segment_page"):
                continue
            sid = seg_of.get(it.order)
            if sid in rank_of:
                if it.layer != "segment_page":
                    it.score *= 1.0 + self.config.segment_boost
                it.score_parts["segment_rank"] = float(rank_of[sid])
                it.reason += f"; its page is in retrieved segment {sid}"

    def _item(
        self, msg: Message, layer: str, score: float, parts: dict[str, float], reason: str
    ) -> ContextItem:
        text = f"{msg.name or msg.role}: {msg.content}"
        return ContextItem(
            layer=layer,
            text=text,
            tokens=item_tokens(text),
            score=score,
            score_parts=parts,
            source_ids=[msg.id],
            reason=reason,
            timestamp=msg.timestamp,
            session_id=msg.session_id,
            order=msg.seq,
            group=msg.timestamp.strftime("%Y-%m-%d") if self.config.show_dates else None,
        )
