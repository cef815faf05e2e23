"""The stored facts a batch of fact writes reads, read from the store once per subject.

:meth:`~langgraph_memory.layers.long_term.fact_store.Facts.add_fact` compares a new fact
with the facts it can meet: its subject's latest (near duplicates) and its timeline.
The background worker writes the facts of a batch of messages one after another, most
about the same subject (the user), and each write read and decoded the subject's
latest 200 facts again (50,000 records for 570 facts in 10,000 messages: a fifth of
the worker's time outside the model). Within :meth:`Facts.batch` a :class:`FactMemo`
keeps the records a query returned and what the batch's own writes stored (read back
from the store, so a value the storage gate rewrote is kept as stored), and answers
the same queries from memory, in the order the store answers them.

It stays exact while the facts written through the record store are its own: the
store counts the fact records written through it (``writes["fact"]``); any write
it did not make (a read's access count, a deletion) drops what it holds. A write by
another process during a batch is the race two unbatched writes already have (a
query, then a write): the batch widens it from one write to one batch (deletions
wait for the worker's lease).

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.records import Record
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> memo = FactMemo(stamp=0)
    >>> a = Record("fact", "f1", "ann", {"subject_key": "user", "subject": "user",
    ...            "relation": "lives_in"}, t, t)
    >>> memo.keep_subject("ann", "user", [a], complete=True)
    >>> [r.id for r in memo.subject("ann", "user")]
    ['f1']
    >>> memo.subject("ann", "bob") is None  # never read: the caller asks the store
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from langgraph_memory.core.records import Record
from langgraph_memory.layers.long_term.facts import Fact

__all__ = ["FactMemo"]


def _order(r: Record) -> tuple[object, str]:
    return (r.created_at, r.id)  # the store's order of records: creation, then id


@dataclass
class FactMemo:
    """What one batch of fact writes read and wrote, by subject.

    Attributes:
        stamp: The store's count of fact writes when this memo was last in step with it.
        subjects: ``(user_id, subject_key)`` -> every fact record of that subject (kept
            only when the query read them all), by id.
        legacy: ``(user_id, subject, relation)`` -> the records of a query by the
            subject and relation as given, by id.
        decoded: record id -> ``(record, fact)``: the fact decoded from that very
            record object (a record the memo holds is decoded once, not once per
            write that meets it).
    """

    stamp: int
    subjects: dict[tuple[str, str], dict[str, Record]] = field(default_factory=dict)
    legacy: dict[tuple[str, str, str], dict[str, Record]] = field(default_factory=dict)
    decoded: dict[str, tuple[Record, Fact]] = field(default_factory=dict)

    def clear(self, stamp: int) -> None:
        """Forget everything (the store changed under the memo)."""
        self.subjects.clear()
        self.legacy.clear()
        self.decoded.clear()
        self.stamp = stamp

    def fact(self, record: Record) -> Fact:
        """The fact stored as ``record``, decoded once per record object.

        The fact handed out is the one kept: a caller that changes it writes it (the
        write drops it here, see :meth:`wrote`), or calls :meth:`forget_decoded` (a
        write that failed midway).
        """
        held = self.decoded.get(record.id)
        if held is not None and held[0] is record:
            return held[1]
        fact = Fact.load(record.data)
        self.decoded[record.id] = (record, fact)
        return fact

    def forget_decoded(self) -> None:
        """Drop every decoded fact (one may have changed without being written)."""
        self.decoded.clear()

    def subject(self, user_id: str, subject_key: str) -> list[Record] | None:
        """Every fact of the subject, newest first (``None`` when not kept)."""
        held = self.subjects.get((user_id, subject_key))
        return None if held is None else sorted(held.values(), key=_order, reverse=True)

    def keep_subject(
        self, user_id: str, subject_key: str, records: Sequence[Record], *, complete: bool
    ) -> None:
        """Keep a subject's records when ``complete`` (the query read them all)."""
        if complete:
            self.subjects[user_id, subject_key] = {r.id: r for r in records}

    def by_names(self, user_id: str, subject: str, relation: str) -> list[Record] | None:
        """The records of the subject and relation as given, oldest first (``None``
        when not kept)."""
        held = self.legacy.get((user_id, subject, relation))
        return None if held is None else sorted(held.values(), key=_order)

    def keep_names(
        self, user_id: str, subject: str, relation: str, records: Sequence[Record]
    ) -> None:
        self.legacy[user_id, subject, relation] = {r.id: r for r in records}

    def wrote(self, record: Record | None, fact_id: str, stamp: int, limit: int) -> None:
        """After this batch wrote fact ``fact_id``: ``record`` is it as stored (``None``:
        not found, so everything is dropped); ``stamp`` the store's count after the
        write; a subject that reaches ``limit`` facts is no longer kept (its query reads
        only the latest ``limit``)."""
        if record is None:
            self.clear(stamp)
            return
        self.decoded.pop(fact_id, None)
        for kept in (*self.subjects.values(), *self.legacy.values()):
            kept.pop(fact_id, None)  # a record moves when its keys change
        data = record.data
        key = (record.user_id, str(data.get("subject_key", "")))
        held = self.subjects.get(key)
        if held is not None:
            held[fact_id] = record
            if len(held) >= limit:
                del self.subjects[key]
        names = (record.user_id, data.get("subject"), data.get("relation"))
        if names in self.legacy:
            self.legacy[names][fact_id] = record  # type: ignore[index]
        self.stamp = stamp
