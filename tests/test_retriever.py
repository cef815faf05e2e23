"""MemoryRetriever: documents, k and filter, user isolation, async, LCEL, batch, validation."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest
from langchain_core.documents import Document
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from langgraph_memory import MemoryManager
from langgraph_memory.integrations.retriever import MemoryRetriever

#: Alice's messages: (message id, session, role, content, metadata).
ALICE = [
    ("a1", "s1", "user", "I am planning a trip to Japan in April.", {"topic": "travel"}),
    ("a2", "s1", "assistant", "Japan in April means cherry blossoms!", {"topic": "travel"}),
    ("a3", "s1", "user", "I want to visit Kyoto temples on the trip.", {"topic": "travel"}),
    ("a4", "s2", "user", "I love cooking fresh pasta at home.", {"topic": "food"}),
    ("a5", "s2", "assistant", "Fresh pasta needs semolina flour.", {"topic": "food"}),
    ("a6", "s2", "user", "My favourite trip food was ramen in Tokyo.", {"topic": "food"}),
    ("a7", "s3", "user", "I run five kilometres every morning.", {"topic": "sport"}),
    ("a8", "s3", "user", "I signed up for a half marathon trip to Berlin.", {"topic": "sport"}),
    ("a9", "s3", "assistant", "Good luck with the Berlin half marathon!", {"topic": "sport"}),
    ("a10", "s4", "user", "My sister lives in Osaka, I visit her on trips.", {"topic": "family"}),
]
#: Bob's messages say nearly the same things (and one claims to be Alice's in its metadata).
BOB = [
    ("b1", "s1", "user", "I am planning a trip to Japan in May.", {"topic": "travel"}),
    ("b2", "s1", "user", "I want to visit Kyoto temples too.", {"topic": "travel"}),
    ("b3", "s2", "user", "I love cooking fresh pasta.", {"topic": "food", "user_id": "alice"}),
    ("b4", "s3", "user", "Bob's secret: the safe code is 4711.", {"topic": "travel"}),
]
ALICE_IDS = {m[0] for m in ALICE}
BOB_IDS = {m[0] for m in BOB}
QUERIES = [
    "trip to Japan",
    "Kyoto temples",
    "cooking fresh pasta",
    "what is the safe code?",
    "Bob's secret",
    "marathon",
]


@pytest.fixture
def filled(mm: MemoryManager) -> MemoryManager:
    """``mm`` (every backend) holding Alice's and Bob's messages, flushed."""
    for user, msgs in (("alice", ALICE), ("bob", BOB)):
        for i, (mid, session, role, content, meta) in enumerate(msgs):
            mm.add_message(
                user,
                session,
                role,
                content,
                name="Alice" if user == "alice" and role == "user" else None,
                timestamp=f"2024-05-{i + 1:02d}T10:00:00",
                message_id=mid,
                metadata=meta,
            )
    mm.flush()
    return mm


def ids(docs: list[Document]) -> set[str]:
    """The messages the documents are or cite (a long-term entry read from a message
    cites it)."""
    return {sid for d in docs for sid in d.metadata["source_ids"]}


def test_documents_carry_the_hit_and_its_citations(filled: MemoryManager) -> None:
    docs = MemoryRetriever(memory=filled, user_id="alice", k=3).invoke("Kyoto temples trip")
    assert len(docs) == 3
    assert all(isinstance(d, Document) for d in docs)
    first = docs[0]
    assert first.id == "a3"
    assert first.page_content == "I want to visit Kyoto temples on the trip."
    meta = first.metadata
    assert set(meta) == {
        "layer",
        "score",
        "score_parts",
        "source_ids",
        "session_id",
        "timestamp",
        "name",
        "role",
        "user_id",
        "metadata",
    }
    assert meta["layer"] == "message"
    assert meta["source_ids"] == ["a3"]
    assert meta["session_id"] == "s1"
    assert meta["role"] == "user"
    assert meta["name"] == "Alice"
    assert meta["user_id"] == "alice"
    assert meta["metadata"] == {"topic": "travel"}
    assert datetime.fromisoformat(meta["timestamp"]) == datetime.fromisoformat(
        "2024-05-03T10:00:00+00:00"
    )
    assert isinstance(meta["score"], float) and meta["score"] > 0
    assert meta["score_parts"] and all(isinstance(v, float) for v in meta["score_parts"].values())
    scores = [d.metadata["score"] for d in docs]
    assert scores == sorted(scores, reverse=True)


def test_documents_match_manager_search(filled: MemoryManager) -> None:
    hits = filled.search("alice", "fresh pasta", k=4)
    docs = MemoryRetriever(memory=filled, user_id="alice", k=4).invoke("fresh pasta")
    assert [d.id for d in docs] == [h.id for h in hits]
    assert [d.metadata["score"] for d in docs] == pytest.approx([h.score for h in hits])


def test_k_from_constructor_and_per_call(filled: MemoryManager) -> None:
    assert len(MemoryRetriever(memory=filled, user_id="alice").invoke("trip")) == 8
    r = MemoryRetriever(memory=filled, user_id="alice", k=2)
    assert len(r.invoke("trip")) == 2
    assert len(r.invoke("trip", k=5)) == 5
    assert len(r.invoke("trip", k=1)) == 1
    messages = MemoryRetriever(memory=filled, user_id="alice", layers=["message"])
    assert len(messages.invoke("trip", k=100)) == len(ALICE)
    assert len(r.invoke("trip")) == 2  # a per-call k does not stick


def test_filter_from_constructor_and_per_call(filled: MemoryManager) -> None:
    r = MemoryRetriever(memory=filled, user_id="alice", k=10, filter={"topic": "travel"})
    assert ids(r.invoke("trip")) == {"a1", "a2", "a3"}
    assert ids(r.invoke("trip", filter={"topic": "sport"})) == {"a7", "a8", "a9"}
    assert ids(r.invoke("trip", filter={})) == ALICE_IDS  # {} drops the constructor's filter
    assert ids(r.invoke("trip", filter={"session_id": "s2", "role": "assistant"})) == {"a5"}
    assert ids(r.invoke("trip", k=1, filter={"topic": "family"})) == {"a10"}
    assert ids(r.invoke("trip")) == {"a1", "a2", "a3"}  # a per-call filter does not stick
    assert r.invoke("trip", filter={"topic": "nothing"}) == []


def test_layers(filled: MemoryManager) -> None:
    r = MemoryRetriever(memory=filled, user_id="alice", k=2, layers=["message"])
    assert {d.metadata["layer"] for d in r.invoke("trip")} == {"message"}
    with pytest.raises(ValueError, match="unknown layers"):
        MemoryRetriever(memory=filled, user_id="alice", layers=["nope"])


@pytest.mark.parametrize("query", QUERIES)
def test_never_returns_another_users_memory(filled: MemoryManager, query: str) -> None:
    for k in (1, 5, 50):
        alice = MemoryRetriever(memory=filled, user_id="alice", k=k).invoke(query)
        assert alice and ids(alice) <= ALICE_IDS
        assert all(d.metadata["user_id"] == "alice" for d in alice)
        assert "4711" not in " ".join(d.page_content for d in alice)
        bob = MemoryRetriever(memory=filled, user_id="bob", k=k).invoke(query)
        assert bob and ids(bob) <= BOB_IDS
    # Bob's message whose metadata claims to be Alice's stays Bob's.
    r = MemoryRetriever(memory=filled, user_id="alice", k=50)
    assert r.invoke(query, filter={"metadata.user_id": "alice"}) == []


def test_unknown_user_sees_nothing(filled: MemoryManager) -> None:
    assert MemoryRetriever(memory=filled, user_id="carol").invoke("trip to Japan") == []


@pytest.mark.parametrize(
    "flt",
    [
        {"user_id": "bob"},
        {"user_id": {"$in": ["alice", "bob"]}},
        {"user_id": {"$ne": "alice"}},
        {"user_id.raw": "bob"},
        {"agent_id": "x"},
    ],
)
def test_filter_on_user_id_is_refused(filled: MemoryManager, flt: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="user_id"):
        MemoryRetriever(memory=filled, user_id="alice", filter=flt)
    r = MemoryRetriever(memory=filled, user_id="alice")
    with pytest.raises(ValueError, match="user_id"):
        r.invoke("trip", filter=flt)
    with pytest.raises(ValueError, match="user_id"):
        asyncio.run(r.ainvoke("trip", filter=flt))
    with pytest.raises(ValueError):
        r.filter = flt  # validated on assignment too


def test_user_id_cannot_be_reassigned_to_garbage(filled: MemoryManager) -> None:
    r = MemoryRetriever(memory=filled, user_id="alice")
    with pytest.raises(ValueError):
        r.user_id = ""
    assert r.user_id == "alice"


def test_ainvoke(filled: MemoryManager) -> None:
    r = MemoryRetriever(memory=filled, user_id="alice", k=3)

    async def scenario() -> tuple[list[Document], list[Document], list[Document]]:
        return (
            await r.ainvoke("Kyoto temples trip"),
            await r.ainvoke("trip", k=1),
            await r.ainvoke("trip", filter={"topic": "food"}),
        )

    plain, one, food = asyncio.run(scenario())
    assert [d.id for d in plain] == [d.id for d in r.invoke("Kyoto temples trip")]
    assert plain[0].metadata["source_ids"] == ["a3"]
    assert len(one) == 1
    assert ids(food) == {"a4", "a5", "a6"}


def test_in_an_lcel_chain(filled: MemoryManager) -> None:
    retriever = MemoryRetriever(memory=filled, user_id="alice", k=2)

    def format_docs(docs: list[Document]) -> str:
        return "\n".join(f"[{d.metadata['source_ids'][0]}] {d.page_content}" for d in docs)

    chain = retriever | RunnableLambda(format_docs)
    text = chain.invoke("Kyoto temples")
    assert text.startswith("[a3] I want to visit Kyoto temples on the trip.")
    assert len(text.splitlines()) == 2

    prompt_inputs = {
        "memories": retriever | RunnableLambda(format_docs),
        "question": RunnablePassthrough(),
    } | RunnableLambda(lambda d: f"{d['memories']}\nQ: {d['question']}")
    out = prompt_inputs.invoke("fresh pasta")
    assert out.endswith("Q: fresh pasta") and "[a4]" in out
    assert asyncio.run(chain.ainvoke("Kyoto temples")) == text


def test_batch_and_abatch(filled: MemoryManager) -> None:
    r = MemoryRetriever(memory=filled, user_id="alice", k=2, layers=["message"])
    queries = ["Kyoto temples", "fresh pasta", "half marathon"]
    results = r.batch(queries)
    assert [len(docs) for docs in results] == [2, 2, 2]
    assert [[d.id for d in docs] for docs in results] == [
        [h.id for h in filled.search("alice", q, k=2, layers=["message"])] for q in queries
    ]
    assert results[0][0].id == "a3"
    assert ids(results[1]) == {"a4", "a5"}
    assert all(ids(docs) <= ALICE_IDS for docs in results)
    assert [[d.id for d in docs] for docs in asyncio.run(r.abatch(queries))] == [
        [d.id for d in docs] for docs in results
    ]


@pytest.mark.parametrize("bad", ["", "   ", "a\x00b", "x" * 257, 42, None])
def test_bad_user_id_is_refused_at_construction(mm: MemoryManager, bad: object) -> None:
    with pytest.raises(ValueError, match="user_id"):
        MemoryRetriever(memory=mm, user_id=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "3"])
def test_bad_k_is_refused(mm: MemoryManager, bad: object) -> None:
    with pytest.raises(ValueError, match="k"):
        MemoryRetriever(memory=mm, user_id="alice", k=bad)  # type: ignore[arg-type]


def test_bad_per_call_arguments(filled: MemoryManager) -> None:
    r = MemoryRetriever(memory=filled, user_id="alice")
    with pytest.raises(ValueError, match="k"):
        r.invoke("trip", k=0)
    with pytest.raises(TypeError, match="top_k"):
        r.invoke("trip", top_k=2)
    with pytest.raises(ValueError, match="operator"):
        r.invoke("trip", filter={"topic": {"$regex": "t.*"}})
    with pytest.raises(ValueError, match="query"):
        r.invoke("   ")
    assert len(r.invoke("trip", verbose=True)) == 8  # LangChain's own kwarg is tolerated


def test_memory_must_be_a_manager() -> None:
    with pytest.raises(ValueError, match="memory"):
        MemoryRetriever(memory=object(), user_id="alice")  # type: ignore[arg-type]
