"""Context items: what each layer's memories look like in a context, and why they are there.

Every builder returns :class:`~langgraph_memory.core.context.ContextItem` objects with their
score, score parts, citations and reason: anchors and the task in progress (working
memory), the current session's messages, retrieved messages with the turns around
them, mid-term segment summaries, and long-term entries.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.records import Message
    >>> msg = Message("m1", "ann", "s1", "user", "I moved to Lyon", datetime(2024, 5, 1,
    ...               tzinfo=timezone.utc), seq=3)
    >>> it = message_item(msg, "message", 0.03, {"rrf": 0.03}, "retrieved", show_dates=True)
    >>> it.text, it.source_ids, it.group
    ('user: I moved to Lyon', ['m1'], '2024-05-01')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING, cast

from langgraph_memory.config import PackingSection, RetrievalSection
from langgraph_memory.core.context import ContextItem, item_tokens
from langgraph_memory.core.records import ContextLayer, MemoryHit, Message
from langgraph_memory.core.tokens import count_tokens, tokenize
from langgraph_memory.extraction.entities import sentence_spans
from langgraph_memory.layers.hierarchy.placement import RankedSegment
from langgraph_memory.layers.index.ranking import LongTermDoc
from langgraph_memory.layers.short_term.sessions import SessionState
from langgraph_memory.layers.working.tasks import Anchor, TaskState
from langgraph_memory.read.excerpts import excerpt
from langgraph_memory.read.messages import SEGMENT_RANKING, RankedMessage
from langgraph_memory.read.speakers import names_speaker

if TYPE_CHECKING:
    from langgraph_memory.storage.base import StorageCore

__all__ = [
    "MESSAGE_ITEM_LAYERS",
    "anchor_item",
    "task_item",
    "message_item",
    "doc_item",
    "message_candidates",
    "segment_items",
    "segment_hit",
]

#: Layers of the items :func:`message_item` makes: one stored message each, whose seq is
#: the item's ``order``.
MESSAGE_ITEM_LAYERS = frozenset({"short_term", "message", "neighbor", "segment_page"})


def anchor_item(a: Anchor, closeness: float | None = None) -> ContextItem:
    """An anchor as a context item (it opens the prompt); one read from a message cites
    it (``metadata["source_ids"]``) and its ``closeness`` to the query."""
    cited = [str(m) for m in a.metadata.get("source_ids", []) if isinstance(m, str)]
    if cited:
        reason = "standing instruction from the user's message: rides along in every session"
    elif a.session_id:
        reason = "session anchor: always rides along"
    else:
        reason = "user anchor: rides along in every session"
    parts = {"anchor": 1.0} if closeness is None else {"anchor": 1.0, "closeness": closeness}
    return ContextItem(
        layer="anchor",
        text=a.text,
        tokens=item_tokens(a.text),
        score=1.0,
        score_parts=parts,
        source_ids=[f"anchor:{a.id}", *cited],
        reason=reason,
        timestamp=a.updated_at,
        session_id=a.session_id,
        order=-2,
    )


def task_item(task: TaskState) -> ContextItem:
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


def message_item(
    msg: Message,
    layer: ContextLayer,
    score: float,
    parts: dict[str, float],
    reason: str,
    *,
    show_dates: bool,
    terms: Set[str] = frozenset(),
    max_tokens: int = 0,
) -> ContextItem:
    """A stored message as a context item (``speaker: content``, under its date); with
    ``max_tokens`` a longer one is shown as its excerpt for the query's ``terms``,
    around the passage that matched when ``parts`` names one (``passage_start``,
    ``passage_end``)."""
    focus = None
    if "passage_start" in parts and "passage_end" in parts:
        focus = (int(parts["passage_start"]), int(parts["passage_end"]))
    content = excerpt(msg.content, terms, max_tokens, focus)
    if content != msg.content:
        parts = {**parts, "excerpt_of_tokens": float(count_tokens(msg.content))}
    text = f"{msg.name or msg.role}: {content}"
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
        group=msg.timestamp.strftime("%Y-%m-%d") if show_dates else None,
    )


def doc_item(doc: LongTermDoc, score: float, parts: dict[str, float], reason: str) -> ContextItem:
    """A long-term entry as a context item (long-term entries open the prompt)."""
    if doc.importance is not None:
        parts = {**parts, "importance": doc.importance}
    return ContextItem(
        # never a passage: passages count for their messages, they are no items
        layer=cast(ContextLayer, doc.layer),
        text=doc.text,
        tokens=item_tokens(doc.text),
        score=score,
        score_parts=parts,
        source_ids=list(doc.source_ids),
        reason=reason,
        timestamp=doc.timestamp,
        order=-1,
        group=None,
    )


def message_candidates(
    storage: StorageCore,
    user_id: str,
    ranked: Sequence[RankedMessage],
    msgs: Mapping[int, Message],
    skip: set[str],
    retrieval: RetrievalSection,
    packing: PackingSection,
    terms: Set[str] = frozenset(),
) -> list[ContextItem]:
    """Retrieved messages, plus the turns around the primary ones.

    A turn next to a strong hit inherits a share of its score; when a turn is
    both a hit and a neighbour it is one item with the higher score, and its
    explanation keeps both reasons. Messages cited in ``skip`` are left out. A hit
    longer than ``excerpt_tokens`` (a neighbour longer than ``neighbor_tokens``) is
    shown as its excerpt for the query's ``terms``. ``msgs``: the ranked messages by seq
    (fetched once by the caller).
    """
    items: dict[int, ContextItem] = {}
    page_rank = f"{SEGMENT_RANKING}_rank"
    for rank, (seq, score, parts, _) in enumerate(ranked, start=1):
        msg = msgs.get(seq)
        if msg is not None and msg.id not in skip:
            layer: ContextLayer
            if page_rank in parts and "bm25_rank" not in parts and "dense_rank" not in parts:
                layer = "segment_page"
                reason = (
                    f"retrieved: rank {rank}, through its mid-term segment (rank "
                    f"{int(parts[page_rank])} by cosine among the segments' pages)"
                )
            else:
                layer, reason = "message", f"retrieved: rank {rank} by hybrid search"
            items[seq] = message_item(
                msg, layer, score, dict(parts), reason, show_dates=packing.show_dates,
                terms=terms, max_tokens=packing.excerpt_tokens,
            )  # fmt: skip
    said: dict[int, Message] = {seq: m for seq in items if (m := msgs.get(seq)) is not None}
    if retrieval.neighbor_window > 0:
        _add_neighbors(storage, user_id, ranked, msgs, items, said, skip, retrieval, packing, terms)
    _weigh_turns(items, said, terms, retrieval)
    return list(items.values())


def _add_neighbors(
    storage: StorageCore,
    user_id: str,
    ranked: Sequence[RankedMessage],
    msgs: Mapping[int, Message],
    items: dict[int, ContextItem],
    said: dict[int, Message],
    skip: set[str],
    retrieval: RetrievalSection,
    packing: PackingSection,
    terms: Set[str],
) -> None:
    """The turns around the primary hits join ``items`` (see :func:`message_candidates`)."""
    primary = [(r.seq, r.score) for r in ranked if r.seq in items and r.primary]
    around = storage.neighbors_many(user_id, [s for s, _ in primary], retrieval.neighbor_window)
    for hit_seq, score in primary:
        hit = msgs[hit_seq]
        asks = hit.content.rstrip().endswith(("?", "？"))
        for nb in around[hit_seq]:
            answer = asks and nb.seq > hit_seq
            nscore = score * (retrieval.answer_decay if answer else retrieval.neighbor_decay)
            reason = f"{'reply to' if answer else 'turn next to'} retrieved message {hit.id}"
            existing = items.get(nb.seq)
            if nb.id in skip or nscore <= 0 or (existing and existing.score >= nscore):
                continue
            if existing is None and _off_topic(nb, terms, packing.neighbor_tokens):
                continue  # a long turn that shares no word with the query
            if existing is None:
                said[nb.seq] = nb
                items[nb.seq] = message_item(
                    nb,
                    "neighbor",
                    nscore,
                    {"neighbor_of_score": score},
                    reason,
                    show_dates=packing.show_dates,
                    terms=terms,
                    max_tokens=packing.neighbor_tokens,
                )
            else:  # a weaker hit, or a neighbour of a weaker hit: raise it, keep its story
                existing.score = nscore
                existing.score_parts["neighbor_of_score"] = score
                existing.reason = f"{reason}; {existing.reason}"


def _weigh_turns(
    items: Mapping[int, ContextItem],
    said: Mapping[int, Message],
    terms: Set[str],
    retrieval: RetrievalSection,
) -> None:
    """Turns that only ask score ``question_factor`` of their score (their reply keeps
    what it inherited), and turns said by someone the query names ``1 + speaker_boost``
    times theirs."""
    for seq, it in items.items():
        msg = said.get(seq)
        if msg is None:
            continue
        if retrieval.question_factor < 1.0 and only_asks(msg.content):
            it.score *= retrieval.question_factor
            it.score_parts["question_factor"] = retrieval.question_factor
            it.reason += "; it only asks (what it asks about is in the reply)"
        if retrieval.speaker_boost > 0 and names_speaker(msg.name, terms):
            it.score *= 1.0 + retrieval.speaker_boost
            it.score_parts["speaker_boost"] = 1.0 + retrieval.speaker_boost
            it.reason += f"; said by {msg.name}, whom the query names"


#: Chinese chains clauses with full-width commas where English ends sentences.
_CLAUSE = re.compile(r"(?<=[，；])")


def only_asks(text: str) -> bool:
    """Whether a turn only asks: its last sentence is a question and its other
    sentences hold at most two content words ("Wow, great pic! Where was that?").

    Example:
        >>> only_asks("Cool! Where did you go?"), only_asks("I moved to Lyon last May. You?")
        (True, False)
    """
    pieces = [c.strip() for _, p in sentence_spans(text) for c in _CLAUSE.split(p) if c.strip()]
    if not pieces or not pieces[-1].endswith(("?", "？")):
        return False
    told = [p for p in pieces if not p.endswith(("?", "？"))]
    return sum(len(tokenize(p)) for p in told) <= 2


def _off_topic(msg: Message, terms: Set[str], cap: int) -> bool:
    """A turn longer than ``cap`` tokens that shares no term with the query (its excerpt
    would be its opening sentence alone)."""
    if not terms or cap <= 0 or count_tokens(msg.content) <= cap:
        return False
    return not terms & set(tokenize(msg.content))


def segment_hit(ranked: RankedSegment) -> MemoryHit:
    """A segment as a search hit (its summary, citing the messages it came from)."""
    seg, fscore, parts = ranked
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


def chain_items(state: SessionState) -> list[ContextItem]:
    """Summaries of the current session's topic chains, oldest chain first: what of the
    session did not fit as messages comes back compressed (the packer skips a chain
    whose summarised turns are all in the context already)."""
    out: list[ContextItem] = []
    for chain in state.chains.values():
        if not chain.summary or not chain.summary_source_ids:
            continue
        topic = ", ".join(chain.keywords(4))
        text = f"(earlier in this session, on {topic}) {chain.summary}"
        out.append(
            ContextItem(
                layer="chain",
                text=text,
                tokens=item_tokens(text),
                score=1.0,
                score_parts={"chain": 1.0, "chain_pages": float(chain.pages_total)},
                source_ids=list(chain.summary_source_ids),
                reason="short-term topic chain of this session: its summary",
                timestamp=None,
                session_id=state.session_id,
                order=-1,
            )
        )
    return out


def segment_items(
    segments: Sequence[RankedSegment],
    skip: set[str],
    retrieval: RetrievalSection,
    packing: PackingSection,
) -> list[ContextItem]:
    """Summaries of the closest segments, scored like a fused rank of weight
    ``segment_summary_weight`` (so they follow strong message hits)."""
    out: list[ContextItem] = []
    for rank, (seg, fscore, parts) in enumerate(segments, start=1):
        if not seg.summary or set(seg.summary_source_ids) <= skip:
            continue
        score = retrieval.segment_summary_weight / (retrieval.rrf_k + rank)
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
                    if packing.show_dates and seg.pages
                    else None
                ),
            )
        )
    return out
