"""Records plumbing shared by the long-term layer's parts (profile, facts, traits).

:class:`~langgraph_memory.layers.long_term.memory.LongTermMemory` is made of mixins that keep
their entries as records of a store; :class:`RecordsStore` gives them user-scoped get
and put, the clock, and the parameters they read
(:class:`~langgraph_memory.config.LongTermSection`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from langgraph_memory.config import LongTermSection
from langgraph_memory.core.records import Record, to_data
from langgraph_memory.core.validation import check_id, parse_timestamp
from langgraph_memory.storage.capabilities import RecordStore

if TYPE_CHECKING:
    from langgraph_memory.sensitivity.policy import SensitivityFilter

__all__ = ["RecordsStore"]


class RecordsStore:
    """Records plumbing shared by the long-term layer's parts: user-scoped get and put,
    the clock, the sensitivity gate and the parameters (no public API).

    Args:
        records: Where entries are stored.
        config: The long-term section of the memory's config.
        functional_relations: The relations with one value at a time, canonical.
        lock: The lock the parts of one long-term memory share.
        clock: Returns the current time (UTC).
        embed: Embeds texts (near-duplicate facts); none: exact matches only.
        gate: The sensitivity gate every value and quote goes through.
    """

    def __init__(
        self,
        records: RecordStore,
        config: LongTermSection,
        *,
        functional_relations: frozenset[str],
        lock: threading.RLock,
        clock: Callable[[], datetime],
        embed: Callable[[Sequence[str]], np.ndarray] | None = None,
        gate: SensitivityFilter | None = None,
    ) -> None:
        self.records = records
        self.config = config
        self.functional_relations = functional_relations
        self._lock = lock
        self._clock = clock
        self.embed = embed
        self.gate = gate

    records: RecordStore
    config: LongTermSection
    #: The relations with one value at a time, in canonical form.
    functional_relations: frozenset[str]
    _lock: threading.RLock
    _clock: Callable[[], datetime]
    embed: Callable[[Sequence[str]], np.ndarray] | None
    #: The sensitivity gate every value and quote goes through (none: stored as given).
    gate: SensitivityFilter | None = None
    #: How to rebuild an entry of each record kind from its stored data.
    _loaders: ClassVar[dict[str, Callable[[dict[str, Any]], Any]]] = {}

    def _now(self) -> datetime:
        return parse_timestamp(self._clock(), "clock()")

    def _clean(self, value: Any, field: str) -> Any:
        """``value`` through the sensitivity gate (as it is without one).

        Raises:
            SensitiveContentError: When the policy refuses what it found.
        """
        return value if self.gate is None or value is None else self.gate.clean(value, field=field)

    def _put(self, kind: str, obj: Any) -> None:
        data = to_data(obj)
        self.records.put_record(
            Record(kind, obj.id, obj.user_id, data, obj.created_at, obj.updated_at)
        )

    def _get(self, kind: str, user_id: str, entry_id: str) -> Any:
        rec = self.records.get_record(kind, check_id(entry_id, "id"), check_id(user_id, "user_id"))
        if rec is None:
            raise KeyError(f"user {user_id!r} has no {kind} entry {entry_id!r}")
        return self._loaders[kind](rec.data)
