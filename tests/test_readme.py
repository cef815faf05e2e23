"""The README's Python snippets run as written (with the packaged model, in a temp dir)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import HumanMessage

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), flags=re.S)


def test_readme_has_snippets() -> None:
    assert len(python_blocks()) >= 2


@pytest.mark.slow
def test_readme_snippets_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks()
    ns: dict = {}
    exec(compile(blocks[0], "README.md[manager]", "exec"), ns)
    out = capsys.readouterr().out
    assert "花生" in out  # the allergy message made it into the context
    # The node snippet: run it with a scripted chat model and a fresh manager.
    from langgraph_memory import MemoryManager

    with MemoryManager(tmp_path / "node") as mm:
        ns.update(mm=mm, llm=FakeListChatModel(responses=["Noted: no peanuts."]))
        exec(compile(blocks[1], "README.md[node]", "exec"), ns)
        config = {"configurable": {"user_id": "bob", "thread_id": "t1"}}
        result = ns["agent"]({"messages": [HumanMessage("I am allergic to peanuts")]}, config)
        assert result["messages"][0].content == "Noted: no peanuts."
        mm.flush()
        hits = mm.search("bob", "peanuts", k=2)
        assert {h.text for h in hits} == {"I am allergic to peanuts", "Noted: no peanuts."}
