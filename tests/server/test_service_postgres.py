"""``serve --postgres``: two services (two managers, as two processes would have) on one
PostgreSQL database and one keys file; a message accepted by one is found through the
other, tenants stay apart, and a user written through one is known to the other; keys
kept in the database itself are shared by two services and revoked for both within the
key cache's second."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pg_server
import pytest
from live_service import Tenants, auth, serving

from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.cli.commands import main
from langgraph_memory.integrations.server import create_app
from langgraph_memory.integrations.server.keys_pg import KeyTable

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


def test_keys_in_postgres_are_shared_and_revoked_everywhere(
    tmp_path: Path,
    pg_databases: pg_server.TestDatabases,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``keys create --postgres URL``: the key lives in the database, two services read
    it with no keys file, and a revocation by the CLI is refused by both at their next
    request. A PostgreSQL store has no backup of its own: the admin route says 501."""
    url = pg_databases.new_database()
    monkeypatch.chdir(tmp_path)  # a keys file, if one were written, would land here
    assert main(["keys", "create", "--postgres", url, "--tenant", "acme", "--admin"]) == 0
    out = capsys.readouterr()
    admin = out.out.splitlines()[-1]
    assert "lgm_service_keys" in out.err and url not in out.err
    assert main(["keys", "create", "--postgres", url, "--tenant", "acme", "--agent", "bot"]) == 0
    bot = capsys.readouterr().out.splitlines()[-1]
    kw = {"postgres": url, "embeddings": HashingEmbeddings()}
    app_a, app_b = create_app(**kw), create_app(**kw)  # type: ignore[arg-type]
    with serving(app_a, log_level="warning") as a, serving(app_b, log_level="warning") as b:
        with httpx.Client(timeout=60) as c:
            msg = {"session_id": "s", "role": "user", "content": "The lab opens at 8."}
            r = c.post(f"{a}/v1/users/ann/messages", json=msg, headers=auth(bot))
            assert r.status_code == 201, r.text
            r = c.post(f"{b}/v1/users/ann/search", json={"query": "lab"}, headers=auth(bot))
            assert r.status_code == 200, r.text
            r = c.post(f"{b}/v1/users/ann/search", json={"query": "x", "agent_id": "other"},
                       headers=auth(bot))  # fmt: skip
            assert r.status_code == 403 and r.json()["field"] == "agent_id"
            assert c.post(f"{a}/v1/admin/backup", headers=auth(bot)).status_code == 403
            r = c.post(f"{a}/v1/admin/backup", headers=auth(admin))
            assert r.status_code == 501 and "pg_dump" in r.json()["detail"], r.text
            assert c.post(f"{b}/v1/admin/verify", headers=auth(admin)).json()["ok"] is True
            assert main(["keys", "revoke", bot.split("_")[1], "--postgres", url]) == 0
            for base in (a, b):  # each service read the row within a second: refused by then
                for _ in range(30):
                    r = c.post(f"{base}/v1/users/ann/search", json={"query": "lab"},
                               headers=auth(bot))  # fmt: skip
                    if r.status_code != 200:
                        break
                    time.sleep(0.1)
                assert r.status_code == 401, r.text
            assert c.get(f"{b}/v1/users", headers=auth(admin)).json()["users"] == ["ann"]
    capsys.readouterr()
    assert main(["keys", "list", "--postgres", url]) == 0
    listed = capsys.readouterr().out
    assert "bot" in listed and admin.split("_")[1] in listed
    assert admin.split("_", 2)[2] not in listed and bot.split("_", 2)[2] not in listed
    assert not list(tmp_path.rglob("service_keys.json"))


def test_a_key_table_keeps_rows_not_keys_and_forgets_them_after_cache_s(
    pg_databases: pg_server.TestDatabases,
) -> None:
    """A checked key's row answers the next checks without a query for ``cache_s``
    seconds; a revocation made elsewhere counts after that, one made here at once; a
    wrong secret under a kept key id, an unknown id or a malformed key is refused."""
    url = pg_databases.new_database()
    here, elsewhere = KeyTable(url, cache_s=0.5), KeyTable(url, cache_s=0.5)
    try:
        key, other = here.create("acme"), here.create("acme")
        assert here.check_cached(key) == (False, None)  # never read: a query is needed
        info = here.check(key)
        assert info is not None and info.tenant == "acme"
        assert here.check_cached(key) == (True, info)
        forged = key[: key.rindex("_") + 1] + "x" * 43  # the kept id, another secret
        assert here.check_cached(forged) == (True, None) and here.check(forged) is None
        unknown = "lgm_00000000_" + "y" * 43
        assert here.check(unknown) is None and here.check_cached(unknown) == (False, None)
        assert here.check_cached("not a key") == (True, None)
        assert elsewhere.revoke(key)
        assert here.check(key) == info  # the kept row, for at most cache_s
        deadline = time.monotonic() + 5
        while here.check(key) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert here.check(key) is None and time.monotonic() < deadline
        assert here.check(other) is not None
        assert here.revoke(other) and here.check(other) is None  # revoked here: at once
        with pytest.raises(ValueError, match="cache_s"):
            KeyTable(url, cache_s=-1)
    finally:
        here.close()
        elsewhere.close()
