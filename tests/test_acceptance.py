"""Acceptance (issue 4): an agent built the way a LangGraph user builds one gains memory.

A fact user 1 tells in thread A reaches the model's input in thread B; user 2 never
sees it — neither in what the model is given nor in memory. Two agents, each run
sync and async, with a checkpointer as in production and a scripted fake model that
records every input:

- a plain ``StateGraph`` agent node wrapped by ``with_memory``;
- ``create_react_agent`` with the MemGPT-style memory tools, wrapped by ``with_memory``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import MessagesState
from langgraph.prebuilt import create_react_agent
from langgraph.warnings import LangGraphDeprecatedSinceV10
from pydantic import Field

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph import with_memory
from langgraph_memory.integrations.graph.messages import content_text
from langgraph_memory.integrations.graph.tools import create_memory_tools

Mode = Literal["sync", "async"]
FACT = "I'm allergic to peanuts. 我住在杭州。"
SECRETS = ("peanut", "杭州")


class RecordingModel(GenericFakeChatModel):
    """A scripted chat model that keeps every list of messages it was called with."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RecordingModel:
        return self


def model(*replies: str | AIMessage) -> RecordingModel:
    return RecordingModel(messages=iter(list(replies)))


def tool_call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def text(messages: Sequence[BaseMessage]) -> str:
    return "\n".join(content_text(m.content) for m in messages)


def ask(graph: Any, question: str, user: str, thread: str, mode: Mode) -> dict[str, Any]:
    config: RunnableConfig = {"configurable": {"user_id": user, "thread_id": thread}}
    inputs = {"messages": [HumanMessage(content=question)]}
    if mode == "sync":
        return graph.invoke(inputs, config)
    return asyncio.run(graph.ainvoke(inputs, config))


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[MemoryManager]:
    with MemoryManager(tmp_path / "memory", embeddings=HashingEmbeddings()) as mm:
        yield mm


def assert_user_2_never_sees_it(memory: MemoryManager, inputs: list[list[BaseMessage]]) -> None:
    """Nothing of user 1's fact in user 2's model inputs, search, context or stored messages."""
    for messages in inputs:
        for secret in SECRETS:
            assert secret not in text(messages).lower()
    for query in ("allergic peanuts", "我住在哪里 杭州"):
        for hit in memory.search("user-2", query, k=20):
            assert not any(s in hit.text.lower() for s in SECRETS)
        ctx = memory.build_context("user-2", "u2-b", query, token_budget=2000)
        assert not any(s in ctx.to_prompt().lower() for s in SECRETS)
        assert not set(ctx.source_ids) & {m.id for m in memory._backend.iter_messages("user-1")}
    stored = text_of_user(memory, "user-2")
    assert stored and not any(s in stored.lower() for s in SECRETS)


def text_of_user(memory: MemoryManager, user: str) -> str:
    return "\n".join(m.content for m in memory._backend.iter_messages(user))


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_stategraph_agent_with_memory(memory: MemoryManager, mode: Mode) -> None:
    llm = model(
        "Noted: no peanuts, and Hangzhou is home.",
        "Try apple slices: no peanuts in them.",
        "你住在杭州。",
        "I don't know yet what you are allergic to.",
    )

    def agent(state: MessagesState) -> dict[str, Any]:  # the user's node, unchanged
        return {"messages": [llm.invoke(state["messages"])]}

    graph = with_memory(agent, memory, token_budget=500, checkpointer=InMemorySaver())

    told = ask(graph, FACT, "user-1", "u1-a", mode)
    fact_id = told["messages"][0].id
    memory.flush()
    snack = ask(graph, "Which snack is safe for me?", "user-1", "u1-b", mode)
    assert "allergic to peanuts" in text(llm.seen[1])  # the fact reached the model's input
    assert fact_id in snack["memory_sources"]
    assert snack["messages"][-1].content == "Try apple slices: no peanuts in them."
    ask(graph, "我住在哪里？", "user-1", "u1-b", mode)
    assert "我住在杭州" in text(llm.seen[2])

    ask(graph, "What am I allergic to? Where do I live?", "user-2", "u2-b", mode)
    memory.flush()
    assert_user_2_never_sees_it(memory, llm.seen[3:])


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_react_agent_with_memory_tools(memory: MemoryManager, mode: Mode) -> None:
    llm = model(
        # user 1, thread A: the model keeps the fact in archival memory, then answers
        tool_call("archival_memory_insert", {"content": "User is allergic to peanuts."}, "c1"),
        "Noted, I'll remember.",
        # user 1, thread B: recalled without any tool call
        "Try apple slices: no peanuts in them.",
        # user 2: searches memory with the tools and finds nothing of user 1
        tool_call("archival_memory_search", {"query": "allergic"}, "c2"),
        tool_call("conversation_search", {"query": "allergic 我住在哪里"}, "c3"),
        "I don't know yet what you are allergic to.",
    )
    with pytest.warns(LangGraphDeprecatedSinceV10):  # LangGraph 1.x prefers langchain's agent
        react = create_react_agent(llm, create_memory_tools(memory))
    graph = with_memory(react, memory, token_budget=500, checkpointer=InMemorySaver())

    ask(graph, FACT, "user-1", "u1-a", mode)
    memory.flush()
    archived = [m for m in memory._backend.iter_messages("user-1") if m.name == "archival"]
    assert [m.content for m in archived] == ["User is allergic to peanuts."]
    assert "allergic to peanuts" in memory.search("user-1", "allergic", k=1)[0].text
    snack = ask(graph, "Which snack is safe for me?", "user-1", "u1-b", mode)
    assert "allergic to peanuts" in text(llm.seen[2])
    assert archived[0].id in snack["memory_sources"]  # what the agent chose to keep is recalled

    other = ask(graph, "What am I allergic to? Where do I live?", "user-2", "u2-b", mode)
    results = [m for m in other["messages"] if isinstance(m, ToolMessage)]
    assert [m.name for m in results] == ["archival_memory_search", "conversation_search"]
    assert "no results" in results[0].content
    assert "allergic" in results[1].content  # user 2's own question, and nothing else
    assert other["messages"][-1].content == "I don't know yet what you are allergic to."
    memory.flush()
    assert_user_2_never_sees_it(memory, llm.seen[3:])
