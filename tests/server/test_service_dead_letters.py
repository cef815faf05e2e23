"""The write queue's dead letters over the service's admin routes, on a real Redis.

One ``redis-server`` (append-only file on) on loopback, one service (SQLite in a tmp dir,
``HashingEmbeddings``, a broker) on a real uvicorn. Checked: writes a worker failed
``max_attempts`` times are listed under ``GET /v1/admin/queue/dead`` for their tenant
only and counted by ``GET /v1/admin/queue`` and the user's stats; ``POST
/v1/admin/queue/dead/retry`` publishes them again (another tenant's entry ids are
ignored, a second retry moves nothing) and a healthy worker then stores each once;
non-admin keys get 403; a service without a broker answers 501.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from live_service import Tenants, auth, serving
from redis_server import MISSING, redis_server

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]

PREFIX = "lgm:dlq"


def test_dead_letters_are_listed_per_tenant_and_retried_once(tmp_path: Path) -> None:
    from langgraph_memory.integrations.queue import QueueWorker, WriteQueue
    from langgraph_memory.integrations.server import create_app

    t = Tenants(tmp_path)
    acme_admin = t.keys.create("acme", admin=True)
    globex_admin = t.keys.create("globex", admin=True)
    with redis_server() as server:

        def queue() -> WriteQueue:
            return WriteQueue.from_url(server.url, prefix=PREFIX, max_attempts=2, claim_idle_s=0.1)

        api_q, worker_q = queue(), queue()
        app = create_app(tmp_path, broker=api_q, embeddings=HashingEmbeddings())
        with serving(app, log_level="warning") as url, httpx.Client(base_url=url) as c:
            for key, user, text in ((t.acme, "ann", "ann likes 绿茶"),
                                    (t.acme, "ann", "ann likes 红茶"),
                                    (t.globex, "gus", "gus likes coffee")):  # fmt: skip
                body = {"session_id": "s", "role": "user", "content": text}
                r = c.post(f"/v1/users/{user}/messages", json=body, headers=auth(key))
                assert r.status_code == 201, r.text
            # a worker whose store is closed fails every write: each is dead-lettered
            broken = MemoryManager(tmp_path / "broken", embeddings=HashingEmbeddings())
            broken.close()
            bad = QueueWorker(worker_q, broken, consumer="broken", block_s=0.05)
            for _ in range(100):
                if api_q.outstanding() == 0:
                    break
                bad.run_once()
            assert api_q.outstanding() == 0 and bad.dead == 3

            r = c.get("/v1/admin/queue/dead", headers=auth(acme_admin))
            assert r.status_code == 200, r.text
            dead = r.json()
            assert sorted(d["user_id"] for d in dead) == ["ann", "ann"]  # not globex's
            assert all(d["attempts"] == 2 and "closed" in d["error"] for d in dead)
            assert c.get("/v1/admin/queue", headers=auth(acme_admin)).json() == {
                "queued": 0,
                "dead_letters": 2,
            }
            stats = c.get("/v1/users/ann/stats", headers=auth(t.acme)).json()
            assert stats["queue"] == {"queued": 0, "dead_letters": 2}
            for path in ("/v1/admin/queue/dead", "/v1/admin/queue"):
                assert c.get(path, headers=auth(t.acme)).status_code == 403

            # globex cannot move acme's dead letters, even by their ids
            ids = [d["entry_id"] for d in dead]
            r = c.post("/v1/admin/queue/dead/retry", json={"entry_ids": ids},
                       headers=auth(globex_admin))  # fmt: skip
            assert r.status_code == 200 and r.json() == {"requeued": 0}
            r = c.post("/v1/admin/queue/dead/retry", json={"entry_ids": ids[:1]},
                       headers=auth(acme_admin))  # fmt: skip
            assert r.json() == {"requeued": 1}
            r = c.post("/v1/admin/queue/dead/retry", headers=auth(acme_admin))
            assert r.json() == {"requeued": 1}  # the other one; the first is not moved twice
            assert c.post("/v1/admin/queue/dead/retry", headers=auth(acme_admin)).json() == {
                "requeued": 0
            }
            assert api_q.outstanding(tenant="acme") == 2
            assert api_q.outstanding(tenant="globex") == 0  # still dead, still listed for it
            assert len(c.get("/v1/admin/queue/dead", headers=auth(globex_admin)).json()) == 1

            with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
                good = QueueWorker(worker_q, mm, consumer="good", block_s=0.05)
                good.run(until_idle=True)
                assert good.stored == 2
            r = c.post("/v1/flush", json={"timeout": 30}, headers=auth(t.acme))
            assert r.status_code == 200
            stats = c.get("/v1/users/ann/stats", headers=auth(t.acme)).json()
            assert stats["messages"] == 2
            assert stats["queue"] == {"queued": 0, "dead_letters": 0}
        api_q.close()
        worker_q.close()


def test_without_a_broker_the_queue_routes_answer_501(tmp_path: Path) -> None:
    from langgraph_memory.integrations.server import create_app

    t = Tenants(tmp_path)
    admin = t.keys.create("acme", admin=True)
    with TestClient(create_app(tmp_path, embeddings=HashingEmbeddings())) as c:
        for method, path in (("GET", "/v1/admin/queue"), ("GET", "/v1/admin/queue/dead"),
                             ("POST", "/v1/admin/queue/dead/retry")):  # fmt: skip
            r = c.request(method, path, headers=auth(admin))
            assert r.status_code == 501 and "broker" in r.json()["detail"], r.text
