"""What every inspector page depends on: the viewer (key or login cookie), the user,
the form and its CSRF token, and how a page is rendered.

Every page declares :func:`viewer` (the key of the ``Authorization: Bearer`` header or
of the login cookie; :class:`LoginNeeded` otherwise) and every user page :func:`user`
(the tenant's user, :class:`Refused` 404 for a user the tenant has no memory of,
another tenant's included); every ``POST`` declares :func:`csrf_checked`, which reads
the form and checks its token before the route runs.

Example:
    >>> seg("a/b c")
    'a%2Fb%20c'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import parse_qsl, quote, urlencode

from fastapi import Depends, Request
from starlette.responses import Response

from langgraph_memory.integrations.server.deps import Caller, Service
from langgraph_memory.integrations.server.problems import ProblemError
from langgraph_memory.integrations.server.tenancy import store_user_id
from langgraph_memory.integrations.server.ui.audit import AuditLog
from langgraph_memory.integrations.server.ui.render import Renderer, zone_of
from langgraph_memory.integrations.server.ui.session import COOKIE, Signer, Viewer

__all__ = [
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
    "state_of",
    "root_of",
    "tz_query",
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
