"""The example graphs in ``graphs/``: loaded as ``langgraph.json`` names them, run offline.

The files are loaded by path, the way the LangGraph CLI loads them, with the scripted
offline model and an in-memory backend (no ``LANGGRAPH_MEMORY_*`` variable set).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.state import CompiledStateGraph
from scripts import load_script

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.messages import content_text
from langgraph_memory.storage import InMemoryBackend

ROOT = Path(__file__).resolve().parents[2]
ENV = ("LANGGRAPH_MEMORY_CHAT_MODEL", "LANGGRAPH_MEMORY_PATH", "LANGGRAPH_MEMORY_EMBEDDINGS")


def load(relpath: str) -> ModuleType:
    """Import a graph file by path under a fresh name (as ``langgraph dev`` does)."""
    path = ROOT / relpath
    return load_script(path, f"lgm_example_{path.stem}_{abs(hash(path))}")


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ENV:
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def memory() -> Iterator[MemoryManager]:
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        yield mm


@pytest.fixture(scope="module")
def chat() -> ModuleType:
    return load("graphs/chat.py")


@pytest.fixture(scope="module")
def ops() -> ModuleType:
    return load("graphs/ops_agent.py")


def system_text(messages: list[BaseMessage]) -> str:
    return "\n".join(content_text(m.content) for m in messages if isinstance(m, SystemMessage))


# -- langgraph.json ---------------------------------------------------------------------------
def test_langgraph_json_names_loadable_compiled_graphs() -> None:
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["dependencies"] == ["."]
    assert set(config["graphs"]) == {"chat", "ops"}
    for spec in config["graphs"].values():
        file, attr = spec.rsplit(":", 1)
        graph = getattr(load(file), attr)
        assert isinstance(graph, CompiledStateGraph)
        assert graph.checkpointer is None  # the platform brings its own


# -- the chat assistant -----------------------------------------------------------------------
def test_chat_recalls_across_threads_in_english_and_chinese(
    chat: ModuleType, memory: MemoryManager, capsys: pytest.CaptureFixture[str]
) -> None:
    support = sys.modules["_graph_support"]
    model = support.ScriptedChatModel()
    model.add_script(chat.SCRIPT)
    graph = chat.build_graph(memory, model, checkpointer=InMemorySaver())
    states = chat.run_transcript(graph, memory)

    assert [m.content for m in (s["messages"][-1] for s in states[:4])] == chat.SCRIPT
    friday_en, friday_zh, bob = model.seen[2], model.seen[3], model.seen[4]
    assert "allergic to peanuts" in system_text(friday_en)  # told on Monday, seen on Friday
    assert "成都" in system_text(friday_zh)
    assert isinstance(friday_en[0], SystemMessage)  # one system message, first
    assert sum(isinstance(m, SystemMessage) for m in friday_en) == 1
    # bob: nothing of alice reaches the model, in the prompt or in the answer
    assert "peanut" not in system_text(bob) and "成都" not in system_text(bob)
    assert states[4]["memory_context"] == ""
    assert states[4]["messages"][-1].content == (
        "I don't have anything about that in my memory yet."
    )
    assert [h.text for h in memory.search("bob", "allergic peanuts")] == ["What am I allergic to?"]
    assert memory.stats("alice")["messages"] == 8
    out = capsys.readouterr().out
    assert "alice/friday user │ 我下个月要去哪里旅行？" in out


def test_chat_runs_async(chat: ModuleType, memory: MemoryManager) -> None:
    model = sys.modules["_graph_support"].ScriptedChatModel()
    graph = chat.build_graph(memory, model)

    async def go() -> dict[str, Any]:
        cfg = {"configurable": {"user_id": "u", "thread_id": "a"}}
        await graph.ainvoke({"messages": [("user", "My dog is called Rex")]}, cfg)
        await memory.aio.flush()
        cfg = {"configurable": {"user_id": "u", "thread_id": "b"}}
        return await graph.ainvoke({"messages": [("user", "What is my dog called?")]}, cfg)

    state = asyncio.run(go())
    assert "Rex" in system_text(model.seen[-1])
    # with no script, the offline model answers from the recalled memories
    assert "My dog is called Rex" in state["messages"][-1].content


def test_chat_main_prints_a_transcript(
    chat: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    chat.main()
    out = capsys.readouterr().out
    assert out.count("assistant │") == len(chat.TRANSCRIPT)
    assert "你下个月要去成都旅行。" in out
    assert "alice's memory: 8 messages" in out


def test_chat_runs_as_a_script() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "graphs/chat.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "pack dried mango" in done.stdout


# -- the ops agent ----------------------------------------------------------------------------
def run_incident(graph: Any, n: int) -> dict[str, Any]:
    cfg = {"configurable": {"user_id": "ops", "thread_id": f"inc-{n}"}}
    return graph.invoke({"messages": [("user", f"nginx returns 502s (#{n})")]}, cfg)


def test_ops_tool_runs_become_tasks_episodes_and_knowledge(
    ops: ModuleType, memory: MemoryManager
) -> None:
    model = sys.modules["_graph_support"].ScriptedChatModel()
    infra = ops.Infrastructure()
    graph = ops.build_graph(memory, model, infra)
    made: list[list[str]] = []
    for n in range(4):
        model.add_script(ops.incident_script("nginx", n))
        infra.break_service("nginx", "out of memory")
        state = run_incident(graph, n)
        assert infra.status["nginx"] == "up"
        made.append(state["memory_maintenance"]["knowledge"])
        task = memory.tasks.get(
            "ops", memory.tasks.episodes("ops")[-1].source_ids[0].removeprefix("task:")
        )
        assert task.id == state["task_id"] and task.status == "completed"
        assert [s.tool_name for s in task.steps] == [
            "check_service",
            "read_logs",
            "restart_service",
        ]
        assert [s.status for s in task.steps] == ["completed"] * 3
        assert task.steps[1].result == "out of memory"
        tool_results = [m for m in state["messages"] if isinstance(m, ToolMessage)]
        assert [m.status for m in tool_results] == ["success"] * 3

    episodes = memory.tasks.episodes("ops")
    assert [(e.outcome, e.target, len(e.steps)) for e in episodes] == [("success", "nginx", 3)] * 4
    assert episodes[0].trigger_summary == "nginx returns 502s (#0)"
    # the third episode about nginx is consolidated into knowledge, shown to the next request
    assert [len(k) for k in made] == [0, 0, 1, 0]
    (knowledge,) = memory.tasks.knowledge("ops")
    assert knowledge.target == "nginx" and len(knowledge.source_episodes) == 3
    fourth = next(
        i for i, seen in enumerate(model.seen) if "(#3)" in content_text(seen[-1].content)
    )
    assert "runbook: nginx" in system_text(model.seen[fourth])
    assert "runbook:" not in system_text(model.seen[0])
    # the exchange is remembered too, tool calls included
    assert any(
        "called tool restart_service" in m.content for m in memory._backend.iter_messages("ops")
    )


def test_ops_failed_tool_call_is_a_failed_step(ops: ModuleType, memory: MemoryManager) -> None:
    model = sys.modules["_graph_support"].ScriptedChatModel()
    graph = ops.build_graph(memory, model)
    model.add_script(
        [
            AIMessage(
                content="",
                tool_calls=[{"name": "restart_service", "args": {"service": "mysql"}, "id": "c1"}],
            ),
            AIMessage(
                content="",
                tool_calls=[{"name": "check_service", "args": {"service": "postgres"}, "id": "c2"}],
            ),
            "There is no mysql; postgres is up.",
        ]
    )
    state = run_incident(graph, 0)
    tool_results = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert [m.status for m in tool_results] == ["error", "success"]
    assert "unknown service 'mysql'" in tool_results[0].content
    (episode,) = memory.tasks.episodes("ops")
    assert [s.status for s in episode.steps] == ["failed", "completed"]
    assert episode.outcome == "partial"
    assert episode.outcome_summary == "There is no mysql; postgres is up."


def test_ops_main_prints_a_transcript(ops: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    ops.main()
    out = capsys.readouterr().out
    assert out.count("new knowledge │") == 1
    assert "ops memory: 4 episodes, 1 knowledge" in out


# -- configuration by environment -------------------------------------------------------------
def test_memory_and_model_from_environment(
    chat: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    support = sys.modules["_graph_support"]
    with support.memory_from_env() as mm:
        assert mm._backend.name == "memory"
    monkeypatch.setenv("LANGGRAPH_MEMORY_PATH", str(tmp_path / "mem"))
    monkeypatch.setenv("LANGGRAPH_MEMORY_EMBEDDINGS", "hashing")
    with support.memory_from_env() as mm:
        mm.add_message("u", "s", "user", "hello")
        assert mm._backend.name == "sqlite"
    assert (tmp_path / "mem").is_dir()
    monkeypatch.setenv("LANGGRAPH_MEMORY_EMBEDDINGS", "word2vec")
    with pytest.raises(ValueError, match="hashing"):
        support.memory_from_env()

    assert isinstance(support.chat_model_from_env(), support.ScriptedChatModel)
    monkeypatch.setenv("LANGGRAPH_MEMORY_CHAT_MODEL", "openai:gpt-4o-mini")
    if importlib.util.find_spec("langchain") is None:
        with pytest.raises(RuntimeError, match="pip install langchain"):
            support.chat_model_from_env()
