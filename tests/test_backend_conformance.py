"""The MemoryBackend conformance suite: every backend in BACKENDS must pass all of it.

These tests talk to the backend interface directly (no manager), so a new
backend is checked on exactly the contract the rest of the library relies on.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core.records import Message, Record, index_text
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend, compile_filter

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


def make(
    mid: str,
    content: str = "hello world",
    *,
    user: str = "alice",
    session: str = "s1",
    role: str = "user",
    name: str | None = None,
    minutes: int = 0,
    metadata: dict | None = None,
) -> Message:
    return Message(
        id=mid,
        user_id=user,
        session_id=session,
        role=role,
        content=content,
        timestamp=T0 + timedelta(minutes=minutes),
        name=name,
        metadata=dict(metadata or {}),
    )


def put(backend: MemoryBackend, msg: Message) -> Message:
    stored, created = backend.insert_message(msg, tokenize(index_text(msg)))
    assert created
    return stored


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


# -- insert ---------------------------------------------------------------------------------
def test_insert_returns_stored_message_with_seq(backend: MemoryBackend) -> None:
    m = make("m1", "I moved to Lyon", name="Alice", metadata={"topic": "travel", "n": 3})
    stored, created = backend.insert_message(m, tokenize(m.content))
    assert created is True
    assert stored.seq > 0
    assert (stored.id, stored.user_id, stored.session_id, stored.role) == (
        "m1",
        "alice",
        "s1",
        "user",
    )
    assert stored.content == "I moved to Lyon"
    assert stored.name == "Alice"
    assert stored.metadata == {"topic": "travel", "n": 3}
    assert stored.timestamp == T0
    again = backend.get_message("alice", "m1")
    assert again is not None
    assert again.seq == stored.seq
    assert again.timestamp == T0 and again.timestamp.tzinfo is not None
    assert again.metadata == {"topic": "travel", "n": 3}
    assert again.name == "Alice"


def test_seqs_increase_across_users_and_sessions(backend: MemoryBackend) -> None:
    seqs = [
        put(backend, make("a", user="alice")).seq,
        put(backend, make("b", user="bob")).seq,
        put(backend, make("c", user="alice", session="s2")).seq,
        put(backend, make("d", user="carol")).seq,
    ]
    assert seqs == sorted(seqs)
    assert len(set(seqs)) == 4


def test_duplicate_id_same_content_is_not_created_again(backend: MemoryBackend) -> None:
    first = put(backend, make("m1", "zebra crossing"))
    stored, created = backend.insert_message(make("m1", "zebra crossing"), ["zebra", "crossing"])
    assert created is False
    assert stored.seq == first.seq
    assert stored.content == "zebra crossing"
    assert backend.stats("alice").messages == 1
    assert [m.id for m in backend.pending_embeddings(10)] == ["m1"]
    # the lexical index was not doubled either
    p = backend.postings("alice", ["zebra"])
    assert p.lists["zebra"] == [(first.seq, 1)]
    assert (p.n_docs, p.total_len) == (1, 2)


def test_duplicate_id_other_content_raises_and_keeps_original(backend: MemoryBackend) -> None:
    first = put(backend, make("m1", "original words"))
    with pytest.raises(ValueError, match="m1"):
        backend.insert_message(make("m1", "replacement words"), tokenize("replacement words"))
    got = backend.get_message("alice", "m1")
    assert got is not None
    assert got.content == "original words"
    assert got.seq == first.seq
    assert backend.stats("alice").messages == 1
    assert backend.postings("alice", ["replacement"]).lists["replacement"] == []
    assert backend.lexical_search("alice", ["original"], 5)[0][0] == first.seq


def test_same_id_for_two_users_is_two_messages(backend: MemoryBackend) -> None:
    a = put(backend, make("m1", "alice text", user="alice"))
    b = put(backend, make("m1", "bob text", user="bob"))
    assert a.seq != b.seq
    got_a, got_b = backend.get_message("alice", "m1"), backend.get_message("bob", "m1")
    assert got_a is not None and got_b is not None
    assert got_a.content == "alice text"
    assert got_b.content == "bob text"


# -- reads are scoped by user ---------------------------------------------------------------
def test_get_messages_scoped_by_user(backend: MemoryBackend) -> None:
    a1 = put(backend, make("a1", "one", user="alice"))
    b1 = put(backend, make("b1", "two", user="bob"))
    a2 = put(backend, make("a2", "three", user="alice"))
    got = backend.get_messages("alice", [a1.seq, b1.seq, a2.seq, 99999])
    assert set(got) == {a1.seq, a2.seq}
    assert got[a1.seq].id == "a1" and got[a2.seq].id == "a2"
    assert backend.get_messages("bob", [a1.seq, a2.seq]) == {}
    assert backend.get_messages("nobody", [a1.seq, b1.seq]) == {}
    assert backend.get_messages("alice", []) == {}


def test_get_messages_many_seqs(backend: MemoryBackend) -> None:
    seqs = [put(backend, make(f"m{i}", f"text {i}")).seq for i in range(1200)]
    got = backend.get_messages("alice", seqs)
    assert len(got) == 1200
    assert all(got[s].content == f"text {i}" for i, s in enumerate(seqs))


def test_get_message_scoped_by_user(backend: MemoryBackend) -> None:
    put(backend, make("secret", "bob's secret", user="bob"))
    assert backend.get_message("alice", "secret") is None
    assert backend.get_message("bob", "secret") is not None
    assert backend.get_message("bob", "missing") is None


def test_session_messages_order_and_last(backend: MemoryBackend) -> None:
    ids = []
    for i in range(5):
        ids.append(put(backend, make(f"m{i}", f"turn {i}", session="s1", minutes=i)).id)
        put(backend, make(f"x{i}", f"other {i}", session="s2"))
        put(backend, make(f"b{i}", f"bob {i}", user="bob", session="s1"))
    assert [m.id for m in backend.session_messages("alice", "s1")] == ids
    assert [m.id for m in backend.session_messages("alice", "s1", last=2)] == ids[-2:]
    assert [m.id for m in backend.session_messages("alice", "s1", last=50)] == ids
    assert backend.session_messages("alice", "s1", last=0) == []
    assert backend.session_messages("alice", "nope") == []
    assert all(m.user_id == "alice" for m in backend.session_messages("alice", "s1"))
    assert backend.session_messages("carol", "s1") == []


def test_neighbors_stay_within_session_and_window(backend: MemoryBackend) -> None:
    s1 = [put(backend, make(f"s1-{i}", f"a {i}", session="s1")) for i in range(3)]
    s2 = [put(backend, make(f"s2-{i}", f"b {i}", session="s2")) for i in range(2)]
    s1 += [put(backend, make(f"s1-{i}", f"a {i}", session="s1")) for i in range(3, 6)]
    put(backend, make("bob-0", "bob", user="bob", session="s1"))
    mid = s1[3]  # interleaved with s2 and bob's s1 in seq order
    assert [m.id for m in backend.neighbors("alice", mid.seq, 1)] == ["s1-2", "s1-4"]
    assert [m.id for m in backend.neighbors("alice", mid.seq, 2)] == [
        "s1-1",
        "s1-2",
        "s1-4",
        "s1-5",
    ]
    assert [m.id for m in backend.neighbors("alice", s1[0].seq, 2)] == ["s1-1", "s1-2"]
    assert [m.id for m in backend.neighbors("alice", s1[-1].seq, 1)] == ["s1-4"]
    assert [m.id for m in backend.neighbors("alice", s2[0].seq, 5)] == ["s2-1"]
    assert backend.neighbors("alice", mid.seq, 0) == []
    assert backend.neighbors("bob", mid.seq, 2) == []  # another user's seq
    assert backend.neighbors("alice", 10**9, 2) == []


def test_neighbors_many_matches_neighbors(backend: MemoryBackend) -> None:
    msgs = [put(backend, make(f"m{i}", f"t {i}", session=f"s{i % 3}")) for i in range(30)]
    put(backend, make("b0", user="bob", session="s0"))
    seqs = [m.seq for m in msgs[::4]] + [10**9]
    for window in (0, 1, 3):
        many = backend.neighbors_many("alice", seqs, window)
        assert set(many) == set(seqs)
        for s in seqs:
            assert [m.id for m in many[s]] == [m.id for m in backend.neighbors("alice", s, window)]
    assert all(v == [] for v in backend.neighbors_many("bob", seqs, 2).values())
    assert backend.neighbors_many("alice", [], 2) == {}


def test_neighbors_many_of_many_hits(
    backend: MemoryBackend,
) -> None:
    msgs = [put(backend, make(f"m{i}", f"t {i}", session=f"s{i % 7}")) for i in range(1200)]
    many = backend.neighbors_many("alice", [m.seq for m in msgs], 1)
    assert len(many) == 1200
    assert [m.id for m in many[msgs[700].seq]] == ["m693", "m707"]


def test_meta_round_trip(backend: MemoryBackend) -> None:
    assert backend.get_meta("embedding_model") is None
    backend.set_meta("embedding_model", "model-a")
    assert backend.get_meta("embedding_model") == "model-a"
    backend.set_meta("embedding_model", "model-b")
    backend.set_meta("other", "模型")
    assert backend.get_meta("embedding_model") == "model-b"
    assert backend.get_meta("other") == "模型"
    backend.delete_user("alice")
    assert backend.get_meta("embedding_model") == "model-b"  # store-wide, not per user


def test_iter_messages_in_insertion_order(backend: MemoryBackend) -> None:
    for i in range(4):
        put(backend, make(f"m{i}", session=f"s{i % 2}"))
        put(backend, make(f"b{i}", user="bob"))
    assert [m.id for m in backend.iter_messages("alice")] == ["m0", "m1", "m2", "m3"]
    assert backend.iter_messages("nobody") == []


def test_speaker_names_whole_then_only_what_came_since(backend: MemoryBackend) -> None:
    a = put(backend, make("m0", name="Ann Lee"))
    put(backend, make("m1"))  # no name
    put(backend, make("b0", user="bob", name="Bob"))
    top = put(backend, make("m2", name="Jon", role="assistant"))
    names, seen = backend.speaker_names("alice")
    assert (names, seen) == ({"Ann Lee", "Jon"}, top.seq)
    assert backend.speaker_names("alice", seen) == (set(), seen)  # nothing since
    later = put(backend, make("m3", name="Zoë"))
    assert backend.speaker_names("alice", seen) == ({"Zoë"}, later.seq)
    assert backend.speaker_names("alice", a.seq)[0] == {"Jon", "Zoë"}
    assert backend.speaker_names("nobody") == (set(), 0)


# -- vectors --------------------------------------------------------------------------------
def test_pending_embeddings_oldest_first_and_cleared_by_store(backend: MemoryBackend) -> None:
    msgs = [put(backend, make(f"m{i}", user=("alice", "bob")[i % 2])) for i in range(5)]
    pending = backend.pending_embeddings(10)
    assert [m.seq for m in pending] == [m.seq for m in msgs]
    assert [m.id for m in backend.pending_embeddings(2)] == ["m0", "m1"]
    backend.store_vectors([(pending[1], unit(1, 0, 0)), (pending[3], unit(0, 1, 0))])
    assert [m.id for m in backend.pending_embeddings(10)] == ["m0", "m2", "m4"]
    assert backend.stats().embedded == 2
    assert backend.stats("bob").embedded == 2
    # storing again is ignored, not doubled
    backend.store_vectors([(pending[1], unit(0, 0, 1))])
    assert backend.stats().embedded == 2
    assert backend.vector_search("bob", unit(1, 0, 0), 5)[0] == (pending[1].seq, pytest.approx(1.0))


def test_failed_messages_leave_the_queue_and_come_back(backend: MemoryBackend) -> None:
    """A quarantined message leaves the queue (no vector, not counted as embedded) but
    stays stored and found by its words; put back, it is pending again. Only the named
    user's pending messages change."""
    a = [put(backend, make(f"m{i}", user="alice", content=f"tea note {i}")) for i in range(3)]
    b = put(backend, make("m1", user="bob", content="tea note bob"))
    assert backend.set_failed("alice", ["m1", "nope"]) == 1
    assert backend.set_failed("alice", ["m1"]) == 0  # already set aside
    assert [m.id for m in backend.pending_embeddings(10)] == ["m0", "m2", "m1"]
    assert backend.pending_embeddings(10)[-1].user_id == "bob"
    backend.store_vectors([(a[0], unit(1, 0)), (a[2], unit(0, 1)), (b, unit(1, 1))])
    assert backend.pending_embeddings(10) == []
    assert backend.stats("alice").embedded == 2 and backend.stats("alice").messages == 3
    assert {s for s, _ in backend.vector_search("alice", unit(1, 0), 10)} == {a[0].seq, a[2].seq}
    assert a[1].seq in {s for s, _ in backend.lexical_search("alice", ["tea"], 10)}
    assert backend.get_message("alice", "m1") is not None
    assert backend.set_failed("bob", ["m1"]) == 0  # bob's m1 is embedded: not pending
    assert backend.set_failed("alice", ["m1"], False) == 1
    assert [m.id for m in backend.pending_embeddings(10)] == ["m1"]
    backend.store_vectors([(a[1], unit(1, 0))])
    assert backend.stats("alice").embedded == 3
    assert backend.delete_user("alice") == 3


def _workload(backend: MemoryBackend, skip: set[str] = frozenset()) -> dict[str, Message]:
    """Two users, two sessions each, some messages embedded and indexed, some pending;
    the ids in ``skip`` are never written. Returns the stored messages by id."""
    texts = [
        "tea at the lake house",
        "the lake froze in january",
        "green tea again today",
        "my sister visits the lake",
        "we walked to the lake with tea",
        "a quiet day at home",
        "tea, the lake, and a book",
        "the book was about a lake",
    ]
    out: dict[str, Message] = {}
    for user in ("alice", "bob"):
        for i, text in enumerate(texts):
            mid = f"{user}-m{i}"
            if mid in skip:
                continue
            m = put(backend, make(mid, f"{text} ({user})", user=user, session=f"s{i % 2}"))
            out[mid] = m
    backend.store_vectors(
        [(m, unit(1.0, float(int(k[-1])), 0.5)) for k, m in out.items() if int(k[-1]) < 6]
    )
    if hasattr(backend, "index_pending"):
        backend.index_pending()
    return out


def test_deleted_messages_leave_the_store_as_if_never_written(
    backend: MemoryBackend, make_backend, request: pytest.FixtureRequest
) -> None:
    """After ``delete_messages`` the store ranks (BM25 and cosine), counts, reads
    sessions and neighbours, and queues exactly as a store never given those messages."""
    drop = {"alice-m2", "alice-m4", "alice-m7"}  # embedded, embedded, pending
    stored = _workload(backend)
    name = request.node.callspec.params["backend"]
    fresh = make_backend(name)
    _workload(fresh, skip=drop)
    gone = backend.delete_messages("alice", [*sorted(drop), "no-such-id"])
    assert [m.id for m in gone] == sorted(drop, key=lambda d: stored[d].seq)
    assert backend.delete_messages("alice", sorted(drop)) == []
    for b in (backend, fresh):
        assert b.get_message("alice", "alice-m2") is None

    def view(b: MemoryBackend) -> dict:
        ids = {m.seq: m.id for u in ("alice", "bob") for m in b.iter_messages(u)}
        out = {}
        for user in ("alice", "bob"):
            out[user] = {
                "messages": [m.id for m in b.iter_messages(user)],
                "sessions": {s: [m.id for m in b.session_messages(user, s)] for s in ("s0", "s1")},
                "last": [m.id for m in b.session_messages(user, "s0", last=2)],
                "lexical": [
                    (ids[s], round(v, 6)) for s, v in b.lexical_search(user, ["lake", "tea"], 20)
                ],
                "dense": [
                    (ids[s], round(v, 5)) for s, v in b.vector_search(user, unit(1, 3, 0.5), 20)
                ],
                "neighbors": {
                    ids[s]: [m.id for m in ms]
                    for s, ms in b.neighbors_many(user, list(ids), 1).items()
                    if s in ids and ids[s].startswith(user)
                },
                "stats": b.stats(user),
            }
        out["pending"] = [m.id for m in b.pending_embeddings(50)]
        out["stats"] = b.stats()
        return out

    assert view(backend) == view(fresh)
    # the store goes on: a new message of the session takes the next place
    for b in (backend, fresh):
        put(b, make("alice-new", "tea by the lake at night", session="s0"))
    assert view(backend)["alice"]["sessions"] == view(fresh)["alice"]["sessions"]
    assert view(backend)["alice"]["lexical"] == view(fresh)["alice"]["lexical"]


def test_store_vectors_ignores_deleted_messages(backend: MemoryBackend) -> None:
    m = put(backend, make("m1", user="gone"))
    keep = put(backend, make("k1", user="stay"))
    backend.delete_user("gone")
    backend.store_vectors([(m, unit(1, 0)), (keep, unit(0, 1))])
    assert backend.vector_search("gone", unit(1, 0), 5) == []
    assert backend.stats("gone").embedded == 0
    assert backend.vector_search("stay", unit(0, 1), 5) == [(keep.seq, pytest.approx(1.0))]


def test_vector_search_best_first_with_exact_cosines(backend: MemoryBackend) -> None:
    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(20, 8)).astype(np.float32)
    msgs = [put(backend, make(f"m{i}", f"text {i}")) for i in range(20)]
    backend.store_vectors(list(zip(msgs, vecs, strict=True)))
    q = rng.normal(size=8).astype(np.float32)
    got = backend.vector_search("alice", q, 5)
    normed = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    cos = normed @ (q / np.linalg.norm(q))
    best = np.argsort(-cos)[:5]
    assert [s for s, _ in got] == [msgs[i].seq for i in best]
    assert [c for _, c in got] == pytest.approx([float(cos[i]) for i in best], abs=1e-5)
    assert [c for _, c in got] == sorted((c for _, c in got), reverse=True)
    assert len(backend.vector_search("alice", q, 100)) == 20


def test_vector_search_many_is_each_vector_search(backend: MemoryBackend) -> None:
    rng = np.random.default_rng(8)
    msgs = [put(backend, make(f"m{i}", f"text {i}")) for i in range(30)]
    backend.store_vectors(list(zip(msgs, rng.normal(size=(30, 8)).astype(np.float32), strict=True)))
    queries = list(rng.normal(size=(3, 8)).astype(np.float32))
    assert backend.vector_search_many("alice", queries, 4) == [
        backend.vector_search("alice", q, 4) for q in queries
    ]
    assert backend.vector_search_many("nobody", queries, 4) == [[], [], []]
    assert backend.vector_search_many("alice", [], 4) == []


def test_vector_search_respects_allowed_and_user(backend: MemoryBackend) -> None:
    a = [put(backend, make(f"a{i}", user="alice")) for i in range(4)]
    b = [put(backend, make(f"b{i}", user="bob")) for i in range(4)]
    same = unit(1, 1, 0)
    backend.store_vectors([(m, same) for m in a + b])
    everything = {m.seq for m in a + b}
    got = backend.vector_search("alice", same, 10, allowed=everything)
    assert {s for s, _ in got} == {m.seq for m in a}
    got = backend.vector_search("alice", same, 10, allowed={a[1].seq, a[3].seq, b[0].seq})
    assert sorted(s for s, _ in got) == [a[1].seq, a[3].seq]
    assert backend.vector_search("alice", same, 10, allowed={b[0].seq}) == []
    assert backend.vector_search("alice", same, 10, allowed=set()) == []
    assert backend.vector_search("nobody", same, 10) == []
    # ties are broken by insertion order
    assert [s for s, _ in backend.vector_search("bob", same, 10)] == [m.seq for m in b]


def test_vector_search_sees_vectors_added_later(backend: MemoryBackend) -> None:
    m1 = put(backend, make("m1"))
    backend.store_vectors([(m1, unit(1, 0))])
    assert [s for s, _ in backend.vector_search("alice", unit(0, 1), 5)] == [m1.seq]
    m2 = put(backend, make("m2"))
    backend.store_vectors([(m2, unit(0, 1))])
    assert [s for s, _ in backend.vector_search("alice", unit(0, 1), 5)] == [m2.seq, m1.seq]


# -- lexical --------------------------------------------------------------------------------
DOCS = [
    ("alice", "The cat sat on the mat with another cat"),
    ("alice", "A dog chased the cat around the garden"),
    ("bob", "cat cat cat cat bob's cats everywhere"),
    ("alice", "Garden party on Saturday with cake"),
    ("alice", "我喜欢在花园里喝茶"),
    ("alice", "Nothing relevant here at all"),
]


def _expected_bm25(docs: list[list[str]], query: list[str], k1=1.2, b=0.75) -> dict[int, float]:
    """An independent textbook BM25 (FTS5 idf, floored at 1e-6) over token lists."""
    n = len(docs)
    avg = sum(map(len, docs)) / n
    out: dict[int, float] = {}
    for term, qtf in Counter(query).items():
        df = sum(1 for d in docs if term in d)
        if df == 0:
            continue
        idf = max(math.log((n - df + 0.5) / (df + 0.5)), 1e-6)
        for i, d in enumerate(docs):
            tf = d.count(term)
            if tf:
                out[i] = out.get(i, 0.0) + qtf * idf * tf * (k1 + 1) / (
                    tf + k1 * (1 - b + b * len(d) / avg)
                )
    return out


def test_postings_describe_only_the_users_messages(backend: MemoryBackend) -> None:
    stored = [put(backend, make(f"d{i}", text, user=u)) for i, (u, text) in enumerate(DOCS)]
    alice = [(m, tokenize(m.content)) for m in stored if m.user_id == "alice"]
    p = backend.postings("alice", ["cat", "garden", "zzz"])
    assert p.n_docs == len(alice)
    assert p.total_len == sum(len(t) for _, t in alice)
    assert sorted(p.lists["cat"]) == sorted((m.seq, t.count("cat")) for m, t in alice if "cat" in t)
    assert p.lists["zzz"] == []
    for seq in {s for plist in p.lists.values() for s, _ in plist}:
        assert p.doc_len[seq] == next(len(t) for m, t in alice if m.seq == seq)
    empty = backend.postings("nobody", ["cat"])
    assert empty.n_docs == 0 and empty.total_len == 0


def test_document_frequencies_are_the_users_postings_counts(backend: MemoryBackend) -> None:
    stored = [put(backend, make(f"d{i}", text, user=u)) for i, (u, text) in enumerate(DOCS)]
    alice = [tokenize(m.content) for m in stored if m.user_id == "alice"]
    terms = ["cat", "garden", "花园", "zzz", "cat"]
    want = {t: n for t in terms if (n := sum(t in d for d in alice))}
    assert backend.document_frequencies("alice", terms) == want
    assert backend.document_frequencies("nobody", terms) == {}
    assert backend.document_frequencies("alice", []) == {}


def test_lexical_search_matches_textbook_bm25(backend: MemoryBackend) -> None:
    stored = [put(backend, make(f"d{i}", text, user=u)) for i, (u, text) in enumerate(DOCS)]
    alice = [m for m in stored if m.user_id == "alice"]
    docs = [tokenize(m.content) for m in alice]
    for query in ["cat garden", "cat cat", "花园 喝茶", "garden cake saturday", "unknownword"]:
        q = tokenize(query)
        expected = _expected_bm25(docs, q)
        got = backend.lexical_search("alice", q, 10)
        want = sorted(((alice[i].seq, s) for i, s in expected.items()), key=lambda x: (-x[1], x[0]))
        assert [s for s, _ in got] == [s for s, _ in want], query
        assert [v for _, v in got] == pytest.approx([v for _, v in want], abs=1e-9)
        assert all(v > 0 for _, v in got)
    assert backend.lexical_search("alice", [], 10) == []
    assert backend.lexical_search("nobody", ["cat"], 10) == []


def test_lexical_search_scope_allowed_and_k(backend: MemoryBackend) -> None:
    stored = [put(backend, make(f"d{i}", text, user=u)) for i, (u, text) in enumerate(DOCS)]
    bob_seq = stored[2].seq
    got = backend.lexical_search("alice", ["cat"], 10)
    assert bob_seq not in {s for s, _ in got}
    assert len(got) == 2
    assert len(backend.lexical_search("alice", ["cat"], 1)) == 1
    only = backend.lexical_search("alice", ["cat"], 10, allowed={stored[1].seq, bob_seq})
    assert [s for s, _ in only] == [stored[1].seq]
    assert backend.lexical_search("bob", ["cat"], 10)[0][0] == bob_seq


def test_filter_seqs_scoped_by_user(backend: MemoryBackend) -> None:
    put(backend, make("a1", metadata={"topic": "x"}))
    a2 = put(backend, make("a2", metadata={"topic": "y"}))
    put(backend, make("b1", user="bob", metadata={"topic": "y"}))
    pred = compile_filter({"topic": "y"})
    assert pred is not None
    assert backend.filter_seqs("alice", pred) == {a2.seq}


# -- cache ----------------------------------------------------------------------------------
def test_cache_round_trip(backend: MemoryBackend) -> None:
    v1 = np.array([0.5, -1.25, 3.0], dtype=np.float32)
    v2 = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    assert backend.cache_get("model-a", ["h1"]) == {}
    backend.cache_put("model-a", {"h1": v1, "h2": v2})
    got = backend.cache_get("model-a", ["h1", "h2", "h3"])
    assert set(got) == {"h1", "h2"}
    np.testing.assert_array_equal(got["h1"], v1)
    assert got["h1"].dtype == np.float32
    assert backend.cache_get("model-b", ["h1"]) == {}  # keyed by model too
    backend.cache_put("model-a", {"h1": v2})
    np.testing.assert_array_equal(backend.cache_get("model-a", ["h1"])["h1"], v2)
    backend.cache_put("model-a", {})
    keys = [f"k{i}" for i in range(1100)]
    backend.cache_put("m", {k: np.full(2, i, dtype=np.float32) for i, k in enumerate(keys)})
    many = backend.cache_get("m", keys)
    assert len(many) == 1100 and float(many["k1099"][0]) == 1099.0


# -- delete, stats, users -------------------------------------------------------------------
def test_delete_user_removes_everything_of_that_user_only(backend: MemoryBackend) -> None:
    a = [put(backend, make(f"a{i}", f"alice cat {i}", session=f"s{i % 2}")) for i in range(4)]
    b = [put(backend, make(f"b{i}", f"bob cat {i}", user="bob")) for i in range(3)]
    backend.store_vectors([(m, unit(1, 0)) for m in a[:2] + b[:2]])
    backend.cache_put("m", {"alice-hash": unit(1, 0), "bob-hash": unit(0, 1)})
    assert backend.delete_user("alice", ["alice-hash"]) == 4
    assert backend.get_message("alice", "a0") is None
    assert backend.get_messages("alice", [m.seq for m in a]) == {}
    assert backend.session_messages("alice", "s0") == []
    assert backend.iter_messages("alice") == []
    assert backend.lexical_search("alice", ["cat"], 10) == []
    assert backend.postings("alice", ["cat"]).n_docs == 0
    assert backend.vector_search("alice", unit(1, 0), 10) == []
    assert all(m.user_id != "alice" for m in backend.pending_embeddings(100))
    assert backend.cache_get("m", ["alice-hash"]) == {}
    assert backend.stats("alice").messages == 0
    assert "alice" not in backend.users()
    # bob untouched
    assert [m.id for m in backend.iter_messages("bob")] == ["b0", "b1", "b2"]
    assert len(backend.lexical_search("bob", ["cat"], 10)) == 3
    assert len(backend.vector_search("bob", unit(1, 0), 10)) == 2
    assert [m.id for m in backend.pending_embeddings(100)] == ["b2"]
    assert set(backend.cache_get("m", ["bob-hash"])) == {"bob-hash"}
    assert backend.stats("bob").messages == 3
    # deleting again (or an unknown user) is a no-op
    assert backend.delete_user("alice") == 0
    assert backend.delete_user("nobody") == 0
    # the user can start over
    fresh = put(backend, make("a0", "alice is back"))
    assert fresh.seq > max(m.seq for m in a + b)
    assert backend.lexical_search("alice", ["back"], 5) == [(fresh.seq, pytest.approx(1e-6))]


def test_stats_and_users(backend: MemoryBackend) -> None:
    assert backend.users() == []
    s = backend.stats()
    assert (s.messages, s.embedded, s.sessions, s.users) == (0, 0, 0, 0)
    a = [put(backend, make(f"a{i}", session=f"s{i % 3}")) for i in range(5)]
    put(backend, make("b0", user="bob", session="s0"))
    put(backend, make("c0", user="carol", session="z"))
    backend.store_vectors([(a[0], unit(1, 0)), (a[1], unit(0, 1))])
    s = backend.stats("alice")
    assert (s.messages, s.embedded, s.sessions, s.users) == (5, 2, 3, 1)
    s = backend.stats()
    assert (s.messages, s.embedded, s.sessions, s.users) == (7, 2, 5, 3)
    s = backend.stats("nobody")
    assert (s.messages, s.embedded, s.sessions, s.users) == (0, 0, 0, 0)
    assert backend.users() == ["alice", "bob", "carol"]


def test_returned_messages_are_copies(
    backend: MemoryBackend,
) -> None:
    put(backend, make("m1", metadata={"topic": "food", "nested": {"k": 1}}))
    got = backend.get_message("alice", "m1")
    assert got is not None
    got.metadata["topic"] = "changed"
    got.metadata["nested"]["k"] = 2
    for m in (
        backend.get_message("alice", "m1"),
        backend.iter_messages("alice")[0],
        backend.session_messages("alice", "s1")[0],
    ):
        assert m is not None
        assert m.metadata == {"topic": "food", "nested": {"k": 1}}


# -- congruence: every backend ranks alike ----------------------------------------------------
def _load(backend: MemoryBackend) -> list[Message]:
    out = []
    for i, (u, text) in enumerate(DOCS * 3):
        out.append(put(backend, make(f"d{i}", f"{text} {i}", user=u, session=f"s{i % 4}")))
    emb = HashingEmbeddings(dim=64)
    backend.store_vectors(
        [(m, np.asarray(emb.embed_query(index_text(m)), np.float32)) for m in out[::2]]
    )
    return out


def test_all_backends_rank_identically(backend_factories, tmp_path) -> None:
    """Same inserts, same seqs -> same lexical and vector rankings, scores within 1e-9."""
    backends = {name: factory(tmp_path / name) for name, factory in backend_factories.items()}
    assert len(backends) >= 2
    try:
        loaded = {name: _load(b) for name, b in backends.items()}
        names = list(backends)
        ref = names[0]
        assert all([m.seq for m in loaded[n]] == [m.seq for m in loaded[ref]] for n in names)
        emb = HashingEmbeddings(dim=64)
        checked = 0
        for user in ("alice", "bob"):
            for query in ["cat garden", "cat", "花园 喝茶", "party cake 3", "relevant"]:
                terms = tokenize(query)
                qv = np.asarray(emb.embed_query(query), np.float32)
                results = {
                    n: (
                        b.lexical_search(user, terms, 50),
                        b.vector_search(user, qv, 50),
                        b.postings(user, list(dict.fromkeys(terms))),
                    )
                    for n, b in backends.items()
                }
                lex_ref, vec_ref, post_ref = results[ref]
                checked += len(lex_ref) + len(vec_ref)
                for n in names[1:]:
                    lex, vec, post = results[n]
                    assert [s for s, _ in lex] == [s for s, _ in lex_ref], (n, query)
                    for (_, x), (_, y) in zip(lex, lex_ref, strict=True):
                        assert abs(x - y) <= 1e-9, (n, query)
                    assert [s for s, _ in vec] == [s for s, _ in vec_ref], (n, query)
                    for (_, x), (_, y) in zip(vec, vec_ref, strict=True):
                        assert abs(x - y) <= 1e-6, (n, query)
                    assert (post.n_docs, post.total_len) == (post_ref.n_docs, post_ref.total_len)
                    assert {t: sorted(v) for t, v in post.lists.items()} == {
                        t: sorted(v) for t, v in post_ref.lists.items()
                    }
        assert checked > 20  # the comparison was not vacuous
    finally:
        for b in backends.values():
            b.close()


def test_same_workload_gives_same_search_results(backend_factories, make_backend) -> None:
    """One identical workload through a MemoryManager on every backend: same answers."""
    turns = [
        ("I moved to Lyon last spring", "Lyon is lovely in spring!"),
        ("My sister Clara lives in Berlin", "Do you visit her often?"),
        ("I am allergic to peanuts", "Noted, no peanuts."),
        ("我对花生过敏", "好的，我记住了"),
        ("My cat is called Miso", "Miso is a cute name for a cat."),
        ("I started a new job at a bakery", "Congratulations on the bakery job!"),
    ]
    outputs = {}
    for name in backend_factories:
        with MemoryManager(backend=make_backend(name), embeddings=HashingEmbeddings()) as mm:
            for i, (u, a) in enumerate(turns):
                ts = T0 + timedelta(days=i)
                for role, text in (("user", u), ("assistant", a)):
                    mid = f"{role}-{i}"
                    mm.add_message("alice", f"s{i % 3}", role, text, timestamp=ts, message_id=mid)
                mm.add_message("bob", "b", "user", f"bob says {u}", timestamp=T0)
            mm.flush()
            res = []
            for q in ["where does my sister live?", "peanuts allergy", "花生", "cat name", "job"]:
                hits = mm.search("alice", q, k=5)
                res.append([(h.id, round(h.score, 12), h.text) for h in hits])
                ctx = mm.build_context("alice", "s0", q, token_budget=120)
                res.append((ctx.to_prompt(), [it.source_ids for it in ctx.items]))
            outputs[name] = res
    ref = outputs[next(iter(backend_factories))]
    assert all(ref[i] for i in range(0, len(ref), 2))  # every search found something
    assert all(ref[i][1] for i in range(1, len(ref), 2))  # every context has items
    assert len(outputs) >= 2
    for name, res in outputs.items():
        assert res == ref, name


# -- records (tasks, episodes, knowledge) -------------------------------------------------
def _record(rid: str, user: str = "alice", kind: str = "episode", **data) -> Record:
    t = datetime(2024, 1, 1, tzinfo=timezone.utc) + timedelta(minutes=int(rid[-1]))
    return Record(kind, rid, user, {"n": rid, **data}, t, t)


def test_records_round_trip_and_scope(backend: MemoryBackend) -> None:
    backend.put_record(_record("r2", nested={"a": [1, 2]}, text="花生"))
    backend.put_record(_record("r1"))
    backend.put_record(_record("r3", user="bob"))
    backend.put_record(_record("r4", kind="knowledge"))
    got = backend.get_record("episode", "r2")
    assert got is not None and got.data == {"n": "r2", "nested": {"a": [1, 2]}, "text": "花生"}
    assert got.created_at == datetime(2024, 1, 1, 0, 2, tzinfo=timezone.utc)
    assert backend.get_record("episode", "r2", user_id="bob") is None
    assert [r.id for r in backend.list_records("episode", "alice")] == ["r1", "r2"]
    assert [r.id for r in backend.list_records("episode")] == ["r1", "r2", "r3"]
    assert [r.id for r in backend.list_records("knowledge", "alice")] == ["r4"]
    assert backend.count_records("episode", "alice") == 2
    assert backend.count_records("episode") == 3
    assert backend.count_records("knowledge", "bob") == 0
    got.data["n"] = "mutated"  # a returned record is a copy
    assert backend.get_record("episode", "r2").data["n"] == "r2"


#: Values of every JSON type, and strings that read like other types' JSON.
_TYPED = ["a", "1", "true", "null", "[1]", '["a"]', '{"a":1}', "[]", "{}", " [1]"]
_TYPED_VALUES = [*_TYPED, 1, 1.5, True, False, None, [1], ["a"], [], {}, {"a": 1}]


@pytest.mark.parametrize("field", ["subject_key", "status"])  # with an index, and without
def test_records_where_a_string_matches_json_strings_only(
    backend: MemoryBackend, field: str
) -> None:
    for i, value in enumerate(_TYPED_VALUES):
        backend.put_record(_record(f"r{i}", **{field: value}))
    for value in _TYPED:
        got = [
            r.data[field] for r in backend.query_records("episode", "alice", where={field: value})
        ]
        assert got == [value], value


def test_records_where_refuses_a_nul_alike(backend: MemoryBackend) -> None:
    # SQLite's JSON functions read text up to a NUL and PostgreSQL stores none: a query
    # value holding one is refused on every backend rather than matched differently
    backend.put_record(_record("r1", status=""))
    for value in ["\x00z", "a\x00b", "\x00"]:
        with pytest.raises(ValueError, match="'status' holds a NUL character"):
            backend.query_records("episode", "alice", where={"status": value})
    assert [r.id for r in backend.query_records("episode", "alice", where={"status": ""})] == ["r1"]


def test_records_replace_delete_and_cross_user_guard(backend: MemoryBackend) -> None:
    backend.put_record(_record("r1", v=1))
    backend.put_record(_record("r1", v=2))
    assert backend.get_record("episode", "r1").data["v"] == 2
    with pytest.raises(ValueError, match="another user"):
        backend.put_record(_record("r1", user="mallory", v=3))
    assert backend.get_record("episode", "r1").user_id == "alice"
    assert backend.delete_records("episode", ["r1"], "mallory") == 0  # not hers
    assert backend.delete_records("episode", ["r1", "nope"], "alice") == 1
    assert backend.get_record("episode", "r1") is None


def test_delete_user_removes_records(backend: MemoryBackend) -> None:
    backend.put_record(_record("r1"))
    backend.put_record(_record("r2", user="bob"))
    backend.delete_user("alice")
    assert backend.list_records("episode") == [backend.get_record("episode", "r2")]


# -- the long-term entry index --------------------------------------------------------------
def entry(key: str, text: str | None, digest: str = "", vector=None):
    from langgraph_memory.storage.capabilities import IndexedEntry

    terms = dict(Counter(tokenize(text))) if text else {}
    doc = {"layer": key.split("/")[0], "id": key.split("/")[1]} if text else {}
    return IndexedEntry(key, text, terms, doc, digest or (text or ""), vector)


def test_entry_index_reads_changes_in_revision_order(backend: MemoryBackend) -> None:
    assert backend.entries_since("alice", 0) == (0, [])
    assert backend.put_entries("alice", [entry("fact/a", "Alice lives in Lyon")]) == 1
    assert backend.put_entries("alice", [entry("fact/b", "Alice works at ACME")]) == 1
    assert backend.put_entries("bob", [entry("fact/a", "Bob lives in Oslo")]) == 1
    gen, rows = backend.entries_since("alice", 0)
    assert gen == 0 and [e.key for e in rows] == ["fact/a", "fact/b"]
    assert rows[0].rev < rows[1].rev
    assert rows[0].terms == dict(Counter(tokenize("Alice lives in Lyon")))
    assert rows[0].doc == {"layer": "fact", "id": "a"} and rows[0].vector is None
    # an unchanged entry is not written again; only what changed after a revision returns
    assert backend.put_entries("alice", [entry("fact/a", "Alice lives in Lyon")]) == 0
    seen = rows[-1].rev
    assert backend.entries_since("alice", seen) == (0, [])
    backend.put_entries("alice", [entry("fact/a", "Alice lives in Paris")])
    _, changed = backend.entries_since("alice", seen)
    assert [(e.key, e.text) for e in changed] == [("fact/a", "Alice lives in Paris")]
    assert changed[0].rev > seen
    # a tombstone: the entry is gone, readers learn it
    backend.put_entries("alice", [entry("fact/b", None)])
    _, changed = backend.entries_since("alice", changed[0].rev)
    assert [(e.key, e.text) for e in changed] == [("fact/b", None)]
    assert backend.put_entries("alice", [entry("fact/zz", None)]) == 0  # nothing to remove
    # other users' entries never show
    _, bobs = backend.entries_since("bob", 0)
    assert [e.text for e in bobs] == ["Bob lives in Oslo"]


def test_entry_index_vectors_pending_and_kept(backend: MemoryBackend) -> None:
    backend.put_entries("alice", [entry("fact/a", "Alice lives in Lyon", "h1")])
    backend.put_entries("bob", [entry("fact/a", "Bob lives in Oslo", "h2", unit(0, 1, 0))])
    pending = backend.pending_entries(10)
    assert [(u, e.key) for u, e in pending] == [("alice", "fact/a")]
    # a vector for an older hash is refused; for the current one stored with a new revision
    assert backend.store_entry_vectors([("alice", "fact/a", "stale", unit(1, 0, 0))]) == 0
    _, before = backend.entries_since("alice", 0)
    assert backend.store_entry_vectors([("alice", "fact/a", "h1", unit(1, 0, 0))]) == 1
    _, after = backend.entries_since("alice", before[0].rev)
    assert len(after) == 1 and np.allclose(after[0].vector, unit(1, 0, 0))
    assert backend.pending_entries(10) == []
    # new display fields, same text: the vector stays; a new text: pending again
    backend.put_entries("alice", [entry("fact/a", "Alice lives in Lyon", "h1b")])
    _, rows = backend.entries_since("alice", 0)
    assert rows[0].hash == "h1b" and np.allclose(rows[0].vector, unit(1, 0, 0))
    backend.put_entries("alice", [entry("fact/a", "Alice lives in Nice", "h3")])
    _, rows = backend.entries_since("alice", 0)
    assert rows[0].vector is None
    assert [(u, e.hash) for u, e in backend.pending_entries(10)] == [("alice", "h3")]


def test_entry_index_generation_and_delete_user(backend: MemoryBackend) -> None:
    backend.put_entries("alice", [entry("fact/a", "Alice lives in Lyon")])
    backend.put_entries("bob", [entry("fact/a", "Bob lives in Oslo")])
    gen = backend.mark_entries_built("alice")
    assert gen > 0 and backend.entries_since("alice", 0)[0] == gen
    assert backend.mark_entries_built("alice") > gen  # built again: a new generation
    assert backend.entries_since("bob", 0)[0] == 0
    backend.delete_user("alice")
    assert backend.entries_since("alice", 0) == (0, [])
    assert [e.text for e in backend.entries_since("bob", 0)[1]] == ["Bob lives in Oslo"]
