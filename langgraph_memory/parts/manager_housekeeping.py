"""The manager's housekeeping (a mixin of :class:`~langgraph_memory.MemoryManager`):
deleting a user, statistics, the users of a store, and the messages the background
worker could not embed (quarantined, see :mod:`~langgraph_memory.write.quarantine`).

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_message("ann", "s1", "user", "I like tea")
    ...     mm.flush()
    ...     mm.users(), mm.stats("ann")["messages"], mm.failed_messages("ann")
    (['ann'], 1, [])
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph_memory.core.validation import check_id
from langgraph_memory.read.stats import memory_stats
from langgraph_memory.storage.capabilities import Backup

if TYPE_CHECKING:
    from langgraph_memory.layers.hierarchy.placement import Hierarchy
    from langgraph_memory.layers.long_term.memory import LongTermMemory
    from langgraph_memory.parts.assembly import MemoryParts
    from langgraph_memory.read.pipeline import ReadPipeline
    from langgraph_memory.storage.base import MemoryBackend
    from langgraph_memory.write.pipeline import WritePipeline
    from langgraph_memory.write.quarantine import FailedMessage

__all__ = ["HousekeepingMixin"]

#: What to do instead of ``backup()`` on a store that has none of its own.
_NO_BACKUP = {
    "postgres": "PostgreSQL stores are backed up by the server's tools: "
    "`pg_dump --format=custom --table='lgm_*' --file=memory.dump DBNAME` (restore with "
    "`pg_restore --dbname=DBNAME memory.dump`), or the server's continuous archiving",
    "memory": "an in-memory store keeps nothing to back up; use SQLite or PostgreSQL",
    "chroma": "back up a Chroma store by copying its persist directory while no client "
    "writes (or with the Chroma server's own tools)",
    "": "this backend has no backup of its own; use the store's own tools",
}


class HousekeepingMixin:
    """Deletion, statistics and quarantined messages."""

    _backend: MemoryBackend
    _hierarchy: Hierarchy
    _longterm: LongTermMemory
    _read: ReadPipeline
    _write: WritePipeline
    _parts: MemoryParts

    def _check_open(self) -> None:
        """Raise when the manager is closed (the manager's own check)."""

    def setup(self) -> None:
        """Run the store's pending schema migrations (idempotent, safe from several processes).

        A manager already migrates when it opens its store; ``setup()`` is there for the
        same convention as LangGraph's ``PostgresStore.setup()`` and
        ``PostgresSaver.setup()`` (e.g. a deploy step that migrates before workers
        start). Stores without a schema (in-memory, Chroma) have nothing to do.

        Example:
            >>> with MemoryManager.from_conn_string(url) as mm:  # doctest: +SKIP
            ...     mm.setup()
        """
        self._check_open()
        migrate = getattr(self._backend, "setup", None)
        if callable(migrate):
            migrate()

    async def asetup(self) -> None:
        """Async :meth:`setup`."""
        await asyncio.to_thread(self.setup)

    def delete_user(self, user_id: str) -> int:
        """Delete every trace of a user: messages, terms, vectors, records (documents
        too), cached embeddings, the vector stores attached for them alone (detached; the
        stores themselves are not touched), and the
        :class:`~langgraph_memory.integrations.graph.store.MemoryStore` items whose namespace holds
        the user id as one of its labels (``("memories", user_id)``).

        Returns:
            The number of messages deleted.

        Raises:
            TimeoutError: When another process held the store's writer lease for a minute
                (nothing was deleted).
        """
        self._check_open()
        check_id(user_id, "user_id")
        profile, docs = self._parts.long_term_docs.long_term_docs(user_id)
        texts = [d.text for d in profile + docs] + self._parts.documents.texts(user_id)
        n = self._write.delete_user(user_id, texts)
        self._parts.items.delete_user_items(user_id)
        self._read.speakers.forget(user_id)
        self._parts.sources.detach_user(user_id)
        return n

    def delete(self, user_id: str, message_id: str | Sequence[str]) -> int:
        """Delete one message (or several) and everything derived from it.

        Gone with it: its text, terms, vector and cached embedding; its place in the
        session's pages and topic chains and in the mid-term segments (the summaries
        made from it are made again without it); the profile entries, facts, standing
        instructions, contradiction links, roll-ups, entity mentions and insights read
        from it (an entry another message also supports stays, citing that one, with
        any quote of the deleted message dropped). Search then ranks as if it had never
        been written. On SQLite the file is rebuilt afterwards, so no copy of it
        remains on disk (this takes a while on a large store: delete several at once).

        Args:
            user_id: Whose message.
            message_id: Its id, or a list of ids. Unknown ids are ignored.

        Returns:
            How many messages were deleted.

        Raises:
            TimeoutError: When another process held the store's writer lease for a
                minute (nothing was deleted).

        Example:
            >>> mid = mm.add_message("u1", "s1", "user", "My PIN hint: the cat")  # doctest: +SKIP
            >>> mm.delete("u1", mid)  # doctest: +SKIP
            1
        """
        self._check_open()
        check_id(user_id, "user_id")
        if isinstance(message_id, str):
            ids = [check_id(message_id, "message_id")]
        elif isinstance(message_id, Sequence):
            ids = [check_id(m, "message_id") for m in message_id]
        else:
            raise TypeError(
                f"message_id must be a str or a list of str, got {type(message_id).__name__}"
            )
        return len(self._write.delete_messages(user_id, ids))

    def backup(self, dest: str | os.PathLike[str]) -> Path:
        """A consistent copy of the store, taken while it is in use (SQLite's online
        backup API), checked (``PRAGMA quick_check``), as one self-contained file.

        Args:
            dest: The copy's file (``.sqlite3``), or a directory to write
                ``memory.sqlite3`` into.

        Returns:
            The copy's path. Open it with ``MemoryManager(path)``; check one with
            ``langgraph-memory --path DIR verify``.

        Raises:
            FileExistsError: When the destination file exists.
            NotImplementedError: When the store has no backup of its own (PostgreSQL:
                use ``pg_dump``; the message says how).

        Example:
            >>> mm.backup("/backups/memory-2026-11-25.sqlite3")  # doctest: +SKIP
        """
        self._check_open()
        if not isinstance(self._backend, Backup):
            raise NotImplementedError(_NO_BACKUP.get(self._backend.name, _NO_BACKUP[""]))
        return self._backend.backup(dest)

    def verify(self) -> None:
        """Check every page of the store now (SQLite: ``PRAGMA quick_check``; a server
        store checks its own). A store is also checked when opened after a process did
        not close it cleanly, and its files before that.

        Raises:
            StoreDamagedError: Naming the first problems found.
        """
        self._check_open()
        if isinstance(self._backend, Backup):
            self._backend.verify()

    def failed_messages(self, user_id: str | None = None) -> list[FailedMessage]:
        """The messages the background worker could not embed (of one user, or of
        everyone), oldest first, each with its error.

        Such a message is quarantined instead of stopping the queue: it stays stored
        and is found by its words, not by its meaning. Put it back with
        :meth:`retry_failed` (after fixing the embedder), or remove it with
        :meth:`delete`. ``stats()["failed"]`` counts them.

        Example:
            >>> for f in mm.failed_messages("u1"):  # doctest: +SKIP
            ...     print(f.message_id, f.error)
        """
        self._check_open()
        if user_id is not None:
            check_id(user_id, "user_id")
        return self._write.failed_messages(user_id)

    def retry_failed(self, user_id: str, message_ids: Sequence[str] | None = None) -> int:
        """Put a user's quarantined messages (all, or those of ``message_ids``) back in the
        embedding queue; returns how many. One that fails again is quarantined again."""
        self._check_open()
        check_id(user_id, "user_id")
        if message_ids is not None:
            if isinstance(message_ids, str) or not isinstance(message_ids, Sequence):
                raise TypeError("message_ids must be a list of message ids")
            message_ids = [check_id(m, "message_ids[]") for m in message_ids]
        return self._write.retry_failed(user_id, message_ids)

    def stats(self, user_id: str | None = None) -> dict[str, Any]:
        """Counts for one user (or the whole store): messages, embedded, pending, sessions,
        per layer; for one user also the hierarchy and long-term memory in detail; with
        vector stores attached, ``"vector_stores"``: per store it reads, whether it is
        shared and its searches, failures and last error."""
        self._check_open()
        if user_id is not None:
            check_id(user_id, "user_id")
        out = memory_stats(self._backend, self._hierarchy, self._longterm, user_id)
        stores = self._parts.sources.stats(user_id)
        if stores:
            out["vector_stores"] = stores
        return out

    def users(self) -> list[str]:
        """Every user id with stored messages, sorted."""
        self._check_open()
        return self._read.users()
