"""``langgraph-memory add-doc``: files into semantic memory, then found by search."""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.cli.commands import main


@pytest.fixture(autouse=True)
def _wide_plain_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    for var in ("LANGGRAPH_MEMORY_PATH", "FORCE_COLOR", "LANGGRAPH_MEMORY_DEBUG"):
        monkeypatch.delenv(var, raising=False)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_add_doc_adds_shared_and_user_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mem = tmp_path / "mem"
    a = tmp_path / "a.md"
    a.write_text("# Boiler\n## Reset\nHold the red reset button for ten seconds.\n")
    b = tmp_path / "b.md"
    b.write_text("# Garden\nWater the lemon tree every Sunday.\n")
    code, out, _ = _run(capsys, "--path", str(mem), "--hashing", "add-doc", str(a), str(b))
    assert code == 0, out
    assert "documents added" in out and "2 chunks" in out
    code, out, _ = _run(
        capsys, "--path", str(mem), "--hashing", "add-doc", str(a), "--user", "ann",
        "--id", "boiler", "--version", "2.1",
    )  # fmt: skip
    assert code == 0 and "boiler" in out and "2.1" in out
    with MemoryManager(mem, embeddings=HashingEmbeddings()) as mm:
        assert sorted(d.document_id for d in mm.documents.list(None)) == [str(a), str(b)]
        assert [(d.document_id, d.version) for d in mm.documents.list("ann")] == [("boiler", "2.1")]
        hit = mm.search("bob", "reset button boiler", k=1, layers=["document"])[0]
        assert "§ Boiler > Reset, v1]" in hit.text


def test_add_doc_reports_bad_files_and_keeps_the_good(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mem = tmp_path / "mem"
    good = tmp_path / "good.md"
    good.write_text("# Good\nThis one is fine.\n")
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"\x00\xff" * 64)
    empty = tmp_path / "empty.md"
    empty.write_text("# Just a heading\n")
    argv = ["--path", str(mem), "--hashing", "add-doc", str(good), str(blob), str(empty)]
    code, out, err = _run(capsys, *argv)
    assert code == 1
    assert "blob.bin" in err and "binary" in err
    assert "empty.md" in err and "no text under its headings" in err
    code, _, err = _run(capsys, *argv[:4], str(good), str(blob), "--id", "x")
    assert code == 1 and "--id names one document" in err
    with MemoryManager(mem, embeddings=HashingEmbeddings()) as mm:
        assert [d.document_id for d in mm.documents.list(None)] == [str(good)]
