"""Safety: concurrent writers lose nothing, users never see each other, deletion leaves
no bytes behind, and accepted messages survive a restart."""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from langgraph_memory import MemoryContext, MemoryHit, MemoryManager
from langgraph_memory.core.records import Message, index_text
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.embeddings import CachedEmbeddings, HashingEmbeddings
from langgraph_memory.storage import MemoryBackend, SQLiteBackend

N_THREADS = 8
PER_THREAD = 200


# -- (a) concurrency --------------------------------------------------------------------------
def _writer(mm: MemoryManager, t: int, start: threading.Barrier, out: dict, errors: list) -> None:
    user = f"user-{t}" if t < N_THREADS // 2 else "shared"
    written = []
    try:
        start.wait()
        for i in range(PER_THREAD):
            text = f"thread {t} message {i} 线程{t}第{i}条"
            mid = mm.add_message(user, f"s{t}", "user", text, message_id=f"t{t}-m{i}")
            written.append((user, mid, text))
            if user == "shared" and i % 50 == 0:
                # every shared writer also re-adds one common message (idempotent)
                mm.add_message(user, "common", "user", "the same for everyone", message_id="common")
    except BaseException as exc:  # pragma: no cover - reported below
        errors.append(exc)
    out[t] = written


def _reader(mm: MemoryManager, stop: threading.Event, errors: list, seen: Counter) -> None:
    try:
        while not stop.is_set():
            for user in ("user-0", "user-1"):
                other = f"thread {1 - int(user[-1])} "
                for hit in mm.search(user, "thread message", k=20):
                    # Messages, or segment summaries made of this user's messages only.
                    assert f"thread {user[-1]} " in hit.text and other not in hit.text, hit.text
                    assert hit.layer != "message" or hit.text.startswith(f"thread {user[-1]} ")
                    seen[user] += 1
                ctx = mm.build_context(user, f"s{user[-1]}", "message", token_budget=200)
                assert ctx.tokens <= 200
                for it in ctx.items:
                    assert f"user: thread {user[-1]} " in it.text and other not in it.text
    except BaseException as exc:  # pragma: no cover - reported below
        errors.append(exc)


def _run_concurrently(
    mm: MemoryManager, *, with_readers: bool = False
) -> dict[int, list[tuple[str, str, str]]]:
    out: dict[int, list] = {}
    errors: list[BaseException] = []
    seen: Counter = Counter()
    start = threading.Barrier(N_THREADS)
    stop = threading.Event()
    writers = [
        threading.Thread(target=_writer, args=(mm, t, start, out, errors)) for t in range(N_THREADS)
    ]
    readers = [
        threading.Thread(target=_reader, args=(mm, stop, errors, seen))
        for _ in range(2 if with_readers else 0)
    ]
    for th in writers + readers:
        th.start()
    for th in writers:
        th.join(timeout=120)
    stop.set()
    for th in readers:
        th.join(timeout=60)
    assert not errors, errors
    if with_readers:
        assert sum(seen.values()) > 0  # the readers really read while writers wrote
    return out


def _check_nothing_lost(mm: MemoryManager, out: dict[int, list[tuple[str, str, str]]]) -> None:
    mm.flush(timeout=120)
    assert sorted(out) == list(range(N_THREADS))
    for t, written in out.items():
        assert len(written) == PER_THREAD
        for user, mid, text in written:
            stored = mm._backend.get_message(user, mid)
            assert stored is not None, (user, mid)
            assert stored.content == text
        user = written[0][0]
        assert [m.id for m in mm._backend.session_messages(user, f"s{t}")] == [
            mid for _, mid, _ in written
        ]
    for t in range(N_THREADS // 2):
        s = mm.stats(f"user-{t}")
        assert (s["messages"], s["embedded"], s["pending"]) == (PER_THREAD, PER_THREAD, 0)
    shared = mm.stats("shared")
    assert shared["messages"] == (N_THREADS - N_THREADS // 2) * PER_THREAD + 1
    assert shared["embedded"] == shared["messages"]
    total = mm.stats()
    assert total["messages"] == N_THREADS * PER_THREAD + 1
    assert total["pending"] == 0
    assert total["users"] == N_THREADS // 2 + 1
    assert len(mm._backend.session_messages("shared", "common")) == 1
    # every message is findable by its own words, in its own user only
    hit = mm.search("user-2", "thread 2 message 123", k=1)[0]
    assert hit.id == "t2-m123"


def test_concurrent_writers_lose_nothing_sqlite(tmp_path: Path) -> None:
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as mm:
        out = _run_concurrently(mm)
        _check_nothing_lost(mm, out)


def test_concurrent_writers_lose_nothing_any_backend(backend: MemoryBackend) -> None:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        out = _run_concurrently(mm)
        _check_nothing_lost(mm, out)


def test_reads_during_concurrent_writes(
    backend: MemoryBackend,
) -> None:
    """Searches and contexts built while 8 threads write: no error, only the reader's data."""
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        out = _run_concurrently(mm, with_readers=True)
        _check_nothing_lost(mm, out)


class _HookedConnection:
    """Wraps a sqlite3 connection; runs the owner's hook right after a statement that reads
    the BM25 collection statistics: the moment another process's write can land."""

    def __init__(self, conn, owner) -> None:
        self._conn = conn
        self._owner = owner

    def execute(self, sql, params=()):
        cur = self._conn.execute(sql, params)
        if self._owner.after_stats is not None and "FROM user_stats" in sql:
            rows = cur.fetchall()
            hook, self._owner.after_stats = self._owner.after_stats, None
            hook()
            return _Rows(rows)
        return cur

    def __getattr__(self, name):
        return getattr(self._conn, name)


class _Rows:
    def __init__(self, rows) -> None:
        self._rows = rows

    def fetchall(self):
        return self._rows

    def fetchone(self):
        return self._rows[0] if self._rows else None


class _InterleavingSQLite(SQLiteBackend):
    """The real SQLite backend whose connection lets a test write in the middle of a read."""

    after_stats = None

    def __init__(self, path) -> None:
        super().__init__(path)
        self._conn = _HookedConnection(self._conn, self)


def test_sqlite_lexical_search_sees_one_snapshot(tmp_path: Path) -> None:
    def msg(i: int) -> Message:
        return Message(f"m{i}", "alice", "s", "user", f"kayak trip {i}", datetime.now(timezone.utc))

    reader = _InterleavingSQLite(tmp_path / "db.sqlite3")
    other_process = SQLiteBackend(tmp_path / "db.sqlite3")
    try:
        reader.insert_message(msg(0), ["kayak", "trip", "0"])
        reader.after_stats = lambda: other_process.insert_message(msg(1), ["kayak", "trip", "1"])
        got = reader.lexical_search("alice", ["kayak"], 10)
        assert reader.after_stats is None  # the concurrent write did happen in between
        assert 1 <= len(got) <= 2 and all(score > 0 for _, score in got)
    finally:
        reader.close()
        other_process.close()


def test_two_managers_on_one_sqlite_file(tmp_path: Path) -> None:
    """Two managers (as two processes would) write the same file at once: nothing lost."""
    path = tmp_path / "mem"
    managers = [MemoryManager(path, embeddings=HashingEmbeddings()) for _ in range(2)]
    errors: list[BaseException] = []

    def write(k: int) -> None:
        try:
            for i in range(150):
                managers[k].add_message(
                    "alice", f"s{k}", "user", f"writer {k} note {i}", message_id=f"w{k}-{i}"
                )
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    try:
        threads = [threading.Thread(target=write, args=(k,)) for k in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=120)
        assert not errors, errors
        for m in managers:
            m.flush(timeout=60)
        for m in managers:
            s = m.stats("alice")
            assert (s["messages"], s["embedded"], s["pending"]) == (300, 300, 0)
            # each sees the other's vectors too
            hit = m.search("alice", "writer 1 note 77", k=1)[0]
            assert hit.id == "w1-77" and "cosine" in hit.score_parts
    finally:
        for m in managers:
            m.close()


# -- (b) user isolation ---------------------------------------------------------------------
BOB_TEXTS = [
    "My bank PIN hint is the blue heron by the lake",
    "I am allergic to shellfish and my doctor is Dr Heron",
    "My sister Clara lives in Berlin",
]
ALICE_TEXTS = [
    "My bank PIN hint is the red fox in the garden",
    "I am allergic to peanuts and my doctor is Dr Fox",
    "My sister Clara lives in Lyon",
]


@pytest.fixture
def two_users(mm: MemoryManager) -> tuple[MemoryManager, list[str], list[str]]:
    bob_ids = [
        mm.add_message(
            "bob",
            "bob-session",
            "user",
            t,
            message_id=f"bob-{i}",
            metadata={"user_id": "bob", "owner": "bob", "topic": "private"},
        )
        for i, t in enumerate(BOB_TEXTS)
    ]
    alice_ids = [
        mm.add_message(
            "alice",
            "alice-session",
            "user",
            t,
            message_id=f"alice-{i}",
            metadata={"topic": "private"},
        )
        for i, t in enumerate(ALICE_TEXTS)
    ]
    mm.flush()
    return mm, alice_ids, bob_ids


def _assert_only_alice(mm: MemoryManager, result: list[MemoryHit] | MemoryContext) -> None:
    if isinstance(result, MemoryContext):
        pairs = [(it.source_ids, it.text) for it in result.items]
        text = result.to_prompt()
    else:
        pairs = [(h.source_ids, h.text) for h in result]
        text = "\n".join(h.text for h in result)
    for source_ids, _ in pairs:
        for sid in source_ids:
            assert not sid.startswith("bob-")
            assert mm._backend.get_message("alice", sid) is not None
    for bob_text in BOB_TEXTS:
        assert bob_text not in text
    assert "heron" not in text.lower() and "Berlin" not in text


ADVERSARIAL_FILTERS = [
    {"metadata.user_id": "bob"},
    {"user_id_": "bob"},
    {"owner": "bob"},
    {"owner": {"$exists": True}},
    {"session_id": {"$in": ["bob-session"]}},
    {"session_id": "bob-session"},
    {"id": {"$in": ["bob-0", "bob-1", "bob-2"]}},
    {"id": {"$nin": ["alice-0"]}},
    {"topic": "private"},
    {"topic": {"$ne": "nothing"}},
    {"metadata.topic": {"$in": ["private"]}},
]


@pytest.mark.parametrize("flt", ADVERSARIAL_FILTERS, ids=str)
def test_filters_cannot_reach_another_user(two_users, flt: dict) -> None:
    mm, alice_ids, bob_ids = two_users
    for query in ["bank PIN hint heron", "allergic doctor", "sister Clara Berlin", "bob"]:
        _assert_only_alice(mm, mm.search("alice", query, k=50, filter=flt))
        _assert_only_alice(
            mm, mm.build_context("alice", "alice-session", query, token_budget=2000, filter=flt)
        )
        _assert_only_alice(
            mm, mm.build_context("alice", "bob-session", query, token_budget=2000, filter=flt)
        )


@pytest.mark.parametrize(
    "flt",
    [
        {"user_id": "bob"},
        {"user_id": {"$in": ["alice", "bob"]}},
        {"agent_id": "bob"},
        {"user_id.x": 1},
    ],
    ids=str,
)
def test_filter_on_user_id_is_refused(two_users, flt: dict) -> None:
    mm, _, _ = two_users
    with pytest.raises(ValueError, match="user_id"):
        mm.search("alice", "bank PIN", filter=flt)
    with pytest.raises(ValueError, match="user_id"):
        mm.build_context("alice", "alice-session", "bank PIN", filter=flt)


def test_unfiltered_reads_see_only_own_memory(two_users) -> None:
    mm, alice_ids, bob_ids = two_users
    hits = mm.search("alice", "bank PIN hint heron lake shellfish Berlin", k=100)
    assert {h.id for h in hits if h.layer == "message"} == set(alice_ids)
    assert {s for h in hits for s in h.source_ids} == set(alice_ids)
    _assert_only_alice(mm, hits)
    ctx = mm.build_context("alice", "bob-session", "heron shellfish Berlin", token_budget=5000)
    assert set(ctx.source_ids) <= set(alice_ids)
    _assert_only_alice(mm, ctx)
    # the same query for bob finds bob's (and only bob's)
    bob_hits = mm.search("bob", "heron", k=10)
    # (a message a fact or profile entry stands for comes back inside it, cited)
    assert {s for h in bob_hits for s in [h.id, *h.source_ids]}.issuperset({"bob-0", "bob-1"})
    assert {s for h in bob_hits for s in h.source_ids} <= set(bob_ids)


TRICKY_USERS = [
    "x' OR '1'='1",
    "%",
    "_",
    "alice%",
    "a_ice",
    "*",
    "'; DROP TABLE messages; --",
    "alice\\",
    "ALICE",
    " alice",
]


def test_tricky_user_ids_cannot_see_others(mm: MemoryManager) -> None:
    mm.add_message("alice", "s", "user", "alice secret marker text")
    for i, user in enumerate(TRICKY_USERS):
        mm.add_message(user, "s", "user", f"marker text number {i}", message_id=f"id-{i}")
    mm.flush()
    for i, user in enumerate(TRICKY_USERS):
        hits = mm.search(user, "marker text secret alice", k=50)
        assert [(h.id, h.text) for h in hits] == [(f"id-{i}", f"marker text number {i}")]
        ctx = mm.build_context(user, "s", "marker text secret", token_budget=1000)
        assert ctx.source_ids == [f"id-{i}"]
        assert mm.stats(user)["messages"] == 1
        assert mm._backend.get_message(user, "id-0" if i else "id-1") is None
    assert sorted(mm._backend.users()) == sorted(["alice", *TRICKY_USERS])
    assert mm.delete_user("%") == 1
    assert mm.delete_user("x' OR '1'='1") == 1
    assert mm.stats()["messages"] == len(TRICKY_USERS) - 1
    assert mm.search("alice", "marker secret")[0].text == "alice secret marker text"
    assert mm.search("_", "marker")[0].id == "id-2"


# -- (c) deletion leaves no trace ---------------------------------------------------------------
ALICE_MARKERS = ["ZEBRA-MARKER-4417", "斑马标记四四一七"]
BOB_MARKERS = ["OKAPI-MARKER-9931", "长颈鹿标记九九三一"]
ALICE_ID = "alice-UNIQUE-USER-5521"


def _raw_bytes(directory: Path) -> bytes:
    files = sorted(directory.glob("memory.sqlite3*"))
    assert any(f.name == "memory.sqlite3" for f in files)
    return b"".join(f.read_bytes() for f in files)


def _cache_hashes(db: Path) -> set[str]:
    con = sqlite3.connect(db)
    try:
        return {row[0] for row in con.execute("SELECT hash FROM embedding_cache")}
    finally:
        con.close()


def test_delete_user_leaves_no_bytes_on_disk(tmp_path: Path) -> None:
    directory = tmp_path / "mem"
    texts: dict[str, list[str]] = {ALICE_ID: [], "bob": []}
    with MemoryManager(directory, embeddings=HashingEmbeddings()) as mm:
        for i in range(300):  # enough rows to span many pages
            for user in (ALICE_ID, "bob"):
                text = f"filler {i} for {user}: gardening, tomatoes and 园艺笔记{i}"
                mm.add_message(user, f"s{i % 5}", "user", text)
                texts[user].append(text)
        for j, marker in enumerate(ALICE_MARKERS):
            for text in (f"my code word is {marker} ok", f"{marker}"):
                mm.add_message(
                    ALICE_ID,
                    "s1",
                    "user",
                    text,
                    metadata={"note": marker, "j": j},
                    name=f"Speaker-{j}",
                )
                texts[ALICE_ID].append(text)  # indexed and cached by its content
            mm.add_message(ALICE_ID, f"session-{marker}", "assistant", f"noted {marker}")
            texts[ALICE_ID].append(f"noted {marker}")
        for marker in BOB_MARKERS:
            mm.add_message(
                "bob", "s1", "user", f"bob's code word is {marker}", metadata={"note": marker}
            )
            texts["bob"].append(f"bob's code word is {marker}")
        mm.flush()
        # searching with a marker must not leave it on disk either
        assert mm.search(ALICE_ID, ALICE_MARKERS[0])
        db = mm.path
        assert db is not None
        alice_hashes = {CachedEmbeddings.content_hash(t) for t in texts[ALICE_ID]}
        bob_hashes = {CachedEmbeddings.content_hash(t) for t in texts["bob"]}
        assert alice_hashes.isdisjoint(bob_hashes)
        before = _cache_hashes(db)
        assert alice_hashes <= before and bob_hashes <= before
        assert len(before) == len(alice_hashes) + len(bob_hashes)
        lru_misses = mm.embeddings.cache_misses
        mm.embeddings.embed_array([texts[ALICE_ID][0]], persist=False)
        assert mm.embeddings.cache_misses == lru_misses  # in the in-process cache now

        assert mm.delete_user(ALICE_ID) == len(texts[ALICE_ID])

        after = _cache_hashes(db)
        assert after == bob_hashes
        assert len(after) == len(before) - len(alice_hashes)
        lru_misses = mm.embeddings.cache_misses
        mm.embeddings.embed_array([texts[ALICE_ID][0]], persist=False)
        assert mm.embeddings.cache_misses == lru_misses + 1  # gone from the process too
        assert mm.search(ALICE_ID, ALICE_MARKERS[0]) == []
        assert mm.stats(ALICE_ID)["messages"] == 0
        assert mm.stats("bob")["messages"] == 302
    data = _raw_bytes(directory)
    for marker in ALICE_MARKERS:
        assert marker.encode("utf-8") not in data, marker
        assert marker.lower().encode("utf-8") not in data, marker
    for piece in ("斑马", "标记四", "zebra"):  # lexical terms of the markers are gone too
        assert piece.encode("utf-8") not in data, piece
    for marker in BOB_MARKERS:
        assert marker.encode("utf-8") in data, marker
    # and the remaining store still works
    with MemoryManager(directory, embeddings=HashingEmbeddings()) as mm:
        assert mm.search("bob", BOB_MARKERS[0])[0].text.endswith(BOB_MARKERS[0])
        assert mm._backend.users() == ["bob"]


def test_delete_user_leaves_no_ids_on_disk(tmp_path: Path) -> None:
    t0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
    b = SQLiteBackend(tmp_path)
    for i in range(350):
        for user in (ALICE_ID, "bob"):
            mine = user == ALICE_ID
            m = Message(
                f"MSGID-MARKER-{i}" if mine else f"b{i}",
                user,
                f"s{i % 5}",
                "user",
                f"filler {i} about gardening",
                t0 + timedelta(minutes=i),
            )
            stored, _ = b.insert_message(m, tokenize(m.content))
            b.store_vectors([(stored, np.ones(8, dtype=np.float32))])
    assert b.delete_user(ALICE_ID) == 350
    b.close()
    data = _raw_bytes(tmp_path)
    assert b"b349" in data  # bob is still there
    assert ALICE_ID.encode() not in data
    assert b"MSGID-MARKER-" not in data


def test_delete_user_in_memory_backend_forgets_cache(mm: MemoryManager) -> None:
    mm.add_message("alice", "s", "user", "ZEBRA-MARKER-4417 lives here")
    mm.add_message("bob", "s", "user", "OKAPI-MARKER-9931 lives here")
    mm.flush()
    model = mm.embeddings.model_id
    a_hash = CachedEmbeddings.content_hash("ZEBRA-MARKER-4417 lives here")
    b_hash = CachedEmbeddings.content_hash("OKAPI-MARKER-9931 lives here")
    assert set(mm._backend.cache_get(model, [a_hash, b_hash])) == {a_hash, b_hash}
    mm.delete_user("alice")
    assert set(mm._backend.cache_get(model, [a_hash, b_hash])) == {b_hash}
    assert mm._backend.get_messages("alice", range(1, 10)) == {}
    assert "alice" not in mm._backend.users()


# -- (d) accepted messages survive a restart ----------------------------------------------------
def _embedded_flags(db: Path) -> list[int]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT embedded FROM messages ORDER BY seq")]
    finally:
        con.close()


def test_pending_messages_are_embedded_after_reopen(tmp_path: Path, failing_embeddings) -> None:
    path = tmp_path / "mem"
    mm = MemoryManager(path, embeddings=failing_embeddings())
    ids = [
        mm.add_message("alice", "s1", "user", f"durable note {i} about kayaks") for i in range(5)
    ]
    mm.close()  # no flush: the model never managed to embed anything
    db = path / "memory.sqlite3"
    assert _embedded_flags(db) == [0] * 5
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.flush(timeout=30)
        s = mm.stats("alice")
        assert (s["messages"], s["embedded"], s["pending"]) == (5, 5, 0)
        hits = mm.search("alice", "durable note 3 kayaks", k=5)
        assert {h.id for h in hits} == set(ids)
        assert all("cosine" in h.score_parts for h in hits)
        emb = HashingEmbeddings()
        qv = emb.embed_query("durable note 3 about kayaks")
        assert len(mm._backend.vector_search("alice", qv, 10)) == 5
    assert _embedded_flags(db) == [1] * 5


def test_close_without_flush_then_reopen(tmp_path: Path) -> None:
    path = tmp_path / "mem"
    mm = MemoryManager(path, embeddings=HashingEmbeddings())
    ids = [mm.add_message("alice", f"s{i % 3}", "user", f"note {i} on sailing") for i in range(60)]
    mm.close()
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.flush(timeout=30)
        s = mm.stats("alice")
        assert (s["messages"], s["embedded"], s["pending"]) == (60, 60, 0)
        assert all(mm._backend.get_message("alice", i) is not None for i in ids)
        qv = HashingEmbeddings().embed_query("note 7 on sailing")
        found = mm._backend.vector_search("alice", qv, 100)
        assert len(found) == 60
        assert mm._backend.get_messages("alice", [found[0][0]])[found[0][0]].id == ids[7]


def test_backend_reopen_keeps_everything(tmp_path: Path) -> None:
    b = SQLiteBackend(tmp_path / "store.sqlite3")
    with MemoryManager(backend=b, embeddings=HashingEmbeddings()) as mm:
        mid = mm.add_message("alice", "s", "user", "kept across restarts", metadata={"a": [1]})
        mm.flush()
    assert (tmp_path / "store.sqlite3").is_file()
    b2 = SQLiteBackend(tmp_path / "store.sqlite3")
    try:
        m = b2.get_message("alice", mid)
        assert m is not None and m.metadata == {"a": [1]} and m.content == "kept across restarts"
        assert b2.stats().embedded == 1
        b2.setup()  # migrations are idempotent
        assert b2.stats().messages == 1
        assert index_text(m) == "kept across restarts"
    finally:
        b2.close()


def test_sqlite_vector_cache_sees_other_connections(tmp_path: Path) -> None:
    """A reader's in-process vector matrix follows writes and deletes made through another
    connection to the file (as another process would), and its own."""

    def msg(i: int, user: str = "alice") -> Message:
        return Message(f"m{i}", user, "s", "user", f"note {i}", datetime.now(timezone.utc))

    def unit(i: int) -> np.ndarray:
        v = np.zeros(8, dtype=np.float32)
        v[i % 8] = 1.0
        return v

    reader = SQLiteBackend(tmp_path / "db.sqlite3")
    writer = SQLiteBackend(tmp_path / "db.sqlite3")
    try:
        stored = [writer.insert_message(msg(i), ["note"])[0] for i in range(3)]
        writer.store_vectors([(m, unit(i)) for i, m in enumerate(stored)])
        assert [s for s, _ in reader.vector_search("alice", unit(1), 1)] == [stored[1].seq]
        assert reader.vector_search("alice", unit(1), 1) == reader.vector_search(
            "alice", unit(1), 1
        )  # unchanged file: served from the cached matrix
        late = writer.insert_message(msg(9), ["note"])[0]
        writer.store_vectors([(late, unit(5))])
        assert [s for s, _ in reader.vector_search("alice", unit(5), 1)] == [late.seq]
        own = reader.insert_message(msg(7), ["note"])[0]
        reader.store_vectors([(own, unit(6))])
        assert [s for s, _ in reader.vector_search("alice", unit(6), 1)] == [own.seq]
        writer.delete_user("alice")
        assert reader.vector_search("alice", unit(1), 5) == []
    finally:
        reader.close()
        writer.close()
