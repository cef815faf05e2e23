"""Contradiction links: a statement of the user that contradicts an earlier one is kept
beside it, linked, so a context can show both and the model can ask.

As the worker places a user's statement, the user's earlier statements closest to it
by meaning (the store's vector search, cosine at least ``min_cosine``) that make the
same claim (at least :data:`MIN_OVERLAP` of their terms in common, negation words left
out) are compared with it: when exactly one of the two is negated ("I have never used Flask routes"
after "I implemented a Flask route in the API", "我从来没用过 Flask" after "我用 Flask
写过接口"), a :class:`Contradiction` links them. Nothing is deleted or overwritten:
both messages stay, and the link is a long-term entry (indexed, ranked against
queries like any other, reaching a context with both statements quoted, dated and
cited). Questions and short replies are not statements; the closest earlier
statement of opposite polarity is linked, one link per new statement.

Example:
    >>> [polarity(t) for t in ["I implemented a Flask route.", "I have never used Flask.",
    ...                        "我用 Flask 写过接口", "我从来没用过 Flask"]]
    [1, -1, 1, -1]
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, ClassVar

import numpy as np

from langgraph_memory.config import LongTermSection
from langgraph_memory.core.records import Message, Record, from_data, index_text, to_data
from langgraph_memory.core.tokens import is_cjk_text, tokenize
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.long_term.profile import stable_id
from langgraph_memory.storage.base import StorageCore
from langgraph_memory.storage.capabilities import LexicalIndex, RecordStore, VectorIndex

__all__ = ["Contradiction", "ContradictionFinder", "polarity", "CONTRADICTION_KIND"]

log = logging.getLogger(__name__)

CONTRADICTION_KIND = "contradiction"
#: The seqs of a user's negated statements (what a new statement is compared with).
_NEGATED_KIND = "negated_statements"
#: A user's latest negated statements kept for that.
MAX_NEGATED = 2000

_NEGATION_EN = re.compile(
    r"\b(?:never|not|no longer|nothing|none|neither|nor|no)\b|n't\b|\bcannot\b", re.IGNORECASE
)
_NEGATION_ZH = re.compile(r"没有|没|从未|从来没|从不|不是|不会|不再|并未|未曾|不")
#: Two statements are the same claim when at least this share of their terms (negation
#: words left out) is common to both (besides being close by meaning).
MIN_OVERLAP = 0.5
#: A statement has at least this many terms (shorter replies are not compared).
MIN_TERMS = 3
#: A quoted statement is cut to this many characters.
QUOTE_CHARS = 240


def _content_terms(text: str) -> set[str]:
    """A statement's terms without its negation words."""
    pattern = _NEGATION_ZH if is_cjk_text(text) else _NEGATION_EN
    return set(tokenize(pattern.sub(" ", text)))


def polarity(text: str) -> int:
    """-1 for a negated statement, 1 otherwise (English and Chinese negation words)."""
    pattern = _NEGATION_ZH if is_cjk_text(text) else _NEGATION_EN
    return -1 if pattern.search(text) else 1


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


@dataclass(slots=True)
class Contradiction:
    """Two statements of the user, one negating what the other says.

    Attributes:
        id: Stable per pair.
        user_id: Whose.
        earlier_id, later_id: The two messages (the citation trail), in time order.
        earlier, later: Their words (quoted).
        earlier_at, later_at: When each was said.
        cosine: How close they are by meaning.
    """

    id: str
    user_id: str
    earlier_id: str
    later_id: str
    earlier: str
    later: str
    earlier_at: datetime
    later_at: datetime
    cosine: float
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    access_count: int = 0
    last_accessed_at: datetime | None = None

    #: Its record kind.
    KIND: ClassVar[str] = CONTRADICTION_KIND

    @classmethod
    def load(cls, data: dict[str, Any]) -> Contradiction:
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        return EntryView(self.text(), self.source_ids, self.later_at)

    @property
    def source_ids(self) -> list[str]:
        return [self.earlier_id, self.later_id]

    def text(self) -> str:
        """Both statements, dated, for prompts and search."""
        a, b = self.earlier_at.date().isoformat(), self.later_at.date().isoformat()
        if is_cjk_text(self.earlier + self.later):
            return f"可能的矛盾：{a} 用户说「{self.earlier}」；{b} 又说「{self.later}」。"
        return (
            f'Possible contradiction: on {a} the user said "{self.earlier}"; '
            f'on {b}: "{self.later}".'
        )


class ContradictionFinder:
    """Links each new statement of a user to an earlier one it contradicts (see the
    module docs).

    Args:
        storage: The store (the user's messages and their vector search).
        records: Where links are written (the indexed record store).
        embed: The vectors of texts (the worker's cached embedder: a message just
            embedded is a cache hit).
        config: ``contradiction_min_cosine``: how close by meaning two statements must be.
        k: Earlier messages looked at per statement.
    """

    def __init__(
        self,
        storage: StorageCore,
        records: RecordStore,
        embed: Callable[[Sequence[str]], np.ndarray],
        config: LongTermSection | None = None,
        *,
        k: int = 8,
    ) -> None:
        self.storage = storage
        self.records = records
        self.embed = embed
        self.min_cosine = (config or LongTermSection()).contradiction_min_cosine
        self.k = k

    def placed(self, messages: Sequence[Message]) -> int:
        """Link the statements among ``messages`` (several users') to what they contradict;
        returns how many links were written."""
        stated = [
            m
            for m in messages
            if m.role == "user"
            and not m.content.rstrip().endswith(("?", "？"))
            and len(tokenize(m.content)) >= MIN_TERMS
        ]
        if not stated or not isinstance(self.storage, VectorIndex):
            return 0
        by_user: dict[str, list[Message]] = {}
        for m in stated:
            by_user.setdefault(m.user_id, []).append(m)
        n = 0
        for user_id, msgs in by_user.items():
            negated = self._negated(user_id)
            before = len(negated)
            for msg in msgs:  # in order: a statement meets the negations said before it
                # a statement is compared with the user's negated ones, a negated one
                # with all: most statements are not negated, so most checks are small
                negative = polarity(msg.content) < 0
                if negative or negated:
                    try:
                        vec = self.embed([index_text(msg)])[0]
                        n += self._link(msg, vec, negated)
                    except (ValueError, TypeError) as exc:  # one message never stops the rest
                        log.info("no contradiction check for message %s: %s", msg.id, exc)
                if negative and msg.seq not in negated:
                    negated.append(msg.seq)
            if len(negated) > before:
                self._save_negated(user_id, negated[-MAX_NEGATED:])
        return n

    def _negated(self, user_id: str) -> list[int]:
        rec = self.records.get_record(_NEGATED_KIND, stable_id("neg", user_id), user_id)
        return [] if rec is None else [int(s) for s in rec.data.get("seqs", [])]

    def _save_negated(self, user_id: str, seqs: list[int]) -> None:
        now = _now()
        rid = stable_id("neg", user_id)
        self.records.put_record(Record(_NEGATED_KIND, rid, user_id, {"seqs": seqs}, now, now))

    def _link(self, msg: Message, vec: np.ndarray, negated: list[int]) -> int:
        assert isinstance(self.storage, VectorIndex)
        among = None if polarity(msg.content) < 0 else set(negated)
        if is_cjk_text(msg.content) and isinstance(self.storage, LexicalIndex):
            close = self._close_by_terms(msg, among)
        else:
            found = self.storage.vector_search(msg.user_id, vec, self.k + 1, among)
            close = {s: c for s, c in found if s != msg.seq and c >= self.min_cosine}
        if not close:
            return 0
        mine = polarity(msg.content)
        words = _content_terms(msg.content)
        earlier = self.storage.get_messages(msg.user_id, list(close))
        for seq in sorted(close, key=lambda s: -close[s]):
            other = earlier.get(seq)
            if (
                other is None
                or other.role != "user"
                or other.timestamp > msg.timestamp
                or other.content.rstrip().endswith(("?", "？"))
                or polarity(other.content) == mine
            ):
                continue
            theirs = _content_terms(other.content)
            if len(words & theirs) < MIN_OVERLAP * len(words | theirs):
                continue  # close in tone, not the same claim
            link = Contradiction(
                id=stable_id("contra", msg.user_id, other.id, msg.id),
                user_id=msg.user_id,
                earlier_id=other.id,
                later_id=msg.id,
                earlier=_quote(other.content),
                later=_quote(msg.content),
                earlier_at=other.timestamp,
                later_at=msg.timestamp,
                cosine=round(float(close[seq]), 4),
            )
            self.records.put_record(
                Record(
                    CONTRADICTION_KIND,
                    link.id,
                    link.user_id,
                    to_data(link),
                    link.created_at,
                    link.updated_at,
                )
            )
            return 1
        return 0

    def _close_by_terms(self, msg: Message, among: set[int] | None) -> dict[int, float]:
        """Earlier messages (of ``among`` when given) close to a Chinese one by the share
        of their terms in common (at least ``min_cosine``): the default model reads
        Chinese as unknown word pieces, so its cosines say nothing there."""
        assert isinstance(self.storage, LexicalIndex)
        mine = set(tokenize(index_text(msg)))
        found = self.storage.lexical_search(msg.user_id, list(mine), self.k + 1, among)
        seqs = [s for s, _ in found if s != msg.seq]
        got = self.storage.get_messages(msg.user_id, seqs)
        out = {}
        for seq, other in got.items():
            theirs = set(tokenize(index_text(other)))
            share = len(mine & theirs) / max(len(mine | theirs), 1)
            if share >= self.min_cosine:
                out[seq] = share
        return out

    def links(self, user_id: str) -> list[Contradiction]:
        """The user's contradiction links, oldest first."""
        return [
            Contradiction.load(r.data)
            for r in self.records.list_records(CONTRADICTION_KIND, user_id)
        ]
