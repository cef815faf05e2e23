"""Memory atoms written to the layers: on every exchange, or when a segment is promoted.

Memory atoms are extracted from messages (by the LLM when one is given, by English
and Chinese rules otherwise; see :mod:`langgraph_memory.extraction.extractor`) and
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
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
    >>> from langgraph_memory.core.records import Message
    >>> lt = LongTermMemory(InMemoryBackend())
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> n = write_atoms(lt, "ann", [Message("m1", "ann", "s", "user", "I love green tea.", t)])
    >>> [e.text() for e in lt.profile.for_context("ann")]
    ['User preference: "I love green tea."']
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from contextlib import nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING

from langgraph_memory.core.concurrency import yield_gil
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import is_cjk_text, tokenize
from langgraph_memory.extraction.atoms import MemoryAtom
from langgraph_memory.extraction.entities import sentence_spans
from langgraph_memory.extraction.extractor import extract_atoms, normalize_key
from langgraph_memory.extraction.rules import is_correction
from langgraph_memory.extraction.slots import is_profile_key
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.layers.long_term.profile import ProfileEntry, stable_id
from langgraph_memory.retrieval.vectors import cosines

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from langgraph_memory.layers.long_term.contradictions import ContradictionFinder
    from langgraph_memory.layers.long_term.entities import EntityGraph
    from langgraph_memory.layers.long_term.rollups import RollupWriter
    from langgraph_memory.layers.working.tasks import WorkingMemory

__all__ = ["write_atoms", "AtomWriter", "quote_of", "correct_related", "INSTRUCTION_SOURCE"]

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
    entities: EntityGraph | None = None,
) -> int:
    ids = [msg.id]
    source = atom.source if atom.source in ("explicit", "confirmed", "inferred") else "inferred"
    if msg.role == "assistant" and atom.subject == "assistant":
        lt.add_trait(user_id, atom.key, atom.value, source_ids=ids)
        return 1
    if atom.kind == "entity":
        if entities is None or msg.role != "user":
            return 0  # who and what the user talks about
        entities.mention(user_id, atom.value, atom.key, msg, quote_of(msg, atom))
        return 1
    if atom.kind not in _WRITTEN:
        return 0
    quote = quote_of(msg, atom)
    if atom.kind == "instruction":
        if working is not None and msg.role == "user":
            return _instruction(working, user_id, atom, msg, quote)
        atom = replace(atom, kind="preference")  # no anchors here: kept as a preference
    if atom.kind == "preference":
        if msg.role == "user" and is_correction(msg.content):
            correct_related(lt, user_id, atom, ids)
        lt.profile.upsert_preference(
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
    if atom.kind == "fact" and is_profile_key(atom.key) and atom.subject == "user":
        lt.profile.upsert_preference(
            user_id, atom.key, atom.value, source=source, confidence=atom.confidence,
            source_ids=ids, quote=quote,
        )  # fmt: skip
    if atom.kind in ("fact", "relation", "decision", "task"):
        relation = atom.key if atom.kind in ("fact", "relation") else atom.kind
        lt.facts.add_fact(
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


#: A correction lowers the stated preference most related to the new one: their values'
#: cosine at least CORRECTION_MIN_COSINE, or their words in common (over the words of
#: either) at least CORRECTION_MIN_OVERLAP; for Chinese, which the default model
#: hardly reads, their characters in common at least CORRECTION_MIN_CJK_OVERLAP
#: ("喝咖啡" and "喝绿茶" share the verb: 1 of 5).
CORRECTION_MIN_COSINE = 0.45
CORRECTION_MIN_OVERLAP = 0.25
CORRECTION_MIN_CJK_OVERLAP = 0.2


def _overlap(a: str, b: str) -> float:
    """Words in common over words in either (characters, for Chinese: its words are
    segmented differently in different phrases), when at least the threshold, else 0."""
    if is_cjk_text(a + b):
        x, y = {c for c in a if not c.isspace()}, {c for c in b if not c.isspace()}
        floor = CORRECTION_MIN_CJK_OVERLAP
    else:
        x, y = set(tokenize(a)), set(tokenize(b))
        floor = CORRECTION_MIN_OVERLAP
    share = len(x & y) / max(len(x | y), 1)
    return share if share >= floor else 0.0


def correct_related(
    lt: LongTermMemory, user_id: str, atom: MemoryAtom, source_ids: Sequence[str]
) -> ProfileEntry | None:
    """A preference stated as a correction ("No, I prefer coffee.", "不对，我喜欢绿茶。"):
    the entry it corrects loses ``correct_step`` of confidence (seed 002's −0.4 rule;
    the entry is kept, and leaves the context below the threshold). The corrected entry
    is one of the same key with another value, else the one whose value is most related
    to the new value (:data:`CORRECTION_MIN_COSINE`, :data:`CORRECTION_MIN_OVERLAP`);
    none when nothing is related enough. Returns the corrected entry.
    """
    new = str(atom.value).strip()
    others = [
        e
        for e in lt.profile.list_preferences(user_id)
        if e.scope == atom.scope and str(e.value).strip().lower() != new.lower()
    ]
    if not others:
        return None
    same = [e for e in others if e.key == normalize_key(atom.key)]
    if same:
        target = max(same, key=lambda e: e.updated_at)
    else:
        values = [str(e.value) for e in others]
        related = [_overlap(new, v) for v in values]
        if lt.embed is not None and not is_cjk_text(new):
            vecs = lt.embed([new, *values])
            cos = cosines(vecs[1:], vecs[0])
            related = [
                max(r, float(c)) if c >= CORRECTION_MIN_COSINE and not is_cjk_text(v) else r
                for r, c, v in zip(related, cos, values, strict=True)
            ]
        best = max(range(len(others)), key=lambda i: (related[i], others[i].updated_at))
        if related[best] <= 0:
            return None
        target = others[best]
    log.info("a correction lowers preference %s of user %s", target.id, user_id)
    return lt.profile.correct(user_id, target.id, source_ids=list(source_ids))


def _names_another_user(atoms: Sequence[MemoryAtom], others: Collection[str]) -> bool:
    folded = {o.casefold() for o in others}
    return any(a.subject.strip().casefold() in folded for a in atoms if a.subject)


def write_atoms(
    lt: LongTermMemory,
    user_id: str,
    messages: Sequence[Message],
    *,
    llm: BaseChatModel | None = None,
    working: WorkingMemory | None = None,
    other_users: Collection[str] = (),
    entities: EntityGraph | None = None,
) -> int:
    """Extract memory atoms from ``messages`` and write them to ``lt`` (standing
    instructions to ``working``'s anchors, when given).

    An LLM answer with an atom about one of ``other_users`` (another user of the store,
    by id) is not trusted: the message is read by the rules instead, and it is logged.

    Returns:
        How many long-term entries were written or refreshed.
    """
    written = 0
    for msg in messages:
        if msg.role not in ("user", "assistant"):
            continue
        try:
            atoms = extract_atoms(msg.content, role=msg.role, timestamp=msg.timestamp, llm=llm)
            if llm is not None and other_users and _names_another_user(atoms, other_users):
                log.warning(
                    "the LLM's extraction of message %s names another user; the rules read it",
                    msg.id,
                )
                atoms = extract_atoms(msg.content, role=msg.role, timestamp=msg.timestamp)
        except Exception:  # extraction never blocks promotion of the rest
            log.exception("extraction failed for message %s", msg.id)
            continue
        for atom in atoms:
            try:
                written += _write(lt, user_id, atom, msg, working, entities)
            except (ValueError, TypeError) as exc:
                log.info("skipped atom %r: %s", atom, exc)
        yield_gil()  # background work: let readers and the model run between messages
    return written


class AtomWriter:
    """Messages' atoms written to the layers.

    Called with ``(user_id, segment, messages)`` it is a
    :data:`~langgraph_memory.layers.hierarchy.placement.Promoter`; :meth:`placed` takes a batch
    of any users' messages as the hierarchy places them (every exchange).

    Args:
        longterm: Where profile entries, facts and traits go.
        llm: The chat model that extracts them (rules when ``None``).
        working: Where standing instructions go, as user anchors (kept as preferences
            when ``None``).
        links: Links each placed statement to an earlier one it contradicts (see
            :mod:`~langgraph_memory.layers.long_term.contradictions`).
        users: The store's user ids: an LLM extraction naming another user is not
            trusted (the rules read that message).
        rollups: Keeps the day and week roll-ups (see
            :mod:`~langgraph_memory.layers.long_term.rollups`).
        extract: Whether :meth:`placed` extracts atoms (``extract_every_turn``); the
            links and roll-ups are kept either way.
        entities: Where the entities the user mentions go (see
            :mod:`~langgraph_memory.layers.long_term.entities`).
    """

    def __init__(
        self,
        longterm: LongTermMemory,
        llm: BaseChatModel | None = None,
        working: WorkingMemory | None = None,
        *,
        links: ContradictionFinder | None = None,
        users: Callable[[], Sequence[str]] | None = None,
        rollups: RollupWriter | None = None,
        extract: bool = True,
        entities: EntityGraph | None = None,
    ) -> None:
        self.entities = entities
        self.rollups = rollups
        self.extract = extract
        self.longterm = longterm
        self.llm = llm
        self.working = working
        self.links = links
        self.users = users

    def __call__(self, user_id: str, segment: object, messages: Sequence[Message]) -> int:
        return write_atoms(
            self.longterm,
            user_id,
            messages,
            llm=self.llm,
            working=self.working,
            entities=self.entities,
        )

    def placed(self, messages: Sequence[Message]) -> int:
        """Write the atoms of messages just placed (several users'); returns how many
        entries were written or refreshed."""
        by_user: dict[str, list[Message]] = {}
        for m in messages:
            by_user.setdefault(m.user_id, []).append(m)
        everyone = set(self.users()) if self.llm is not None and self.users else set()
        # one write per entity the batch names, not one per mention
        with self.entities.batch() if self.entities is not None else nullcontext():
            written = sum(
                write_atoms(
                    self.longterm,
                    u,
                    ms,
                    llm=self.llm,
                    working=self.working,
                    other_users=everyone - {u, "user", "assistant"},
                    entities=self.entities,
                )
                for u, ms in by_user.items()
                if self.extract
            )
        if self.links is not None:
            try:
                written += self.links.placed(messages)
            except Exception:  # links never block placement
                log.exception("contradiction links failed")
        if self.rollups is not None:
            try:
                written += self.rollups.placed(messages)
            except Exception:  # roll-ups never block placement
                log.exception("roll-ups failed")
        return written
