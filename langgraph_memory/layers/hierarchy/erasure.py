"""Deleted messages taken out of what was made from them: the memory hierarchy (the
pages of a session's short-term memory and of the mid-term segments, their words from
the keyword counts, the summaries made from them) and the long-term records read from
them (:func:`forget_in_records`).

A page keeps the messages left and only the keywords those still hold; a page left
empty goes (and leaves its chain). A chain or segment that lost a page, or whose
summary cites a deleted message, gets its summary made again from what remains (the
caller saves it: :meth:`~langgraph_memory.layers.hierarchy.placement.Hierarchy.forget_messages`).

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.layers.short_term.pages import Page
    >>> from langgraph_memory.layers.mid_term.segments import Segment
    >>> now = datetime.now(timezone.utc)
    >>> seg = Segment("seg-1", "ann")
    >>> seg.add(Page("m1", "s1", ["m1", "m2"], [1, 2], now, keywords=["lake", "tea"]))
    >>> forget_in_segment(seg, {"m1"}, {2: Left(frozenset({"tea"}), 3)})
    True
    >>> [(p.message_ids, p.keywords) for p in seg.pages], seg.keyword_counts, seg.dirty
    ([(['m2'], ['tea'])], {'tea': 1}, True)
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence, Set
from typing import Any, NamedTuple

import numpy as np

from langgraph_memory.core.records import Message, Record, index_text
from langgraph_memory.core.tokens import count_tokens, tokenize
from langgraph_memory.layers.mid_term.segments import Segment
from langgraph_memory.layers.short_term.pages import Page
from langgraph_memory.layers.short_term.sessions import SessionState
from langgraph_memory.storage.capabilities import RecordStore

__all__ = [
    "Left",
    "remaining",
    "forget_in_state",
    "forget_in_segment",
    "seqs_left",
    "forget_in_records",
    "DERIVED_KINDS",
]


def seqs_left(pages: list[Page], ids: Set[str]) -> list[int]:
    """Seqs of the messages that stay in the pages that lose one of ``ids``."""
    return [
        s
        for p in pages
        if ids & set(p.message_ids)
        for mid, s in zip(p.message_ids, p.seqs, strict=True)
        if mid not in ids
    ]


class Left(NamedTuple):
    """A message that stays in a page that lost another: what the page is rebuilt from."""

    #: Its terms (the page keeps the keywords these hold).
    terms: frozenset[str]
    #: Its tokens.
    tokens: int
    #: Its embedding scaled to length 1 (``None``: not known).
    vector: np.ndarray | None = None


def remaining(msgs: Sequence[Message], vectors: np.ndarray | None = None) -> dict[int, Left]:
    """The messages left in pages that lost others, by seq, as the pages are rebuilt from
    them; ``vectors``: their embeddings, one row each (scaled to length 1 here)."""
    units: list[np.ndarray | None] = [None] * len(msgs)
    if vectors is not None:
        rows = np.asarray(vectors, dtype=np.float32)
        units = list(rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12))
    return {
        m.seq: Left(frozenset(tokenize(index_text(m))), count_tokens(m.content), unit)
        for m, unit in zip(msgs, units, strict=True)
    }


def _drop(page: Page, ids: Set[str], left: Mapping[int, Left]) -> list[str]:
    """Take ``ids`` out of ``page``: it is then named after its first message left, its
    tokens are theirs, its keywords those they hold and its vector (when it has one) the
    sum of theirs. Returns the keywords it no longer holds."""
    kept = [(mid, s) for mid, s in zip(page.message_ids, page.seqs, strict=True) if mid not in ids]
    page.message_ids = [mid for mid, _ in kept]
    page.seqs = [s for _, s in kept]
    stay = [left[s] for _, s in kept if s in left]
    if kept:
        page.id = kept[0][0]
    page.tokens = sum(x.tokens for x in stay)
    if page.vector is not None:
        rows = [x.vector for x in stay if x.vector is not None]
        page.vector = np.sum(rows, axis=0).astype(np.float32) if rows else None
    words = frozenset().union(*(x.terms for x in stay))
    lost = [w for w in page.keywords if w not in words]
    page.keywords = [w for w in page.keywords if w in words]
    return lost


def _uncount(counts: dict[str, int], words: list[str]) -> None:
    for w in words:
        n = counts.get(w, 0) - 1
        if n > 0:
            counts[w] = n
        else:
            counts.pop(w, None)


def forget_in_state(
    st: SessionState,
    ids: Set[str],
    left: Mapping[int, Left],
    moved: Mapping[str, list[str]] | None = None,
) -> bool:
    """Take the messages ``ids`` out of a session's short-term memory.

    Args:
        st: The session's state.
        ids: The deleted messages.
        left: The messages that stay in the pages touched, by seq.
        moved: Keywords lost by the session's pages that moved on to mid-term memory
            (see :func:`forget_in_segment`), by their chain id: the chains they came
            from still count them.

    Returns:
        Whether anything changed (the state must be saved; chains marked dirty get
        their summaries made again).
    """
    changed = False
    for chain_id, words in (moved or {}).items():
        chain = st.chains.get(chain_id)
        if chain is not None and words:
            _uncount(chain.keyword_counts, words)
            chain.dirty = changed = True
    for page in list(st.pages):
        if not ids & set(page.message_ids):
            continue
        changed = True
        old_id = page.id
        lost = _drop(page, ids, left)
        chain = st.chains.get(page.chain_id or "")
        if chain is not None:
            _uncount(chain.keyword_counts, lost)
            chain.dirty = True
            named = [page.id] if page.message_ids else []
            chain.page_ids = [
                n for pid in chain.page_ids for n in (named if pid == old_id else [pid])
            ]
        if not page.message_ids:
            st.pages.remove(page)
    for chain in st.chains.values():
        if ids & set(chain.summary_source_ids):
            chain.summary, chain.summary_source_ids, chain.dirty = "", [], True
            changed = True
    return changed


def forget_in_segment(
    seg: Segment,
    ids: Set[str],
    left: Mapping[int, Left],
    moved: dict[tuple[str, str], list[str]] | None = None,
) -> bool:
    """Take the messages ``ids`` out of a segment's pages (see :func:`forget_in_state`);
    returns whether it changed (it is then dirty: its summary is made again). ``moved``
    collects the keywords each page lost by ``(session id, chain id)`` of the chain it
    came from."""
    changed = False
    for page in list(seg.pages):
        if not ids & set(page.message_ids):
            continue
        changed = True
        lost = _drop(page, ids, left)
        _uncount(seg.keyword_counts, lost)
        if moved is not None and page.chain_id:
            moved.setdefault((page.session_id, page.chain_id), []).extend(lost)
        if not page.message_ids:
            seg.pages.remove(page)
    if ids & set(seg.summary_source_ids):
        seg.summary, seg.summary_source_ids = "", []
        changed = True
    if changed:
        seg.dirty = True
        seg.forget_keywords()
    return changed


#: Record kinds read from the user's messages (or citing them), scrubbed on deletion.
DERIVED_KINDS = (
    "profile",
    "fact",
    "trait",
    "anchor",
    "entity",
    "contradiction",
    "rollup",
    "insight",
    "lesson",
    "episode",
    "knowledge",
    "negated_statements",
    "failed_message",
)
#: A deleted message's sentence at least this long that still stands in a record's data
#: makes the record go (a quote the fields below did not catch).
_QUOTED_CHARS = 16


def forget_in_records(
    records: RecordStore, user_id: str, ids: Set[str], msgs: Sequence[Message]
) -> list[Record]:
    """Scrub what was read from deleted messages out of a user's records.

    A record citing them loses them from its ``source_ids`` (an anchor's
    ``metadata.source_ids``), an entity its mentions of them, a quarantine note goes with
    its message; a record left citing nothing, a roll-up made from them, or one still
    quoting a sentence of theirs goes altogether; a quote of theirs is dropped.

    Args:
        records: The user's records (the entry index is kept through it).
        user_id: Whose.
        ids: The deleted messages' ids.
        msgs: The deleted messages still known (their text finds their quotes).

    Returns:
        The records as they were before they changed or went (their texts leave the
        embedding cache).
    """
    seqs = {m.seq for m in msgs}
    sentences = [
        s.strip()
        for m in msgs
        for s in re.split(r"(?<=[.!?。！？\n])", m.content)
        if len(s.strip()) >= _QUOTED_CHARS
    ] + [m.content for m in msgs if 0 < len(m.content.strip()) < _QUOTED_CHARS * 4]
    before: list[Record] = []
    for kind in DERIVED_KINDS:
        for rec in records.list_records(kind, user_id):
            old = copy.deepcopy(rec.data)
            verdict = _scrub(rec.data, ids, seqs, sentences)
            if verdict == "same":
                continue
            before.append(
                Record(rec.kind, rec.id, rec.user_id, old, rec.created_at, rec.updated_at)
            )
            if verdict == "drop":
                records.delete_records(kind, [rec.id], user_id)
            else:
                records.put_record(rec)
    return before


def _scrub(data: dict[str, Any], ids: Set[str], seqs: Set[int], sentences: list[str]) -> str:
    """``"same"``, ``"keep"`` (changed in place) or ``"drop"``."""
    changed = False
    holders = [data] + ([data["metadata"]] if isinstance(data.get("metadata"), dict) else [])
    for holder in holders:
        sources = holder.get("source_ids")
        if isinstance(sources, list) and ids & set(sources):
            holder["source_ids"] = [s for s in sources if s not in ids]
            if not holder["source_ids"]:
                return "drop"
            changed = True
    if data.get("message_id") in ids:
        return "drop"
    message_ids = data.get("message_ids")
    if isinstance(message_ids, list) and ids & set(message_ids):
        return "drop"
    mentions = data.get("mentions")
    if isinstance(mentions, list):
        kept = [m for m in mentions if not (isinstance(m, list) and m and m[0] in ids)]
        if len(kept) != len(mentions):
            if not kept:
                return "drop"
            data["mentions"] = kept
            data["count"] = max(int(data.get("count", 0)) - (len(mentions) - len(kept)), 1)
            changed = True
    old_seqs = data.get("seqs")
    if isinstance(old_seqs, list) and seqs & set(old_seqs):
        data["seqs"] = [s for s in old_seqs if s not in seqs]
        changed = True
    quote = data.get("quote")
    if isinstance(quote, str) and quote and any(quote in s or s in quote for s in sentences):
        data["quote"] = None
        changed = True
    text = json.dumps(data, ensure_ascii=False)
    if any(s in text for s in sentences):
        return "drop"
    return "keep" if changed else "same"
