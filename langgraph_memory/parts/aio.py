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

__all__ = ["awaitable", "AsyncPart"]

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
