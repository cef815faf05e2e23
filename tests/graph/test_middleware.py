"""MemoryMiddleware with LangChain v1 ``create_agent``, and one leading system message
everywhere (the middleware, ``recall_node``, ``with_memory``), checked against a real
provider formatter (langchain-anthropic's, which refuses a second system message)."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.tools import StructuredTool, ToolException, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from scripted import Scripted, scripted

from langgraph_memory import MemoryManager
from langgraph_memory.core.tokens import count_tokens
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph import (
    MemoryMessagesState,
    recall_node,
    remember_node,
    trim_node,
    with_memory,
)
from langgraph_memory.integrations.graph.thread import (
    OUTLINE_SHARE,
    message_tokens,
    outline_tokens,
)

agents = pytest.importorskip("langchain.agents")
anthropic = pytest.importorskip("langchain_anthropic.chat_models")
from langgraph_memory.integrations.graph import MemoryMiddleware  # noqa: E402

FACT = "I'm allergic to peanuts."
ASK = "Which snack is safe for me, given what I'm allergic to?"


def script(*replies: AIMessage | str) -> Scripted:
    return scripted(*replies)


def cfg(user: str, thread: str) -> Any:
    return {"configurable": {"user_id": user, "thread_id": thread}}


def assert_one_leading_system(prompts: list[list[BaseMessage]]) -> None:
    """Every prompt has at most one system message, first, and Anthropic's formatter
    takes it without a warning or an error."""
    assert prompts
    for prompt in prompts:
        kinds = [m.type for m in prompt]
        assert kinds.count("system") <= 1, kinds
        assert "system" not in kinds or kinds[0] == "system", kinds
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            system, formatted = anthropic._format_messages(prompt, model="claude-test")
        assert bool(system) == ("system" in kinds) and formatted[0]["role"] == "user"


@pytest.fixture
def mm(tmp_path: Path) -> Any:
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as memory:
        yield memory


@tool
def lookup(q: str) -> str:
    """Look something up."""
    return f"found {q}"


def _broken(q: str) -> str:
    """A tool that fails."""
    raise ToolException("backend down")


broken = StructuredTool.from_function(_broken, name="broken", handle_tool_error=True)


def make_agent(mm: MemoryManager, model: Scripted, **kw: Any) -> Any:
    return agents.create_agent(
        model,
        [lookup, broken],
        system_prompt="You are a careful assistant.",
        middleware=[MemoryMiddleware(mm, **kw)],
        checkpointer=InMemorySaver(),
    )


def test_recalls_across_threads_for_the_same_user_only(mm: MemoryManager) -> None:
    model = script("Noted.", "Avoid peanuts.", "I don't know.")
    agent = make_agent(mm, model)
    agent.invoke({"messages": [("user", FACT)]}, cfg("u1", "A"))
    mm.flush()
    out = agent.invoke({"messages": [("user", ASK)]}, cfg("u1", "B"))
    assert "peanuts" in out["memory_context"] and out["memory_sources"]
    assert "peanuts" in model.seen[1][0].content  # in the system prompt of thread B
    assert model.seen[1][0].content.startswith("You are a careful assistant.")
    other = agent.invoke({"messages": [("user", ASK)]}, cfg("u2", "C"))
    assert "peanuts" not in str(model.seen[2][0].content)
    assert other["memory_context"] == "" or "peanuts" not in other["memory_context"]
    # nothing was added to the threads: the checkpointed thread is the conversation only
    assert [m.type for m in out["messages"]] == ["human", "ai"]
    assert_one_leading_system(model.seen)


def test_async_agent_recalls_and_remembers(mm: MemoryManager) -> None:
    model = script("Noted.", "Avoid peanuts.")
    agent = make_agent(mm, model)

    async def run() -> dict[str, Any]:
        await agent.ainvoke({"messages": [("user", FACT)]}, cfg("u1", "A"))
        await mm.aio.flush()
        return await agent.ainvoke({"messages": [("user", ASK)]}, cfg("u1", "B"))

    out = asyncio.run(run())
    assert "peanuts" in out["memory_context"]
    assert_one_leading_system(model.seen)
    assert FACT in {h.text for h in mm.search("u1", "peanuts", k=5)}
    assert mm.stats("u1")["messages"] == 4  # both exchanges, each stored once


def test_tool_runs_become_steps_and_an_episode(mm: MemoryManager) -> None:
    calls = AIMessage(
        "",
        tool_calls=[
            {"name": "lookup", "args": {"q": "snacks"}, "id": "c1"},
            {"name": "broken", "args": {"q": "x"}, "id": "c2"},
        ],
    )
    model = script(
        calls,
        AIMessage("", tool_calls=[{"name": "lookup", "args": {"q": "y"}, "id": "c3"}]),
        "Done: pretzels.",
    )
    agent = make_agent(mm, model)
    out = agent.invoke({"messages": [("user", "Find me a snack")]}, cfg("u1", "T"))
    [episode] = mm.tasks.episodes("u1")
    assert episode.trigger_summary == "Find me a snack"
    by_tool = sorted((s.tool_name, s.status) for s in episode.steps)
    assert by_tool == [("broken", "failed"), ("lookup", "completed"), ("lookup", "completed")]
    assert episode.outcome == "partial" and episode.outcome_summary == "Done: pretzels."
    assert any(s.result == "found snacks" for s in episode.steps)
    # the tool results are remembered with the exchange
    mm.flush()
    assert any("found snacks" in h.text for h in mm.search("u1", "found snacks", k=5))
    assert out["messages"][-1].content == "Done: pretzels."
    # a turn without tool calls opens no task
    make_agent(mm, script("hi")).invoke({"messages": [("user", "hello")]}, cfg("u1", "T2"))
    assert len(mm.tasks.episodes("u1")) == 1


def test_a_long_thread_stays_within_its_budget_and_every_message_stays_searchable(
    mm: MemoryManager,
) -> None:
    turns = 200
    model = script(*[f"Reply {i}: noted marker{i}x, " + "detail " * 30 for i in range(turns)])
    agent = make_agent(mm, model, thread_token_budget=1500, token_budget=300)
    config = cfg("u1", "long")
    for i in range(turns):
        agent.invoke(
            {"messages": [("user", f"Turn {i} about marker{i}x " + "words " * 25)]}, config
        )
    state = agent.get_state(config).values
    assert sum(message_tokens(m) for m in state["messages"]) <= 1500
    assert len(state["messages"]) < 2 * turns
    assert state["memory_thread_outline"].count("\n- ") >= 1
    # the outline reached the model, in its one system message
    assert "Earlier in this conversation" in model.seen[-1][0].content
    assert_one_leading_system(model.seen[-3:])
    mm.flush()
    for i in range(turns):
        hits = mm.search("u1", f"marker{i}x", k=3, layers=["message"])
        assert any(f"marker{i}x" in h.text for h in hits), i
    assert mm.stats("u1")["messages"] == 2 * turns


def test_over_40_turns_the_thread_and_its_outline_stay_within_the_budget_in_tokens(
    mm: MemoryManager,
) -> None:
    """The outline of what left the thread is counted in tokens: the thread the model
    reads, outline included, never passes its budget (it grew to ~3,000 tokens by turn
    39 at a budget of 500 when the outline was kept by lines), and it still holds more
    than the last exchange."""
    budget, turns = 500, 40
    model = script(*[f"Reply {i}: about topic{i}x, " + "detail " * 30 for i in range(turns)])
    agent = make_agent(mm, model, thread_token_budget=budget, token_budget=100)
    config = cfg("u1", "forty")
    for i in range(turns):
        agent.invoke({"messages": [("user", f"Turn {i} on topic{i}x " + "words " * 25)]}, config)
        # what the model read: the thread after the trim, and the outline then
        outline = agent.get_state(config).values.get("memory_thread_outline") or ""
        read = sum(message_tokens(m) for m in model.seen[-1][1:])
        assert outline_tokens(outline) <= int(budget * OUTLINE_SHARE), (i, outline)
        assert read + outline_tokens(outline) <= budget, i
        assert not outline or outline in model.seen[-1][0].content
    # the model read the outline in its system prompt, the newest exchange whole and the
    # older ones compacted; the prompt's outline never grew past its share
    prompt = model.seen[-1][0].content
    assert "Earlier in this conversation" in prompt
    lines = [ln for ln in outline.splitlines() if ln.startswith("- ")]
    assert len(lines) >= 3 and "topic" in lines[-1]
    assert count_tokens(prompt) < 250  # agent prompt + outline (<= 125) + context (<= 100)


def test_missing_user_id_is_a_clear_error(mm: MemoryManager) -> None:
    agent = make_agent(mm, script("hi"))
    with pytest.raises(ValueError, match="user id"):
        agent.invoke({"messages": [("user", "hi")]}, {"configurable": {"thread_id": "x"}})


def test_context_user_id_is_used_when_config_has_none(mm: MemoryManager) -> None:
    from dataclasses import dataclass

    @dataclass
    class Ctx:
        user_id: str

    model = script("Noted.")
    agent = agents.create_agent(model, [], middleware=[MemoryMiddleware(mm)], context_schema=Ctx)
    agent.invoke({"messages": [("user", FACT)]}, context=Ctx(user_id="ctx-user"))
    mm.flush()
    assert mm.search("ctx-user", "peanuts", k=1)


def test_the_agent_id_keeps_other_agents_traits_out(mm: MemoryManager) -> None:
    from dataclasses import dataclass

    @dataclass
    class Ctx:
        user_id: str
        agent_id: str | None = None

    lt = mm._longterm
    lt.add_trait("u1", "code style", "type hints everywhere", agent_id="coder")
    lt.add_trait("u1", "prose style", "short sentences", agent_id="writer")
    mm.flush()
    ask = "Which style do you use for me?"
    model = script("Type hints.", "Short sentences.", "Both.")
    agent = make_agent(mm, model)
    by_config = {"configurable": {"user_id": "u1", "thread_id": "A", "agent_id": "coder"}}
    out = agent.invoke({"messages": [("user", ask)]}, by_config)
    assert "Agent coder trait" in out["memory_context"] and "writer" not in out["memory_context"]
    assert "writer" not in model.seen[0][0].content
    in_context = agents.create_agent(
        model, [], middleware=[MemoryMiddleware(mm)], context_schema=Ctx
    )
    out = in_context.invoke({"messages": [("user", ask)]}, context=Ctx("u1", "writer"))
    assert "Agent writer trait" in out["memory_context"] and "coder" not in out["memory_context"]
    out = in_context.invoke({"messages": [("user", ask)]}, context=Ctx("u1"))
    assert "Agent writer trait" in out["memory_context"]
    assert "Agent coder trait" in out["memory_context"]
    with pytest.raises(ValueError, match="agent_id must not be empty"):
        bad = {"configurable": {"user_id": "u1", "thread_id": "B", "agent_id": "  "}}
        agent.invoke({"messages": [("user", ask)]}, bad)


# -- recall_node and with_memory: one leading system message in the thread ---------------
def test_recall_node_merges_into_the_threads_own_system_message(mm: MemoryManager) -> None:
    mm.add_message("u1", "old", "user", FACT)
    mm.flush()
    model = script("Avoid peanuts.", "Still peanuts.", "Hello.")

    def agent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MemoryMessagesState)
    builder.add_sequence(
        [("recall", recall_node(mm)), ("agent", agent), ("remember", remember_node(mm))]
    )
    builder.add_edge(START, "recall")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = cfg("u1", "S")
    graph.invoke({"messages": [SystemMessage("Be brief.", id="sys"), HumanMessage(ASK)]}, config)
    graph.invoke({"messages": [HumanMessage("And what about " + ASK)]}, config)
    graph.invoke({"messages": [HumanMessage("hello there")]}, config)
    assert_one_leading_system(model.seen)
    first, second, third = (p[0].content for p in model.seen)
    assert first.startswith("Be brief.") and "peanuts" in first
    assert second.count("Be brief.") == 1 and second.count("Relevant memories") == 1
    thread = graph.get_state(config).values["messages"]
    assert [m.type for m in thread].count("system") == 1 and thread[0].id == "sys"


def test_recall_node_puts_its_message_first_when_the_thread_has_none(mm: MemoryManager) -> None:
    mm.add_message("u1", "old", "user", FACT)
    mm.flush()
    model = script("Avoid peanuts.", "Yes.")
    graph = with_memory(
        lambda state: {"messages": [model.invoke(state["messages"])]},
        mm,
        checkpointer=InMemorySaver(),
    )
    config = cfg("u1", "W")
    graph.invoke({"messages": [("user", ASK)]}, config)
    graph.invoke({"messages": [("user", "Peanuts again: " + ASK)]}, config)
    assert_one_leading_system(model.seen)
    thread = graph.get_state(config).values["messages"]
    assert [m.type for m in thread] == ["system", "human", "ai", "human", "ai"]


def test_trim_node_keeps_a_graph_thread_in_budget(mm: MemoryManager) -> None:
    model = script(*[f"answer {i} " + "text " * 40 for i in range(40)])

    def agent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MemoryMessagesState)
    builder.add_sequence(
        [
            ("trim", trim_node(mm, max_tokens=800)),
            ("recall", recall_node(mm)),
            ("agent", agent),
            ("remember", remember_node(mm)),
        ]
    )
    builder.add_edge(START, "trim")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = cfg("u1", "G")
    for i in range(40):
        graph.invoke({"messages": [HumanMessage(f"question {i} zz{i}q " + "text " * 40)]}, config)
    thread = graph.get_state(config).values["messages"]
    convo = [m for m in thread if m.type != "system"]
    assert sum(message_tokens(m) for m in convo) <= 800 + max(message_tokens(m) for m in convo) * 2
    assert "Earlier in this conversation" in model.seen[-1][0].content
    assert_one_leading_system(model.seen)
    mm.flush()
    assert all(mm.search("u1", f"zz{i}q", k=1) for i in range(40))


def test_trimmed_exchanges_come_back_as_their_topic_chains_summary(mm: MemoryManager) -> None:
    """What leaves the thread is placed in the session's topic chains; their summaries,
    citing the trimmed messages, reach the next prompt's system message."""
    garden = [
        "I planted tomatoes and basil in the raised garden bed by the fence.",
        "The garden bed needs compost before the tomatoes go in, I think.",
        "Should the basil share the garden bed with the tomatoes or get a pot?",
        "The tomatoes in the garden bed want staking once they pass the fence.",
    ]
    taxes = [
        "Now about my tax return: the deadline for the freelance income is in April.",
        "For the tax return I still need the invoices of the freelance work from March.",
        "Can the home office be deducted on the tax return this year?",
        "The tax advisor wants the freelance invoices and receipts by Friday.",
    ]
    model = script(*["Noted, " + "details " * 30 for _ in range(10)])

    def agent(state: MemoryMessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MemoryMessagesState)
    builder.add_sequence(
        [
            ("trim", trim_node(mm, max_tokens=250)),
            ("recall", recall_node(mm, token_budget=1500)),
            ("agent", agent),
            ("remember", remember_node(mm)),
        ]
    )
    builder.add_edge(START, "trim")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = cfg("u1", "chains")
    for text in garden + taxes:
        graph.invoke({"messages": [HumanMessage(text)]}, config)
        mm.flush()  # the worker places each exchange before the next turn
    state = graph.get_state(config).values
    in_thread = {m.id for m in state["messages"]}
    chains = [it for it in state["memory_items"] if it["layer"] == "chain"]
    trimmed_cited = {s for it in chains for s in it["source_ids"]} - in_thread
    assert chains and trimmed_cited, state["memory_items"]
    gardening = [it for it in chains if "garden" in it["text"] or "tomatoes" in it["text"]]
    assert gardening and "earlier in this session" in gardening[0]["text"]
    # in the prompt the model read, in its one leading system message
    assert "earlier in this session" in model.seen[-1][0].content
    assert_one_leading_system(model.seen)


def test_memory_items_and_per_layer_recall_nodes_compose(mm: MemoryManager) -> None:
    mm.add_message("u1", "old", "user", FACT)
    mm.add_message("u1", "old", "user", "From now on, always answer in French.")
    mm.flush()
    state = {"messages": [HumanMessage(ASK, id="q")]}
    config = cfg("u1", "new")
    everything = recall_node(mm, as_system_message=False).invoke(state, config)
    items = everything["memory_items"]
    assert items and {"layer", "text", "source_ids", "score"} <= set(items[0])
    assert {it["layer"] for it in items} >= {"message"}
    about_user = recall_node(
        mm, layers=["profile", "anchor"], as_system_message=False, name="about_user"
    )
    assert about_user.name == "about_user"
    only = about_user.invoke(state, config)["memory_items"]
    assert only and {it["layer"] for it in only} <= {"profile", "anchor"}
    assert any("peanuts" in it["text"] for it in only)
    with pytest.raises(ValueError, match="unknown context layers"):
        recall_node(mm, layers=["profiles"])
    # the middleware writes the same items
    model = script("Noted.")
    out = make_agent(mm, model).invoke({"messages": [("user", ASK)]}, cfg("u1", "mw"))
    assert out["memory_items"] and all(it["source_ids"] for it in out["memory_items"])
