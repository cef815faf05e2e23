"""The manager's methods for the graph adapters (a mixin of :class:`MemoryManager`).

:class:`~langgraph_memory.integrations.graph.store.MemoryStore` keeps its items and the memory
tools (:mod:`~langgraph_memory.integrations.graph.tools`) their core blocks through these, so every
write of theirs goes through the sensitivity gate (:mod:`~langgraph_memory.parts.items`).

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     mm.set_core_block("ann", "human", "Card 4111 1111 1111 1111 on file")
    'Card [CARD] on file'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from langgraph_memory.core.records import Record
from langgraph_memory.parts.items import Items

__all__ = ["ItemsMixin"]


class ItemsMixin:
    """Store items, core blocks, and the gate they go through."""

    _items: Items

    def _check_open(self) -> None:
        """Raise when the manager is closed (the manager's own check)."""

    def redact(self, value: Any, *, field: str = "value") -> Any:
        """``value`` through the memory's sensitivity gate, as every write path applies
        it: each string in it (a str, or a JSON-like value's strings) redacted, or
        refused, per ``config.sensitivity``.

        Args:
            value: A str, or a dict/list of JSON values.
            field: The field named in a refusal.

        Raises:
            SensitiveContentError: When the policy refuses what it found.

        Example:
            >>> mm.redact({"note": "mail a@b.io"})  # doctest: +SKIP
            {'note': 'mail [EMAIL]'}
        """
        self._check_open()
        return self._items.redact(value, field=field)

    def redact_label(self, text: str, *, field: str = "key", refuse: bool = True) -> str:
        """An identifier (a store key or namespace label) through the sensitivity gate: a
        secret in it becomes a pseudonym (``[EMAIL:1a2b3c4d5e6f]``, the first 12 hex
        digits of its SHA-256: the same secret gives the same label), or is refused.
        A pseudonym of a guessable value can be found again by trying candidates: keep
        secrets out of identifiers.

        Args:
            text: The identifier.
            field: The field named in a refusal.
            refuse: ``False`` for a lookup, which stores nothing: a refused secret
                becomes its pseudonym too.

        Raises:
            SensitiveContentError: When the policy refuses what it found (and ``refuse``).

        Example:
            >>> mm.redact_label("notes of a@b.io")  # doctest: +SKIP
            'notes of [EMAIL:0f3306f460ed]'
        """
        self._check_open()
        return self._items.label(text, field=field, refuse=refuse)

    # -- store items ----------------------------------------------------------------------
    def get_store_item(self, namespace: Sequence[str], key: str) -> Record | None:
        """The record of a :class:`~langgraph_memory.integrations.graph.store.MemoryStore` item, or
        ``None`` (see :mod:`langgraph_memory.parts.items` for its layout)."""
        self._check_open()
        return self._items.get_store_item(namespace, key)

    def store_items(self, root: str | None = None) -> list[Record]:
        """The records of the store items under a namespace root (every root when
        ``None``), oldest first."""
        self._check_open()
        return self._items.store_items(root)

    def put_store_item(
        self,
        namespace: Sequence[str],
        key: str,
        data: Mapping[str, Any],
        *,
        created_at: datetime | None = None,
        updated_at: datetime | None = None,
    ) -> Record:
        """Write a store item: its value and indexed texts through the sensitivity gate.

        Args:
            namespace: The item's namespace (not empty).
            key: Its key.
            data: ``namespace``, ``key``, ``value``, ``index`` (``{path: {"text",
                "vector"}}``), ``ttl`` and ``expires_at``.
            created_at: When the item was first put (default: now).
            updated_at: When it is put now (default: now).

        Returns:
            The record written.
        """
        self._check_open()
        return self._items.put_store_item(
            namespace, key, data, created_at=created_at, updated_at=updated_at
        )

    def refresh_store_item(self, record: Record, expires_at: str) -> None:
        """Write a store item again with a new expiry (an ISO time), nothing else changed."""
        self._check_open()
        self._items.refresh_store_item(record, expires_at)

    def delete_store_item(self, namespace: Sequence[str], key: str) -> int:
        """Delete a store item; returns 1 when it existed, else 0."""
        self._check_open()
        return self._items.delete_store_item(namespace, key)

    def delete_store_items(self, root: str, ids: Sequence[str]) -> int:
        """Delete store items of a namespace root by record id; returns how many went."""
        self._check_open()
        return self._items.delete_store_items(root, ids)

    # -- core blocks ----------------------------------------------------------------------
    def core_block(self, user_id: str, label: str) -> str:
        """The text of one of a user's MemGPT-style core blocks (``""`` when never written).

        Example:
            >>> mm.core_block("alice", "human")  # doctest: +SKIP
            'Likes tea.'
        """
        self._check_open()
        return self._items.core_block(user_id, label)

    def set_core_block(self, user_id: str, label: str, value: str) -> str:
        """Overwrite a user's core block through the sensitivity gate.

        Block names and their limits are the memory tools' business
        (:func:`~langgraph_memory.integrations.graph.tools.set_core_block` checks them).

        Returns:
            The text stored (redacted where the policy says so).

        Raises:
            SensitiveContentError: When the policy refuses what it found.
        """
        self._check_open()
        return self._items.set_core_block(user_id, label, value)
