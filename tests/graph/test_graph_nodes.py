"""LangGraph integration: recall/remember nodes and ``with_memory`` on real graphs.

Every test runs real LangGraph graphs over a real ``MemoryManager`` (SQLite in
``tmp_path``, the deterministic ``HashingEmbeddings``) with LangChain fake chat
models that record what they were called with.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import pytest
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.warnings import LangGraphDeprecatedSinceV10
from scripted import Scripted, scripted

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph import (
    MEMORY_MESSAGE_ID,
    MemoryMessagesState,
    MemoryState,
    recall_node,
    remember_node,
    with_memory,
)
from langgraph_memory.integrations.graph.messages import content_text

FACT = "I'm allergic to peanuts"
ASK = "Which snack is safe for me, given what I'm allergic to?"


# -- helpers ----------------------------------------------------------------------------------
def texts(messages: Sequence[BaseMessage]) -> str:
    return "\n".join(content_text(m.content) for m in messages)


def node_fn(model: Scripted) -> Any:
    """The agent node of a graph: the model answers the thread."""

    def agent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    return agent


def cfg(user: str, thread: str | None = None) -> RunnableConfig:
    configurable: dict[str, Any] = {"user_id": user}
    if thread is not None:
        configurable["thread_id"] = thread
    return {"configurable": configurable}


def run(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    text: str,
    config: RunnableConfig,
    mode: Literal["sync", "async"],
) -> dict[str, Any]:
    inputs = {"messages": [HumanMessage(content=text)]}
    if mode == "sync":
        return graph.invoke(inputs, config)
    return asyncio.run(graph.ainvoke(inputs, config))


def node_graph(memory: MemoryManager, model: Scripted, **compile_kw: Any) -> Any:
    """recall → agent → remember, built by hand as a LangGraph user would."""

    def agent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    async def aagent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    builder = StateGraph(MemoryMessagesState)
    builder.add_node(recall_node(memory, token_budget=500))
    builder.add_node("agent", RunnableLambda(agent, afunc=aagent))
    builder.add_node(remember_node(memory))
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "agent")
    builder.add_edge("agent", "remember")
    builder.add_edge("remember", END)
    return builder.compile(**compile_kw)


def react_agent(model: Scripted, tools: Sequence[Any] = ()) -> Any:
    # LangGraph 1.x deprecates create_react_agent in favour of langchain.agents.create_agent
    # (langchain is not installed here); the warning is expected, so it is asserted, not hidden.
    with pytest.warns(LangGraphDeprecatedSinceV10):
        return create_react_agent(model, list(tools))


def react_graph(memory: MemoryManager, model: Scripted, **kw: Any) -> Any:
    return with_memory(react_agent(model), memory, token_budget=500, **kw)


BUILDERS = {"stategraph": node_graph, "with_memory(create_react_agent)": react_graph}


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[MemoryManager]:
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as mm:
        yield mm


# -- the acceptance test ----------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("build", list(BUILDERS))
def test_fact_told_in_one_thread_is_recalled_in_another_and_never_for_another_user(
    memory: MemoryManager, build: str, mode: Literal["sync", "async"]
) -> None:
    model = scripted(
        "Noted, no peanuts for you.",
        "Try apple slices: they are peanut-free.",
        "Crunchy, got it.",
        "Try some crunchy crackers.",
    )
    graph = BUILDERS[build](memory, model)

    told = run(graph, FACT, cfg("user-1", "thread-a"), mode)
    fact_id = next(m.id for m in told["messages"] if isinstance(m, HumanMessage))
    memory.flush()

    recalled = run(graph, ASK, cfg("user-1", "thread-b"), mode)
    memory_messages = [m for m in model.seen[1] if isinstance(m, SystemMessage)]
    assert [m.id for m in memory_messages] == [MEMORY_MESSAGE_ID]
    assert FACT in texts(memory_messages)  # the model really received the fact
    assert FACT in recalled["memory_context"]
    assert fact_id in recalled["memory_sources"]
    assert recalled["messages"][-1].content == "Try apple slices: they are peanut-free."

    # user 2 has memories of their own, in threads with the same names, but none of user 1's
    run(graph, "I love crunchy snacks", cfg("user-2", "thread-a"), mode)
    memory.flush()
    other = run(graph, ASK, cfg("user-2", "thread-b"), mode)
    assert "I love crunchy snacks" in other["memory_context"]
    assert "I love crunchy snacks" in texts(model.seen[3])
    for seen in model.seen[2:]:
        assert "peanut" not in texts(seen).lower()
    assert "peanut" not in other["memory_context"].lower()
    assert fact_id not in other["memory_sources"]
    assert not any("peanut" in h.text for h in memory.search("user-2", FACT, k=20))


# -- recall -----------------------------------------------------------------------------------
@pytest.mark.parametrize("build", list(BUILDERS))
def test_memory_message_is_replaced_each_turn_not_piled_up(
    memory: MemoryManager, build: str
) -> None:
    memory.add_turn("user-1", "earlier", user=FACT, assistant="Noted, no peanuts.")
    model = scripted("Sure.", "Apple slices.", "Lyon, noted.", "You're welcome.")
    graph = BUILDERS[build](memory, model, checkpointer=InMemorySaver())
    config = cfg("user-1", "thread-a")
    turns = ["Remember what I'm allergic to?", ASK, "Where do I live?", "Thanks!"]
    for n, text in enumerate(turns, start=1):
        if n == 3:  # learnt elsewhere meanwhile: the memory message must show it now
            memory.add_message("user-1", "elsewhere", "user", "I live in Lyon.", message_id="lyon")
        memory.flush()
        state = run(graph, text, config, "sync")
        ours = [m for m in state["messages"] if m.id == MEMORY_MESSAGE_ID]
        assert len(ours) == 1
        assert sum(isinstance(m, SystemMessage) for m in state["messages"]) == 1
        assert sum(isinstance(m, HumanMessage) for m in state["messages"]) == n
        assert ours[0].content == state["memory_context"]
        assert FACT in state["memory_context"]
        assert ("lyon" in state["memory_sources"]) == (n >= 3)
        # every model call saw exactly one memory message, the current one
        seen = [m for m in model.seen[-1] if m.id == MEMORY_MESSAGE_ID]
        assert [m.content for m in seen] == [state["memory_context"]]
    # the thread's own history is in state already, so recall does not repeat it
    assert "Where do I live?" not in state["memory_context"]


def test_recall_without_checkpointer_brings_back_the_current_thread(
    memory: MemoryManager,
) -> None:
    model = scripted("Noted.", "Apple slices.")
    graph = node_graph(memory, model)
    run(graph, FACT, cfg("u", "t"), "sync")
    state = run(graph, ASK, cfg("u", "t"), "sync")  # only the new message is in state
    assert FACT in state["memory_context"]
    assert "Noted." in state["memory_context"]


def test_recall_with_no_human_message_returns_empty_context(memory: MemoryManager) -> None:
    node = recall_node(memory)
    assert node.invoke({"messages": []}, cfg("u")) == {
        "memory_context": "",
        "memory_sources": [],
        "memory_items": [],
    }
    only_ai = {"messages": [AIMessage(content="Hello! How can I help?", id="a1")]}
    assert asyncio.run(node.ainvoke(only_ai, cfg("u"))) == {
        "memory_context": "",
        "memory_sources": [],
        "memory_items": [],
    }


def test_stale_memory_message_is_removed_when_nothing_is_recalled(
    memory: MemoryManager,
) -> None:
    state = {"messages": [HumanMessage("hi", id="h1"), SystemMessage("old", id=MEMORY_MESSAGE_ID)]}
    update = recall_node(memory).invoke(state, cfg("nobody-yet"))
    assert update["memory_context"] == ""
    [removal] = update["messages"]
    assert isinstance(removal, RemoveMessage) and removal.id == MEMORY_MESSAGE_ID


def test_recall_options(memory: MemoryManager) -> None:
    memory.add_message("u", "t0", "user", FACT, message_id="fact-1")
    memory.flush()
    state = {"chat": [HumanMessage(ASK, id="q1")]}
    update = recall_node(memory, messages_key="chat", as_system_message=False, explain=True).invoke(
        state, cfg("u", "t1")
    )
    assert "chat" not in update and "messages" not in update
    assert update["memory_sources"] == ["fact-1"]
    assert "fact-1" in update["memory_explanation"]
    custom = recall_node(memory, messages_key="chat", system_message_id="mem").invoke(
        state, cfg("u", "t1")
    )
    # the thread had no system message: the memory one is put first, the thread rewritten once
    assert [m.id for m in custom["chat"]] == [REMOVE_ALL_MESSAGES, "mem", "q1"]
    tiny = recall_node(memory, token_budget=5).invoke(state, cfg("u", "t1"))
    assert tiny["memory_context"] == ""  # nothing fits in 5 tokens


def test_recall_reads_the_session_scope_from_config(memory: MemoryManager) -> None:
    mid = memory.add_message("u", "t0", "user", "For the thesis I cite in APA.")
    memory._longterm.profile.upsert_preference(
        "u", "citation", "APA", source="explicit", scope="thesis", source_ids=[mid]
    )
    memory.flush()
    state = {"messages": [HumanMessage("How do I format sources?", id="q1")]}
    node = recall_node(memory, as_system_message=False)
    scoped: RunnableConfig = {"configurable": {"user_id": "u", "scope": "thesis"}}
    assert "User's citation: APA" in node.invoke(state, scoped)["memory_context"]
    assert "User's citation: APA" in asyncio.run(node.ainvoke(state, scoped))["memory_context"]
    assert "User's citation" not in node.invoke(state, cfg("u", "t9"))["memory_context"]
    with pytest.raises(TypeError, match="configurable scope"):
        node.invoke(state, {"configurable": {"user_id": "u", "scope": 7}})


def test_recall_reads_the_agent_from_config(memory: MemoryManager) -> None:
    lt = memory._longterm
    lt.add_trait("u", "code style", "type hints everywhere", agent_id="coder")
    lt.add_trait("u", "prose style", "short sentences", agent_id="writer")
    lt.add_trait("u", "answer style", "direct")
    memory.flush()
    state = {"messages": [HumanMessage("Which style do you use for me?", id="q1")]}
    node = recall_node(memory, as_system_message=False)
    coder: RunnableConfig = {"configurable": {"user_id": "u", "agent_id": "coder"}}
    for ctx in (node.invoke(state, coder), asyncio.run(node.ainvoke(state, coder))):
        assert "Agent coder trait code style" in ctx["memory_context"]
        assert "Agent trait answer style" in ctx["memory_context"]
        assert "writer" not in ctx["memory_context"]
    every = node.invoke(state, cfg("u"))["memory_context"]
    assert "Agent writer trait" in every and "Agent coder trait" in every
    with pytest.raises(ValueError, match="configurable agent_id must not be empty"):
        node.invoke(state, {"configurable": {"user_id": "u", "agent_id": " "}})
    with pytest.raises(TypeError, match="configurable agent_id"):
        node.invoke(state, {"configurable": {"user_id": "u", "agent_id": 7}})
    # with_memory's recall node reads it the same way
    model = scripted("Type hints it is.")
    graph = with_memory(node_fn(model), memory, checkpointer=InMemorySaver())
    graph.invoke(state, {"configurable": {**coder["configurable"], "thread_id": "w"}})
    prompt = texts(model.seen[0])
    assert "Agent coder trait" in prompt and "writer" not in prompt


def test_recall_reads_content_blocks(memory: MemoryManager) -> None:
    memory.add_message("u", "t0", "user", FACT, message_id="fact-1")
    memory.flush()
    blocks: list[str | dict[str, Any]] = [
        {"type": "text", "text": ASK},
        {"type": "image_url", "image_url": {"url": "x"}},
    ]
    update = recall_node(memory).invoke({"messages": [HumanMessage(blocks)]}, cfg("u"))
    assert update["memory_sources"] == ["fact-1"]


# -- remember ---------------------------------------------------------------------------------
@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return f"Sunny and 21 degrees in {city}."


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_tool_calls_and_results_are_remembered_and_searchable(
    memory: MemoryManager, mode: Literal["sync", "async"]
) -> None:
    call = {"name": "get_weather", "args": {"city": "Paris"}, "id": "call-1"}
    model = scripted(AIMessage(content="", tool_calls=[call]), "It is sunny in Paris.")
    graph = with_memory(react_agent(model, [get_weather]), memory)
    state = run(graph, "What's the weather in Paris?", cfg("u", "t"), mode)
    assert isinstance(state["messages"][-2], ToolMessage)  # the tool really ran
    memory.flush()

    stored = memory._backend.session_messages("u", "t", last=10)
    assert [(m.role, m.name) for m in stored] == [
        ("user", None),
        ("assistant", None),
        ("tool", "get_weather"),
        ("assistant", None),
    ]
    assert stored[1].content == 'called tool get_weather with {"city": "Paris"}'
    assert stored[2].metadata == {"tool_call_id": "call-1"}
    assert [m.id for m in stored] == [m.id for m in state["messages"] if m.id != MEMORY_MESSAGE_ID]

    hits = memory.search("u", "weather Paris sunny degrees", k=4)
    by_role = {h.role: h for h in hits}
    assert by_role["tool"].text == "Sunny and 21 degrees in Paris."
    assert by_role["tool"].name == "get_weather"
    assert any("called tool get_weather" in h.text for h in hits)


def test_remember_is_idempotent(memory: MemoryManager) -> None:
    model = scripted("Noted, no peanuts.")
    state = node_graph(memory, model).invoke(
        {"messages": [HumanMessage(FACT)]},
        cfg("u", "t"),
    )
    before = memory.stats("u")["messages"]
    assert before == 2
    node = remember_node(memory)
    assert node.invoke(state, cfg("u", "t")) == {}
    assert asyncio.run(node.ainvoke(state, cfg("u", "t"))) == {}
    assert memory.stats("u")["messages"] == before


def test_remember_stores_the_latest_exchange_only(memory: MemoryManager) -> None:
    state = {
        "messages": [
            HumanMessage("old question", id="h0"),
            AIMessage("old answer", id="a0"),
            HumanMessage([{"type": "text", "text": "Look at"}, {"type": "text", "text": "this"}]),
            SystemMessage("be brief"),
            SystemMessage("Relevant memories: ...", id=MEMORY_MESSAGE_ID),
            AIMessage("", id="empty"),
            AIMessage(
                "Checking.",
                name="planner",
                tool_calls=[{"name": "lookup", "args": {"q": "x"}, "id": "c1"}],
            ),
            ToolMessage("found it", tool_call_id="c1"),  # no name: taken from the call
        ]
    }
    remember_node(memory).invoke(state, cfg("u", "t"))
    stored = memory._backend.session_messages("u", "t", last=10)
    assert [(m.role, m.name, m.content) for m in stored] == [
        ("user", None, "Look at\nthis"),
        ("assistant", "planner", 'Checking.\ncalled tool lookup with {"q": "x"}'),
        ("tool", "lookup", "found it"),
    ]
    # messages without an id get a deterministic one: a second run adds nothing
    ids = [m.id for m in stored]
    remember_node(memory).invoke(state, cfg("u", "t"))
    assert [m.id for m in memory._backend.session_messages("u", "t", last=10)] == ids
    assert ids[0].startswith("lgm-")


def test_remember_keeps_an_edited_message_instead_of_failing(memory: MemoryManager) -> None:
    node = remember_node(memory)
    node.invoke({"messages": [HumanMessage("I live in Lyon", id="h1")]}, cfg("u", "t"))
    node.invoke({"messages": [HumanMessage("I live in Paris", id="h1")]}, cfg("u", "t"))
    node.invoke({"messages": [HumanMessage("I live in Paris", id="h1")]}, cfg("u", "t"))
    contents = [m.content for m in memory._backend.session_messages("u", "t", last=10)]
    assert contents == ["I live in Lyon", "I live in Paris"]


def test_thread_id_defaults_to_default_session(memory: MemoryManager) -> None:
    remember_node(memory).invoke({"messages": [HumanMessage("hello", id="h1")]}, cfg("u"))
    assert [m.id for m in memory._backend.session_messages("u", "default", last=5)] == ["h1"]


# -- errors and wiring ------------------------------------------------------------------------
@pytest.mark.parametrize("config", [{}, {"configurable": {"thread_id": "t"}}, cfg("")])
def test_missing_user_id_is_a_clear_error(memory: MemoryManager, config: RunnableConfig) -> None:
    graph = node_graph(memory, scripted("never"))
    with pytest.raises(ValueError, match=r'config\["configurable"\]\["user_id"\]'):
        graph.invoke({"messages": [HumanMessage("hi")]}, config)
    with pytest.raises(ValueError, match=r"remember_node needs a user id"):
        asyncio.run(remember_node(memory).ainvoke({"messages": []}, config))
    assert memory.stats()["messages"] == 0


def test_node_arguments_are_checked(memory: MemoryManager) -> None:
    with pytest.raises(TypeError, match="MemoryManager"):
        recall_node(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="token_budget"):
        recall_node(memory, token_budget=0)
    with pytest.raises(TypeError, match="messages"):
        recall_node(memory).invoke({"messages": "hi"}, cfg("u"))


def test_with_memory_wraps_a_plain_node_and_checks_the_schema(memory: MemoryManager) -> None:
    model = scripted("Noted.", "Apple slices.")

    async def agent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    class State(MessagesState, MemoryState):
        mood: str

    graph = with_memory(agent, memory, state_schema=State, name="memory-agent")
    assert graph.name == "memory-agent"
    assert [n for n in graph.nodes if n != "__start__"] == ["recall", "agent", "remember"]
    run(graph, FACT, cfg("u", "a"), "async")
    memory.flush()
    assert FACT in run(graph, ASK, cfg("u", "b"), "async")["memory_context"]

    with pytest.raises(ValueError, match="MemoryState"):
        with_memory(agent, memory, state_schema=MessagesState)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_each_mode_runs_its_own_node_variant(
    memory: MemoryManager, mode: Literal["sync", "async"], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    surfaces = [(memory, ""), (memory.aio, "aio.")]
    for surface, prefix in surfaces:
        for method in ("build_context", "add_message"):
            original = getattr(surface, method)

            def spy(*args: Any, _name: str = prefix + method, _f: Any = original, **kw: Any) -> Any:
                calls.append(_name)
                return _f(*args, **kw)

            monkeypatch.setattr(surface, method, spy)
    run(node_graph(memory, scripted("Noted.")), FACT, cfg("u", "t"), mode)
    if mode == "sync":
        assert calls == ["build_context", "add_message", "add_message"]
    else:  # the awaitable surface, which runs the sync methods in a worker thread
        assert calls[0] == "aio.build_context" and calls.count("aio.add_message") == 2
