"""Crash durability: a process killed with SIGKILL in the middle of ingestion loses no
accepted message, and after a restart every message is embedded exactly once.

The queue of the write path is "stored messages without a vector", written in the
same transaction as the message. Two child processes in turn ingest thousands of
messages into one SQLite store with a slow embedder (so batches are mid-flight)
and are killed with SIGKILL while the worker is inside the embedder; each prints
a message id only after ``add_message`` returned. A third manager then reopens
the store and flushes.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core.records import index_text
from langgraph_memory.embeddings import HashingEmbeddings

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")]

ROOT = Path(__file__).resolve().parent.parent
PER_CHILD = 6000  # more than a child gets through before it is killed
KILL_AFTER = 2000  # accepted messages before the kill is armed

#: The text of message ``i`` of run ``tag``, with a word found in no other message.
TEXT_SOURCE = r"""
def text(tag, i):
    letters = "bcdfghjklmnpqrstvwxz"
    n, w = i * 7 + (0 if tag == "a" else 500_000), ""
    for _ in range(5):
        w += letters[n % 20]
        n //= 20
    return f"note {i} of run {tag}: code word kay{w} and 第{i}条记录", f"kay{w}"
"""
_ns: dict = {}
exec(TEXT_SOURCE, _ns)  # the parent checks the very texts the child wrote
_child_text = _ns["text"]

CHILD = (
    TEXT_SOURCE
    + r"""
import sys, threading, time
from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

out_lock = threading.Lock()

def say(line):
    with out_lock:  # one write per line, so the two threads never interleave
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

class SlowEmbeddings(HashingEmbeddings):
    # same model id as HashingEmbeddings(): the restarted manager reuses the store
    def embed_documents(self, texts):
        say(f"EMBEDDING {len(texts)}")
        time.sleep(0.03 + 0.0005 * len(texts))
        return super().embed_documents(texts)

path, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
cfg = MemoryConfig(write={"embed_batch_size": 64})
mm = MemoryManager(path, embeddings=SlowEmbeddings(), config=cfg)
for i in range(n):
    mid = mm.add_message(f"user{i % 3}", f"s{i % 7}", ("user", "assistant")[i % 2],
                         text(tag, i)[0], message_id=f"{tag}-{i}")
    say(f"ACCEPTED {mid}")
say("DONE")
mm.close()
"""
)


def _run_and_kill(path: Path, tag: str) -> tuple[list[str], int]:
    """Run a child until it accepted KILL_AFTER messages and is embedding, then SIGKILL it.

    Returns the ids it reported as accepted and how many embedder calls it started.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), tag, str(PER_CHILD)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    watchdog = threading.Timer(300, proc.kill)
    watchdog.start()
    accepted: list[str] = []
    embedding_calls = 0
    killed = False
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            kind, _, value = line.strip().partition(" ")
            if kind == "ACCEPTED":
                accepted.append(value)
            elif kind == "EMBEDDING":
                embedding_calls += 1
                if not killed and len(accepted) >= KILL_AFTER and embedding_calls >= 3:
                    os.kill(proc.pid, signal.SIGKILL)  # the worker is inside the embedder
                    killed = True
            elif kind == "DONE":
                pytest.fail("the child finished before it could be killed; raise PER_CHILD")
        proc.wait(timeout=60)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    assert killed and proc.returncode == -signal.SIGKILL, (proc.returncode, stderr[-2000:])
    return accepted, embedding_calls


def _rows(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_sigkill_during_ingestion_loses_nothing_and_embeds_once(tmp_path: Path) -> None:
    path = tmp_path / "mem"
    db = path / "memory.sqlite3"
    accepted: dict[str, list[str]] = {}
    for tag in ("a", "b"):  # the second child also drains what the first left pending
        accepted[tag], calls = _run_and_kill(path, tag)
        assert len(accepted[tag]) >= KILL_AFTER and calls >= 3
        stored, embedded = _rows(db, "SELECT COUNT(*), SUM(embedded) FROM messages")[0]
        # the kill really happened mid-flight: accepted work was still pending
        assert 0 < embedded < stored, (tag, stored, embedded)
        print(
            f"child {tag}: {len(accepted[tag])} accepted; store at kill: {stored} messages, "
            f"{embedded} embedded"
        )

    all_accepted = accepted["a"] + accepted["b"]
    assert len(set(all_accepted)) == len(all_accepted)
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.flush(timeout=300)
        stats = mm.stats()
        assert stats["pending"] == 0 and stats["embedded"] == stats["messages"]

        # every accepted message is stored once; at most one more per child (committed,
        # killed before it could print its id)
        ids = Counter(r[0] for r in _rows(db, "SELECT id FROM messages"))
        assert max(ids.values()) == 1
        assert set(all_accepted) <= set(ids)
        extra = set(ids) - set(all_accepted)
        for tag in ("a", "b"):
            mine = {i for i in extra if i.startswith(f"{tag}-")}
            assert len(mine) <= 1 and all(int(i[2:]) == len(accepted[tag]) for i in mine)

        # embedded exactly once: one vector per message, none for anything else
        seqs = [r[0] for r in _rows(db, "SELECT seq FROM messages ORDER BY seq")]
        vec_seqs = [r[0] for r in _rows(db, "SELECT seq FROM vectors ORDER BY seq")]
        assert vec_seqs == seqs
        assert _rows(db, "SELECT COUNT(*) FROM messages WHERE embedded != 1") == [(0,)]
        # the lexical index counted each message once too
        per_user = dict(_rows(db, "SELECT user_id, COUNT(*) FROM messages GROUP BY user_id"))
        assert dict(_rows(db, "SELECT user_id, n_docs FROM user_stats")) == per_user

        # each vector is the embedding of its own message
        emb = HashingEmbeddings()
        for user in per_user:
            msgs = {m.seq: m for m in mm._backend.iter_messages(user)}
            blobs = _rows(db, f"SELECT seq, vec FROM vectors WHERE user_id = '{user}'")
            want = np.asarray(emb.embed_documents([index_text(msgs[s]) for s, _ in blobs]))
            got = np.stack([np.frombuffer(b, dtype=np.float32) for _, b in blobs])
            np.testing.assert_allclose(got, want, atol=1e-6)

        # and searchable, by words and by meaning
        for tag in ("a", "b"):
            for i in (0, len(accepted[tag]) // 2, len(accepted[tag]) - 1):
                text, word = _child_text(tag, i)
                user = f"user{i % 3}"
                hits = mm.search(user, word, k=3, layers=["message"])  # not a fact from it
                assert hits and hits[0].id == f"{tag}-{i}", (tag, i, [h.id for h in hits])
                assert hits[0].text == text
                # by meaning: its own text's vector is a best match (the code word alone
                # can hash to a zero cosine with HashingEmbeddings, so it is not the probe;
                # two such texts can hash to the same vector, a tie the older one wins)
                seq = mm._backend.get_message(user, f"{tag}-{i}").seq
                probe = np.asarray(emb.embed_query(text), dtype=np.float32)
                found = mm._backend.vector_search(user, probe, 10)
                assert found[0][1] == pytest.approx(1.0, abs=1e-5)
                assert seq in {s for s, c in found if c == found[0][1]}, (seq, found[:3])
