"""Placement that survives a crash: what was embedded but never placed is placed again.

Two store-wide marks (store metadata, plain seq numbers) bracket placement:
:data:`EMBEDDING_MARK`, written just before a batch's vectors are stored, and
:data:`PLACED_MARK`, written once the batch's segments and session states are saved
(segments first: a page found in a segment already is not placed again, and a
session ignores seqs it has placed). When a process dies between the two, or
placement fails, :meth:`Recovery.replay` (run by the worker before its next batch,
so on every start) places the messages in between, in seq order. This assumes one
writer at a time per store, whose worker embeds the oldest pending messages first,
so messages are placed in increasing seq order.

Backends whose workers embed concurrently (a
:class:`~langgraph_memory.storage.capabilities.ClaimQueue`: PostgreSQL, several
processes claiming batches with ``FOR UPDATE SKIP LOCKED``) break that assumption:
batches commit out of seq order, and a seq is drawn before its row commits, so a
placed-up-to-seq mark could pass a message that commits later and skip it for good.
There, placement is a per-message flag instead (:meth:`Recovery.place_embedded`):
the writer places what the queue lists as embedded but unplaced (each user's
messages in seq order, never past the user's oldest pending one) and flags it once
its segments and session states are saved. :data:`PLACING_MARK` is set while a
chunk is being placed: found set at the next placement, a placement died half-way
(in this process or another), and the cached state is reloaded before the chunk is
placed again (idempotently, as in a replay).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from langgraph_memory.core.records import Message

if TYPE_CHECKING:
    from langgraph_memory.storage.capabilities import ClaimQueue

__all__ = [
    "Recovery",
    "Placer",
    "RecoveryStorage",
    "PLACED_MARK",
    "EMBEDDING_MARK",
    "PLACING_MARK",
]

log = logging.getLogger(__name__)

#: Store metadata keys: every embedded message up to this seq is placed...
PLACED_MARK = "hierarchy_placed_seq"
#: ...and no message after this seq has a vector (written before vectors are stored).
EMBEDDING_MARK = "hierarchy_embedding_seq"
#: Flag placement (concurrent embedding): set while a chunk is being placed.
PLACING_MARK = "hierarchy_placing"
#: Seqs looked up per step when replaying placement (and messages per flagged chunk).
REPLAY_CHUNK = 1000

Embed = Callable[[list[Message]], np.ndarray]


class Placer(Protocol):
    """What recovery needs of the hierarchy it recovers."""

    lock: threading.RLock

    def reload(self) -> None:
        """Forget every cached session state and segment (read again from the store)."""

    def place(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Place messages and save what they changed (no marks moved)."""

    def on_embedded(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """Place messages, move the placed mark, run due promotions."""

    def run_pending(self) -> int:
        """Persist visits and run due promotions."""


class RecoveryStorage(Protocol):
    """The store as recovery reads it: metadata for the marks, messages to replay."""

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def users(self) -> list[str]: ...

    def get_messages(self, user_id: str, seqs: Sequence[int]) -> dict[int, Message]: ...


class Recovery:
    """The placement marks of one hierarchy, and the replay of what they bracket.

    Args:
        storage: The store's metadata and messages.
        placer: The hierarchy.
        claims: The store's claim queue when several processes embed at once (placement
            is then flagged per message), else ``None``.
    """

    def __init__(
        self, storage: RecoveryStorage, placer: Placer, claims: ClaimQueue | None = None
    ) -> None:
        self.storage = storage
        self.placer = placer
        self.claims = claims
        self._marks: tuple[int, int] | None = None  # (placed, embedding)
        self._gap = False  # the batch being stored follows unplaced messages

    def forget_marks(self) -> None:
        """Read the marks again at next use (another process may have moved them)."""
        self._marks = None

    def _get_marks(self) -> tuple[int, int]:
        if self._marks is None:
            got = [self.storage.get_meta(k) for k in (PLACED_MARK, EMBEDDING_MARK)]
            placed, embedding = (int(v) if v else 0 for v in got)
            self._marks = (placed, embedding)
        return self._marks

    def _set_mark(self, key: str, seq: int) -> None:
        placed, embedding = self._get_marks()
        if key == PLACED_MARK and seq > placed:
            self.storage.set_meta(key, str(seq))
            self._marks = (seq, embedding)
        elif key == EMBEDDING_MARK and seq > embedding:
            self.storage.set_meta(key, str(seq))
            self._marks = (placed, seq)

    def begin_batch(self, batch: Sequence[Message]) -> None:
        """Right before a batch's vectors are stored: mark how far embedding goes, so
        that a crash before the batch is placed can be replayed."""
        if not batch:
            return
        with self.placer.lock:
            placed, embedding = self._get_marks()
            self._gap = placed < embedding
            self._set_mark(EMBEDDING_MARK, max(m.seq for m in batch))

    def placed(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        """A batch is placed and saved: move the placed mark past it (unless it follows
        messages still to replay)."""
        with self.placer.lock:
            if items and not self._gap:
                self._set_mark(PLACED_MARK, max(msg.seq for msg, _ in items))

    def replay(self, embed: Embed) -> int:
        """Place the messages embedded but never placed (the process died between storing
        their vectors and saving their placement, or placement failed).

        Session states and segments are reloaded from the store first (a failed placement
        may have left the in-process copies half-changed; retrieval visits not yet saved
        are lost then). Idempotent: a session ignores seqs it placed, a page already in a
        segment is not placed again.

        Args:
            embed: The vectors of messages, one row each (the cached embedder: the vectors
                were made before, so this is normally a cache hit).

        Returns:
            How many messages were placed again.
        """
        if self.claims is not None:
            return self.place_embedded(embed)
        with self.placer.lock:
            placed, embedding = self._get_marks()
            if placed >= embedding:
                return 0
            self.placer.reload()
            users = self.storage.users()
            done = 0
            for start in range(placed + 1, embedding + 1, REPLAY_CHUNK):
                seqs = list(range(start, min(start + REPLAY_CHUNK, embedding + 1)))
                msgs = [m for u in users for m in self.storage.get_messages(u, seqs).values()]
                if msgs:
                    msgs.sort(key=lambda m: m.seq)
                    vectors = np.asarray(embed(msgs))
                    self._gap = True  # the mark moves below, once the chunk is saved
                    self.placer.on_embedded(list(zip(msgs, vectors, strict=True)))
                    done += len(msgs)
                self._set_mark(PLACED_MARK, seqs[-1])
            self._gap = False
            if done:
                log.info("replayed the hierarchy placement of %d messages", done)
            return done

    def place_embedded(self, embed: Embed, chunk: int = REPLAY_CHUNK) -> int:
        """Place every message the claim queue lists as embedded but unplaced, flagging
        each once placed (see the module docs).

        Called by the one hierarchy writer (under the writer lease) while any number of
        processes embed. A chunk is flagged only after its segments and session states
        are saved; :data:`PLACING_MARK` brackets it, so that a placement that died
        half-way is placed again on state reloaded from the store (a session ignores
        seqs it placed, a page found in a segment is not placed again).

        Args:
            embed: The vectors of messages, one row each (normally embedding-cache hits).
            chunk: Messages placed (and flagged) per step.

        Returns:
            How many messages were placed.

        Raises:
            RuntimeError: On a store without a claim queue.
        """
        if self.claims is None:
            raise RuntimeError("place_embedded needs a store with a claim queue")
        with self.placer.lock:
            if self.storage.get_meta(PLACING_MARK):  # an earlier placement died half-way
                self.placer.reload()
        done = 0
        while msgs := self.claims.unplaced_messages(chunk):
            vectors = np.asarray(embed(msgs))
            self.storage.set_meta(PLACING_MARK, str(msgs[-1].seq))
            self.placer.place(list(zip(msgs, vectors, strict=True)))
            self.claims.mark_placed([m.seq for m in msgs])
            self.storage.set_meta(PLACING_MARK, "")
            done += len(msgs)
        if done:
            self.placer.run_pending()
        return done
