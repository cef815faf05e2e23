"""The README's Python snippets run in order, as one script, as written (with the
packaged model, in a temp dir)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), flags=re.S)


def test_readme_has_snippets() -> None:
    assert len(python_blocks()) >= 7


@pytest.mark.slow
def test_readme_snippets_run_in_order_as_one_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    prompts: list[list[Any]] = []
    original = FakeListChatModel._call

    def recording(self: FakeListChatModel, messages: list[Any], *a: Any, **kw: Any) -> str:
        prompts.append(list(messages))
        return original(self, messages, *a, **kw)

    monkeypatch.setattr(FakeListChatModel, "_call", recording)
    script = "\n".join(python_blocks())
    exec(compile(script, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert "花生" in out  # the allergy message made it into the first context
    assert "peanuts" in out  # the agent's second thread recalled the first one's fact
    assert "My sister Clara lives in Berlin" in out  # captured by the checkpointer
    assert "Alice is vegetarian" in out  # MemoryStore
    assert "passport expires in May 2031" in out  # archival insert, then search
    assert "Prefers short answers." in out  # core block
    assert "27 days of paid leave" in out  # a shared document's chunk, found for alice
    # every model call read at most one system message, first
    assert prompts
    for prompt in prompts:
        kinds = [m.type for m in prompt]
        assert kinds.count("system") <= 1 and ("system" not in kinds or kinds[0] == "system")
    assert any("peanuts" in str(p[0].content) for p in prompts if p[0].type == "system")
