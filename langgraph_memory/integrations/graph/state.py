"""Graph state fields written by the memory nodes.

:class:`MemoryState` is a mixin: add it to your own state so the recall node's
output is kept. :class:`MemoryMessagesState` is ``MessagesState`` with it
already mixed in.

Example:
    >>> from langgraph.graph import MessagesState, StateGraph
    >>> class State(MessagesState, MemoryState):
    ...     pass
    >>> sorted(MemoryMessagesState.__annotations__)  # doctest: +NORMALIZE_WHITESPACE
    ['memory_context', 'memory_explanation', 'memory_items', 'memory_maintenance',
     'memory_sources', 'memory_thread_outline', 'messages']
    >>> builder = StateGraph(State)
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import MessagesState
from typing_extensions import TypedDict

__all__ = ["MemoryState", "MemoryMessagesState", "MEMORY_STATE_KEYS"]


class MemoryState(TypedDict, total=False):
    """The memory fields of a graph's state (a mixin; every field is optional).

    Combine it with your own state, e.g. ``class State(MessagesState, MemoryState)``.
    A state without these fields still runs, but LangGraph drops the recall
    node's output for keys it does not know.
    """

    memory_context: str
    """The rendered prompt of the last recall (``""`` when nothing was recalled)."""

    memory_sources: list[str]
    """Ids of the stored messages the last recall cites, in prompt order."""

    memory_items: list[dict[str, Any]]
    """The last recall's items: ``{"layer", "text", "source_ids", "score"}`` each."""

    memory_explanation: str
    """Why each recalled item is there (written only by ``recall_node(explain=True)``)."""

    memory_thread_outline: str
    """One line per exchange ``trim_node`` moved out of the thread, citing its ids."""

    memory_maintenance: dict[str, Any]
    """What the last ``memory_maintenance_node`` did (forgotten episodes, new knowledge)."""


class MemoryMessagesState(MessagesState, MemoryState):
    """``MessagesState`` (``messages`` with the ``add_messages`` reducer) plus :class:`MemoryState`.

    Example:
        >>> from langgraph.graph import StateGraph
        >>> builder = StateGraph(MemoryMessagesState)
    """


#: The fields :class:`MemoryState` adds to a state.
MEMORY_STATE_KEYS = ("memory_context", "memory_sources", "memory_explanation")
