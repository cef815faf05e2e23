"""The inspector as an ASGI application mounted under ``/ui`` of the service.

Its own small FastAPI app, so its errors are HTML pages (not problem documents) and its
routes stay out of the API's OpenAPI schema, sharing the service's manager, keys and
known users (:mod:`~langgraph_memory.integrations.server.ui.deps`). Without a valid key a
page redirects to the login form (401 for a bad header key, or a form posted without
one); each response carries ``Server-Timing``.

Example:
    >>> from langgraph_memory.integrations.server import create_app
    >>> app = create_app("/tmp/mem")  # doctest: +SKIP
    >>> # the pages are at http://HOST:PORT/ui/ (log in with an API key)
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from jinja2 import TemplateError
from starlette.responses import RedirectResponse, Response

from langgraph_memory.integrations.server.deps import Service
from langgraph_memory.integrations.server.problems import log, own_ids
from langgraph_memory.integrations.server.ui.audit import AUDIT_FILE, AuditLog
from langgraph_memory.integrations.server.ui.deps import (
    LoginNeeded,
    Refused,
    UiState,
    page,
    root_of,
    state_of,
)
from langgraph_memory.integrations.server.ui.pages import router
from langgraph_memory.integrations.server.ui.render import Renderer
from langgraph_memory.integrations.server.ui.session import Signer
from langgraph_memory.manager import DEFAULT_PATH

__all__ = ["create_ui", "install", "ServerTiming"]


def install(app: FastAPI) -> None:
    """The inspector's error pages."""

    @app.exception_handler(LoginNeeded)
    async def _login(request: Request, exc: LoginNeeded) -> Response:
        st = state_of(request)
        if exc.bad_header or request.method != "GET":
            return page(
                request,
                st,
                "error.html",
                status=401,
                title="Unauthorized",
                detail="the API key is missing, not valid or revoked",
                viewer=None,
            )
        nxt = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(
            f"{root_of(request)}/login?{urlencode({'next': nxt})}", status_code=303
        )

    # not ``Exception`` itself: Starlette sends that one's page and raises it again
    @app.exception_handler(ValueError)
    @app.exception_handler(TypeError)
    async def _invalid(request: Request, exc: Exception) -> Response:
        # the library names the parameter at fault (a cursor no page gave, a limit...)
        detail = own_ids(request, str(exc))
        return page(
            request,
            state_of(request),
            "error.html",
            status=422,
            title="Cannot show that",
            detail=detail,
            viewer=None,
        )

    @app.exception_handler(LookupError)
    @app.exception_handler(AttributeError)
    @app.exception_handler(RuntimeError)
    @app.exception_handler(OSError)
    @app.exception_handler(TemplateError)
    async def _internal(request: Request, exc: Exception) -> Response:
        log.error("unhandled %s on %s %s", type(exc).__name__, request.method, request.url.path)
        return page(
            request,
            state_of(request),
            "error.html",
            status=500,
            title="Internal error",
            detail=f"internal error ({type(exc).__name__})",
            viewer=None,
        )

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> Response:
        titles = {
            403: "Forbidden",
            404: "Not found",
            409: "Already done",
            413: "Too large",
            415: "Wrong form",
        }
        return page(
            request,
            state_of(request),
            "error.html",
            status=exc.status,
            title=titles.get(exc.status, "Cannot do that"),
            detail=exc.detail,
            viewer=None,
        )


class ServerTiming:
    """ASGI middleware: each response says how long the server took to make it
    (``Server-Timing: app;dur=<ms>``, shown by a browser's developer tools; read by
    ``benchmarks/inspector_pages.py``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()

        async def timed(message: Any) -> None:
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - t0) * 1000
                headers = list(message.get("headers", []))
                headers.append((b"server-timing", f"app;dur={ms:.2f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed)


def create_ui(service: Service, state_dir: str | os.PathLike[str] | None = None) -> FastAPI:
    """The inspector's app for a service (mount it at ``/ui``).

    Args:
        service: The service's manager, keys, known users and settings.
        state_dir: Where the login secret and the audit list are kept; default: beside
            the keys file, or (keys in PostgreSQL) ``$LANGGRAPH_MEMORY_PATH`` or
            ``./.langgraph_memory``.

    Returns:
        A FastAPI app without docs or OpenAPI of its own.

    Example:
        >>> app.mount("/ui", create_ui(app.state.service))  # doctest: +SKIP
    """
    if state_dir is None:
        key_path = getattr(service.keys, "path", None)
        state_dir = (
            Path(key_path).parent
            if key_path is not None
            else Path(os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
        )
    ui = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    ui.state.ui = UiState(
        service,
        Signer(service.keys, directory=Path(state_dir)),
        Renderer(),
        AuditLog(Path(state_dir) / AUDIT_FILE),
    )
    install(ui)
    ui.include_router(router)
    ui.add_middleware(ServerTiming)
    return ui
