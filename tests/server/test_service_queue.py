"""The queue-fed write path on a real Redis: the API publishes, workers store.

One ``redis-server`` (append-only file on) on loopback and one service (SQLite in a tmp
dir, ``HashingEmbeddings``) on a real uvicorn for the module; the worker is a
:class:`QueueWorker` over a second manager on the same store, and on PostgreSQL two
``langgraph-memory worker`` commands in child processes. Checked: a write the API
acknowledged is stored exactly once; a worker SIGKILLed after storing and before
acknowledging loses nothing and stores nothing twice; a write failing every time is
dead-lettered after ``max_attempts`` and shown in ``stats``; a full queue answers 503
with ``Retry-After`` and publishes nothing; a Redis SIGKILLed keeps what it
acknowledged, a Redis down answers 503 and a running worker waits it out; one tenant's
writes never reach another's memory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pg_server
import pytest
from live_service import Tenants, auth, serving
from redis_server import MISSING, redis_server
from sigkill import child_env

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]

MAX_BACKLOG = 20
ATTEMPTS = 3
CLAIM_IDLE = 0.3
PREFIX = "lgm:test"


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from langgraph_memory.integrations.queue import QueueWorker, WriteQueue
    from langgraph_memory.integrations.server import create_app

    root: Path = tmp_path_factory.mktemp("queued")
    tenants = Tenants(root)
    with redis_server() as server:

        def queue() -> WriteQueue:
            return WriteQueue.from_url(
                server.url,
                prefix=PREFIX,
                max_backlog=MAX_BACKLOG,
                max_attempts=ATTEMPTS,
                claim_idle_s=CLAIM_IDLE,
                retry_after_s=2.0,
            )

        api_queue, worker_queue = queue(), queue()
        app = create_app(root, broker=api_queue, embeddings=HashingEmbeddings())
        with (
            MemoryManager(root, embeddings=HashingEmbeddings()) as worker_mm,
            serving(app, log_level="warning") as url,
            httpx.Client(base_url=url, timeout=30) as client,
        ):
            worker = QueueWorker(worker_queue, worker_mm, consumer="in-test", block_s=0.1)
            yield {
                "t": tenants,
                "c": client,
                "root": root,
                "server": server,
                "q": api_queue,
                "worker": worker,
                "mm": app.state.service.memory,
            }
        api_queue.close()
        worker_queue.close()


def _post(svc: dict[str, Any], key: str, path: str, body: Any) -> httpx.Response:
    return svc["c"].post(path, json=body, headers=auth(key))


def _drain(svc: dict[str, Any], timeout: float = 20.0) -> None:
    """Run the in-test worker until the queue holds nothing."""
    deadline = time.monotonic() + timeout
    while svc["q"].outstanding() > 0:
        assert time.monotonic() < deadline, "the worker did not drain the queue"
        svc["worker"].run_once()


def _wait(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _count(svc: dict[str, Any], store_uid: str) -> int:
    n: int = svc["mm"].stats(store_uid)["messages"]
    return n


def _worker_cli(svc: dict[str, Any], *extra: str, prefix: str = PREFIX) -> subprocess.Popen[str]:
    store = list(extra) if "--postgres" in extra else ["--path", str(svc["root"]), *extra]
    cmd = [
        sys.executable, "-m", "langgraph_memory.integrations.cli.commands", "worker",
        "--broker", svc["server"].url, "--hashing", "--queue-prefix", prefix,
        "--claim-idle", str(CLAIM_IDLE), "--max-attempts", str(ATTEMPTS), *store,
    ]  # fmt: skip
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env()
    )


def test_acked_writes_are_stored_once_by_a_worker(svc: dict[str, Any]) -> None:
    key = svc["t"].acme
    r = _post(svc, key, "/v1/users/ann/messages", {"session_id": "s1", "role": "user",
              "content": "我对花生过敏，请记住。"})  # fmt: skip
    assert r.status_code == 201, r.text
    generated = r.json()["message_id"]
    assert generated  # made by the server, returned to the caller
    batch = [{"session_id": "s1", "role": "user", "content": f"note {i}", "message_id": f"n{i}"}
             for i in range(3)]  # fmt: skip
    r = _post(svc, key, "/v1/users/ann/messages/batch", {"messages": batch})
    assert r.status_code == 201 and r.json()["message_ids"] == ["n0", "n1", "n2"], r.text
    r = _post(svc, key, "/v1/users/ann/turns", {"session_id": "s1", "user": "I moved to Lyon.",
              "assistant": "Lyon is lovely."})  # fmt: skip
    assert r.status_code == 201 and len(r.json()["message_ids"]) == 2
    # acknowledged, queued, not stored: the API never waited for a worker
    assert svc["q"].outstanding(user="acme:ann") == 6
    assert _count(svc, "acme:ann") == 0
    # the same message again (same id, same content): published again, stored once
    r = _post(svc, key, "/v1/users/ann/messages", {"session_id": "s1", "role": "user",
              "content": "note 0", "message_id": "n0"})  # fmt: skip
    assert r.status_code == 201
    worker, before = svc["worker"], svc["worker"].stored
    running = threading.Thread(target=worker.run)
    running.start()
    try:  # the flush waits for the running worker to store the queued writes
        r = _post(svc, key, "/v1/flush", {"timeout": 60})
        assert r.status_code == 200 and r.json() == {"flushed": True}, r.text
    finally:
        worker.stop()
        running.join(30)
        worker.stop_event.clear()
    assert worker.stored - before == 7  # 7 writes acknowledged, one of them a repeat
    assert _count(svc, "acme:ann") == 6
    hits = _post(svc, key, "/v1/users/ann/search", {"query": "花生过敏", "k": 1}).json()["hits"]
    assert hits and hits[0]["text"] == "我对花生过敏，请记住。"
    stats = svc["c"].get("/v1/users/ann/stats", headers=auth(key)).json()
    assert stats["queue"] == {"queued": 0, "dead_letters": 0}


_DOOMED = """
import sys, time
from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.queue import WriteQueue
url, prefix, root = sys.argv[1:4]
q = WriteQueue.from_url(url, prefix=prefix, claim_idle_s=0.3)
mm = MemoryManager(root, embeddings=HashingEmbeddings())
got = q.take("doomed", 64, 5.0)
for d in got:  # stored as the worker stores it, then killed before the acknowledgement
    b = d.body
    mm.add_message(d.user, b["session_id"], b["role"], b["content"],
                   timestamp=b["timestamp"], message_id=b["message_id"])
mm.flush(30)
print("GO", len(got), flush=True)
time.sleep(120)
"""


def test_a_worker_killed_before_its_ack_loses_nothing_and_stores_nothing_twice(
    svc: dict[str, Any],
) -> None:
    key = svc["t"].acme
    ids = []
    for i in range(4):
        r = _post(svc, key, "/v1/users/bob/messages", {"session_id": "s", "role": "user",
                  "content": f"bob's fact {i}"})  # fmt: skip
        assert r.status_code == 201
        ids.append(r.json()["message_id"])
    child = subprocess.Popen(
        [sys.executable, "-c", _DOOMED, svc["server"].url, PREFIX, str(svc["root"])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(),
    )  # fmt: skip
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.split() == ["GO", "4"], (line, child.stderr.read() if child.stderr else "")
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
    assert _count(svc, "acme:bob") == 4  # stored by the dead worker...
    assert svc["q"].outstanding(user="acme:bob") == 4  # ...and never acknowledged
    time.sleep(CLAIM_IDLE + 0.1)
    _drain(svc)  # a live worker takes them over: delivered twice, stored once
    assert _count(svc, "acme:bob") == 4
    assert svc["q"].failed_messages(user="acme:bob") == []


def test_a_poison_write_is_dead_lettered_after_max_attempts(svc: dict[str, Any]) -> None:
    key = svc["t"].acme
    first = {"session_id": "s", "role": "user", "content": "the first text", "message_id": "px"}
    assert _post(svc, key, "/v1/users/cat/messages", first).status_code == 201
    _drain(svc)
    # the same id with other content: accepted (the API does not read the store), and
    # refused by the store on every delivery
    poison = dict(first, content="another text")
    assert _post(svc, key, "/v1/users/cat/messages", poison).status_code == 201
    t0 = time.monotonic()
    _drain(svc)
    assert time.monotonic() - t0 >= (ATTEMPTS - 1) * CLAIM_IDLE  # retried, not dropped
    dead = svc["q"].failed_messages(user="acme:cat")
    assert [(d.message_id, d.attempts, d.tenant) for d in dead] == [("px", ATTEMPTS, "acme")]
    assert "already exists" in dead[0].error and "ValueError" in dead[0].error
    assert _count(svc, "acme:cat") == 1
    stats = svc["c"].get("/v1/users/cat/stats", headers=auth(key)).json()
    assert stats["queue"] == {"queued": 0, "dead_letters": 1}
    # a flush does not wait for a dead letter
    assert _post(svc, key, "/v1/flush", {"timeout": 10}).status_code == 200
    # another tenant sees none of it
    assert svc["q"].failed_messages(tenant="globex") == []


def test_a_full_queue_answers_503_with_retry_after_and_publishes_nothing(
    svc: dict[str, Any],
) -> None:
    key = svc["t"].acme
    assert svc["q"].outstanding() == 0
    batch = [{"session_id": "s", "role": "user", "content": f"d{i}"} for i in range(MAX_BACKLOG)]
    r = _post(svc, key, "/v1/users/dan/messages/batch", {"messages": batch})
    assert r.status_code == 201, r.text
    r = _post(svc, key, "/v1/users/dan/messages", {"session_id": "s", "role": "user",
              "content": "one too many"})  # fmt: skip
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "2"
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == "/problems/queue-full"
    r = _post(svc, key, "/v1/users/dan/turns", {"session_id": "s", "user": "u", "assistant": "a"})
    assert r.status_code == 503
    assert svc["q"].outstanding() == MAX_BACKLOG  # nothing dropped, nothing half-published
    _drain(svc)
    assert _count(svc, "acme:dan") == MAX_BACKLOG
    r = _post(svc, key, "/v1/users/dan/messages", {"session_id": "s", "role": "user",
              "content": "room again"})  # fmt: skip
    assert r.status_code == 201
    _drain(svc)


def test_invalid_writes_are_refused_before_the_queue(svc: dict[str, Any]) -> None:
    key = svc["t"].acme
    before = svc["q"].outstanding()
    r = _post(svc, key, "/v1/users/eve/messages", {"session_id": "s", "role": "robot",
              "content": "hi"})  # fmt: skip
    assert r.status_code == 422 and r.json()["field"] == "role", r.text
    r = _post(svc, key, "/v1/users/eve/messages", {"session_id": "s", "role": "user",
              "content": "hi", "timestamp": "not a date"})  # fmt: skip
    assert r.status_code == 422, r.text
    assert svc["q"].outstanding() == before


def test_no_write_reaches_another_tenant(svc: dict[str, Any]) -> None:
    acme, globex = svc["t"].acme, svc["t"].globex
    for key, word in ((acme, "acme-secret-茶"), (globex, "globex-secret-咖啡")):
        for i in range(3):
            body = {"session_id": "s", "role": "user", "content": f"{word} {i}"}
            assert _post(svc, key, "/v1/users/zoe/messages", body).status_code == 201
    assert svc["q"].outstanding("acme") == 3 and svc["q"].outstanding("globex") == 3
    _drain(svc)
    assert _count(svc, "acme:zoe") == 3 and _count(svc, "globex:zoe") == 3
    for key, mine, theirs in ((acme, "acme", "globex"), (globex, "globex", "acme")):
        assert _post(svc, key, "/v1/flush", {}).status_code == 200
        r = _post(svc, key, "/v1/users/zoe/search", {"query": "secret", "k": 20})
        texts = [h["text"] for h in r.json()["hits"]]
        assert texts and all(t.startswith(mine) for t in texts), texts
        ctx = _post(svc, key, "/v1/users/zoe/context", {"query": "secret", "session_id": "s"})
        assert theirs not in ctx.text and mine in ctx.text


def test_a_broker_crash_keeps_acknowledged_writes_and_a_down_broker_answers_503(
    svc: dict[str, Any],
) -> None:
    key, server = svc["t"].acme, svc["server"]
    for i in range(2):
        body = {"session_id": "s", "role": "user", "content": f"before the restart {i}"}
        assert _post(svc, key, "/v1/users/fay/messages", body).status_code == 201
    server.kill()  # a crash: the acknowledged writes were in its append-only file
    server.start()
    assert svc["q"].outstanding(user="acme:fay") == 2
    running = threading.Thread(target=svc["worker"].run)  # it waits out the outage
    running.start()
    _wait(lambda: svc["q"].outstanding(user="acme:fay") == 0)
    server.stop()
    try:
        body = {"session_id": "s", "role": "user", "content": "while it is down"}
        r = _post(svc, key, "/v1/users/fay/messages", body)
        assert r.status_code == 503, r.text
        assert r.json()["type"] == "/problems/queue-unavailable"
        assert int(r.headers["retry-after"]) >= 1
        r = _post(svc, key, "/v1/flush", {"timeout": 5})  # cannot tell: 503, not a hang
        assert r.status_code == 503 and r.json()["type"] == "/problems/queue-unavailable"
    finally:
        server.start()
    try:
        body = {"session_id": "s", "role": "user", "content": "after the restart"}
        assert _post(svc, key, "/v1/users/fay/messages", body).status_code == 201
        # the running worker reconnects by itself: the flush sees the write stored
        assert _post(svc, key, "/v1/flush", {"timeout": 30}).status_code == 200
    finally:
        svc["worker"].stop()
        running.join(30)
        svc["worker"].stop_event.clear()
    assert _count(svc, "acme:fay") == 3


def test_a_worker_command_and_a_worker_on_one_postgres_store_each_write_once(
    svc: dict[str, Any], pg_databases: pg_server.TestDatabases
) -> None:
    from langgraph_memory.integrations.queue import QueueWorker, WriteQueue
    from langgraph_memory.integrations.server import create_app

    url, prefix = pg_databases.new_database(), "lgm:pg"
    queue = WriteQueue.from_url(svc["server"].url, prefix=prefix)
    app = create_app(keys=svc["t"].keys, postgres=url, broker=queue, embeddings=HashingEmbeddings())
    command = _worker_cli(svc, "--postgres", url, "--batch", "4", prefix=prefix)
    assert command.stderr is not None
    ready = command.stderr.readline()  # printed once it consumes (signals handled)
    assert "consuming" in ready, (ready, command.stderr.read())
    mm = MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings())
    beside = QueueWorker(WriteQueue.from_url(svc["server"].url, prefix=prefix), mm, batch=4)
    running = threading.Thread(target=beside.run)
    running.start()
    try:
        with serving(app, log_level="warning") as base, httpx.Client(base_url=base) as c:
            for i in range(24):
                body = {"session_id": "s", "role": "user", "content": f"pg note {i}"}
                r = c.post("/v1/users/gil/messages", json=body, headers=auth(svc["t"].acme))
                assert r.status_code == 201, r.text
            r = c.post("/v1/flush", json={"timeout": 60}, headers=auth(svc["t"].acme), timeout=70)
            assert r.status_code == 200, r.text
            assert app.state.service.memory.stats("acme:gil")["messages"] == 24
    finally:
        command.send_signal(signal.SIGTERM)
        err = command.communicate(timeout=30)[1]
        beside.stop()
        running.join(30)
        mm.close()
        beside.queue.close()
        queue.close()
    assert command.returncode == 0, err
    # the consumer group hands each write to one worker: their counts add up to 24
    assert int(err.rsplit("stopped: ", 1)[1].split()[0]) + beside.stored == 24, err
