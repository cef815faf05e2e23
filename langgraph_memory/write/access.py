"""How often contexts used each long-term entry: counted by reads, saved in the background.

The forget gate weighs an episode by its accesses, and long-term entries keep their
``access_count`` and ``last_accessed_at``. ``build_context`` counts the entries it
included (:meth:`AccessLog.note`); the worker saves the counts at its next idle pass
(at least once a second; it is not woken for them: a write per context would slow
the reads around it), and ``flush()`` saves them at once.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.layers.knowledge.consolidation import Consolidator
    >>> from langgraph_memory.layers.long_term.memory import LongTermMemory
    >>> from langgraph_memory.layers.working.tasks import WorkingMemory
    >>> store = InMemoryBackend()
    >>> lt, wm = LongTermMemory(store), WorkingMemory(store)
    >>> log = AccessLog(wm, Consolidator(wm), lt)
    >>> pref = lt.profile.upsert_preference("ann", "drink", "tea", source="explicit")
    >>> log.note("ann", [("profile", pref.id), ("profile", pref.id)])
    >>> log.save()
    >>> lt.profile.get_preference("ann", pref.id).access_count
    2
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from langgraph_memory.layers.knowledge.consolidation import Consolidator
    from langgraph_memory.layers.long_term.memory import LongTermMemory
    from langgraph_memory.layers.working.tasks import WorkingMemory

__all__ = ["AccessLog"]


class AccessLog:
    """Accesses of long-term entries, counted in process until saved.

    Args:
        working: Where episodes are kept.
        knowledge: Where knowledge is kept.
        longterm: Where the profile, facts and traits are kept.
    """

    def __init__(
        self, working: WorkingMemory, knowledge: Consolidator, longterm: LongTermMemory
    ) -> None:
        self._working = working
        self._knowledge = knowledge
        self._longterm = longterm
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, str, str], int] = {}

    def note(self, user_id: str, used: Sequence[tuple[str, str]]) -> None:
        """Count the entries a context included: ``(layer, entry id)`` each."""
        with self._lock:
            for layer, entry_id in used:
                key = (user_id, layer, entry_id)
                self._counts[key] = self._counts.get(key, 0) + 1

    def save(self) -> None:
        """Write the counted accesses: ``access_count`` and ``last_accessed_at``."""
        with self._lock:
            counts, self._counts = self._counts, {}
        now = datetime.now(timezone.utc)
        for (user_id, layer, entry_id), n in counts.items():
            if layer == "episode":
                self._working.touch_episode(user_id, entry_id, n, now)
            elif layer == "knowledge":
                self._knowledge.touch(user_id, entry_id, n, now)
            elif layer in ("profile", "fact", "trait"):
                self._longterm.touch(user_id, [entry_id], times=n)
