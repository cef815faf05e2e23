"""Pages and the scores that place them: keywords, Jaccard, f_score, heat.

A **page** is one exchange: a user message and every reply up to the next user
message (a message with no user message before it is a page of its own). Pages
live first in a session's short-term FIFO, then in a mid-term segment; their
messages stay stored and searchable whatever layer the page is in.

The formulas follow MemoryOS (seed 001):

- ``f_score = cos(page, segment) + Jaccard(page keywords, segment keywords)``;
- ``heat = α·visits + β·interactions + γ·exp(−Δt/μ)``, Δt the seconds since the
  segment was last touched.

Example:
    >>> round(f_score([1.0, 0.0], [1.0, 0.0], {"tea"}, {"tea", "cake"}), 2)
    1.5
    >>> round(heat(visits=2, interactions=3, idle_seconds=0.0), 2)
    6.0
    >>> keywords("I love green tea, tea every morning!")
    ['tea', 'love', 'green', 'every', 'morning']
"""

from __future__ import annotations

import base64
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from langgraph_memory.core.tokens import tokenize

__all__ = [
    "Page",
    "keywords",
    "jaccard",
    "cosine",
    "f_score",
    "heat",
    "encode_vector",
    "decode_vector",
    "counts_of",
]

_MIN_WORD = 2


def keywords(text: str, limit: int = 10) -> list[str]:
    """The ``limit`` most frequent content words of ``text`` (ties: first seen first).

    Single characters and pure numbers are skipped; English and Chinese alike.
    """
    counts = Counter(t for t in tokenize(text) if len(t) >= _MIN_WORD and not t.isdigit())
    # a Counter keeps first-seen order, and a sort that reverses stays stable
    return sorted(counts, key=counts.__getitem__, reverse=True)[:limit]


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    """Jaccard similarity of two keyword sets (0 when both are empty); sets are used as
    they are (mid-term placement passes each segment's cached set), other iterables are
    made sets."""
    sa = a if isinstance(a, (set, frozenset)) else set(a)
    sb = b if isinstance(b, (set, frozenset)) else set(b)
    shared = len(sa & sb)
    union = len(sa) + len(sb) - shared
    return shared / union if union else 0.0


def cosine(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Cosine similarity (0 when either vector is zero)."""
    va = np.asarray(a, dtype=np.float32)
    vb = np.asarray(b, dtype=np.float32)
    # Three dot products: np.linalg.norm costs several times a dot on 384 floats.
    norms = float(va @ va) * float(vb @ vb)
    if norms <= 0.0:
        return 0.0
    return float(va @ vb) / math.sqrt(norms)


def f_score(
    page_vec: Sequence[float] | np.ndarray,
    seg_vec: Sequence[float] | np.ndarray,
    page_keywords: Iterable[str],
    seg_keywords: Iterable[str],
) -> float:
    """MemoryOS's placement score: cosine of the vectors plus Jaccard of the keywords.

    In ``[-1, 2]``; a page joins the best segment whose score is above the threshold.
    """
    return cosine(page_vec, seg_vec) + jaccard(page_keywords, seg_keywords)


def heat(
    visits: int,
    interactions: int,
    idle_seconds: float,
    *,
    alpha: float = 1.0,
    beta: float = 1.0,
    gamma: float = 1.0,
    mu_seconds: float = 1e7,
) -> float:
    """Segment heat: ``α·visits + β·interactions + γ·exp(−idle/μ)``.

    Args:
        visits: Times the segment was retrieved since its last promotion.
        interactions: Pages it gained since its last promotion.
        idle_seconds: Seconds since it was last retrieved or extended (negative
            values, from clock skew, count as 0).
        alpha: Weight of visits.
        beta: Weight of interactions.
        gamma: Weight of recency.
        mu_seconds: Time constant of the recency decay.
    """
    recency = math.exp(-max(idle_seconds, 0.0) / mu_seconds)
    return alpha * visits + beta * interactions + gamma * recency


def encode_vector(vec: np.ndarray | None) -> str | None:
    """A float32 vector as compact base64 (for JSON records)."""
    if vec is None:
        return None
    return base64.b64encode(np.asarray(vec, dtype=np.float32).tobytes()).decode("ascii")


def decode_vector(data: str | None) -> np.ndarray | None:
    """The inverse of :func:`encode_vector`."""
    if not data:
        return None
    return np.frombuffer(base64.b64decode(data), dtype=np.float32).copy()


@dataclass(slots=True)
class Page:
    """One exchange of a session.

    Attributes:
        id: The id of its first message.
        session_id: Where it was said.
        message_ids: Its messages, in order.
        seqs: Their store sequence numbers.
        timestamp: When its first message was said.
        keywords: Its content words, most frequent first.
        tokens: Tokens of its messages.
        vector: Sum of its messages' (normalised) embeddings; ``None`` once placed.
        chain_id: Its topic chain in short-term memory.
        open: Whether it may still receive replies.
    """

    id: str
    session_id: str
    message_ids: list[str]
    seqs: list[int]
    timestamp: datetime
    keywords: list[str] = field(default_factory=list)
    tokens: int = 0
    vector: np.ndarray | None = None
    chain_id: str | None = None
    open: bool = True

    def dump(self, with_vector: bool = True) -> dict[str, Any]:
        return {
            "id": self.id,
            "session_id": self.session_id,
            "message_ids": self.message_ids,
            "seqs": self.seqs,
            "timestamp": self.timestamp.isoformat(),
            "keywords": self.keywords,
            "tokens": self.tokens,
            "vector": encode_vector(self.vector) if with_vector else None,
            "chain_id": self.chain_id,
            "open": self.open,
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> Page:
        return cls(
            id=d["id"],
            session_id=d["session_id"],
            message_ids=list(d["message_ids"]),
            seqs=list(d["seqs"]),
            timestamp=datetime.fromisoformat(d["timestamp"]),
            keywords=list(d.get("keywords", [])),
            tokens=int(d.get("tokens", 0)),
            vector=decode_vector(d.get("vector")),
            chain_id=d.get("chain_id"),
            open=bool(d.get("open", False)),
        )


def counts_of(stored: Any) -> dict[str, int]:
    """Keyword counts as stored, whole numbers only: a count a store once hid as
    ``[SECRET]`` (its word named a secret) is dropped, not read as a number.

    Example:
        >>> counts_of({"token": "[SECRET]", "auth": 2})
        {'auth': 2}
    """
    if not isinstance(stored, dict):
        return {}
    return {k: v for k, v in stored.items() if type(v) is int}
