"""The one async mechanism: an awaitable twin of a method, generated from it.

:func:`awaitable` turns a sync method into a coroutine method with the same parameters
(the same signature, docstring and types, checked by mypy) that runs it on a worker
thread (``asyncio.to_thread``), so an event loop never blocks on storage or on the
model. Each part of a :class:`~langgraph_memory.MemoryManager` has an async view made
of such twins (:class:`AsyncTasks`, ...), and
:class:`~langgraph_memory.AsyncMemoryManager` is the manager's; real async is written
by hand only where it pays (``search`` and ``build_context`` await the attached vector
stores on the caller's loop).

Example:
    >>> import asyncio
    >>> class Greeter:
    ...     def hello(self, name: str) -> str:
    ...         return f"hello {name}"
    >>> class AsyncGreeter(AsyncPart[Greeter]):
    ...     hello = awaitable(Greeter.hello)
    >>> asyncio.run(AsyncGreeter(Greeter()).hello("ann"))
    'hello ann'
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from langgraph_memory.parts.anchors import Anchors
from langgraph_memory.parts.documents import Documents
from langgraph_memory.parts.items import Items
from langgraph_memory.parts.maintenance import Maintenance
from langgraph_memory.parts.profile import Profile
from langgraph_memory.parts.tasks import Tasks

__all__ = [
    "awaitable",
    "AsyncPart",
    "AsyncTasks",
    "AsyncAnchors",
    "AsyncProfile",
    "AsyncDocuments",
    "AsyncMaintenance",
    "AsyncItems",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")


def awaitable(
    method: Callable[Concatenate[_T, _P], _R],
) -> Callable[Concatenate[Any, _P], Coroutine[Any, Any, _R]]:
    """The awaitable twin of ``method``: the same parameters, run on a worker thread.

    The twin is a method of an async view whose ``sync`` attribute holds the object
    ``method`` belongs to.
    """

    @functools.wraps(method)
    async def twin(self: Any, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return await asyncio.to_thread(method, self.sync, *args, **kwargs)

    return twin


class AsyncPart(Generic[_T]):
    """An async view of a part: each method awaits the part's own on a worker thread.

    Args:
        sync: The part.
    """

    def __init__(self, sync: _T) -> None:
        #: The part this view awaits.
        self.sync = sync


class AsyncTasks(AsyncPart[Tasks]):
    """Awaitable ``mm.tasks`` (see :class:`~langgraph_memory.parts.tasks.Tasks`)."""

    start = awaitable(Tasks.start)
    step = awaitable(Tasks.step)
    update_step = awaitable(Tasks.update_step)
    get = awaitable(Tasks.get)
    current = awaitable(Tasks.current)
    complete = awaitable(Tasks.complete)
    episodes = awaitable(Tasks.episodes)
    lessons = awaitable(Tasks.lessons)
    knowledge = awaitable(Tasks.knowledge)
    success_rates = awaitable(Tasks.success_rates)


class AsyncAnchors(AsyncPart[Anchors]):
    """Awaitable ``mm.anchors`` (see :class:`~langgraph_memory.parts.anchors.Anchors`)."""

    add = awaitable(Anchors.add)
    list = awaitable(Anchors.list)
    remove = awaitable(Anchors.remove)


class AsyncProfile(AsyncPart[Profile]):
    """Awaitable ``mm.profile`` (see :class:`~langgraph_memory.parts.profile.Profile`)."""

    feedback = awaitable(Profile.feedback)
    preferences = awaitable(Profile.preferences)
    facts = awaitable(Profile.facts)
    entities = awaitable(Profile.entities)
    relations = awaitable(Profile.relations)
    insights = awaitable(Profile.insights)
    rollups = awaitable(Profile.rollups)


class AsyncDocuments(AsyncPart[Documents]):
    """Awaitable ``mm.documents`` (see
    :class:`~langgraph_memory.parts.documents.Documents`)."""

    add = awaitable(Documents.add)
    remove = awaitable(Documents.remove)
    list = awaitable(Documents.list)
    chunks = awaitable(Documents.chunks)
    search = awaitable(Documents.search)
    attach = awaitable(Documents.attach)
    detach = awaitable(Documents.detach)
    attached = awaitable(Documents.attached)


class AsyncMaintenance(AsyncPart[Maintenance]):
    """Awaitable ``mm.maintenance`` (see
    :class:`~langgraph_memory.parts.maintenance.Maintenance`)."""

    forget = awaitable(Maintenance.forget)
    consolidate = awaitable(Maintenance.consolidate)
    reflect = awaitable(Maintenance.reflect)
    verify = awaitable(Maintenance.verify)
    failed = awaitable(Maintenance.failed)
    retry_failed = awaitable(Maintenance.retry_failed)
    users = awaitable(Maintenance.users)
    warm_up = awaitable(Maintenance.warm_up)
    redact = awaitable(Maintenance.redact)


class AsyncItems(AsyncPart[Items]):
    """Awaitable ``mm.items`` (see :class:`~langgraph_memory.parts.items.Items`)."""

    get = awaitable(Items.get)
    list = awaitable(Items.list)
    put = awaitable(Items.put)
    refresh = awaitable(Items.refresh)
    delete = awaitable(Items.delete)
    delete_many = awaitable(Items.delete_many)
    delete_user = awaitable(Items.delete_user)
    core_block = awaitable(Items.core_block)
    set_core_block = awaitable(Items.set_core_block)
    label = awaitable(Items.label)
