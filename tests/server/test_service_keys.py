"""``langgraph-memory keys create|list|revoke``: the key printed once on its last line,
kept hashed in a 0600 file, and refused by the key check once revoked."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from langgraph_memory.integrations.cli.commands import main
from langgraph_memory.integrations.server.keys import KEYS_FILE, KeyFile, check_tenant


def test_create_prints_the_key_alone_on_its_last_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "create", "--tenant", "acme", "--path", str(tmp_path)]) == 0
    key = capsys.readouterr().out.rstrip("\n").splitlines()[-1]
    assert key.startswith("lgm_") and " " not in key and len(key) == 56
    keys = KeyFile(tmp_path)
    assert keys.tenant_of(key) == "acme"
    path = tmp_path / KEYS_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert key.split("_", 2)[2] not in path.read_text()  # only its hash is kept

    # --path before the subcommand, a second tenant
    assert main(["--path", str(tmp_path), "keys", "create", "--tenant", "globex"]) == 0
    other = capsys.readouterr().out.splitlines()[-1]
    assert keys.tenant_of(other) == "globex" and other != key

    assert main(["keys", "list", "--path", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert "acme" in listed and "globex" in listed and key not in listed
    key_id = key.split("_")[1]
    assert key_id in listed

    assert main(["keys", "revoke", key_id, "--path", str(tmp_path)]) == 0
    assert keys.tenant_of(key) is None and keys.tenant_of(other) == "globex"
    assert main(["keys", "revoke", key_id, "--path", str(tmp_path)]) == 1
    data = json.loads(path.read_text())
    assert [k["revoked_at"] is not None for k in data["keys"]] == [True, False]


@pytest.mark.parametrize("tenant", ["", "a:b", "-x", "a b", "x" * 65, "\u00e9t\u00e9"])
def test_a_tenant_name_that_could_prefix_another_is_refused(
    tenant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match="tenant"):
        check_tenant(tenant)
    assert main(["keys", "create", f"--tenant={tenant}", "--path", str(tmp_path)]) == 1
    assert not (tmp_path / KEYS_FILE).exists()


def test_a_key_is_checked_whole(tmp_path: Path) -> None:
    keys = KeyFile(tmp_path / "k.json")
    key = keys.create("acme")
    prefix, kid, secret = key.split("_", 2)
    for wrong in (
        key[:-1] + ("A" if key[-1] != "A" else "B"),
        f"{prefix}_{kid}_",
        f"{prefix}_{'0' * 8}_{secret}",
        key.upper(),
        " " + key,
        "",
    ):
        assert keys.tenant_of(wrong) is None, wrong


def test_serve_runs_the_embedded_default_and_answers_with_a_key(tmp_path: Path) -> None:
    """``langgraph-memory serve`` as a process: SQLite under --path, a key made by the
    CLI, a message stored and found over HTTP, a clean stop on SIGTERM."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    import httpx

    env = dict(os.environ)
    cli = [sys.executable, "-m", "langgraph_memory.integrations.cli.commands"]
    made = subprocess.run(
        [*cli, "keys", "create", "--tenant", "acme", "--path", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env=env, check=True,
    )  # fmt: skip
    key = made.stdout.splitlines()[-1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [*cli, "serve", "--path", str(tmp_path), "--port", str(port), "--hashing"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.communicate(timeout=5)
            try:
                if httpx.get(f"{url}/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.1)
        h = {"Authorization": f"Bearer {key}"}
        msg = {"session_id": "s", "role": "user", "content": "I keep bees in Lyon."}
        assert httpx.post(f"{url}/v1/users/ann/messages", json=msg, headers=h).status_code == 201
        assert httpx.post(f"{url}/v1/flush", json={}, headers=h, timeout=60).status_code == 200
        hits = httpx.post(f"{url}/v1/users/ann/search", json={"query": "bees"}, headers=h).json()
        assert "bees" in hits["hits"][0]["text"]
        assert httpx.get(f"{url}/v1/users", headers={}).status_code == 401
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    # uvicorn shuts down cleanly, then re-raises the signal it caught
    assert proc.returncode in (0, -signal.SIGTERM), err[-2000:]
    assert "Application shutdown complete" in err
    assert (tmp_path / "memory.sqlite3").exists()
    assert key.split("_", 2)[2] not in err


def test_create_binds_agents_and_admin_and_list_shows_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["keys", "create", "--tenant", "acme", "--path", str(tmp_path)]
    assert main([*base, "--agent", "planner", "--agent", "coder", "--agent", "planner"]) == 0
    bound = capsys.readouterr().out.splitlines()[-1]
    assert main([*base, "--admin"]) == 0
    admin = capsys.readouterr().out.splitlines()[-1]
    keys = KeyFile(tmp_path)
    b, a = keys.check(bound), keys.check(admin)
    assert b is not None and b.agents == ("coder", "planner") and not b.admin
    assert a is not None and a.agents == () and a.admin
    assert main(["keys", "list", "--path", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert "coder, planner" in listed and "yes" in listed
    # a bad agent id is refused, naming it, and no key is made
    assert main([*base, "--agent", "a\x00b"]) == 1
    assert "agents[]" in capsys.readouterr().err
    assert len(keys.list()) == 2
    # a keys file from before agents and admin reads as neither
    data = json.loads((tmp_path / KEYS_FILE).read_text())
    for k in data["keys"]:
        del k["agents"], k["admin"]
    (tmp_path / KEYS_FILE).write_text(json.dumps(data))
    old = KeyFile(tmp_path).check(admin)
    assert old is not None and old.agents == () and not old.admin
