"""Short-term memory: per session, a FIFO of pages linked into topic chains.

Messages arrive in order. A user message opens a new page (closing the open
one); any other message joins the open page. A closed page continues the chain
it is most similar to (cosine of vectors + Jaccard of keywords at least
``chain_threshold``), else it starts a new chain. When the FIFO holds more than
``capacity_pages`` pages or ``capacity_tokens`` tokens, the oldest pages leave
for mid-term memory; an idle session (see ``Hierarchy.expire_sessions``) hands
all its pages on. Nothing is dropped: every page that leaves is returned.

Example:
    >>> import numpy as np
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.records import Message
    >>> state = SessionState("u", "s")
    >>> t = datetime(2024, 1, 1, tzinfo=timezone.utc)
    >>> evicted = []
    >>> for i in range(10):
    ...     m = Message(f"m{i}", "u", "s", "user", f"weather talk {i}", t, seq=i + 1)
    ...     evicted += state.add(m, np.ones(4, dtype=np.float32), capacity_pages=3)
    >>> len(state.pages), [p.id for p in evicted][:2]
    (3, ['m0', 'm1'])
    >>> len(state.chains)  # one topic: every page continued the same chain
    1
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import count_tokens
from langgraph_memory.layers.short_term.pages import (
    Page,
    counts_of,
    decode_vector,
    encode_vector,
    f_score,
    keywords,
)

__all__ = ["Chain", "SessionState"]

_CHAIN_KEYWORDS = 20


@dataclass(slots=True)
class Chain:
    """A topic thread of a session: pages that continue one another.

    Attributes:
        id: ``"<session>#<n>"``.
        session_id: Its session.
        page_ids: Its pages still in short-term memory, oldest first.
        pages_total: Pages it ever had.
        keyword_counts: Content words of its pages with their counts.
        vector: Sum of its pages' vectors.
        summary: What it is about (LLM or extractive).
        summary_source_ids: Messages the summary was made from.
        dirty: Whether the summary is behind its pages.
    """

    id: str
    session_id: str
    page_ids: list[str] = field(default_factory=list)
    pages_total: int = 0
    keyword_counts: dict[str, int] = field(default_factory=dict)
    vector: np.ndarray | None = None
    summary: str = ""
    summary_source_ids: list[str] = field(default_factory=list)
    dirty: bool = True

    def keywords(self, limit: int = _CHAIN_KEYWORDS) -> list[str]:
        """Its most frequent keywords."""
        return [w for w, _ in Counter(self.keyword_counts).most_common(limit)]

    def add(self, page: Page) -> None:
        self.page_ids.append(page.id)
        self.pages_total += 1
        counts = self.keyword_counts  # in place: same counts and order as Counter + Counter
        for word in page.keywords:
            counts[word] = counts.get(word, 0) + 1
        if page.vector is not None:
            self.vector = page.vector.copy() if self.vector is None else self.vector + page.vector
        page.chain_id = self.id
        self.dirty = True

    def dump(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "session_id": self.session_id,
            "page_ids": self.page_ids,
            "pages_total": self.pages_total,
            "keyword_counts": self.keyword_counts,
            "vector": encode_vector(self.vector),
            "summary": self.summary,
            "summary_source_ids": self.summary_source_ids,
            "dirty": self.dirty,
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> Chain:
        return cls(
            id=d["id"],
            session_id=d["session_id"],
            page_ids=list(d.get("page_ids", [])),
            pages_total=int(d.get("pages_total", 0)),
            keyword_counts=counts_of(d.get("keyword_counts")),
            vector=decode_vector(d.get("vector")),
            summary=d.get("summary", ""),
            summary_source_ids=list(d.get("summary_source_ids", [])),
            dirty=bool(d.get("dirty", False)),
        )


@dataclass(slots=True)
class SessionState:
    """The short-term memory of one session.

    Attributes:
        user_id: Whose.
        session_id: Which session.
        pages: Pages, oldest first; the last one may be open.
        chains: Topic chains by id.
        last_seq: The last message placed (replays are ignored).
        last_active: When its last message was said.
        chains_made: Chains ever started (names the next one).
    """

    user_id: str
    session_id: str
    pages: list[Page] = field(default_factory=list)
    chains: dict[str, Chain] = field(default_factory=dict)
    last_seq: int = 0
    last_active: datetime | None = None
    chains_made: int = 0

    @property
    def tokens(self) -> int:
        """Tokens of its pages."""
        return sum(p.tokens for p in self.pages)

    def message_ids(self) -> list[str]:
        """Ids of every message in its pages, in order."""
        return [mid for p in self.pages for mid in p.message_ids]

    def add(
        self,
        msg: Message,
        vector: np.ndarray,
        *,
        capacity_pages: int = 7,
        capacity_tokens: int = 4000,
        chain_threshold: float = 0.6,
    ) -> list[Page]:
        """Place one message; returns the pages that left (oldest first).

        A message at or before ``last_seq`` was placed already and is ignored.
        """
        if msg.seq <= self.last_seq:
            return []
        self.last_seq = msg.seq
        self.last_active = msg.timestamp
        vec = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(vec))
        unit = vec / norm if norm > 0 else vec
        open_page = self.pages[-1] if self.pages and self.pages[-1].open else None
        if msg.role == "user" or open_page is None:
            if open_page is not None:
                self.close(open_page, chain_threshold)
            open_page = Page(msg.id, msg.session_id, [], [], msg.timestamp)
            self.pages.append(open_page)
        open_page.message_ids.append(msg.id)
        open_page.seqs.append(msg.seq)
        open_page.tokens += count_tokens(msg.content)
        merged = dict.fromkeys(open_page.keywords, 2)  # the page's words first, then new ones
        for word in keywords(msg.content):
            merged[word] = merged.get(word, 0) + 1
        open_page.keywords = sorted(merged, key=merged.__getitem__, reverse=True)[:10]
        open_page.vector = unit.copy() if open_page.vector is None else open_page.vector + unit
        return self._evict(capacity_pages, capacity_tokens, chain_threshold)

    def close(self, page: Page, chain_threshold: float) -> None:
        """Close ``page`` and link it into the chain it continues (or a new one)."""
        if not page.open:
            return
        page.open = False
        best, best_score = None, chain_threshold
        for chain in self.chains.values():
            if chain.vector is None or page.vector is None:
                continue
            score = f_score(page.vector, chain.vector, page.keywords, chain.keywords())
            if score >= best_score:
                best, best_score = chain, score
        if best is None:
            self.chains_made += 1
            best = Chain(f"{self.session_id}#{self.chains_made}", self.session_id)
            self.chains[best.id] = best
        best.add(page)

    def drain(self, chain_threshold: float = 0.6) -> list[Page]:
        """Close the open page and hand every page on (the session went idle)."""
        if self.pages:
            self.close(self.pages[-1], chain_threshold)
        out, self.pages, self.chains = self.pages, [], {}
        return out

    def _evict(self, capacity_pages: int, capacity_tokens: int, threshold: float) -> list[Page]:
        out: list[Page] = []
        while len(self.pages) > 1 and (
            len(self.pages) > capacity_pages or self.tokens > capacity_tokens
        ):
            page = self.pages.pop(0)
            self.close(page, threshold)  # a lone oldest page may still be open
            out.append(page)
            chain = self.chains.get(page.chain_id or "")
            if chain is not None:
                chain.page_ids = [p for p in chain.page_ids if p != page.id]
                if not chain.page_ids:
                    del self.chains[chain.id]
        return out

    def dump(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "pages": [p.dump() for p in self.pages],
            "chains": [c.dump() for c in self.chains.values()],
            "last_seq": self.last_seq,
            "last_active": self.last_active.isoformat() if self.last_active else None,
            "chains_made": self.chains_made,
        }

    @classmethod
    def load(cls, user_id: str, d: dict[str, Any]) -> SessionState:
        chains = [Chain.load(c) for c in d.get("chains", [])]
        last = d.get("last_active")
        return cls(
            user_id=user_id,
            session_id=d["session_id"],
            pages=[Page.load(p) for p in d.get("pages", [])],
            chains={c.id: c for c in chains},
            last_seq=int(d.get("last_seq", 0)),
            last_active=datetime.fromisoformat(last) if last else None,
            chains_made=int(d.get("chains_made", 0)),
        )
