"""The README's Python snippets run in order, as one script, as written (with the
packaged model, in a temp dir): every ```python block, the one that attaches a
langchain-postgres vector store included, against the embedded PostgreSQL (its
connection string is the only text replaced)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pg_server
import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

README = Path(__file__).resolve().parents[1] / "README.md"


#: The connection string the README's vector-store block names.
README_PG_URL = "postgresql+psycopg://app@db:5432/kb"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), flags=re.S)


def test_readme_has_snippets() -> None:
    text = README.read_text("utf-8")
    assert len(python_blocks()) >= 9
    assert "```py\n" not in text  # every Python block runs here
    assert sum(README_PG_URL in b for b in python_blocks()) == 1


@pytest.mark.slow
def test_readme_snippets_run_in_order_as_one_script(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pg_databases: pg_server.TestDatabases,
) -> None:
    from psycopg.conninfo import conninfo_to_dict

    d = conninfo_to_dict(pg_databases.new_database(empty=True))
    url = f"postgresql+psycopg://{d['user']}@{d['host']}:{d['port']}/{d['dbname']}"
    monkeypatch.chdir(tmp_path)
    prompts: list[list[Any]] = []
    original = FakeListChatModel._call

    def recording(self: FakeListChatModel, messages: list[Any], *a: Any, **kw: Any) -> str:
        prompts.append(list(messages))
        return original(self, messages, *a, **kw)

    monkeypatch.setattr(FakeListChatModel, "_call", recording)
    script = "\n".join(python_blocks()).replace(README_PG_URL, url)
    exec(compile(script, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert "花生" in out  # the allergy message made it into the first context
    assert "peanuts" in out  # the agent's second thread recalled the first one's fact
    assert "My sister Clara lives in Berlin" in out  # captured by the checkpointer
    assert "Alice is vegetarian" in out  # MemoryStore
    assert "passport expires in May 2031" in out  # archival insert, then search
    assert "Prefers short answers." in out  # core block
    assert "27 days of paid leave" in out  # a shared document's chunk, found for alice
    assert "via handbook" in out and "Security page" in out  # the attached PGVectorStore
    assert "taxi booked" in out or "7:40" in out  # the async manager's context
    # every model call read at most one system message, first
    assert prompts
    for prompt in prompts:
        kinds = [m.type for m in prompt]
        assert kinds.count("system") <= 1 and ("system" not in kinds or kinds[0] == "system")
    assert any("peanuts" in str(p[0].content) for p in prompts if p[0].type == "system")
