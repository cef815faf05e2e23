"""Units: tokenisation, token counting, BM25, RRF, the vector matrix, packing, the
embedding cache, timestamp parsing and filters."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings

from langgraph_memory import count_tokens, tokenize
from langgraph_memory.core import tokens as tokens_module
from langgraph_memory.core.context import ContextItem, MemoryContext
from langgraph_memory.core.records import Message
from langgraph_memory.core.tokens import count_cjk, is_cjk_text, tokenize_queued
from langgraph_memory.core.validation import parse_timestamp
from langgraph_memory.embeddings import CachedEmbeddings, HashingEmbeddings, model_id
from langgraph_memory.embeddings.cache import PROBE_TEXT
from langgraph_memory.read.packing import Packer
from langgraph_memory.retrieval import VectorMatrix, bm25_scores, rrf_fuse
from langgraph_memory.storage import MemoryBackend, compile_filter


# -- tokenize -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("The cats are sleeping", ["cat", "sleeping"]),
        ("I am at the and of it", []),
        ("Hello, WORLD! It's 2024.", ["world", "2024"]),
        ("stories boxes dishes churches glasses", ["story", "box", "dish", "church", "glass"]),
        ("bus analysis status", ["bus", "analysis", "status"]),
        ("Alice's dog barked", ["alice", "dog", "barked"]),
        ("cats cat CATS", ["cat", "cat", "cat"]),
        ("snake_case words", ["snake", "case", "word"]),
    ],
)
def test_tokenize_english(text: str, terms: list[str]) -> None:
    assert tokenize(text) == terms


def test_tokenize_chinese_with_jieba() -> None:
    assert tokenize("我喜欢吃苹果和香蕉") == ["喜欢", "吃", "苹果", "香蕉"]  # 我/和 are stopwords
    terms = tokenize("我对花生过敏")
    assert "花生" in terms and "过敏" in terms and "我" not in terms
    assert tokenize("的了和是") == []


def test_queued_terms_are_the_terms_taken_once_and_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The terms add_message holds for the worker equal tokenize's, past the recent-text
    cache; the hold gives each text's terms once and stays within its character bound."""
    monkeypatch.setattr(tokens_module, "QUEUED_CHARS", 200)
    monkeypatch.setattr(tokens_module, "_queued", {})
    monkeypatch.setattr(tokens_module, "_queued_chars", 0)
    texts = [f"The cats saw note {i} about 北京 reports" for i in range(3)]
    long = "Stories of boxes and dishes. " * 80  # past the cache's 2,000 characters
    for text in [*texts, long]:
        assert tokenize_queued(text) == list(tokens_module._tokenize(text))
    assert tokens_module._queued == {} and tokens_module._queued_chars == 0  # the long one
    for text in texts:  # evicted all, then itself
        tokenize_queued(text)
    tokenize_queued("x" * 150)
    assert list(tokens_module._queued) == [texts[-1], "x" * 150]  # the oldest left first
    tokens_module._tokenize_cached.cache_clear()  # as bulk loading does: the cache moved on
    monkeypatch.setattr(tokens_module, "QUEUED_CHARS", 10_000)
    for text in [*texts, long]:
        tokenize_queued(text)
    tokens_module._tokenize_cached.cache_clear()
    for text in [*texts, long, *texts, long]:  # held once, then tokenised: the same
        assert tokenize(text) == list(tokens_module._tokenize(text))
    assert list(tokens_module._queued) == ["x" * 150]  # the one text never read again
    assert tokens_module._queued_chars == 150


def test_queued_terms_from_many_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writers hold and readers take at once: every result is tokenize's, and the hold's
    character count stays its keys' (the lock keeps the two together)."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(tokens_module, "QUEUED_CHARS", 3_000)
    monkeypatch.setattr(tokens_module, "_queued", {})
    monkeypatch.setattr(tokens_module, "_queued_chars", 0)
    texts = [f"message {i % 300} about the blue bicycles" for i in range(3_000)]

    def run(k: int) -> bool:
        f = tokenize_queued if k % 2 else tokenize
        return all(f(t) == list(tokens_module._tokenize(t)) for t in texts[k::8])

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(run, range(8)))
    held = tokens_module._queued
    assert tokens_module._queued_chars == sum(map(len, held)) <= 3_000


def test_tokenize_mixed_text_keeps_order() -> None:
    assert tokenize("I moved to 北京 last year") == ["moved", "北京", "last", "year"]
    terms = tokenize("Meeting with 张伟 about the 预算 reports")
    assert terms[0] == "meeting"
    assert terms[-1] == "report"
    assert terms.index("预算") > terms.index("meeting")
    assert all(t == t.lower() for t in terms)


def test_tokenize_edge_cases() -> None:
    assert tokenize("") == []
    assert tokenize("   \n\t ") == []
    assert tokenize("!!! ??? ...") == []
    assert tokenize("ＡＢＣ") == ["ａｂｃ"]  # full-width letters are lower-cased, kept


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=60))
def test_tokenize_properties(text: str) -> None:
    terms = tokenize(text)
    assert terms == tokenize(text)  # deterministic
    assert all(t and t.strip() == t for t in terms)
    assert all(t == t.lower() for t in terms)


# -- count_tokens ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("a", 1),
        ("abcd", 1),
        ("abcde", 2),
        ("hello world", 3),
        ("你好", 2),
        ("你好 world", 4),
        ("日本語", 3),
        ("한국어", 3),
        ("𠀀", 1),  # CJK extension B
        ("我对花生过敏。", 7),  # 6 CJK + one ideographic full stop (other text)
        ("Relevant memories:", 5),
        ("- user: 我喜欢tea", 3 + 3),  # 3 CJK + ceil(11 other chars / 4)
    ],
)
def test_count_tokens_examples(text: str, tokens: int) -> None:
    assert count_tokens(text) == tokens


@given(st.text(max_size=200), st.text(max_size=200))
def test_count_tokens_properties(a: str, b: str) -> None:
    n = count_tokens(a)
    cjk = count_cjk(a)
    assert n == cjk + math.ceil((len(a) - cjk) / 4)
    assert (n == 0) == (a == "")
    assert count_tokens(a + b) <= count_tokens(a) + count_tokens(b)
    assert count_tokens(a + b) >= max(count_tokens(a), count_tokens(b))
    assert is_cjk_text(a) == (cjk > 0)


# -- BM25 -----------------------------------------------------------------------------------
VOCAB = ["apple", "banana", "cherry", "date", "elder", "fig"]


def _postings(docs: list[list[str]], terms: list[str]):
    lists = {t: [(i, d.count(t)) for i, d in enumerate(docs) if t in d] for t in terms}
    doc_len = {i: len(d) for i, d in enumerate(docs)}
    return lists, doc_len


def _textbook(docs, query, k1=1.2, b=0.75):
    n, avg = len(docs), sum(map(len, docs)) / len(docs)
    out = {}
    for t in dict.fromkeys(query):
        df = sum(t in d for d in docs)
        if not df:
            continue
        idf = max(math.log((n - df + 0.5) / (df + 0.5)), 1e-6)
        for i, d in enumerate(docs):
            tf = d.count(t)
            if tf:
                out[i] = out.get(i, 0.0) + idf * query.count(t) * tf * (k1 + 1) / (
                    tf + k1 * (1 - b + b * len(d) / avg)
                )
    return out


DOCS = st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12), min_size=1, max_size=15)
QUERY = st.lists(st.sampled_from(VOCAB + ["zzz"]), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(DOCS, QUERY)
def test_bm25_properties(docs: list[list[str]], query: list[str]) -> None:
    from collections import Counter

    counts = Counter(query)
    lists, doc_len = _postings(docs, list(counts))
    avg = sum(map(len, docs)) / len(docs)
    ranked = bm25_scores(lists, n_docs=len(docs), avg_len=avg, doc_len=doc_len, query_counts=counts)
    again = bm25_scores(lists, n_docs=len(docs), avg_len=avg, doc_len=doc_len, query_counts=counts)
    assert ranked == again  # deterministic
    matching = {i for i, d in enumerate(docs) if set(d) & set(query)}
    assert {d for d, _ in ranked} == matching
    assert all(s > 0 for _, s in ranked)
    assert ranked == sorted(ranked, key=lambda x: (-x[1], x[0]))  # ties: older first
    expected = _textbook(docs, query)
    for doc, score in ranked:
        assert score == pytest.approx(expected[doc], rel=1e-9)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 20),
    st.integers(1, 20),
    st.integers(1, 40),
    st.integers(2, 50),
    st.integers(0, 30),
)
def test_bm25_more_occurrences_rank_at_least_as_high(
    tf_a: int, tf_b: int, length: int, n_docs: int, extra: int
) -> None:
    length = max(length, tf_a, tf_b)
    lists = {"t": [(1, tf_a), (2, tf_b)]}
    ranked = dict(
        bm25_scores(
            lists, n_docs=n_docs, avg_len=length + extra / 3, doc_len={1: length, 2: length}
        )
    )
    if tf_a >= tf_b:
        assert ranked[1] >= ranked[2]
    if tf_a > tf_b:
        assert ranked[1] > ranked[2]


@given(st.integers(1, 10), st.integers(1, 30), st.integers(1, 30))
def test_bm25_shorter_document_ranks_higher_for_same_tf(tf: int, short: int, longer: int) -> None:
    short, longer = sorted((max(short, tf), max(longer, tf)))
    ranked = dict(
        bm25_scores(
            {"t": [(1, tf), (2, tf)]}, n_docs=10, avg_len=10.0, doc_len={1: short, 2: longer}
        )
    )
    assert ranked[1] >= ranked[2]
    if short < longer:
        assert ranked[1] > ranked[2]


def test_bm25_rare_terms_weigh_more() -> None:
    lists = {"rare": [(1, 1)], "common": [(i, 1) for i in range(2, 10)]}
    ranked = bm25_scores(lists, n_docs=10, avg_len=5.0, doc_len={i: 5 for i in range(1, 10)})
    assert ranked[0][0] == 1
    assert bm25_scores({}, n_docs=0, avg_len=0.0, doc_len={}) == []
    assert bm25_scores({"t": []}, n_docs=3, avg_len=2.0, doc_len={}) == []


# -- RRF ------------------------------------------------------------------------------------
RANKINGS = st.dictionaries(
    st.sampled_from(["bm25", "dense", "graph"]),
    st.lists(st.integers(0, 30), unique=True, max_size=20),
    min_size=1,
)


@settings(max_examples=150, deadline=None)
@given(RANKINGS, st.integers(1, 100))
def test_rrf_scores_are_sums_of_reciprocal_ranks(rankings: dict, k: int) -> None:
    fused = rrf_fuse(rankings, k=k)
    docs = {d for r in rankings.values() for d in r}
    assert {d for d, _, _ in fused} == docs
    for doc, score, parts in fused:
        expected = sum(1 / (k + r.index(doc) + 1) for r in rankings.values() if doc in r)
        assert score == pytest.approx(expected, rel=1e-12)
        assert parts["rrf"] == score
        for name, r in rankings.items():
            if doc in r:
                assert parts[f"{name}_rank"] == r.index(doc) + 1
            else:
                assert f"{name}_rank" not in parts
    scores = [s for _, s, _ in fused]
    assert scores == sorted(scores, reverse=True)


@settings(max_examples=100, deadline=None)
@given(RANKINGS, st.integers(1, 100))
def test_rrf_doc_first_everywhere_ranks_first(rankings: dict, k: int) -> None:
    top = 99
    rankings = {name: [top, *r] for name, r in rankings.items()}
    fused = rrf_fuse(rankings, k=k)
    assert fused[0][0] == top
    assert all(s < fused[0][1] for _, s, _ in fused[1:])


def test_rrf_weights_and_doc_example() -> None:
    fused = rrf_fuse({"bm25": ["a", "b"], "dense": ["b", "c"]}, k=60)
    assert [d for d, _, _ in fused] == ["b", "a", "c"]
    weighted = rrf_fuse({"bm25": ["a"], "dense": ["b"]}, k=60, weights={"bm25": 0.5})
    assert [d for d, _, _ in weighted] == ["b", "a"]
    assert weighted[1][1] == pytest.approx(0.5 / 61)
    zero = rrf_fuse({"bm25": ["a"], "dense": ["b"]}, weights={"bm25": 0.0, "dense": 1.0})
    assert zero[0][0] == "b" and zero[1][1] == 0.0
    assert rrf_fuse({}) == []


# -- VectorMatrix ---------------------------------------------------------------------------
def test_vector_matrix_search_best_cosine_first() -> None:
    rng = np.random.default_rng(3)
    vecs = rng.normal(size=(200, 16)).astype(np.float32)
    m = VectorMatrix(16)
    for start in range(0, 200, 30):  # appended in chunks: capacity grows
        m.append(list(range(start + 1, min(start + 31, 201))), vecs[start : start + 30])
    assert len(m) == 200 and m.max_key == 200
    q = rng.normal(size=16).astype(np.float32)
    got = m.search(q, 10)
    cos = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)) @ (q / np.linalg.norm(q))
    best = np.argsort(-cos)[:10]
    assert [k for k, _ in got] == [int(i) + 1 for i in best]
    assert [c for _, c in got] == pytest.approx(cos[best].tolist(), abs=1e-5)
    assert len(m.search(q, 1000)) == 200


def test_vector_matrix_allowed_remove_and_edges() -> None:
    m = VectorMatrix(2)
    m.append([10, 20, 30], np.array([[1, 0], [0.9, 0.1], [0, 1]], dtype=np.float32))
    q = np.array([1, 0], dtype=np.float32)
    assert [k for k, _ in m.search(q, 3)] == [10, 20, 30]
    assert [k for k, _ in m.search(q, 3, allowed={20, 30, 99})] == [20, 30]
    assert m.search(q, 3, allowed=set()) == []
    m.remove({10})
    assert len(m) == 2
    assert [k for k, _ in m.search(q, 3)] == [20, 30]
    assert m.search(q, 0) == []
    assert m.search(np.zeros(2, dtype=np.float32), 3) == []
    assert VectorMatrix(2).search(q, 3) == []
    with pytest.raises(ValueError, match="dimension"):
        m.search(np.ones(3, dtype=np.float32), 1)
    with pytest.raises(ValueError, match="dimension"):
        m.append([40], np.ones((1, 3), dtype=np.float32))
    m.append([40], np.zeros((1, 2), dtype=np.float32))  # a zero vector is stored, never best
    assert m.search(q, 1)[0][0] == 20


def test_vector_matrix_ties_break_by_key() -> None:
    m = VectorMatrix(3)
    m.append([5, 3, 9, 1], np.ones((4, 3), dtype=np.float32))
    assert [k for k, _ in m.search(np.ones(3, dtype=np.float32), 4)] == [1, 3, 5, 9]


def test_vector_matrix_ties_within_top_k_keep_the_oldest() -> None:
    m = VectorMatrix(2)
    vecs = np.tile(np.array([1, 1], dtype=np.float32), (100, 1))
    vecs[50] = [1, 0]  # key 51 is the single best; the other 99 tie
    m.append(list(range(1, 101)), vecs)
    got = [k for k, _ in m.search(np.array([1, 0.2], dtype=np.float32), 5)]
    assert got == [51, 1, 2, 3, 4]


def _reference_search(
    m: VectorMatrix, keys: list[int], alive: set[int], q: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """Every live row scored (the same product as the matrix's, so the same float32
    bits), rounded to 6 decimals and fully sorted: best, then oldest."""
    sims = np.round(m._data[: len(keys)] @ (q / np.linalg.norm(q)), 6)
    rows = sorted((-float(sims[i]), key) for i, key in enumerate(keys) if key in alive)
    return [(key, -neg) for neg, key in rows[:k]]


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 60),
    k=st.integers(1, 70),
    levels=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    drop=st.floats(0, 0.5),
    restrict=st.booleans(),
)
def test_vector_matrix_search_matches_a_full_sort(
    n: int, k: int, levels: int, seed: int, drop: float, restrict: bool
) -> None:
    # Few distinct vectors (``levels`` per dimension) make many exact ties, so the
    # shortcut that rounds only the rows near the k-th score is tested where it matters.
    rng = np.random.default_rng(seed)
    vecs = rng.integers(-levels, levels + 1, size=(n, 3)).astype(np.float32)
    keys = [int(x) for x in rng.permutation(10 * n)[:n] + 1]
    m = VectorMatrix(3)
    m.append(keys[: n // 2], vecs[: n // 2])
    m.append(keys[n // 2 :], vecs[n // 2 :])
    gone = {key for key in keys if rng.random() < drop}
    m.remove(gone)
    m.remove(gone)  # removing twice changes nothing
    alive = set(keys) - gone
    allowed = None
    if restrict:
        allowed = {key for key in keys if rng.random() < 0.6} | {0}
        alive &= allowed
    q = rng.integers(-levels, levels + 1, size=3).astype(np.float32)
    if not q.any():
        q[0] = 1.0
    got = m.search(q, k, allowed)
    want = _reference_search(m, keys, alive, q, k)
    assert [key for key, _ in got] == [key for key, _ in want]
    assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-6)
    assert len(m) == len(set(keys) - gone)


# -- Packer ---------------------------------------------------------------------------------
ITEM_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("abc xyz,.\n")),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4E80),
    ),
    min_size=1,
    max_size=80,
)


@st.composite
def items(draw):
    n = draw(st.integers(0, 25))
    orders = draw(st.lists(st.integers(1, 10_000), min_size=n, max_size=n, unique=True))
    out = []
    for order in orders:
        out.append(
            ContextItem(
                layer=draw(st.sampled_from(["short_term", "message", "neighbor", "mid_term"])),
                text=draw(ITEM_TEXT),
                tokens=0,
                score=draw(st.floats(0, 1, allow_nan=False)),
                score_parts={},
                source_ids=[f"m{draw(st.integers(0, 30))}"],
                reason="",
                group=draw(st.sampled_from([None, "2024-01-01", "2024-01-02", "2023-12-31"])),
                order=order,
            )
        )
    return out


@settings(max_examples=120, deadline=None)
@given(items(), st.integers(1, 400), st.one_of(st.none(), st.integers(0, 400)))
def test_packer_never_over_budget_and_exact(cands, budget: int, limit: int | None) -> None:
    p = Packer(budget)
    first = cands[: len(cands) // 2]
    taken = p.take(first, limit)
    if limit is not None:
        assert p.tokens <= min(limit, budget)
    p.take(cands[len(cands) // 2 :])
    ctx = MemoryContext(items=p.items, token_budget=budget)
    assert ctx.tokens <= budget
    assert p.tokens == ctx.tokens == count_tokens(ctx.to_prompt())
    sources = [s for it in p.items for s in it.source_ids]
    assert len(sources) == len(set(sources))  # each source cited once
    assert all(it in first for it in taken)


def test_packer_prefers_higher_scores_and_skips_what_does_not_fit() -> None:
    def item(text: str, score: float, sid: str) -> ContextItem:
        return ContextItem("message", text, 0, score, {}, [sid], "", order=int(sid[1:]))

    big = item("x" * 400, 0.9, "m1")
    small = item("small", 0.5, "m2")
    best = item("best", 1.0, "m3")
    p = Packer(20)
    assert [it.source_ids for it in p.take([small, big, best])] == [["m3"], ["m2"]]
    assert p.tokens <= 20
    assert p.add(item("dup", 2.0, "m3")) is False  # already covered
    assert Packer(3).take([small]) == []  # header alone does not fit


# -- CachedEmbeddings -----------------------------------------------------------------------
class CountingEmbeddings(Embeddings):
    """Records each call of the model (the probe that learns its dimension aside)."""

    def __init__(self, dim: int = 32) -> None:
        self.inner = HashingEmbeddings(dim)
        self.model_id = self.inner.model_id
        self.calls: list[list[str]] = []
        self.probes = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if texts == [PROBE_TEXT]:
            self.probes += 1
        else:
            self.calls.append(list(texts))
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def test_cached_embeddings_hits_misses_and_batching() -> None:
    inner = CountingEmbeddings()
    emb = CachedEmbeddings(inner, batch_size=2)
    arr = emb.embed_array(["red apple", "green pear", "red apple"])
    assert arr.shape == (3, 32) and arr.dtype == np.float32
    np.testing.assert_array_equal(arr[0], arr[2])
    assert inner.calls == [["red apple", "green pear"]]
    assert (emb.cache_hits, emb.cache_misses) == (1, 2)
    emb.embed_array(["green pear"])
    assert (emb.cache_hits, emb.cache_misses) == (2, 2)
    assert len(inner.calls) == 1
    emb.embed_array(["a b", "c d", "e f", "g h", "i j"])
    assert [len(c) for c in inner.calls[1:]] == [2, 2, 1]
    np.testing.assert_allclose(emb.embed_query("red apple"), inner.inner.embed_query("red apple"))
    assert len(emb.embed_documents(["x y", "red apple"])) == 2
    assert emb.embed_array([]).shape[0] == 0
    assert inner.probes == 1 and emb.dim == 32  # the dimension is learned once


def test_cached_embeddings_lru_and_forget() -> None:
    inner = CountingEmbeddings()
    emb = CachedEmbeddings(inner, cache_size=2)
    emb.embed_array(["one x"])
    emb.embed_array(["two x"])
    emb.embed_array(["three x"])  # evicts "one x"
    n = len(inner.calls)
    emb.embed_array(["three x"])
    assert len(inner.calls) == n
    emb.embed_array(["one x"])
    assert len(inner.calls) == n + 1
    emb.forget([CachedEmbeddings.content_hash("one x")])
    emb.embed_array(["one x"])
    assert len(inner.calls) == n + 2


def test_cached_embeddings_persistent_store_round_trip(backend: MemoryBackend) -> None:
    inner = CountingEmbeddings()
    first = CachedEmbeddings(inner, store_get=backend.cache_get, store_put=backend.cache_put)
    texts = ["persist me", "me too", "和我一起"]
    vecs = first.embed_array(texts)
    hashes = [CachedEmbeddings.content_hash(t) for t in texts]
    stored = backend.cache_get(inner.model_id, hashes)
    assert set(stored) == set(hashes)
    # a new process: empty LRU, same store -> no model call
    inner2 = CountingEmbeddings()
    second = CachedEmbeddings(inner2, store_get=backend.cache_get, store_put=backend.cache_put)
    again = second.embed_array(texts)
    assert inner2.calls == []
    np.testing.assert_array_equal(again, vecs)
    assert (second.cache_hits, second.cache_misses) == (3, 0)
    # queries (persist=False) neither read nor fill the store
    second.embed_array(["only a query"], persist=False)
    assert backend.cache_get(inner.model_id, [CachedEmbeddings.content_hash("only a query")]) == {}
    third = CachedEmbeddings(CountingEmbeddings(), store_get=backend.cache_get)
    third.embed_array(["persist me"], persist=False)
    assert third.cache_misses == 1
    # another model never reads these vectors
    other = CountingEmbeddings(dim=8)
    cached_other = CachedEmbeddings(other, store_get=backend.cache_get, store_put=backend.cache_put)
    assert cached_other.embed_array(["persist me"]).shape == (1, 8)
    assert other.calls == [["persist me"]]


def test_cached_embeddings_misc() -> None:
    inner = CountingEmbeddings()
    wrapped = CachedEmbeddings(CachedEmbeddings(inner))
    assert wrapped.inner is inner
    assert wrapped.model_id == model_id(inner) == "hashing-32"
    assert CachedEmbeddings.content_hash("abc") == CachedEmbeddings.content_hash("abc")
    assert CachedEmbeddings.content_hash("abc") != CachedEmbeddings.content_hash("abd")

    class Broken(Embeddings):
        def embed_documents(self, texts):
            return [[1.0, 0.0]]

        def embed_query(self, text):
            return [1.0, 0.0]

    with pytest.raises(RuntimeError, match="returned 1 vectors for 2 texts"):
        CachedEmbeddings(Broken()).embed_array(["a", "b"])
    assert model_id(Broken()) == "Broken"


def test_hashing_embeddings() -> None:
    emb = HashingEmbeddings(dim=64)
    a, b, c = emb.embed_documents(["red apples", "Red apple", "blue ocean"])
    assert len(a) == 64
    assert np.linalg.norm(a) == pytest.approx(1.0)
    assert np.dot(a, b) == pytest.approx(1.0)  # same terms after folding
    assert np.dot(a, c) < 0.5
    assert emb.embed_query("red apples") == a
    assert np.linalg.norm(emb.embed_query("the")) == pytest.approx(1.0)  # stopword-only text
    with pytest.raises(ValueError):
        HashingEmbeddings(dim=0)


# -- parse_timestamp ------------------------------------------------------------------------
UTC = timezone.utc


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-05-08T13:56:00", datetime(2024, 5, 8, 13, 56, tzinfo=UTC)),
        ("2024-05-08T13:56:00Z", datetime(2024, 5, 8, 13, 56, tzinfo=UTC)),
        ("2024-05-08T15:56:00+02:00", datetime(2024, 5, 8, 13, 56, tzinfo=UTC)),
        ("2024-05-08", datetime(2024, 5, 8, tzinfo=UTC)),
        ("2024-05-08 13:56", datetime(2024, 5, 8, 13, 56, tzinfo=UTC)),
        ("  2024/05/08  ", datetime(2024, 5, 8, tzinfo=UTC)),
        ("2024/05/08 01:02:03", datetime(2024, 5, 8, 1, 2, 3, tzinfo=UTC)),
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("10:04 am on 19 September, 2023", datetime(2023, 9, 19, 10, 4, tzinfo=UTC)),
        ("7:30 PM on 1 Sep, 2023", datetime(2023, 9, 1, 19, 30, tzinfo=UTC)),
        ("2024年5月8日", datetime(2024, 5, 8, tzinfo=UTC)),
        ("2024年05月08日 13:56", datetime(2024, 5, 8, 13, 56, tzinfo=UTC)),
        (0, datetime(1970, 1, 1, tzinfo=UTC)),
        (1715176560, datetime(2024, 5, 8, 13, 56, tzinfo=UTC)),
        (1715176560.5, datetime(2024, 5, 8, 13, 56, 0, 500000, tzinfo=UTC)),
        (datetime(2024, 5, 8, 13, 56), datetime(2024, 5, 8, 13, 56, tzinfo=UTC)),
    ],
)
def test_parse_timestamp(value, expected: datetime) -> None:
    got = parse_timestamp(value)
    assert got == expected
    assert got.tzinfo is not None


def test_parse_timestamp_keeps_aware_values_and_defaults_to_now() -> None:
    tz = timezone(timedelta(hours=9))
    aware = datetime(2024, 1, 1, 9, 0, tzinfo=tz)
    assert parse_timestamp(aware) is aware
    assert parse_timestamp("2024-05-08T15:56:00+02:00").utcoffset() == timedelta(hours=2)
    before = datetime.now(UTC)
    now = parse_timestamp(None)
    assert before <= now <= datetime.now(UTC)


@pytest.mark.parametrize(
    ("value", "exc"),
    [
        ("yesterday", ValueError),
        ("2024-13-01", ValueError),
        ("", ValueError),
        (True, TypeError),
        (b"2024-01-01", TypeError),
        ([2024], TypeError),
        (float("nan"), ValueError),
        (1e20, ValueError),
    ],
)
def test_parse_timestamp_errors(value, exc: type[Exception]) -> None:
    with pytest.raises(exc, match="when"):
        parse_timestamp(value, "when")


# -- filters --------------------------------------------------------------------------------
def _msg(**meta) -> Message:
    return Message("m", "u", "s", "user", "hi", datetime(2024, 1, 1, tzinfo=UTC), metadata=meta)


def test_compile_filter_semantics() -> None:
    assert compile_filter(None) is None
    assert compile_filter({}) is None
    pred = compile_filter({"a.b": {"$gt": 1, "$lte": 3}, "tag": {"$in": ["x", "y"]}})
    assert pred is not None
    assert pred(_msg(a={"b": 2}, tag="x"))
    assert not pred(_msg(a={"b": 4}, tag="x"))
    assert not pred(_msg(a={"b": 2}, tag="z"))
    assert not pred(_msg(a={"b": "2"}, tag="x"))  # incomparable types never match
    assert not pred(_msg(tag="x"))  # missing key
    assert compile_filter({"gone": {"$nin": [1]}})(_msg())
    assert compile_filter({"timestamp": "2024-01-01T00:00:00Z"})(_msg())
    assert compile_filter({"timestamp": {"$lt": "2023-12-31"}})(_msg()) is False


def test_in_filter_with_set_and_list_valued_metadata() -> None:
    pred = compile_filter({"tags": {"$in": {"x", "y"}}})
    assert pred is not None
    assert pred(_msg(tags="x"))
    assert not pred(_msg(tags=["x"]))


@settings(max_examples=25, deadline=None)
@given(
    docs=st.lists(
        st.lists(
            st.sampled_from(["tea", "green", "coffee", "trip", "kyoto", "cake", "x"]),
            min_size=1,
            max_size=6,
        ),
        min_size=1,
        max_size=40,
    ),
    query=st.lists(
        st.sampled_from(["tea", "green", "trip", "cake", "zzz"]), min_size=1, max_size=3
    ),
    k=st.integers(min_value=1, max_value=15),
)
@example(docs=[["tea"]] * 15 + [["tea", "tea"]], query=["tea"], k=15)  # cosine ties at the edge
def test_hybrid_rank_reads_only_the_fusion_depth_yet_ranks_as_with_the_full_pool(
    docs: list[list[str]], query: list[str], k: int
) -> None:
    """For k <= fusion_depth the retrievers are asked for the fusion depth only; under
    RRF the ranking (order, scores, parts) equals the first k of one read with the full
    pool. (The convex combination normalises by the pool read, so there a ranking of
    ``k <= fusion_depth`` is the one over the best ``fusion_depth`` of each.) One
    exception, by design: when messages tie in cosine (or in BM25) at the depth's edge,
    which of them the shorter read returns is arbitrary, so a message can lack the
    informational ``cosine`` (``bm25``) part there (its rank is what RRF uses, and the
    scores are equal); where both reads have it, it is equal."""
    from langgraph_memory import MemoryConfig, MemoryManager
    from langgraph_memory.storage import InMemoryBackend

    cfg = MemoryConfig(retrieval={"candidate_pool": 60, "fusion_depth": 15, "fusion": "rrf"})
    backend = InMemoryBackend()
    asked: list[int] = []
    search = backend.lexical_search

    def lexical(*args: object, **kw: object) -> list[tuple[int, float]]:
        asked.append(int(args[2]))  # type: ignore[call-overload]
        return search(*args, **kw)  # type: ignore[arg-type]

    backend.lexical_search = lexical  # type: ignore[method-assign]
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        for i, words in enumerate(docs):
            mm.add_message("u", f"s{i // 7}", "user", " ".join(words))
        mm.flush()
        text = " ".join(query)
        short = mm._read.retriever.rank("u", text, k)
        assert asked[-1] == 15
        full = mm._read.retriever.rank("u", text, cfg.retrieval.fusion_depth + 1)  # the full pool
        assert asked[-1] == 60
    assert [(r.seq, r.score, r.primary) for r in short] == [
        (r.seq, r.score, r.primary) for r in full[:k]
    ]
    edge = ("cosine", "bm25")
    for a, b in zip(short, full[:k], strict=True):
        assert {p: v for p, v in a.parts.items() if p not in edge} == {
            p: v for p, v in b.parts.items() if p not in edge
        }
        for part in edge:
            if part in a.parts and part in b.parts:
                assert a.parts[part] == b.parts[part]
