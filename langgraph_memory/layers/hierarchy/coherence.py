"""Several processes on one store: when a process's cached hierarchy of a user is stale.

Processes take turns writing the hierarchy, each inside the store's writer lease
(a *hold*). A user's cached state is checked against a per-user epoch record (kind
:data:`EPOCH_KIND`), rewritten at the end of each hold that changed the user, at
the first use in a hold, and by readers at most every :data:`SYNC_SECONDS`; when
another process wrote since, the cache must be reloaded.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> store = InMemoryBackend()
    >>> a, b = Coherence(store), Coherence(store)
    >>> a.stale("ann"), b.stale("ann")      # first look: nothing to reload
    (False, False)
    >>> a.begin_hold(); a.changed("ann"); a.end_hold()
    >>> b.begin_hold(); b.stale("ann")      # b's copy of ann is out of date now
    True
"""

from __future__ import annotations

import hashlib
import time
import uuid
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from langgraph_memory.core.records import Record

if TYPE_CHECKING:
    from langgraph_memory.storage.capabilities import RecordStore

__all__ = ["Coherence", "EPOCH_KIND", "SYNC_SECONDS", "epoch_record_id"]

#: One record per user: who last changed the user's hierarchy.
EPOCH_KIND = "hierarchy_epoch"
#: Readers check a user's epoch at most this often (seconds).
SYNC_SECONDS = 1.0


def epoch_record_id(user_id: str) -> str:
    """The id of a user's epoch record (unique across users, as record ids must be)."""
    return "epoch-" + hashlib.sha1(user_id.encode()).hexdigest()[:20]


class Coherence:
    """The epochs of one process: which users it changed in a hold, and which of its
    cached users another process changed since.

    Args:
        records: Where the epoch records are kept.
    """

    def __init__(self, records: RecordStore) -> None:
        self.records = records
        self._token = uuid.uuid4().hex[:16]
        self._epochs = 0
        self._seen: dict[str, str | None] = {}
        self._checked: dict[str, float] = {}
        self._dirty: set[str] = set()
        #: Whether this process holds the writer lease now.
        self.holding = False

    def begin_hold(self) -> None:
        """The writer lease was just taken: check each user's epoch again at first use."""
        self.holding = True
        self._checked.clear()

    def changed(self, user_id: str) -> None:
        """This hold changed the user's hierarchy."""
        self._dirty.add(user_id)

    def end_hold(self) -> None:
        """The lease is about to be released: publish a new epoch for every user this hold
        changed, so other processes reload it."""
        try:
            for user_id in sorted(self._dirty):
                self._epochs += 1
                value = f"{self._token}:{self._epochs}"
                now = datetime.now(timezone.utc)
                rec = Record(
                    EPOCH_KIND, epoch_record_id(user_id), user_id, {"epoch": value}, now, now
                )
                self.records.put_record(rec)
                self._seen[user_id] = value
        finally:
            self._dirty.clear()
            self.holding = False

    def stale(self, user_id: str) -> bool:
        """Whether another process changed the user since this one looked (checked once
        per hold, and by readers at most every :data:`SYNC_SECONDS`)."""
        now = time.monotonic()
        last = self._checked.get(user_id)
        if last is not None and (self.holding or now - last < SYNC_SECONDS):
            return False
        self._checked[user_id] = now
        rec = self.records.get_record(EPOCH_KIND, epoch_record_id(user_id), user_id)
        value = rec.data.get("epoch") if rec is not None else None
        stale = user_id in self._seen and self._seen[user_id] != value
        self._seen[user_id] = value
        return stale

    def forget(self, user_id: str) -> None:
        """Forget a deleted user."""
        self._seen.pop(user_id, None)
        self._checked.pop(user_id, None)
        self._dirty.discard(user_id)
