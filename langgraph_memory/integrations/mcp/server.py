"""An MCP server over a memory: tools to remember, recall, search, list and forget.

``create_mcp_server(mm, user_id="alice")`` scopes every tool to one user (the tools'
``user_id`` argument may then only repeat it); without ``user_id`` each call names its
user. The memory is a :class:`~langgraph_memory.MemoryManager`, or a
:class:`~langgraph_memory.RemoteMemory` on a running ``langgraph-memory serve`` (its
key's tenant's users are the ones reached). Tool errors (bad input, a user the server is
not scoped to) are reported to the model as tool errors with the manager's message, which
names the field.

The server runs on stdio (``server.run("stdio")``, what a desktop client launches) or
over streamable HTTP (:func:`create_mcp_http_app`, served by uvicorn).

Example:
    >>> from langgraph_memory import MemoryManager
    >>> server = create_mcp_server(MemoryManager("./mem"), user_id="alice")  # doctest: +SKIP
    >>> server.run("stdio")  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings

from langgraph_memory import __version__
from langgraph_memory.manager import MemoryManager

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from langgraph_memory.integrations.remote import RemoteMemory

__all__ = ["create_mcp_server", "create_mcp_http_app", "DEFAULT_SESSION", "UserMap", "MCP_PATH"]

#: The session messages remembered through MCP go to when the call names none.
DEFAULT_SESSION = "mcp"
#: The path the streamable HTTP endpoint answers on.
MCP_PATH = "/mcp"
#: Maps a tool call's user to the store's user: ``(the call's HTTP request or None,
#: the user id the call names) -> the store's user id``. Raises ``PermissionError`` when
#: the request may not reach any user, ``ValueError`` naming ``user_id`` for a bad one.
UserMap = Callable[[Any, str], str]

_F = TypeVar("_F", bound=Callable[..., Awaitable[Any]])
# (store user id, the caller's id of it) of the running tool call: errors show the latter
_shown: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "langgraph_memory_mcp_user", default=None
)


def _as_tool_errors(fn: _F) -> _F:
    """Bad input becomes a tool error with the manager's message (which names the field,
    never the text), so the model can correct its call; anything else stays opaque."""

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = _shown.set(None)
        try:
            return await fn(*args, **kwargs)
        except (ValueError, TypeError, KeyError, PermissionError) as exc:
            message = str(exc)
            pair = _shown.get()
            if pair is not None and pair[0] != pair[1]:
                message = message.replace(pair[0], pair[1])
            raise ToolError(message) from None
        finally:
            _shown.reset(token)

    return wrapper  # type: ignore[return-value]


def _is_remote(memory: Any) -> bool:
    try:
        from langgraph_memory.integrations.remote import RemoteMemory
    except ImportError:  # pragma: no cover - remote.py needs nothing at import
        return False
    return isinstance(memory, RemoteMemory)


def create_mcp_server(
    memory: MemoryManager | RemoteMemory,
    *,
    user_id: str | None = None,
    user_map: UserMap | None = None,
) -> MCPServer:
    """An MCP server whose tools read and write ``memory``.

    Args:
        memory: The manager the tools use (left open; the caller closes it), or a
            :class:`~langgraph_memory.RemoteMemory` on a running service.
        user_id: Scope every tool to this user; ``None``: each call passes ``user_id``.
        user_map: How a call's user becomes the store's (see :data:`UserMap`); the
            service's ``/mcp`` endpoint passes one that prefixes the key's tenant.
            Default: the user id as given.

    Returns:
        An ``mcp`` ``MCPServer`` (run it with ``.run("stdio")``, or serve
        :func:`create_mcp_http_app`).

    Raises:
        TypeError: When ``memory`` is neither a manager nor a ``RemoteMemory``.

    Example:
        >>> server = create_mcp_server(MemoryManager("./mem"))  # doctest: +SKIP
        >>> server.run("stdio")  # doctest: +SKIP
    """
    remote = _is_remote(memory)
    if not remote and not isinstance(memory, MemoryManager):
        raise TypeError(
            f"memory must be a MemoryManager or a RemoteMemory, got {type(memory).__name__}"
        )
    amm: Any = memory.aio
    scoped = user_id

    def who(asked: str | None, ctx: Context) -> tuple[str, str]:
        """(the store's user id, the caller's id of it) of a call."""
        if scoped is not None:
            if asked not in (None, "", scoped):
                raise ValueError(f"user_id: this server is scoped to one user ({scoped!r})")
            asked = scoped
        elif not asked:
            raise ValueError("user_id is needed (this server is not scoped to one user)")
        if user_map is None:
            uid = asked
        else:
            uid = user_map(_request_of(ctx), asked)
        _shown.set((uid, asked))
        return uid, asked

    # the SDK's server calls logging.basicConfig; a library leaves the application's
    # logging as it found it (the service's, a notebook's)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        server = MCPServer(
            name="langgraph-memory",
            version=__version__,
            instructions=(
                "Long-term memory of the user: `remember` what they tell you that matters, "
                "`recall` before answering (a budgeted, cited context), `search` for specific "
                "memories, `list` what is known about them, `forget` a message by id."
            ),
        )
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)

    @server.tool(name="remember")
    @_as_tool_errors
    async def remember(
        content: str,
        ctx: Context,
        user_id: str | None = None,
        session_id: str = DEFAULT_SESSION,
        role: str = "user",
    ) -> dict[str, Any]:
        """Store a message in the user's memory; returns its id (searchable shortly after)."""
        uid, shown = who(user_id, ctx)
        mid = await amm.add_message(uid, session_id, role, content)
        return {"message_id": mid, "user_id": shown}

    @server.tool(name="recall")
    @_as_tool_errors
    async def recall(
        query: str,
        ctx: Context,
        user_id: str | None = None,
        session_id: str = DEFAULT_SESSION,
        token_budget: int = 1000,
    ) -> str:
        """The memories relevant to a question, as a cited context within a token budget."""
        uid, _ = who(user_id, ctx)
        await amm.flush(timeout=30)
        context = await amm.build_context(uid, session_id, query, token_budget)
        return context.to_prompt() or "(nothing remembered about this)"

    @server.tool(name="search")
    @_as_tool_errors
    async def search(
        query: str, ctx: Context, user_id: str | None = None, k: int = 5
    ) -> list[dict[str, Any]]:
        """Hybrid search over the user's memory: the best ``k`` hits with their ids."""
        uid, _ = who(user_id, ctx)
        await amm.flush(timeout=30)
        hits = await amm.search(uid, query, k)
        return [
            {"id": h.id, "layer": h.layer, "text": h.text, "score": round(h.score, 4),
             "source_ids": h.source_ids}
            for h in hits
        ]  # fmt: skip

    @server.tool(name="list")
    @_as_tool_errors
    async def list_memories(ctx: Context, user_id: str | None = None) -> list[dict[str, Any]]:
        """What the memory holds about the user: standing instructions, preferences and
        current facts, each with the message ids it came from."""
        uid, _ = who(user_id, ctx)
        await amm.flush(timeout=30)
        out: list[dict[str, Any]] = []
        if remote:
            anchors: list[dict[str, Any]] = await asyncio.to_thread(memory.anchors.list, uid)  # type: ignore[arg-type]
            out += [{"kind": "instruction", "id": a["id"], "text": a["text"]} for a in anchors]
        else:
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
    async def forget(message_id: str, ctx: Context, user_id: str | None = None) -> dict[str, int]:
        """Delete a message and everything made from it; returns how many were deleted."""
        uid, _ = who(user_id, ctx)
        return {"deleted": await amm.delete(uid, message_id)}

    return server


def _request_of(ctx: Context) -> Any:
    """The HTTP request a tool call came in (``None`` on stdio or in process)."""
    try:
        return ctx.request_context.request
    except ValueError:  # no request context (called outside a request)
        return None


def create_mcp_http_app(
    memory: MemoryManager | RemoteMemory,
    *,
    user_id: str | None = None,
    host: str = "127.0.0.1",
    path: str = MCP_PATH,
) -> Starlette:
    """The tools of :func:`create_mcp_server` over streamable HTTP, as an ASGI app.

    Stateless (each request stands alone, so several processes can serve one store)
    and answering in JSON. On a loopback ``host`` it refuses requests whose ``Host`` or
    ``Origin`` is not loopback (DNS rebinding); it checks no key (for keys and tenants
    use ``langgraph-memory serve``, whose ``/mcp`` is these tools behind its keys).

    Args:
        memory: The manager or :class:`~langgraph_memory.RemoteMemory` the tools use.
        user_id: Scope every tool to this user.
        host: The interface it will be served on (sets the DNS-rebinding guard).
        path: The endpoint's path (default ``/mcp``).

    Returns:
        A Starlette app; serve it with ``uvicorn.run(app, host=host, port=...)``.

    Example:
        >>> app = create_mcp_http_app(MemoryManager("./mem"))  # doctest: +SKIP
        >>> import uvicorn; uvicorn.run(app, port=8421)  # doctest: +SKIP
    """
    server = create_mcp_server(memory, user_id=user_id)
    security = None
    if host not in ("127.0.0.1", "localhost", "::1"):
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=True,
        json_response=True,
        transport_security=security,
        host=host,
    )
