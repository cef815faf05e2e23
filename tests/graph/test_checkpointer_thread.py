"""``MemoryCheckpointer(thread_token_budget=...)``: the saved thread stays within its
budget, in real LangGraph graphs (``add_messages``, a tool node, InMemorySaver and
SqliteSaver) driven by a scripted fake chat model.

What leaves the thread is stored in memory first and stays searchable, a tool call
never leaves without its result, the outline cites the ids of what left, the thread
keeps one system message, first, the next run and a resumed run read the trimmed
thread, and with the option off every checkpoint is what it was.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import tool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from scripted import Scripted

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph import MEMORY_MESSAGE_ID, MemoryMessagesState, recall_node
from langgraph_memory.integrations.graph.checkpointer import MemoryCheckpointer
from langgraph_memory.integrations.graph.prompting import outline_of
from langgraph_memory.integrations.graph.thread import (
    OUTLINE_HEADER,
    OUTLINE_SHARE,
    message_tokens,
    outline_tokens,
)
from langgraph_memory.storage import SQLiteBackend

BUDGET = 1500


@tool
def lookup(topic: str) -> str:
    """Look a topic up in the notes."""
    return f"notes on {topic}: " + "fact " * 20


def uses_tool(i: int) -> bool:
    return i % 4 == 1


def asked(i: int) -> str:
    return f"Turn {i} about marker{i}x " + "words " * 25


def script(turns: int) -> Scripted:
    """Every fourth turn looks its topic up first; every reply names its marker."""
    replies: list[AIMessage] = []
    for i in range(turns):
        if uses_tool(i):
            call = {"name": "lookup", "args": {"topic": f"marker{i}x"}, "id": f"call-{i}"}
            replies.append(AIMessage("", tool_calls=[call]))
        replies.append(AIMessage(f"Reply {i}: noted marker{i}x, " + "detail " * 30))
    return Scripted(messages=iter(replies))


def tool_graph(saver: BaseCheckpointSaver[Any], model: Scripted, **compile_kw: Any) -> Any:
    """agent ⇄ tools, the thread in ``messages`` (``add_messages``)."""

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    async def aagent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", RunnableLambda(agent, afunc=aagent))
    builder.add_node("tools", ToolNode([lookup]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=saver, **compile_kw)


def cfg(thread: str, user: str | None = "u1") -> dict[str, Any]:
    conf: dict[str, Any] = {"thread_id": thread}
    if user is not None:
        conf["user_id"] = user
    return {"configurable": conf}


def saved_threads(saver: BaseCheckpointSaver[Any], config: dict[str, Any]) -> list[list[Any]]:
    """The ``messages`` of every checkpoint saved for the thread, newest first."""
    return [list(t.checkpoint["channel_values"].get("messages") or []) for t in saver.list(config)]


def tokens(messages: Sequence[BaseMessage]) -> int:
    return sum(message_tokens(m) for m in messages)


def check_shape(thread: Sequence[BaseMessage]) -> None:
    """One system message at most, first; every tool result beside its call, every call
    answered unless it is the thread's last message (its tools run next)."""
    kinds = [m.type for m in thread]
    assert kinds.count("system") <= 1 and ("system" not in kinds or kinds[0] == "system")
    calls = {c["id"]: i for i, m in enumerate(thread) if isinstance(m, AIMessage)
             for c in m.tool_calls}  # fmt: skip
    results = {m.tool_call_id: i for i, m in enumerate(thread) if isinstance(m, ToolMessage)}
    for call_id, i in results.items():
        assert call_id in calls and calls[call_id] < i, call_id
    for call_id, i in calls.items():
        assert call_id in results or i == len(thread) - 1, call_id


def cited_ids(lead: BaseMessage) -> list[str]:
    return [i for ids in re.findall(r"\[ids: ([^\]]+)\]", str(lead.content))
            for i in ids.split(", ")]  # fmt: skip


@pytest.fixture
def mm(tmp_path: Path) -> Iterator[MemoryManager]:
    backend = SQLiteBackend(tmp_path / "mem")
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as manager:
        yield manager


@pytest.fixture(params=["InMemorySaver", "SqliteSaver"])
def inner(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseCheckpointSaver[Any]]:
    if request.param == "InMemorySaver":
        yield InMemorySaver()
        return
    sqlite_mod = pytest.importorskip("langgraph.checkpoint.sqlite")
    conn = sqlite3.connect(tmp_path / "cp.db", check_same_thread=False)
    yield sqlite_mod.SqliteSaver(conn)
    conn.close()


# -- the long thread --------------------------------------------------------------------------
def test_a_200_turn_thread_stays_within_its_budget_in_every_checkpoint(
    mm: MemoryManager, inner: BaseCheckpointSaver[Any]
) -> None:
    turns = 200
    saver = MemoryCheckpointer(inner, mm, thread_token_budget=BUDGET)
    model = script(turns)
    graph = tool_graph(saver, model)
    config = cfg("long")
    for i in range(turns):
        graph.invoke({"messages": [("user", asked(i))]}, config)
    threads = saved_threads(saver, config)
    assert len(threads) > 2 * turns
    for thread in threads:
        assert tokens(thread) <= BUDGET
        check_shape(thread)
    latest = threads[0]
    assert len(latest) < 30 and latest[-1].content.startswith(f"Reply {turns - 1}:")
    # the model read the trimmed thread from the next run on
    assert max(tokens(prompt) for prompt in model.seen) <= BUDGET + 200
    lead = latest[0]
    assert isinstance(lead, SystemMessage) and lead.id == MEMORY_MESSAGE_ID
    assert str(lead.content).startswith(OUTLINE_HEADER)
    mm.flush()
    stored = {m.id: m for m in mm._backend.session_messages("u1", "long")}
    in_thread = {m.id for m in latest}
    cited = cited_ids(lead)
    assert cited and all(i in stored and i not in in_thread for i in cited)
    # everything, kept or trimmed, is in memory once and found by search
    assert len(stored) == 2 * turns + 2 * sum(map(uses_tool, range(turns)))
    assert mm.stats("u1")["messages"] == len(stored)
    for i in range(turns):
        hits = mm.search("u1", f"marker{i}x", k=10, layers=["message"])
        found = {h.text for h in hits}
        assert asked(i).strip() in found, i
        assert any(t.startswith(f"Reply {i}:") for t in found), i
        if uses_tool(i):
            assert any(t.startswith(f"notes on marker{i}x") for t in found), i


def test_over_40_turns_the_outline_is_kept_in_tokens_within_its_share(
    mm: MemoryManager,
) -> None:
    """The outline in the saved thread's system message is counted in tokens within a
    quarter of the budget: the newest exchange whole, older ones compacted, so it holds
    more than one line (it kept one at a budget of 500 when whole lines were dropped)."""
    turns, budget = 40, 500
    saver = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=budget)
    graph = tool_graph(saver, script(turns))
    config = cfg("forty")
    for i in range(turns):
        graph.invoke({"messages": [("user", asked(i))]}, config)
        thread = graph.get_state(config).values["messages"]
        assert tokens(thread) <= budget, i
    lead = thread[0]
    outline = outline_of(lead)
    lines = [ln for ln in outline.splitlines() if ln.startswith("- ")]
    assert outline_tokens(outline) <= int(budget * OUTLINE_SHARE)
    assert len(lines) >= 3, outline
    assert "…" in lines[0] and len(cited_ids(lead)) >= len(lines)


def test_the_async_path_trims_alike(mm: MemoryManager) -> None:
    turns, budget = 40, 600
    saver = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=budget)
    model = script(turns)
    graph = tool_graph(saver, model)
    config = cfg("async")

    async def run() -> list[list[Any]]:
        for i in range(turns):
            await graph.ainvoke({"messages": [("user", asked(i))]}, config)
        return [list(t.checkpoint["channel_values"].get("messages") or [])
                async for t in saver.alist(config)]  # fmt: skip

    threads = asyncio.run(run())
    for thread in threads:
        assert tokens(thread) <= budget
        check_shape(thread)
    assert len(threads[0]) < 12
    mm.flush()
    for i in range(turns):
        assert any(asked(i).strip() == h.text for h in mm.search("u1", f"marker{i}x", k=5))


# -- resuming ---------------------------------------------------------------------------------
def test_a_run_interrupted_before_its_tools_resumes_on_the_trimmed_thread(
    mm: MemoryManager,
) -> None:
    turns, budget = 30, 800
    saver = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=budget)
    model = script(turns)
    graph = tool_graph(saver, model, interrupt_before=["tools"])
    config = cfg("resume")
    resumed_trimmed = 0
    for i in range(turns):
        graph.invoke({"messages": [("user", asked(i))]}, config)
        state = graph.get_state(config)
        if state.next == ("tools",):  # stopped before the tool: trimmed, the call last
            thread = state.values["messages"]
            assert tokens(thread) <= budget
            assert thread[-1].tool_calls[0]["id"] == f"call-{i}"
            resumed_trimmed += thread[0].type == "system"
            graph.invoke(None, config)  # resume
            resumed = graph.get_state(config).values["messages"]
            assert resumed[-2].tool_call_id == f"call-{i}"
            assert resumed[-1].content.startswith(f"Reply {i}:")
            # the model answered the tool's result, its call right before it
            assert [m.type for m in model.seen[-1][-3:]] == ["human", "ai", "tool"]
        final = graph.get_state(config)
        assert final.next == () and tokens(final.values["messages"]) <= budget
        check_shape(final.values["messages"])
    assert resumed_trimmed >= 5


# -- one leading system message ---------------------------------------------------------------
def recall_graph(mm: MemoryManager, saver: BaseCheckpointSaver[Any], model: Scripted) -> Any:
    def agent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MemoryMessagesState)
    builder.add_sequence([("recall", recall_node(mm, token_budget=200)), ("agent", agent)])
    builder.add_edge(START, "recall")
    return builder.compile(checkpointer=saver)


@pytest.mark.parametrize("own_prompt", [True, False])
def test_the_outline_shares_the_one_system_message_with_recall(
    mm: MemoryManager, own_prompt: bool
) -> None:
    mm.add_message("u1", "earlier", "user", "My favourite marker colour is teal.")
    mm.flush()
    turns, budget = 30, 900
    saver = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=budget)
    model = Scripted(messages=iter([AIMessage(f"Reply {i}: " + "detail " * 30)
                                        for i in range(turns)]))  # fmt: skip
    graph = recall_graph(mm, saver, model)
    config = cfg("lead")
    first: list[Any] = [SystemMessage("You are a terse assistant.", id="sys")] if own_prompt else []
    for i in range(turns):
        text = asked(i) + " What marker colour do I like?"
        graph.invoke({"messages": [*(first if i == 0 else []), ("user", text)]}, config)
    for prompt in model.seen:
        assert [m.type for m in prompt].count("system") == 1 and prompt[0].type == "system"
    for thread in saved_threads(saver, config):
        assert tokens(thread) <= budget
        check_shape(thread)
    lead = saver.get_tuple(config).checkpoint["channel_values"]["messages"][0]
    content = str(lead.content)
    assert lead.id == ("sys" if own_prompt else MEMORY_MESSAGE_ID)
    assert OUTLINE_HEADER in content and "teal" in content  # the outline and recall's context
    if own_prompt:
        assert content.startswith("You are a terse assistant.")
    assert content.index(OUTLINE_HEADER) < content.index("teal")
    # the last prompt: the outline of trimmed turns and recall's context, in one message
    assert OUTLINE_HEADER in str(model.seen[-1][0].content)
    assert "teal" in str(model.seen[-1][0].content)


# -- off, or nothing to remember them by ------------------------------------------------------
def shapes(threads: list[list[Any]]) -> list[list[tuple[str, str, Any]]]:
    return [[(m.type, str(m.content), getattr(m, "tool_calls", None)) for m in t]
            for t in threads]  # fmt: skip


@pytest.mark.parametrize("budget", [None, 1_000_000])
def test_without_a_budget_reached_every_checkpoint_is_as_before(
    mm: MemoryManager, budget: int | None
) -> None:
    turns = 24
    bare = InMemorySaver()
    graph = tool_graph(bare, script(turns))
    wrapped = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=budget)
    graph_w = tool_graph(wrapped, script(turns))
    for i in range(turns):
        graph.invoke({"messages": [("user", asked(i))]}, cfg("t"))
        graph_w.invoke({"messages": [("user", asked(i))]}, cfg("t"))
    before, after = saved_threads(bare, cfg("t")), saved_threads(wrapped, cfg("t"))
    assert shapes(after) == shapes(before) and len(after[0]) == 2 * turns + 12
    assert tokens(after[0]) > BUDGET


def test_nothing_leaves_a_thread_that_cannot_be_remembered(
    mm: MemoryManager, caplog: pytest.LogCaptureFixture
) -> None:
    turns, budget = 12, 400
    saver = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=budget)
    graph = tool_graph(saver, script(turns))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the capture's "no user_id" warning
        for i in range(turns):
            graph.invoke({"messages": [("user", asked(i))]}, cfg("anon", user=None))
    assert tokens(graph.get_state(cfg("anon", None)).values["messages"]) > budget
    assert mm.stats()["messages"] == 0
    # a memory that cannot store them (closed) keeps them in the thread too
    graph = tool_graph(saver, script(turns))
    graph.invoke({"messages": [("user", asked(0))]}, cfg("shut"))
    mm.close()
    with caplog.at_level(logging.ERROR, logger="langgraph_memory.integrations.graph.checkpointer"):
        for i in range(1, turns):
            graph.invoke({"messages": [("user", asked(i))]}, cfg("shut"))
    assert "memory capture failed" in caplog.text
    thread = graph.get_state(cfg("shut")).values["messages"]
    assert tokens(thread) > budget and thread[0].content == asked(0)


@pytest.mark.parametrize(
    ("budget", "error"), [(0, ValueError), (-5, ValueError), ("4000", TypeError), (True, TypeError)]
)
def test_a_bad_budget_is_a_clear_error(mm: MemoryManager, budget: Any, error: type) -> None:
    with pytest.raises(error, match="thread_token_budget"):
        MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=budget)


def test_with_allowlist_keeps_the_budget(mm: MemoryManager) -> None:
    saver = MemoryCheckpointer(InMemorySaver(), mm, thread_token_budget=BUDGET)
    clone = saver.with_allowlist({("my_module", "MyType")})
    assert clone.thread_token_budget == BUDGET
