"""The README's Python snippets run as written (with the packaged model, in a temp dir)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), flags=re.S)


def test_readme_has_snippets() -> None:
    assert len(python_blocks()) >= 7


@pytest.mark.slow
def test_readme_snippets_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks()
    ns: dict = {}
    exec(compile(blocks[0], "README.md[manager]", "exec"), ns)
    out = capsys.readouterr().out
    assert "花生" in out  # the allergy message made it into the context
    # The agent snippet: create_agent with MemoryMiddleware and a scripted model.
    agent_model = RecordingModel(responses=["Noted.", "Pretzels are safe."])
    ns["model"] = agent_model
    exec(compile(blocks[1], "README.md[agent]", "exec"), ns)
    assert "peanuts" in capsys.readouterr().out
    prompt = agent_model.seen[-1]
    assert [m.type for m in prompt].count("system") == 1 and prompt[0].type == "system"
    assert "peanuts" in prompt[0].content and "helpful assistant" in prompt[0].content
    ns["mm"].close()
    blocks = blocks[:1] + blocks[2:]
    # The graph snippet: the user's node calls a scripted chat model.
    from langgraph_memory import MemoryManager

    with MemoryManager(tmp_path / "graph") as mm:
        llm = RecordingModel(responses=["Noted: no peanuts.", "You are allergic to peanuts."])
        ns.update(mm=mm, llm=llm)
        exec(compile(blocks[1], "README.md[graph]", "exec"), ns)
        mm.flush()
        graph = ns["graph"]
        out = graph.invoke(
            {"messages": [("user", "What am I allergic to?")]},
            {"configurable": {"user_id": "alice", "thread_id": "t2"}},
        )
        assert "peanuts" in out["memory_context"]  # recalled from thread t1
        assert any("peanuts" in str(m.content) for m in llm.seen[-1])
        # The checkpointer and store snippets, then the retriever and tools snippets.
        exec(compile(blocks[2], "README.md[checkpointer]", "exec"), ns)
        exec(compile(blocks[3], "README.md[store]", "exec"), ns)
        exec(compile(blocks[4], "README.md[retriever]", "exec"), ns)
        docs = ns["docs"]
        assert docs and all(d.metadata["source_ids"] for d in docs)
        assert any("peanuts" in d.page_content for d in docs)
        exec(compile(blocks[5], "README.md[tools]", "exec"), ns)
        exec(compile(blocks[6], "README.md[documents]", "exec"), ns)
        out = capsys.readouterr().out
        assert "[doc: Handbook § Handbook > Holidays, v1.0]\nStaff get 27 days" in out
        assert "[('handbook', '1.0', 1)]" in out
        assert "My sister Clara lives in Berlin" in out
        assert "Alice is vegetarian" in out
        assert "peanuts" in out and "Prefers short answers." in out


class RecordingModel(FakeListChatModel):
    """A scripted chat model that keeps the messages it was given."""

    seen: list = []

    def bind_tools(self, tools, **kwargs):  # type: ignore[override]
        return self

    def _call(self, messages, stop=None, run_manager=None, **kwargs):  # type: ignore[override]
        self.seen.append(list(messages))
        return super()._call(messages, stop, run_manager, **kwargs)
