"""``mm.items``: what the graph adapters keep beside the memory, store items and core
blocks.

:class:`~langgraph_memory.integrations.graph.store.MemoryStore` items and the MemGPT-style core
blocks of :mod:`~langgraph_memory.integrations.graph.tools` are records of the memory's store,
written through the sensitivity gate like every other write.

Store items: each is one record of kind :data:`STORE_KIND` whose id is the JSON
array ``[*namespace, key]``. Its owner is the namespace's label at the position
``WriteSection.store_owner_label`` (1: LangMem's ``("memories", "{user_id}")``): the
record belongs to that user, so ``delete_user`` removes it with the rest of the user's
memory, in the same transaction. An item whose namespace is shorter is shared: its
record's user is the reserved scope :func:`store_scope` of the namespace's first label
(``"\\x1fstore:" + label``), which no user id can be (user ids never hold the control
character ``\\x1f``), and ``delete_user`` never touches it. The record's data holds the
value, the indexed texts with their vectors (float32, base64) and the TTL.

Core blocks: one record of kind :data:`CORE_BLOCK_KIND` per user and block label.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     mm.items.set_core_block("ann", "human", "Mail me at ann@example.com")
    ...     mm.items.core_block("ann", "human"), mm.items.core_block("ann", "persona")
    'Mail me at [EMAIL]'
    ('Mail me at [EMAIL]', '')
"""

from __future__ import annotations

import builtins
import dataclasses
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from langgraph_memory.core.records import Record
from langgraph_memory.core.validation import check_id, check_json_shape, check_text
from langgraph_memory.parts.aio import AsyncPart, awaitable
from langgraph_memory.parts.lifetime import Lifetime
from langgraph_memory.sensitivity.policy import SensitivityFilter
from langgraph_memory.storage.base import MemoryBackend
from langgraph_memory.storage.capabilities import grouped

__all__ = [
    "Items",
    "STORE_KIND",
    "CORE_BLOCK_KIND",
    "store_scope",
    "STORE_SCOPE_PREFIX",
    "AsyncItems",
    "check_item_value",
    "item_id",
    "namespace_owner",
    "MAX_LABEL_CHARS",
]

#: The longest store key, namespace label or core block label, in characters.
MAX_LABEL_CHARS = 1024
#: The record kind of store items.
STORE_KIND = "store_item"
#: The record kind core blocks are stored under (one record per user and block).
CORE_BLOCK_KIND = "core_block"
#: What every store scope starts with (no user id can).
STORE_SCOPE_PREFIX = "\x1fstore:"


def store_scope(root: str) -> str:
    """The reserved record user id holding the items of namespace root ``root``."""
    return STORE_SCOPE_PREFIX + root


def item_id(namespace: Sequence[str], key: str) -> str:
    """The record id of a store item: the JSON array ``[*namespace, key]``.

    Example:
        >>> item_id(("memories", "alice"), "k1")
        '["memories", "alice", "k1"]'
    """
    return json.dumps([*namespace, key], ensure_ascii=False)


def namespace_owner(namespace: Sequence[str], position: int | None) -> str | None:
    """The user who owns the items of ``namespace``: its label at ``position``
    (``WriteSection.store_owner_label``) when that is a valid user id, else ``None`` (a
    shared namespace).

    Example:
        >>> namespace_owner(("memories", "alice"), 1), namespace_owner(("memories",), 1)
        ('alice', None)
    """
    if position is None or len(namespace) <= position:
        return None
    try:
        return check_id(namespace[position], "user_id")
    except (TypeError, ValueError):
        return None


def _block_id(user_id: str, label: str) -> str:
    # a label never contains ":", so "label:user" is unambiguous for every user id
    return f"{label}:{user_id}"


def check_item_value(value: Any, max_bytes: int, field: str = "value") -> None:
    """Refuse a store item's value that breaks the JSON rule (depth, NaN, NUL, lone
    surrogates; checked without recursion) or is larger than ``max_bytes`` encoded
    (``MemoryConfig.write.max_item_bytes``), naming ``field`` and the limit, before any
    work is done with it.

    Raises:
        ValueError: When it does (TypeError: a key that is not a str).

    Example:
        >>> check_item_value({"note": "tea"}, 100)
    """
    check_json_shape(value, field)
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    if size > max_bytes:
        raise ValueError(
            f"{field} is {size:,} bytes as JSON, over the limit of {max_bytes:,} "
            "(MemoryConfig.write.max_item_bytes)"
        )


class Items:
    """Store items and core blocks in a record store, every write through the gate.

    Args:
        records: Where they are kept.
        gate: The sensitivity gate (redacts or refuses per its policy).
        lifetime: The manager's open/closed state (none: always open).
    """

    def __init__(
        self,
        records: MemoryBackend,
        gate: SensitivityFilter,
        lifetime: Lifetime | None = None,
        *,
        owner_label: int | None = 1,
        max_item_bytes: int = 65_536,
        max_block_chars: int = 8_000,
    ) -> None:
        self._records = records
        self._gate = gate
        self._life = lifetime or Lifetime()
        self._owner_label = owner_label
        self.max_item_bytes = max_item_bytes
        self.max_block_chars = max_block_chars

    def owner(self, namespace: Sequence[str]) -> str | None:
        """The user who owns the items of ``namespace`` (its label at the configured
        position, when it is a valid user id), or ``None`` for a shared namespace.

        Example:
            >>> items = Items(None, None)  # type: ignore[arg-type]
            >>> items.owner(("memories", "alice")), items.owner(("memories",))
            ('alice', None)
        """
        return namespace_owner(namespace, self._owner_label)

    def holds(self, user_id: str) -> bool:
        """Whether ``user_id`` owns store items or core blocks (memory beside messages).

        Example:
            >>> from langgraph_memory import MemoryManager
            >>> from langgraph_memory.storage import InMemoryBackend
            >>> from langgraph_memory.embeddings import HashingEmbeddings
            >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
            ...     before = mm.items.holds("ann")
            ...     _ = mm.items.set_core_block("ann", "human", "Ann")
            ...     before, mm.items.holds("ann")
            (False, True)
        """
        self._life.check()
        user_id = check_id(user_id, "user_id")
        return any(self._records.count_records(k, user_id) for k in (STORE_KIND, CORE_BLOCK_KIND))

    def _scope(self, namespace: Sequence[str]) -> str:
        """The user a namespace's records are kept under: its owner, or the shared scope."""
        return self.owner(namespace) or store_scope(namespace[0])

    def adopt(self) -> int:
        """Move store items to the user that owns them by the current rule (items written
        before owners, or under another ``store_owner_label``); run once per store and
        rule. Returns how many moved."""
        mark, rule = "store_items_owner_label", str(self._owner_label)
        if self._records.get_meta(mark) == rule:
            return 0
        moved = 0
        store = self._records
        for rec in store.list_records(STORE_KIND, None):
            scope = self._scope(rec.data.get("namespace") or json.loads(rec.id)[:-1])
            if scope != rec.user_id:
                with grouped(store):  # one transaction where the store has them
                    store.delete_records(STORE_KIND, [rec.id], rec.user_id)
                    store.put_record(dataclasses.replace(rec, user_id=scope))
                moved += 1
        self._records.set_meta(mark, rule)
        return moved

    def _redact(self, value: Any, *, field: str = "value") -> Any:
        """``value`` through the sensitivity gate: every string in it (a str, or a
        JSON-like value's strings) redacted, or refused, per the policy.

        Raises:
            SensitiveContentError: When the policy refuses what it found.
        """
        return self._gate.clean(value, field=field)

    def label(self, text: str, *, field: str = "key", refuse: bool = True) -> str:
        """An identifier (a store key, a namespace label) through the gate: a secret in
        it becomes its pseudonym (``[EMAIL:1a2b...]``: the same secret, the same label),
        or is refused; ``refuse=False`` for lookups, which store nothing.

        Raises:
            SensitiveContentError: When the policy refuses what it found (and ``refuse``).
        """
        self._life.check()
        check_text(text, MAX_LABEL_CHARS, field, allow_empty=True)
        return self._gate.clean_label(text, field=field, refuse=refuse)

    def _address(
        self, namespace: Sequence[str], key: str, refuse: bool = False
    ) -> tuple[list[str], str]:
        labels = [self.label(x, field="namespace", refuse=refuse) for x in namespace]
        return labels, self.label(key, field="key", refuse=refuse)

    # -- store items ----------------------------------------------------------------------
    def get(self, namespace: Sequence[str], key: str) -> Record | None:
        """The record of a store item, or ``None``."""
        self._life.check()
        if not namespace:
            return None
        namespace, key = self._address(namespace, key)
        return self._records.get_record(STORE_KIND, item_id(namespace, key), self._scope(namespace))

    def list(self, prefix: Sequence[str] = ()) -> builtins.list[Record]:
        """The records of the store items whose namespace starts with ``prefix`` (every
        item when empty), oldest first. A prefix that names an owner reads only that
        user's records."""
        self._life.check()
        prefix = [self.label(x, field="namespace", refuse=False) for x in prefix]
        owner = self.owner(prefix)
        found = self._records.list_records(STORE_KIND, owner)  # None: every user's
        n = len(prefix)
        return [r for r in found if list(r.data.get("namespace", []))[:n] == prefix]

    def put(
        self,
        namespace: Sequence[str],
        key: str,
        data: Mapping[str, Any],
        *,
        created_at: datetime | None = None,
        updated_at: datetime | None = None,
    ) -> Record:
        """Write a store item's record: ``data["value"]`` and the indexed texts
        (``data["index"][path]["text"]``) go through the gate, and the namespace and key
        through :meth:`label`; the rest as given. ``created_at`` and ``updated_at``
        default to now.

        Returns:
            The record written.

        Raises:
            ValueError: When the value holds NaN or an infinity (no JSON form), or a
                string the text rule refuses, naming where.
            TypeError: When a key in the value is not a str.
        """
        self._life.check()
        namespace, key = self._address(namespace, key, refuse=True)
        clean = {**data, "namespace": namespace, "key": key}
        if "value" in clean:  # NaN, an infinity, a broken string, too large: a named error
            check_item_value(clean["value"], self.max_item_bytes)
            clean["value"] = self._redact(clean["value"], field="value")
        if clean.get("index"):
            clean["index"] = {
                path: {**entry, "text": self._redact(entry["text"], field=f"index.{path}")}
                for path, entry in clean["index"].items()
            }
        now = updated_at or datetime.now(timezone.utc)
        rec = Record(
            STORE_KIND,
            item_id(namespace, key),
            self._scope(namespace),
            clean,
            created_at or now,
            now,
        )
        self._records.put_record(rec)
        return rec

    def refresh(self, record: Record, expires_at: str) -> None:
        """Write a store item's record again with a new expiry, nothing else changed."""
        self._life.check()
        record.data["expires_at"] = expires_at
        self._records.put_record(record)

    def delete_many(self, records: Sequence[Record]) -> int:
        """Delete the store items of these records (from :meth:`list` or :meth:`get`);
        returns how many went."""
        self._life.check()
        by_user: dict[str, builtins.list[str]] = {}
        for rec in records:
            by_user.setdefault(rec.user_id, []).append(rec.id)
        return sum(
            self._records.delete_records(STORE_KIND, ids, user) for user, ids in by_user.items()
        )

    def delete(self, namespace: Sequence[str], key: str) -> int:
        """Delete one store item; returns 1 when it existed, else 0."""
        self._life.check()
        namespace, key = self._address(namespace, key)
        scope = self._scope(namespace)
        return self._records.delete_records(STORE_KIND, [item_id(namespace, key)], scope)

    # -- core blocks ----------------------------------------------------------------------
    def core_block(self, user_id: str, label: str) -> str:
        """The text of one of a user's core blocks (``""`` when never written)."""
        self._life.check()
        user_id = check_id(user_id, "user_id")
        rec = self._records.get_record(CORE_BLOCK_KIND, _block_id(user_id, label), user_id)
        return str(rec.data.get("value", "")) if rec is not None else ""

    def set_core_block(self, user_id: str, label: str, value: str) -> str:
        """Overwrite a user's core block through the gate; returns the text stored."""
        self._life.check()
        user_id = check_id(user_id, "user_id")
        check_text(label, MAX_LABEL_CHARS, "label")
        check_text(
            value,
            self.max_block_chars,
            "value",
            allow_empty=True,
            setting="MemoryConfig.write.max_block_chars",
        )
        text = self._redact(value, field=label)
        now = datetime.now(timezone.utc)
        rid = _block_id(user_id, label)
        old = self._records.get_record(CORE_BLOCK_KIND, rid, user_id)
        self._records.put_record(
            Record(
                CORE_BLOCK_KIND,
                rid,
                user_id,
                {"label": label, "value": text},
                old.created_at if old is not None else now,
                now,
            )
        )
        return str(text)


class AsyncItems(AsyncPart[Items]):
    """Awaitable ``mm.items`` (see :class:`~langgraph_memory.parts.items.Items`)."""

    get = awaitable(Items.get)
    list = awaitable(Items.list)
    put = awaitable(Items.put)
    refresh = awaitable(Items.refresh)
    delete = awaitable(Items.delete)
    delete_many = awaitable(Items.delete_many)
    owner = awaitable(Items.owner)
    holds = awaitable(Items.holds)
    adopt = awaitable(Items.adopt)
    core_block = awaitable(Items.core_block)
    set_core_block = awaitable(Items.set_core_block)
    label = awaitable(Items.label)
