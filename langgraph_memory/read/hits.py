"""A result list: every hit scored by one relevance, one hit per source.

:func:`score_hits` gives each hit its calibrated relevance (see
:mod:`~langgraph_memory.read.relevance`) as its ``score``, keeping the score its own
ranking gave it as ``score_parts["rank_score"]``. :func:`merge_hits` then lists them
best first, one per source: a fact drawn from a message, a profile entry quoting it and
the message itself are one memory, not three hits filling ``k``. A hit is folded into a
better one when both come from the same messages (a message counts as its own source),
or when they read the same or one quotes the other whole (two rows of one preference);
a summary of many messages does not absorb one of them (one quoting a message whole
folds into the message). The kept hit cites the sources of both and names the folded
ones in ``metadata["merged_ids"]`` and ``metadata["merged_layers"]``.

Example:
    >>> from langgraph_memory.core.records import MemoryHit
    >>> msg = MemoryHit("m1", "message", "I moved to Lyon", 0.9, {}, ["m1"])
    >>> fact = MemoryHit("f1", "fact", "User lives in Lyon", 0.7, {}, ["m1"])
    >>> other = MemoryHit("m2", "message", "I like tea", 0.4, {}, ["m2"])
    >>> hits = merge_hits([fact, msg, other], 5)
    >>> [(h.id, h.source_ids, h.metadata.get("merged_ids")) for h in hits]
    [('m1', ['m1'], ['f1']), ('m2', ['m2'], None)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from langgraph_memory.core.records import MemoryHit
from langgraph_memory.core.validation import HIT_GROUP
from langgraph_memory.read.relevance import Relevance

__all__ = ["score_hits", "merge_hits"]

_SPACE = re.compile(r"\s+")
#: Layers whose hits summarise many messages: one quoting a message whole folds into it.
_SUMMARIES = frozenset({"mid_term", "rollup"})


def score_hits(relevance: Relevance, hits: Sequence[MemoryHit]) -> list[MemoryHit]:
    """The hits with their calibrated relevance as ``score`` (the ranking's own score
    kept as ``score_parts["rank_score"]``); a message is read with its speaker's name.

    ``hits`` come best first within each of their rankings (messages, segments,
    long-term entries, documents: :data:`~langgraph_memory.core.validation.HIT_GROUP`);
    a hit's relevance is at most that of the hits its ranking put above it, so sorting
    by relevance keeps each ranking's order (its evidence, exact words or the
    speaker, outweighs a look-alike's cosine) and the scores fall down the list."""
    texts = [f"{h.name}: {h.text}" if h.name else h.text for h in hits]
    scores = relevance.of_many(texts, [h.score_parts for h in hits])
    ceiling: dict[str, float] = {}
    out = []
    for h, s in zip(hits, scores, strict=True):
        group = HIT_GROUP.get(h.layer, "long_term")
        s = min(s, ceiling.get(group, 1.0))
        ceiling[group] = s
        parts = {**h.score_parts, "rank_score": h.score}
        out.append(replace(h, score=s, score_parts=parts))
    return out


def merge_hits(hits: Sequence[MemoryHit], k: int) -> list[MemoryHit]:
    """The best ``k`` hits by score, one per source (see the module docs); ties keep
    their order."""
    kept: list[MemoryHit] = []
    cited: list[set[str]] = []
    texts: list[str] = []
    for h in sorted(hits, key=lambda h: -h.score):
        own = set(h.source_ids) | ({h.id} if h.layer == "message" else set())
        text = _SPACE.sub(" ", h.text).strip().casefold()
        into = next(
            (
                i
                for i, c in enumerate(cited)
                if (own and own == c) or texts[i] == text or _quotes(texts[i], text)
            ),
            None,
        )
        if into is None:
            if len(kept) < k:
                kept.append(h)
                cited.append(own or {h.id})
                texts.append(text)
            continue
        best = kept[into]
        if h.layer == "message" and best.layer in _SUMMARIES:
            # a summary that quotes a message whole: the message stands for both
            best, h = replace(h, score=best.score, metadata={**h.metadata, **_merged(best)}), best
        merged = list(dict.fromkeys([*best.metadata.get("merged_ids", []), h.id]))
        layers = list(dict.fromkeys([*best.metadata.get("merged_layers", []), h.layer]))
        cited[into] |= own  # what comes from the same messages as either folds in too
        kept[into] = replace(
            best,
            source_ids=list(dict.fromkeys([*best.source_ids, *h.source_ids])),
            metadata={**best.metadata, "merged_ids": merged, "merged_layers": layers},
        )
    return kept


def _merged(hit: MemoryHit) -> dict[str, list[str]]:
    """What ``hit`` has folded into it so far (its ``merged_*`` metadata)."""
    return {k: list(hit.metadata[k]) for k in ("merged_ids", "merged_layers") if k in hit.metadata}


def _quotes(a: str, b: str) -> bool:
    """Whether one text quotes the other whole (a profile entry quoting a message)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 24 and short in long
