"""``build_context(..., shown_ids=...)``: messages the model reads anyway (a graph's
thread) are not recalled again, and their tokens go to other memories; ``recall_node``
and ``MemoryMiddleware`` pass the thread's ids."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph import MemoryMessagesState, recall_node, remember_node
from langgraph_memory.integrations.graph.prompting import drop_visible

QUERY = "What did we plan for the tomato beds in the garden?"


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[MemoryManager]:
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as mm:
        yield mm


def _fill(mm: MemoryManager) -> list[str]:
    """Older sessions about the garden, then the current one; returns the current
    session's message ids."""
    for i in range(24):
        mm.add_message(
            "u", f"old{i % 4}", "user", f"Garden note {i}: the tomato beds need compost batch {i}."
        )
    now = [
        mm.add_message("u", "now", "user" if i % 2 == 0 else "assistant",
                       f"Today's garden plan {i}: water the tomato beds, stake plant {i}.")
        for i in range(10)
    ]  # fmt: skip
    mm.flush()
    return now


def _only_shown(ctx, shown: set[str]) -> list[str]:
    return [it.text for it in ctx.items if it.source_ids and set(it.source_ids) <= shown]


def test_shown_messages_are_not_recalled_and_their_budget_is_used(
    memory: MemoryManager,
) -> None:
    shown = set(_fill(memory))
    plain = memory.build_context("u", "now", QUERY, 300)
    assert _only_shown(plain, shown)  # without it, the session's turns take the budget
    ctx = memory.build_context("u", "now", QUERY, 300, shown_ids=shown)
    assert _only_shown(ctx, shown) == []
    assert ctx.tokens <= 300
    # dropping them afterwards leaves their tokens unused; leaving them out while
    # packing gives the tokens to other memories
    others_after = [it for it in plain.items if it.text not in _only_shown(plain, shown)]
    assert len(ctx.items) > len(others_after)
    assert sum(it.tokens for it in ctx.items) > sum(it.tokens for it in others_after)
    again = asyncio.run(memory.aio.build_context("u", "now", QUERY, 300, shown_ids=shown))
    assert [it.text for it in again.items] == [it.text for it in ctx.items]


def test_nothing_shown_changes_nothing(memory: MemoryManager) -> None:
    _fill(memory)
    a = memory.build_context("u", "now", QUERY, 300)
    b = memory.build_context("u", "now", QUERY, 300, shown_ids=[])
    assert [it.text for it in a.items] == [it.text for it in b.items]


def test_recall_node_leaves_the_thread_out_and_fills_its_budget(memory: MemoryManager) -> None:
    _fill(memory)

    def agent(state: MemoryMessagesState) -> dict:
        return {}

    builder = StateGraph(MemoryMessagesState)
    builder.add_node(recall_node(memory, token_budget=300))
    builder.add_node("agent", agent)
    builder.add_node(remember_node(memory))
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "agent")
    builder.add_edge("agent", "remember")
    builder.add_edge("remember", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"user_id": "u", "thread_id": "now-thread"}}
    for i in range(6):
        graph.invoke({"messages": [HumanMessage(f"Tomato bed {i} got its stake today.")]}, config)
    memory.flush()
    state = graph.invoke({"messages": [HumanMessage(QUERY)]}, config)
    thread_ids = {m.id for m in state["messages"] if m.id}
    items = state["memory_items"]
    assert items
    assert not [it for it in items if it["source_ids"] and set(it["source_ids"]) <= thread_ids]
    # what would have been recalled from the thread went to the older sessions
    ctx = memory.build_context("u", "now-thread", QUERY, 300)
    kept = drop_visible(ctx, state["messages"])
    assert len(items) > len(kept.items)
