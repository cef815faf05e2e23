"""What the read path adds after ranking: later statements that may update a retrieved
one, and the dated timeline of the user's words for "how did it go" questions.

Example:
    >>> from langgraph_memory.config import PackingSection
    >>> PackingSection().successor_k, PackingSection().timeline_messages
    (2, 48)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, cast

import numpy as np

from langgraph_memory.config import PackingSection
from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.filters import Predicate
from langgraph_memory.core.records import Message, index_text
from langgraph_memory.core.tokens import is_cjk_text, tokenize
from langgraph_memory.embeddings.cache import CachedEmbeddings
from langgraph_memory.read.candidates import message_item
from langgraph_memory.read.messages import RankedMessage
from langgraph_memory.read.packing import Packer
from langgraph_memory.read.timeline import is_statement, timeline_item

if TYPE_CHECKING:
    from langgraph_memory.storage.base import MemoryBackend

__all__ = ["SUCCESSOR_POSTINGS", "add_successors", "distinctive", "pack_timeline"]

#: Most postings a statement's search for its updates by words reads: its rarest terms
#: whose messages add up to at most this many (terms held by more are common words, too
#: weak to tell an update from the many messages that share them, and costly to rank).
SUCCESSOR_POSTINGS = 4096

#: Runs calls at once and returns their results in order.
RunAll = Callable[[Sequence[Callable[[], list[tuple[int, float]]]]], list[list[tuple[int, float]]]]


def add_successors(
    storage: MemoryBackend,
    embedder: Callable[[], CachedEmbeddings],
    user_id: str,
    ranked: list[RankedMessage],
    msgs: Mapping[int, Message],
    cands: list[ContextItem],
    skip: set[str],
    terms: frozenset[str],
    packing: PackingSection,
    run_all: RunAll | None = None,
    keep: Predicate | None = None,
) -> None:
    """Add the later user messages most like each of the best retrieved statements of
    the user: a value said again later ("the ETL now runs hourly" after "we run the ETL
    every 6 hours") is an update the query's words may not reach.

    For each of the best ``successor_hits`` primary hits that is a user statement (not a
    question), the ``successor_k`` later user messages closest to it (cosine at least
    ``successor_min_cosine``, by the store's vector search) join ``cands`` at
    ``successor_decay`` times its score; one already a candidate keeps the higher
    score. A Chinese statement finds them by BM25 over its own rarest terms instead
    (the default model reads Chinese as unknown word pieces, so every cosine is high;
    see :data:`SUCCESSOR_POSTINGS`). Off with ``successor_k`` 0 (the caller leaves it
    out without dense retrieval). ``msgs``: the ranked messages by seq (fetched once by
    the caller). ``run_all`` runs searches at once (the retriever's threads), used when
    the store waits on a server. ``keep``: the caller's filter (a later message it
    refuses never joins).
    """
    if packing.successor_k <= 0:
        return
    top = [r for r in ranked[: packing.successor_hits] if r.primary]
    stated = [
        (r, m)
        for r in top
        if (m := msgs.get(r.seq)) is not None
        and m.role == "user"
        and not m.content.rstrip().endswith(("?", "？"))
    ]
    if not stated:
        return
    # the stored messages' own vectors, from the embedding cache
    vectors = _vectors(embedder(), [index_text(m) for _, m in stated])
    by_seq = {it.order: it for it in cands if it.layer in ("message", "neighbor")}
    n = 4 * packing.successor_k + 4
    # the dense searches in one pass over the vectors (each result is its search alone)
    dense = [i for i, (_, said) in enumerate(stated) if not is_cjk_text(said.content)]
    dense = [i for i in dense if vectors[i] is not None]
    nearest = dict(
        zip(
            dense,
            storage.vector_search_many(user_id, [cast(np.ndarray, vectors[i]) for i in dense], n),
            strict=True,
        )
    )
    # the default model reads Chinese as unknown pieces (every cosine is high): a Chinese
    # statement finds its successors by the words it shares with them (the searches at
    # once on a store that waits on a server: each settles common terms' BM25 order)
    lexical = [
        i
        for i, (_, said) in enumerate(stated)
        if is_cjk_text(said.content) and vectors[i] is not None
    ]
    by_words = dict(
        zip(
            lexical,
            _lexical_many(storage, user_id, [stated[i][1] for i in lexical], n, run_all),
            strict=True,
        )
    )
    for i, ((hit, said), vec) in enumerate(zip(stated, vectors, strict=True)):
        if vec is None:  # a message the model fails on (quarantined): no successors
            continue
        if i in by_words:
            close = {q: c for q, c in by_words[i] if q > said.seq and c > 0}
        else:
            found = nearest[i]
            close = {q: c for q, c in found if q > said.seq and c >= packing.successor_min_cosine}
        later = storage.get_messages(user_id, list(close))
        taken = 0
        for q in sorted(close, key=lambda q: -close[q]):
            m = later.get(q)
            if m is None or m.role != "user" or m.id in skip or (keep and not keep(m)):
                continue
            score = hit.score * packing.successor_decay
            how = "bm25_to_statement" if is_cjk_text(said.content) else "cosine_to_statement"
            parts = {"successor_of_score": hit.score, how: close[q]}
            reason = f"a later message like retrieved message {said.id} (it may update it)"
            old = by_seq.get(q)
            if old is None:
                item = message_item(
                    m, "message", score, parts, reason, show_dates=packing.show_dates,
                    terms=terms, max_tokens=packing.excerpt_tokens,
                )  # fmt: skip
                cands.append(item)
                by_seq[q] = item
            elif old.score < score:
                old.score, old.reason = score, f"{reason}; {old.reason}"
                old.score_parts.update(parts)
            taken += 1
            if taken >= packing.successor_k:
                break


def _lexical_many(
    storage: MemoryBackend, user_id: str, said: list[Message], n: int, run_all: RunAll | None
) -> list[list[tuple[int, float]]]:
    """The best ``n`` messages by BM25 over each message's distinctive terms (see
    :func:`distinctive`); the searches run at once (``run_all``) when the store waits on
    a server (``parallel_reads``)."""
    terms = [tokenize(index_text(m)) for m in said]
    df = storage.document_frequencies(user_id, [t for ts in terms for t in ts])
    chosen = [distinctive(ts, df, SUCCESSOR_POSTINGS) for ts in terms]
    calls = [partial(storage.lexical_search, user_id, ts, n) for ts in chosen]
    if len(calls) < 2 or run_all is None or not storage.parallel_reads:
        return [call() if ts else [] for call, ts in zip(calls, chosen, strict=True)]
    found = iter(run_all([call for call, ts in zip(calls, chosen, strict=True) if ts]))
    return [next(found) if ts else [] for ts in chosen]


def distinctive(terms: Sequence[str], df: Mapping[str, int], postings: int) -> list[str]:
    """``terms`` (repeats kept, in order) less the common ones: the rarest terms (by
    ``df``, ties by the term) whose document frequencies add up to at most ``postings``.

    Example:
        >>> distinctive(["we", "moved", "to", "lisbon", "we"], {"we": 900, "moved": 40,
        ...             "to": 950, "lisbon": 3}, 100)
        ['moved', 'lisbon']
    """
    kept: set[str] = set()
    total = 0
    for term in sorted({t for t in terms if df.get(t, 0) > 0}, key=lambda t: (df[t], t)):
        total += df[term]
        if total > postings:
            break
        kept.add(term)
    return [t for t in terms if t in kept]


def _vectors(embedder: CachedEmbeddings, texts: list[str]) -> list[np.ndarray | None]:
    """The texts' vectors; ``None`` for a text the model fails on or gives no finite
    vector (the others are still embedded: a message the worker quarantined does not
    break a context)."""
    try:
        found: list[np.ndarray | None] = list(embedder.embed_array(texts))
    except Exception:
        found = []
        for text in texts:
            try:
                found.append(embedder.embed_array([text])[0])
            except Exception:
                found.append(None)
    return [v if v is not None and np.isfinite(v).all() else None for v in found]


def pack_timeline(
    packer: Packer,
    storage: MemoryBackend,
    user_id: str,
    ranked: list[RankedMessage],
    terms: frozenset[str],
    packing: PackingSection,
) -> list[int]:
    """Pack the outline of the user's messages ``ranked`` for the query (see
    :mod:`.timeline`), dropping the weakest lines until it fits ``timeline_share``; the
    seqs of the messages it outlines (none when nothing was packed)."""
    msgs = storage.get_messages(user_id, [r.seq for r in ranked])
    # how it went: what was said (a question, or a request with pasted code, says little)
    said = [m for r in ranked if (m := msgs.get(r.seq)) is not None and is_statement(m)]
    said = said[: packing.timeline_messages]
    limit = packer.share(packing.timeline_share)
    score = max((r.score for r in ranked), default=0.0)
    while len(said) >= 2:
        item = timeline_item(said, terms, line_tokens=packing.timeline_line_tokens, score=score)
        if item is not None and packer.add(item, limit):
            return [m.seq for m in said]
        said.pop()
    return []
