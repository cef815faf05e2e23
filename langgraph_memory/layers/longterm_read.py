"""Long-term memory on the read path: the profile rides along, the rest is ranked.

The user profile (preferences above the context threshold, conflicts resolved)
is small and refined, so it is offered whole, first. Current facts, agent
traits, episodes and knowledge are ranked against the query by a BM25-like term
score over their texts (English and Chinese tokenisation); only those sharing terms with the
query are offered.

Example:
    >>> from datetime import datetime, timezone
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> docs = [LongTermDoc("f1", "fact", "User lives in Lyon", ["m1"], t),
    ...         LongTermDoc("f2", "fact", "User works at ACME", ["m2"], t)]
    >>> [(d.id, round(s, 2) > 0) for d, s in rank_docs(docs, "where does the user live? Lyon")]
    [('f1', True)]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..tokens import tokenize

__all__ = ["LongTermDoc", "rank_docs"]


@dataclass(slots=True)
class LongTermDoc:
    """One long-term entry as the read path sees it."""

    id: str
    layer: str
    text: str
    source_ids: list[str]
    timestamp: datetime | None = None
    #: In ``[0, 1]`` for entries that have one (episodes), else ``None``.
    importance: float | None = None


def rank_docs(
    docs: Sequence[LongTermDoc], query: str, k: int | None = None
) -> list[tuple[LongTermDoc, float]]:
    """Docs sharing terms with ``query``, best first.

    The score is ``Σ log(1 + N/df)·tf/(tf + 1.2)`` over the query terms a doc has
    (BM25's idf is degenerate on the few entries of one user); a term every doc
    shares (such as "user") does not count when there are several docs, unless no
    doc has any other query term: then the shared terms rank them (several episodes
    and their knowledge, all about "重启 nginx 容器", still answer that query).

    Example:
        >>> from datetime import datetime, timezone
        >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
        >>> docs = [LongTermDoc("e1", "episode", "重启 nginx 容器: 成功", [], t),
        ...         LongTermDoc("e2", "episode", "重启 nginx 容器 两次", [], t)]
        >>> [d.id for d, _ in rank_docs(docs, "怎么重启 nginx 容器？")]
        ['e1', 'e2']
    """
    terms = set(tokenize(query))
    if not docs or not terms:
        return []
    counts = [Counter(tokenize(d.text)) for d in docs]
    n = len(docs)
    df = {t: sum(1 for c in counts if c.get(t)) for t in terms}
    shared_only = n > 1 and all(df[t] in (0, n) for t in terms)
    scored: list[tuple[float, int]] = []
    for i, c in enumerate(counts):
        score = sum(
            math.log(1 + n / df[t]) * c[t] / (c[t] + 1.2)
            for t in terms
            if c.get(t) and (df[t] < n or n == 1 or shared_only)
        )
        if score > 0:
            scored.append((score, i))
    scored.sort(key=lambda x: (-x[0], x[1]))
    out = [(docs[i], s) for s, i in scored]
    return out[:k] if k is not None else out
