"""Long-term memory: the user profile, user and knowledge-graph facts, and agent traits.

:class:`LongTermMemory` keeps all three as records of the store (kinds
``profile``, ``fact`` and ``trait``), scoped to one user in every call. The
rules live beside it: conflict resolution of preferences in
:mod:`~langgraph_memory.layers.long_term.profile`, the validity timeline of facts in
:mod:`~langgraph_memory.layers.long_term.facts`. Preference confidence follows the design
documents (seed 002): an inferred preference starts at 0.6, gains 0.2 each time
the user follows it, loses 0.4 when corrected; an explicit one starts at 1.0;
only entries above 0.7 reach the context. No LLM is used here.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> lt = LongTermMemory(InMemoryBackend())
    >>> guess = lt.profile.upsert_preference("u1", "drink", "coffee", source_ids=["m1"])
    >>> guess.confidence, [e.value for e in lt.profile.for_context("u1")]   # 0.6: observed only
    (0.6, [])
    >>> lt.profile.reinforce("u1", guess.id).confidence                      # the user followed it
    0.8
    >>> said = lt.profile.upsert_preference("u1", "drink", "tea over coffee", source="explicit",
    ...                             polarity="positive", source_ids=["m7"])
    >>> [e.text() for e in lt.profile.for_context("u1")]  # explicit beats inferred
    ['User prefers tea over coffee (drink; explicit, 1.0)']
    >>> _ = lt.facts.add_fact("u1", "user", "lives_in", "Paris", valid_from="2020-01-01")
    >>> _ = lt.facts.add_fact("u1", "user", "lives_in", "Berlin", valid_from="2023-06-01")
    >>> [f.object for f in lt.facts.facts_at("u1", "2021-01-01")]
    ['Paris']
    >>> [f.object for f in lt.facts.facts_at("u1")]
    ['Berlin']
    >>> lt.stats("u1")["facts_superseded"]
    1
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from langgraph_memory.config import LongTermSection
from langgraph_memory.core.records import from_data
from langgraph_memory.core.validation import check_id
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.long_term.fact_store import Facts
from langgraph_memory.layers.long_term.facts import (
    DEFAULT_FUNCTIONAL_RELATIONS,
    Fact,
    normalize_term,
)
from langgraph_memory.layers.long_term.profile import (
    SOURCES,
    Profile,
    ProfileEntry,
    check_source_ids,
    check_value,
    has_cjk,
    merge_ids,
    normalize_key,
    priority,
    render_value,
    stable_id,
)
from langgraph_memory.layers.long_term.records import RecordsStore
from langgraph_memory.storage.capabilities import RecordStore

if TYPE_CHECKING:
    from langgraph_memory.sensitivity.policy import SensitivityFilter

__all__ = ["LongTermMemory", "AgentTrait", "LongTermText", "KINDS"]

#: Record kinds this layer stores.
KINDS = ("profile", "fact", "trait")
_PREFIX = {"pref": "profile", "fact": "fact", "trait": "trait"}


@dataclass(slots=True)
class AgentTrait:
    """How the agent should behave for a user (``code_language: Python``, ``tone: academic``).

    Attributes:
        id: Unique id (one trait per user, agent and trait name).
        user_id: The user it applies to.
        agent_id: The agent it belongs to; ``None`` for every agent of the user.
        trait: The trait name, in canonical form.
        value: The trait, JSON-serialisable.
        source_ids: Ids of the messages it came from.
        created_at: When this value was first stored.
        updated_at: When it last changed or was re-asserted.
        access_count: How often it was retrieved.
        last_accessed_at: When it was last retrieved.
    """

    id: str
    user_id: str
    agent_id: str | None
    trait: str
    value: Any
    source_ids: list[str] = field(default_factory=list)
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    updated_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    access_count: int = 0
    last_accessed_at: datetime | None = None

    #: Its record kind.
    KIND: ClassVar[str] = "trait"

    @classmethod
    def load(cls, data: dict[str, Any]) -> AgentTrait:
        """A trait from its stored form."""
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        # the agent it belongs to (none: every agent); a context for one agent leaves
        # out the others' traits
        extra = {"agent": self.agent_id} if self.agent_id else {}
        return EntryView(self.text(), self.source_ids, self.updated_at, extra)

    def text(self) -> str:
        """A one-line rendering for prompts and search."""
        trait, value = self.trait.replace("_", " "), render_value(self.value)
        who = f" {self.agent_id}" if self.agent_id else ""
        if has_cjk(trait + value):
            return f"助手{who}的特征 {trait}：{value}"
        return f"Agent{who} trait {trait}: {value}"


@dataclass(slots=True)
class LongTermText:
    """A long-term entry rendered for retrieval and context.

    Attributes:
        id: The entry's id.
        kind: ``profile``, ``fact`` or ``trait``.
        text: The rendering (e.g. ``User prefers tea over coffee (drink; explicit, 1.0)``).
        source_ids: Ids of the messages it came from.
        confidence: The entry's confidence (1.0 for traits).
        updated_at: When it last changed.
    """

    id: str
    kind: str
    text: str
    source_ids: list[str]
    confidence: float
    updated_at: datetime


class LongTermMemory(RecordsStore):
    """The long-term layer over a record store; every call is scoped to a user.

    Args:
        records: Where entries are stored (records of kinds ``profile``, ``fact``, ``trait``).
        config: Confidence rules and functional relations (defaults from the seeds).
        clock: Returns the current time (UTC); for tests and replays.
        embed: Embeds texts (one row each), e.g. ``MemoryManager.embeddings.embed_array``;
            with it a new fact nearly repeating a recent one refreshes it (see
            :attr:`~langgraph_memory.config.LongTermSection.dedup_threshold`).
        gate: The sensitivity gate every value, object and quote goes through before it
            is stored (redacted or refused per its policy); none: stored as given.
    """

    _loaders: ClassVar[dict[str, Callable[[dict[str, Any]], Any]]] = {
        "profile": ProfileEntry.load,
        "fact": Fact.load,
        "trait": AgentTrait.load,
    }

    def __init__(
        self,
        records: RecordStore,
        config: LongTermSection | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
        embed: Callable[[Sequence[str]], np.ndarray] | None = None,
        gate: SensitivityFilter | None = None,
    ) -> None:
        config = config or LongTermSection()
        shared: dict[str, Any] = {
            "functional_relations": frozenset(
                map(normalize_key, config.functional_relations or DEFAULT_FUNCTIONAL_RELATIONS)
            ),
            "lock": threading.RLock(),
            "clock": clock or (lambda: datetime.now(timezone.utc)),
            "embed": embed,  # texts -> one row each: near-duplicate facts
            "gate": gate,
        }
        super().__init__(records, config, **shared)
        #: The user profile (preferences).
        self.profile = Profile(records, config, **shared)
        #: User and knowledge-graph facts.
        self.facts = Facts(records, config, **shared)

    # -- agent traits -------------------------------------------------------------------
    def add_trait(
        self,
        user_id: str,
        trait: str,
        value: Any,
        *,
        agent_id: str | None = None,
        source_ids: Sequence[str] | None = None,
    ) -> AgentTrait:
        """Store an agent trait (one per user, agent and trait; a new value replaces the old).

        Re-asserting the same value merges the citations.
        """
        user_id, trait = check_id(user_id, "user_id"), normalize_key(trait)
        agent = None if agent_id is None else check_id(agent_id, "agent_id")
        value, ids = self._clean(check_value(value, "value"), "value"), check_source_ids(source_ids)
        trait_id = stable_id("trait", user_id, agent, trait)
        with self._lock:
            now = self._now()
            rec = self.records.get_record("trait", trait_id, user_id)
            old = AgentTrait.load(rec.data) if rec is not None else None
            if old is not None and old.value == value:
                old.source_ids, old.updated_at = merge_ids(old.source_ids, ids), now
                t = old
            else:
                t = AgentTrait(trait_id, user_id, agent, trait, value, ids, now, now)
            self._put("trait", t)
            return t

    def list_traits(self, user_id: str, agent_id: str | None = None) -> list[AgentTrait]:
        """The user's agent traits, oldest first: all of them, or those of ``agent_id``
        (its own and those for every agent)."""
        return [
            t
            for r in self.records.list_records("trait", check_id(user_id, "user_id"))
            if (t := AgentTrait.load(r.data))
            and (agent_id is None or t.agent_id in (None, agent_id))
        ]

    # -- support: a message that repeats a belief joins its sources ---------------------
    def support_preference(
        self, user_id: str, key: str, value: Any, source_ids: Sequence[str]
    ) -> int:
        """Add ``source_ids`` to the user's preferences of ``key`` whose value is ``value``
        (case aside); nothing else changes (no confidence, no new entry). Returns how many.

        What an assistant or tool message repeats supports a belief; it never makes one.
        """
        want, key = str(value).strip().casefold(), normalize_key(key)
        hits = [
            e
            for e in self.profile.list_preferences(user_id)
            if e.key == key and render_value(e.value).strip().casefold() == want
        ]
        return self._support("profile", user_id, [e.id for e in hits], source_ids)

    def support_fact(
        self, user_id: str, subject: str, relation: str, object: str, source_ids: Sequence[str]
    ) -> int:
        """Add ``source_ids`` to the user's open facts ``(subject, relation, object)``
        (compared in canonical form); returns how many."""
        skey, rkey, want = normalize_term(subject), normalize_key(relation), normalize_term(object)
        found = self.records.query_records(
            "fact", check_id(user_id, "user_id"), where={"subject_key": skey, "relation_key": rkey}
        )
        hits = [
            r.id
            for r in found
            if (f := Fact.load(r.data)).valid_to is None and normalize_term(f.object) == want
        ]
        return self._support("fact", user_id, hits, source_ids)

    def support_trait(self, user_id: str, trait: str, value: Any, source_ids: Sequence[str]) -> int:
        """Add ``source_ids`` to the user's agent traits ``trait`` whose value is ``value``;
        returns how many."""
        want, trait = str(value).strip().casefold(), normalize_key(trait)
        hits = [
            t.id
            for t in self.list_traits(user_id)
            if t.trait == trait and render_value(t.value).strip().casefold() == want
        ]
        return self._support("trait", user_id, hits, source_ids)

    def _support(self, kind: str, user_id: str, ids: list[str], source_ids: Sequence[str]) -> int:
        add = check_source_ids(source_ids)
        n = 0
        with self._lock:
            for entry_id in ids:
                obj = self._get(kind, user_id, entry_id)
                merged = merge_ids(obj.source_ids, add)
                if merged != obj.source_ids:
                    obj.source_ids = merged
                    self._put(kind, obj)
                    n += 1
        return n

    # -- everything ---------------------------------------------------------------------
    def _locate(self, user_id: str, entry_id: str) -> str | None:
        kind = _PREFIX.get(entry_id.split("-", 1)[0])
        if kind is not None and self.records.get_record(kind, entry_id, user_id) is not None:
            return kind
        return None

    def delete(self, user_id: str, ids: str | Iterable[str]) -> int:
        """Delete entries of any kind by id; returns how many went.

        Deleting a fact reopens the span it had taken from the fact it superseded.
        Ids of other users' entries are ignored.
        """
        user_id = check_id(user_id, "user_id")
        n = 0
        with self._lock:
            for entry_id in [ids] if isinstance(ids, str) else list(ids):
                kind = self._locate(user_id, check_id(entry_id, "id"))
                if kind == "fact":
                    self.facts.splice_out(user_id, self._get("fact", user_id, entry_id))
                if kind is not None:
                    n += self.records.delete_records(kind, [entry_id], user_id)
        return n

    def touch(self, user_id: str, ids: Iterable[str], *, times: int = 1) -> int:
        """Count ``times`` retrievals of entries (``access_count`` + ``times``); returns
        how many were found."""
        user_id, n = check_id(user_id, "user_id"), 0
        with self._lock:
            for entry_id in ids:
                kind = self._locate(user_id, check_id(entry_id, "id"))
                if kind is None:
                    continue
                obj = self._get(kind, user_id, entry_id)
                obj.access_count += times
                obj.last_accessed_at = self._now()
                self._put(kind, obj)
                n += 1
        return n

    def texts_for_search(
        self,
        user_id: str,
        *,
        include_history: bool = True,
        kinds: Collection[str] = ("profile", "fact", "trait"),
    ) -> list[LongTermText]:
        """Every usable entry rendered as a short text with its citations.

        Preferences: per key and scope, the winner among entries above
        ``preference_threshold`` (an unconfirmed guess is never offered). Facts: all,
        closed ones rendered with their span and marked superseded (only the open ones
        with ``include_history=False``). Traits: all. Only the ``kinds`` asked for are
        read.
        """
        out: list[LongTermText] = []
        groups: dict[tuple[str, str | None], ProfileEntry] = {}
        prefs = self.profile.list_preferences(user_id) if "profile" in kinds else []
        for e in prefs:
            if e.confidence > self.config.preference_threshold:
                best = groups.get((e.key, e.scope))
                if best is None or priority(e) > priority(best):
                    groups[(e.key, e.scope)] = e
        for e in groups.values():
            out.append(
                LongTermText(e.id, "profile", e.text(), e.source_ids, e.confidence, e.updated_at)
            )
        for f in self.facts.list_facts(user_id) if "fact" in kinds else []:
            if include_history or f.valid_to is None:
                out.append(
                    LongTermText(f.id, "fact", f.text(), f.source_ids, f.confidence, f.updated_at)
                )
        for t in self.list_traits(user_id) if "trait" in kinds else []:
            out.append(LongTermText(t.id, "trait", t.text(), t.source_ids, 1.0, t.updated_at))
        return out

    def stats(self, user_id: str) -> dict[str, int]:
        """Counts of the user's long-term entries."""
        prefs = self.profile.list_preferences(user_id)
        facts = self.facts.list_facts(user_id)
        now = self._now()
        out = {
            "profile": len(prefs),
            "profile_in_context": len(self.profile.for_context(user_id)),
            **{f"profile_{s}": sum(e.source == s for e in prefs) for s in SOURCES},
            "facts": len(facts),
            "facts_current": sum(f.holds_at(now) for f in facts),
            "facts_superseded": sum(f.superseded_by is not None for f in facts),
            "traits": self.records.count_records("trait", user_id),
        }
        return out
