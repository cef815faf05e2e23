"""The texts a process keeps in memory to read them faster, and how a deletion drops them.

Readers keep what they read last (a message's sentences, its cues, its words, an
entry's terms) so that the next reader of the same text does not read it again. Each
such cache is made with :func:`text_cache` (or, for a cache that is not an
``lru_cache``, given to :func:`register`), and :func:`forget_texts` empties them all:
a deletion calls it, so no deleted message's text stays in the process by way of a
cache. Only speed is lost; the texts are read again when asked.

A test lists every ``lru_cache`` of the package: each is either made here or named
there as holding no user text (a model's files, a constant's tables).

Example:
    >>> @text_cache(maxsize=8)
    ... def shout(text: str) -> str:
    ...     return text.upper()
    >>> shout("a secret plan")
    'A SECRET PLAN'
    >>> forget_texts()
    >>> shout.cache_info().currsize
    0
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

__all__ = ["text_cache", "register", "forget_texts", "registered"]

_F = TypeVar("_F", bound=Callable[..., Any])

_lock = threading.Lock()
#: What empties each cache that holds texts, by name (module and function).
_clears: dict[str, Callable[[], None]] = {}


def register(name: str, clear: Callable[[], None]) -> None:
    """Have :func:`forget_texts` call ``clear`` (a cache's own way to empty itself)."""
    with _lock:
        _clears[name] = clear


def text_cache(maxsize: int) -> Callable[[_F], _F]:
    """``functools.lru_cache(maxsize)`` for a function of texts, emptied by
    :func:`forget_texts`."""

    def wrap(fn: _F) -> _F:
        cached = lru_cache(maxsize=maxsize)(fn)
        register(f"{fn.__module__}.{fn.__qualname__}", cached.cache_clear)
        return cached  # type: ignore[return-value]

    return wrap


def registered() -> list[str]:
    """The names of the caches :func:`forget_texts` empties."""
    with _lock:
        return sorted(_clears)


def forget_texts() -> None:
    """Empty every cache of texts in this process (a deletion calls it)."""
    with _lock:
        clears = list(_clears.values())
    for clear in clears:
        clear()
