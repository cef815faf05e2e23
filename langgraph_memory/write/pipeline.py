"""The write path: validate, gate, store, then embed and place in the background.

``add_message`` validates every argument, passes content and metadata through the sensitivity gate,
and stores the message with its lexical terms: it is accepted now, in about a millisecond. The
store's messages without a vector are the durable queue the background
:class:`~langgraph_memory.write.worker.EmbeddingWorker` drains: it embeds them with the memory's
:class:`~langgraph_memory.write.embedder.Embedder` and, under the store's writer lease
(:class:`~langgraph_memory.write.lease.Writer`), places them in the memory hierarchy. When the queue
is drained the pipeline keeps house (:meth:`WritePipeline.housekeeping`): retrieval visits and
long-term accesses are saved, due promotions run, idle sessions expire.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_message("ann", "s1", "user", "Call me at +1 415 555 0100")
    ...     mm.flush()
    ...     [h.text for h in mm.search("ann", "call me", k=1)]
    ['Call me at [PHONE]']
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Protocol

import numpy as np

from langgraph_memory.config import WriteSection
from langgraph_memory.core.held_texts import forget_texts
from langgraph_memory.core.records import Message, Record, index_text
from langgraph_memory.core.tokens import tokenize_queued
from langgraph_memory.core.validation import (
    check_content,
    check_id,
    check_metadata,
    check_role,
    new_message_id,
    parse_timestamp,
)
from langgraph_memory.embeddings import CachedEmbeddings
from langgraph_memory.layers.hierarchy.erasure import forget_in_records
from langgraph_memory.layers.index.passages import Passages
from langgraph_memory.sensitivity.policy import SensitivityFilter
from langgraph_memory.storage.base import MemoryBackend
from langgraph_memory.storage.capabilities import Checkpoint, IndexedEntry, RecordStore
from langgraph_memory.write.embedder import Embedder
from langgraph_memory.write.lease import Writer
from langgraph_memory.write.quarantine import FailedMessage
from langgraph_memory.write.worker import EmbeddingWorker, Placement

__all__ = [
    "WritePipeline",
    "HierarchyWrites",
    "AccessSaver",
    "EntryEmbedder",
    "DELETION_KIND",
    "DELETIONS_SCOPE",
]

#: How long an open waits for the writer lease to finish an interrupted deletion.
FINISH_WAIT_S = 5.0
#: The record kind of a deletion under way (its tombstone).
DELETION_KIND = "deletion"
#: Whose records tombstones are: a reserved scope no user id can be (user ids never hold
#: the control character ``\x1f``), so deleting a user never deletes its tombstone.
DELETIONS_SCOPE = "\x1fdeletions"

log = logging.getLogger(__name__)


class WindowWrites(Protocol):
    """A copy of the sessions' latest messages kept elsewhere (working memory in Redis)."""

    def appended(self, msg: Message) -> None:
        """``msg`` was just stored."""

    def forget_user(self, user_id: str) -> None:
        """Messages of ``user_id`` were deleted: its copies are retired."""


class HierarchyWrites(Placement, Protocol):
    """The hierarchy as the write path drives it."""

    def run_pending(self) -> int:
        """Persist retrieval visits and run due promotions."""
        ...

    def maybe_expire(self) -> None:
        """Expire idle sessions (at most every minute)."""

    def forget_user(self, user_id: str) -> None:
        """Drop a deleted user's cached state."""

    def forget_messages(
        self,
        user_id: str,
        msgs: Sequence[Message],
        embed: Callable[[list[Message]], np.ndarray] | None = None,
    ) -> None:
        """Take deleted messages out of the pages and segments (summaries made again)."""


class EntryEmbedder(Protocol):
    """The long-term entry index as the write path keeps it."""

    def embed_pending(self, limit: int = 256) -> int:
        """Embed entries still without a vector; returns how many."""
        ...

    def forget(self, user_id: str) -> None:
        """Drop a deleted user's mirror."""

    def rebuild(self, user_id: str) -> int:
        """Index every entry of the user's records again; returns how many changed."""
        ...

    def take_changed_users(self) -> list[str]:
        """Users whose entries changed since the last call."""
        ...

    @property
    def kinds(self) -> Collection[str]:
        """The indexed record kinds."""
        ...

    def render(self, record: Record) -> IndexedEntry:
        """A record's index entry (its text is what the worker embedded)."""
        ...


class Reflection(Protocol):
    """Reflection as the write path runs it."""

    def run(self, user_id: str) -> Any:
        """Reflect on what changed for a user."""


class AccessSaver(Protocol):
    """Long-term accesses counted by the read path, saved by the write path."""

    def save(self) -> None:
        """Write the counted accesses."""


class WritePipeline:
    """Validation, the sensitivity gate, the durable queue, the worker, the writer lease
    and the embedder of one memory.

    Args:
        storage: The store.
        config: Limits and the embedding batch size.
        gate: The sensitivity gate.
        embedder: The memory's embedder.
        writer: The write lock and the store's writer lease.
        hierarchy: Where embedded messages are placed.
        accesses: Long-term accesses to save when the queue is drained.
        entries: The long-term entry index, whose pending entries the worker embeds
            when the queue is drained.
        reflector: Writes lessons and insights for the users whose entries changed,
            when the queue is drained.
        records: The record store long-term memory writes through.
        passages: Where a long message's passages are indexed when it is stored
            (``None``: no passages).
    """

    #: How long ``delete_user`` waits for another process to release the writer lease.
    LEASE_WAIT_S = 60.0

    def __init__(
        self,
        storage: MemoryBackend,
        config: WriteSection,
        gate: SensitivityFilter,
        embedder: Embedder,
        writer: Writer,
        hierarchy: HierarchyWrites,
        accesses: AccessSaver,
        *,
        entries: EntryEmbedder | None = None,
        reflector: Reflection | None = None,
        records: RecordStore | None = None,
        passages: Passages | None = None,
    ) -> None:
        self.storage = storage
        self.passages = passages
        #: The records long-term memory writes through (the entry index kept in step).
        self.records: RecordStore = records if records is not None else storage
        self._entries = entries
        self._reflector = reflector
        self.config = config
        self.embedder = embedder
        self.writer = writer
        self.gate = gate
        self._hierarchy = hierarchy
        self._accesses = accesses
        #: Told of each message the store accepts (the working-memory cache), or None.
        self.window: WindowWrites | None = None
        self.worker = EmbeddingWorker(
            storage,
            embedder,
            writer,
            batch_size=config.embed_batch_size,
            placement=hierarchy,
            housekeeping=self,
        )
        self.worker.notify()  # drain what a previous run left pending

    # -- accepting messages ---------------------------------------------------------------
    def message(
        self,
        user_id: Any,
        session_id: Any,
        role: Any,
        content: Any,
        name: Any,
        timestamp: Any,
        message_id: Any,
        metadata: Any,
        field: str = "content",
    ) -> Message:
        """Validate every argument and build the message (stores nothing); the
        sensitivity gate redacts content and metadata here, before any storage.

        Raises:
            TypeError: When an argument has the wrong type.
            ValueError: When an argument is invalid or the gate refuses the content.
        """
        cfg = self.config
        msg = Message(
            id=new_message_id() if message_id is None else check_id(message_id, "message_id"),
            user_id=check_id(user_id, "user_id"),
            session_id=check_id(session_id, "session_id"),
            role=check_role(role),
            content=check_content(content, cfg.max_content_chars, field),
            timestamp=parse_timestamp(timestamp),
            name=None if name is None else check_id(name, "name"),
            metadata=check_metadata(
                dict(metadata) if isinstance(metadata, Mapping) else metadata,
                cfg.max_metadata_bytes,
            ),
        )
        return self.gate.clean_message(msg, field)

    def store(self, msg: Message) -> str:
        """Store a validated message and its terms (the queue), and index a long one's
        passages (their vectors come with the worker's next idle pass); returns its id."""
        stored, created = self.storage.insert_message(msg, tokenize_queued(index_text(msg)))
        if self.passages is not None:
            self.passages.write(stored, created=created)
        if created:
            self.worker.notify()
            if self.window is not None:  # after the store: it holds the truth
                self.window.appended(stored)
        return stored.id

    # -- quarantined messages -------------------------------------------------------------
    def failed_messages(self, user_id: str | None = None) -> list[FailedMessage]:
        """The messages the worker could not embed (see :mod:`.quarantine`)."""
        return self.worker.quarantine.list(user_id)

    def retry_failed(self, user_id: str, message_ids: Sequence[str] | None = None) -> int:
        """Put a user's quarantined messages back in the queue; returns how many."""
        n = self.worker.quarantine.release(user_id, message_ids)
        if n:
            self.worker.notify()
        return n

    # -- the background -------------------------------------------------------------------
    def housekeeping(self) -> None:
        """Worker idle hook: persist segment visits and long-term accesses, run due
        promotions, expire sessions, reflect, embed long-term entries still without a
        vector."""
        try:
            self._accesses.save()
            self._hierarchy.run_pending()
            self._hierarchy.maybe_expire()
            self._embed_entries()
            if isinstance(self.storage, Checkpoint):  # bounds what a power loss can take
                self.storage.checkpoint()
        except Exception:  # housekeeping must never stop the embedding worker
            log.exception("memory housekeeping failed")

    def flush(self, timeout: float | None = None, user_ids: frozenset[str] | None = None) -> None:
        """Wait until every accepted message is embedded and placed, then save visits and
        accesses and run the promotions they made due.

        With ``user_ids``, only until those users' messages pending now are embedded and
        placed (see :meth:`EmbeddingWorker.flush`); visits, accesses and promotions are
        then left to the worker's next idle pass (saving them waits for the write lock,
        which the worker holds while it embeds other users' batches).

        Raises:
            TimeoutError: When ``timeout`` seconds pass first.
            RuntimeError: When background embedding failed.
        """
        self.worker.flush(timeout, user_ids)
        if user_ids is None:
            with self.writer.hold() as mine:
                if mine:
                    self._accesses.save()
                    self._hierarchy.run_pending()
        self._embed_entries()

    def _embed_entries(self) -> None:
        """Reflect for the users whose entries changed, then embed every long-term entry
        still without a vector, in batches."""
        if self._entries is None:
            return
        if self._reflector is not None:
            for user_id in self._entries.take_changed_users():
                try:
                    self._reflector.run(user_id)
                except Exception:  # one user's reflection must not stop the others'
                    log.exception("reflection failed for one user")
        while self._entries.embed_pending(self.config.embed_batch_size) > 0:
            pass

    # -- deleting -------------------------------------------------------------------------
    def delete_user(self, user_id: str, derived_texts: Sequence[str] = ()) -> int:
        """Delete every trace of a user: messages, terms, vectors, records, and the cached
        embeddings of the user's messages and of ``derived_texts`` (texts made from them,
        such as long-term entries, embedded in process by reads).

        Returns:
            The number of messages deleted.

        Raises:
            TimeoutError: When another process held the writer lease for
                :attr:`LEASE_WAIT_S` seconds (nothing was deleted).
        """
        with self._deleting(f"delete_user({user_id!r})"):
            tomb = self._tombstone(user_id, None)
            hashes = [
                CachedEmbeddings.content_hash(index_text(m))
                for m in self.storage.iter_messages(user_id)
            ]
            if self.passages is not None:
                derived_texts = [*derived_texts, *self.passages.texts(user_id)]
            texts = [CachedEmbeddings.content_hash(t) for t in derived_texts]
            n = self.storage.delete_user(user_id, hashes)
            self._hierarchy.forget_user(user_id)
            if self._entries is not None:
                self._entries.forget(user_id)
            self.embedder.forget(hashes + texts)
            if self.window is not None:
                self.window.forget_user(user_id)
            self.storage.delete_records(DELETION_KIND, [tomb.id], DELETIONS_SCOPE)
        forget_texts()  # last, the lease given back: every cache of texts (core.held_texts)
        return n

    def _tombstone(self, user_id: str, message_ids: Sequence[str] | None) -> Record:
        """Write down, durably and before anything is deleted, what a deletion is about to
        delete (a whole user when ``message_ids`` is None): a crash mid-way leaves it, and
        :meth:`finish_deletions` runs it to the end at the next open."""
        ids = None if message_ids is None else sorted(message_ids)
        key = json.dumps([user_id, ids], ensure_ascii=False)
        now = datetime.now(timezone.utc)
        rec = Record(
            DELETION_KIND,
            "deletion-" + hashlib.sha256(key.encode()).hexdigest()[:32],
            DELETIONS_SCOPE,
            {"user_id": user_id, "message_ids": ids},
            now,
            now,
        )
        self.storage.put_record(rec)
        return rec

    def finish_deletions(self) -> int:
        """Run to the end the deletions a crash interrupted (see :meth:`_tombstone`);
        returns how many. Skipped when another process holds the writer lease (it
        finishes them when it opens next, or this one does)."""
        pending = self.storage.list_records(DELETION_KIND, DELETIONS_SCOPE)
        if not pending:
            return 0
        with self.writer.hold(wait=FINISH_WAIT_S) as mine:
            if not mine:
                return 0
            for rec in pending:
                user_id, ids = str(rec.data["user_id"]), rec.data.get("message_ids")
                log.warning("finishing a deletion a crash interrupted (%s)", rec.id)
                if ids is None:
                    self.delete_user(user_id)
                else:
                    self.delete_messages(user_id, [str(i) for i in ids])
                    if self._entries is not None:  # rows of records the run deleted
                        self._entries.rebuild(user_id)
            # the interrupted run may have been inside its compaction: no copy may remain
            self.storage.compact()
            self.storage.delete_records(DELETION_KIND, [rec.id for rec in pending], DELETIONS_SCOPE)
        return len(pending)

    @contextmanager
    def _deleting(self, what: str) -> Iterator[None]:
        """Hold the writer lease while deleting: no process's worker writes the user's
        hierarchy records back meanwhile.

        Raises:
            TimeoutError: When another process held it for :attr:`LEASE_WAIT_S` seconds.
        """
        with self.writer.hold(wait=self.LEASE_WAIT_S) as mine:
            if not mine:
                raise TimeoutError(
                    f"{what}: another process held this store's writer lease for "
                    f"{self.LEASE_WAIT_S:.0f} s; nothing was deleted, retry"
                )
            yield

    def _entry(self, record: Record) -> IndexedEntry | None:
        """The index entry of a record of an indexed kind (``None`` for other kinds)."""
        entries = self._entries
        if entries is None or record.kind not in entries.kinds:
            return None
        return entries.render(record)

    def delete_messages(self, user_id: str, ids: Sequence[str]) -> list[Message]:
        """Delete messages of a user and what was made from them: their rows, terms,
        vectors and cached embeddings, their place in the hierarchy (the summaries made
        from them made again), and the long-term records read from them (see
        :func:`~langgraph_memory.layers.hierarchy.erasure.forget_in_records`); then the store is
        compacted so no copy of them remains. Ids already gone are scrubbed from the
        records all the same (a deletion interrupted half-way can be run again).

        Returns:
            The messages deleted.

        Raises:
            TimeoutError: When another process held the writer lease for
                :attr:`LEASE_WAIT_S` seconds (nothing was deleted).
        """
        with self._deleting(f"delete({user_id!r}, ...)"):
            found = [self.storage.get_message(user_id, mid) for mid in dict.fromkeys(ids)]
            msgs = [m for m in found if m is not None]
            tomb = self._tombstone(user_id, [m.id for m in msgs]) if msgs else None
            # what was made from them goes first, while they are still there to be read
            # again (a crash before the messages go leaves a tombstone that reruns it all)
            passages = self.passages.forget(user_id, ids) if self.passages is not None else []
            changed = forget_in_records(self.records, user_id, set(ids), msgs)
            self._hierarchy.forget_messages(user_id, msgs, self._embed_stored)
            texts = (
                [index_text(m) for m in msgs]
                + passages
                + [e.text for r in changed if (e := self._entry(r)) is not None and e.text]
            )
            hashes = [CachedEmbeddings.content_hash(t) for t in texts]
            gone = self.storage.delete_messages(user_id, list(ids), hashes)
            self.worker.quarantine.forget(user_id, list(ids))
            self.embedder.forget(hashes)
            if gone or changed or passages:  # nothing deleted: nothing rewritten
                self.storage.compact()
            if self.window is not None:  # before the tombstone goes: a crash reruns it
                self.window.forget_user(user_id)
            if tomb is not None:
                self.storage.delete_records(DELETION_KIND, [tomb.id], DELETIONS_SCOPE)
        forget_texts()  # last, the lease given back: every cache of texts (core.held_texts)
        return gone

    def _embed_stored(self, msgs: list[Message]) -> np.ndarray:
        """Vectors of stored messages (from the embedding cache, or the model)."""
        return self.embedder.get().embed_array([index_text(m) for m in msgs])

    def close(self) -> None:
        """Stop the background worker (pending messages stay pending, for the next start)."""
        self.worker.stop()
