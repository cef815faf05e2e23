"""The REST service on a real uvicorn on loopback: routes, auth, problems, limits, tenants.

One server for the module (SQLite in a tmp dir, ``HashingEmbeddings``), every request a
real HTTP request. The hostile part runs every user route as another tenant against the
first tenant's user ids (in the path and in bodies) and checks 0 cross-tenant reads or
writes; every log record at DEBUG (uvicorn's, the app's, httpx's) is captured and
searched for the keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_service import LogCapture, Tenants, auth, serving

from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import ServiceSettings, create_app

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("service")
    tenants = Tenants(root)
    logs = LogCapture()
    settings = ServiceSettings(max_body_bytes=64 * 1024, max_batch=20, max_token_budget=4000)
    with logs.everywhere():
        app = create_app(root, settings=settings, embeddings=HashingEmbeddings())
        with serving(app) as url, httpx.Client(base_url=url, timeout=30) as client:
            yield {"url": url, "t": tenants, "c": client, "logs": logs, "root": root}


def _post(svc: dict[str, Any], key: str | None, path: str, body: Any) -> httpx.Response:
    headers = auth(key) if key else {}
    return svc["c"].post(path, json=body, headers=headers)


def _alice(svc: dict[str, Any]) -> None:
    """acme's alice (made once per module): three messages (one with a known id), an
    anchor; flushed."""
    if svc.setdefault("alice", False):
        return
    svc["alice"] = True
    key = svc["t"].acme
    r = _post(svc, key, "/v1/users/alice/messages", {
        "session_id": "s1", "role": "user", "content": "My cat Miso is allergic to salmon.",
        "message_id": "m-a1", "metadata": {"topic": "pets"},
    })  # fmt: skip
    assert r.status_code == 201, r.text
    r = _post(svc, key, "/v1/users/alice/turns", {
        "session_id": "s1", "user": "I moved to Lyon last spring.", "assistant": "Lyon is lovely!",
    })  # fmt: skip
    assert r.status_code == 201 and len(r.json()["message_ids"]) == 2
    r = _post(
        svc, key, "/v1/users/alice/anchors", {"text": "Answer in French.", "anchor_id": "anc-a"}
    )
    assert r.status_code == 201 and r.json()["user_id"] == "alice", r.text
    r = _post(svc, key, "/v1/users/alice/tasks", {"session_id": "s1", "request": "book a vet"})
    assert r.status_code == 201 and r.json()["user_id"] == "alice", r.text
    svc["task"] = tid = r.json()["id"]
    r = _post(svc, key, f"/v1/users/alice/tasks/{tid}/steps", {"description": "call the vet"})
    assert r.status_code == 201 and r.json() == {"index": 0}
    patch = {"status": "completed", "result": "booked"}
    r = svc["c"].patch(f"/v1/users/alice/tasks/{tid}/steps/0", json=patch, headers=auth(key))
    assert r.status_code == 200 and r.json()["status"] == "completed", r.text
    doc = {"text": "# Vet\n\nMiso's vet is Dr. Okafor, open on Saturdays.", "document_id": "vet"}
    r = _post(svc, key, "/v1/users/alice/documents", doc)
    assert r.status_code == 201 and r.json()["document_id"] == "vet", r.text
    assert _post(svc, key, "/v1/flush", {"timeout": 30}).json() == {"flushed": True}


def test_health_and_readiness_need_no_key(svc: dict[str, Any]) -> None:
    assert svc["c"].get("/v1/health").json()["status"] == "ok"
    assert svc["c"].get("/v1/ready").json()["status"] == "ready"


@pytest.mark.parametrize("which", ["none", "wrong", "revoked", "malformed", "other-scheme"])
def test_no_key_a_wrong_key_and_a_revoked_key_get_401(svc: dict[str, Any], which: str) -> None:
    t = svc["t"]
    headers = {
        "none": {},
        "wrong": auth(t.acme[:-4] + "AAAA"),
        "revoked": auth(t.revoked),
        "malformed": auth("hello"),
        "other-scheme": {"Authorization": f"Basic {t.acme}"},
    }[which]
    for method, path in [
        ("POST", "/v1/users/alice/search"),
        ("POST", "/v1/users/alice/messages"),
        ("POST", "/v1/flush"),
        ("GET", "/v1/users"),
        ("DELETE", "/v1/users/alice"),
    ]:
        r = svc["c"].request(method, path, json={"query": "x"}, headers=headers)
        assert r.status_code == 401, (which, path, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.headers["www-authenticate"] == "Bearer"
        assert r.json()["status"] == 401


def test_a_message_is_found_after_flush_and_the_context_cites_it(svc: dict[str, Any]) -> None:
    _alice(svc)
    key = svc["t"].acme
    r = _post(
        svc,
        key,
        "/v1/users/alice/search",
        {"query": "salmon allergy", "k": 3, "layers": ["message"]},
    )
    assert r.status_code == 200, r.text
    hits = r.json()["hits"]
    assert hits[0]["id"] == "m-a1" and "salmon" in hits[0]["text"]
    assert r.json()["user_id"] == "alice"
    r = _post(svc, key, "/v1/users/alice/context", {
        "query": "What should I not feed Miso?", "session_id": "s2", "token_budget": 200,
        "explain": True,
    })  # fmt: skip
    assert r.status_code == 200, r.text
    ctx = r.json()
    assert ctx["user_id"] == "alice" and ctx["tokens"] <= 200
    assert "salmon" in ctx["text"] and "Answer in French." in ctx["text"]
    assert "m-a1" in ctx["source_ids"]
    assert {"layer", "text", "score", "source_ids", "reason"} <= set(ctx["items"][0])
    assert ctx["explanation"]
    body = {"query": "Who is Miso's vet?", "token_budget": 300}
    assert "Okafor" in _post(svc, key, "/v1/users/alice/context", body).json()["text"]
    stats = svc["c"].get("/v1/users/alice/stats", headers=auth(key)).json()
    assert stats["messages"] == 3 and "path" not in stats
    assert "acme:" not in str(stats)


def test_a_batch_is_idempotent_by_message_id_and_bounded(svc: dict[str, Any]) -> None:
    key = svc["t"].acme
    batch = {"messages": [
        {"session_id": "b", "role": "user", "content": f"note number {i}", "message_id": f"b{i}"}
        for i in range(5)
    ]}  # fmt: skip
    first = _post(svc, key, "/v1/users/bob/messages/batch", batch)
    again = _post(svc, key, "/v1/users/bob/messages/batch", batch)
    assert first.status_code == again.status_code == 201, first.text
    assert first.json()["message_ids"] == again.json()["message_ids"] == [f"b{i}" for i in range(5)]
    assert svc["c"].get("/v1/users/bob/stats", headers=auth(key)).json()["messages"] == 5
    # the same id with other content is refused, naming the message
    clash = {
        "messages": [{"session_id": "b", "role": "user", "content": "other", "message_id": "b0"}]
    }
    r = _post(svc, key, "/v1/users/bob/messages/batch", clash)
    assert r.status_code == 422 and r.json()["field"] == "messages[0]", r.text
    too_many = {"messages": batch["messages"] * 5}  # 25 > max_batch 20
    r = _post(svc, key, "/v1/users/bob/messages/batch", too_many)
    assert r.status_code == 413 and r.json()["field"] == "messages"
    assert svc["c"].get("/v1/users/bob/stats", headers=auth(key)).json()["messages"] == 5


def test_problems_name_the_field_and_limits_come_first(svc: dict[str, Any]) -> None:
    key = svc["t"].acme
    msg = "/v1/users/bob/messages"
    ok = {"session_id": "s", "role": "user", "content": "hi"}
    cases = [
        (msg, ok | {"content": ""}, 422, "content"),
        (msg, ok | {"role": "pirate"}, 422, "role"),
        (msg, {"session_id": "s", "role": "user"}, 422, "content"),
        (msg, ok | {"bogus": 1}, 422, "bogus"),
        (msg, ok | {"timestamp": "not a date"}, 422, "timestamp"),
        (msg, ok | {"metadata": {"a": [[[]]] * 1, "b": "\u0000"}}, 422, None),
        ("/v1/users/bob/search", {"query": "x", "k": 0}, 422, "k"),
        ("/v1/users/bob/search", {"query": "x", "k": 10_000}, 422, "k"),
        ("/v1/users/bob/context", {"query": "x", "token_budget": 999_999}, 422, "token_budget"),
        ("/v1/users/bob/search", {"query": "x", "filter": {"user_id": "alice"}}, 422, None),
    ]
    for path, body, status, field in cases:
        r = _post(svc, key, path, body)
        assert r.status_code == status, (body, r.text)
        problem = r.json()
        assert r.headers["content-type"].startswith("application/problem+json")
        assert problem["status"] == status and problem["title"] and problem["detail"]
        if field is not None:
            assert problem["field"] == field, (body, problem)
    big = {"session_id": "s", "role": "user", "content": "x" * 70_000}  # > 64 KiB body
    r = _post(svc, key, "/v1/users/bob/messages", big)
    assert r.status_code == 413 and r.json()["field"] == "body"
    assert svc["c"].get("/v1/users/bob/stats", headers=auth(key)).json()["messages"] == 5


def test_delete_one_message_then_the_user(svc: dict[str, Any]) -> None:
    key = svc["t"].acme
    c = svc["c"]
    mid = _post(svc, key, "/v1/users/carol/messages", {
        "session_id": "s", "role": "user", "content": "my locker code hint is the blue door",
    }).json()["message_id"]  # fmt: skip
    _post(
        svc, key, "/v1/users/carol/messages", {"session_id": "s", "role": "user", "content": "hi"}
    )
    r = c.delete(f"/v1/users/carol/messages/{mid}", headers=auth(key))
    assert r.status_code == 200 and r.json()["deleted"] == 1
    assert c.delete(f"/v1/users/carol/messages/{mid}", headers=auth(key)).status_code == 404
    assert c.delete("/v1/users/carol", headers=auth(key)).json()["deleted"] == 1
    r = _post(svc, key, "/v1/users/carol/search", {"query": "locker"})
    assert (
        r.status_code == 404
        and "carol" not in c.get("/v1/users", headers=auth(key)).json()["users"]
    )


# -- another tenant -----------------------------------------------------------------------
USER_ROUTES: list[tuple[str, str, Any]] = [
    ("POST", "/v1/users/{u}/context", {"query": "salmon", "session_id": "s1"}),
    ("POST", "/v1/users/{u}/search", {"query": "salmon"}),
    ("GET", "/v1/users/{u}/stats", None),
    ("GET", "/v1/users/{u}/anchors", None),
    ("DELETE", "/v1/users/{u}/anchors/anc-a", None),
    ("DELETE", "/v1/users/{u}/messages/m-a1", None),
    ("GET", "/v1/users/{u}/tasks/{t}", None),
    ("POST", "/v1/users/{u}/tasks/{t}/steps", {"description": "x"}),
    ("PATCH", "/v1/users/{u}/tasks/{t}/steps/0", {"status": "failed"}),
    ("POST", "/v1/users/{u}/tasks/{t}/complete", {"summary": "hijacked"}),
    ("GET", "/v1/users/{u}/episodes", None),
    ("POST", "/v1/users/{u}/feedback", {"target": "location", "signal": "corrected"}),
    ("GET", "/v1/users/{u}/documents", None),
    ("DELETE", "/v1/users/{u}/documents/vet", None),
    ("GET", "/v1/users/{u}/documents/vet/chunks", None),
    ("POST", "/v1/users/{u}/documents/search", {"query": "vet"}),
    ("GET", "/v1/users/{u}/preferences", None),
    ("GET", "/v1/users/{u}/facts", None),
    ("GET", "/v1/users/{u}/entities", None),
    ("GET", "/v1/users/{u}/entities/Miso/relations", None),
    ("GET", "/v1/users/{u}/insights", None),
    ("GET", "/v1/users/{u}/rollups", None),
    ("DELETE", "/v1/users/{u}", None),
]


def _as(svc: dict[str, Any], key: str, method: str, path: str, body: Any) -> httpx.Response:
    return svc["c"].request(method, path, json=body, headers=auth(key))


def test_another_tenants_user_is_404_on_every_route_like_a_user_that_does_not_exist(
    svc: dict[str, Any],
) -> None:
    _alice(svc)
    t = svc["t"]
    before = _as(svc, t.acme, "GET", "/v1/users/alice/stats", None).json()
    for method, template, body in USER_ROUTES:
        for uid in ("alice", "acme:alice", "acme%3Aalice", "..%2Facme:alice"):
            theirs = _as(svc, t.globex, method, template.format(u=uid, t=svc["task"]), body)
            ghost = uid.replace("alice", "ghost")  # the same shape, never written by anyone
            nobody = _as(svc, t.globex, method, template.format(u=ghost, t=svc["task"]), body)
            assert theirs.status_code == 404, (method, template, uid, theirs.text)
            strip = lambda r: {k: v for k, v in r.json().items() if k != "instance"}  # noqa: E731
            assert strip(theirs) == strip(nobody), (template, uid)
            assert dict(theirs.headers).keys() == dict(nobody.headers).keys()
    # and nothing of acme's alice changed
    after = _as(svc, t.acme, "GET", "/v1/users/alice/stats", None).json()
    assert after["messages"] == before["messages"] == 3
    anchors = _as(svc, t.acme, "GET", "/v1/users/alice/anchors", None).json()
    assert [a["id"] for a in anchors] == ["anc-a"]
    task = _as(svc, t.acme, "GET", f"/v1/users/alice/tasks/{svc['task']}", None).json()
    assert task["status"] == "in_progress" and len(task["steps"]) == 1
    assert _as(svc, t.acme, "GET", "/v1/users/alice/episodes", None).json() == []
    docs = _as(svc, t.acme, "GET", "/v1/users/alice/documents", None).json()
    assert [d["document_id"] for d in docs] == ["vet"] and not docs[0]["shared"]


def test_another_tenants_writes_land_in_its_own_namespace(svc: dict[str, Any]) -> None:
    _alice(svc)
    t = svc["t"]
    # globex writes to "alice" with acme's message id and other content: no 409 oracle,
    # no overwrite, a user of its own
    r = _post(svc, t.globex, "/v1/users/alice/messages", {
        "session_id": "s1", "role": "user", "content": "globex alice likes salmon sushi",
        "message_id": "m-a1",
    })  # fmt: skip
    assert r.status_code == 201 and r.json() == {"user_id": "alice", "message_id": "m-a1"}
    r = _post(svc, t.globex, "/v1/users/alice/anchors", {"text": "Be terse.", "anchor_id": "anc-a"})
    assert r.status_code == 201
    _post(svc, t.globex, "/v1/flush", {})
    mine = _post(svc, t.acme, "/v1/users/alice/search", {"query": "salmon", "k": 20}).json()["hits"]
    theirs = _post(svc, t.globex, "/v1/users/alice/search", {"query": "salmon", "k": 20}).json()[
        "hits"
    ]
    assert all("globex" not in h["text"] for h in mine) and mine
    assert all("Miso" not in h["text"] and "Lyon" not in h["text"] for h in theirs) and theirs
    # ids and filters in bodies stay in the caller's namespace
    ctx = _post(svc, t.globex, "/v1/users/alice/context", {
        "query": "salmon Miso Lyon French", "session_id": "s1", "shown_ids": ["m-a1"],
        "filter": {"topic": "pets"},
    }).json()  # fmt: skip
    assert "Miso" not in ctx["text"] and "French" not in ctx["text"] and "Lyon" not in ctx["text"]
    assert "Okafor" not in ctx["text"]
    r = _as(svc, t.globex, "DELETE", "/v1/users/alice/documents/vet", None)
    assert r.status_code == 404
    tid = svc["task"]
    assert _as(svc, t.globex, "GET", f"/v1/users/alice/tasks/{tid}", None).status_code == 404
    r = _as(svc, t.globex, "POST", f"/v1/users/alice/tasks/{tid}/complete", {"summary": "x"})
    assert r.status_code == 404
    acme_anchor = _as(svc, t.acme, "GET", "/v1/users/alice/anchors", None).json()
    assert [a["text"] for a in acme_anchor] == ["Answer in French."]
    # each tenant lists its own users only
    assert "bob" not in _as(svc, t.globex, "GET", "/v1/users", None).json()["users"]
    assert "alice" in _as(svc, t.globex, "GET", "/v1/users", None).json()["users"]
    # globex deletes its alice: acme's is untouched
    assert _as(svc, t.globex, "DELETE", "/v1/users/alice", None).json()["deleted"] == 1
    assert _as(svc, t.acme, "GET", "/v1/users/alice/stats", None).json()["messages"] == 3


def test_no_key_appears_in_any_log(svc: dict[str, Any]) -> None:
    t = svc["t"]
    # requests with every key, good and bad, so that there is something to log
    for key in (*t.all(), t.acme + "x", "lgm_00000000_" + "A" * 43):
        _post(svc, key, "/v1/users/alice/search", {"query": "salmon"})
        _post(
            svc, key, "/v1/users/zed/messages", {"session_id": "s", "role": "bogus", "content": "x"}
        )
    lines = svc["logs"].lines
    assert any("/v1/users/alice/search" in line for line in lines), "the capture saw nothing"
    for key in (*t.all(), t.acme + "x"):
        secret = key.split("_", 2)[2]
        leaked = [line for line in lines if secret in line]
        assert not leaked, leaked[:3]
    file_text = (svc["root"] / "service_keys.json").read_text()
    assert all(key.split("_", 2)[2] not in file_text for key in t.all())
    assert (svc["root"] / "service_keys.json").stat().st_mode & 0o777 == 0o600
