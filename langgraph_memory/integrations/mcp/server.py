"""An MCP server over a manager: tools to remember, recall, search, list and forget.

``create_mcp_server(mm, user_id="alice")`` scopes every tool to one user (the tools'
``user_id`` argument may then only repeat it); without ``user_id`` each call names its
user. Tool errors (bad input, a user the server is not scoped to) are reported to the
model as tool errors with the manager's message, which names the field.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> server = create_mcp_server(MemoryManager("./mem"), user_id="alice")  # doctest: +SKIP
    >>> server.run("stdio")  # doctest: +SKIP
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from langgraph_memory import __version__
from langgraph_memory.manager import MemoryManager

__all__ = ["create_mcp_server", "DEFAULT_SESSION"]

#: The session messages remembered through MCP go to when the call names none.
DEFAULT_SESSION = "mcp"
_F = TypeVar("_F", bound=Callable[..., Awaitable[Any]])


def _as_tool_errors(fn: _F) -> _F:
    """Bad input becomes a tool error with the manager's message (which names the field,
    never the text), so the model can correct its call; anything else stays opaque."""

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except (ValueError, TypeError, KeyError) as exc:
            raise ToolError(str(exc)) from None

    return wrapper  # type: ignore[return-value]


def create_mcp_server(memory: MemoryManager, *, user_id: str | None = None) -> MCPServer:
    """An MCP server whose tools read and write ``memory``.

    Args:
        memory: The manager the tools use (left open; the caller closes it).
        user_id: Scope every tool to this user; ``None``: each call passes ``user_id``.

    Returns:
        An ``mcp`` ``MCPServer`` (run it with ``.run("stdio")``).

    Raises:
        TypeError: When ``memory`` is not a :class:`~langgraph_memory.MemoryManager`.
    """
    if not isinstance(memory, MemoryManager):
        raise TypeError(f"memory must be a MemoryManager, got {type(memory).__name__}")
    amm = memory.aio
    scoped = user_id

    def who(asked: str | None) -> str:
        if scoped is not None:
            if asked not in (None, "", scoped):
                raise ValueError(f"user_id: this server is scoped to one user ({scoped!r})")
            return scoped
        if not asked:
            raise ValueError("user_id is needed (this server is not scoped to one user)")
        return asked

    server = MCPServer(
        name="langgraph-memory",
        version=__version__,
        instructions=(
            "Long-term memory of the user: `remember` what they tell you that matters, "
            "`recall` before answering (a budgeted, cited context), `search` for specific "
            "memories, `list` what is known about them, `forget` a message by id."
        ),
    )

    @server.tool(name="remember")
    @_as_tool_errors
    async def remember(
        content: str,
        user_id: str | None = None,
        session_id: str = DEFAULT_SESSION,
        role: str = "user",
    ) -> dict[str, Any]:
        """Store a message in the user's memory; returns its id (searchable shortly after)."""
        uid = who(user_id)
        mid = await amm.add_message(uid, session_id, role, content)
        return {"message_id": mid, "user_id": uid}

    @server.tool(name="recall")
    @_as_tool_errors
    async def recall(
        query: str,
        user_id: str | None = None,
        session_id: str = DEFAULT_SESSION,
        token_budget: int = 1000,
    ) -> str:
        """The memories relevant to a question, as a cited context within a token budget."""
        await amm.flush(timeout=30)
        ctx = await amm.build_context(who(user_id), session_id, query, token_budget)
        return ctx.to_prompt() or "(nothing remembered about this)"

    @server.tool(name="search")
    @_as_tool_errors
    async def search(query: str, user_id: str | None = None, k: int = 5) -> list[dict[str, Any]]:
        """Hybrid search over the user's memory: the best ``k`` hits with their ids."""
        await amm.flush(timeout=30)
        hits = await amm.search(who(user_id), query, k)
        return [
            {"id": h.id, "layer": h.layer, "text": h.text, "score": round(h.score, 4),
             "source_ids": h.source_ids}
            for h in hits
        ]  # fmt: skip

    @server.tool(name="list")
    @_as_tool_errors
    async def list_memories(user_id: str | None = None) -> list[dict[str, Any]]:
        """What the memory holds about the user: standing instructions, preferences and
        current facts, each with the message ids it came from."""
        uid = who(user_id)
        await amm.flush(timeout=30)
        out: list[dict[str, Any]] = []
        for a in await amm.anchors.list(uid):
            out.append({"kind": "instruction", "id": a.id, "text": a.text})
        for p in await amm.profile.preferences(uid):
            out.append({"kind": "preference", "id": p.id, "text": f"{p.key}: {p.value}",
                        "confidence": p.confidence, "source_ids": p.source_ids})  # fmt: skip
        for f in await amm.profile.facts(uid, current=True):
            out.append({"kind": "fact", "id": f.id, "text": f"{f.subject} {f.relation} {f.object}",
                        "source_ids": list(getattr(f, "source_ids", []))})  # fmt: skip
        return out

    @server.tool(name="forget")
    @_as_tool_errors
    async def forget(message_id: str, user_id: str | None = None) -> dict[str, int]:
        """Delete a message and everything made from it; returns how many were deleted."""
        return {"deleted": await amm.delete(who(user_id), message_id)}

    return server
