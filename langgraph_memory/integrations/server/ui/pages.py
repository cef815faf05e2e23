"""The inspector's pages: a user's overview, sessions, segments, tasks and knowledge,
documents, search, "why would the model see this?", corrections and their audit list.

Every page reads one page of what it lists (``mm.inspect``'s keyset pages, a cursor in
the ``cursor`` query parameter), never a whole table. Every correction is two steps: a
``GET`` page that shows what will change and a ``POST`` form (with the viewer's CSRF
token) that changes it, then lands in the audit list.

Example:
    >>> # GET /ui/users/alice            the overview (latest messages, profile, counts)
    >>> # GET /ui/users/alice/why?q=tea  build_context(..., explain=True), item by item
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from langgraph_memory.integrations.server.ui.charts import heat_chart, heat_curve_chart
from langgraph_memory.integrations.server.ui.deps import (
    PRE_COOKIE,
    Checked,
    Form,
    Person,
    Refused,
    State,
    Who,
    page,
    root_of,
    seg,
    session_cookie,
    url_with,
)
from langgraph_memory.integrations.server.ui.render import zone_of
from langgraph_memory.integrations.server.ui.session import COOKIE, SESSION_SECONDS

__all__ = ["router"]

router = APIRouter()
T = TypeVar("T")

#: The static files (name: media type), read once.
STATIC = {"ui.css": "text/css", "ui.js": "text/javascript", "favicon.svg": "image/svg+xml"}
_static: dict[str, bytes] = {}
PAGE = 25  # items per page
#: The corrections a redirect to the audit list may name.
DONE = ("delete-message", "preference-feedback", "retire-belief")


def _cursor(request: Request) -> str | None:
    c = request.query_params.get("cursor")
    return c or None


def _slice(items: Sequence[T], request: Request, size: int = PAGE) -> tuple[list[T], str | None]:
    """A page of a list a call returns whole (offset cursor): the page and the next
    page's URL."""
    raw = request.query_params.get("at", "0")
    at = int(raw) if raw.isdigit() else 0
    part = list(items[at : at + size])
    nxt = url_with(request, at=at + size) if at + size < len(items) else None
    return part, nxt


def _next(request: Request, cursor: str | None) -> str | None:
    return url_with(request, cursor=cursor) if cursor else None


# -- static files and login ---------------------------------------------------------------
@router.get("/static/{name}")
def static(name: str) -> Response:
    """The package's own CSS, script and icon (nothing from a CDN)."""
    if name not in STATIC:
        raise Refused(404, "no such file")
    if name not in _static:
        pkg = resources.files("langgraph_memory.integrations.server.ui") / "static" / name
        _static[name] = pkg.read_bytes()
    return Response(
        _static[name],
        media_type=STATIC[name],
        headers={"Cache-Control": "max-age=3600", "X-Content-Type-Options": "nosniff"},
    )


def _safe_next(request: Request, nxt: str | None) -> str:
    """Where to go after logging in: a path of the inspector, else its first page."""
    root = root_of(request)
    if nxt and nxt.startswith(root + "/") and not nxt.startswith("//") and "\\" not in nxt:
        return nxt
    return root + "/"


@router.get("/login")
def login_form(request: Request, st: State, next: str | None = None) -> Response:  # noqa: A002
    """The login form: an API key in, a session cookie out."""
    nonce = secrets.token_urlsafe(16)
    resp = page(
        request,
        st,
        "login.html",
        title="Log in",
        viewer=None,
        login_csrf=st.signer.login_token(nonce),
        next=_safe_next(request, next),
    )
    session_cookie(request, resp, PRE_COOKIE, nonce, 600)
    return resp


@router.post("/login")
def login(request: Request, st: State, form: Form) -> Response:
    """Check the key, set the session cookie (never the key) and go on."""
    nonce = request.cookies.get(PRE_COOKIE, "")
    token = form.get("csrf", "")
    if not nonce or not secrets.compare_digest(token, st.signer.login_token(nonce)):
        raise Refused(403, "the login form expired or was not sent by this page: reload it")
    value = st.signer.login(form.get("key", "").strip())
    if value is None:
        nonce = secrets.token_urlsafe(16)
        resp = page(
            request,
            st,
            "login.html",
            status=401,
            title="Log in",
            viewer=None,
            error="That key is not valid (or was revoked).",
            login_csrf=st.signer.login_token(nonce),
            next=_safe_next(request, form.get("next")),
        )
        session_cookie(request, resp, PRE_COOKIE, nonce, 600)
        return resp
    resp = RedirectResponse(_safe_next(request, form.get("next")), status_code=303)
    session_cookie(request, resp, COOKIE, value, SESSION_SECONDS)
    session_cookie(request, resp, PRE_COOKIE, "", 0)
    return resp


@router.post("/logout")
def logout(request: Request, who: Who, form: Checked) -> Response:
    """End the session (its cookie is removed)."""
    resp = RedirectResponse(root_of(request) + "/login", status_code=303)
    session_cookie(request, resp, COOKIE, "", 0)
    return resp


# -- pages ---------------------------------------------------------------------------------
@router.get("/")
def users(request: Request, st: State, who: Who) -> Response:
    """The tenant's users with memory."""
    ids = st.service.users.of_tenant(who.tenant)
    part, nxt = _slice(ids, request, 100)
    return page(request, st, "users.html", title="Users", viewer=who, users=part, next_url=nxt)


@router.get("/users/{user_id}")
def overview(request: Request, st: State, who: Who, person: Person) -> Response:
    """A user's counts per layer, latest messages, recent sessions, profile and entities
    (a first page of each, with a link to the rest)."""
    ins = st.service.memory.inspect
    uid = person.store_uid
    ov = ins.overview(uid, limit=PAGE)
    cursor = _cursor(request)
    latest = ov.latest_messages if cursor is None else ins.messages(uid, cursor=cursor, limit=PAGE)
    return page(
        request,
        st,
        "overview.html",
        title=f"User {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="overview",
        ov=ov,
        latest=latest.items,
        latest_next=_next(request, latest.cursor),
        profile=ins.profile(uid, limit=20),
        entities=ins.entities(uid, limit=10),
    )


@router.get("/users/{user_id}/sessions")
def sessions(request: Request, st: State, who: Who, person: Person) -> Response:
    """The user's sessions, the most recently active first."""
    listing = st.service.memory.inspect.sessions(
        person.store_uid, cursor=_cursor(request), limit=PAGE
    )
    return page(
        request,
        st,
        "sessions.html",
        title=f"Sessions of {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="sessions",
        rows=listing.items,
        next_url=_next(request, listing.cursor),
    )


@router.get("/users/{user_id}/sessions/{session_id}")
def session(request: Request, st: State, who: Who, person: Person, session_id: str) -> Response:
    """One session: its short-term window, topic chains with their summaries, and its
    messages (newest first)."""
    ins = st.service.memory.inspect
    try:
        view = ins.session(person.store_uid, session_id)
    except KeyError:
        raise Refused(404, "no such session") from None
    listing = ins.messages(
        person.store_uid, session_id=session_id, cursor=_cursor(request), limit=PAGE
    )
    return page(
        request,
        st,
        "session.html",
        title=f"Session {session_id}",
        viewer=who,
        user_id=person.user_id,
        section="sessions",
        session_id=session_id,
        view=view,
        messages=listing.items,
        next_url=_next(request, listing.cursor),
    )


@router.get("/users/{user_id}/messages/{message_id}")
def message(request: Request, st: State, who: Who, person: Person, message_id: str) -> Response:
    """One message with the turns around it, its segment, and the delete action."""
    try:
        view = st.service.memory.inspect.message(person.store_uid, message_id, window=3)
    except KeyError:
        raise Refused(404, "no such message") from None
    return page(
        request,
        st,
        "message.html",
        title=f"Message {message_id}",
        viewer=who,
        user_id=person.user_id,
        section="sessions",
        view=view,
    )


@router.get("/users/{user_id}/source")
def source(request: Request, st: State, who: Who, person: Person, id: str = "") -> Response:  # noqa: A002
    """Where a cited source id leads: its message, or the page of what it names (an
    anchor, a task, a document); anything else is explained, not guessed."""
    u = f"{root_of(request)}/users/{seg(person.user_id)}"
    tz = request.query_params.get("tz")
    q = "?" + urlencode({"tz": tz}) if tz else ""
    if not id:
        raise Refused(404, "no such source")
    try:
        st.service.memory.inspect.message(person.store_uid, id, window=0, derived=False)
        return RedirectResponse(f"{u}/messages/{seg(id)}{q}", status_code=303)
    except (KeyError, ValueError, TypeError):
        pass
    for prefix, where in (
        ("anchor:", "#instructions"),
        ("task:", "/tasks"),
        ("doc:", "/documents"),
    ):
        if id.startswith(prefix):
            path, _, frag = where.partition("#")
            return RedirectResponse(f"{u}{path}{q}" + (f"#{frag}" if frag else ""), status_code=303)
    return page(
        request,
        st,
        "source.html",
        title=f"Source {id}",
        viewer=who,
        user_id=person.user_id,
        section="why",
        source_id=id,
    )


@router.get("/users/{user_id}/search")
def search(
    request: Request, st: State, who: Who, person: Person, q: str = "", hybrid: str = ""
) -> Response:
    """Messages holding every word of the query, newest first, a page at a time; with
    ``hybrid=1`` also the hybrid search's best hits over every layer (what a model's
    search would find)."""
    mm = st.service.memory
    found: Any = None
    hits: list[Any] = []
    error = None
    if q.strip():
        try:
            found = mm.inspect.messages(
                person.store_uid, query=q, cursor=_cursor(request), limit=PAGE
            )
            if hybrid and _cursor(request) is None:
                hits = mm.search(person.store_uid, q, 10)
        except (TypeError, ValueError) as exc:
            error = person.own(str(exc))
    return page(
        request,
        st,
        "search.html",
        title=f"Search {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="search",
        q=q,
        hybrid=bool(hybrid),
        found=found.items if found else [],
        next_url=_next(request, found.cursor) if found else None,
        hits=hits,
        error=error,
    )


@router.get("/users/{user_id}/why")
def why(
    request: Request,
    st: State,
    who: Who,
    person: Person,
    q: str = "",
    budget: int = 1000,
    session: str = "inspector",
) -> Response:
    """``build_context(..., explain=True)`` for a query and budget, item by item."""
    ctx = None
    error = None
    limit = st.service.settings.max_token_budget
    if q.strip():
        if not 1 <= budget <= limit:
            error = f"the budget must be between 1 and {limit} tokens"
        else:
            try:
                ctx = st.service.memory.build_context(
                    person.store_uid, session, q, budget, explain=True
                )
            except (TypeError, ValueError) as exc:
                error = person.own(str(exc))
    return page(
        request,
        st,
        "why.html",
        title=f"Why would the model see this? ({person.user_id})",
        viewer=who,
        user_id=person.user_id,
        section="why",
        q=q,
        budget=budget,
        max_budget=limit,
        session_id=session,
        ctx=ctx,
        error=error,
    )


@router.get("/users/{user_id}/segments")
def segments(
    request: Request,
    st: State,
    who: Who,
    person: Person,
    order: str = "heat",
    state: str = "active",
) -> Response:
    """Mid-term segments: heat, visits, pages and promotions; hottest or latest first,
    active, archived or both."""
    if order not in ("heat", "recent") or state not in ("active", "archived", "all"):
        raise Refused(422, "order is 'heat' or 'recent'; state is 'active', 'archived' or 'all'")
    archived = {"active": False, "archived": True, "all": None}[state]
    listing = st.service.memory.inspect.segments(
        person.store_uid,
        archived=archived,
        order="heat" if order == "heat" else "recent",
        cursor=_cursor(request),
        limit=PAGE,
    )
    chart = heat_chart([(s.id, s.heat) for s in listing.items])
    return page(
        request,
        st,
        "segments.html",
        title=f"Segments of {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="segments",
        rows=listing.items,
        next_url=_next(request, listing.cursor),
        chart=chart,
        order=order,
        state=state,
    )


#: The spans a segment's heat chart shows (``span`` parameter): name -> seconds.
SPANS = {
    "all": 0,
    "year": 366 * 86400,
    "month": 31 * 86400,
    "week": 7 * 86400,
    "day": 86400,
    "hour": 3600,
}


@router.get("/users/{user_id}/segments/{segment_id}")
def segment(
    request: Request, st: State, who: Who, person: Person, segment_id: str, span: str = "all"
) -> Response:
    """One segment: its heat over time (a chart, its visits and promotions marked, in
    the ``tz`` parameter's zone; all of it, or its last year, month, week, day or hour), its
    latest events, and its pages with their messages."""
    if span not in SPANS:
        raise Refused(422, "span is one of " + ", ".join(SPANS))
    since = datetime.now(timezone.utc) - timedelta(seconds=SPANS[span]) if SPANS[span] else None
    mm = st.service.memory
    try:
        detail = mm.inspect.segment(
            person.store_uid, segment_id, cursor=_cursor(request), limit=10, since=since
        )
    except KeyError:
        raise Refused(404, "no such segment") from None
    messages = []
    for p in detail.pages.items:
        for mid in p.message_ids[:4]:
            try:
                view = mm.inspect.message(person.store_uid, mid, window=0, derived=False)
                messages.append(view.message)
            except KeyError:  # deleted since the page was made
                continue
    return page(
        request,
        st,
        "segment.html",
        title=f"Segment {segment_id}",
        viewer=who,
        user_id=person.user_id,
        section="segments",
        segment=detail.segment,
        pages=detail.pages.items,
        chart=heat_curve_chart(
            detail.heat_curve,
            detail.visit_times,
            detail.promotion_times,
            zone=zone_of(request.query_params.get("tz")),
        ),
        curve_from=detail.heat_curve[0].at if detail.heat_curve else None,
        events=_events(detail.visit_times, detail.promotion_times),
        span=span,
        spans=list(SPANS),
        messages=messages,
        next_url=_next(request, detail.pages.cursor),
    )


def _events(visits: Sequence[Any], promotions: Sequence[Any]) -> list[tuple[Any, str]]:
    """The latest visits and promotions, newest first (at most :data:`PAGE`)."""
    both = [(w, "visit") for w in visits] + [(w, "promotion") for w in promotions]
    return sorted(both, key=lambda e: (e[0], e[1]), reverse=True)[:PAGE]


@router.get("/users/{user_id}/tasks")
def tasks(request: Request, st: State, who: Who, person: Person) -> Response:
    """Tasks, episodes, knowledge and lessons: the newest of each, with links to the rest."""
    ins = st.service.memory.inspect
    uid = person.store_uid
    lists = {
        layer: ins.records(uid, layer, limit=10)  # type: ignore[arg-type]
        for layer in ("tasks", "episodes", "knowledge", "lessons")
    }
    return page(
        request,
        st,
        "tasks.html",
        title=f"Tasks and knowledge of {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="tasks",
        lists=lists,
    )


@router.get("/users/{user_id}/documents")
def documents(request: Request, st: State, who: Who, person: Person) -> Response:
    """The user's documents and their versions."""
    listing = st.service.memory.inspect.records(
        person.store_uid, "documents", cursor=_cursor(request), limit=PAGE
    )
    return page(
        request,
        st,
        "documents.html",
        title=f"Documents of {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="documents",
        docs=listing.items,
        next_url=_next(request, listing.cursor),
    )


#: The record lists with a page of their own, and their headings.
RECORDS = {
    "preferences": "Preferences",
    "current_facts": "Current facts",
    "superseded_facts": "Superseded and ended facts",
    "instructions": "Standing instructions",
    "entities": "Entities and their relations",
    "traits": "Agent traits",
    "contradictions": "Contradictions",
    "tasks": "Tasks",
    "episodes": "Episodes",
    "knowledge": "Knowledge",
    "lessons": "Lessons",
    "insights": "Insights",
    "rollups": "Day and week summaries",
    "documents": "Documents",
}


@router.get("/users/{user_id}/records/{layer}")
def records(request: Request, st: State, who: Who, person: Person, layer: str) -> Response:
    """One record list, a page at a time, newest first."""
    if layer not in RECORDS:
        raise Refused(404, "no such list")
    ins = st.service.memory.inspect
    if layer == "entities":
        listing: Any = ins.entities(person.store_uid, cursor=_cursor(request), limit=PAGE)
    else:
        listing = ins.records(
            person.store_uid,
            layer,  # type: ignore[arg-type]  # one of RECORDS
            cursor=_cursor(request),
            limit=PAGE,
        )
    return page(
        request,
        st,
        "records.html",
        title=f"{RECORDS[layer]} of {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="overview",
        layer=layer,
        heading=RECORDS[layer],
        items=listing.items,
        next_url=_next(request, listing.cursor),
        threshold=st.service.memory.config.long_term.preference_threshold,
    )


@router.get("/users/{user_id}/audit")
def audit(request: Request, st: State, who: Who, person: Person) -> Response:
    """The corrections made to this user's memory through the inspector, newest first."""
    raw = request.query_params.get("before", "")
    before = int(raw) if raw.isdigit() else None
    found = st.audit.page(who.tenant, person.user_id, before=before, limit=PAGE)
    nxt = url_with(request, before=found.next_offset) if found.next_offset else None
    return page(
        request,
        st,
        "audit.html",
        title=f"Audit of {person.user_id}",
        viewer=who,
        user_id=person.user_id,
        section="audit",
        entries=found.entries,
        next_url=nxt,
        done=request.query_params.get("done") if request.query_params.get("done") in DONE else None,
    )


# -- corrections -----------------------------------------------------------------------------
def _done(request: Request, person: Any, what: str) -> Response:
    u = f"{root_of(request)}/users/{seg(person.user_id)}/audit?{urlencode({'done': what})}"
    return RedirectResponse(u, status_code=303)


@router.get("/users/{user_id}/messages/{message_id}/delete")
def delete_confirm(
    request: Request, st: State, who: Who, person: Person, message_id: str
) -> Response:
    """Step one: what deleting this message removes."""
    try:
        view = st.service.memory.inspect.message(person.store_uid, message_id, window=0)
    except KeyError:
        raise Refused(404, "no such message") from None
    return page(
        request,
        st,
        "confirm.html",
        title="Delete a message?",
        viewer=who,
        user_id=person.user_id,
        section="sessions",
        action=f"{root_of(request)}/users/{seg(person.user_id)}/messages/{seg(message_id)}/delete",
        what="delete",
        message=view.message,
        view=view,
    )


@router.post("/users/{user_id}/messages/{message_id}/delete")
def delete_message(
    request: Request, st: State, who: Who, form: Checked, person: Person, message_id: str
) -> Response:
    """Step two: delete the message and everything derived from it; audit it."""
    n = st.service.memory.delete(person.store_uid, message_id)
    if n == 0:
        raise Refused(404, "no such message")
    st.audit.add(
        who.tenant, person.user_id, who.key_id, "delete-message", message_id, f"{n} records deleted"
    )
    return _done(request, person, "delete-message")


@router.get("/users/{user_id}/preferences/{entry_id}/feedback")
def feedback_confirm(
    request: Request, st: State, who: Who, person: Person, entry_id: str, signal: str = "followed"
) -> Response:
    """Step one: confirm (followed) or correct a preference."""
    entry = _preference(st, person.store_uid, entry_id)
    if signal not in ("followed", "corrected"):
        raise Refused(422, "signal must be 'followed' or 'corrected'")
    return page(
        request,
        st,
        "confirm.html",
        title="Confirm a preference?" if signal == "followed" else "Correct a preference?",
        viewer=who,
        user_id=person.user_id,
        section="overview",
        action=f"{root_of(request)}/users/{seg(person.user_id)}/preferences/{seg(entry_id)}/feedback",
        what=signal,
        entry=entry,
    )


def _preference(st: Any, uid: str, entry_id: str) -> Any:
    for e in st.service.memory.profile.preferences(uid):  # one user's profile
        if e.id == entry_id:
            return e
    raise Refused(404, "no such preference")


@router.post("/users/{user_id}/preferences/{entry_id}/feedback")
def feedback(
    request: Request, st: State, who: Who, form: Checked, person: Person, entry_id: str
) -> Response:
    """Step two: ``profile.feedback`` (a correction may carry the value said instead)."""
    signal = form.get("signal", "")
    if signal not in ("followed", "corrected"):
        raise Refused(422, "signal must be 'followed' or 'corrected'")
    _preference(st, person.store_uid, entry_id)
    value = form.get("value", "").strip() or None
    if signal == "followed":
        value = None
    try:
        changed = st.service.memory.profile.feedback(
            person.store_uid,
            entry_id,
            "followed" if signal == "followed" else "corrected",
            value=value,
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise Refused(422, person.own(str(exc))) from None
    conf = ", ".join(f"{e.confidence:.2f}" for e in changed)
    outcome = f"{signal}: confidence now {conf}" + (" (new value stored)" if value else "")
    st.audit.add(who.tenant, person.user_id, who.key_id, "preference-feedback", entry_id, outcome)
    return _done(request, person, "preference-feedback")


def _fact(st: Any, uid: str, fact_id: str) -> Any:
    for f in st.service.memory.profile.facts(uid):  # one user's facts
        if f.id == fact_id:
            return f
    raise Refused(404, "no such fact")


@router.get("/users/{user_id}/facts/{fact_id}/retire")
def retire_confirm(request: Request, st: State, who: Who, person: Person, fact_id: str) -> Response:
    """Step one: the belief to retire (a fact that no longer holds)."""
    fact = _fact(st, person.store_uid, fact_id)
    if fact.valid_to is not None:
        raise Refused(409, "this fact has ended already")
    return page(
        request,
        st,
        "confirm.html",
        title="Retire a belief?",
        viewer=who,
        user_id=person.user_id,
        section="overview",
        action=f"{root_of(request)}/users/{seg(person.user_id)}/facts/{seg(fact_id)}/retire",
        what="retire",
        belief_text=fact.text(),
    )


@router.post("/users/{user_id}/facts/{fact_id}/retire")
def retire(
    request: Request, st: State, who: Who, form: Checked, person: Person, fact_id: str
) -> Response:
    """Step two: ``profile.retire`` (the fact is closed now, kept on record); audit it."""
    try:
        fact = st.service.memory.profile.retire(person.store_uid, fact_id)
    except KeyError:
        raise Refused(404, "no such fact") from None
    except ValueError as exc:
        raise Refused(409, str(exc)) from None
    ended = fact.valid_to.isoformat(timespec="seconds") if fact.valid_to else "now"
    st.audit.add(
        who.tenant, person.user_id, who.key_id, "retire-belief", fact_id, f"fact ended {ended}"
    )
    return _done(request, person, "retire-belief")
