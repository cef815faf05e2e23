"""PostgreSQL's queue shared by many workers: batches claimed with ``FOR UPDATE SKIP LOCKED``.

Claimers get disjoint batches while each holds its claim open; a claimer that dies
releases its batch to the next one; several manager processes embed at the same time
(the writer lease no longer serialises embedding) and the one hierarchy writer still
places every message exactly once, in order, also after a crash half-way through a
placement. All on a real PostgreSQL server (see ``pg_server``).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pg_server
import pytest
from test_hierarchy_replay import placements
from test_writer_lease import CONFIG, ingest_turns

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.core.records import Message
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.hierarchy.recovery import PLACING_MARK

psycopg = pytest.importorskip("psycopg")
from langgraph_memory.storage.postgres.backend import PostgresBackend  # noqa: E402

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(os.name != "posix", reason="kills child processes"),
]
ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def url(pg_databases: pg_server.TestDatabases) -> str:
    return pg_databases.new_database()


def _sql(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as c:
        cur = c.execute(sql.encode(), params or None)
        return cur.fetchall() if cur.description else []


def _insert(b: PostgresBackend, n: int) -> list[Message]:
    out = []
    for i in range(n):
        m = Message(f"m{i}", f"user{i % 3}", "s1", "user", f"message {i}", T0)
        out.append(b.insert_message(m, ["message", str(i)])[0])
    return out


def _vectors(msgs: list[Message]) -> np.ndarray:
    return np.asarray([[1.0, float(m.seq)] for m in msgs])


def test_two_claimers_get_disjoint_batches_at_once(url: str) -> None:
    """``a`` holds its claim open (inside its embedder) while ``b`` and then ``c`` claim:
    they get the next oldest messages, not ``a``'s, without waiting for ``a``."""
    a, b = PostgresBackend(url), PostgresBackend(url)
    try:
        stored = _insert(a, 20)
        seqs = [m.seq for m in stored]
        claimed_a: list[int] = []
        inside, release = threading.Event(), threading.Event()

        def slow_embed(msgs: list[Message]) -> np.ndarray:
            claimed_a.extend(m.seq for m in msgs)
            inside.set()
            assert release.wait(30)
            return _vectors(msgs)

        thread = threading.Thread(target=a.embed_pending, args=(8, slow_embed))
        thread.start()
        assert inside.wait(30)
        t0 = time.monotonic()
        got_b = [m.seq for m in b.embed_pending(8, _vectors)]
        got_c = [m.seq for m in b.embed_pending(8, _vectors)]
        assert time.monotonic() - t0 < 5  # neither waited for a's open claim
        assert thread.is_alive()  # a still holds its claim
        assert claimed_a == seqs[:8]
        assert got_b == seqs[8:16] and got_c == seqs[16:]
        assert b.embed_pending(8, _vectors) == []  # nothing left to claim
        # a's rows are still pending for everyone else until a commits
        assert [m.seq for m in b.pending_embeddings(20)] == seqs[:8]
        release.set()
        thread.join(30)
        assert b.pending_embeddings(20) == []
        per_seq = _sql(url, "SELECT seq, count(*) FROM lgm_vectors GROUP BY seq ORDER BY seq")
        assert per_seq == [(s, 1) for s in seqs]  # every message has exactly one vector
        assert b.stats().embedded == 20
        n_vectors = _sql(url, "SELECT sum(n_vectors) FROM lgm_user_stats")
        assert n_vectors == [(20,)]
    finally:
        release.set()
        a.close()
        b.close()


def test_a_failing_embedder_leaves_its_claim_pending(url: str) -> None:
    with PostgresBackend(url) as b:
        stored = _insert(b, 5)

        def broken(msgs: list[Message]) -> np.ndarray:
            raise RuntimeError("model crashed")

        with pytest.raises(RuntimeError, match="model crashed"):
            b.embed_pending(3, broken)
        assert [m.seq for m in b.pending_embeddings(10)] == [m.seq for m in stored]
        assert [m.seq for m in b.embed_pending(3, _vectors)] == [m.seq for m in stored[:3]]


CLAIMER = r"""
import sys, time
import numpy as np
from langgraph_memory.storage.postgres.backend import PostgresBackend

def embed(msgs):
    print("CLAIMED " + ",".join(str(m.seq) for m in msgs), flush=True)
    time.sleep(600)  # killed in here, its transaction open

PostgresBackend(sys.argv[1]).embed_pending(int(sys.argv[2]), embed)
"""


def _claim_in_child(url: str, limit: int) -> tuple[subprocess.Popen[str], list[int]]:
    """Start a process that claims a batch and hangs in its embedder; its claimed seqs."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CLAIMER, url, str(limit)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("CLAIMED "):
        proc.kill()
        pytest.fail(f"the claimer failed: {line!r} {proc.communicate()[1][-2000:]}")
    return proc, [int(s) for s in line.split()[1].split(",")]


def test_the_claim_of_a_killed_process_is_claimed_again(url: str) -> None:
    with PostgresBackend(url) as b:
        stored = _insert(b, 10)
        proc, theirs = _claim_in_child(url, 6)
        try:
            assert theirs == [m.seq for m in stored[:6]]
            # While the child lives, its rows are locked: only the other four are claimable.
            assert [m.seq for m in b.embed_pending(10, _vectors)] == [m.seq for m in stored[6:]]
            assert b.embed_pending(10, _vectors) == []
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(30)
        # The server rolls the dead claim back: the next claimer gets exactly those rows.
        deadline = time.monotonic() + 30
        while not (again := b.embed_pending(10, _vectors)):
            assert time.monotonic() < deadline, "the dead claim was never released"
            time.sleep(0.05)
        assert [m.seq for m in again] == theirs
        assert b.pending_embeddings(10) == []
        per_seq = _sql(url, "SELECT seq, count(*) FROM lgm_vectors GROUP BY seq ORDER BY seq")
        assert per_seq == [(m.seq, 1) for m in stored]


def test_unplaced_messages_wait_for_the_users_older_pending_ones(url: str) -> None:
    """A user's messages are listed for placement in seq order only: a later batch that
    committed first waits while an older message of the same user is still claimed."""
    with PostgresBackend(url) as b:
        stored = _insert(b, 6)  # users 0,1,2,0,1,2
        inside, release = threading.Event(), threading.Event()

        def slow_embed(msgs: list[Message]) -> np.ndarray:
            inside.set()
            assert release.wait(30)
            return _vectors(msgs)

        thread = threading.Thread(target=b.embed_pending, args=(1, slow_embed))
        thread.start()  # claims stored[0] (user0) and holds it
        try:
            assert inside.wait(30)
            assert len(b.embed_pending(10, _vectors)) == 5
            listed = [m.seq for m in b.unplaced_messages(10)]
            # user0's later message waits for its claimed older one; the others are free
            assert listed == [m.seq for m in stored[1:] if m.user_id != "user0"]
            b.mark_placed(listed)
            assert b.unplaced_messages(10) == []
        finally:
            release.set()
            thread.join(30)
        assert [m.seq for m in b.unplaced_messages(10)] == [stored[0].seq, stored[3].seq]


# -- managers in several processes --------------------------------------------------------
N_TURNS = 30


class SlowEmbeddings(HashingEmbeddings):
    """HashingEmbeddings taking 40 ms a call on the worker thread, recording when."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[float, float]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        start = time.time()
        out = super().embed_documents(texts)
        if threading.current_thread().name == "langgraph-memory-embed":
            time.sleep(0.04)
            self.calls.append((start, time.time()))
        return out


def _ingest(url: str, worker: int, barrier: object) -> tuple[int, list[tuple[float, float]]]:
    """A child process: a manager ingesting turns for ``shared`` and its own user."""
    emb = SlowEmbeddings()
    mm = MemoryManager(
        backend=PostgresBackend(url, max_size=4), embeddings=emb, config=MemoryConfig.flat(**CONFIG)
    )
    try:
        ingest_turns(mm, worker, N_TURNS, barrier)
        return mm._write.worker.processed, emb.calls
    finally:
        mm.close()


def _manager(url: str) -> MemoryManager:
    return MemoryManager(
        backend=PostgresBackend(url),
        embeddings=HashingEmbeddings(),
        config=MemoryConfig.flat(**CONFIG),
    )


def _assert_placed_once(mm: MemoryManager, users: list[str], sessions: list[str]) -> int:
    total = 0
    for user in users:
        msgs = mm._backend.iter_messages(user)
        total += len(msgs)
        assert mm.stats(user)["embedded"] == len(msgs)
        assert placements(mm, user) == Counter(m.seq for m in msgs), user
        for session in sessions:  # pages in order within each session
            seqs = [s for p in mm._parts.hierarchy.state(user, session).pages for s in p.seqs]
            assert seqs == sorted(seqs)
    return total


@pytest.mark.slow
def test_two_manager_processes_embed_at_once_and_place_each_message_once(url: str) -> None:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as sync:
        barrier = sync.Barrier(2)
        with ctx.Pool(2) as pool:
            results = pool.starmap_async(_ingest, [(url, w, barrier) for w in (0, 1)], 1).get(
                timeout=400
            )
    (done_0, calls_0), (done_1, calls_1) = results
    users = ["shared", "own-0", "own-1"]
    with _manager(url) as mm:
        mm.flush(timeout=60)
        total = _assert_placed_once(mm, users, ["s0", "s1", "s2"])
        assert total == 2 * 2 * 2 * N_TURNS
    # every message embedded by exactly one process...
    assert done_0 + done_1 == total and done_0 > 0 and done_1 > 0
    assert _sql(url, "SELECT count(*), count(DISTINCT seq) FROM lgm_vectors") == [(total, total)]
    # ...and the two embedded at the same time (under the writer lease they took turns)
    overlaps = sum(1 for a0, a1 in calls_0 for b0, b1 in calls_1 if a0 < b1 and b0 < a1)
    assert overlaps > 0, (calls_0, calls_1)


KILLED_MANAGER = r"""
import os, sys, threading, time
from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.storage.postgres.backend import PostgresBackend
from langgraph_memory.embeddings import HashingEmbeddings

ingested = threading.Event()  # every message accepted: the kill loses none of them

class Hanging(HashingEmbeddings):  # same model id: the next manager reuses the store
    hang = False

    def embed_documents(self, texts):
        if self.hang and threading.current_thread().name == "langgraph-memory-embed":
            ingested.wait()
            print("CLAIMED", flush=True)
            time.sleep(600)  # SIGKILLed in here, the claim's transaction open
        return super().embed_documents(texts)

url, point = sys.argv[1], sys.argv[2]
emb = Hanging()
mm = MemoryManager(backend=PostgresBackend(url), embeddings=emb,
                   config=MemoryConfig(hierarchy={"stm_capacity_pages": 2},
                                       write={"embed_batch_size": 8}))

def ingest(start, n):
    for i in range(start, start + n):
        for user in ("ann", "bob"):
            mm.add_turn(user, f"s{i % 2}", user=f"Tea question {i}: green or black tea?",
                        assistant=f"Tea answer {i}: green tea, lightly brewed.")

ingest(0, 6)
mm.flush()
print("FLUSHED", flush=True)
if point == "claim":  # the worker hangs inside its embedder, its claim open
    emb.hang = True
else:  # "placement": segments saved, then the process dies before any session state
    def die(*args, **kwargs):
        ingested.wait(120)  # the placement may begin before the last message is accepted
        os._exit(17)
    mm._parts.hierarchy._save_state = die
ingest(6, 6)
ingested.set()
mm.flush()
print("NOT KILLED", flush=True)
"""


@pytest.mark.parametrize("point", ["claim", "placement"])
def test_a_manager_killed_mid_batch_loses_nothing(url: str, point: str) -> None:
    """A manager process dies holding a claim (SIGKILL in its embedder) or half-way
    through a placement (segments saved, session states not); a new manager embeds
    and places every message exactly once."""
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_MANAGER, url, point],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline().strip()]
        if point == "claim":
            lines.append(proc.stdout.readline().strip())
            assert lines == ["FLUSHED", "CLAIMED"], proc.communicate()[1][-2000:]
            os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(60) == (-signal.SIGKILL if point == "claim" else 17)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert lines[0] == "FLUSHED", proc.stderr.read()[-2000:] if proc.stderr else ""
    with _manager(url) as probe:
        stats = probe._backend.stats()
        assert stats.messages == 48
        if point == "claim":
            assert stats.embedded < 48  # the claimed batch was never stored
        else:  # the first 24 and at least the batch being placed
            assert stats.embedded > 24
            assert probe._backend.get_meta(PLACING_MARK)  # the placement died half-way
            assert probe._backend.unplaced_messages(100)
    with _manager(url) as mm:
        mm.flush(timeout=60)
        assert mm.stats()["pending"] == 0
        assert _assert_placed_once(mm, ["ann", "bob"], ["s0", "s1"]) == 48
        assert not mm._backend.get_meta(PLACING_MARK)
        assert mm._backend.unplaced_messages(100) == []
    per_seq = _sql(url, "SELECT count(*), count(DISTINCT seq) FROM lgm_vectors")
    assert per_seq == [(48, 48)]


def test_migration_3_flags_what_the_marks_say_is_placed(
    pg_databases: pg_server.TestDatabases,
) -> None:
    """A store made before migration 3: messages up to the placed mark are placed, those
    a crash left between the marks and the pending ones are not."""
    from langgraph_memory.storage.postgres import sql as q

    url = pg_databases.new_database(empty=True)
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("CREATE TABLE lgm_migrations (v integer PRIMARY KEY, applied_at timestamptz)")
        for v, sql in enumerate(q.MIGRATIONS[:3]):
            c.execute(sql.encode())
            c.execute("INSERT INTO lgm_migrations (v) VALUES (%s)", (v,))
        for i in range(10):
            c.execute(
                "INSERT INTO lgm_messages (user_id, id, session_id, role, content, ts, "
                "ts_offset, metadata, pos, n_terms, tf, embedded) VALUES ('ann', %s, 's1', "
                "'user', 'x', now(), 0, '{}', %s, 0, '{}', %s)",
                (f"m{i}", i, i < 8),
            )
        c.execute(
            "INSERT INTO lgm_meta VALUES ('hierarchy_placed_seq', '5'), "
            "('hierarchy_embedding_seq', '7')"
        )
    with PostgresBackend(url) as b:  # runs migration 3
        assert [m.seq for m in b.unplaced_messages(100)] == [6, 7]  # 9, 10 still pending
        rows = _sql(url, "SELECT seq FROM lgm_messages WHERE NOT placed ORDER BY seq")
        assert [r[0] for r in rows] == [6, 7, 9, 10]
        b.insert_message(Message("new", "ann", "s1", "user", "y", T0), ["y"])
        assert _sql(url, "SELECT placed FROM lgm_messages WHERE id = 'new'") == [(False,)]
