"""``agent_id`` on the read path: one user, several agents. The traits of other agents
never reach a context or a search for one agent; traits of no agent and of that agent
do; without an ``agent_id`` every agent's traits count."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core.context import MemoryContext
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend

QUERY = "Which style should you use when you help me?"
CODER = "Agent coder trait code style: type hints and short functions"
WRITER = "Agent writer trait prose style: short plain sentences"
EVERY = "Agent trait answer style: friendly and direct"


@pytest.fixture(params=["memory", "sqlite"])
def mm(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryManager]:
    backend = InMemoryBackend() if request.param == "memory" else SQLiteBackend(tmp_path / "m")
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as manager:
        yield manager


def seed(mm: MemoryManager, user: str = "ann") -> None:
    lt = mm._longterm
    lt.add_trait(user, "code style", "type hints and short functions", agent_id="coder")
    lt.add_trait(user, "prose style", "short plain sentences", agent_id="writer")
    lt.add_trait(user, "answer style", "friendly and direct")
    mm.flush()


def traits(ctx: MemoryContext) -> set[str]:
    return {it.text for it in ctx.items if it.layer == "trait"}


def test_a_context_for_one_agent_leaves_out_the_others_traits(mm: MemoryManager) -> None:
    seed(mm)
    assert traits(mm.build_context("ann", "s1", QUERY)) == {CODER, WRITER, EVERY}
    coder = mm.build_context("ann", "s1", QUERY, agent_id="coder")
    assert traits(coder) == {CODER, EVERY}
    assert "writer" not in coder.to_prompt()
    assert traits(mm.build_context("ann", "s1", QUERY, agent_id="writer")) == {WRITER, EVERY}
    # an agent without traits of its own reads those of every agent only
    assert traits(mm.build_context("ann", "s1", QUERY, agent_id="reviewer")) == {EVERY}


def test_search_for_one_agent_leaves_out_the_others_traits(mm: MemoryManager) -> None:
    seed(mm)
    texts = {h.text for h in mm.search("ann", QUERY, layers=["long_term"])}
    assert texts == {CODER, WRITER, EVERY}
    mine = {h.text for h in mm.search("ann", QUERY, layers=["long_term"], agent_id="coder")}
    assert mine == {CODER, EVERY}
    assert WRITER not in {h.text for h in mm.search("ann", QUERY, k=50, agent_id="coder")}


def test_the_async_twins_take_agent_id(mm: MemoryManager) -> None:
    seed(mm)

    async def read() -> tuple[MemoryContext, set[str]]:
        ctx = await mm.aio.build_context("ann", "s1", QUERY, 800, agent_id="coder")
        hits = await mm.aio.search("ann", QUERY, 10, ["long_term"], None, "coder")
        return ctx, {h.text for h in hits}

    ctx, hits = asyncio.run(read())
    assert traits(ctx) == {CODER, EVERY} and hits == {CODER, EVERY}


def test_the_dense_ranking_leaves_them_out_too(mm: MemoryManager) -> None:
    """An entry found by meaning alone (no shared word, no cosine floor) is still held
    back when it belongs to another agent."""
    seed(mm)
    index = mm._parts.read.entries
    query = "zebra quartz"  # no word in common with any trait
    qvec = mm.embeddings.embed_array([query], persist=False)[0]
    found = {d.text for d, _, _ in index.rank("ann", query, 10, query_vector=qvec)}
    assert found == {CODER, WRITER, EVERY}
    coder = index.rank("ann", query, 10, query_vector=qvec, agent_id="coder")
    assert {d.text for d, _, _ in coder} == {CODER, EVERY}
    assert all(np.isfinite(s) for _, s, _ in coder)


def test_traits_written_or_deleted_later_follow_the_agent(mm: MemoryManager) -> None:
    seed(mm)
    assert traits(mm.build_context("ann", "s1", QUERY, agent_id="coder")) == {CODER, EVERY}
    lt = mm._longterm
    lt.add_trait("ann", "tone style", "academic and formal", agent_id="writer")
    gone = lt.add_trait("ann", "code style", "type hints and short functions", agent_id="coder")
    lt.delete("ann", [gone.id])
    mm.flush()
    assert traits(mm.build_context("ann", "s1", QUERY, agent_id="coder")) == {EVERY}
    writer = traits(mm.build_context("ann", "s1", QUERY, agent_id="writer"))
    assert writer == {WRITER, EVERY, "Agent writer trait tone style: academic and formal"}
    # another user's traits never count, whatever the agent
    seed(mm, "bob")
    assert traits(mm.build_context("ann", "s1", QUERY, agent_id="writer")) == writer


def test_a_reopened_store_keeps_the_agents_apart(tmp_path: Path) -> None:
    with MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings()) as first:
        seed(first)
    with MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings()) as again:
        assert traits(again.build_context("ann", "s1", QUERY, agent_id="coder")) == {CODER, EVERY}


@pytest.mark.parametrize(
    ("bad", "error", "says"),
    [("", ValueError, "agent_id must not be empty"), (7, TypeError, "agent_id must be a str"),
     ("co\x00der", ValueError, "agent_id must not contain control characters")],
)  # fmt: skip
def test_a_bad_agent_id_is_a_clear_error(
    mm: MemoryManager, bad: Any, error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        mm.build_context("ann", "s1", QUERY, agent_id=bad)
    with pytest.raises(error, match=says):
        mm.search("ann", QUERY, agent_id=bad)
    with pytest.raises(error, match=says):
        asyncio.run(mm.aio.build_context("ann", "s1", QUERY, agent_id=bad))


def test_the_retriever_reads_for_one_agent(mm: MemoryManager) -> None:
    import asyncio

    from pydantic import ValidationError

    from langgraph_memory import MemoryRetriever

    seed(mm)
    every = MemoryRetriever(memory=mm, user_id="ann", layers=["long_term"])
    assert {d.page_content for d in every.invoke(QUERY)} == {CODER, WRITER, EVERY}
    coder = MemoryRetriever(memory=mm, user_id="ann", layers=["long_term"], agent_id="coder")
    assert {d.page_content for d in coder.invoke(QUERY)} == {CODER, EVERY}
    assert {d.page_content for d in asyncio.run(coder.ainvoke(QUERY))} == {CODER, EVERY}
    with pytest.raises(ValidationError, match="agent_id"):
        MemoryRetriever(memory=mm, user_id="ann", agent_id="")
