"""Admin keys and routes, and keys bound to agents, on a real uvicorn on loopback.

One server for the module (SQLite in a tmp dir; an embedder that refuses one character,
so a message is quarantined for real). Every admin route is tried with no key, a wrong
key, a revoked admin key, a plain key and an agent-bound key (401/401/401/403/403, nothing
changed), and with another tenant's admin key on the tenant's user (the same 404 as a
user never written). Every log record is searched for the keys.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.embeddings import Embeddings
from live_service import LogCapture, auth, serving

from langgraph_memory import AsyncRemoteMemory, MemoryManager, RemoteMemory
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import KeyFile, ServiceSettings, create_app

pytestmark = pytest.mark.timeout(120)

POISON = "\u2603"  # the snowman the embedder refuses while ``refuse`` is set
HELD = "\u23f8"  # a batch holding this waits until ``released`` is set


class Picky(Embeddings):
    """HashingEmbeddings that fails on any batch holding a snowman (an API refusing one
    input) while ``refuse`` is set, and holds one holding :data:`HELD` until ``released``."""

    def __init__(self) -> None:
        self.inner = HashingEmbeddings()
        self.model_id = "picky"
        self.refuse = threading.Event()
        self.refuse.set()
        self.released = threading.Event()
        self.holding = threading.Event()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if any(HELD in t for t in texts):
            self.holding.set()
            assert self.released.wait(timeout=60), "never released"
        if self.refuse.is_set() and any(POISON in t for t in texts):
            raise ValueError("input rejected by the model")
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


class Keys:
    """The module's keys: acme's plain, admin, agent-bound and revoked admin keys, and
    globex's admin key."""

    def __init__(self, root: Path) -> None:
        self.file = KeyFile(root)
        self.plain = self.file.create("acme")
        self.admin = self.file.create("acme", admin=True)
        self.planner = self.file.create("acme", agents=["planner"])
        self.two = self.file.create("acme", agents=["planner", "coder"])
        self.globex_admin = self.file.create("globex", admin=True)
        self.revoked = self.file.create("acme", admin=True)
        self.file.revoke(self.revoked)

    def all(self) -> list[str]:
        return [self.plain, self.admin, self.planner, self.two, self.globex_admin, self.revoked]


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("admin")
    keys = Keys(root)
    emb = Picky()
    logs = LogCapture()
    with logs.everywhere():
        app = create_app(root, settings=ServiceSettings(max_backups=2), embeddings=emb)
        with serving(app) as url, httpx.Client(base_url=url, timeout=60) as c:
            s = {"c": c, "k": keys, "root": root, "emb": emb, "logs": logs, "url": url}
            _seed(s)
            yield s


def _call(s: dict[str, Any], key: str | None, method: str, path: str, body: Any = None) -> Any:
    headers = auth(key) if key else {}
    return s["c"].request(method, path, json=body, headers=headers)


def _seed(s: dict[str, Any]) -> None:
    """acme's alice: two messages (one the embedder refuses), three vet tasks done."""
    k = s["k"].plain
    for mid, text in (("m1", "Miso the cat sees Dr. Okafor."), ("m2", f"Snow {POISON} day")):
        body = {"session_id": "s1", "role": "user", "content": text, "message_id": mid}
        assert _call(s, k, "POST", "/v1/users/alice/messages", body).status_code == 201
    for i in range(3):
        start = {"session_id": "s1", "request": f"vet {i}"}
        r = _call(s, k, "POST", "/v1/users/alice/tasks", start)
        tid = r.json()["id"]
        done = {"summary": f"booked the vet {i}", "target": "vet", "outcome": "success"}
        assert _call(s, k, "POST", f"/v1/users/alice/tasks/{tid}/complete", done).status_code == 200
    assert _call(s, k, "POST", "/v1/flush", {"timeout": 30}).status_code == 200


#: Every admin route: (method, path, body); ``{u}`` is the user.
ADMIN_ROUTES: list[tuple[str, str, Any]] = [
    ("POST", "/v1/admin/backup", None),
    ("POST", "/v1/admin/verify", None),
    ("GET", "/v1/admin/failed", None),
    ("GET", "/v1/admin/users/{u}/failed", None),
    ("POST", "/v1/admin/users/{u}/retry", {}),
    ("POST", "/v1/admin/users/{u}/forget", {"dry_run": False}),
    ("POST", "/v1/admin/users/{u}/consolidate", None),
    ("POST", "/v1/admin/users/{u}/reflect", None),
]


def _state(s: dict[str, Any]) -> dict[str, Any]:
    """What the admin routes could change: backups, failed messages, episodes, knowledge."""
    k = s["k"]
    backups = sorted(p.name for p in (s["root"] / "backups").rglob("*.sqlite3"))
    return {
        "backups": backups,
        "failed": _call(s, k.admin, "GET", "/v1/admin/users/alice/failed").json(),
        "episodes": _call(s, k.plain, "GET", "/v1/users/alice/episodes").json(),
        "stats": _call(s, k.plain, "GET", "/v1/users/alice/stats").json()["layers"],
    }


@pytest.mark.parametrize("who", ["no key", "wrong key", "revoked admin", "plain", "agent-bound"])
def test_every_admin_route_refuses_a_key_that_is_not_the_tenants_admin(
    svc: dict[str, Any], who: str
) -> None:
    k = svc["k"]
    key, status = {
        "no key": (None, 401),
        "wrong key": (k.admin[:-2] + ("AA" if not k.admin.endswith("AA") else "BB"), 401),
        "revoked admin": (k.revoked, 401),
        "plain": (k.plain, 403),
        "agent-bound": (k.planner, 403),
    }[who]
    before = _state(svc)
    for method, path, body in ADMIN_ROUTES:
        r = _call(svc, key, method, path.format(u="alice"), body)
        assert r.status_code == status, (path, r.text)
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["status"] == status
        if status == 403:
            assert "admin key" in r.json()["detail"]
    assert _state(svc) == before


def test_another_tenants_admin_gets_the_404_of_a_user_never_written(svc: dict[str, Any]) -> None:
    k = svc["k"]
    before = _state(svc)
    for method, path, body in ADMIN_ROUTES:
        if "{u}" not in path:
            continue
        for uid in ("alice", "acme:alice", "acme%3Aalice"):
            theirs = _call(svc, k.globex_admin, method, path.format(u=uid), body)
            nobody = _call(svc, k.globex_admin, method, path.format(u="ghost"), body)
            assert theirs.status_code == 404, (path, uid, theirs.text)
            strip = lambda r: {k: v for k, v in r.json().items() if k != "instance"}  # noqa: E731
            assert strip(theirs) == strip(nobody)
    # the tenant-wide list of failed messages is the caller's tenant's only
    assert _call(svc, k.globex_admin, "GET", "/v1/admin/failed").json() == []
    assert _state(svc) == before


def test_failed_messages_are_listed_and_retried_as_the_tenants_own(svc: dict[str, Any]) -> None:
    k = svc["k"]
    failed = _call(svc, k.admin, "GET", "/v1/admin/users/alice/failed").json()
    assert [(f["user_id"], f["message_id"]) for f in failed] == [("alice", "m2")]
    assert "rejected" in failed[0]["error"]
    everyone = _call(svc, k.admin, "GET", "/v1/admin/failed").json()
    assert everyone == failed
    assert "acme:" not in json.dumps(everyone)
    r = _call(svc, k.admin, "POST", "/v1/admin/users/alice/retry", {"message_ids": ["nope"]})
    assert r.json() == {"user_id": "alice", "requeued": 0}
    svc["emb"].refuse.clear()  # the model is fixed
    try:
        r = _call(svc, k.admin, "POST", "/v1/admin/users/alice/retry", None)
        assert r.status_code == 200 and r.json() == {"user_id": "alice", "requeued": 1}, r.text
        assert _call(svc, k.plain, "POST", "/v1/flush", {"timeout": 30}).status_code == 200
        assert _call(svc, k.admin, "GET", "/v1/admin/users/alice/failed").json() == []
        stats = _call(svc, k.plain, "GET", "/v1/users/alice/stats").json()
        assert stats["failed"] == 0 and stats["pending"] == 0 and stats["embedded"] == 2
    finally:
        svc["emb"].refuse.set()


def test_forget_consolidate_and_reflect_run_for_the_tenants_user(svc: dict[str, Any]) -> None:
    k = svc["k"]
    r = _call(svc, k.admin, "POST", "/v1/admin/users/alice/forget", {"dry_run": True})
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["dry_run"] is True and report["scored"] == 3
    assert report["kept"] + len(report["forgotten"]) == 3
    r = _call(svc, k.admin, "POST", "/v1/admin/users/alice/consolidate")
    assert r.status_code == 200, r.text
    made = r.json()
    assert made and all(x["user_id"] == "alice" and x["target"] == "vet" for x in made)
    assert len(made[0]["source_episodes"]) == 3
    r = _call(svc, k.admin, "POST", "/v1/admin/users/alice/reflect")
    assert r.status_code == 200 and r.json()["user_id"] == "alice", r.text
    body = r.json()
    assert all(x["user_id"] == "alice" for x in body["lessons"] + body["insights"])
    # a user of the tenant never written: 404, and a bad body 422 naming the field
    assert _call(svc, k.admin, "POST", "/v1/admin/users/ghost/reflect").status_code == 404
    r = _call(svc, k.admin, "POST", "/v1/admin/users/alice/forget", {"dry_run": "maybe"})
    assert r.status_code == 422 and r.json()["field"] == "dry_run"
    r = _call(svc, k.admin, "POST", "/v1/admin/users/alice/retry", {"path": "/etc"})
    assert r.status_code == 422 and r.json()["field"] == "path"


def test_backup_lands_in_the_tenants_backups_directory_and_opens(svc: dict[str, Any]) -> None:
    k = svc["k"]
    root: Path = svc["root"]
    assert _call(svc, k.admin, "POST", "/v1/admin/verify").json() == {"ok": True, "detail": None}
    outside = root.parent / "elsewhere.sqlite3"
    r = _call(svc, k.admin, "POST", "/v1/admin/backup", {"path": str(outside)})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["file"].startswith("acme/memory-") and made["file"].endswith(".sqlite3")
    assert str(root) not in r.text and not outside.exists()  # no client path, none shown
    copy = root / "backups" / made["file"]
    assert copy.stat().st_size == made["bytes"] > 0
    with MemoryManager(copy, embeddings=HashingEmbeddings()) as mm:
        assert mm.stats("acme:alice")["messages"] == 2
    # the tenant's limit: the second is made, the third refused until one is removed
    assert _call(svc, k.admin, "POST", "/v1/admin/backup").status_code == 201
    r = _call(svc, k.admin, "POST", "/v1/admin/backup")
    assert r.status_code == 409 and r.json()["type"] == "/problems/too-many-backups"
    assert len(list((root / "backups" / "acme").glob("memory-*.sqlite3"))) == 2
    # another tenant's admin backs up into its own directory
    r = _call(svc, k.globex_admin, "POST", "/v1/admin/backup")
    assert r.status_code == 201 and r.json()["file"].startswith("globex/")


def test_a_key_bound_to_agents_acts_only_as_them(svc: dict[str, Any]) -> None:
    k = svc["k"]
    q = {"query": "vet"}
    # search and context: another agent is 403 naming the field; none is the key's agent
    for path in ("/v1/users/alice/search", "/v1/users/alice/context"):
        r = _call(svc, k.planner, "POST", path, {**q, "agent_id": "coder"})
        assert r.status_code == 403 and r.json()["field"] == "agent_id", r.text
        assert r.json()["type"] == "/problems/agent-forbidden"
        assert _call(svc, k.planner, "POST", path, q).status_code == 200
        assert _call(svc, k.planner, "POST", path, {**q, "agent_id": "planner"}).status_code == 200
        # a key of two agents names one; an unbound key may name any
        assert _call(svc, k.two, "POST", path, q).status_code == 403
        assert _call(svc, k.two, "POST", path, {**q, "agent_id": "coder"}).status_code == 200
        assert _call(svc, k.plain, "POST", path, {**q, "agent_id": "coder"}).status_code == 200
    # tasks: started as the key's agent, never as another
    before = _call(svc, k.plain, "GET", "/v1/users/alice/stats").json()["layers"]
    start = {"session_id": "s2", "request": "plan the trip", "agent_id": "coder"}
    r = _call(svc, k.planner, "POST", "/v1/users/alice/tasks", start)
    assert r.status_code == 403 and r.json()["field"] == "agent_id"
    assert _call(svc, k.plain, "GET", "/v1/users/alice/stats").json()["layers"] == before
    r = _call(svc, k.planner, "POST", "/v1/users/alice/tasks", {**start, "agent_id": None})
    assert r.status_code == 201 and r.json()["agent_id"] == "planner", r.text
    mine = r.json()["id"]
    r = _call(svc, k.two, "POST", "/v1/users/alice/tasks", start)
    assert r.status_code == 201 and r.json()["agent_id"] == "coder"
    coders = r.json()["id"]
    # the planner reads the coder's task, but may not work on it
    path = f"/v1/users/alice/tasks/{coders}"
    assert _call(svc, k.planner, "GET", path).status_code == 200
    for method, sub, body in (
        ("POST", "/steps", {"description": "x"}),
        ("PATCH", "/steps/0", {"status": "completed"}),
        ("POST", "/complete", {"summary": "x"}),
    ):
        r = _call(svc, k.planner, method, path + sub, body)
        assert r.status_code == 403 and r.json()["field"] == "agent_id", (sub, r.text)
    task = _call(svc, k.plain, "GET", path).json()
    assert task["status"] == "in_progress" and task["steps"] == []
    r = _call(svc, k.planner, "POST", f"/v1/users/alice/tasks/{mine}/steps", {"description": "y"})
    assert r.status_code == 201
    # messages carry no agent: a bound key writes them as any key of the tenant does
    msg = {"session_id": "s2", "role": "user", "content": "Book the train."}
    assert _call(svc, k.planner, "POST", "/v1/users/alice/messages", msg).status_code == 201


def test_a_tenants_flush_does_not_wait_for_another_tenants_writes(svc: dict[str, Any]) -> None:
    k, emb = svc["k"], svc["emb"]
    msg = {"session_id": "s", "role": "user", "content": f"globex's held note {HELD}"}
    # acme's writes so far embedded (one batch may mix tenants: a held batch holds all)
    assert _call(svc, k.plain, "POST", "/v1/flush", {"timeout": 30}).status_code == 200
    try:
        r = _call(svc, k.globex_admin, "POST", "/v1/users/zoe/messages", msg)
        assert r.status_code == 201 and emb.holding.wait(timeout=30)
        # globex's message holds the embedder: acme's flush returns, globex's waits
        assert _call(svc, k.plain, "POST", "/v1/flush", {"timeout": 30}).status_code == 200
        r = _call(svc, k.globex_admin, "POST", "/v1/flush", {"timeout": 0.5})
        assert r.status_code == 504 and r.json()["type"] == "/problems/timeout"
        stats = _call(svc, k.globex_admin, "GET", "/v1/users/zoe/stats").json()
        assert stats["pending"] == 1
    finally:
        emb.released.set()
    assert _call(svc, k.globex_admin, "POST", "/v1/flush", {"timeout": 30}).status_code == 200
    assert _call(svc, k.globex_admin, "GET", "/v1/users/zoe/stats").json()["pending"] == 0


def test_remote_memory_has_the_admin_calls(svc: dict[str, Any]) -> None:
    k, url = svc["k"], svc["url"]
    with RemoteMemory(url, api_key=k.admin) as mem:
        failed_before = mem.maintenance.failed()
        mem.maintenance.verify()
        report = mem.maintenance.forget(dry_run=True, user_id="alice")
        assert report.dry_run and report.scored >= 3
        assert mem.maintenance.forget(dry_run=True, user_id="ghost").scored == 0
        assert all(x.user_id == "alice" for x in mem.maintenance.consolidate("alice"))
        assert mem.maintenance.consolidate("ghost") == []
        lessons, insights = mem.maintenance.reflect("alice")
        assert all(x.user_id == "alice" for x in lessons + insights)
        assert mem.maintenance.reflect("ghost") == ([], [])
        assert mem.maintenance.failed() == mem.maintenance.failed("alice")
        assert mem.maintenance.failed("ghost") == [] and mem.maintenance.retry_failed("ghost") == 0
        assert "alice" in mem.maintenance.users()
        with pytest.raises(TypeError, match="message_ids"):
            mem.maintenance.retry_failed("alice", "m2")
    for key in (k.plain, k.planner):
        with RemoteMemory(url, api_key=key) as mem:
            with pytest.raises(PermissionError, match="admin key"):
                mem.maintenance.verify()
            with pytest.raises(PermissionError, match="admin key"):
                mem.backup()
    with RemoteMemory(url, api_key=k.planner) as mem:
        with pytest.raises(PermissionError, match="agent"):
            mem.search("alice", "vet", agent_id="coder")
    with RemoteMemory(url, api_key=k.revoked) as mem, pytest.raises(PermissionError):
        mem.maintenance.failed()

    for old in (svc["root"] / "backups").glob("globex/memory-*.sqlite3"):
        old.unlink()  # as the operator collects them (the tenant's limit is 2)

    async def run() -> None:
        async with AsyncRemoteMemory(url, api_key=k.globex_admin) as mem:
            await mem.maintenance.verify()
            assert await mem.maintenance.failed() == []
            assert await mem.maintenance.failed("alice") == []  # acme's alice is not globex's
            assert (await mem.maintenance.forget(user_id="alice")).scored == 0
            assert await mem.maintenance.consolidate("alice") == []
            assert await mem.maintenance.reflect("alice") == ([], [])
            assert await mem.maintenance.retry_failed("alice") == 0
            made = await mem.backup()
            assert made.file.startswith("globex/") and made.bytes > 0

    import asyncio

    asyncio.run(run())
    # the acme side is unchanged by globex's calls
    with RemoteMemory(url, api_key=k.admin) as mem:
        assert mem.maintenance.failed() == failed_before


def test_no_key_appears_in_any_log(svc: dict[str, Any]) -> None:
    k = svc["k"]
    for key in k.all():
        for method, path, body in ADMIN_ROUTES[1:]:
            _call(svc, key, method, path.format(u="alice"), body)
        _call(svc, key, "POST", "/v1/users/alice/search", {"query": "x", "agent_id": "zzz"})
    lines = svc["logs"].lines
    assert any("/v1/admin/verify" in line for line in lines), "the capture saw nothing"
    for key in k.all():
        secret = key.split("_", 2)[2]
        assert not [line for line in lines if secret in line]
