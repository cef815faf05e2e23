"""Inspector scale: the latency of each ``mm.inspect`` call on a user with 100,000 messages.

Usage:
    python benchmarks/inspector_scale.py [--messages 100000] [--others 20] [--other-messages 1000]
                                         [--managed 4000] [--reps 200] [--store DIR] [--explain]

What the inspector pages (``/ui``) read per request, on one SQLite store, each call
timed ``--reps`` times with varied arguments (cursors spread over the whole history,
queries of common, rare, two-term and Chinese words) after one warm-up pass, and printed
as p50/p95 ms: the overview, the sessions (first and a deep page), the messages (first
page, a deep page, a session's first and deep pages), the text search (first and next
page), one message, and the part's other views (profile, entities, segments, work,
documents) as they exist. Target: every p95 well under 100 ms (the page's budget for its
server time). ``--explain`` prints SQLite's query plan of the main statements (each must
search an index, never scan a table).

The store (built once, reused with ``--store DIR`` when it holds what was asked):

- ``--messages`` messages of one user (``scale.py``'s synthetic chat, English and 1 in 7
  Chinese, 50 messages a session), interleaved with ``--others`` other users of
  ``--other-messages`` each (their rows sit between the user's, as on a shared store);
- all but the newest ``--managed`` are stored through the backend's own insert (in
  groups of 500 per transaction, which only speeds the load), their postings written by
  the backend's ``index_pending`` and their vectors by ``store_vectors`` with
  ``HashingEmbeddings`` (256 dims): they are in the SQL tables as after ``add_message``
  and the worker, but they are not placed in the hierarchy (no pages or segments made
  of them), nor read by extraction;
- the newest ``--managed`` go in through ``MemoryManager.add_turn`` (validation, the
  sensitivity gate, the background worker with ``HashingEmbeddings``: pages, chains,
  segments, promotion, rule-based extraction of preferences, facts and instructions),
  with a statement of a preference, a fact or an instruction in one turn of 5, and a
  few tasks completed into episodes and lessons, and a document in two versions;
- a second user (``thread-user``) with 30 sessions of 10 messages, then one thread of 20,000:
  its sessions page after the thread cannot be filled from the newest messages (the
  SQLite walk stops after 2,000 and lists every session's latest instead).

So the message, session and search figures are those of 100,000 messages; the
hierarchy and long-term views are those of what ``--managed`` messages made (pass
``--managed 100000`` for all of them: minutes of worker time on this machine).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from scale import SESSION_LEN, USER, Corpus

from langgraph_memory import MemoryManager
from langgraph_memory.core.records import Message, index_text
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import SQLiteBackend

STATEMENTS = [
    "I prefer green tea in the morning.",
    "I live in Lyon with my sister.",
    "Always answer in short bullet points.",
    "My dentist is Dr Martin.",
    "我更喜欢喝乌龙茶",
    "I moved to Kyoto last spring.",
    "I don't like jazz concerts.",
    "Please always cite page numbers.",
    "My cat is called Pixel.",
    "我住在北京",
]
GROUP = 500


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bulk_load(path: Path, corpus: Corpus, n: int, others: int, per_other: int) -> None:
    """The first ``n`` messages of the user and the other users' messages, interleaved,
    through the backend's insert; then their postings and vectors."""
    emb = HashingEmbeddings()
    backend = SQLiteBackend(path)
    try:
        other_total = others * per_other
        step = max(1, n // max(other_total, 1))
        made = 0
        t = time.perf_counter()
        for start in range(0, n, GROUP):
            msgs = corpus.chunk(start, min(n, start + GROUP))
            batch: list[Message] = []
            for m in msgs:
                batch.append(m)
                i = int(m.id[1:])
                if other_total and i % step == 0 and made < other_total:
                    who = made % others
                    batch.append(
                        replace(
                            m,
                            id=f"o{made}",
                            user_id=f"other-{who}",
                            session_id=f"o{who}-{made // (SESSION_LEN * others)}",
                        )
                    )
                    made += 1
            with backend.grouped_writes():
                for m in batch:
                    backend.insert_message(m, tokenize(index_text(m)))
            while backend.index_pending(20_000):
                pass
            stored = backend.pending_embeddings(len(batch) + 10)
            vecs = np.asarray(emb.embed_documents([index_text(m) for m in stored]), np.float32)
            backend.store_vectors(list(zip(stored, vecs, strict=True)))
            if start % 20_000 == 0:
                print(
                    f"  loaded {start + len(msgs):,} ({time.perf_counter() - t:.0f} s)", flush=True
                )
    finally:
        backend.close()


#: A second user: 30 short sessions, then one long thread (a shape where the newest
#: messages hold few sessions: the sessions page's second page must look past the thread).
THREAD_USER = "thread-user"
THREAD_LEN = 20_000


def thread_load(path: Path, corpus: Corpus) -> None:
    """The thread user's messages (their vectors, postings), unless they are there."""
    emb = HashingEmbeddings()
    backend = SQLiteBackend(path)
    try:
        if backend.message_counts(THREAD_USER).messages:
            return
        msgs = corpus.chunk(0, 30 * 10 + THREAD_LEN)
        for j, m in enumerate(msgs):
            sid = f"t{j // 10}" if j < 300 else "long-thread"
            msgs[j] = replace(m, id=f"t{j}", user_id=THREAD_USER, session_id=sid)
        for start in range(0, len(msgs), GROUP):
            batch = msgs[start : start + GROUP]
            with backend.grouped_writes():
                for m in batch:
                    backend.insert_message(m, tokenize(index_text(m)))
            while backend.index_pending(20_000):
                pass
            stored = backend.pending_embeddings(len(batch) + 10)
            vecs = np.asarray(emb.embed_documents([index_text(m) for m in stored]), np.float32)
            backend.store_vectors(list(zip(stored, vecs, strict=True)))
        print(f"  loaded {THREAD_USER}: 30 sessions of 10, then one of {THREAD_LEN:,}", flush=True)
    finally:
        backend.close()


def managed_load(path: Path, corpus: Corpus, start: int, stop: int) -> None:
    """Messages ``start``..``stop`` through the manager, as turns, with statements that
    extraction reads, a few tasks and a versioned document."""
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        msgs = corpus.chunk(start, stop)
        t = time.perf_counter()
        for j in range(0, len(msgs) - 1, 2):
            u, a = msgs[j], msgs[j + 1]
            text = u.content
            if (j // 2) % 5 == 0:
                text = f"{STATEMENTS[(j // 10) % len(STATEMENTS)]} {text}"
            mm.add_turn(USER, u.session_id, user=text, assistant=a.content, timestamp=u.timestamp)
        for k in range(20):
            tid = mm.tasks.start(USER, f"s{stop // SESSION_LEN}", f"book {k} train tickets")
            mm.tasks.step(USER, tid, f"search trains {k}", tool_name="search")
            mm.tasks.complete(USER, tid, summary=f"booked train {k}", target="trains")
        mm.documents.add(USER, "# Handbook\n## Wi-Fi\nThe password is on the fridge.",
                         document_id="handbook", version="1")  # fmt: skip
        mm.documents.add(USER, "# Handbook\n## Wi-Fi\nAsk the front desk.",
                         document_id="handbook", version="2")  # fmt: skip
        mm.flush()
        print(f"  managed {stop - start:,} messages in {time.perf_counter() - t:.0f} s", flush=True)


def build(path: Path, args: argparse.Namespace) -> None:
    corpus = Corpus(args.seed)
    bulk = args.messages - args.managed
    t = time.perf_counter()
    bulk_load(path, corpus, bulk, args.others, args.other_messages)
    managed_load(path, corpus, bulk, args.messages)
    print(f"built in {time.perf_counter() - t:.0f} s", flush=True)


def timed(fn: Callable[[int], Any], reps: int) -> list[float]:
    for i in range(min(reps, 20)):  # warm: the hierarchy's cache, SQLite's pages
        fn(i)
    out = []
    for i in range(reps):
        t = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - t) * 1000)
    return out


def explain(file: Path, cursor: int) -> None:
    con = sqlite3.connect(file)
    plans = {
        "messages page": "SELECT * FROM messages INDEXED BY messages_user WHERE user_id = ? "
        "AND seq < ? ORDER BY seq DESC LIMIT 51",
        "session page": "SELECT * FROM messages INDEXED BY messages_session WHERE user_id = ? "
        "AND session_id = 's7' AND seq < ? AND pos < COALESCE((SELECT pos FROM messages WHERE "
        "seq = 5 AND +user_id = 'x' AND +session_id = 's7'), 9223372036854775807) "
        "ORDER BY pos DESC LIMIT 51",
        "search page": "SELECT m.* FROM postings p JOIN messages m ON m.seq = p.seq "
        "WHERE p.user_id = ? AND p.term = 'kyoto' AND p.seq < ? AND EXISTS (SELECT 1 FROM "
        "postings o WHERE o.user_id = p.user_id AND o.term = 'trip' AND o.seq = p.seq) "
        "ORDER BY p.seq DESC LIMIT 51",
        "sessions page": "SELECT m.session_id FROM messages m INDEXED BY messages_user "
        "WHERE m.user_id = ? AND m.seq < ? AND m.seq > 5 AND NOT EXISTS (SELECT 1 FROM messages n "
        "WHERE n.user_id = m.user_id AND n.session_id = m.session_id AND n.pos > m.pos) "
        "ORDER BY m.seq DESC LIMIT 21",
    }
    for name, sql in plans.items():
        rows = con.execute("EXPLAIN QUERY PLAN " + sql, (USER, cursor)).fetchall()
        print(f"  {name}:")
        for row in rows:
            print(f"      {row[-1]}")
    con.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--others", type=int, default=20)
    ap.add_argument("--other-messages", type=int, default=1000)
    ap.add_argument("--managed", type=int, default=4000)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--store", type=Path, default=None)
    ap.add_argument("--explain", action="store_true")
    args = ap.parse_args(argv)
    args.managed = min(args.managed, args.messages) // 2 * 2
    tmp = None
    if args.store is None:
        tmp = Path(tempfile.mkdtemp(prefix="lgm-inspector-"))
        path = tmp / "store"
    else:
        path = args.store
    try:
        with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
            have = mm.inspect.overview(USER).messages
        if have != args.messages:
            if have:
                print(f"{path} holds {have:,} messages of {USER}, not {args.messages:,}")
                return 2
            print(f"building {args.messages:,} messages in {path} ...", flush=True)
            build(path, args)
        thread_load(path, Corpus(args.seed + 1))
        return measure(path, args)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def cold(path: Path) -> None:
    """A fresh manager's first calls, as a server's first request after a start: the
    hierarchy (segments) is read from the store then."""
    t = time.perf_counter()
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        opened = time.perf_counter() - t
        got = []
        for name, fn in (
            ("overview", lambda: mm.inspect.overview(USER)),
            ("segments", lambda: mm.inspect.segments(USER)),
            ("message by id", lambda: mm.inspect.message(USER, "m5")),
        ):
            t = time.perf_counter()
            fn()
            got.append(f"{name} {(time.perf_counter() - t) * 1000:.1f} ms")
    print(f"cold (a new manager, opened in {opened * 1000:.0f} ms): first " + ", ".join(got))


def measure(path: Path, args: argparse.Namespace) -> int:
    reps = args.reps
    rng = np.random.default_rng(args.seed)
    cold(path)
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.flush()
        ins = mm.inspect
        ov = ins.overview(USER)
        print(
            f"store: {ov.messages:,} messages of {USER} in {ov.sessions:,} sessions "
            f"(+ {args.others} other users), layers {dict(ov.layers)}"
        )
        newest = ov.latest_messages.items[0].seq
        cursors = [str(int(c)) for c in rng.integers(newest // 20, newest, size=reps)]
        deep = [str(int(c)) for c in rng.integers(1, newest // 10, size=reps)]
        sessions = [f"s{int(s)}" for s in rng.integers(0, args.messages // SESSION_LEN, reps)]
        words = ["kyoto", "trip kyoto", "dishwasher broken", "杭州", "lisbon flight", "cake"]
        searches = [words[i % len(words)] for i in range(reps)]
        bulk = args.messages - args.managed  # the managed ones have generated ids
        ids = [f"m{int(i)}" for i in rng.integers(0, max(bulk, 1), size=reps)]
        first_hits = {q: ins.messages(USER, query=q, limit=50) for q in set(searches)}
        calls: dict[str, Callable[[int], Any]] = {
            "overview": lambda i: ins.overview(USER),
            "sessions first page (20)": lambda i: ins.sessions(USER, limit=20),
            "sessions deep page (20)": lambda i: ins.sessions(USER, cursor=cursors[i], limit=20),
            "sessions oldest page (20)": lambda i: ins.sessions(USER, cursor=deep[i], limit=20),
            "messages first page (50)": lambda i: ins.messages(USER, limit=50),
            "messages deep page (50)": lambda i: ins.messages(USER, cursor=cursors[i], limit=50),
            "messages oldest pages (50)": lambda i: ins.messages(USER, cursor=deep[i], limit=50),
            "session's messages (50)": lambda i: ins.messages(USER, session_id=sessions[i]),
            "session's messages, next page (20)": lambda i: ins.messages(
                USER, session_id=sessions[i], cursor=str(30 + int(sessions[i][1:]) * 60), limit=20
            ),
            "search first page (50)": lambda i: ins.messages(USER, query=searches[i], limit=50),
            "search next page (50)": lambda i: ins.messages(
                USER, query=searches[i], cursor=first_hits[searches[i]].cursor, limit=50
            ),
            "search deep (50)": lambda i: ins.messages(
                USER, query=searches[i], cursor=deep[i], limit=50
            ),
            "search within a session (50)": lambda i: ins.messages(
                USER, session_id=sessions[i], query=searches[i]
            ),
            "message by id": lambda i: ins.message(USER, ids[i]),
        }
        active = [s.session_id for s in ins.sessions(USER, limit=50).items]
        seg_ids = [s.id for s in ins.segments(USER, archived=None, limit=500).items] or [""]
        layers = ["episodes", "lessons", "tasks", "documents", "superseded_facts", "entities"]
        calls.update(
            {
                "session view (window, chains)": lambda i: ins.session(
                    USER, active[i % len(active)]
                ),
                "profile (4 first pages)": lambda i: ins.profile(USER),
                "entities with relations (20)": lambda i: ins.entities(USER),
                "segments, hottest (20)": lambda i: ins.segments(USER),
                "segment with pages (50)": lambda i: ins.segment(USER, seg_ids[i % len(seg_ids)]),
                "records: episodes/lessons/tasks/...": lambda i: ins.records(
                    USER,
                    layers[i % len(layers)],  # type: ignore[arg-type]
                ),
            }
        )
        thread = ins.sessions(THREAD_USER, limit=1)
        calls["sessions after a 20,000-message thread (20)"] = lambda i: ins.sessions(
            THREAD_USER, cursor=thread.cursor, limit=20
        )
        worst = 0.0
        print(f"{'call':<38} {'p50 ms':>8} {'p95 ms':>8}   (n={reps})")
        for name, fn in calls.items():
            ms = timed(fn, reps)
            p95 = pct(ms, 0.95)
            worst = max(worst, p95)
            print(f"{name:<38} {statistics.median(ms):8.2f} {p95:8.2f}")
        print(f"worst p95: {worst:.2f} ms (target: well under 100 ms)")
        if args.explain:
            print("query plans (SQLite EXPLAIN QUERY PLAN):")
            explain(mm.path or path / "memory.sqlite3", int(cursors[0]))
    return 0 if worst < 100 else 1


if __name__ == "__main__":
    sys.exit(main())
