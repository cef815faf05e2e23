"""``serve --postgres``: two services (two managers, as two processes would have) on one
PostgreSQL database and one keys file; a message accepted by one is found through the
other, tenants stay apart, and a user written through one is known to the other."""

from __future__ import annotations

from pathlib import Path

import httpx
import pg_server
import pytest
from live_service import Tenants, auth, serving

from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import create_app

pytestmark = pytest.mark.timeout(180)


def test_two_services_share_one_postgres(
    tmp_path: Path, pg_databases: pg_server.TestDatabases
) -> None:
    url = pg_databases.new_database()
    tenants = Tenants(tmp_path / "keys")
    kw = {"keys": tenants.keys, "postgres": url, "embeddings": HashingEmbeddings()}
    app_a, app_b = create_app(**kw), create_app(**kw)  # type: ignore[arg-type]
    with serving(app_a, log_level="warning") as a, serving(app_b, log_level="warning") as b:
        with httpx.Client(timeout=60) as c:
            msg = {"session_id": "s", "role": "user", "content": "Our standup moved to 9:15."}
            r = c.post(f"{a}/v1/users/alice/messages", json=msg, headers=auth(tenants.acme))
            assert r.status_code == 201, r.text
            assert c.post(f"{a}/v1/flush", json={}, headers=auth(tenants.acme)).status_code == 200
            # b never saw alice written: it asks the store, and finds her
            body = {"query": "when is standup?"}
            r = c.post(f"{b}/v1/users/alice/search", json=body, headers=auth(tenants.acme))
            assert r.status_code == 200, r.text
            assert "9:15" in r.json()["hits"][0]["text"]
            ctx = c.post(f"{b}/v1/users/alice/context", json=body, headers=auth(tenants.acme))
            assert "9:15" in ctx.json()["text"]
            # another tenant, through either service: the same 404 as a user never written
            for base in (a, b):
                r = c.post(f"{base}/v1/users/alice/search", json=body, headers=auth(tenants.globex))
                assert r.status_code == 404 and r.json()["type"] == "/problems/user-not-found"
            assert c.get(f"{b}/v1/users", headers=auth(tenants.acme)).json()["users"] == ["alice"]
            assert c.get(f"{b}/v1/users", headers=auth(tenants.globex)).json()["users"] == []
