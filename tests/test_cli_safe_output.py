"""The command line never lets stored text drive the terminal.

A store is seeded with hostile text (OSC title and clipboard writes, CSI sequences, C1
controls, bidi overrides, backspaces and carriage returns, rich markup) in every field
the commands print: content, speaker names, user, session and message ids, metadata,
documents, quarantine errors, file names. Every command that prints is run over it,
and its output holds no control character but newlines (the escapes show instead);
on a forced terminal the only escape sequences are rich's own styles; JSON output
reads back exactly what was stored. See ``langgraph_memory.integrations.cli.terminal``.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.table import Table
from rich.text import Text

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.cli.commands import DEMO_USER, main
from langgraph_memory.integrations.cli.terminal import (
    UNSAFE,
    SafeConsole,
    escape_controls,
    escape_text,
    json_text,
)

TITLE = "\x1b]0;pwned\x07"  # OSC 0: set the window title
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"  # OSC 52: write the clipboard
CSI = "\x1b[2J\x1b[H"  # clear the screen, cursor home
C1 = "\x9b31m\x9d0;t\x9c"  # 8-bit CSI and OSC ... ST
BIDI = "\u202eevil\u202c \u2066iso\u2069 \u200f\u061c"
HOSTILE = (
    f"peanut allergy {TITLE}{CLIPBOARD}{CSI} 我对花生过敏 {C1} {BIDI} "
    "back\bspace car\rriage del\x7f vt\x0bff\x0c bell\x07 sep\u2028 "
    "[link=https://evil.example]click[/link] [bold]loud[/] :smile: café"
)
#: Ids refuse C0 controls and DEL, not C1 controls nor bidi overrides.
EVE = "eve\u202e\x9b2J"
SESSION = "s\x9d0;t\x9c1"
SPEAKER = "bob\u202e"
MESSAGE_ID = "m\x9b1"
DOC_ID = "doc\u202e\x9b"
#: Every control character a terminal acts on, but the ANSI styles rich itself emits.
SGR = re.compile(r"\x1b\[[0-9;]*m")


class Refuses(HashingEmbeddings):
    """Quarantines (refuses to embed) the messages holding a snowman, with a hostile error."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if any("\u2603" in t for t in texts):
            raise ValueError(f"input rejected {TITLE}{CSI}\u202e")
        return super().embed_documents(texts)


@pytest.fixture(autouse=True)
def _plain_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    for var in ("LANGGRAPH_MEMORY_PATH", "FORCE_COLOR", "LANGGRAPH_MEMORY_DEBUG", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store whose every printed field holds hostile text (made once: commands only read)."""
    path = tmp_path_factory.mktemp("hostile")
    with MemoryManager(path, embeddings=Refuses()) as mm:
        for user in (EVE, DEMO_USER):
            mm.add_message(
                user, SESSION, "user", HOSTILE, name=SPEAKER,
                message_id=MESSAGE_ID, metadata={"topic": HOSTILE},
            )  # fmt: skip
            mm.add_turn(user, SESSION, user=f"I drink tea {TITLE}", assistant=f"Noted {CSI}")
        mm.add_message(EVE, SESSION, "user", f"a \u2603 in July {CLIPBOARD}")  # quarantined
        mm.anchors.add(EVE, f"Answer in French {TITLE}")
        doc = f"# Parking {TITLE}\nVisitors park on level two {CSI}."
        mm.documents.add(EVE, doc, document_id=DOC_ID)
        mm.flush()
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--hashing"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_safe(text: str, *, styles: bool = False) -> None:
    """No character a terminal acts on (``styles``: but rich's own SGR sequences)."""
    bare = SGR.sub("", text) if styles else text
    found = UNSAFE.search(bare)
    if found is not None:
        around = bare[max(0, found.start() - 60) : found.end() + 20]
        pytest.fail(f"raw {found.group()!r} in the output: {around!r}")


SHOWS_STORED = [
    ["search", "peanut allergy", "--user", EVE],
    ["search", "peanut allergy", "--user", EVE, "--explain"],
    ["context", "peanut allergy", "--user", EVE],
    ["context", "peanut allergy", "--user", EVE, "--explain", "--session", SESSION],
    ["failed"],
]
SHOWS_IDS = [["stats"], ["stats", "--user", EVE], ["verify"]]


def _name(argv: list[str]) -> str:
    return " ".join(argv[:1] + argv[4:5])


@pytest.mark.parametrize("columns", ["80", "200"])
@pytest.mark.parametrize("argv", SHOWS_STORED + SHOWS_IDS, ids=_name)
def test_every_command_shows_control_characters_instead_of_sending_them(
    hostile_store: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    columns: str,
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    code, out, err = run(capsys, *argv, "--path", str(hostile_store))
    assert code == 0, err
    assert_safe(out + err)
    if argv in SHOWS_STORED:
        assert "\\x1b]0;pwned" in out  # shown, escaped
    if argv[0] in ("search", "context") and columns == "200":  # 80: folded over lines
        assert "我对花生过敏" in out and "café" in out  # printable Unicode unchanged
        assert "\\u202e" in out  # the override shows, text is not reversed
        assert "[link=https://evil.example]click[/link]" in out  # markup stays text
        assert ":smile:" in out
    if argv[0] == "stats" and "--user" not in argv:
        assert "eve\\u202e\\x9b2J" in out  # the per-user table


@pytest.mark.parametrize("argv", [*SHOWS_STORED[:4], ["stats"]], ids=_name)
def test_on_a_terminal_only_rich_styles_are_sent(
    hostile_store: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    code, out, err = run(capsys, *argv, "--path", str(hostile_store))
    assert code == 0, err
    assert SGR.search(out + err)  # styled: this really is the terminal path
    assert_safe(out + err, styles=True)
    assert "\x1b]8;" not in out  # no hyperlink from the stored [link=...] markup


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "peanut allergy", "--user", EVE, "--layers", "message", "--json"],
        ["context", "peanut allergy", "--user", EVE, "--json"],
        ["stats", "--json"],
        ["failed", "--json"],
    ],
    ids=lambda a: a[0],
)
def test_json_is_escaped_and_reads_back_what_was_stored(
    hostile_store: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv, "--path", str(hostile_store))
    assert code == 0, err
    assert_safe(out + err)
    data = json.loads(out)
    text = json.dumps(data, ensure_ascii=False)
    if argv[0] == "search":
        found = [h for h in data if h["id"] == MESSAGE_ID]
        assert found, [(h["id"], h["layer"]) for h in data]
        hit = found[0]
        assert hit["text"] == HOSTILE and hit["name"] == SPEAKER
        assert hit["session_id"] == SESSION and hit["metadata"]["topic"] == HOSTILE
    elif argv[0] == "context":
        assert any(HOSTILE in item["text"] for item in data["items"])
    elif argv[0] == "stats":
        assert EVE in [row["user"] for row in data["per_user"]]
    else:
        assert TITLE in data[0]["error"] and data[0]["user_id"] == EVE
        assert text.count("\u202e") >= 2  # read back as the character itself


def test_demo_ingest_add_doc_backup_and_delete_user_print_safely(
    hostile_store: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "copy"
    code, out, err = run(capsys, "backup", str(path), "--path", str(hostile_store))
    assert code == 0 and "backed up" in out, err
    assert_safe(out + err)
    # the demo shows the (hostile) memories of its user beside its own conversation
    code, out, err = run(capsys, "demo", "--path", str(path), "--budget", "400")
    assert code == 0, err
    assert_safe(out + err)
    assert "\\x1b]0;pwned" in out and "用户对什么食物过敏？" in out
    # a hostile file name, a hostile bad line, a hostile record
    source = tmp_path / f"in{TITLE}.jsonl"
    good = {"user_id": EVE, "role": "user", "content": HOSTILE, "session_id": SESSION}
    bad = {"user_id": EVE, "role": "user", "content": "x", TITLE: 1}
    source.write_text(
        json.dumps(good, ensure_ascii=False) + "\n" + json.dumps(bad) + "\n", encoding="utf-8"
    )
    code, out, err = run(capsys, "ingest", str(source), "--path", str(path))
    assert code == 1  # the bad line
    assert_safe(out + err)
    assert "line 2" in err and "\\x1b]0;pwned" in err and "\\x1b]0;pwned" in out
    # a document id may hold a bidi override (shown); one holding CSI is refused (shown)
    docs = [tmp_path / f"notes{CSI}.md", tmp_path / "boiler\u202e\x9b.md"]
    for doc in docs:
        doc.write_text(f"# Boiler {TITLE}\nHold the reset button.\n", encoding="utf-8")
    code, out, err = run(capsys, "add-doc", *map(str, docs), "--user", EVE, "--path", str(path))
    assert code == 1
    assert_safe(out + err)
    assert "notes\\x1b[2J" in err and "boiler\\u202e\\x9b" in out
    code, out, err = run(capsys, "delete-user", "--user", EVE, "--yes", "--path", str(path))
    assert code == 0 and "deleted" in out, err
    assert_safe(out + err)


def test_escaping_keeps_layout_and_printable_text() -> None:
    assert escape_controls("行1\n\tcafé ✓ 🙂") == "行1\n\tcafé ✓ 🙂"
    assert escape_controls(TITLE) == "\\x1b]0;pwned\\x07"
    assert escape_controls("\x9b\u202e\u2028") == "\\x9b\\u202e\\u2028"
    styled = escape_text(Text.assemble("a", (f"{CSI}b", "red"), "c"))
    assert styled.plain == "a\\x1b[2J\\x1b[Hbc"
    assert [(s.start, s.end, str(s.style)) for s in styled.spans] == [(1, 15, "red")]
    assert json.loads(json_text({"t": HOSTILE})) == {"t": HOSTILE}
    assert UNSAFE.search(json_text({"t": HOSTILE})) is None


def test_the_console_escapes_whatever_it_renders() -> None:
    file = io.StringIO()
    console = SafeConsole(file=file, width=60, force_terminal=True, color_system="standard")
    table = Table(title=Text(f"title {TITLE}"))
    table.add_column("text", overflow="fold")
    table.add_row(Text(HOSTILE, style="bold"))
    table.add_row(f"str {CLIPBOARD} [red]x[/]")
    console.print(table)
    console.print(f"plain {CSI}", Text(f"text {C1}"))
    console.rule(f"rule {BIDI}")
    output = file.getvalue()
    assert_safe(output, styles=True)
    assert "[red]x[/]" in output and "\\x1b]52;c;" in output and "\\x9b31m" in output


def test_library_warnings_are_printed_on_the_console_while_a_command_runs(
    hostile_store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import logging

    def warn(self: MemoryManager, user_id: str | None = None) -> dict:
        logging.getLogger("langgraph_memory.read").warning("odd record %s", HOSTILE)
        return {"messages": 0, "users": 0}

    monkeypatch.setattr(MemoryManager, "stats", warn)
    code, out, err = run(capsys, "stats", "--json", "--user", EVE, "--path", str(hostile_store))
    assert code == 0 and "odd record peanut allergy \\x1b]0;pwned" in err
    assert_safe(out + err)
    assert not logging.getLogger("langgraph_memory").handlers  # removed after the command
