"""``MemoryCheckpointer``: any LangGraph checkpointer, plus memory capture.

Wrap the checkpointer a graph already uses; every checkpoint call is delegated
to it unchanged, and each saved checkpoint's new messages are written to the
memory — so a graph gains long-term memory without a new node.

Capture reads ``checkpoint["channel_values"]["messages"]`` (when that channel
changed), the user from ``config["configurable"]["user_id"]`` and the session
from ``thread_id``. Messages are rendered and stored as ``remember_node`` does
(tool calls as ``called tool NAME with {args}``, tool results as ``tool``
messages named after the tool; system messages skipped) under their LangChain
ids, so re-saving a thread stores nothing twice. Without a ``user_id`` nothing is
captured (one warning). A capture error is logged; the checkpoint is always saved.

Example:
    >>> from langgraph.checkpoint.memory import InMemorySaver
    >>> from langgraph_memory import HashingEmbeddings, InMemoryBackend, MemoryManager
    >>> mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    >>> saver = MemoryCheckpointer(InMemorySaver(), mm)
    >>> graph = builder.compile(checkpointer=saver)  # doctest: +SKIP
    >>> graph.invoke({"messages": [("user", "I'm allergic to peanuts")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice", "thread_id": "t1"}})
    >>> mm.close()
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import warnings
from collections import OrderedDict
from collections.abc import AsyncIterator, Collection, Iterator, Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,
)
from langgraph.checkpoint.serde.base import SerializerProtocol

from ..manager import MemoryManager
from .messages import (
    MessageWrite,
    is_id_conflict,
    memory_role,
    render_message,
    stable_message_id,
    tool_name,
)
from .nodes import MEMORY_MESSAGE_ID

__all__ = ["MemoryCheckpointer"]

logger = logging.getLogger(__name__)

_SEEN_LIMIT = 100_000


class _Capture:
    """State shared by a checkpointer and its ``with_allowlist`` clones."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: OrderedDict[tuple[str, str, str], None] = OrderedDict()
        self.warned = False

    def fresh(self, key: tuple[str, str, str]) -> bool:
        with self.lock:
            return key not in self.seen

    def mark(self, key: tuple[str, str, str]) -> None:
        with self.lock:
            self.seen[key] = None
            while len(self.seen) > _SEEN_LIMIT:
                self.seen.popitem(last=False)


def _thread_writes(
    messages: Sequence[BaseMessage], session_id: str, skip_id: str, limit: int
) -> list[MessageWrite]:
    """Every message of a thread as ``remember_node`` would store it, in order."""
    out: list[MessageWrite] = []
    for pos, msg in enumerate(messages):
        role = memory_role(msg)
        text = render_message(msg, limit) if role is not None and msg.id != skip_id else ""
        if not text or role is None:
            continue
        own = msg.id if isinstance(msg.id, str) and msg.id.strip() and len(msg.id) <= 200 else None
        derived = stable_message_id(session_id, pos, role, text)
        call_id = getattr(msg, "tool_call_id", None) if role == "tool" else None
        out.append(
            MessageWrite(
                role=role,
                content=text,
                name=(tool_name(msg, messages[:pos]) if role == "tool" else msg.name) or None,
                message_id=own or derived,
                fallback_id=stable_message_id(own, session_id, text) if own else derived,
                metadata={"tool_call_id": call_id} if call_id else None,
            )
        )
    return out


class MemoryCheckpointer(BaseCheckpointSaver[Any]):
    """Delegates to ``inner`` and captures each checkpoint's new messages into ``memory``.

    Args:
        inner: Any ``BaseCheckpointSaver`` (``InMemorySaver``, ``SqliteSaver``,
            ``AsyncSqliteSaver``, ``PostgresSaver``...). Its sync/async support is
            this wrapper's: a sync-only saver stays sync-only.
        memory: The memory to feed.
        messages_key: The state channel holding the conversation.

    Example:
        >>> saver = MemoryCheckpointer(SqliteSaver(conn), mm)  # doctest: +SKIP
        >>> graph = builder.compile(checkpointer=saver)  # doctest: +SKIP
    """

    def __init__(
        self,
        inner: BaseCheckpointSaver[Any],
        memory: MemoryManager,
        *,
        messages_key: str = "messages",
    ) -> None:
        if not isinstance(inner, BaseCheckpointSaver):
            raise TypeError(f"inner must be a BaseCheckpointSaver, got {type(inner).__name__}")
        if not isinstance(memory, MemoryManager):
            raise TypeError(f"memory must be a MemoryManager, got {type(memory).__name__}")
        self.inner = inner
        self.memory = memory
        self.messages_key = messages_key
        self._capture = _Capture()

    # -- what the inner saver decides --------------------------------------------------------
    @property  # type: ignore[override]
    def serde(self) -> SerializerProtocol:
        """The inner saver's serializer."""
        return self.inner.serde

    @serde.setter
    def serde(self, value: SerializerProtocol) -> None:
        self.inner.serde = value

    @property
    def config_specs(self) -> list[Any]:
        """The inner saver's config specs."""
        return self.inner.config_specs

    def get_next_version(self, current: Any, channel: None) -> Any:
        """The inner saver's next channel version."""
        return self.inner.get_next_version(current, channel)

    def with_allowlist(self, extra_allowlist: Collection[tuple[str, ...]]) -> MemoryCheckpointer:
        """Wrap the inner saver's ``with_allowlist`` clone (sharing capture state)."""
        inner = self.inner.with_allowlist(extra_allowlist)
        if inner is self.inner:
            return self
        clone = MemoryCheckpointer(inner, self.memory, messages_key=self.messages_key)
        clone._capture = self._capture
        return clone

    # -- capture -----------------------------------------------------------------------------
    def _pending(
        self, config: RunnableConfig, checkpoint: Checkpoint, new_versions: ChannelVersions
    ) -> tuple[str, str, list[MessageWrite]] | None:
        """What to store for this checkpoint: ``(user_id, session_id, writes)``."""
        if self.messages_key not in new_versions:
            return None
        raw = checkpoint.get("channel_values", {}).get(self.messages_key)
        if not isinstance(raw, (list, tuple)):
            return None
        messages = [m for m in raw if isinstance(m, BaseMessage)]
        configurable: Mapping[str, Any] = config.get("configurable") or {}
        user_id = configurable.get("user_id")
        if not user_id:
            if not self._capture.warned:
                self._capture.warned = True
                warnings.warn(
                    "MemoryCheckpointer: no config['configurable']['user_id']; this thread's "
                    "messages are checkpointed but not captured into memory",
                    UserWarning,
                    stacklevel=4,
                )
            return None
        session = str(configurable.get("thread_id") or "default")
        limit = self.memory.config.max_content_chars
        writes = [
            w
            for w in _thread_writes(messages, session, MEMORY_MESSAGE_ID, limit)
            if self._capture.fresh(self._seen_key(str(user_id), w))
        ]
        return str(user_id), session, writes

    @staticmethod
    def _seen_key(user_id: str, w: MessageWrite) -> tuple[str, str, str]:
        digest = hashlib.sha256(w.content.encode("utf-8")).hexdigest()
        return (user_id, w.message_id, digest)

    def _store(self, user_id: str, session: str, writes: list[MessageWrite]) -> None:
        for w in writes:
            try:
                self.memory.add_message(user_id, session, w.role, w.content, **w.kwargs())
            except ValueError as exc:
                if not is_id_conflict(exc):
                    raise
                self.memory.add_message(user_id, session, w.role, w.content, **w.kwargs(True))
            self._capture.mark(self._seen_key(user_id, w))

    def _capture_sync(
        self, config: RunnableConfig, checkpoint: Checkpoint, new_versions: ChannelVersions
    ) -> None:
        try:
            pending = self._pending(config, checkpoint, new_versions)
            if pending is not None:
                self._store(*pending)
        except Exception:
            logger.exception("MemoryCheckpointer: memory capture failed; checkpoint kept")

    async def _capture_async(
        self, config: RunnableConfig, checkpoint: Checkpoint, new_versions: ChannelVersions
    ) -> None:
        try:
            pending = self._pending(config, checkpoint, new_versions)
            if pending is not None and pending[2]:
                await asyncio.to_thread(self._store, *pending)
        except Exception:
            logger.exception("MemoryCheckpointer: memory capture failed; checkpoint kept")

    # -- sync delegation ---------------------------------------------------------------------
    def get(self, config: RunnableConfig) -> Checkpoint | None:
        return self.inner.get(config)

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self.inner.get_tuple(config)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,  # noqa: A002 - LangGraph's name
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        return self.inner.list(config, filter=filter, before=before, limit=limit)

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        saved = self.inner.put(config, checkpoint, metadata, new_versions)
        self._capture_sync(config, checkpoint, new_versions)
        return saved

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        self.inner.put_writes(config, writes, task_id, task_path)

    def delete_thread(self, thread_id: str) -> None:
        self.inner.delete_thread(thread_id)

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        self.inner.delete_for_runs(run_ids)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        self.inner.copy_thread(source_thread_id, target_thread_id)

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        self.inner.prune(thread_ids, strategy=strategy)

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        return self.inner.get_delta_channel_history(config=config, channels=channels)

    # -- async delegation --------------------------------------------------------------------
    async def aget(self, config: RunnableConfig) -> Checkpoint | None:
        return await self.inner.aget(config)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return await self.inner.aget_tuple(config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,  # noqa: A002
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        async for item in self.inner.alist(config, filter=filter, before=before, limit=limit):
            yield item

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        saved = await self.inner.aput(config, checkpoint, metadata, new_versions)
        await self._capture_async(config, checkpoint, new_versions)
        return saved

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        await self.inner.aput_writes(config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        await self.inner.adelete_thread(thread_id)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        await self.inner.adelete_for_runs(run_ids)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        await self.inner.acopy_thread(source_thread_id, target_thread_id)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        await self.inner.aprune(thread_ids, strategy=strategy)

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        return await self.inner.aget_delta_channel_history(config=config, channels=channels)
