"""Taking turns with the caller's threads: foreground calls and yielding the GIL.

The library's background threads (the embedding worker, placement, promotion) run
pure Python beside the caller's threads. :data:`foreground` counts the library's
calls running on callers' threads; background loops call :func:`yield_gil` once per
item so that such a call is not held up by the GIL's switch interval. Those threads
mark themselves (:func:`mark_background`), so that shared resources (the model's
streams) can serve every other thread first (:func:`in_background`).

Example:
    >>> with foreground():
    ...     foreground.active
    True
    >>> foreground.active
    False
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

__all__ = ["foreground", "in_foreground", "yield_gil", "mark_background", "in_background"]


class _Foreground:
    """Counts the library's calls running on callers' threads in this process.

    Background loops yield the GIL (see :func:`yield_gil`) only while such a call
    is running: yielding costs about 0.1 ms per ``time.sleep(0)`` even when no
    thread waits, which was a fifth of the worker's own time while ingesting alone.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0

    @property
    def active(self) -> bool:
        """Whether a foreground call is running now."""
        return self._active > 0

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            self._active += 1
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1


#: Entered by ``add_message``, ``search``, ``build_context`` and their kin.
foreground = _Foreground()

_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_foreground(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` as a foreground call (background loops yield the GIL meanwhile)."""

    @wraps(fn)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with foreground():
            return fn(*args, **kwargs)

    return call


def yield_gil() -> None:
    """Let a waiting caller's thread run now, when a foreground call is running.

    A thread running pure Python keeps the GIL until another thread has waited
    ``sys.getswitchinterval()`` (5 ms) for it. Threads that release the GIL often
    (a reader between SQLite and numpy calls, ``add_message`` between statements)
    then wait up to 5 ms at every step: ``build_context`` took 1 s instead of
    5 ms next to a thread extracting memories, and 35 ms when that thread yielded
    after each message. Long loops of background work call this once per item;
    ``time.sleep(0)`` releases the GIL, and is skipped (it costs ~0.1 ms) when no
    call of the library's API is running in this process (see :data:`foreground`).

    Example:
        >>> with foreground():
        ...     foreground.active
        True
        >>> foreground.active
        False
    """
    if foreground.active:
        time.sleep(0)


_thread_kind = threading.local()


def mark_background() -> None:
    """Mark the calling thread as one of the library's background threads (the worker's;
    a thread pool's ``initializer``)."""
    _thread_kind.background = True


def in_background() -> bool:
    """Whether the calling thread was marked by :func:`mark_background`.

    Example:
        >>> in_background()
        False
    """
    return bool(getattr(_thread_kind, "background", False))
