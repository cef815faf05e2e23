"""The entry index ranks on arrays (posting lists, layer codes, one product with the
vector matrix, the fusion of only the heads of both rankings); these tests hold it to
the ranking computed the slow way, from its definition, over every entry the store's
index holds: a term score per entry over all entries, a cosine per entry, reciprocal
rank fusion of the two whole rankings. Facts, episodes, lessons, traits of two agents,
several layer sets, ``k`` and cosine floors. Every text is distinct and embedded by a
bag of Gaussian word vectors, so no two cosines tie (equal vectors tie up to the last
bit of a float32 product, which depends on the row)."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Collection, Iterator
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.storage import InMemoryBackend, MemoryBackend, SQLiteBackend
from langgraph_memory.storage.capabilities import IndexedEntry

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)
PLACES = ["Lyon", "Oslo", "Porto", "Kyoto", "Quito", "Perth", "Turin", "Accra", "杭州", "成都"]
WORK = ["deploy", "restart", "migrate", "back up", "patch", "重启", "迁移"]
QUERIES = [
    "which cluster runs in Oslo?",
    "restart the Kyoto service",
    "what worked to migrate the database",
    "tone of the answers",
    "怎么重启杭州的服务？",
    "project 17",
    "nothing shares a word here",
]
LAYER_SETS: list[Collection[str] | None] = [
    None,
    ("lesson",),
    ("fact", "episode"),
    ("fact", "trait", "episode", "knowledge", "lesson", "insight", "contradiction"),
]


class WordVectors(Embeddings):
    """The sum of one seeded Gaussian vector per word, normalised: texts sharing words
    are close, and distinct texts never tie."""

    model_id = "gaussian-words-64"

    def _one(self, text: str) -> list[float]:
        vec = np.zeros(64)
        for term in tokenize(text) or text.split():
            seed = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "little")
            vec += np.random.default_rng(seed).standard_normal(64)
        norm = float(np.linalg.norm(vec))
        return (vec / norm if norm else vec).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


@pytest.fixture(scope="module", params=["memory", "sqlite"])
def mm(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[MemoryManager]:
    backend: MemoryBackend = (
        InMemoryBackend()
        if request.param == "memory"
        else SQLiteBackend(tmp_path_factory.mktemp("entries"))
    )
    with MemoryManager(backend=backend, embeddings=WordVectors()) as m:
        lt = m._longterm
        for i in range(160):
            lt.facts.add_fact(
                "ann",
                f"project {i}",
                "runs_in",
                f"{PLACES[i % len(PLACES)]} cluster {i % 23}",
                valid_from=T0 + timedelta(minutes=i),
                source_ids=[f"m{i}"],
            )
        for i in range(40):
            place, work = PLACES[i % len(PLACES)], WORK[i % len(WORK)]
            task = m.tasks.start("ann", f"s{i % 3}", f"{work} the {place} service {i}")
            step = m.tasks.step("ann", task, f"{work} {place}", tool_name="shell")
            m.tasks.update_step(
                "ann", task, step, status="failed" if i % 4 == 0 else "completed", result="ok"
            )
            m.tasks.complete(
                "ann",
                task,
                outcome="failed" if i % 4 == 0 else "success",
                summary=f"{place} service {work} done, try {i}",
                target=place,
            )
        for i, agent in enumerate(["a1", "a2", None, "a1"]):
            lt.add_trait("ann", f"tone_{i}", f"formal answers {i}", agent_id=agent)
        m.flush()  # lessons written, every entry embedded
        yield m


def stored(mm: MemoryManager) -> list[IndexedEntry]:
    """Every entry the store's index holds for the user (read once per store)."""
    if id(mm) not in _STORED:
        _STORED[id(mm)] = [e for e in mm._backend.entries_since("ann", 0)[1] if e.text]
    return _STORED[id(mm)]


_STORED: dict[int, list[IndexedEntry]] = {}


def slow_rank(
    mm: MemoryManager,
    query: str,
    qvec: np.ndarray,
    k: int,
    layers: Collection[str] | None,
    agent_id: str | None,
    min_cosine: float | None,
) -> list[tuple[str, float]]:
    """``(entry key, score)`` best first, from the definition of the ranking."""
    live = stored(mm)
    counts = {e.key: Counter(tokenize(e.text or "")) for e in live}
    terms = set(tokenize(query))
    n = len(live)
    df = {t: sum(1 for c in counts.values() if c.get(t)) for t in terms}
    shared_only = n > 1 and all(df[t] in (0, n) for t in terms)

    def counts_in(e) -> bool:
        agent = e.doc.get("agent")
        wanted = layers is None or e.doc["layer"] in layers
        return wanted and (agent_id is None or agent in (None, agent_id))

    mat = np.stack([np.asarray(e.vector, dtype=np.float64) for e in live])
    q64 = np.asarray(qvec, dtype=np.float64)
    coss = (mat @ q64) / (np.linalg.norm(mat, axis=1) * np.linalg.norm(q64))
    lexical = []
    dense = []
    for e, cos in zip(live, coss.tolist(), strict=True):
        if not counts_in(e):
            continue
        c = counts[e.key]
        score = 0.0
        for t in terms:
            if c.get(t) and (df[t] < n or n == 1 or shared_only):
                score += math.log(1 + n / df[t]) * c[t] / (c[t] + 1.2)
        if score > 0:
            lexical.append((e.key, score))
        dense.append((e.key, cos))
    lexical.sort(key=lambda x: (-x[1], x[0]))
    dense.sort(key=lambda x: (-x[1], x[0]))
    lex_rank = {key: r for r, (key, _) in enumerate(lexical, 1)}
    dense_rank = {key: r for r, (key, _) in enumerate(dense, 1)}
    cos_of = dict(dense)
    total = (1.0 if lexical else 0.0) + 1.0
    fused = []
    for key in set(lex_rank) | set(dense_rank):
        if key not in lex_rank and min_cosine is not None and not cos_of[key] >= min_cosine:
            continue
        raw = (1 / (60 + lex_rank[key]) if key in lex_rank else 0.0) + 1 / (60 + dense_rank[key])
        first = lex_rank.get(key, len(lexical) + dense_rank[key])
        fused.append((-raw / total, first, key))
    fused.sort()
    return [(key, -neg) for neg, _, key in fused[:k]]


@pytest.mark.parametrize("k", [3, 10])
def test_the_index_ranks_as_the_definition_says(mm: MemoryManager, k: int) -> None:
    index = mm._parts.read.entries
    assert len(mm.tasks.lessons("ann")) == 40
    for query in QUERIES:
        qvec = mm.embeddings.embed_array([query], persist=False)[0]
        for layers in LAYER_SETS:
            for agent_id in (None, "a1"):
                for floor in (None, 0.2):
                    got = index.rank(
                        "ann",
                        set(tokenize(query)),
                        k,
                        query_vector=qvec,
                        min_cosine=floor,
                        layers=layers,
                        agent_id=agent_id,
                    )
                    want = slow_rank(mm, query, qvec, k, layers, agent_id, floor)
                    assert [(f"{d.layer}/{d.id}", round(s, 9)) for d, s, _ in got] == [
                        (key, round(s, 9)) for key, s in want
                    ], (query, layers, agent_id, floor)


def test_words_alone_rank_as_the_definition_says(mm: MemoryManager) -> None:
    index = mm._parts.read.entries
    for query in QUERIES:
        for layers in LAYER_SETS:
            got = index.rank("ann", query, 10, layers=layers)
            live = stored(mm)
            terms = set(tokenize(query))
            n = len(live)
            df = {t: sum(1 for e in live if e.terms.get(t)) for t in terms}
            scored = []
            for e in live:
                if layers is not None and e.doc["layer"] not in layers:
                    continue
                s = sum(
                    math.log(1 + n / df[t]) * e.terms[t] / (e.terms[t] + 1.2)
                    for t in terms
                    if e.terms.get(t) and df[t] < n
                )
                if s > 0:
                    scored.append((e.key, s))
            scored.sort(key=lambda x: (-x[1], x[0]))
            assert [f"{d.layer}/{d.id}" for d, _, _ in got] == [key for key, _ in scored[:10]]
            assert [p["term_score"] for _, _, p in got] == pytest.approx(
                [s for _, s in scored[:10]], rel=1e-12
            )
