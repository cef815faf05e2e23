"""The read path: ``build_context`` assembles session turns and retrieved memories.

The current session's latest messages take up to ``session_share`` of the budget;
the rest goes to retrieved messages and the turns around the primary ones, best
first, packed exactly into the budget.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from .backends.base import MemoryBackend
from .config import MemoryConfig
from .context import ContextItem, MemoryContext, item_tokens
from .packing import Packer
from .records import Message
from .retrieval.hybrid import HybridRetriever

__all__ = ["ContextBuilder"]


class ContextBuilder:
    """Builds :class:`MemoryContext` objects (arguments are validated by the manager)."""

    def __init__(
        self, backend: MemoryBackend, retriever: HybridRetriever, config: MemoryConfig
    ) -> None:
        self.backend = backend
        self._retriever = retriever
        self.config = config

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
        recent = self.backend.session_messages(user_id, session_id, last=cfg.recent_messages)
        session_items = [
            self._item(
                m,
                "session",
                float(i + 1),
                {"recency_rank": float(len(recent) - i)},
                "latest message of the current session",
            )
            for i, m in enumerate(recent)
        ]
        packer.take(session_items, int(budget * cfg.session_share))
        t1 = time.perf_counter()
        ranked = self._retriever.rank(user_id, query, cfg.candidate_pool, filter)
        t2 = time.perf_counter()
        skip = {s for it in packer.items for s in it.source_ids}
        packer.take(self._candidates(user_id, ranked, skip))
        t3 = time.perf_counter()
        return MemoryContext(
            items=packer.items,
            token_budget=budget,
            query=query,
            user_id=user_id,
            session_id=session_id,
            explain=explain,
            timings_ms={
                "session": (t1 - t0) * 1e3,
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
