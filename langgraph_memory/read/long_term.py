"""Long-term memory as the read path's documents: the profile whole, every other kind
as it renders itself.

The user profile (preferences above the context threshold, conflicts resolved) is
small and refined, so the read path offers it whole, first
(:meth:`LongTermDocs.profile_docs`). Every other long-term kind is ranked from the
entry index (:mod:`~langgraph_memory.layers.index.entries`); listing them from the
records (:meth:`LongTermDocs.long_term_docs`) is for what must reach every entry,
such as ``delete_user``.

Example:
    >>> from langgraph_memory.layers.long_term.facts import Fact
    >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> store = InMemoryBackend()
    >>> lt = LongTermMemory(store)
    >>> _ = lt.facts.add_fact("ann", "Ann", "lives_in", "Lyon", valid_from="2024-05-01")
    >>> _, others = LongTermDocs(lt, store, {"fact": Fact}).long_term_docs("ann")
    >>> [d.text for d in others]
    ['Ann lives in Lyon (since 2024-05-01)']
"""

from __future__ import annotations

from langgraph_memory.layers.index.kinds import EntryKinds, to_doc, view_of
from langgraph_memory.layers.index.ranking import LongTermDoc
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.storage.capabilities import RecordStore

__all__ = ["LongTermDocs"]


class LongTermDocs:
    """Long-term memory as documents for the read path.

    Args:
        longterm: The profile.
        records: Where the other kinds' records are.
        kinds: The indexed kinds (each renders itself).
    """

    def __init__(self, longterm: LongTermMemory, records: RecordStore, kinds: EntryKinds) -> None:
        self._longterm = longterm
        self._records = records
        self._kinds = kinds

    def profile_docs(self, user_id: str, scope: str | None = None) -> list[LongTermDoc]:
        """The profile for the context (resolved in ``scope``: its entries beat global
        ones)."""
        return [
            LongTermDoc(e.id, "profile", e.text(), list(e.source_ids), e.updated_at)
            for e in self._longterm.profile.for_context(user_id, scope)
        ]

    def long_term_docs(
        self, user_id: str, scope: str | None = None
    ) -> tuple[list[LongTermDoc], list[LongTermDoc]]:
        """The profile for the context (resolved in ``scope``), and every entry of the
        other kinds that the read path ranks, listed from the records."""
        others = []
        for kind in self._kinds:
            for record in self._records.list_records(kind, user_id):
                view = view_of(record, self._kinds)
                if view is not None:
                    others.append(to_doc(record, view))
        return self.profile_docs(user_id, scope), others
