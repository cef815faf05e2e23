"""Errors as RFC 9457 problem details (``application/problem+json``), one handler each.

The library's ``ValueError``/``TypeError`` (bad input, named by its field) become 422,
a request body the schema refuses 422 with every field at fault, an unknown key 401,
a user or item the caller's tenant does not have 404, a body or batch over its limit 413,
a key that may not do what it asks 403 (a non-admin key on ``/v1/admin``, a key bound
to other agents), a ``TimeoutError`` 504, a write queue that is full or unreachable 503
with ``Retry-After`` (:class:`~langgraph_memory.integrations.queue.QueueError`), and
anything else 500 without its message (which could hold what the caller must not see).

Example:
    >>> field_of("content must not be empty (it holds only invisible characters)")
    'content'
    >>> field_of("messages[3].content is too long")
    'messages[3].content'
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from langgraph_memory.integrations.queue.broker import QueueError, QueueFull

__all__ = [
    "ProblemError",
    "problem_response",
    "install_handlers",
    "field_of",
    "own_ids",
    "PROBLEM_JSON",
]

PROBLEM_JSON = "application/problem+json"
_FIELD_RE = re.compile(r"([A-Za-z_][\w]*(?:\[\d+\])?(?:\.[\w]+(?:\[\d+\])?)*)\b")
_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Content too large",
    422: "Unprocessable content",
    500: "Internal server error",
    501: "Not implemented",
    503: "Service unavailable",
    504: "Gateway timeout",
}
log = logging.getLogger("langgraph_memory.server")


class ProblemError(Exception):
    """An error the service answers with a problem document.

    Args:
        status: The HTTP status.
        detail: What went wrong, for a human.
        field: The request field at fault, if any.
        slug: A short name of the problem type (``/problems/<slug>``).
    """

    def __init__(
        self, status: int, detail: str, *, field: str | None = None, slug: str | None = None
    ) -> None:
        super().__init__(detail)
        self.status, self.detail, self.field, self.slug = status, detail, field, slug


def field_of(message: str) -> str | None:
    """The field a library error message names first (its first word, as they all start)."""
    m = _FIELD_RE.match(message)
    return m.group(1) if m else None


def problem_response(
    request: Request,
    status: int,
    detail: str | None,
    *,
    field: str | None = None,
    slug: str | None = None,
    errors: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """A problem+json response for ``request``."""
    body: dict[str, Any] = {
        "type": f"/problems/{slug}" if slug else "about:blank",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "instance": request.url.path,
    }
    if field is not None:
        body["field"] = field
    if errors is not None:
        body["errors"] = errors
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def own_ids(request: Request, text: str) -> str:
    """``text`` with the store's user id (``tenant:user``) shown as the caller's own."""
    store_uid = getattr(request.state, "store_uid", None)
    user_id = getattr(request.state, "user_id", None)
    if store_uid and user_id is not None:
        text = text.replace(store_uid, user_id)
    return text


def install_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` with a problem document."""

    @app.exception_handler(ProblemError)
    async def _problem(request: Request, exc: ProblemError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return problem_response(
            request, exc.status, exc.detail, field=exc.field, slug=exc.slug, headers=headers
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = []
        for e in exc.errors():
            loc = [str(p) for p in e.get("loc", ()) if p != "body"]
            name = ".".join(loc) or None
            # the refused value itself is never echoed (it may hold a secret)
            errors.append({"field": name, "message": e.get("msg", ""), "type": e.get("type")})
        first = errors[0]["field"] if errors else None
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:5])
        return problem_response(
            request, 422, detail, field=first, slug="invalid-request", errors=errors
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return problem_response(request, exc.status_code, str(exc.detail))

    @app.exception_handler(ValueError)
    async def _value(request: Request, exc: ValueError) -> JSONResponse:
        detail = own_ids(request, str(exc))
        return problem_response(request, 422, detail, field=field_of(detail), slug="invalid-value")

    @app.exception_handler(TypeError)
    async def _type(request: Request, exc: TypeError) -> JSONResponse:
        detail = own_ids(request, str(exc))
        return problem_response(request, 422, detail, field=field_of(detail), slug="invalid-type")

    @app.exception_handler(TimeoutError)
    async def _timeout(request: Request, exc: TimeoutError) -> JSONResponse:
        return problem_response(request, 504, str(exc) or "timed out", slug="timeout")

    @app.exception_handler(QueueError)
    async def _queue(request: Request, exc: QueueError) -> JSONResponse:
        slug = "queue-full" if isinstance(exc, QueueFull) else "queue-unavailable"
        wait = {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}
        return problem_response(request, 503, str(exc), slug=slug, headers=wait)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled %s on %s %s", type(exc).__name__, request.method, request.url.path)
        return problem_response(
            request, 500, f"internal error ({type(exc).__name__})", slug="internal"
        )
