"""The topic a timeline question is about: the user's own messages on it, for the outline.

An order or summary question (see :mod:`~langgraph_memory.read.timeline`) names a topic
with a few words ("the migration", "引导页改版") while its story is told in many short
statements, most of which share none of those words ("added a backfill step for the
null emails"). :func:`topic_messages` ranks the user's messages for such a question in
three ways and fuses them by weighted reciprocal rank:

1. the question itself (BM25 and dense, each retriever's best in turn);
2. each event an order question lists ("which came first: A, B or C?"), found on its
   own (:func:`~langgraph_memory.read.timeline.timeline_parts`), so that one event the
   question's other words outweigh still makes the outline;
3. the messages most like the best statements found (the topic around them): by cosine
   with the mean of their stored vectors, or for a Chinese statement by BM25 over its rarest words
   (the default model reads Chinese as unknown word pieces). These weigh
   :data:`TOPIC_WEIGHT` of a direct match, and the first :data:`TOPIC_SEEDS` messages
   the question (and its events) find keep their places: the topic fills the outline
   after what the question finds itself.

Example:
    >>> from langgraph_memory.config import PackingSection
    >>> 2 * PackingSection().timeline_messages  # the outline's candidates, at most
    96
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_memory.config import PackingSection
from langgraph_memory.core.records import index_text
from langgraph_memory.core.tokens import is_cjk_text, tokenize
from langgraph_memory.embeddings.cache import CachedEmbeddings
from langgraph_memory.read.followups import distinctive
from langgraph_memory.read.messages import RankedMessage
from langgraph_memory.read.query import Retrieval
from langgraph_memory.read.timeline import is_statement, timeline_parts
from langgraph_memory.retrieval.fusion import rrf_fuse

if TYPE_CHECKING:
    from langgraph_memory.storage.base import MemoryBackend

__all__ = ["topic_messages", "TOPIC_SEEDS", "TOPIC_WEIGHT", "PART_WEIGHT"]

#: How many of the best statements found for the question open the topic around them.
TOPIC_SEEDS = 4
#: A message reached through a seed counts this much of one the question finds itself.
TOPIC_WEIGHT = 0.5
#: An event an order question lists counts this much (each is found on its own).
PART_WEIGHT = 1.0
#: A Chinese seed's search reads its rarest terms whose postings add up to at most this.
_SEED_POSTINGS = 2048


def topic_messages(
    r: Retrieval,
    storage: MemoryBackend,
    embedder: Callable[[], CachedEmbeddings],
    flt: Mapping[str, Any] | None,
    packing: PackingSection,
    *,
    rrf_k: int = 60,
) -> list[RankedMessage]:
    """The user's messages on the topic of ``r``'s timeline question, best first (at
    most ``2 * timeline_messages``; see the module docs).

    Args:
        r: The question's retrieval.
        storage: The store (the seeds' neighbours).
        embedder: Hands out the cached embedder (the seeds' stored vectors).
        flt: Which messages count (the caller's filter and ``role: user``).
        packing: ``timeline_messages``: how many the outline may hold.
        rrf_k: The fusion's ``k``.
    """
    k = 2 * packing.timeline_messages
    direct = r.messages(k, flt, via_segments=False, fusion="rrf")
    rankings: dict[str, list[int]] = {"query": [m.seq for m in direct]}
    weights = {"query": 1.0}
    if r.q.timeline == "order":
        for i, part in enumerate(timeline_parts(r.query), 1):
            rankings[f"event{i}"] = [m.seq for m in r.messages_for(part, k // 2, flt)]
            weights[f"event{i}"] = PART_WEIGHT
    found = rrf_fuse(rankings, k=rrf_k, weights=weights)
    seeds = _seeds(storage, r.user_id, direct)
    if seeds:
        allowed = r.allowed(flt)
        around = _around(storage, embedder, r.user_id, seeds, k, allowed)
        rankings["topic"], weights["topic"] = [s for s, _ in around], TOPIC_WEIGHT
        # the best the question finds keep their places (a small budget's outline holds
        # them); the topic fills in after them
        head = found[:TOPIC_SEEDS]
        first = {seq for seq, _, _ in head}
        rest = rrf_fuse(rankings, k=rrf_k, weights=weights)
        found = head + [x for x in rest if x[0] not in first]
    if len(rankings) == 1:
        return direct
    return [RankedMessage(seq, score, parts) for seq, score, parts in found[:k]]


def _seeds(storage: MemoryBackend, user_id: str, ranked: list[RankedMessage]) -> list[Any]:
    """The best statements among the first ranked messages that share a word with the
    question (a seed found by meaning alone may be off the topic, and so would be all
    that is like it)."""
    top = [r for r in ranked[: 3 * TOPIC_SEEDS] if r.parts.get("bm25", 0.0) > 0]
    msgs = storage.get_messages(user_id, [m.seq for m in top])
    said = [m for r in top if (m := msgs.get(r.seq)) is not None and is_statement(m)]
    return said[:TOPIC_SEEDS]


def _around(
    storage: MemoryBackend,
    embedder: Callable[[], CachedEmbeddings],
    user_id: str,
    seeds: list[Any],
    n: int,
    allowed: set[int] | None,
) -> list[tuple[int, float]]:
    """The messages most like the seeds (the seeds left out), best first: by cosine with
    the mean of their stored vectors (the topic's direction), and for Chinese seeds by
    the BM25 of their rarest words (each seed's ranking in turn)."""
    own = {m.seq for m in seeds}
    ranked: list[tuple[int, float]] = []
    latin = [m for m in seeds if not is_cjk_text(m.content)]
    if latin:
        try:
            vectors = np.asarray(embedder().embed_array([index_text(m) for m in latin]))
        except Exception:  # a seed the model fails on opens no topic
            vectors = np.zeros((0, 0))
        vectors = vectors[np.isfinite(vectors).all(axis=1)] if vectors.size else vectors
        if len(vectors):
            # the topic: the direction the seeds share (one off-topic seed weighs 1/n)
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            centre = (vectors / np.maximum(norms, 1e-12)).mean(axis=0)
            found = storage.vector_search(user_id, centre, n + len(own), allowed)
            ranked = [(s, c) for s, c in found if s not in own]
    chinese = [m for m in seeds if is_cjk_text(m.content)]
    if chinese:
        terms = [tokenize(index_text(m)) for m in chinese]
        df = storage.document_frequencies(user_id, [t for ts in terms for t in ts])
        lists = {"dense": [s for s, _ in ranked]} if ranked else {}
        for i, ts in enumerate(terms):
            rare = distinctive(ts, df, _SEED_POSTINGS)
            if rare:
                found = storage.lexical_search(user_id, rare, n + len(own), allowed)
                lists[f"seed{i}"] = [s for s, _ in found if s not in own]
        ranked = [(s, score) for s, score, _ in rrf_fuse(lists)]
    return ranked[:n]
