"""The read path computes one query value: a search or a context tokenises its query
once and embeds it once, whatever the rankers (messages, segments, long-term entries,
documents, entities, packing) read of it."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core import tokens
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.parts import assembly  # every module binds the real tokenize first

QUERY = "Where did Ann move to, and how did the Lyon trip go over the weeks?"


class CountingEmbeddings(HashingEmbeddings):
    """Counts the texts it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: Counter[str] = Counter()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.seen.update(texts)
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.seen[text] += 1
        return super().embed_query(text)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Every call of ``tokenize`` in the package, by text (but the hashing embedder's,
    which stands in for the model)."""
    assert assembly.wire is not None
    calls: Counter[str] = Counter()
    real = tokens.tokenize

    def tokenize(text: str) -> list[str]:
        calls[text] += 1
        return real(text)

    for name, module in list(sys.modules.items()):
        mine = name.startswith("langgraph_memory") and not name.startswith(
            "langgraph_memory.embeddings"
        )
        if mine and getattr(module, "tokenize", None) is real:
            monkeypatch.setattr(module, "tokenize", tokenize)
    yield calls


def _memory(tmp_path: Path, emb: Any) -> MemoryManager:
    mm = MemoryManager(tmp_path, embeddings=emb)
    for i in range(8):
        mm.add_turn("ann", "s1", user=f"I moved to Lyon in May, week {i}.", assistant="Nice!")
    mm.add_message("ann", "s1", "user", "I prefer trains. Ann is my sister.")
    mm.documents.add("ann", "# Lyon\n\nThe trip to Lyon went well over three weeks.")
    mm.flush()
    return mm


def test_a_context_tokenises_and_embeds_its_query_once(
    tmp_path: Path, counted: Counter[str]
) -> None:
    emb = CountingEmbeddings()
    with _memory(tmp_path, emb) as mm:
        counted.clear()
        emb.seen.clear()
        ctx = mm.build_context("ann", "s2", QUERY, 1500)
        assert ctx.items
        assert counted[QUERY] == 1
        assert emb.seen[QUERY] <= 1 and sum(emb.seen[t] for t in emb.seen if "Lyon trip" in t) == 1


def test_a_search_tokenises_and_embeds_its_query_once(
    tmp_path: Path, counted: Counter[str]
) -> None:
    emb = CountingEmbeddings()
    with _memory(tmp_path, emb) as mm:
        counted.clear()
        emb.seen.clear()
        hits = mm.search("ann", QUERY, k=8)
        assert {h.layer for h in hits} >= {"message"}
        assert counted[QUERY] == 1
        assert sum(emb.seen[t] for t in emb.seen if "Lyon trip" in t) == 1
