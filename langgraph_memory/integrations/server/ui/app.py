"""The inspector as an ASGI application mounted under ``/ui`` of the service.

Its own small FastAPI app (so its errors are HTML pages, not problem documents, and its
routes stay out of the API's OpenAPI schema), sharing the service's manager, keys and
known users. Every page depends on :func:`viewer` (the key of the header or of the login
cookie; without one a page redirects to the login form, with a bad header key it answers
401) and every user page on :func:`user` (the tenant's user, 404 for a user the tenant
has no memory of, another tenant's included). Every ``POST`` checks the form's CSRF token
before it reads anything else.

Example:
    >>> from langgraph_memory.integrations.server import create_app
    >>> app = create_app("/tmp/mem")  # doctest: +SKIP
    >>> # the pages are at http://HOST:PORT/ui/ (log in with an API key)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import parse_qsl, quote, urlencode

from fastapi import Depends, FastAPI, Request
from jinja2 import TemplateError
from starlette.responses import RedirectResponse, Response

from langgraph_memory.integrations.server.deps import Caller, Service
from langgraph_memory.integrations.server.problems import ProblemError, log
from langgraph_memory.integrations.server.tenancy import store_user_id
from langgraph_memory.integrations.server.ui.audit import AUDIT_FILE, AuditLog
from langgraph_memory.integrations.server.ui.render import Renderer, zone_of
from langgraph_memory.integrations.server.ui.session import COOKIE, Signer, Viewer

__all__ = [
    "create_ui",
    "UiState",
    "LoginNeeded",
    "Refused",
    "viewer",
    "user",
    "form_of",
    "csrf_checked",
    "page",
    "seg",
    "url_with",
    "session_cookie",
    "PRE_COOKIE",
]

#: The login form's pre-session cookie (the nonce its CSRF token signs).
PRE_COOKIE = "lgm_ui_login"
MAX_FORM_BYTES = 64 * 1024


class LoginNeeded(Exception):
    """No valid key: a page redirects to the login form (401 for a bad header key)."""

    def __init__(self, bad_header: bool) -> None:
        super().__init__("login needed")
        self.bad_header = bad_header


class Refused(Exception):
    """A request the inspector answers with an HTML error page."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail


@dataclass
class UiState:
    """What every page reaches."""

    service: Service
    signer: Signer
    renderer: Renderer
    audit: AuditLog


def state_of(request: Request) -> UiState:
    st: UiState = request.app.state.ui
    return st


State = Annotated[UiState, Depends(state_of)]


def viewer(request: Request, st: State) -> Viewer:
    """The request's viewer (header key first, then the login cookie).

    Raises:
        LoginNeeded: Without a valid key.
    """
    header = request.headers.get("authorization", "")
    bearer = header[7:].strip() if header[:7].lower() == "bearer " else None
    if header and not bearer:
        raise LoginNeeded(True)
    found = st.signer.viewer(bearer, request.cookies.get(COOKIE))
    if found is None:
        raise LoginNeeded(bool(bearer))
    request.state.tenant = found.tenant
    return found


Who = Annotated[Viewer, Depends(viewer)]


def user(request: Request, user_id: str, who: Who, st: State) -> Caller:
    """The tenant's user the path names (404 when the tenant has no memory of it).

    Raises:
        Refused: 404 for an unknown user (another tenant's too), 422 for a bad id.
    """
    try:
        uid = store_user_id(who.tenant, user_id)
        st.service.users.require(uid)
    except ProblemError as exc:
        raise Refused(exc.status, "no such user" if exc.status == 404 else exc.detail) from None
    request.state.store_uid, request.state.user_id = uid, user_id
    return Caller(who.tenant, user_id, uid)


Person = Annotated[Caller, Depends(user)]


async def form_of(request: Request) -> dict[str, str]:
    """The request's URL-encoded form (the last value of each field).

    Raises:
        Refused: 415 for another body type, 413 beyond :data:`MAX_FORM_BYTES`.
    """
    body = await request.body()
    if not body:
        return {}
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise Refused(415, "a form must be sent as application/x-www-form-urlencoded")
    if len(body) > MAX_FORM_BYTES:
        raise Refused(413, "the form is too large")
    return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))


Form = Annotated[dict[str, str], Depends(form_of)]


def csrf_checked(who: Who, form: Form) -> dict[str, str]:
    """The form, once its CSRF token is the viewer's.

    Raises:
        Refused: 403 when the token is missing or wrong.
    """
    if not Signer.check_csrf(who, form.get("csrf")):
        raise Refused(403, "the form's CSRF token is missing or wrong: reload the page and retry")
    return form


Checked = Annotated[dict[str, str], Depends(csrf_checked)]


# -- helpers the pages share ----------------------------------------------------------------
def root_of(request: Request) -> str:
    """The path the inspector is mounted at (``/ui``)."""
    return str(request.scope.get("root_path", "")).rstrip("/")


def seg(value: str) -> str:
    """A path segment for ``value``."""
    return quote(value, safe="")


def tz_query(request: Request) -> str:
    """``?tz=ZONE`` of the request (kept on every link), or ``""``."""
    tz = request.query_params.get("tz")
    return "?" + urlencode({"tz": tz}) if zone_of(tz) is not None else ""


def url_with(request: Request, **params: Any) -> str:
    """The request's URL (path and query) with ``params`` set (``None`` removes one)."""
    q = dict(request.query_params)
    for k, v in params.items():
        if v is None:
            q.pop(k, None)
        else:
            q[k] = str(v)
    path = root_of(request) + request.url.path[len(root_of(request)) :]
    return path + ("?" + urlencode(q) if q else "")


def page(request: Request, st: UiState, name: str, *, status: int = 200, **ctx: Any) -> Response:
    """Render a page with what every page shows."""
    tz = request.query_params.get("tz")
    good = zone_of(tz) is not None
    root = root_of(request)
    if ctx.get("user_id") is not None:
        ctx["u"] = f"{root}/users/{seg(ctx['user_id'])}"
    return st.renderer.page(
        name,
        status=status,
        root=root,
        tz=tz if good else None,
        tzq=tz_query(request),
        tzamp="&" + urlencode({"tz": tz}) if good else "",
        **ctx,
    )


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


def create_ui(service: Service) -> FastAPI:
    """The inspector's app for a service (mount it at ``/ui``).

    Args:
        service: The service's manager, keys, known users and settings.

    Returns:
        A FastAPI app without docs or OpenAPI of its own.

    Example:
        >>> app.mount("/ui", create_ui(app.state.service))  # doctest: +SKIP
    """
    from langgraph_memory.integrations.server.ui.pages import router

    ui = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    ui.state.ui = UiState(
        service,
        Signer(service.keys),
        Renderer(),
        AuditLog(service.keys.path.parent / AUDIT_FILE),
    )
    install(ui)
    ui.include_router(router)
    ui.add_middleware(ServerTiming)
    return ui


def session_cookie(request: Request, response: Response, name: str, value: str, age: int) -> None:
    """Set a cookie of the inspector: HttpOnly, SameSite=Strict, its path only, Secure
    over HTTPS (``age`` 0 removes it)."""
    response.set_cookie(
        name,
        value,
        max_age=age,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path=root_of(request) or "/",
    )
