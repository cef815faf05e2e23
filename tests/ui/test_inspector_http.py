"""The inspector's contract over real HTTP (uvicorn on loopback, a seeded SQLite store):
keys and the login cookie, tenants, CSRF, escaping, pagination, the audit list.

Every request is a real request to a real server; the hostile cases check what is
refused and that nothing changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_service import auth, serving
from seeded import CHINESE, HOSTILE, HOSTILE_ID, open_memory, seed

from langgraph_memory.integrations.server import create_app
from langgraph_memory.integrations.server.ui.audit import AUDIT_FILE
from langgraph_memory.integrations.server.ui.session import COOKIE

pytestmark = pytest.mark.timeout(120)

PAGES = [
    "/ui/",
    "/ui/users/alice",
    "/ui/users/alice/sessions",
    "/ui/users/alice/sessions/trip",
    "/ui/users/alice/messages/m-zh",
    "/ui/users/alice/search?q=tea",
    "/ui/users/alice/search?q=tea&hybrid=1",
    "/ui/users/alice/why?q=tea&budget=500",
    "/ui/users/alice/segments",
    "/ui/users/alice/tasks",
    "/ui/users/alice/documents",
    "/ui/users/alice/audit",
    "/ui/users/alice/segments?state=all&order=recent",
    *(
        f"/ui/users/alice/records/{layer}"
        for layer in (
            "preferences",
            "current_facts",
            "superseded_facts",
            "instructions",
            "entities",
            "traits",
            "contradictions",
            "tasks",
            "episodes",
            "knowledge",
            "lessons",
            "insights",
            "rollups",
            "documents",
        )
    ),  # fmt: skip
]


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("inspector")
    mm = open_memory(root)
    seeded = seed(mm, root)
    try:
        with serving(create_app(mm, keys=root), log_level="warning") as url:
            with httpx.Client(base_url=url, timeout=30) as client:
                yield {"c": client, "s": seeded, "root": root, "mm": mm}
    finally:
        mm.close()


def _get(svc: dict[str, Any], path: str, key: str | None = None) -> httpx.Response:
    return svc["c"].get(path, headers=auth(key) if key else {})


def _login(svc: dict[str, Any], key: str) -> httpx.Client:
    """A client of its own that logged in through the form."""
    c = httpx.Client(base_url=str(svc["c"].base_url), timeout=30)
    form = c.get("/ui/login")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token is not None, form.text
    r = c.post("/ui/login", data={"csrf": token.group(1), "key": key, "next": "/ui/"})
    assert r.status_code == 303, r.text
    return c


def test_every_page_answers_with_a_key_and_needs_one(svc: dict[str, Any]) -> None:
    key = svc["s"].tenants.acme
    for path in PAGES:
        ok = _get(svc, path, key)
        assert ok.status_code == 200, (path, ok.text[:500])
        assert ok.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in ok.headers["content-security-policy"]
        bare = _get(svc, path)
        assert bare.status_code == 303 and bare.headers["location"].startswith("/ui/login?next=")
        for bad in ("lgm_00000000_" + "A" * 43, svc["s"].tenants.revoked, "nonsense"):
            r = _get(svc, path, bad)
            assert r.status_code == 401, (path, bad[:12], r.status_code)


def test_the_overview_lists_the_latest_messages_in_pages(svc: dict[str, Any]) -> None:
    key = svc["s"].tenants.acme
    first = _get(svc, "/ui/users/alice", key).text
    assert CHINESE in _get(svc, "/ui/users/alice/sessions/trip", key).text  # as itself
    assert "Note 29: the quarterly report is due." in first  # the newest turn
    older = re.search(r'href="([^"]*cursor=[0-9]+)" rel="next"', first)
    assert older is not None
    second = _get(svc, older.group(1).replace("&amp;", "&"), key).text
    assert "Note 29:" not in second and "Note 5:" in second


def test_another_tenants_user_is_the_same_404_as_a_missing_one(svc: dict[str, Any]) -> None:
    acme, globex = svc["s"].tenants.acme, svc["s"].tenants.globex
    theirs = _get(svc, "/ui/users/bob", acme)
    nobody = _get(svc, "/ui/users/nobody-at-all", acme)
    assert theirs.status_code == nobody.status_code == 404
    assert theirs.text.replace("bob", "X") == nobody.text.replace("nobody-at-all", "X")
    assert "heron" not in theirs.text
    assert _get(svc, "/ui/users/alice", globex).status_code == 404
    assert _get(svc, "/ui/users/bob", globex).status_code == 200
    for path in PAGES[1:]:
        assert _get(svc, path, globex).status_code == 404, path
    users = _get(svc, "/ui/", globex).text
    assert "bob" in users and "alice" not in users


def test_stored_markup_and_escapes_are_inert_text(svc: dict[str, Any]) -> None:
    key = svc["s"].tenants.acme
    pages = [
        "/ui/",
        "/ui/users/alice",
        "/ui/users/alice/messages/m-hostile",
        "/ui/users/alice/sessions/" + httpx.URL(HOSTILE_ID).raw_path.decode().replace("/", "%2F"),
        "/ui/users/alice/search?q=script&hybrid=1",
        "/ui/users/alice/why?q=script%20prefer&budget=2000",
        "/ui/users/alice/documents",
    ]
    for path in pages:
        r = _get(svc, path, key)
        assert r.status_code == 200, (path, r.text[:300])
        body = r.text
        assert "<script>window" not in body and "<img src=x" not in body, path
        assert "\x1b" not in body and "\u202e" not in body, path
    shown = _get(svc, "/ui/users/alice/messages/m-hostile", key).text
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in shown
    assert "␛[31mred␛[0m" in shown and "&lt;U+202E&gt;evil" in shown
    assert HOSTILE.split(">")[0].replace("<", "&lt;") in shown


def test_login_sets_a_signed_httponly_strict_cookie_never_the_key(svc: dict[str, Any]) -> None:
    key = svc["s"].tenants.acme
    c = _login(svc, key)
    try:
        cookie = c.cookies.get(COOKIE)
        assert cookie and key not in cookie and key.split("_")[2] not in cookie
        raw = [h for h in c.get("/ui/login").headers.get_list("set-cookie")]
        assert raw  # the login form sets its own pre-session cookie
        r = c.get("/ui/users/alice")
        assert r.status_code == 200 and "Latest messages" in r.text
        # the cookie's attributes, as the server sent them
        again = _login_raw(svc, key)
        assert "httponly" in again and "samesite=strict" in again and "path=/ui" in again
        # an edited cookie is refused (its signature no longer matches)
        forged = cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB")
        with httpx.Client(base_url=str(svc["c"].base_url), cookies={COOKIE: forged}) as f:
            assert f.get("/ui/users/alice").status_code == 303
        # log out: the cookie is gone and pages redirect again
        token = re.search(r'name="csrf" value="([^"]+)"', r.text)
        assert token is not None
        out = c.post("/ui/logout", data={"csrf": token.group(1)})
        assert out.status_code == 303
        assert c.get("/ui/users/alice").status_code == 303
    finally:
        c.close()


def _login_raw(svc: dict[str, Any], key: str) -> str:
    with httpx.Client(base_url=str(svc["c"].base_url), timeout=30) as c:
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/ui/login").text)
        assert token is not None
        r = c.post("/ui/login", data={"csrf": token.group(1), "key": key})
        return "; ".join(h.lower() for h in r.headers.get_list("set-cookie") if COOKIE + "=" in h)


def test_revoking_a_key_ends_its_sessions(svc: dict[str, Any]) -> None:
    keys = svc["s"].tenants.keys
    key = keys.create("acme")
    c = _login(svc, key)
    try:
        assert c.get("/ui/users/alice").status_code == 200
        assert keys.revoke(key)
        assert c.get("/ui/users/alice").status_code == 303  # back to the login form
    finally:
        c.close()


def test_a_wrong_key_or_a_forged_login_form_is_refused(svc: dict[str, Any]) -> None:
    with httpx.Client(base_url=str(svc["c"].base_url), timeout=30) as c:
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/ui/login").text)
        assert token is not None
        r = c.post("/ui/login", data={"csrf": token.group(1), "key": svc["s"].tenants.revoked})
        assert r.status_code == 401 and COOKIE not in r.cookies
        r = c.post("/ui/login", data={"csrf": "forged", "key": svc["s"].tenants.acme})
        assert r.status_code == 403 and COOKIE not in r.cookies
    # an off-site "next" is not followed
    c2 = _login(svc, svc["s"].tenants.acme)
    try:
        token = re.search(r'name="csrf" value="([^"]+)"', c2.get("/ui/login").text)
        assert token is not None
        r = c2.post(
            "/ui/login",
            data={"csrf": token.group(1), "key": svc["s"].tenants.acme, "next": "//evil.example/"},
        )
        assert r.headers["location"] == "/ui/"
    finally:
        c2.close()


def test_a_mutation_needs_the_viewers_csrf_token(svc: dict[str, Any]) -> None:
    s, mm = svc["s"], svc["mm"]
    key = s.tenants.acme
    path = "/ui/users/alice/messages/m-zh/delete"
    confirm = _get(svc, path, key)
    assert confirm.status_code == 200 and CHINESE in confirm.text
    assert "花生" in confirm.text.split("What was read from it")[1]  # the allergy it made
    token = re.search(r'name="csrf" value="([^"]+)"', confirm.text)
    assert token is not None
    c = svc["c"]
    for data in ({}, {"csrf": ""}, {"csrf": token.group(1)[:-1] + "x"}):
        r = c.post(path, data=data, headers=auth(key))
        assert r.status_code == 403, data
    # another tenant's token is not this viewer's either
    bobs = mm.inspect.messages("globex:bob", limit=1).items[0].id
    other = _get(svc, f"/ui/users/bob/messages/{bobs}/delete", s.tenants.globex).text
    theirs = re.search(r'name="csrf" value="([^"]+)"', other)
    assert theirs is not None and theirs.group(1) != token.group(1)
    assert c.post(path, data={"csrf": theirs.group(1)}, headers=auth(key)).status_code == 403
    # a GET never deletes; nothing above did
    assert c.get(path, headers=auth(key)).status_code == 200
    assert mm.inspect.message("acme:alice", "m-zh").message.content == CHINESE
    # a JSON body is not a form
    r = c.post(path, json={"csrf": token.group(1)}, headers=auth(key))
    assert r.status_code == 415


def test_delete_and_feedback_with_confirmation_land_in_the_audit(svc: dict[str, Any]) -> None:
    s, mm = svc["s"], svc["mm"]
    key = s.tenants.acme
    c = svc["c"]
    path = f"/ui/users/alice/messages/{s.deletable}/delete"
    token = re.search(r'name="csrf" value="([^"]+)"', _get(svc, path, key).text)
    assert token is not None
    r = c.post(path, data={"csrf": token.group(1)}, headers=auth(key))
    assert r.status_code == 303 and "/ui/users/alice/audit" in r.headers["location"]
    assert _get(svc, f"/ui/users/alice/messages/{s.deletable}", key).status_code == 404
    assert "quokka" not in _get(svc, "/ui/users/alice/search?q=locker", key).text
    assert "quokka" not in _get(svc, "/ui/users/alice/search?q=locker&hybrid=1", key).text
    assert all(s.deletable not in h.source_ids for h in mm.search("acme:alice", "locker"))
    # a preference: confirm it
    pref = next(p for p in mm.profile.preferences("acme:alice") if "tea" in str(p.value))
    before = pref.confidence
    fpath = f"/ui/users/alice/preferences/{pref.id}/feedback"
    page = _get(svc, fpath + "?signal=corrected", key)
    assert page.status_code == 200 and "Correct it" in page.text
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token is not None
    r = c.post(fpath, data={"csrf": token.group(1), "signal": "corrected"}, headers=auth(key))
    assert r.status_code == 303
    after = next(p for p in mm.profile.preferences("acme:alice") if p.id == pref.id)
    assert after.confidence < before
    # retire a belief: the fact ends, stays listed as ended, leaves the context
    fact = next(f for f in mm.profile.facts("acme:alice") if f.object.startswith("Lyon"))
    rpath = f"/ui/users/alice/facts/{fact.id}/retire"
    page = _get(svc, rpath, key)
    assert page.status_code == 200 and "Retire it" in page.text
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token is not None
    assert c.post(rpath, data={}, headers=auth(key)).status_code == 403
    assert mm.inspect.records("acme:alice", "current_facts", limit=50).items  # unchanged yet
    r = c.post(rpath, data={"csrf": token.group(1)}, headers=auth(key))
    assert r.status_code == 303
    ended = [f.id for f in mm.inspect.records("acme:alice", "superseded_facts", limit=50).items]
    assert fact.id in ended
    ctx = mm.build_context("acme:alice", "s9", "where do I live now?", 2000)
    assert all(it.layer != "fact" or "Lyon" not in it.text for it in ctx.items)
    assert c.post(rpath, data={"csrf": token.group(1)}, headers=auth(key)).status_code == 409
    audit = _get(svc, "/ui/users/alice/audit", key).text
    assert "retire-belief" in audit and fact.id in audit
    assert "delete-message" in audit and s.deletable in audit and "preference-feedback" in audit
    # the audit keeps ids and counts, never the deleted words
    raw = (svc["root"] / AUDIT_FILE).read_text(encoding="utf-8")
    assert "quokka" not in raw and s.deletable in raw
    # another tenant sees none of it
    assert _get(svc, "/ui/users/alice/audit", s.tenants.globex).status_code == 404
    assert "delete-message" not in _get(svc, "/ui/users/bob/audit", s.tenants.globex).text


def test_a_bad_cursor_is_a_422_page_naming_it(svc: dict[str, Any]) -> None:
    key = svc["s"].tenants.acme
    for path in ("/ui/users/alice?cursor=abc", "/ui/users/alice/sessions?cursor=<b>"):
        r = _get(svc, path, key)
        assert r.status_code == 422 and "cursor" in r.text and "<b>" not in r.text, path


def test_times_follow_the_tz_parameter(svc: dict[str, Any]) -> None:
    key = svc["s"].tenants.acme
    utc = _get(svc, "/ui/users/alice/sessions", key).text
    tokyo = _get(svc, "/ui/users/alice/sessions?tz=Asia/Tokyo", key).text
    assert " UTC</time>" in utc and "data-fixed" not in utc
    assert "data-fixed" in tokyo and "JST</time>" in tokyo
    assert "tz=Asia%2FTokyo" in tokyo  # links keep the zone
    bad = _get(svc, "/ui/users/alice/sessions?tz=Not/AZone", key)
    assert bad.status_code == 200 and " UTC</time>" in bad.text


def test_a_segment_page_draws_its_heat_over_time(svc: dict[str, Any]) -> None:
    """After retrievals visit the user's segments, a segment's page draws its heat as a
    line (an SVG with a label a screen reader reads), each visit marked on the time axis
    with its time in the ``tz`` parameter's zone, and lists its latest events."""
    mm, key = svc["mm"], svc["s"].tenants.acme
    from langgraph_memory.integrations.server.tenancy import store_user_id

    alice = store_user_id("acme", "alice")
    for _ in range(3):
        mm.search(alice, "quarterly report note", layers=["mid_term"])
    mm.flush()  # the worker saves the visits
    details = [
        mm.inspect.segment(alice, s.id)
        for s in mm.inspect.segments(alice, archived=None, limit=500).items
    ]
    detail = next(d for d in details if d.visit_times)  # (a promotion restarts the count)
    seg = detail.segment
    html = _get(svc, f"/ui/users/alice/segments/{seg.id}?tz=Asia/Tokyo", key).text
    svg = re.search(r'<svg class="heat".*?</svg>', html, re.S)
    assert svg is not None
    chart = svg.group()
    assert 'role="img"' in chart and 'aria-label="Heat over time from ' in chart
    assert chart.count('class="line"') == 1
    assert chart.count('class="visit"') == len(detail.visit_times)
    assert chart.count('class="promotion"') == len(detail.promotion_times)
    assert "JST" in chart and "visit 20" in chart  # the ticks' times, in Tokyo's zone
    assert "<script" not in chart
    table = html.split("Latest visits and promotions", 1)[1].split("</table>", 1)[0]
    events = len(detail.visit_times) + len(detail.promotion_times)
    assert table.count("</tr>") - 1 == min(events, 25)
    assert "data-fixed" in table  # its times in the tz parameter's zone too
    # a zoom on the last day (a link of the page), and a span it does not know
    day = _get(svc, f"/ui/users/alice/segments/{seg.id}?span=day", key)
    assert day.status_code == 200 and 'aria-current="page">the last day' in day.text
    bad = _get(svc, f"/ui/users/alice/segments/{seg.id}?span=<b>", key)
    assert bad.status_code == 422 and "span" in bad.text and "<b>" not in bad.text
