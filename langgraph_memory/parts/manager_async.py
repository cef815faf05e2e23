"""The async twins of every :class:`MemoryManager` method (a mixin of it).

Each twin repeats its sync method's parameters and runs it on a worker thread
(``asyncio.to_thread``), so an event loop never blocks on storage or on the model.
``tests/test_public_api.py`` checks that every public method has a twin with the
same parameters.

Example:
    >>> import asyncio
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> async def main():
    ...     mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    ...     await mm.aadd_message("ann", "s1", "user", "I like tea")
    ...     await mm.aflush()
    ...     hits = await mm.asearch("ann", "tea", k=1)
    ...     await mm.aclose()
    ...     return hits[0].text
    >>> asyncio.run(main())
    'I like tea'
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from langgraph_memory.core.records import Record
    from langgraph_memory.layers.knowledge.consolidation import Knowledge
    from langgraph_memory.layers.long_term.entities import Entity
    from langgraph_memory.layers.long_term.facts import Fact
    from langgraph_memory.layers.long_term.profile import ProfileEntry
    from langgraph_memory.layers.long_term.reflection import Insight, Lesson
    from langgraph_memory.layers.long_term.rollups import Rollup
    from langgraph_memory.layers.working.forgetting import ForgetReport
    from langgraph_memory.layers.working.tasks import Anchor, Episode, TaskState, TaskStep
    from langgraph_memory.write.quarantine import FailedMessage

__all__ = ["AsyncMixin"]


class _Memory(Protocol):
    """The sync methods the twins run (the manager's own)."""

    @property
    def add_message(self) -> Callable[..., str]: ...

    @property
    def add_turn(self) -> Callable[..., list[str]]: ...

    @property
    def flush(self) -> Callable[..., None]: ...

    @property
    def add_anchor(self) -> Callable[..., str]: ...

    @property
    def feedback(self) -> Callable[..., list[ProfileEntry]]: ...

    @property
    def anchors(self) -> Callable[..., list[Anchor]]: ...

    @property
    def remove_anchor(self) -> Callable[..., bool]: ...

    @property
    def working_items(self) -> Callable[..., tuple[list[Anchor], TaskState | None]]: ...

    @property
    def start_task(self) -> Callable[..., str]: ...

    @property
    def add_step(self) -> Callable[..., int]: ...

    @property
    def update_step(self) -> Callable[..., TaskStep]: ...

    @property
    def get_task(self) -> Callable[..., TaskState]: ...

    @property
    def complete_task(self) -> Callable[..., Episode]: ...

    @property
    def episodes(self) -> Callable[..., list[Episode]]: ...

    @property
    def knowledge(self) -> Callable[..., list[Knowledge]]: ...

    @property
    def lessons(self) -> Callable[..., list[Lesson]]: ...

    @property
    def insights(self) -> Callable[..., list[Insight]]: ...

    @property
    def success_rates(self) -> Callable[..., dict[str, dict[str, tuple[int, int]]]]: ...

    @property
    def reflect(self) -> Callable[..., tuple[list[Lesson], list[Insight]]]: ...

    @property
    def rollups(self) -> Callable[..., list[Rollup]]: ...

    @property
    def entities(self) -> Callable[..., list[Entity]]: ...

    @property
    def relations(self) -> Callable[..., list[Fact]]: ...

    @property
    def run_forget_gate(self) -> Callable[..., ForgetReport]: ...

    @property
    def run_consolidation(self) -> Callable[..., list[Knowledge]]: ...

    @property
    def redact(self) -> Callable[..., Any]: ...

    @property
    def redact_label(self) -> Callable[..., str]: ...

    @property
    def get_store_item(self) -> Callable[..., Record | None]: ...

    @property
    def store_items(self) -> Callable[..., list[Record]]: ...

    @property
    def put_store_item(self) -> Callable[..., Record]: ...

    @property
    def refresh_store_item(self) -> Callable[..., None]: ...

    @property
    def delete_store_item(self) -> Callable[..., int]: ...

    @property
    def delete_store_items(self) -> Callable[..., int]: ...

    @property
    def core_block(self) -> Callable[..., str]: ...

    @property
    def set_core_block(self) -> Callable[..., str]: ...

    @property
    def delete_user(self) -> Callable[..., int]: ...

    @property
    def delete(self) -> Callable[..., int]: ...

    @property
    def backup(self) -> Callable[..., Path]: ...

    @property
    def verify(self) -> Callable[..., None]: ...

    @property
    def stats(self) -> Callable[..., dict[str, Any]]: ...

    @property
    def failed_messages(self) -> Callable[..., list[FailedMessage]]: ...

    @property
    def retry_failed(self) -> Callable[..., int]: ...

    @property
    def users(self) -> Callable[..., list[str]]: ...

    @property
    def warm_up(self) -> Callable[..., None]: ...

    @property
    def close(self) -> Callable[..., None]: ...


class AsyncMixin:
    """``a``-prefixed twins of every manager method, with the same parameters."""

    # -- writing -------------------------------------------------------------
    async def aadd_message(
        self: _Memory,
        user_id: str,
        session_id: str,
        role: str,
        content: str,
        *,
        name: str | None = None,
        timestamp: Any = None,
        message_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Async :meth:`~langgraph_memory.MemoryManager.add_message`."""
        return await asyncio.to_thread(
            self.add_message,
            user_id,
            session_id,
            role,
            content,
            name=name,
            timestamp=timestamp,
            message_id=message_id,
            metadata=metadata,
        )

    async def aadd_turn(
        self: _Memory,
        user_id: str,
        session_id: str,
        *,
        user: str,
        assistant: str | None = None,
        timestamp: Any = None,
        user_name: str | None = None,
        assistant_name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """Async :meth:`~langgraph_memory.MemoryManager.add_turn`."""
        return await asyncio.to_thread(
            self.add_turn,
            user_id,
            session_id,
            user=user,
            assistant=assistant,
            timestamp=timestamp,
            user_name=user_name,
            assistant_name=assistant_name,
            metadata=metadata,
        )

    async def aflush(self: _Memory, timeout: float | None = None) -> None:
        """Async :meth:`~langgraph_memory.MemoryManager.flush`."""
        await asyncio.to_thread(self.flush, timeout)

    # -- reading -------------------------------------------------------------
    # asearch and abuild_context: in manager_sources (they await attached vector stores)

    # -- working memory ------------------------------------------------------
    async def aadd_anchor(
        self: _Memory,
        user_id: str,
        text: str,
        *,
        session_id: str | None = None,
        anchor_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> str:
        """Async :meth:`~langgraph_memory.MemoryManager.add_anchor`."""
        return await asyncio.to_thread(
            self.add_anchor,
            user_id,
            text,
            session_id=session_id,
            anchor_id=anchor_id,
            metadata=metadata,
        )

    async def afeedback(
        self: _Memory,
        user_id: str,
        target: str,
        signal: Literal["followed", "corrected"],
        *,
        value: Any = None,
        source_ids: Sequence[str] | None = None,
    ) -> list[ProfileEntry]:
        """Async :meth:`~langgraph_memory.MemoryManager.feedback`."""
        return await asyncio.to_thread(
            self.feedback, user_id, target, signal, value=value, source_ids=source_ids
        )

    async def aanchors(self: _Memory, user_id: str, session_id: str | None = None) -> list[Anchor]:
        """Async :meth:`~langgraph_memory.MemoryManager.anchors`."""
        return await asyncio.to_thread(self.anchors, user_id, session_id)

    async def aremove_anchor(self: _Memory, user_id: str, anchor_id: str) -> bool:
        """Async :meth:`~langgraph_memory.MemoryManager.remove_anchor`."""
        return await asyncio.to_thread(self.remove_anchor, user_id, anchor_id)

    async def aworking_items(
        self: _Memory, user_id: str, session_id: str
    ) -> tuple[list[Anchor], TaskState | None]:
        """Async :meth:`~langgraph_memory.MemoryManager.working_items`."""
        return await asyncio.to_thread(self.working_items, user_id, session_id)

    async def astart_task(
        self: _Memory,
        user_id: str,
        session_id: str,
        request: str,
        *,
        context: dict[str, Any] | None = None,
    ) -> str:
        """Async :meth:`~langgraph_memory.MemoryManager.start_task`."""
        return await asyncio.to_thread(
            self.start_task, user_id, session_id, request, context=context
        )

    async def aadd_step(
        self: _Memory,
        user_id: str,
        task_id: str,
        description: str,
        tool_name: str | None = None,
        args: dict[str, Any] | None = None,
    ) -> int:
        """Async :meth:`~langgraph_memory.MemoryManager.add_step`."""
        return await asyncio.to_thread(
            self.add_step, user_id, task_id, description, tool_name, args
        )

    async def aupdate_step(
        self: _Memory,
        user_id: str,
        task_id: str,
        index: int,
        *,
        status: str | None = None,
        result: str | None = None,
    ) -> TaskStep:
        """Async :meth:`~langgraph_memory.MemoryManager.update_step`."""
        return await asyncio.to_thread(
            self.update_step, user_id, task_id, index, status=status, result=result
        )

    async def aget_task(self: _Memory, user_id: str, task_id: str) -> TaskState:
        """Async :meth:`~langgraph_memory.MemoryManager.get_task`."""
        return await asyncio.to_thread(self.get_task, user_id, task_id)

    async def acomplete_task(
        self: _Memory,
        user_id: str,
        task_id: str,
        *,
        outcome: str = "success",
        summary: str = "",
        trigger_type: str = "user_request",
        target: str = "",
        tags: list[str] | None = None,
        pinned: bool = False,
    ) -> Episode:
        """Async :meth:`~langgraph_memory.MemoryManager.complete_task`."""
        return await asyncio.to_thread(
            self.complete_task,
            user_id,
            task_id,
            outcome=outcome,
            summary=summary,
            trigger_type=trigger_type,
            target=target,
            tags=tags,
            pinned=pinned,
        )

    async def aepisodes(self: _Memory, user_id: str) -> list[Episode]:
        """Async :meth:`~langgraph_memory.MemoryManager.episodes`."""
        return await asyncio.to_thread(self.episodes, user_id)

    async def aknowledge(self: _Memory, user_id: str) -> list[Knowledge]:
        """Async :meth:`~langgraph_memory.MemoryManager.knowledge`."""
        return await asyncio.to_thread(self.knowledge, user_id)

    async def alessons(self: _Memory, user_id: str) -> list[Lesson]:
        """Async :meth:`~langgraph_memory.MemoryManager.lessons`."""
        return await asyncio.to_thread(self.lessons, user_id)

    async def ainsights(self: _Memory, user_id: str) -> list[Insight]:
        """Async :meth:`~langgraph_memory.MemoryManager.insights`."""
        return await asyncio.to_thread(self.insights, user_id)

    async def asuccess_rates(self: _Memory, user_id: str) -> dict[str, dict[str, tuple[int, int]]]:
        """Async :meth:`~langgraph_memory.MemoryManager.success_rates`."""
        return await asyncio.to_thread(self.success_rates, user_id)

    async def aentities(self: _Memory, user_id: str) -> list[Entity]:
        """Async :meth:`~langgraph_memory.MemoryManager.entities`."""
        return await asyncio.to_thread(self.entities, user_id)

    async def arelations(self: _Memory, user_id: str, name: str) -> list[Fact]:
        """Async :meth:`~langgraph_memory.MemoryManager.relations`."""
        return await asyncio.to_thread(self.relations, user_id, name)

    async def arollups(
        self: _Memory, user_id: str, level: Literal["day", "week"] | None = None
    ) -> list[Rollup]:
        """Async :meth:`~langgraph_memory.MemoryManager.rollups`."""
        return await asyncio.to_thread(self.rollups, user_id, level)

    async def areflect(self: _Memory, user_id: str) -> tuple[list[Lesson], list[Insight]]:
        """Async :meth:`~langgraph_memory.MemoryManager.reflect`."""
        return await asyncio.to_thread(self.reflect, user_id)

    async def arun_forget_gate(
        self: _Memory,
        dry_run: bool = False,
        *,
        user_id: str | None = None,
        now: datetime | None = None,
    ) -> ForgetReport:
        """Async :meth:`~langgraph_memory.MemoryManager.run_forget_gate`."""
        return await asyncio.to_thread(self.run_forget_gate, dry_run, user_id=user_id, now=now)

    async def arun_consolidation(self: _Memory, user_id: str | None = None) -> list[Knowledge]:
        """Async :meth:`~langgraph_memory.MemoryManager.run_consolidation`."""
        return await asyncio.to_thread(self.run_consolidation, user_id)

    # -- store items and core blocks -----------------------------------------
    async def aredact(self: _Memory, value: Any, *, field: str = "value") -> Any:
        """Async :meth:`~langgraph_memory.MemoryManager.redact`."""
        return await asyncio.to_thread(self.redact, value, field=field)

    async def aredact_label(
        self: _Memory, text: str, *, field: str = "key", refuse: bool = True
    ) -> str:
        """Async :meth:`~langgraph_memory.MemoryManager.redact_label`."""
        return await asyncio.to_thread(self.redact_label, text, field=field, refuse=refuse)

    async def aget_store_item(self: _Memory, namespace: Sequence[str], key: str) -> Record | None:
        """Async :meth:`~langgraph_memory.MemoryManager.get_store_item`."""
        return await asyncio.to_thread(self.get_store_item, namespace, key)

    async def astore_items(self: _Memory, root: str | None = None) -> list[Record]:
        """Async :meth:`~langgraph_memory.MemoryManager.store_items`."""
        return await asyncio.to_thread(self.store_items, root)

    async def aput_store_item(
        self: _Memory,
        namespace: Sequence[str],
        key: str,
        data: Mapping[str, Any],
        *,
        created_at: datetime | None = None,
        updated_at: datetime | None = None,
    ) -> Record:
        """Async :meth:`~langgraph_memory.MemoryManager.put_store_item`."""
        return await asyncio.to_thread(
            self.put_store_item, namespace, key, data, created_at=created_at, updated_at=updated_at
        )

    async def arefresh_store_item(self: _Memory, record: Record, expires_at: str) -> None:
        """Async :meth:`~langgraph_memory.MemoryManager.refresh_store_item`."""
        await asyncio.to_thread(self.refresh_store_item, record, expires_at)

    async def adelete_store_item(self: _Memory, namespace: Sequence[str], key: str) -> int:
        """Async :meth:`~langgraph_memory.MemoryManager.delete_store_item`."""
        return await asyncio.to_thread(self.delete_store_item, namespace, key)

    async def adelete_store_items(self: _Memory, root: str, ids: Sequence[str]) -> int:
        """Async :meth:`~langgraph_memory.MemoryManager.delete_store_items`."""
        return await asyncio.to_thread(self.delete_store_items, root, ids)

    async def acore_block(self: _Memory, user_id: str, label: str) -> str:
        """Async :meth:`~langgraph_memory.MemoryManager.core_block`."""
        return await asyncio.to_thread(self.core_block, user_id, label)

    async def aset_core_block(self: _Memory, user_id: str, label: str, value: str) -> str:
        """Async :meth:`~langgraph_memory.MemoryManager.set_core_block`."""
        return await asyncio.to_thread(self.set_core_block, user_id, label, value)

    # -- housekeeping --------------------------------------------------------
    async def adelete_user(self: _Memory, user_id: str) -> int:
        """Async :meth:`~langgraph_memory.MemoryManager.delete_user`."""
        return await asyncio.to_thread(self.delete_user, user_id)

    async def adelete(self: _Memory, user_id: str, message_id: str | Sequence[str]) -> int:
        """Async :meth:`~langgraph_memory.MemoryManager.delete`."""
        return await asyncio.to_thread(self.delete, user_id, message_id)

    async def abackup(self: _Memory, dest: str | os.PathLike[str]) -> Path:
        """Async :meth:`~langgraph_memory.MemoryManager.backup`."""
        return await asyncio.to_thread(self.backup, dest)

    async def averify(self: _Memory) -> None:
        """Async :meth:`~langgraph_memory.MemoryManager.verify`."""
        await asyncio.to_thread(self.verify)

    async def astats(self: _Memory, user_id: str | None = None) -> dict[str, Any]:
        """Async :meth:`~langgraph_memory.MemoryManager.stats`."""
        return await asyncio.to_thread(self.stats, user_id)

    async def afailed_messages(self: _Memory, user_id: str | None = None) -> list[FailedMessage]:
        """Async :meth:`~langgraph_memory.MemoryManager.failed_messages`."""
        return await asyncio.to_thread(self.failed_messages, user_id)

    async def aretry_failed(
        self: _Memory, user_id: str, message_ids: Sequence[str] | None = None
    ) -> int:
        """Async :meth:`~langgraph_memory.MemoryManager.retry_failed`."""
        return await asyncio.to_thread(self.retry_failed, user_id, message_ids)

    async def ausers(self: _Memory) -> list[str]:
        """Async :meth:`~langgraph_memory.MemoryManager.users`."""
        return await asyncio.to_thread(self.users)

    async def awarm_up(self: _Memory, *, chinese: bool = True) -> None:
        """Async :meth:`~langgraph_memory.MemoryManager.warm_up`."""
        await asyncio.to_thread(self.warm_up, chinese=chinese)

    async def aclose(self: _Memory) -> None:
        """Async :meth:`~langgraph_memory.MemoryManager.close`."""
        await asyncio.to_thread(self.close)
