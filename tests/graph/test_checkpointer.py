"""Memory capture by ``MemoryCheckpointer`` in real LangGraph graphs."""

from __future__ import annotations

import logging
import sqlite3
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from scripted import Scripted

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.checkpointer import MemoryCheckpointer
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend


@pytest.fixture(params=["memory", "sqlite"])
def mm(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[MemoryManager]:
    """Capture does not depend on the backend: the two embedded ones suffice here."""
    backend = InMemoryBackend() if request.param == "memory" else SQLiteBackend(tmp_path / "m")
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as manager:
        yield manager


def _chat_graph(saver: Any, replies: list[str]) -> Any:
    script = iter(AIMessage(content=r) for r in replies)

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [next(script)]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    return builder.compile(checkpointer=saver)


def _cfg(user: str | None, thread: str) -> dict[str, Any]:
    conf: dict[str, Any] = {"thread_id": thread}
    if user is not None:
        conf["user_id"] = user
    return {"configurable": conf}


@pytest.fixture
def saver(mm: MemoryManager) -> MemoryCheckpointer:
    return MemoryCheckpointer(InMemorySaver(), mm)


def test_thread_messages_are_searchable_and_scoped(
    mm: MemoryManager, saver: MemoryCheckpointer
) -> None:
    graph = _chat_graph(saver, ["Noted, peanuts are off the menu.", "Hello Bob."])
    graph.invoke({"messages": [("user", "I am allergic to peanuts")]}, _cfg("u1", "A"))
    graph.invoke({"messages": [("user", "I am Bob and I like hiking")]}, _cfg("u2", "B"))
    mm.flush()
    said = mm._backend.session_messages("u1", "A")[0]
    hits = mm.search("u1", "peanut allergy", k=5)
    # the best hit is the message, or the fact drawn from it (one hit citing both)
    assert hits[0].id == said.id or said.id in hits[0].source_ids, hits[0]
    assert {h.text for h in hits} >= {"Noted, peanuts are off the menu."}
    [first, *_] = mm.search("u1", "peanut allergy", k=5, layers=["message"])
    assert first.text == "I am allergic to peanuts" and first.id == said.id
    assert first.session_id == "A" and first.role == "user"
    assert all("peanut" not in h.text for h in mm.search("u2", "peanut allergy", k=10))
    assert [m.content for m in mm._backend.session_messages("u1", "A")] == [
        "I am allergic to peanuts",
        "Noted, peanuts are off the menu.",
    ]


def test_capture_is_idempotent(mm: MemoryManager, saver: MemoryCheckpointer) -> None:
    graph = _chat_graph(saver, ["first reply", "second reply"])
    graph.invoke({"messages": [("user", "first question")]}, _cfg("u1", "A"))
    graph.invoke({"messages": [("user", "second question")]}, _cfg("u1", "A"))
    stored = [m.content for m in mm._backend.session_messages("u1", "A")]
    assert stored == ["first question", "first reply", "second question", "second reply"]
    # Re-putting the latest checkpoint (and through a fresh wrapper: no in-process cache).
    latest = saver.get_tuple(_cfg("u1", "A"))
    assert latest is not None
    versions = {"messages": latest.checkpoint["channel_versions"]["messages"]}
    config = {"configurable": {**latest.config["configurable"], "user_id": "u1"}}
    for again in (saver, MemoryCheckpointer(saver.inner, mm)):
        again.put(config, latest.checkpoint, latest.metadata, versions)
    assert len(mm._backend.session_messages("u1", "A")) == 4


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_tool_calls_and_results_are_captured(mm: MemoryManager) -> None:
    @tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return f"Sunny and 24C in {city}"

    model = Scripted(
        messages=iter(
            [
                AIMessage(
                    content="",
                    tool_calls=[{"name": "get_weather", "args": {"city": "Lyon"}, "id": "c1"}],
                ),
                AIMessage(content="It is sunny in Lyon."),
            ]
        )
    )
    agent = create_react_agent(
        model, [get_weather], checkpointer=MemoryCheckpointer(InMemorySaver(), mm)
    )
    agent.invoke({"messages": [("user", "Weather in Lyon?")]}, _cfg("u1", "T"))
    stored = mm._backend.session_messages("u1", "T")
    assert [(m.role, m.content) for m in stored] == [
        ("user", "Weather in Lyon?"),
        ("assistant", 'called tool get_weather with {"city": "Lyon"}'),
        ("tool", "Sunny and 24C in Lyon"),
        ("assistant", "It is sunny in Lyon."),
    ]
    assert stored[2].name == "get_weather"
    assert stored[2].metadata == {"tool_call_id": "c1"}


def test_capture_errors_never_break_checkpointing(
    mm: MemoryManager,
    saver: MemoryCheckpointer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("memory is down")

    monkeypatch.setattr(mm, "add_message", broken)
    graph = _chat_graph(saver, ["still answering"])
    with caplog.at_level(logging.ERROR, logger="langgraph_memory.integrations.graph.checkpointer"):
        out = graph.invoke({"messages": [("user", "hello")]}, _cfg("u1", "A"))
    assert out["messages"][-1].content == "still answering"
    state = graph.get_state(_cfg("u1", "A"))
    assert [m.content for m in state.values["messages"]] == ["hello", "still answering"]
    assert "memory capture failed" in caplog.text
    assert mm.stats("u1")["messages"] == 0


def test_missing_user_id_warns_once_and_captures_nothing(
    mm: MemoryManager, saver: MemoryCheckpointer
) -> None:
    graph = _chat_graph(saver, ["a", "b"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        graph.invoke({"messages": [("user", "one")]}, _cfg(None, "A"))
        graph.invoke({"messages": [("user", "two")]}, _cfg(None, "A"))
    ours = [w for w in caught if "MemoryCheckpointer" in str(w.message)]
    assert len(ours) == 1
    assert mm.stats()["messages"] == 0
    assert len(graph.get_state(_cfg(None, "A")).values["messages"]) == 4


@pytest.mark.asyncio
async def test_async_path(mm: MemoryManager, saver: MemoryCheckpointer) -> None:
    graph = _chat_graph(saver, ["async reply"])
    await graph.ainvoke({"messages": [("user", "async question about tea")]}, _cfg("u1", "A"))
    await mm.aio.flush()
    assert (await mm.aio.search("u1", "tea", k=1))[0].text == "async question about tea"
    tup = await saver.aget_tuple(_cfg("u1", "A"))
    assert tup is not None and len(tup.checkpoint["channel_values"]["messages"]) == 2
    assert [t async for t in saver.alist(_cfg("u1", "A"), limit=1)][0].config == tup.config


@pytest.fixture
def sqlite_saver(tmp_path: Any) -> Iterator[Any]:
    sqlite_mod = pytest.importorskip("langgraph.checkpoint.sqlite")
    conn = sqlite3.connect(tmp_path / "cp.db", check_same_thread=False)
    yield sqlite_mod.SqliteSaver(conn)
    conn.close()


def test_wraps_sync_sqlite_saver(mm: MemoryManager, sqlite_saver: Any) -> None:
    saver = MemoryCheckpointer(sqlite_saver, mm)
    assert saver.serde is sqlite_saver.serde
    assert saver.config_specs == sqlite_saver.config_specs
    v1 = saver.get_next_version(None, None)
    assert isinstance(v1, str) and saver.get_next_version(v1, None) > v1
    graph = _chat_graph(saver, ["sqlite reply"])
    graph.invoke({"messages": [("user", "stored through sqlite")]}, _cfg("u1", "S"))
    assert sqlite_saver.get_tuple(_cfg("u1", "S")) is not None
    assert len(list(saver.list(_cfg("u1", "S")))) == len(list(sqlite_saver.list(_cfg("u1", "S"))))
    assert [m.content for m in mm._backend.session_messages("u1", "S")] == [
        "stored through sqlite",
        "sqlite reply",
    ]
    saver.delete_thread("S")
    assert sqlite_saver.get_tuple(_cfg("u1", "S")) is None


def test_with_allowlist_keeps_wrapping(mm: MemoryManager, saver: MemoryCheckpointer) -> None:
    clone = saver.with_allowlist({("my_module", "MyType")})
    assert isinstance(clone, MemoryCheckpointer) and clone.memory is mm
    assert clone.inner is not saver.inner or clone is saver


def test_rejects_wrong_types(mm: MemoryManager) -> None:
    with pytest.raises(TypeError, match="BaseCheckpointSaver"):
        MemoryCheckpointer(object(), mm)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="MemoryManager"):
        MemoryCheckpointer(InMemorySaver(), object())  # type: ignore[arg-type]
