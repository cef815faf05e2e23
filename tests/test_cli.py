"""The ``langgraph-memory`` command line, run in-process with the fast hashing embedder.

Every test calls :func:`langgraph_memory.integrations.cli.commands.main` with ``--hashing`` and a
temporary ``--path``; the one ``slow`` test runs the real ``demo`` (default
model) in a subprocess.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import pytest

from langgraph_memory import __version__
from langgraph_memory.integrations.cli.commands import DEMO_QUESTIONS, main, parse_record

ALLERGY_QUESTION = "用户对什么食物过敏？"


@pytest.fixture(autouse=True)
def _wide_plain_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wide, colourless rich output, and no memory path from the environment."""
    monkeypatch.setenv("COLUMNS", "200")
    for var in ("LANGGRAPH_MEMORY_PATH", "FORCE_COLOR", "LANGGRAPH_MEMORY_DEBUG"):
        monkeypatch.delenv(var, raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI; returns ``(exit code, stdout, stderr)``."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def demo_records() -> list[dict]:
    text = resources.files("langgraph_memory").joinpath("data/demo.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def stats(capsys: pytest.CaptureFixture[str], path: Path, user: str | None = None) -> dict:
    argv = ["stats", "--path", str(path), "--json"] + (["--user", user] if user else [])
    code, out, _ = run(capsys, *argv)
    assert code == 0
    return json.loads(out)


def write_jsonl(path: Path, records: Sequence[object]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = [
    {
        "user_id": "alice",
        "session_id": "s1",
        "role": "user",
        "message_id": "a1",
        "content": "I moved to Lyon last spring.",
        "timestamp": "2024-05-01T10:00:00",
    },
    {
        "user_id": "alice",
        "session_id": "s1",
        "role": "assistant",
        "message_id": "a2",
        "content": "Lyon is lovely in spring!",
        "timestamp": "2024-05-01T10:01:00",
    },
    {
        "user_id": "alice",
        "session_id": "s2",
        "role": "user",
        "message_id": "a3",
        "content": "My trip to Kyoto is in April.",
        "timestamp": "2024-06-01T09:00:00",
        "metadata": {"topic": "travel"},
    },
]


@pytest.fixture
def store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A memory with alice's three messages."""
    path = tmp_path / "mem"
    code, _, err = run(
        capsys,
        "ingest",
        str(write_jsonl(tmp_path / "in.jsonl", GOOD)),
        "--path",
        str(path),
        "--hashing",
    )
    assert code == 0, err
    return path


# -- the bundled demo data ---------------------------------------------------------------
def test_demo_data_is_a_bilingual_multi_session_conversation() -> None:
    records = demo_records()
    assert 40 <= len(records) <= 60
    for rec in records:
        parse_record(json.dumps(rec, ensure_ascii=False))  # every line is a valid record
    assert {r["user_id"] for r in records} == {"demo-user"}
    assert 3 <= len({r["session_id"] for r in records}) <= 4
    days = {r["session_id"]: r["timestamp"][:10] for r in records}
    assert len(set(days.values())) == len(days)  # sessions on different days
    assert {r["role"] for r in records} == {"user", "assistant"}
    ids = [r["message_id"] for r in records]
    assert len(set(ids)) == len(ids)
    assert any("我对花生过敏" in r["content"] for r in records)
    assert any("allergic to peanuts" in r["content"] for r in records)
    assert sum(1 for q in DEMO_QUESTIONS if q.isascii()) == 3


# -- demo ---------------------------------------------------------------------------------
@pytest.mark.parametrize("path_first", [True, False])
def test_demo_ingests_every_line_and_cites_the_allergy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path_first: bool
) -> None:
    path = tmp_path / "demo"
    argv = (
        ["--path", str(path), "--hashing", "demo"]
        if path_first
        else ["demo", "--path", str(path), "--hashing"]
    )
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    records = demo_records()
    peanut = next(r["message_id"] for r in records if "我对花生过敏" in r["content"])
    # every question gets a table; the Chinese allergy question cites the 花生 message
    for i, question in enumerate(DEMO_QUESTIONS, start=1):
        assert f"Q{i}: {question}" in out
    allergy_section = out.split(f"Q5: {ALLERGY_QUESTION}")[1].split("memory stats")[0]
    assert peanut in allergy_section
    assert "/300 tokens" in out and "┃ layer" in out
    # no cell (Chinese text included) is cut short: "…" only marks what the context
    # itself shortened (an anchor or profile line at this budget), never a table cell
    assert "…" not in out.split("memory stats")[-1]
    assert stats(capsys, path, "demo-user")["messages"] == len(records)
    assert stats(capsys, path)["embedded"] == len(records)

    code, out, err = run(
        capsys,
        "context",
        ALLERGY_QUESTION,
        "--user",
        "demo-user",
        "--path",
        str(path),
        "--hashing",
        "--json",
    )
    assert code == 0, err
    assert peanut in [s for item in json.loads(out)["items"] for s in item["source_ids"]]


def test_demo_is_repeatable_on_the_same_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "demo"
    for _ in range(2):
        code, out, _ = run(capsys, "demo", "--path", str(path), "--hashing", "--budget", "120")
        assert code == 0
        assert "/120 tokens" in out
    assert stats(capsys, path)["messages"] == len(demo_records())


def test_demo_without_path_uses_a_temporary_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "demo", "--hashing")
    assert code == 0
    assert "temporary directory" in out
    assert list(tmp_path.iterdir()) == []  # nothing left in the working directory


# -- ingest -------------------------------------------------------------------------------
def test_ingest_reports_bad_lines_and_keeps_good_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD[0], GOOD[1], "{not json", GOOD[2]])
    path = tmp_path / "mem"
    code, out, err = run(capsys, "ingest", str(src), "--path", str(path), "--hashing")
    assert code != 0
    assert "line 3" in err and "invalid JSON" in err
    assert "Traceback" not in err
    assert stats(capsys, path, "alice")["messages"] == 3

    code, out, err = run(
        capsys, "ingest", str(src), "--path", str(path), "--hashing", "--skip-errors"
    )
    assert code == 0
    assert "line 3" in err
    assert "3 already present" in out  # message ids make re-ingesting idempotent
    assert stats(capsys, path, "alice")["messages"] == 3


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"user_id": "u", "role": "user", "conent": "typo"}, "unknown keys"),
        ({"user_id": "u", "role": "robot", "content": "hi"}, "role"),
        ({"role": "user", "content": "hi"}, "user_id"),
        ({"user_id": "u", "role": "user", "content": "hi", "timestamp": "soon"}, "timestamp"),
        ({"user_id": "u", "role": "user", "content": "   "}, "content"),
        ('["a list"]', "JSON object"),
    ],
)
def test_ingest_validates_each_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: dict | str, message: str
) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [GOOD[0], bad])
    code, _, err = run(capsys, "ingest", str(src), "--path", str(tmp_path / "m"), "--hashing")
    assert code == 1
    assert "line 2" in err and message in err


def test_ingest_from_stdin_with_user_override(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [json.dumps({"role": "user", "content": "I prefer tea."}), ""]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines)))
    path = tmp_path / "mem"
    code, out, err = run(capsys, "ingest", "-", "--user", "bob", "--path", str(path), "--hashing")
    assert code == 0, err
    assert "<stdin>" in out
    assert stats(capsys, path, "bob")["messages"] == 1


def test_ingest_missing_file_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "ingest", str(tmp_path / "nope.jsonl"), "--hashing")
    assert code == 1
    assert "nope.jsonl" in err and "Traceback" not in err


# -- search / context ---------------------------------------------------------------------
def test_search_finds_an_ingested_message(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "search",
        "--user",
        "alice",
        "Kyoto trip",
        "--path",
        str(store),
        "--hashing",
        "-k",
        "2",
    )
    assert code == 0, err
    assert "My trip to Kyoto is in April." in out and "a3" in out
    code, out, _ = run(
        capsys,
        "--path",
        str(store),
        "--hashing",
        "search",
        "--user",
        "alice",
        "Lyon",
        "--json",
        "--filter",
        '{"topic": "travel"}',
    )
    assert code == 0
    assert [h["id"] for h in json.loads(out)] == ["a3"]  # the filter kept only a3


def test_search_never_crosses_users(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "search", "--user", "mallory", "Lyon", "--path", str(store), "--hashing", "--json"
    )
    assert code == 0
    assert json.loads(out) == []


@pytest.mark.parametrize("flt", ['{"topic": ', "[1, 2]", '{"user_id": "bob"}'])
def test_bad_filter_exits_1_with_a_message(
    store: Path, capsys: pytest.CaptureFixture[str], flt: str
) -> None:
    code, out, err = run(
        capsys,
        "search",
        "--user",
        "alice",
        "Lyon",
        "--filter",
        flt,
        "--path",
        str(store),
        "--hashing",
    )
    assert code == 1
    assert "error:" in err and "Traceback" not in err
    assert out == ""


def test_context_json_has_cited_items(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "context",
        "--user",
        "alice",
        "Where does alice live? Lyon",
        "--budget",
        "60",
        "--json",
        "--path",
        str(store),
        "--hashing",
    )
    assert code == 0, err
    ctx = json.loads(out)
    assert ctx["token_budget"] == 60 and 0 < ctx["tokens"] <= 60
    assert ctx["items"] and all(item["source_ids"] for item in ctx["items"])
    assert "a1" in [s for item in ctx["items"] for s in item["source_ids"]]


def test_context_prompt_and_explain(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "context", "--user", "alice", "Lyon", "--path", str(store), "--hashing"
    )
    assert code == 0
    assert out.startswith("Relevant memories:\n") and "- user: I moved to Lyon" in out
    assert "tokens" in err
    code, out, _ = run(
        capsys,
        "context",
        "--user",
        "alice",
        "Lyon",
        "--explain",
        "--session",
        "s2",
        "--path",
        str(store),
        "--hashing",
    )
    assert code == 0
    assert re.search(r"│ +\d+ │ short_term +│", out)  # s2's latest message rides along
    assert "a1" in out
    assert "/2000 tokens" in out


@pytest.mark.parametrize("columns", ["80", "100", "140"])
def test_tables_fit_narrow_terminals(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    for command in ("context", "search"):
        argv = [command, "--user", "alice", "Lyon", "--path", str(store), "--hashing"]
        code, out, _ = run(capsys, *argv, *(["--explain"] if command == "context" else []))
        assert code == 0
        rows = [line.rstrip() for line in out.splitlines() if line[:1] in "┏┃┡│└"]
        assert rows and all(len(row) <= int(columns) for row in rows)
        assert all(row[-1] in "┓┃┩│┘" for row in rows)  # the right border is never cropped
        assert "spring." in out


def test_commands_on_a_missing_memory_fail_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty"
    for argv in (["search", "--user", "u", "q"], ["stats"], ["delete-user", "--user", "u"]):
        code, _, err = run(capsys, *argv, "--path", str(path), "--hashing")
        assert code == 1
        assert "no memory at" in err
    assert not path.exists()  # reading never creates a store


def test_env_var_sets_the_default_path(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGGRAPH_MEMORY_PATH", str(store))
    assert stats(capsys, store)["messages"] == 3
    code, out, _ = run(capsys, "stats")
    assert code == 0 and "alice" in out


# -- delete-user --------------------------------------------------------------------------
def test_delete_user_with_yes(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "delete-user", "--user", "alice", "--yes", "--path", str(store))
    assert code == 0
    assert "deleted 3 messages" in out
    assert stats(capsys, store, "alice")["messages"] == 0
    assert stats(capsys, store)["messages"] == 0


def test_delete_user_refuses_without_yes_when_not_a_tty(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))  # even a "y" is not a confirmation
    code, _, err = run(capsys, "delete-user", "--user", "alice", "--path", str(store))
    assert code == 2
    assert "--yes" in err
    assert stats(capsys, store, "alice")["messages"] == 3


def test_failed_lists_and_requeues_quarantined_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_core.embeddings import Embeddings

    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings

    class Refuses(Embeddings):
        model_id = "hashing"

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            if any("\u2603" in t for t in texts):
                raise ValueError("input rejected")
            return HashingEmbeddings().embed_documents(texts)

        def embed_query(self, text: str) -> list[float]:
            return HashingEmbeddings().embed_query(text)

    with MemoryManager(tmp_path, embeddings=Refuses()) as mm:
        bad = mm.add_message("ann", "s1", "user", "a \u2603 in July")
        mm.add_message("bob", "s1", "user", "fine")
        mm.flush()
    path = str(tmp_path)
    code, out, _ = run(capsys, "failed", "--path", path, "--hashing")
    assert code == 0 and bad in out and "ann" in out and "input rejected" in out
    code, out, _ = run(capsys, "failed", "--user", "bob", "--json", "--path", path, "--hashing")
    assert code == 0 and json.loads(out) == []
    code, _, err = run(capsys, "failed", "--retry", "--path", path, "--hashing")
    assert code == 2 and "--user" in err
    code, out, _ = run(capsys, "failed", "--user", "ann", "--retry", "--path", path, "--hashing")
    assert code == 0 and "queued 1" in out
    code, out, _ = run(capsys, "failed", "--json", "--path", path, "--hashing")
    assert json.loads(out) == []


# -- misc ---------------------------------------------------------------------------------
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert __version__ in out


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys)[0] == 2  # no subcommand
    assert run(capsys, "search", "q")[0] == 2  # --user is required
    assert run(capsys, "context", "--user", "u", "q", "--json", "--explain")[0] == 2


def test_bad_budget_is_a_clean_error(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys,
        "context",
        "--user",
        "alice",
        "q",
        "--budget",
        "0",
        "--path",
        str(store),
        "--hashing",
    )
    assert code == 1
    assert "token_budget" in err


@pytest.mark.slow
def test_real_demo_with_the_default_model(tmp_path: Path) -> None:
    env = os.environ | {"COLUMNS": "200", "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "langgraph_memory.integrations.cli.commands",
            "demo",
            "--path",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "┃ layer" in proc.stdout and "tokens" in proc.stdout
    assert ALLERGY_QUESTION in proc.stdout
    assert "Traceback" not in proc.stderr


def test_scores_read_as_relevance_and_raw_parts_only_with_explain(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    argv = ["search", "--user", "alice", "Lyon", "--path", str(store), "--hashing"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "relevance" in out
    # the best hit (it has the query's one word) reads as clearly relevant, with its layer
    best = re.search(r"│ +1 │ +(\d+) │ message │", out)
    assert best and 60 <= int(best.group(1)) <= 100, out
    assert not re.search(r"bm25|rrf|cos=|0\.0\d{3}", out)  # no raw numbers or internal names
    code, out, _ = run(capsys, *argv, "--explain")
    assert code == 0 and "score=" in out and "bm25#" in out
    code, out, _ = run(
        capsys, "context", "--user", "alice", "Lyon", "--explain", "--path", str(store), "--hashing"
    )
    assert code == 0 and "relevance" in out and "score=" in out


def test_stats_is_a_short_table(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--user", "alice", "--path", str(store), "--hashing")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert 5 <= len(rows) <= 10, out
    assert re.search(r"messages +│ 3 \(3 embedded, 0 pending\)", out)
    assert "profile entries" in out and "{" not in out


def test_without_rich_the_command_line_says_which_extra() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['rich'] = None; import langgraph_memory.integrations.cli.commands"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 1
    assert "pip install 'langgraph-memory[cli]'" in out.stderr
    # the library itself does not need it
    lib = "import sys; sys.modules['rich'] = None; from langgraph_memory import MemoryManager"
    assert subprocess.run([sys.executable, "-c", lib], capture_output=True).returncode == 0
