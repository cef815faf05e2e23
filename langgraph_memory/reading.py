"""The read path: ``build_context`` assembles short-term pages and retrieved memories.

The current session's short-term pages (its latest messages) take up to
``session_share`` of the budget; the rest goes to retrieved messages, the turns
around the primary ones and the summaries of the mid-term segments closest to the
query (retrieving a segment warms it), best first, packed exactly into the budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from .backends.base import MemoryBackend
from .config import MemoryConfig
from .context import ContextItem, MemoryContext, item_tokens
from .layers.hierarchy import Hierarchy
from .layers.longterm_read import LongTermDoc, rank_docs
from .layers.midterm import Segment
from .packing import Packer
from .records import MemoryHit, Message
from .retrieval.hybrid import HybridRetriever
from .tokens import tokenize

__all__ = ["ContextBuilder"]


class ContextBuilder:
    """Builds :class:`MemoryContext` objects (arguments are validated by the manager)."""

    def __init__(
        self,
        backend: MemoryBackend,
        retriever: HybridRetriever,
        config: MemoryConfig,
        hierarchy: Hierarchy,
        long_term: Callable[[str], tuple[list[LongTermDoc], list[LongTermDoc]]] | None = None,
    ) -> None:
        self.backend = backend
        self._retriever = retriever
        self.config = config
        self.hierarchy = hierarchy
        #: ``user_id -> (profile docs, other long-term docs)``.
        self.long_term = long_term or (lambda user_id: ([], []))

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
        self, user_id: str, query: str, *, visit: bool = True
    ) -> list[tuple[Segment, float, dict[str, float]]]:
        """The mid-term segments closest to ``query`` (each retrieval warms them)."""
        k = self.config.segments_per_query
        if k <= 0:
            return []
        qvec = None
        if self.config.dense_weight > 0:
            qvec = self._retriever.embedder().embed_array([query], persist=False)[0]
        return self.hierarchy.rank_segments(user_id, qvec, tokenize(query), k, visit=visit)

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
        packer = Packer(budget)
        profile, long_docs = self.long_term(user_id)
        packer.take(
            [
                self._doc_item(d, 1.0, {"profile": 1.0}, "user profile: always offered first")
                for d in profile
            ],
            int(budget * cfg.profile_share),
        )
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
        ranked = self._retriever.rank(user_id, query, cfg.candidate_pool, filter)
        segments = [] if filter else self.ranked_segments(user_id, query)
        t2 = time.perf_counter()
        skip = {s for it in packer.items for s in it.source_ids}
        cands = self._candidates(user_id, ranked, skip)
        cands += self._segment_items(segments, skip)
        for rank, (doc, bm25) in enumerate(rank_docs(long_docs, query, cfg.long_term_k), 1):
            score = cfg.long_term_weight / (cfg.rrf_k + rank)
            parts = {"term_score": bm25, "long_term_rank": float(rank)}
            cands.append(self._doc_item(doc, score, parts, f"long-term {doc.layer}: rank {rank}"))
        self._credit_segments(user_id, cands, segments)
        packer.take(cands)
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
        for rank, (seq, score, parts) in enumerate(ranked, start=1):
            msg = msgs.get(seq)
            if msg is not None and msg.id not in skip:
                reason = f"retrieved: rank {rank} by hybrid search"
                items[seq] = self._item(msg, "message", score, dict(parts), reason)
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

    def _doc_item(
        self, doc: LongTermDoc, score: float, parts: dict[str, float], reason: str
    ) -> ContextItem:
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
        """Messages whose page is in a retrieved segment: say so, and boost them."""
        if not segments:
            return
        rank_of = {seg.id: r for r, (seg, _, _) in enumerate(segments, start=1)}
        seg_of = self.hierarchy.segment_of(user_id, (it.order for it in items))
        for it in items:
            if it.layer not in ("message", "neighbor"):
                continue
            sid = seg_of.get(it.order)
            if sid in rank_of:
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
