"""The store of facts: asserting, superseding, closing and listing them
(``LongTermMemory.facts``).

:meth:`Facts.add_fact` meets a new fact with the stored facts it can meet (its
timeline and the subject's latest), resolves the slot a change names
(:mod:`~langgraph_memory.layers.long_term.fact_slots`), refreshes a near duplicate or
places the fact on its timeline (:func:`~langgraph_memory.layers.long_term.facts.place_fact`)
and stores what changed. :meth:`Facts.batch` lets the background worker read each
subject once per batch (:mod:`~langgraph_memory.layers.long_term.fact_memo`).

Example:
    >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> facts = LongTermMemory(InMemoryBackend()).facts
    >>> _ = facts.add_fact("u1", "user", "lives_in", "Paris", valid_from="2020-01-01")
    >>> rome = facts.add_fact("u1", "user", "lives_in", "Rome", valid_from="2023-01-01")
    >>> [f.object for f in facts.facts_at("u1")], rome.earlier
    (['Rome'], 'Paris')
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, ClassVar

import numpy as np

from langgraph_memory.core.tokens import tokenize
from langgraph_memory.core.validation import check_content, check_id, parse_timestamp
from langgraph_memory.extraction.changes import CHANGE_CUE, CHANGE_KEY
from langgraph_memory.extraction.slots import is_tentative
from langgraph_memory.layers.long_term.fact_memo import FactMemo
from langgraph_memory.layers.long_term.fact_slots import (
    ended_by,
    in_slot,
    resolved_change,
    tentative_slot,
    twins_closed,
)
from langgraph_memory.layers.long_term.facts import (
    Fact,
    fact_words,
    is_functional,
    normalize_term,
    place_fact,
    refresh_fact,
)
from langgraph_memory.layers.long_term.profile import (
    check_source_ids,
    clamp01,
    normalize_key,
    stable_id,
)
from langgraph_memory.layers.long_term.records import RecordsStore
from langgraph_memory.storage.capabilities import record_matches

__all__ = ["Facts", "MAX_OBJECT_CHARS"]

#: The longest object a fact takes (characters).
MAX_OBJECT_CHARS = 2000

#: How many of a subject's latest facts a new fact is compared with for near duplicates.
_DEDUP_SCAN = 200


class Facts(RecordsStore):
    """User and knowledge-graph facts with their validity (``LongTermMemory.facts``)."""

    _loaders: ClassVar[dict[str, Callable[[dict[str, Any]], Any]]] = {"fact": Fact.load}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._local = threading.local()  # this thread's batch memo, see :meth:`batch`

    # -- a batch's reads ----------------------------------------------------------------
    @contextmanager
    def batch(self) -> Iterator[None]:
        """Within it, this thread's :meth:`add_fact` calls read each subject's facts from
        the store once and keep them in step with their own writes (see
        :mod:`~langgraph_memory.layers.long_term.fact_memo`): the worker writes a
        batch's facts, mostly about one subject, one after another. What is stored is
        the same as without it. A record store that does not count its writes
        (``writes``) gets no memo.

        Example:
            >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> lt = LongTermMemory(InMemoryBackend())
            >>> add = lt.facts.add_fact
            >>> with lt.facts.batch():
            ...     _ = add("u1", "user", "lives_in", "Paris", valid_from="2024-01-01")
            ...     new = add("u1", "user", "lives_in", "Rome", valid_from="2024-06-01")
            >>> new.earlier
            'Paris'
        """
        writes = getattr(self.records, "writes", None)
        if writes is None or getattr(self._local, "memo", None) is not None:
            yield  # no count to check against, or nested: the outer batch keeps it
            return
        self._local.memo = FactMemo(stamp=writes["fact"])
        try:
            yield
        finally:
            self._local.memo = None

    def _memo(self) -> FactMemo | None:
        """This thread's batch memo, in step with the store (``None`` outside a batch)."""
        memo: FactMemo | None = getattr(self._local, "memo", None)
        if memo is not None:
            stamp = self.records.writes["fact"]  # type: ignore[attr-defined]
            if stamp != memo.stamp:  # a fact written by someone else: read again
                memo.clear(stamp)
        return memo

    def _put(self, kind: str, obj: Any) -> None:
        super()._put(kind, obj)
        memo = getattr(self._local, "memo", None) if kind == "fact" else None
        if memo is not None:
            stored = self.records.get_record("fact", obj.id, obj.user_id)
            memo.wrote(stored, obj.id, self.records.writes["fact"], _DEDUP_SCAN)  # type: ignore[attr-defined]

    def _met(self, user_id: str, new: Fact, subject: str) -> list[Fact]:
        """The stored facts ``new`` can meet: its timeline (the same subject and
        relation) and the subject's latest facts (near duplicates), not every fact of
        the user; each loaded once."""
        skey, rkey = new.key()
        query, memo = self.records.query_records, self._memo()
        latest = memo.subject(user_id, skey) if memo is not None else None
        if latest is None:
            latest = query(
                "fact", user_id, where={"subject_key": skey}, limit=_DEDUP_SCAN, newest_first=True
            )
            if memo is not None:
                memo.keep_subject(user_id, skey, latest, complete=len(latest) < _DEDUP_SCAN)
        same_key = {"subject_key": skey, "relation_key": rkey}
        if len(latest) < _DEDUP_SCAN:  # all of the subject's: its timeline is among them
            found = [r for r in reversed(latest) if record_matches(r, same_key)]
        else:
            found = query("fact", user_id, where=same_key)
        # facts stored before these keys were: by the subject and relation as given
        named = memo.by_names(user_id, subject, new.relation) if memo is not None else None
        if named is None:
            named = query("fact", user_id, where={"subject": subject, "relation": new.relation})
            if memo is not None:
                memo.keep_names(user_id, subject, new.relation, named)
        found += named
        found += latest
        # a fact two queries return is loaded once (and once per batch in a memo)
        unique = {r.id: r for r in found}.values()
        if memo is None:
            return [Fact.load(r.data) for r in unique]
        return [memo.fact(r) for r in unique]

    # -- facts --------------------------------------------------------------------------
    def add_fact(
        self,
        user_id: str,
        subject: str,
        relation: str,
        object: str,
        *,
        valid_from: datetime | str | float | None = None,
        valid_to: datetime | str | float | None = None,
        source_ids: Sequence[str] | None = None,
        confidence: float | None = None,
        quote: str | None = None,
        provenance: str | None = None,
    ) -> Fact:
        """Assert a fact; a contradicting fact of a functional relation is superseded.

        For a functional relation (``functional_relations``) the fact that
        held at ``valid_from`` with another object is closed at ``valid_from``
        (kept, with ``superseded_by`` set), and the new fact ends where a later
        fact of the same subject and relation begins. Re-asserting what already
        holds refreshes that fact (citations merged, confidence kept at the higher).

        Args:
            user_id: Whose memory.
            subject: Who or what (``user`` for the user).
            relation: The relation (``lives_in``, ``likes``, ``住在``...).
            object: The value.
            valid_from: When it started to hold (now when ``None``).
            valid_to: When it stopped holding, if known.
            source_ids: Ids of the messages it came from.
            confidence: How sure (``config.fact_confidence`` when ``None``).
            quote: The words it was read from (shown with it; the latest kept).
            provenance: ``"confirmed"`` for what the user confirmed of the assistant's
                words; ``None`` (the user's own words) otherwise.

        Returns:
            The fact that records the assertion (a refreshed old one, or the new one).
        """
        user_id = check_id(user_id, "user_id")
        subject, relation = check_id(subject, "subject").strip(), check_id(relation, "relation")
        obj = self._clean(check_content(object, MAX_OBJECT_CHARS, "object", None).strip(), "object")
        subject, quote = self._clean(subject, "subject"), self._clean(quote, "quote")
        conf = self.config.fact_confidence if confidence is None else confidence
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 <= conf <= 1:
            raise ValueError(f"confidence must be a number within [0, 1], got {confidence!r}")
        ids = check_source_ids(source_ids)
        with self._lock:
            now = self._now()
            start = now if valid_from is None else parse_timestamp(valid_from, "valid_from")
            end = None if valid_to is None else parse_timestamp(valid_to, "valid_to")
            if end is not None and end <= start:
                raise ValueError("valid_to must be later than valid_from")
            # The same assertion gets the same id (a replayed message refreshes its fact).
            fid = stable_id(
                "fact", user_id, normalize_term(subject), normalize_key(relation),
                normalize_term(obj), start.isoformat(),
            )  # fmt: skip
            new = Fact(
                fid, user_id, subject, relation.strip(), obj, start, end,
                ids, clamp01(conf), created_at=now, updated_at=now, quote=quote or None,
                provenance=provenance or None,
            )  # fmt: skip
            try:
                return self._assert(user_id, new, subject, now)
            except BaseException:
                memo = getattr(self._local, "memo", None)
                if memo is not None:  # a fact met may have changed without being written
                    memo.forget_decoded()
                raise

    def _assert(self, user_id: str, new: Fact, subject: str, now: datetime) -> Fact:
        """:meth:`add_fact`'s work once ``new`` is made: meet the stored facts, then
        refresh, supersede or store (under the lock)."""
        facts = self._met(user_id, new, subject)
        if new.key()[1] == normalize_key(CHANGE_KEY):  # a change, its slot unnamed
            new = resolved_change(new, facts, self.functional_relations)
        if is_tentative(new.relation):  # kept only where it changes a slot's value
            slot = tentative_slot(new, facts, self.functional_relations)
            if slot is None:
                return new  # not stored: it changes nothing the user said
            new = in_slot(new, slot)
        key = new.key()
        timeline = [f for f in facts if f.key() == key]
        functional = is_functional(new.key()[1], self.functional_relations)
        if not functional and new.quote and CHANGE_CUE.search(new.quote):
            # "my favourite food is ramen now": a change of the value the key held
            functional = any(f.valid_to is None for f in timeline)
        dup = self._near_duplicate(new, facts, functional, now)
        if dup is not None:
            refresh_fact(dup, new, now)
            self._put("fact", dup)
            return dup
        kept, changed = place_fact(timeline, new, functional=functional, now=now)
        if kept is new:  # "Sold the Honda, I drive a Tesla now": the old value named
            changed += ended_by(new, facts, self.functional_relations, now)
            changed += twins_closed(kept, changed, facts, now)
        for f in changed:
            self._put("fact", f)
        return kept

    def _near_duplicate(
        self, new: Fact, facts: Sequence[Fact], functional: bool, now: datetime
    ) -> Fact | None:
        """A recent open fact saying what ``new`` says in other words, if any.

        Candidates: facts still holding, stored or refreshed within the dedup window,
        of another key or another object (the same key and object is a re-assertion,
        handled by :func:`place_fact`), never a fact of the same functional key (a
        new value there is a contradiction, not a duplicate). The same text, case and
        spacing aside, is a duplicate; otherwise a candidate of the same subject whose
        object shares at least half of its terms is compared by embedding cosine.
        """
        cfg = self.config
        window = timedelta(days=cfg.dedup_window_days)
        key, same = new.key(), normalize_term(new.object)
        cands = [
            f
            for f in facts
            if f.valid_to is None
            and f.superseded_by is None
            and now - f.updated_at <= window
            and not (f.key() == key and (functional or normalize_term(f.object) == same))
        ]
        if not cands:
            return None
        text = normalize_term(fact_words(new))
        for f in cands:
            if normalize_term(fact_words(f)) == text:
                return f
        if self.embed is None:
            return None
        # Only a fact of the same subject whose object shares at least half of its
        # terms is worth an embedding (a cosine above 0.95 needs nearly the same words).
        subject, words = normalize_term(new.subject), set(tokenize(new.object))
        close = [
            f
            for f in cands
            if normalize_term(f.subject) == subject
            and len(words & (w := set(tokenize(f.object)))) >= 0.5 * max(len(words), len(w), 1)
        ]
        if not close:
            return None
        vecs = np.asarray(
            self.embed([fact_words(new)] + [fact_words(f) for f in close]), dtype=float
        )
        norms = np.linalg.norm(vecs, axis=1)
        norms[norms == 0] = 1.0
        sims = (vecs[1:] @ vecs[0]) / (norms[1:] * norms[0])
        best = int(np.argmax(sims))
        return close[best] if sims[best] > cfg.dedup_threshold else None

    def replaced(self, user_id: str, fact: Fact) -> list[Fact]:
        """The facts of ``fact``'s subject that ``fact`` superseded (any relation).

        Example:
            >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> lt = LongTermMemory(InMemoryBackend())
            >>> _ = lt.facts.add_fact("u1", "user", "employer", "IBM", valid_from="2024-01-01")
            >>> new = lt.facts.add_fact("u1", "user", "employer", "SAP", valid_from="2024-06-01")
            >>> [f.object for f in lt.facts.replaced("u1", new)]
            ['IBM']
        """
        if not fact.earlier:  # it replaced nothing
            return []
        found = self.records.query_records("fact", user_id, where={"subject_key": fact.key()[0]})
        return [f for r in found if (f := Fact.load(r.data)).superseded_by == fact.id]

    def close_fact(
        self, user_id: str, fact_id: str, when: datetime | str | float | None = None
    ) -> Fact:
        """Record that an open fact stopped holding at ``when`` (now by default).

        Raises:
            KeyError: When the user has no such fact.
            ValueError: When the fact is closed already or ``when`` precedes its start.
        """
        with self._lock:
            fact: Fact = self._get("fact", user_id, fact_id)
            end = self._now() if when is None else parse_timestamp(when, "when")
            if fact.valid_to is not None:
                raise ValueError(f"fact {fact_id!r} is closed already")
            if end <= fact.valid_from:
                raise ValueError("when must be later than the fact's valid_from")
            fact.valid_to, fact.updated_at = end, self._now()
            self._put("fact", fact)
            return fact

    def list_facts(
        self,
        user_id: str,
        *,
        subject: str | None = None,
        relation: str | None = None,
        include_superseded: bool = True,
    ) -> list[Fact]:
        """The user's facts in the order they began (``valid_from``), optionally of one
        subject and/or relation."""
        subj = None if subject is None else normalize_term(subject)
        rel = None if relation is None else normalize_key(relation)
        out = []
        for r in self.records.list_records("fact", check_id(user_id, "user_id")):
            f = Fact.load(r.data)
            s, k = f.subject_key, f.relation_key
            if (subj is None or s == subj) and (rel is None or k == rel):
                if include_superseded or f.superseded_by is None:
                    out.append(f)
        return sorted(out, key=lambda f: (f.valid_from, f.created_at, f.id))

    def facts_at(self, user_id: str, when: datetime | str | float | None = None) -> list[Fact]:
        """The facts that held at ``when`` (now by default), in the order they began."""
        t = self._now() if when is None else parse_timestamp(when, "when")
        return [f for f in self.list_facts(user_id) if f.holds_at(t)]

    def splice_out(self, user_id: str, gone: Fact) -> None:
        """Before deleting ``gone``: give its span back to the fact it superseded.

        When several facts were closed where ``gone`` began (one at the same instant),
        the latest takes the span over and the others point at it.
        """
        preds = [
            f
            for f in self.list_facts(user_id)
            if f.superseded_by == gone.id and f.valid_to == gone.valid_from
        ]
        if not preds:
            return
        heir = max(preds, key=lambda f: (f.valid_from, f.created_at, f.id))
        now = self._now()
        heir.valid_to, heir.superseded_by = gone.valid_to, gone.superseded_by
        for f in preds:
            if f is not heir:
                f.superseded_by = heir.id
            f.updated_at = now
            self._put("fact", f)
