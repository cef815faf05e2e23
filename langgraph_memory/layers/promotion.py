"""Promotion: a hot mid-term segment's pages become long-term entries.

Memory atoms are extracted from the segment's new pages (by the LLM when one is
given, by English and Chinese rules otherwise) and written to the long-term
layer: preferences and profile facts to the user profile, facts and relations
to the fact store (with ``valid_from`` = when they were said, so a later
contradiction supersedes them), first-person statements of the assistant to
agent traits. Every entry cites the message it came from.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.backends import InMemoryBackend
    >>> from langgraph_memory.layers.longterm import LongTermMemory
    >>> from langgraph_memory.records import Message
    >>> lt = LongTermMemory(InMemoryBackend())
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> n = write_atoms(lt, "ann", [Message("m1", "ann", "s", "user", "I love green tea.", t)])
    >>> [e.text() for e in lt.for_context("ann")]
    ['User prefers green tea (green tea; explicit, 1.0)']
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel

from ..concurrency import yield_gil
from ..records import Message
from ..write.extraction import extract_atoms
from ..write.extraction_atom import MemoryAtom
from ..write.extraction_rules import PROFILE_KEYS
from .longterm import LongTermMemory

__all__ = ["write_atoms", "AtomWriter"]

log = logging.getLogger(__name__)


def _subject(atom: MemoryAtom, msg: Message) -> str:
    if atom.subject in ("user", "assistant"):
        return msg.name or atom.subject
    return atom.subject


def _write(lt: LongTermMemory, user_id: str, atom: MemoryAtom, msg: Message) -> int:
    ids = [msg.id]
    source = atom.source if atom.source in ("explicit", "confirmed", "inferred") else "inferred"
    if msg.role == "assistant" and atom.subject == "assistant":
        lt.add_trait(user_id, atom.key, atom.value, source_ids=ids)
        return 1
    if atom.kind == "preference":
        lt.upsert_preference(
            user_id,
            atom.key,
            atom.value,
            source=source,
            scope=atom.scope,
            confidence=atom.confidence,
            polarity="negative" if atom.polarity < 0 else "positive",
            source_ids=ids,
        )
        return 1
    if atom.kind == "fact" and atom.key in PROFILE_KEYS and atom.subject == "user":
        lt.upsert_preference(
            user_id, atom.key, atom.value, source=source, confidence=atom.confidence, source_ids=ids
        )
    if atom.kind in ("fact", "relation", "decision", "task"):
        relation = atom.key if atom.kind in ("fact", "relation") else atom.kind
        lt.add_fact(
            user_id,
            _subject(atom, msg),
            relation,
            atom.value,
            valid_from=msg.timestamp,
            source_ids=ids,
            confidence=atom.confidence,
        )
        return 1
    return 0  # entities are kept as the facts and relations that name them


def write_atoms(
    lt: LongTermMemory,
    user_id: str,
    messages: Sequence[Message],
    *,
    llm: BaseChatModel | None = None,
) -> int:
    """Extract memory atoms from ``messages`` and write them to ``lt``.

    Returns:
        How many long-term entries were written or refreshed.
    """
    written = 0
    for msg in messages:
        if msg.role not in ("user", "assistant"):
            continue
        try:
            atoms = extract_atoms(msg.content, role=msg.role, timestamp=msg.timestamp, llm=llm)
        except Exception:  # extraction never blocks promotion of the rest
            log.exception("extraction failed for message %s", msg.id)
            continue
        for atom in atoms:
            try:
                written += _write(lt, user_id, atom, msg)
            except (ValueError, TypeError) as exc:
                log.info("skipped atom %r: %s", atom, exc)
        yield_gil()  # background work: let readers and the model run between messages
    return written


class AtomWriter:
    """What a hot segment is promoted by: its messages' atoms written to long-term memory.

    A :data:`~langgraph_memory.layers.hierarchy.Promoter`: called with ``(user_id,
    segment, messages)``, returns how many entries were written or refreshed.

    Args:
        longterm: Where the atoms go.
        llm: The chat model that extracts them (rules when ``None``).
    """

    def __init__(self, longterm: LongTermMemory, llm: BaseChatModel | None = None) -> None:
        self.longterm = longterm
        self.llm = llm

    def __call__(self, user_id: str, segment: object, messages: Sequence[Message]) -> int:
        return write_atoms(self.longterm, user_id, messages, llm=self.llm)
