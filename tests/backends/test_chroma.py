"""Chroma-specific behaviour: both clients, no default embedding function, persistence,
crash recovery of the counters, user isolation and hostile strings.

The shared conformance suite and the congruence workload run on Chroma too
(``chroma`` and ``chroma-http`` in ``conftest.BACKENDS``, see ``CLIENT_ONLY`` there
for which files each runs); these tests cover what only Chroma has.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

chromadb = pytest.importorskip("chromadb")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("LANGGRAPH_MEMORY_TEST_CHROMA", "1") == "0",
        reason="LANGGRAPH_MEMORY_TEST_CHROMA=0 leaves Chroma out",
    ),
]

import chroma_server  # noqa: E402

from langgraph_memory import MemoryManager  # noqa: E402
from langgraph_memory.core.records import Message, Record  # noqa: E402
from langgraph_memory.core.tokens import tokenize  # noqa: E402
from langgraph_memory.embeddings import HashingEmbeddings  # noqa: E402
from langgraph_memory.storage import InMemoryBackend, MemoryBackend  # noqa: E402
from langgraph_memory.storage.chroma.backend import ChromaBackend  # noqa: E402

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
HOSTILE = [
    "it's \"quoted\" `back` \\ 'single'",
    "100% %s %d {} {0} $ne $and $or $contains",
    "nul\x00byte",
    "emoji 🎉👩‍👩‍👧 ✓",
    "我喜欢在花园里喝茶，你呢？",
    "'; DROP TABLE messages; --",
    '{"$ne": "alice"}',
]


def msg(mid: str, content: str, *, user: str = "alice", session: str = "s1", **kw) -> Message:
    return Message(mid, user, session, "user", content, T0 + timedelta(minutes=len(mid)), **kw)


def put(backend: MemoryBackend, m: Message) -> Message:
    stored, created = backend.insert_message(m, tokenize(m.content))
    assert created
    return stored


@pytest.fixture(params=["persistent", pytest.param("http", marks=pytest.mark.server)])
def client_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def open_chroma(client_kind: str, tmp_path: Path) -> Iterator:
    """Open (and reopen) a ChromaBackend of the parametrised kind on one store."""
    opened: list[ChromaBackend] = []
    prefix = f"t{uuid.uuid4().hex[:16]}"

    def open_() -> ChromaBackend:
        if client_kind == "persistent":
            b = ChromaBackend.persistent(tmp_path / "chroma")
        else:
            server = chroma_server.get_server()
            b = ChromaBackend.http(server.host, server.port, prefix=prefix)
        opened.append(b)
        return b

    yield open_
    for b in opened:
        b.close()


# -- both clients ---------------------------------------------------------------------------
def test_both_clients_store_search_and_reopen(open_chroma, client_kind: str) -> None:
    b = open_chroma()
    a1 = put(b, msg("a1", "my cat sleeps in the garden"))
    a2 = put(b, msg("a2", "garden party on saturday", session="s2"))
    put(b, msg("b1", "bob's cat", user="bob"))
    b.store_vectors([(a1, np.array([1, 0, 0], np.float32)), (a2, np.array([0, 1, 0], np.float32))])
    assert b.vector_search("alice", np.array([1, 0.1, 0], np.float32), 5)[0][0] == a1.seq
    assert [s for s, _ in b.lexical_search("alice", ["garden"], 5)] == [a1.seq, a2.seq] or [
        s for s, _ in b.lexical_search("alice", ["garden"], 5)
    ] == [a2.seq, a1.seq]
    b.set_meta("embedding_model", "hashing")
    b.close()
    with pytest.raises(RuntimeError, match="closed"):
        b.get_message("alice", "a1")
    again = open_chroma()
    assert again.get_message("alice", "a1") == a1
    assert again.get_meta("embedding_model") == "hashing"
    s = again.stats()
    assert (s.messages, s.embedded, s.sessions, s.users) == (3, 2, 3, 2)
    assert again.vector_search("alice", np.array([0, 1, 0], np.float32), 1)[0][0] == a2.seq
    assert put(again, msg("a3", "more")).seq > a2.seq
    assert again.name == "chroma"
    assert client_kind in ("persistent", "http")


def test_http_backend_to_a_closed_port_fails_clearly() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(Exception, match="(?i)connect"):
        ChromaBackend.http("127.0.0.1", port)


def test_prefixes_are_independent_stores(tmp_path: Path) -> None:
    client = chromadb.PersistentClient(path=str(tmp_path / "c"))
    one, two = ChromaBackend(client, prefix="one"), ChromaBackend(client, prefix="two")
    put(one, msg("m1", "only in one"))
    assert two.get_message("alice", "m1") is None and two.stats().messages == 0
    assert {c.name for c in client.list_collections()} >= {"one_store", "two_vectors"}
    for bad in ("", "x", "-bad", "bad-", "has space", "a/b"):
        with pytest.raises(ValueError, match="prefix"):
            ChromaBackend(client, prefix=bad)
    one.close()
    two.close()
    assert client.heartbeat() > 0  # a client the caller passed in stays open


# -- no default embedding function ------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:legacy embedding function config:DeprecationWarning")
def test_chroma_never_embeds_nor_downloads(
    open_chroma, client_kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole manager workload with Chroma's default model made to fail, and no network."""
    from chromadb.utils.embedding_functions import ONNXMiniLM_L6_V2

    def refuse(*args, **kwargs):
        raise AssertionError("Chroma tried to use its default embedding model")

    monkeypatch.setattr(ONNXMiniLM_L6_V2, "__call__", refuse)
    monkeypatch.setattr(ONNXMiniLM_L6_V2, "_download_model_if_not_exists", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    real_connect = socket.socket.connect

    def loopback_only(self: socket.socket, address) -> None:  # type: ignore[no-untyped-def]
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            assert host in ("127.0.0.1", "::1", "localhost"), f"network access to {host}"
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", loopback_only)
    b = open_chroma()
    for col in (b._store.collection, b._vectors):
        assert col._embedding_function is None
        assert col.configuration.get("embedding_function") is None
        assert col.configuration["hnsw"]["space"] == "cosine"
    with MemoryManager(backend=b, embeddings=HashingEmbeddings()) as mm:
        mm.add_turn("alice", "s1", user="I moved to Lyon", assistant="Lyon is lovely")
        mm.add_turn("alice", "s1", user="我对花生过敏", assistant="好的")
        mm.flush()
        assert mm.search("alice", "where did I move?", k=2)[0].text == "I moved to Lyon"
        assert b.stats("alice").embedded == 4


# -- persistence and recovery -----------------------------------------------------------------
def test_persistence_on_disk_across_reopen(tmp_path: Path) -> None:
    """On the real disk (the shared tests use tmpfs): every kind of data survives a reopen."""
    path = tmp_path / "on-disk"
    b = ChromaBackend.persistent(path)
    stored = [put(b, msg(f"m{i}", f"cat number {i} in garden {i % 3}")) for i in range(5)]
    b.store_vectors([(m, np.eye(4, dtype=np.float32)[i % 4]) for i, m in enumerate(stored[:4])])
    b.cache_put("model", {"h": np.array([0.5, 2.0], np.float32)})
    b.put_record(Record("episode", "e1", "alice", {"text": "花生"}, T0, T0))
    b.set_meta("k", "v")
    lex = b.lexical_search("alice", ["cat", "garden", "1"], 10)
    b.close()
    assert any(p.name == "chroma.sqlite3" for p in path.iterdir())
    b = ChromaBackend.persistent(path)
    try:
        assert [m.id for m in b.iter_messages("alice")] == [f"m{i}" for i in range(5)]
        assert b.lexical_search("alice", ["cat", "garden", "1"], 10) == lex
        assert [m.id for m in b.pending_embeddings(10)] == ["m4"]
        assert b.vector_search("alice", np.eye(4, dtype=np.float32)[2], 1)[0][0] == stored[2].seq
        np.testing.assert_array_equal(b.cache_get("model", ["h"])["h"], [0.5, 2.0])
        assert b.get_record("episode", "e1").data == {"text": "花生"}
        assert b.get_meta("k") == "v"
        assert put(b, msg("m9", "after")).seq == stored[-1].seq + 1
    finally:
        b.close()


def test_counters_are_rebuilt_after_a_crash(tmp_path: Path) -> None:
    """A process that dies without close (before any checkpoint) loses no count."""
    path = tmp_path / "crash"
    script = textwrap.dedent(
        f"""
        import os
        from datetime import datetime, timezone
        from langgraph_memory.storage.chroma.backend import ChromaBackend
        from langgraph_memory.core.records import Message
        from langgraph_memory.core.tokens import tokenize
        b = ChromaBackend.persistent({str(path)!r})
        t = datetime(2024, 1, 1, tzinfo=timezone.utc)
        for i in range(10):
            text = f"crash test words {{i}} " * (i + 1)
            m = Message(f"m{{i}}", "alice", f"s{{i % 3}}", "user", text, t)
            b.insert_message(m, tokenize(text))
        os._exit(0)  # no close(), no checkpoint
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    b = ChromaBackend.persistent(path)
    ref = InMemoryBackend()
    try:
        msgs = b.iter_messages("alice")
        assert [m.seq for m in msgs] == list(range(1, 11))
        for m in msgs:
            ref.insert_message(m, tokenize(m.content))
        s = b.stats("alice")
        assert (s.messages, s.sessions, s.users) == (10, 3, 1)
        for terms in (["crash"], ["word", "5"], ["test", "9", "0"]):
            got, want = b.postings("alice", terms), ref.postings("alice", terms)
            assert (got.n_docs, got.total_len, got.lists) == (
                want.n_docs,
                want.total_len,
                want.lists,
            )
            assert b.lexical_search("alice", terms, 10) == ref.lexical_search("alice", terms, 10)
        assert [m.id for m in b.session_messages("alice", "s1", last=2)] == ["m4", "m7"]
        assert put(b, msg("new", "next one", session="s1")).seq == 11
        assert [m.id for m in b.session_messages("alice", "s1", last=2)] == ["m7", "new"]
    finally:
        b.close()


def test_two_instances_on_one_store_see_each_other(tmp_path: Path) -> None:
    one = ChromaBackend.persistent(tmp_path / "shared")
    two = ChromaBackend.persistent(tmp_path / "shared")
    try:
        a = put(one, msg("a", "apples and pears"))
        assert two.postings("alice", ["apple"]).n_docs == 1
        b = put(two, msg("b", "pears only"))
        assert b.seq == a.seq + 1
        assert one.lexical_search("alice", ["pear"], 5)[0][0] == b.seq  # shorter doc first
        assert one.stats().messages == 2 and one.users() == ["alice"]
        two.delete_user("alice")
        assert one.users() == [] and one.stats("alice").messages == 0
        assert put(one, msg("c", "fresh start")).seq == b.seq + 1
    finally:
        one.close()
        two.close()


def test_pending_embeddings_seen_across_instances(tmp_path: Path) -> None:
    """An instance that found nothing pending still sees what another one writes next."""
    one = ChromaBackend.persistent(tmp_path / "shared")
    two = ChromaBackend.persistent(tmp_path / "shared")
    try:
        assert one.pending_embeddings(10) == two.pending_embeddings(10) == []
        a = put(one, msg("a", "apples"))
        assert [m.id for m in two.pending_embeddings(10)] == ["a"]
        two.store_vectors([(a, np.ones(3, np.float32))])
        assert one.pending_embeddings(10) == two.pending_embeddings(10) == []
        assert one.get_message("alice", "a") == a  # marking it embedded kept the message
        b = put(two, msg("b", "pears"))
        assert [m.id for m in one.pending_embeddings(10)] == ["b"]
        one.delete_user("alice")
        assert one.pending_embeddings(10) == two.pending_embeddings(10) == []
        c = put(one, msg("c", "plums"))
        assert [m.seq for m in two.pending_embeddings(10)] == [c.seq]
        assert c.seq > b.seq
    finally:
        one.close()
        two.close()


def test_collections_persist_their_index_often(tmp_path: Path) -> None:
    """Chroma's default sync_threshold (1000) makes each write slower the more writes
    went since the last persist; new stores get ours and older ones are set to it."""
    import langgraph_memory.storage.chroma.backend as chroma_module

    client = chromadb.PersistentClient(path=str(tmp_path / "c"))
    for part in ("store", "vectors"):  # as the previous version made them
        client.create_collection(
            f"old_{part}", embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
        )
    old = ChromaBackend(client, prefix="old")
    put(old, msg("m1", "still readable"))
    new = ChromaBackend(client, prefix="new")
    for name in ("old_store", "old_vectors", "new_store", "new_vectors"):
        hnsw = client.get_collection(name, embedding_function=None).configuration_json["hnsw"]
        assert hnsw["sync_threshold"] == chroma_module._SYNC_THRESHOLD, name
        assert hnsw["space"] == "cosine", name
    assert ChromaBackend(client, prefix="old").get_message("alice", "m1") is not None
    old.close()
    new.close()


# -- isolation and hostile input --------------------------------------------------------------
ADVERSARIAL_USERS = ["$ne", '{"$ne": "x"}', "alice' OR '1'='1", "*", "%", "alice ", "ALICE"]


def test_user_isolation_with_adversarial_ids_and_filters(open_chroma) -> None:
    b = open_chroma()
    secret = put(b, msg("s", "alice secret garden password", metadata={"topic": "x"}))
    secret_vec = np.asarray(HashingEmbeddings().embed_query(secret.content), np.float32)
    b.store_vectors([(secret, secret_vec)])
    with MemoryManager(backend=b, embeddings=HashingEmbeddings()) as mm:
        for user in ADVERSARIAL_USERS:
            mm.add_message(user, "s1", "user", f"hello from {user!r}", timestamp=T0)
        mm.flush()
        for user in ADVERSARIAL_USERS:
            assert b.get_message(user, "s") is None
            assert b.get_messages(user, [secret.seq]) == {}
            assert b.neighbors(user, secret.seq, 3) == []
            assert b.vector_search(user, secret_vec, 10, allowed={secret.seq}) == []
            assert secret.seq not in {s for s, _ in b.vector_search(user, secret_vec, 50)}
            assert b.postings(user, ["secret"]).lists.get("secret", []) == []
            for flt in (
                None,
                {"topic": "x"},
                {"topic": {"$in": ["x", {"$ne": None}]}},
                {"topic": {"$exists": True}},
                {"session_id": {"$ne": "nope"}},
            ):
                for hit in mm.search(user, "secret garden password", k=10, filter=flt):
                    assert "secret" not in hit.text
        for flt in ({"user_id": "alice"}, {"user_id": {"$ne": "x"}}):
            with pytest.raises(ValueError, match="user_id"):
                mm.search("$ne", "secret", filter=flt)
        assert sorted(b.users()) == sorted(["alice", *ADVERSARIAL_USERS])
        assert b.delete_user("$ne") == 1
        assert b.get_message("alice", "s") is not None  # "$ne" deleted only itself


def test_hostile_strings_round_trip(open_chroma) -> None:
    b = open_chroma()
    stored = []
    for i, text in enumerate(HOSTILE):
        m = msg(
            f"id-{text}",
            text,
            user=f"user {text}",
            session=f"session {text}",
            name=text,
            metadata={"v": text, "nested": {text: [text]}},
        )
        stored.append((put(b, m), m))
        b.put_record(Record(f"kind {i}", f"rec {text}", m.user_id, {"t": text}, T0, T0))
        b.set_meta(f"key {text}", text)
    for got, want in stored:
        back = b.get_message(want.user_id, want.id)
        assert back is not None
        assert (back.content, back.name, back.metadata) == (want.content, want.name, want.metadata)
        assert [m.id for m in b.session_messages(want.user_id, want.session_id)] == [want.id]
        terms = tokenize(want.content)
        if terms:
            assert b.lexical_search(want.user_id, terms, 3)[0][0] == got.seq
    for i, text in enumerate(HOSTILE):
        assert b.get_record(f"kind {i}", f"rec {text}").data == {"t": text}
        assert b.get_meta(f"key {text}") == text
    assert b.stats().users == len(HOSTILE)


def test_one_megabyte_text(open_chroma) -> None:
    """1 MB of text with 1000s of distinct terms (posting entries are split) round-trips."""
    b = open_chroma()
    words = [f"w{i}" for i in range(150_000)]
    text = (" ".join(words) + " 汉字 🎉 ")[: 1 << 20]
    big = put(b, msg("big", text))
    small = put(b, msg("small", "w7 only"))
    assert len(text) == 1 << 20
    back = b.get_message("alice", "big")
    assert back is not None and back.content == text
    terms = tokenize(text)
    assert len(set(terms)) > 3 * 1000
    ref = InMemoryBackend()
    for m in (big, small):
        ref.insert_message(m, tokenize(m.content))
    for query in (["w7"], ["w149000", "w3"], ["w12345", "missing"]):
        assert b.lexical_search("alice", query, 5) == ref.lexical_search("alice", query, 5)
    assert b.postings("alice", ["w120000"]).lists["w120000"] == [(big.seq, 1)]


def test_vector_dimension_is_guarded(open_chroma) -> None:
    b = open_chroma()
    m1, m2 = put(b, msg("a", "one")), put(b, msg("b", "two"))
    b.store_vectors([(m1, np.ones(3, np.float32))])
    with pytest.raises(ValueError, match="dimension"):
        b.store_vectors([(m2, np.ones(4, np.float32))])
    with pytest.raises(ValueError, match="dimension"):
        b.vector_search("alice", np.ones(4, np.float32), 3)
    assert [m.id for m in b.pending_embeddings(5)] == ["b"]
    b.delete_user("alice")  # the index is empty again: a new model may start over
    m3 = put(b, msg("c", "three"))
    b.store_vectors([(m3, np.ones(4, np.float32))])
    assert b.vector_search("alice", np.ones(4, np.float32), 3) == [(m3.seq, pytest.approx(1.0))]


def test_hnsw_path_past_the_exact_limit(
    open_chroma, client_kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the exact-search limit, HNSW candidates re-scored: >= 0.95 overlap@10, exact scores."""
    import langgraph_memory.storage.chroma.vectors as chroma_vectors

    b = open_chroma()
    ref = InMemoryBackend()
    rng = np.random.default_rng(7)
    msgs = [put(b, msg(f"m{i}", f"text {i}", session=f"s{i % 5}")) for i in range(150)]
    for m in msgs:
        ref.insert_message(m, tokenize(m.content))
    vecs = rng.normal(size=(150, 16)).astype(np.float32)
    b.store_vectors(list(zip(msgs, vecs, strict=True)))
    ref.store_vectors(list(zip(msgs, vecs, strict=True)))
    monkeypatch.setattr(chroma_vectors, "EXACT_LIMIT", 0)
    overlap = []
    for q in rng.normal(size=(10, 16)).astype(np.float32):
        got, want = b.vector_search("alice", q, 10), ref.vector_search("alice", q, 10)
        overlap.append(len({s for s, _ in got} & {s for s, _ in want}) / 10)
        exact = dict(ref.vector_search("alice", q, 150))
        assert all(abs(score - exact[s]) <= 1e-6 for s, score in got)
        allowed = {m.seq for m in msgs[::3]}
        got_allowed = b.vector_search("alice", q, 5, allowed=allowed)
        assert {s for s, _ in got_allowed} <= allowed and len(got_allowed) == 5
    assert sum(overlap) / len(overlap) >= 0.95
