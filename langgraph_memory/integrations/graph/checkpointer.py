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

With ``thread_token_budget`` the saved thread also stays within that many tokens (the
short-term layer as a checkpointer option): a checkpoint whose ``messages`` changed and
exceed the budget is saved without its oldest whole exchanges (never a tool call without
its result, never the current turn), which are stored in memory first; one line per
exchange, citing its message ids, goes into the thread's one leading system message (see
:func:`~langgraph_memory.integrations.graph.thread.fit_thread`). The running graph keeps its thread
until the run ends; its next run, a resume and ``get_state`` read the trimmed one.

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
from typing import TYPE_CHECKING, Any

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

from langgraph_memory.core.validation import check_id, check_positive_int
from langgraph_memory.integrations.graph.messages import (
    MessageWrite,
    is_id_conflict,
    memory_role,
    render_message,
    stable_message_id,
    tool_name,
)
from langgraph_memory.integrations.graph.nodes import MEMORY_MESSAGE_ID
from langgraph_memory.integrations.graph.scope import check_memory
from langgraph_memory.integrations.graph.thread import fit_thread
from langgraph_memory.manager import MemoryManager

if TYPE_CHECKING:
    from langgraph_memory.integrations.remote import RemoteMemory

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
        memory: The memory to feed (a manager, or a service's
            :class:`~langgraph_memory.RemoteMemory`).
        messages_key: The state channel holding the conversation.
        thread_token_budget: Keep the saved thread within this many tokens (``None``:
            never trim). The oldest exchanges leave the saved ``messages`` once it is over
            the budget (down to 3/4 of it; the outline takes the rest), after they are
            stored in memory (so they stay searchable); without a ``user_id`` in the run's
            config nothing is stored, so nothing leaves the thread. The outline of what
            left goes into the thread's leading system message: its own, merged in after
            its content (same id), or a memory system message with id
            ``MEMORY_MESSAGE_ID`` put first, which ``recall_node`` merges its context
            into. A graph whose agent adds its own system prompt at call time
            (``create_agent(system_prompt=...)``) wants
            ``MemoryMiddleware(thread_token_budget=...)`` instead, or the model reads two
            system messages.

    Raises:
        TypeError: When ``inner`` or ``memory`` has the wrong type.
        ValueError: When ``thread_token_budget`` is not a positive number of tokens or
            ``messages_key`` is no valid key.

    Example:
        >>> saver = MemoryCheckpointer(SqliteSaver(conn), mm)  # doctest: +SKIP
        >>> graph = builder.compile(checkpointer=saver)  # doctest: +SKIP
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> from langgraph_memory import HashingEmbeddings, InMemoryBackend, MemoryManager
        >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        ...     short = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=4000)
        ...     print(short.thread_token_budget)
        4000
    """

    def __init__(
        self,
        inner: BaseCheckpointSaver[Any],
        memory: MemoryManager | RemoteMemory,
        *,
        messages_key: str = "messages",
        thread_token_budget: int | None = None,
    ) -> None:
        if not isinstance(inner, BaseCheckpointSaver):
            raise TypeError(f"inner must be a BaseCheckpointSaver, got {type(inner).__name__}")
        check_memory(memory)
        if thread_token_budget is not None:
            check_positive_int(thread_token_budget, "thread_token_budget")
        self.inner = inner
        self.memory = memory
        self.messages_key = check_id(messages_key, "messages_key")
        #: The saved thread's budget in tokens (``None``: never trimmed).
        self.thread_token_budget = thread_token_budget
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
        clone = MemoryCheckpointer(
            inner,
            self.memory,
            messages_key=self.messages_key,
            thread_token_budget=self.thread_token_budget,
        )
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
        limit = self.memory.config.write.max_content_chars
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
    ) -> bool:
        """Store the checkpoint's new messages; whether that worked (an error is logged)."""
        try:
            pending = self._pending(config, checkpoint, new_versions)
            if pending is not None:
                self._store(*pending)
            return True
        except Exception:
            logger.exception("MemoryCheckpointer: memory capture failed; checkpoint kept")
            return False

    async def _capture_async(
        self, config: RunnableConfig, checkpoint: Checkpoint, new_versions: ChannelVersions
    ) -> bool:
        """Async :meth:`_capture_sync`."""
        try:
            pending = self._pending(config, checkpoint, new_versions)
            if pending is not None and pending[2]:
                await asyncio.to_thread(self._store, *pending)
            return True
        except Exception:
            logger.exception("MemoryCheckpointer: memory capture failed; checkpoint kept")
            return False

    # -- the thread's budget -----------------------------------------------------------------
    def _fitted(
        self, config: RunnableConfig, checkpoint: Checkpoint, new_versions: ChannelVersions
    ) -> Checkpoint | None:
        """The checkpoint with its thread cut to :attr:`thread_token_budget`, or ``None``
        when it is kept as it is (no budget, the thread unchanged or within it, no user to
        remember the removed exchanges for, a channel that holds no list of messages)."""
        if self.thread_token_budget is None or self.messages_key not in new_versions:
            return None
        if not (config.get("configurable") or {}).get("user_id"):
            return None
        values = checkpoint.get("channel_values") or {}
        raw = values.get(self.messages_key)
        if not isinstance(raw, list) or not all(isinstance(m, BaseMessage) for m in raw):
            return None
        fit = fit_thread(raw, self.thread_token_budget)
        if fit is None:
            return None
        fitted = checkpoint.copy()  # the caller's checkpoint and its lists stay as they are
        fitted["channel_values"] = {**values, self.messages_key: fit.messages}
        return fitted

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
        fitted = self._fitted(config, checkpoint, new_versions)
        if fitted is None:
            saved = self.inner.put(config, checkpoint, metadata, new_versions)
            self._capture_sync(config, checkpoint, new_versions)
            return saved
        # what leaves the thread is stored first; if that fails, nothing leaves
        kept = self._capture_sync(config, checkpoint, new_versions)
        return self.inner.put(config, fitted if kept else checkpoint, metadata, new_versions)

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
        fitted = self._fitted(config, checkpoint, new_versions)
        if fitted is None:
            saved = await self.inner.aput(config, checkpoint, metadata, new_versions)
            await self._capture_async(config, checkpoint, new_versions)
            return saved
        kept = await self._capture_async(config, checkpoint, new_versions)
        return await self.inner.aput(config, fitted if kept else checkpoint, metadata, new_versions)

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
