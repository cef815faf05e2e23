"""Encryption at rest: a SQLite store written through SQLCipher holds no plaintext on
disk (file, write-ahead log, backups), and opens only with its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

pytest.importorskip("sqlcipher3")

KEY = "correct horse battery staple"
SAID = [
    "My sister Maria lives in Lyon and loves the opera.",
    "Email me at maria.rossi@example.com or call +33 6 12 34 56 78.",
    "The deploy key is sk-proj-abc123def456ghi789jkl012mno345pqr678.",
    "我对花生过敏，住在上海浦东。",
]
WORDS = [b"Maria", b"Lyon", b"opera", b"example.com", b"sk-proj", "花生".encode(), b"deploy"]


def _disk(path: Path) -> bytes:
    return b"".join(f.read_bytes() for f in sorted(path.rglob("*")) if f.is_file())


def _write(path: Path, key: str | None, **cfg: object) -> None:
    config = MemoryConfig.flat(sensitivity="allow", **cfg)  # type: ignore[arg-type]
    with MemoryManager(
        path, embeddings=HashingEmbeddings(), config=config, encryption_key=key
    ) as mm:
        for text in SAID:
            mm.add_turn("ann", "s1", user=text, assistant="Noted.")
        mm.flush()


def test_an_encrypted_store_holds_no_plaintext_on_disk(tmp_path: Path) -> None:
    plain, secret = tmp_path / "plain", tmp_path / "secret"
    _write(plain, None)
    _write(secret, KEY)
    assert all(w in _disk(plain) for w in WORDS)  # the check can see plaintext
    assert not any(w in _disk(secret) for w in WORDS)
    with MemoryManager(secret, embeddings=HashingEmbeddings(), encryption_key=KEY) as mm:
        assert mm.stats("ann")["messages"] == 8
        assert "Lyon" in mm.search("ann", "where does Maria live", k=1)[0].text
        # written while open (the write-ahead log is encrypted too)
        mm.add_message("ann", "s2", "user", "The gate code is zebrafish-77.")
        mm.flush()
        assert b"zebrafish" not in _disk(secret)
        copy = mm.backup(tmp_path / "backups")
        assert mm.delete("ann", mm.search("ann", "gate code zebrafish", k=1)[0].id) == 1
    assert not any(w in _disk(tmp_path / "backups") for w in [*WORDS, b"zebrafish"])
    with MemoryManager(copy, embeddings=HashingEmbeddings(), encryption_key=KEY) as mm:
        assert mm.stats("ann")["messages"] == 9


def test_an_encrypted_store_needs_its_key(tmp_path: Path, monkeypatch) -> None:
    _write(tmp_path, KEY)
    for key in ("wrong key", None):
        with pytest.raises(ValueError, match="cannot read") as err:
            MemoryManager(tmp_path, embeddings=HashingEmbeddings(), encryption_key=key)
        assert KEY not in str(err.value) and "battery" not in str(err.value)
    monkeypatch.setenv("LANGGRAPH_MEMORY_KEY", KEY)
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        assert mm.stats("ann")["messages"] == 8
    monkeypatch.delenv("LANGGRAPH_MEMORY_KEY")
    with pytest.raises(ValueError, match="encryption key does not open"):
        MemoryManager(tmp_path / "plain-store", embeddings=HashingEmbeddings()).close()
        MemoryManager(tmp_path / "plain-store", embeddings=HashingEmbeddings(), encryption_key=KEY)
    with pytest.raises(ValueError, match="encryption_key"):
        MemoryManager(tmp_path / "x", embeddings=HashingEmbeddings(), encryption_key="")
