"""What ``MemoryStore`` adds beyond ``InMemoryStore``: persistence, scoping, TTL, agents.

TTL cases are ported from ``langgraph-checkpoint-sqlite`` 3.1.2 ``tests/test_ttl.py``
(InMemoryStore has no TTL) with shorter times.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.prebuilt import create_react_agent

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.store import STORE_KIND, MemoryStore, store_scope
from langgraph_memory.integrations.graph.store_tools import (
    create_manage_memory_tool,
    create_search_memory_tool,
)
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend

TTL = 0.4 / 60  # 0.4 s, in minutes


@pytest.fixture(params=["memory", "sqlite"])
def mm(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryManager]:
    backend = InMemoryBackend() if request.param == "memory" else SQLiteBackend(tmp_path / "m")
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as manager:
        yield manager


def test_items_survive_a_restart_on_sqlite(tmp_path: Path) -> None:
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as mm:
        store = MemoryStore(mm)
        store.put(("memories", "alice"), "k1", {"text": "Alice is allergic to peanuts"})
        store.put(("memories", "alice"), "k2", {"text": "Alice lives in Lyon"}, ttl=60)
        first = store.get(("memories", "alice"), "k1")
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as mm:
        store = MemoryStore(mm)
        again = store.get(("memories", "alice"), "k1")
        assert again == first and again is not None and again.created_at == first.created_at
        hits = store.search(("memories",), query="peanut allergy")
        # (the hashing embedder is a toy: its cosines are not the model's calibration)
        assert hits[0].key == "k1" and hits[0].score > hits[1].score
        assert store.list_namespaces() == [("memories", "alice")]


def test_items_are_records_of_their_owner_or_of_a_reserved_scope(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    store.put(("memories", "alice"), "k", {"text": "a private note about tea"})
    store.put(("notes",), "k", {"text": "a shared note about tea"})
    mm.add_message("alice", "s1", "user", "I drink coffee")
    mm.flush()
    shared, owned = sorted(mm._backend.list_records(STORE_KIND), key=lambda r: r.user_id)
    assert owned.user_id == "alice" and json.loads(owned.id) == ["memories", "alice", "k"]
    assert shared.user_id == store_scope("notes") and "\x1f" in shared.user_id
    # The user's memory never shows store items, and the store never shows messages.
    assert all("tea" not in h.text for h in mm.search("alice", "tea note", k=10))
    assert [i.key for i in store.search(("memories", "alice"), query="coffee")] == ["k"]
    assert mm.stats("alice")["messages"] == 1


def test_created_at_is_kept_on_update(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    store.put(("n",), "k", {"v": 1})
    first = store.get(("n",), "k")
    time.sleep(0.01)
    store.put(("n",), "k", {"v": 2})
    second = store.get(("n",), "k")
    assert first is not None and second is not None
    assert second.created_at == first.created_at and second.updated_at > first.updated_at


def test_dims_are_checked(mm: MemoryManager) -> None:
    store = MemoryStore(mm, index={"dims": 3})
    with pytest.raises(ValueError, match="index\\['dims'\\]"):
        store.put(("n",), "k", {"text": "hello"})
    assert store.get(("n",), "k") is None


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
def test_a_value_without_a_json_form_is_refused_and_nothing_changes(
    mm: MemoryManager, bad: float
) -> None:
    store = MemoryStore(mm)
    store.put(("n",), "k", {"score": 1.5})
    with pytest.raises(ValueError, match="value.*NaN or infinite"):
        store.put(("n",), "k", {"score": bad})
    with pytest.raises(ValueError, match="value.*NaN or infinite"):
        store.put(("n",), "k2", {"meta": {"": bad}})
    got = store.get(("n",), "k")
    assert got is not None and got.value == {"score": 1.5}
    assert store.get(("n",), "k2") is None


def test_unknown_filter_operator_is_refused(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    store.put(("n",), "k", {"v": 1})
    with pytest.raises(ValueError, match="Unsupported operator"):
        store.search(("n",), filter={"v": {"$regex": "x"}})


# -- TTL ---------------------------------------------------------------------------------------
def test_ttl_basic_and_refresh(mm: MemoryManager) -> None:
    # 1 s and half of it between steps: a loaded machine's pauses stay well inside
    store = MemoryStore(mm, ttl={"default_ttl": 2.5 * TTL, "refresh_on_read": True})
    store.put(("t",), "item", {"value": "x"})
    time.sleep(0.5)
    assert store.sweep_ttl() == 0
    assert store.get(("t",), "item") is not None  # refreshes the TTL
    time.sleep(0.5)
    assert store.sweep_ttl() == 0
    assert store.search(("t",), refresh_ttl=False)[0].key == "item"
    time.sleep(1.2)
    assert store.sweep_ttl() == 1
    assert store.get(("t",), "item") is None


def test_ttl_custom_and_override(mm: MemoryManager) -> None:
    store = MemoryStore(mm, ttl={"default_ttl": 3 * TTL, "refresh_on_read": False})
    store.put(("t",), "short", {"v": 1}, ttl=TTL)
    store.put(("t",), "default", {"v": 2})
    store.put(("t",), "forever", {"v": 3}, ttl=None)
    time.sleep(0.6)
    assert store.sweep_ttl() == 1
    assert [i.key for i in store.search(("t",))] == ["default", "forever"]
    time.sleep(0.8)
    assert store.sweep_ttl() == 1
    assert [i.key for i in store.search(("t",))] == ["forever"]


def test_expired_items_stay_until_swept_unless_omitted(mm: MemoryManager) -> None:
    keep = MemoryStore(mm, ttl={"refresh_on_read": False})
    omit = MemoryStore(mm, ttl={"omit_expired": True})
    keep.put(("t",), "k", {"value": "apple"}, ttl=TTL)
    time.sleep(0.5)
    assert keep.get(("t",), "k") is not None
    assert omit.get(("t",), "k") is None
    assert omit.search(("t",), filter={"value": "apple"}) == []
    assert omit.list_namespaces() == []
    assert keep.sweep_ttl() == 1 and keep.get(("t",), "k") is None


def test_ttl_sweeper_thread(mm: MemoryManager) -> None:
    with MemoryStore(mm, ttl={"default_ttl": TTL, "sweep_interval_minutes": 0.1 / 60}) as store:
        store.start_ttl_sweeper()
        store.put(("t",), "k", {"v": 1})
        store.put(("t",), "kept", {"v": 2}, ttl=None)
        deadline = time.monotonic() + 5
        while store.get(("t",), "k", refresh_ttl=False) is not None:
            assert time.monotonic() < deadline, "the sweeper never removed the item"
            time.sleep(0.1)
        assert store.get(("t",), "kept") is not None
        assert store.stop_ttl_sweeper(timeout=5)


@pytest.mark.asyncio
async def test_async_ttl(mm: MemoryManager) -> None:
    store = MemoryStore(mm, ttl={"default_ttl": TTL})
    await store.aput(("t",), "k", {"value": "apple"})
    assert [i.key for i in await store.asearch(("t",), query="apple")] == ["k"]
    time.sleep(0.5)
    assert await store.asweep_ttl() == 1
    assert await store.aget(("t",), "k") is None


# -- tools and agents --------------------------------------------------------------------------
class ScriptedChat(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChat:  # type: ignore[override]
        return self


def test_manage_and_search_tools(mm: MemoryManager) -> None:
    store = MemoryStore(mm)
    manage = create_manage_memory_tool(store=store)
    search = create_search_memory_tool(store=store)
    cfg = {"configurable": {"user_id": "alice"}}
    created = manage.invoke({"content": "Alice prefers green tea", "id": "m1"}, cfg)
    assert created == "Created memory m1"
    manage.invoke({"content": "Alice lives in Lyon"}, cfg)
    found = json.loads(search.invoke({"query": "which tea", "limit": 1}, cfg))
    assert [(f["id"], f["value"]) for f in found] == [
        ("m1", {"content": "Alice prefers green tea"})
    ]
    manage.invoke({"action": "update", "id": "m1", "content": "Alice prefers black tea"}, cfg)
    assert store.get(("memories", "alice"), "m1").value["content"].endswith("black tea")  # type: ignore[union-attr]
    assert json.loads(search.invoke({"query": "tea"}, {"configurable": {"user_id": "bob"}})) == []
    manage.invoke({"action": "delete", "id": "m1"}, cfg)
    assert store.get(("memories", "alice"), "m1") is None
    with pytest.raises(ValueError, match="user_id"):
        search.invoke({"query": "tea"}, {"configurable": {}})


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_react_agent_with_memory_store(mm: MemoryManager) -> None:
    """``create_react_agent(model, tools, store=MemoryStore(...))``: a fact saved in one
    thread is found in another thread of the same user, never by another user."""
    store = MemoryStore(mm)
    tools = [create_manage_memory_tool(), create_search_memory_tool()]

    def call(name: str, args: dict[str, Any], cid: str) -> AIMessage:
        return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": cid}])

    model = ScriptedChat(
        messages=iter(
            [
                call("manage_memory", {"content": "User is allergic to peanuts"}, "c1"),
                AIMessage(content="I'll remember that."),
                call("search_memory", {"query": "peanut allergy"}, "c2"),
                AIMessage(content="You are allergic to peanuts."),
                call("search_memory", {"query": "peanut allergy"}, "c3"),
                AIMessage(content="I know nothing about you."),
            ]
        )
    )
    agent = create_react_agent(model, tools, store=store)
    agent.invoke(
        {"messages": [("user", "I'm allergic to peanuts")]},
        {"configurable": {"user_id": "u1", "thread_id": "A"}},
    )
    out = agent.invoke(
        {"messages": [("user", "What am I allergic to?")]},
        {"configurable": {"user_id": "u1", "thread_id": "B"}},
    )
    result = next(m for m in out["messages"] if isinstance(m, ToolMessage))
    assert json.loads(str(result.content))[0]["value"] == {"content": "User is allergic to peanuts"}
    other = agent.invoke(
        {"messages": [("user", "What am I allergic to?")]},
        {"configurable": {"user_id": "u2", "thread_id": "C"}},
    )
    result = next(m for m in other["messages"] if isinstance(m, ToolMessage))
    assert json.loads(str(result.content)) == []
    assert store.list_namespaces() == [("memories", "u1")]


@pytest.mark.asyncio
@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
async def test_react_agent_async(mm: MemoryManager) -> None:
    model = ScriptedChat(
        messages=iter(
            [
                AIMessage(
                    content="",
                    tool_calls=[
                        {"name": "manage_memory", "args": {"content": "likes jazz"}, "id": "c"}
                    ],
                ),
                AIMessage(content="Noted."),
            ]
        )
    )
    store = MemoryStore(mm)
    agent = create_react_agent(model, [create_manage_memory_tool()], store=store)
    await agent.ainvoke(
        {"messages": [("user", "I like jazz")]}, {"configurable": {"user_id": "u1"}}
    )
    [item] = await store.asearch(("memories", "u1"), query="jazz")
    assert item.value == {"content": "likes jazz"}
