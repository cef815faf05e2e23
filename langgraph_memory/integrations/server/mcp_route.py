"""The MCP tools inside the service: ``/mcp`` (streamable HTTP) behind the same keys.

:func:`mount_mcp` adds ``/mcp`` to the application when the ``mcp`` SDK is installed:
the tools of :func:`~langgraph_memory.integrations.mcp.create_mcp_server`, stateless
(any service process answers any request), each request checked for an
``Authorization: Bearer KEY`` of a tenant before the SDK sees it (401 problem details
otherwise), and each tool's ``user_id`` mapped through the tenancy as the REST routes
map theirs: a key reaches its own tenant's users only, another tenant's user is just a
user this tenant has no memory of.

Example:
    >>> from langgraph_memory.integrations.server import create_app  # doctest: +SKIP
    >>> app = create_app("./mem")  # /mcp is there when `mcp` is installed  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from langgraph_memory.integrations.server.deps import Service
from langgraph_memory.integrations.server.problems import ProblemError, problem_response
from langgraph_memory.integrations.server.tenancy import store_user_id

__all__ = ["mount_mcp", "MCP_PATH", "TENANT_KEY"]

#: Where the service answers MCP.
MCP_PATH = "/mcp"
#: The ASGI scope key the checked tenant of a ``/mcp`` request rides under.
TENANT_KEY = "langgraph_memory.tenant"


def _tenant_user(request: Any, user_id: str) -> str:
    """The store's id of ``user_id`` of the tenant whose key the request carried."""
    tenant = getattr(request, "scope", {}).get(TENANT_KEY) if request is not None else None
    if not tenant:
        raise PermissionError("an API key is needed: send Authorization: Bearer KEY")
    try:
        return store_user_id(tenant, user_id)
    except ProblemError as exc:
        raise ValueError(exc.detail) from None


class _KeyedMCP:
    """The SDK's streamable HTTP endpoint, reached only with a tenant's key."""

    def __init__(self, service: Service, server: Any) -> None:
        self._service = service
        self._server = server
        self._manager: Any = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run a session manager for one life of the app (the SDK's runs once each)."""
        from mcp.server.transport_security import TransportSecuritySettings

        self._server.streamable_http_app(  # makes a fresh session manager
            stateless_http=True,
            json_response=True,
            # every request needs a key: a page rebinding DNS to the service has none
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        manager = self._server.session_manager
        async with manager.run():
            self._manager = manager
            try:
                yield
            finally:
                self._manager = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        auth = request.headers.get("authorization", "")
        scheme, _, key = auth.partition(" ")
        tenant = self._service.keys.tenant_of(key.strip()) if scheme.lower() == "bearer" else None
        if tenant is None:
            detail = (
                "the API key is not valid"
                if auth
                else "an API key is needed: send Authorization: Bearer KEY"
            )
            response = problem_response(
                request, 401, detail, slug="unauthorized", headers={"WWW-Authenticate": "Bearer"}
            )
            await response(scope, receive, send)
            return
        if self._manager is None:
            response = problem_response(request, 503, "the service is starting", slug="not-ready")
            await response(scope, receive, send)
            return
        scope[TENANT_KEY] = tenant
        await self._manager.handle_request(scope, receive, send)


def mount_mcp(app: FastAPI, path: str = MCP_PATH) -> bool:
    """Serve the MCP tools at ``path`` of ``app`` behind its keys.

    Args:
        app: An application of :func:`~langgraph_memory.integrations.server.create_app`.
        path: Where (default ``/mcp``).

    Returns:
        ``False`` (and nothing mounted) when the ``mcp`` SDK is not installed.

    Example:
        >>> mount_mcp(app)  # doctest: +SKIP
        True
    """
    try:
        from langgraph_memory.integrations.mcp.server import create_mcp_server
    except ImportError:
        return False
    service: Service = app.state.service
    endpoint = _KeyedMCP(service, create_mcp_server(service.memory, user_map=_tenant_user))
    # an ASGI app as the endpoint (Starlette passes it scope, receive, send)
    app.add_route(path, endpoint, methods=["GET", "POST", "DELETE"], include_in_schema=False)  # type: ignore[arg-type]
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with endpoint.running(), inner(a) as state:
            yield state

    app.router.lifespan_context = lifespan
    return True
