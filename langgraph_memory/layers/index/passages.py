"""Passages of long messages: what the embedder's window cuts off, indexed all the same.

The default embedder reads the first 256 word pieces of a text (about 1,000
characters of English), so the rest of a long message (a pasted log, a long answer)
never reached dense retrieval, and BM25 scored it as one long document. A message
longer than ``passage_chars`` is therefore stored whole and also indexed as
overlapping passages: character spans of ``passage_chars`` (ends moved to a nearby
space), each starting ``passage_chars - passage_overlap`` after the previous one.

- Each passage is a record of kind ``passage`` (:class:`Passage`: message id and
  seq, span, session, time) owned by the message's user, written through the entry
  index record store (:class:`~langgraph_memory.layers.index.entries.IndexedRecords`):
  its terms are indexed at once, its vector is made by the background worker like
  the long-term entries'.
- At most ``max_passages`` per message (256 by default: contiguous up to about
  205,000 characters); a longer message gets that many spread evenly over it, with
  gaps between them (its words all stay in the message's own BM25 entry).
- The read path (:meth:`Passages.best`) gives each message its best passage: the
  message ranks with the higher of its own cosine and its passages' (and of its
  own BM25 score and its best passage's, scaled so the best passage scores as the
  best message), and a long message is shown as an excerpt around that passage.
- Only the messages of ``roles`` get passages: the user's by default (a long paste);
  the passages of long assistant replies outranked the user's own words.
- Deleting a message (or its user) deletes its passages.

Example:
    >>> passage_spans("word " * 500, 1000, 200)
    [(0, 999), (800, 1799), (1500, 2500)]
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from langgraph_memory.config import WriteSection
from langgraph_memory.core.records import Message, Record, from_data, to_data
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.storage.capabilities import RecordStore

if TYPE_CHECKING:
    from langgraph_memory.layers.index.entries import EntryIndexer

__all__ = [
    "PASSAGE_KIND",
    "PASSAGE_CHARS",
    "PASSAGE_OVERLAP",
    "MAX_PASSAGES",
    "Passage",
    "PassageHit",
    "Passages",
    "passage_spans",
]

PASSAGE_KIND = "passage"
#: The longest passage by default, in characters: about the default embedder's window.
PASSAGE_CHARS = 1000
#: Characters shared by two neighbouring passages by default.
PASSAGE_OVERLAP = 200
#: Passages of one message at most by default.
MAX_PASSAGES = 256
#: How far a passage's end moves back (its start forward) to fall on a space.
_SNAP = 60


def passage_spans(
    text: str, chars: int, overlap: int, max_passages: int = MAX_PASSAGES
) -> list[tuple[int, int]]:
    """The ``(start, end)`` character spans of ``text``'s passages (none when it fits
    ``chars``): windows of ``chars`` every ``chars - overlap`` characters, the last one
    ending at the end; at most ``max_passages``, spread evenly when more would be
    needed. An end inside a word moves back to the space before it (a start forward
    to the space after it) when one is within 60 characters and half the overlap.
    """
    n = len(text)
    if n <= chars or max_passages <= 0:
        return []
    step: float = max(chars - overlap, 1)
    count = 1 + math.ceil((n - chars) / step)
    if count > max_passages:
        count = max_passages
        step = (n - chars) / (count - 1) if count > 1 else 0.0
    snap = min(_SNAP, overlap // 2)  # neighbours still touch after both ends moved
    spans = []
    for i in range(count):
        start = n - chars if i == count - 1 and count > 1 else min(round(i * step), n - chars)
        end = start + chars
        if start > 0 and not text[start - 1].isspace():
            cut = next((j for j in range(start, start + snap) if text[j].isspace()), None)
            if cut is not None:
                start = cut + 1
        if end < n and not text[end].isspace():
            cut = next((j for j in range(end - 1, end - snap, -1) if text[j].isspace()), None)
            if cut is not None:
                end = cut
        spans.append((start, end))
    return spans


@dataclass(slots=True)
class Passage:
    """One passage of a long message.

    Attributes:
        id: The record id.
        user_id: Whose message.
        message_id: The message's id (its citation).
        seq: The message's place in the store.
        session_id: The message's session.
        index: Its place among the message's passages (0 first).
        start: Where it starts in the message's content (characters).
        end: Where it ends (exclusive).
        body: The text, ``content[start:end]``.
        timestamp: The message's time.
    """

    id: str
    user_id: str
    message_id: str
    seq: int
    session_id: str
    index: int
    start: int
    end: int
    body: str
    timestamp: datetime

    #: Its record kind.
    KIND: ClassVar[str] = PASSAGE_KIND

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Passage:
        """A passage from its stored form."""
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        return EntryView(self.body, [self.message_id], self.timestamp, {"meta": self.meta()})

    def meta(self) -> dict[str, Any]:
        """What the read path needs beside the text: the message and the span."""
        return {
            "message_id": self.message_id,
            "seq": self.seq,
            "session_id": self.session_id,
            "start": self.start,
            "end": self.end,
        }


class PassageHit(NamedTuple):
    """A message's best passage for a query."""

    #: The best term score among its passages (0 when none shares a term).
    lexical: float
    #: The best cosine among its passages (``None`` without vectors).
    cosine: float | None
    #: The span of its best passage (by term score and cosine together).
    start: int
    end: int


def _rid(user_id: str, message_id: str, index: int) -> str:
    raw = f"{user_id}\x1f{message_id}\x1f{index}".encode()
    return f"passage-{hashlib.sha256(raw).hexdigest()[:32]}"


class Passages:
    """The passages of a memory's long messages (see the module docs).

    Args:
        records: Where passages are stored: the entry index record store, so they are
            indexed as they are written.
        index: The entry index they are ranked from.
        config: ``passage_chars`` (the longest passage; a message longer than this has
            passages), ``passage_overlap``, ``max_passages`` and ``passage_roles``.
    """

    def __init__(
        self,
        records: RecordStore,
        index: EntryIndexer,
        config: WriteSection | None = None,
    ) -> None:
        config = config or WriteSection()
        self.records = records
        self.index = index
        self.chars = config.passage_chars
        self.overlap = config.passage_overlap
        self.max_passages = config.max_passages
        self.roles = frozenset(config.passage_roles)

    # -- writing --------------------------------------------------------------------------
    def write(self, msg: Message, *, created: bool = True) -> int:
        """Index a stored message's passages (none for a short one); returns how many
        were written. For a message stored before (``created`` false) they are written
        only when missing (a write interrupted before them)."""
        if msg.role not in self.roles:
            return 0
        spans = passage_spans(msg.content, self.chars, self.overlap, self.max_passages)
        if not spans:
            return 0
        if not created and self.records.get_record(
            PASSAGE_KIND, _rid(msg.user_id, msg.id, 0), msg.user_id
        ):
            return 0
        for i, (start, end) in enumerate(spans):
            p = Passage(
                _rid(msg.user_id, msg.id, i),
                msg.user_id,
                msg.id,
                msg.seq,
                msg.session_id,
                i,
                start,
                end,
                msg.content[start:end],
                msg.timestamp,
            )
            self.records.put_record(
                Record(PASSAGE_KIND, p.id, p.user_id, to_data(p), p.timestamp, p.timestamp)
            )
        return len(spans)

    def forget(self, user_id: str, message_ids: Sequence[str]) -> list[str]:
        """Delete the passages of messages; returns their texts (their vectors leave the
        embedding cache)."""
        texts: list[str] = []
        for mid in dict.fromkeys(message_ids):
            found = self.records.query_records(PASSAGE_KIND, user_id, where={"message_id": mid})
            if found:
                texts += [str(r.data.get("body", "")) for r in found]
                self.records.delete_records(PASSAGE_KIND, [r.id for r in found], user_id)
        return texts

    def texts(self, user_id: str) -> list[str]:
        """The texts of a user's passages."""
        found = self.records.list_records(PASSAGE_KIND, user_id)
        return [str(r.data.get("body", "")) for r in found]

    def of(self, user_id: str, message_id: str) -> list[Passage]:
        """A message's passages, in order."""
        found = self.records.query_records(PASSAGE_KIND, user_id, where={"message_id": message_id})
        return sorted((Passage.load(r.data) for r in found), key=lambda p: p.index)

    # -- reading --------------------------------------------------------------------------
    @property
    def dense(self) -> bool:
        """Whether passages have vectors (the entry index embeds)."""
        return self.index.embed is not None

    def best(
        self,
        user_id: str,
        query: str | Collection[str],
        query_vector: np.ndarray | None,
        allowed: Collection[int] | None = None,
    ) -> dict[int, PassageHit]:
        """Each message's best passage for the query, by the message's seq: the messages
        of ``allowed`` seqs only when given; none without passages."""
        scored = self.index.scores(
            user_id, query, query_vector if self.dense else None, (PASSAGE_KIND,)
        )
        if not scored:
            return {}
        top_lex = max((lex for _, lex, _ in scored), default=0.0) or 1.0
        out: dict[int, PassageHit] = {}
        best_of: dict[int, float] = {}
        for doc, lex, cos in scored:
            meta = doc.meta or {}
            seq = int(meta.get("seq", -1))
            if seq < 0 or (allowed is not None and seq not in allowed):
                continue
            c = None if cos is None or math.isnan(cos) else float(cos)
            both = lex / top_lex + (c or 0.0)
            had = out.get(seq)
            lex_best = max(lex, had.lexical if had else 0.0)
            cosines = [x for x in (c, had.cosine if had else None) if x is not None]
            cos_best = max(cosines) if cosines else None
            if had is None or both > best_of[seq]:
                best_of[seq] = both
                out[seq] = PassageHit(lex_best, cos_best, int(meta["start"]), int(meta["end"]))
            else:
                out[seq] = had._replace(lexical=lex_best, cosine=cos_best)
        return out
