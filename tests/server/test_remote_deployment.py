"""``graphs/deployment.py`` (``langgraph.json``'s store and checkpointer) pointed at a
memory service by ``LANGGRAPH_MEMORY_URL`` and ``LANGGRAPH_MEMORY_API_KEY``: both factories
then keep their memory in the service, in the key's tenant, as a graph run shows."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langgraph.graph import START, MessagesState, StateGraph
from live_service import served_memory
from test_graphs import load

from langgraph_memory import MemoryCheckpointer, MemoryManager, MemoryStore, RemoteMemory

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with served_memory(tmp_path_factory.mktemp("deployment")) as served:
        yield served


def test_the_factories_go_through_the_service(
    service: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("LANGGRAPH_MEMORY_PATH", "LANGGRAPH_MEMORY_EMBEDDINGS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANGGRAPH_MEMORY_URL", service["url"])
    monkeypatch.setenv("LANGGRAPH_MEMORY_API_KEY", service["keys"].create("deploy"))
    deployment = load("graphs/deployment.py")
    mm: MemoryManager = service["mm"]

    async def run() -> None:
        async with deployment.store() as store, deployment.checkpointer() as saver:
            assert isinstance(store, MemoryStore) and isinstance(store.memory, RemoteMemory)
            assert isinstance(saver, MemoryCheckpointer) and saver.memory is store.memory
            await store.aput(("memories", "ann"), "tea", {"text": "Ann drinks green tea"})
            [hit] = await store.asearch(("memories", "ann"), query="what does Ann drink")
            assert hit.key == "tea" and hit.value == {"text": "Ann drinks green tea"}

            def reply(state: MessagesState) -> dict[str, Any]:
                return {"messages": [AIMessage("Noted: green tea.")]}

            graph = (
                StateGraph(MessagesState)
                .add_node("reply", reply)
                .add_edge(START, "reply")
                .compile(checkpointer=saver, store=store)
            )
            cfg = {"configurable": {"user_id": "ann", "thread_id": "t1"}}
            await graph.ainvoke({"messages": [("user", "I only drink green tea")]}, cfg)
            await store.memory.aio.flush(timeout=30)

    asyncio.run(run())
    # in the service's memory, in the key's tenant (nothing under the bare user id)
    item = mm.items.get(("memories", "deploy:ann"), "tea")
    assert item is not None and item.user_id == "deploy:ann"
    said = [m.content for m in mm._backend.session_messages("deploy:ann", "t1")]
    assert said == ["I only drink green tea", "Noted: green tea."]
    assert mm.stats("ann")["messages"] == 0 and mm.items.get(("memories", "ann"), "tea") is None


def test_without_the_url_the_factories_keep_the_process_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for var in ("LANGGRAPH_MEMORY_URL", "LANGGRAPH_MEMORY_PATH", "LANGGRAPH_MEMORY_EMBEDDINGS"):
        monkeypatch.delenv(var, raising=False)
    deployment = load("graphs/deployment.py")

    async def run() -> Any:
        async with deployment.store() as store:
            return store.memory

    assert isinstance(asyncio.run(run()), MemoryManager)
