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
import re
from collections.abc import Callable, Collection, Sequence
from contextlib import nullcontext
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Protocol

from langgraph_memory.core.concurrency import yield_gil
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import is_cjk_text, tokenize
from langgraph_memory.extraction.answers import answer_head, chosen
from langgraph_memory.extraction.atoms import MemoryAtom
from langgraph_memory.extraction.entities import sentence_spans
from langgraph_memory.extraction.extractor import Extractor, extract_atoms, normalize_key
from langgraph_memory.extraction.provenance import (
    CONFIRMED,
    in_user_voice,
    is_confirmation,
    is_grounded,
    strip_injected,
)
from langgraph_memory.extraction.rules import is_correction
from langgraph_memory.extraction.slots import is_profile_key
from langgraph_memory.layers.hierarchy.standing import (
    INSTRUCTION_SOURCE,
    earlier_request,
    write_instruction,
)
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.layers.long_term.profile import ProfileEntry
from langgraph_memory.retrieval.vectors import cosines

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from langgraph_memory.layers.long_term.contradictions import ContradictionFinder
    from langgraph_memory.layers.long_term.entities import EntityGraph
    from langgraph_memory.layers.long_term.rollups import RollupWriter
    from langgraph_memory.layers.working.tasks import WorkingMemory

__all__ = [
    "write_atoms",
    "AtomWriter",
    "quote_of",
    "correct_related",
    "previous_in_session",
    "MessageNeighbors",
    "INSTRUCTION_SOURCE",
]

#: The atom kinds written to a layer (the others, entities, are not).
_WRITTEN = frozenset({"instruction", "preference", "fact", "relation", "decision", "task"})
#: A message up to this long is quoted whole; a longer one by the sentence that said it.
QUOTE_CHARS = 400

log = logging.getLogger(__name__)


class MessageNeighbors(Protocol):
    """The stored messages around one message (the store, as the write gate reads it)."""

    def neighbors(self, user_id: str, seq: int, window: int) -> list[Message]:
        """Up to ``window`` messages before and after the message ``seq`` in its session."""
        ...


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


def _write(
    lt: LongTermMemory,
    user_id: str,
    atom: MemoryAtom,
    msg: Message,
    working: WorkingMemory | None = None,
    entities: EntityGraph | None = None,
    *,
    confirms: Message | None = None,
    request: Message | None = None,
) -> int:
    """Write one atom of a user message ``msg`` as a belief. With ``confirms`` (the
    assistant message ``msg`` said yes to), the atom was read from that message in the
    user's voice: the belief is ``confirmed`` and cites both messages. ``request``: the
    user's earlier request an instruction made standing by a pro-form stands for."""
    if msg.role != "user":  # only the user's own words make a belief (see write_atoms)
        return 0
    ids = [msg.id] if confirms is None else [confirms.id, msg.id]
    source = atom.source if atom.source in ("explicit", "confirmed", "inferred") else "inferred"
    provenance = None
    if confirms is not None:
        source, provenance = CONFIRMED, CONFIRMED
    if atom.kind == "entity":
        if entities is None or confirms is not None:
            return 0  # who and what the user talks about
        entities.mention(user_id, atom.value, atom.key, msg, quote_of(msg, atom))
        return 1
    if atom.kind not in _WRITTEN:
        return 0
    quote = quote_of(msg if confirms is None else confirms, atom)
    confidence = atom.confidence if confirms is None else None
    if atom.kind == "instruction":
        if working is not None:
            return write_instruction(
                working, user_id, atom, msg, quote, ids, provenance, request=request
            )
        atom = replace(atom, kind="preference")  # no anchors here: kept as a preference
    if atom.kind == "preference":
        if confirms is None and is_correction(msg.content):
            correct_related(lt, user_id, atom, ids)
        lt.profile.upsert_preference(
            user_id,
            atom.key,
            atom.value,
            source=source,
            scope=atom.scope,
            confidence=confidence,
            polarity="negative" if atom.polarity < 0 else "positive",
            source_ids=ids,
            quote=quote,
        )
        return 1
    if atom.kind in ("fact", "relation", "decision", "task"):
        relation = atom.key if atom.kind in ("fact", "relation") else atom.kind
        kept = lt.facts.add_fact(
            user_id,
            _subject(atom, msg),
            relation,
            atom.value,
            valid_from=msg.timestamp,
            source_ids=ids,
            confidence=atom.confidence if confirms is None else lt.config.confirmed_confidence,
            quote=quote,
            provenance=provenance,
        )
        if atom.kind == "fact" and atom.subject == "user":
            # the profile follows the fact: under the slot a change resolved to, and
            # under every slot whose value the fact replaced ("主管" and "manager")
            keys = [kept.relation] + [f.relation for f in lt.facts.replaced(user_id, kept)]
            for key in dict.fromkeys(k for k in keys if is_profile_key(k)):
                lt.profile.upsert_preference(
                    user_id, key, kept.object, source=source, confidence=confidence,
                    source_ids=ids, quote=quote,
                )  # fmt: skip
        return 1
    return 0


def _support(lt: LongTermMemory, user_id: str, atom: MemoryAtom, msg: Message) -> int:
    """What an assistant or tool message says can support a belief the user's words made
    (the message joins its sources) but never make one; returns how many it supported."""
    ids = [msg.id]
    if atom.subject == "assistant":
        return lt.support_trait(user_id, atom.key, atom.value, ids)
    if atom.kind in ("preference", "instruction"):
        return lt.support_preference(user_id, atom.key, atom.value, ids)
    if atom.kind in ("fact", "relation", "decision", "task"):
        relation = atom.key if atom.kind in ("fact", "relation") else atom.kind
        subject = "user" if atom.subject in ("user", "assistant") else atom.subject
        n = lt.support_fact(user_id, subject, relation, atom.value, ids)
        if atom.kind == "fact" and is_profile_key(atom.key):
            n += lt.support_preference(user_id, atom.key, atom.value, ids)
        return n
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


def _atoms(
    text: str, role: str, msg: Message, llm: BaseChatModel | None, other_users: Collection[str]
) -> list[MemoryAtom]:
    """The atoms of ``text`` (a message's words, as ``role`` said them): by the LLM when
    one is given (the rules when its answer names another user), each one grounded in
    ``text`` (:func:`~langgraph_memory.extraction.provenance.is_grounded`)."""
    atoms = extract_atoms(text, role=role, timestamp=msg.timestamp, llm=llm)
    if llm is not None and other_users and _names_another_user(atoms, other_users):
        log.warning(
            "the LLM's extraction of message %s names another user; the rules read it", msg.id
        )
        atoms = extract_atoms(text, role=role, timestamp=msg.timestamp)
    kept = [a for a in atoms if a.kind == "entity" or is_grounded(a, text)]
    if len(kept) < len(atoms):
        log.info("refused %d atoms of message %s not in its words", len(atoms) - len(kept), msg.id)
    return kept


#: Sentences that speak to the user ("you", "your", "你") and of the speaker ("I", "我").
_SECOND_PERSON = re.compile(r"\b(?:you|your|you're|yours)\b|你|您", re.I)
_FIRST_PERSON = re.compile(r"\b(?:I|my|I'm|I've|me)\b|我")


def _repeated(text: str, msg: Message) -> list[MemoryAtom]:
    """What an assistant or tool message says that may support a belief, by the rules:
    its sentences about the user in the user's voice ("You love tea" → "I love tea"),
    and its first-person sentences about itself (agent traits). Only the sentences with
    a pronoun are read (a long reply of explanation and code mostly has none)."""
    spans = [s for _, s in sentence_spans(text)]
    yours = "".join(s for s in spans if _SECOND_PERSON.search(s))
    mine = "".join(s for s in spans if _FIRST_PERSON.search(s))
    about_user = Extractor(entities=False).rules(in_user_voice(yours)) if yours else []
    own = Extractor(entities=False).rules(mine, role="assistant") if mine else []
    return about_user + [a for a in own if a.subject == "assistant"]


def write_atoms(
    lt: LongTermMemory,
    user_id: str,
    messages: Sequence[Message],
    *,
    llm: BaseChatModel | None = None,
    working: WorkingMemory | None = None,
    other_users: Collection[str] = (),
    entities: EntityGraph | None = None,
    previous: Callable[[Message], Message | None] | None = None,
) -> int:
    """Extract memory atoms from ``messages`` and write them to ``lt`` (standing
    instructions to ``working``'s anchors, when given).

    This is the one gate every belief passes (on every exchange and on promotion), and
    it holds their provenance:

    - Text the library injected (recalled memory, outlines, rendered entries; see
      :func:`~langgraph_memory.extraction.provenance.strip_injected`) is blanked out of
      every message first: it is never read back as something new.
    - Only a user message makes beliefs (profile entries, facts, anchors, entities);
      an atom whose value is not in the message's own words (an LLM's invention) is
      refused.
    - An assistant or tool message only supports the beliefs it repeats (it joins
      their sources); it makes none, and no agent trait.
    - A user message that confirms ("Yes, that's right", "对，没错") the assistant
      message before it in its session (``previous`` finds it) makes that message's
      statements, in the user's voice, ``confirmed`` beliefs citing both messages.
    - A user's short answer that picks an option the assistant message before it
      offered ("高铁吧，我晕机" to "坐高铁还是飞机？") is a liking in the user's words; the
      question only tells which words pick (it makes no belief, nor a dislike of the rest).

    An LLM answer with an atom about one of ``other_users`` (another user of the store,
    by id) is not trusted: the message is read by the rules instead, and it is logged.

    Returns:
        How many long-term entries were written, refreshed or supported.
    """
    written = 0
    for msg in messages:
        if msg.role not in ("user", "assistant", "tool"):
            continue
        try:
            text = strip_injected(msg.content)
            if not text.strip():
                atoms = []
            elif msg.role == "user":
                atoms = _atoms(text, "user", msg, llm, other_users)
                atoms += _picked(msg, text, previous, atoms)
            else:
                atoms = _repeated(text, msg)
            asked = earlier_request(msg, atoms, previous) if msg.role == "user" else None
            said = _said_yes_to(msg, text, previous)
            confirmed = (
                _agreed(
                    _atoms(
                        in_user_voice(strip_injected(said.content)), "user", msg, llm, other_users
                    )
                )
                if said is not None
                else []
            )
        except Exception:  # extraction never blocks promotion of the rest
            log.exception("extraction failed for message %s", msg.id)
            continue
        for atom in atoms:
            try:
                if msg.role == "user":
                    written += _write(lt, user_id, atom, msg, working, entities, request=asked)
                else:
                    written += _support(lt, user_id, atom, msg)
            except (ValueError, TypeError) as exc:
                log.info("skipped atom %r: %s", atom, exc)
        for atom in confirmed:
            try:
                written += _write(lt, user_id, atom, msg, working, entities, confirms=said)
            except (ValueError, TypeError) as exc:
                log.info("skipped confirmed atom %r: %s", atom, exc)
        yield_gil()  # background work: let readers and the model run between messages
    return written


def _agreed(atoms: list[MemoryAtom]) -> list[MemoryAtom]:
    """What a user's yes makes of the assistant's statements (in the user's voice): its
    statements about the user, and a standing instruction only where the assistant spoke
    of its own conduct ("I'll answer in English from now on" → "you'll answer…"). An
    imperative the assistant addressed to the user ("Measure the effect before and after
    the change") is advice to the user: agreeing to it asks nothing of the assistant.

    Example:
        >>> from langgraph_memory.extraction.extractor import extract_atoms as read
        >>> [a.value for a in _agreed(read("Measure the effect by comparing the two runs."))]
        []
        >>> [a.kind for a in _agreed(read("You will answer in bullet points from now on."))]
        ['instruction']
        >>> [a.kind for a in _agreed(read("From now on, replies will be in bullet points."))]
        ['instruction']
    """
    return [
        a
        for a in atoms
        if a.kind != "instruction" or _SECOND_PERSON.search(a.text) or _OWN_CONDUCT.search(a.text)
    ]


#: What the assistant says of its own replies ("replies will be in bullet points", "all code
#: examples will use TypeScript", 以后的回答都会用中文), not an imperative to the user ("以后每次
#: 发布前都先跑一遍回归测试" is advice: agreeing to it asks nothing of the assistant).
_OWN_CONDUCT = re.compile(r"\b(?:will|'ll|replies|answers|responses)\b|会|回答|回复|答复", re.I)


def _picked(
    msg: Message,
    text: str,
    previous: Callable[[Message], Message | None] | None,
    atoms: Sequence[MemoryAtom],
) -> list[MemoryAtom]:
    """The liking a user's short answer states by picking an option the assistant message
    before it offered (:func:`~langgraph_memory.extraction.answers.chosen`), unless the
    message's own atoms hold it already."""
    if previous is None or answer_head(text) is None:
        return []
    before = previous(msg)
    if before is None or before.role != "assistant":
        return []
    have = {a.value.casefold() for a in atoms if a.kind == "preference"}
    return [
        a for a in chosen(strip_injected(before.content), text) if a.value.casefold() not in have
    ]


def _said_yes_to(
    msg: Message, text: str, previous: Callable[[Message], Message | None] | None
) -> Message | None:
    """The assistant message a user message confirms, if it is a confirmation."""
    if msg.role != "user" or previous is None or not is_confirmation(text):
        return None
    before = previous(msg)
    return before if before is not None and before.role == "assistant" else None


def previous_in_session(messages: MessageNeighbors, msg: Message) -> Message | None:
    """The message just before ``msg`` in its session, if any."""
    around = messages.neighbors(msg.user_id, msg.seq, 1) if msg.seq else []
    earlier = [m for m in around if m.seq < msg.seq and m.session_id == msg.session_id]
    return earlier[-1] if earlier else None


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
        messages: The stored messages: a user's confirmation ("yes, that's right") is
            read with the assistant message before it (none: confirmations make nothing).
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
        messages: MessageNeighbors | None = None,
    ) -> None:
        self.previous = partial(previous_in_session, messages) if messages is not None else None
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
            previous=self.previous,
        )

    def placed(self, messages: Sequence[Message]) -> int:
        """Write the atoms of messages just placed (several users'); returns how many
        entries were written or refreshed."""
        by_user: dict[str, list[Message]] = {}
        for m in messages:
            by_user.setdefault(m.user_id, []).append(m)
        everyone = set(self.users()) if self.llm is not None and self.users else set()
        # one write per entity the batch names, not one per mention; each subject's
        # facts read once per batch, not once per fact
        entities = self.entities.batch() if self.entities is not None else nullcontext()
        with entities, self.longterm.facts.batch():
            written = sum(
                write_atoms(
                    self.longterm,
                    u,
                    ms,
                    llm=self.llm,
                    working=self.working,
                    other_users=everyone - {u, "user", "assistant"},
                    entities=self.entities,
                    previous=self.previous,
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
