"""LangMem-style ``manage_memory`` / ``search_memory`` tools over any LangGraph store.

The namespace is a template filled from ``config["configurable"]`` at call time
(``("memories", "{user_id}")`` keeps each user's memories apart). The store is
the one given, or — inside a running graph compiled with ``store=`` — the
graph's store (``langgraph.config.get_store()``). With a
:class:`~langgraph_memory.integrations.graph.store.MemoryStore`, ``search_memory`` ranks by
hybrid BM25 + dense search.

Example:
    >>> from langgraph.prebuilt import create_react_agent
    >>> tools = [create_manage_memory_tool(), create_search_memory_tool()]
    >>> agent = create_react_agent(model, tools, store=MemoryStore(mm))  # doctest: +SKIP
    >>> agent.invoke({"messages": [("user", "Remember: I like tea")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice"}})
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import StructuredTool, ToolException
from langgraph.config import get_store
from langgraph.store.base import BaseStore

from langgraph_memory.sensitivity.policy import SensitiveContentError

__all__ = ["create_manage_memory_tool", "create_search_memory_tool", "DEFAULT_NAMESPACE"]

#: The default namespace template: one namespace per user.
DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")

Action = Literal["create", "update", "delete"]


def _namespace(template: Sequence[str], config: RunnableConfig | None) -> tuple[str, ...]:
    """Fill ``{placeholders}`` in the template from ``config["configurable"]``."""
    configurable = (config or {}).get("configurable") or {}
    try:
        return tuple(label.format(**configurable) for label in template)
    except KeyError as exc:
        raise ValueError(
            f"namespace {tuple(template)} needs config['configurable'][{exc.args[0]!r}]; "
            "pass it when invoking the graph"
        ) from None


def _store(store: BaseStore | None) -> BaseStore:
    if store is not None:
        return store
    try:
        return get_store()
    except RuntimeError as exc:
        raise RuntimeError(
            "no store: pass store=... to the tool factory, or run the tool inside a graph "
            "compiled with a store (e.g. create_react_agent(..., store=MemoryStore(mm)))"
        ) from exc


def _put_args(
    content: str | None,
    action: Action,
    id: str | None,  # noqa: A002 - LangMem's name
) -> tuple[str, dict[str, Any] | None, str]:
    if action == "delete":
        if not id:
            raise ValueError("delete needs the id of the memory to delete")
        return id, None, f"Deleted memory {id}"
    if not content:
        raise ValueError(f"{action} needs the content of the memory")
    if action == "update" and not id:
        raise ValueError("update needs the id of the memory to update")
    key = id or str(uuid.uuid4())
    verb = "Updated" if action == "update" else "Created"
    return key, {"content": content}, f"{verb} memory {key}"


def create_manage_memory_tool(
    namespace: Sequence[str] = DEFAULT_NAMESPACE,
    *,
    store: BaseStore | None = None,
    name: str = "manage_memory",
) -> StructuredTool:
    """A tool to create, update or delete a memory (``{"content": ...}`` items).

    Args:
        namespace: Namespace template, filled from ``config["configurable"]``.
        store: The store; default: the running graph's store.
        name: The tool's name.

    Returns:
        A sync + async ``StructuredTool``.
    """

    def manage_memory(
        config: RunnableConfig,
        content: str | None = None,
        action: Action = "create",
        id: str | None = None,  # noqa: A002
    ) -> str:
        key, value, message = _put_args(content, action, id)
        ns = _namespace(namespace, config)
        target = _store(store)
        try:
            if value is None:
                target.delete(ns, key)
            else:
                target.put(ns, key, value)
        except SensitiveContentError as exc:  # the memory's policy: the model's answer
            raise ToolException(f"Error: nothing was stored: {exc}") from exc
        return message

    async def amanage_memory(
        config: RunnableConfig,
        content: str | None = None,
        action: Action = "create",
        id: str | None = None,  # noqa: A002
    ) -> str:
        key, value, message = _put_args(content, action, id)
        ns = _namespace(namespace, config)
        target = _store(store)
        try:
            if value is None:
                await target.adelete(ns, key)
            else:
                await target.aput(ns, key, value)
        except SensitiveContentError as exc:  # the memory's policy: the model's answer
            raise ToolException(f"Error: nothing was stored: {exc}") from exc
        return message

    return StructuredTool.from_function(
        manage_memory,
        coroutine=amanage_memory,
        name=name,
        description=(
            "Create, update or delete a long-term memory. Create one for facts, preferences "
            "and decisions worth keeping; update it (with its id) when it changes; delete it "
            "when it is wrong."
        ),
        handle_tool_error=True,
    )


def create_search_memory_tool(
    namespace: Sequence[str] = DEFAULT_NAMESPACE,
    *,
    store: BaseStore | None = None,
    name: str = "search_memory",
) -> StructuredTool:
    """A tool to search the memories in a namespace.

    Args:
        namespace: Namespace template, filled from ``config["configurable"]``.
        store: The store; default: the running graph's store.
        name: The tool's name.

    Returns:
        A sync + async ``StructuredTool`` returning a JSON list of
        ``{"id", "value", "score"}``, best first.
    """

    def render(items: Sequence[Any]) -> str:
        return json.dumps(
            [{"id": i.key, "value": i.value, "score": i.score} for i in items],
            ensure_ascii=False,
        )

    def search_memory(
        config: RunnableConfig,
        query: str,
        limit: int = 10,
        offset: int = 0,
        filter: dict[str, Any] | None = None,  # noqa: A002
    ) -> str:
        ns = _namespace(namespace, config)
        found = _store(store).search(ns, query=query, limit=limit, offset=offset, filter=filter)
        return render(found)

    async def asearch_memory(
        config: RunnableConfig,
        query: str,
        limit: int = 10,
        offset: int = 0,
        filter: dict[str, Any] | None = None,  # noqa: A002
    ) -> str:
        ns = _namespace(namespace, config)
        found = await _store(store).asearch(
            ns, query=query, limit=limit, offset=offset, filter=filter
        )
        return render(found)

    return StructuredTool.from_function(
        search_memory,
        coroutine=asearch_memory,
        name=name,
        description="Search your long-term memories about the user by meaning and keywords.",
    )
