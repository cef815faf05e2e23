"""``mm.profile``: what the memory believes about a user, and the feedback that moves it.

The profile holds preferences with a scope, a source (explicit, confirmed, inferred) and
a confidence (seed 002: inferred 0.6, +0.2 when followed, −0.4 when corrected; only
above 0.7 reaches a context); facts keep their validity span (a superseded fact stays,
closed); entities and their relations are a small knowledge graph; insights and day and
week roll-ups are reflected from what was said. All of it is read from the user's
messages in the background (rules, or the chat model you pass as ``llm=``).

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_turn("ann", "s1", user="I prefer green tea.", assistant="Noted.")
    ...     mm.flush()
    ...     pref = mm.profile.preferences("ann")[0]
    ...     [e.confidence for e in mm.profile.feedback("ann", pref.id, "corrected")]
    [0.6]
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from langgraph_memory.core.validation import MAX_VALUE_BYTES, check_id, check_json
from langgraph_memory.layers.long_term.entities import Entity, EntityGraph
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.layers.long_term.profile import ProfileEntry
from langgraph_memory.layers.long_term.reflection import Insight, Reflector
from langgraph_memory.layers.long_term.rollups import Rollup, RollupWriter
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime

__all__ = ["Profile", "AsyncProfile", "ProfileEntry", "Fact", "Entity", "Insight", "Rollup"]


class Profile:
    """A user's preferences, facts, entities, insights and roll-ups.

    Args:
        longterm: Long-term memory (preferences and facts).
        entities: The entity graph.
        reflector: Insights.
        rollups: Day and week summaries.
        lifetime: The manager's open/closed state.
    """

    def __init__(
        self,
        longterm: LongTermMemory,
        entities: EntityGraph,
        reflector: Reflector,
        rollups: RollupWriter,
        lifetime: Lifetime,
    ) -> None:
        self._longterm = longterm
        self._entities = entities
        self._reflector = reflector
        self._rollups = rollups
        self._life = lifetime

    def feedback(
        self,
        user_id: str,
        target: str,
        signal: Literal["followed", "corrected"],
        *,
        value: Any = None,
        source_ids: Sequence[str] | None = None,
    ) -> builtins.list[ProfileEntry]:
        """Tell the memory that a preference was followed or corrected.

        ``"followed"`` raises its confidence by ``long_term.reinforce_step`` (at most
        1); ``"corrected"`` lowers it by ``long_term.correct_step`` (at least 0; below
        ``long_term.preference_threshold`` it no longer reaches a context; the entry is
        kept), and with ``value`` stores what the user said instead as the explicit
        preference of that key (replacing an explicit entry's value: the profile keeps
        one entry per key, scope and source).

        Args:
            user_id: Whose preference.
            target: A profile entry id (``ProfileEntry.id``, as cited by a context
                item) or a key: every entry of that key (any scope and source).
            signal: ``"followed"`` or ``"corrected"``.
            value: With ``"corrected"``: the preference the user stated instead.
            source_ids: The messages that show it (added to the entries' citations).

        Returns:
            The entries changed, as they are now (with ``value``, the explicit one last).

        Raises:
            ValueError: When ``signal`` is unknown, or ``value`` comes with
                ``"followed"``.
            KeyError: When the user has no entry with that id or key.

        Example:
            >>> mm.profile.feedback("u1", "drink", "corrected", value="green tea")  # doctest: +SKIP
        """
        self._life.check()
        check_id(user_id, "user_id")
        check_id(target, "target")
        if signal not in ("followed", "corrected"):
            raise ValueError(f"signal must be 'followed' or 'corrected', got {signal!r}")
        if value is not None and signal != "corrected":
            raise ValueError("value is the correction: it goes with signal='corrected'")
        if value is not None:
            check_json(value, MAX_VALUE_BYTES, "value")
        prefs = self._longterm.profile
        try:
            entries = [prefs.get_preference(user_id, target)]
        except KeyError:  # not an entry id: a key
            entries = prefs.list_preferences(user_id, key=target)
        if not entries:
            raise KeyError(f"user {user_id!r} has no preference with id or key {target!r}")
        if signal == "followed":
            return [prefs.reinforce(user_id, e.id, source_ids=source_ids) for e in entries]
        out: builtins.list[ProfileEntry] = []
        for e in entries:
            corrected = prefs.correct(user_id, e.id, source_ids=source_ids)
            if corrected is not None:
                out.append(corrected)
        if value is not None:
            first = entries[0]
            out = [e for e in out if not (e.source == "explicit" and e.scope == first.scope)]
            out.append(
                prefs.upsert_preference(
                    user_id,
                    first.key,
                    value,
                    source="explicit",
                    scope=first.scope,
                    polarity=first.polarity,
                    source_ids=source_ids,
                )
            )
        return out

    def retire(
        self, user_id: str, fact_id: str, *, when: datetime | str | float | None = None
    ) -> Fact:
        """Retire a belief: record that a fact stopped holding (the user said it no
        longer does, or a person correcting the memory says so).

        The fact is kept, closed at ``when`` (its ``valid_to``): its history stays
        (``facts()`` lists it, ended), and it is no longer ranked, so no context or
        search cites it as current. Unlike ``delete``, the messages it came from stay.

        Args:
            user_id: Whose fact.
            fact_id: The fact (``Fact.id``, as cited by a context item or listed by
                ``facts()``).
            when: When it stopped holding (default now).

        Returns:
            The fact as it is now (closed).

        Raises:
            KeyError: When the user has no fact with that id (another user's included).
            ValueError: When the fact is closed already, or ``when`` precedes its start.

        Example:
            >>> fact = mm.profile.facts("u1", current=True)[0]  # doctest: +SKIP
            >>> mm.profile.retire("u1", fact.id).valid_to is not None  # doctest: +SKIP
            True
        """
        self._life.check()
        check_id(user_id, "user_id")
        check_id(fact_id, "fact_id")
        return self._longterm.facts.close_fact(user_id, fact_id, when)

    def preferences(
        self, user_id: str, *, key: str | None = None, scope: str | None = None
    ) -> builtins.list[ProfileEntry]:
        """The user's preferences, every scope, source and confidence (those below the
        threshold included), oldest first; of one ``key``, or that apply in ``scope``
        (its own and global ones), when given."""
        self._life.check()
        check_id(user_id, "user_id")
        return self._longterm.profile.list_preferences(user_id, key=key, scope=scope)

    def facts(
        self, user_id: str, *, subject: str | None = None, current: bool = False
    ) -> builtins.list[Fact]:
        """The user's facts in the order they began, superseded ones included (closed,
        with ``superseded_by``) unless ``current``; of one ``subject`` when given."""
        self._life.check()
        check_id(user_id, "user_id")
        return self._longterm.facts.list_facts(
            user_id, subject=subject, include_superseded=not current
        )

    def entities(self, user_id: str) -> builtins.list[Entity]:
        """Who and what the user talks about, most mentioned first (see
        :mod:`~langgraph_memory.layers.long_term.entities`)."""
        self._life.check()
        return self._entities.entities(check_id(user_id, "user_id"))

    def relations(self, user_id: str, name: str) -> builtins.list[Fact]:
        """The facts whose subject or object names ``name``: an entity's edges in the
        user's knowledge graph, oldest first (superseded ones with their span)."""
        self._life.check()
        check_id(name, "name")
        return self._entities.relations(check_id(user_id, "user_id"), name)

    def insights(self, user_id: str) -> builtins.list[Insight]:
        """Insights reflected from a user's recent facts, oldest first (with
        ``lifecycle.insights``)."""
        self._life.check()
        return self._reflector.insights(check_id(user_id, "user_id"))

    def rollups(
        self, user_id: str, level: Literal["day", "week"] | None = None
    ) -> builtins.list[Rollup]:
        """A user's day and week summaries (of one ``level`` when given), oldest span
        first; a span is summarised once a later one begins (see
        :mod:`~langgraph_memory.layers.long_term.rollups`)."""
        self._life.check()
        if level not in (None, "day", "week"):
            raise ValueError(f"level must be 'day', 'week' or None, got {level!r}")
        return self._rollups.rollups(check_id(user_id, "user_id"), level)


class AsyncProfile(AsyncPart[Profile]):
    """Awaitable ``mm.profile`` (see :class:`~langgraph_memory.parts.profile.Profile`)."""

    feedback = awaitable(Profile.feedback)
    retire = awaitable(Profile.retire)
    preferences = awaitable(Profile.preferences)
    facts = awaitable(Profile.facts)
    entities = awaitable(Profile.entities)
    relations = awaitable(Profile.relations)
    insights = awaitable(Profile.insights)
    rollups = awaitable(Profile.rollups)
