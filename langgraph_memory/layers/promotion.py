"""Memory atoms written to the layers: on every exchange, or when a segment is promoted.

Memory atoms are extracted from messages (by the LLM when one is given, by English
and Chinese rules otherwise; see :mod:`langgraph_memory.write.extraction`) and
written to the layers that carry them: preferences and profile facts to the user
profile, standing instructions ("from now on…", "always…", "以后…", "每次…都…") to
user anchors that ride along in every context, facts, decisions, plans and
relations to the fact store (with ``valid_from`` = when they were said, so a later
value supersedes them), first-person statements of the assistant to agent traits.
Every entry cites the message it came from and quotes the user's words.

By default (``extract_every_turn``) the hierarchy calls an :class:`AtomWriter` on
every batch of messages it places, in the background worker; otherwise only on the
new pages of a promoted segment.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.backends import InMemoryBackend
    >>> from langgraph_memory.layers.longterm import LongTermMemory
    >>> from langgraph_memory.records import Message
    >>> lt = LongTermMemory(InMemoryBackend())
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> n = write_atoms(lt, "ann", [Message("m1", "ann", "s", "user", "I love green tea.", t)])
    >>> [e.text() for e in lt.for_context("ann")]
    ['User preference: "I love green tea."']
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from langchain_core.language_models import BaseChatModel

from ..concurrency import yield_gil
from ..records import Message
from ..write.extraction import extract_atoms, normalize_key
from ..write.extraction_atom import MemoryAtom
from ..write.extraction_entities import sentence_spans
from ..write.extraction_rules import PROFILE_KEYS
from .longterm import LongTermMemory
from .profile import stable_id

if TYPE_CHECKING:
    from ..working import WorkingMemory

__all__ = ["write_atoms", "AtomWriter", "quote_of", "INSTRUCTION_SOURCE"]

#: ``metadata["source"]`` of an anchor read from a standing instruction.
INSTRUCTION_SOURCE = "instruction"
#: The atom kinds written to a layer (the others, entities, are not).
_WRITTEN = frozenset({"instruction", "preference", "fact", "relation", "decision", "task"})
#: A message up to this long is quoted whole; a longer one by the sentence that said it.
QUOTE_CHARS = 400

log = logging.getLogger(__name__)


def _subject(atom: MemoryAtom, msg: Message) -> str:
    if atom.subject in ("user", "assistant"):
        return msg.name or atom.subject
    return atom.subject


def quote_of(msg: Message, atom: MemoryAtom, limit: int = QUOTE_CHARS) -> str:
    """The words ``atom`` was read from: the whole message when it is short, else the
    sentence holding the atom's span (cut to ``limit`` characters).

    Example:
        >>> from datetime import datetime, timezone
        >>> m = Message("m1", "ann", "s", "user", "Hi! " + "Some news. " * 50 + "I love tea. Bye.",
        ...             datetime(2024, 5, 1, tzinfo=timezone.utc))
        >>> quote_of(m, MemoryAtom("preference", "user", "tea", "tea", text="I love tea"))
        'I love tea.'
    """
    text = msg.content.strip()
    if len(text) <= limit:
        return text
    span = atom.text.strip()
    if span:
        for _, sentence in sentence_spans(text):
            if span in sentence:
                sentence = sentence.strip()
                at = sentence.index(span)
                start = max(0, min(at - (limit - len(span)) // 2, len(sentence) - limit))
                return sentence[start : start + limit]
    return (span or text)[:limit]


def _instruction(
    working: WorkingMemory, user_id: str, atom: MemoryAtom, msg: Message, words: str
) -> int:
    """A standing instruction as a user anchor quoting ``words``, one per topic (a later
    instruction on the same topic replaces the earlier one), citing its message."""
    topic = normalize_key(atom.value)
    said = msg.timestamp.date().isoformat()
    text = f"Standing instruction (said {said}): {words}"
    if atom.language == "zh":
        text = f"长期指令（{said}）：{words}"
    working.add_anchor(
        user_id,
        text,
        anchor_id=stable_id("instr", topic),
        metadata={
            "source": INSTRUCTION_SOURCE,
            "source_ids": [msg.id],
            "topic": topic,
            "polarity": atom.polarity,
            "said_at": msg.timestamp.isoformat(),
        },
    )
    return 1


def _write(
    lt: LongTermMemory,
    user_id: str,
    atom: MemoryAtom,
    msg: Message,
    working: WorkingMemory | None = None,
) -> int:
    ids = [msg.id]
    source = atom.source if atom.source in ("explicit", "confirmed", "inferred") else "inferred"
    if msg.role == "assistant" and atom.subject == "assistant":
        lt.add_trait(user_id, atom.key, atom.value, source_ids=ids)
        return 1
    if atom.kind not in _WRITTEN:
        return 0  # entities are kept as the facts and relations that name them
    quote = quote_of(msg, atom)
    if atom.kind == "instruction":
        if working is not None and msg.role == "user":
            return _instruction(working, user_id, atom, msg, quote)
        atom = replace(atom, kind="preference")  # no anchors here: kept as a preference
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
            quote=quote,
        )
        return 1
    if atom.kind == "fact" and atom.key in PROFILE_KEYS and atom.subject == "user":
        lt.upsert_preference(
            user_id, atom.key, atom.value, source=source, confidence=atom.confidence,
            source_ids=ids, quote=quote,
        )  # fmt: skip
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
            quote=quote,
        )
        return 1
    return 0


def write_atoms(
    lt: LongTermMemory,
    user_id: str,
    messages: Sequence[Message],
    *,
    llm: BaseChatModel | None = None,
    working: WorkingMemory | None = None,
) -> int:
    """Extract memory atoms from ``messages`` and write them to ``lt`` (standing
    instructions to ``working``'s anchors, when given).

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
                written += _write(lt, user_id, atom, msg, working)
            except (ValueError, TypeError) as exc:
                log.info("skipped atom %r: %s", atom, exc)
        yield_gil()  # background work: let readers and the model run between messages
    return written


class AtomWriter:
    """Messages' atoms written to the layers.

    Called with ``(user_id, segment, messages)`` it is a
    :data:`~langgraph_memory.layers.hierarchy.Promoter`; :meth:`placed` takes a batch
    of any users' messages as the hierarchy places them (every exchange).

    Args:
        longterm: Where profile entries, facts and traits go.
        llm: The chat model that extracts them (rules when ``None``).
        working: Where standing instructions go, as user anchors (kept as preferences
            when ``None``).
    """

    def __init__(
        self,
        longterm: LongTermMemory,
        llm: BaseChatModel | None = None,
        working: WorkingMemory | None = None,
    ) -> None:
        self.longterm = longterm
        self.llm = llm
        self.working = working

    def __call__(self, user_id: str, segment: object, messages: Sequence[Message]) -> int:
        return write_atoms(self.longterm, user_id, messages, llm=self.llm, working=self.working)

    def placed(self, messages: Sequence[Message]) -> int:
        """Write the atoms of messages just placed (several users'); returns how many
        entries were written or refreshed."""
        by_user: dict[str, list[Message]] = {}
        for m in messages:
            by_user.setdefault(m.user_id, []).append(m)
        return sum(
            write_atoms(self.longterm, u, ms, llm=self.llm, working=self.working)
            for u, ms in by_user.items()
        )
