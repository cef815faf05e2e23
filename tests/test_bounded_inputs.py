"""Bounded input, one rule everywhere: every entry point that takes a value refuses one
that is too large, nests too deep, holds NUL or a lone surrogate, or is a count out of
range, with a ``ValueError``/``TypeError`` that names the field (and the configured limit)
but never echoes the offending text, before any work starts, on every backend, and
nothing stored changes."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import InvalidNamespaceError

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.store import MemoryStore
from langgraph_memory.storage import MemoryBackend

#: Text that must never come back in an error message.
SECRET = "ann.secret@example.com"


def _deep(levels: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    cur = out
    for _ in range(levels):
        cur["a"] = {}
        cur = cur["a"]
    return out


def _cases(mm: MemoryManager, store: MemoryStore, tmp: Path) -> dict[str, Callable[[], Any]]:
    big_file = tmp / "big.md"
    big_file.write_text("word " * 3000)  # 15,000 characters: over the configured 10,000
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    ns = ("memories", "ann")
    return {
        "store value nested 100,000 deep": lambda: store.put(ns, "k", _deep(100_000)),
        "store value over max_item_bytes": lambda: store.put(ns, "k", {"t": SECRET * 5000}),
        "store value with a lone surrogate": lambda: store.put(ns, "k", {"t": SECRET + "\ud800"}),
        "store value with NUL": lambda: store.put(ns, "k", {"t": SECRET + "\x00"}),
        "store key with a lone surrogate": lambda: store.put(ns, SECRET + "\ud800", {"t": 1}),
        "store key with NUL": lambda: store.put(ns, SECRET + "\x00", {"t": 1}),
        "store namespace with a period": lambda: store.put(("memories", SECRET), "k", {"t": 1}),
        "store namespace label with NUL": lambda: store.put(("memories", "a\x00"), "k", {"t": 1}),
        "store search limit -1": lambda: store.search(ns, limit=-1),
        "store search offset -1": lambda: store.search(ns, offset=-1),
        "store search limit NaN": lambda: store.search(ns, limit=float("nan")),  # type: ignore[arg-type]
        "store list_namespaces limit -1": lambda: store.list_namespaces(limit=-1),
        "core block over max_block_chars": lambda: mm.items.set_core_block(
            "ann", "human", SECRET * 1000
        ),
        "core block with NUL": lambda: mm.items.set_core_block("ann", "human", SECRET + "\x00"),
        "core block with a lone surrogate": lambda: mm.items.set_core_block(
            "ann", "human", SECRET + "\udc00"
        ),
        "core block label with NUL": lambda: mm.items.set_core_block("ann", "hu\x00", "x"),
        "feedback value nested deep": lambda: mm.profile.feedback(
            "ann", "drink", "corrected", value=_deep(10_000)
        ),
        "feedback value with NUL": lambda: mm.profile.feedback(
            "ann", "drink", "corrected", value=SECRET + "\x00"
        ),
        "feedback value with a lone surrogate": lambda: mm.profile.feedback(
            "ann", "drink", "corrected", value=SECRET + "\ud800"
        ),
        "document with a lone surrogate": lambda: mm.documents.add("ann", SECRET + " \ud800"),
        "document with NUL": lambda: mm.documents.add("ann", SECRET + " \x00 x"),
        "document from /dev/zero": lambda: mm.documents.add("ann", Path("/dev/zero")),
        "document from a FIFO": lambda: mm.documents.add("ann", fifo),
        "document from a directory": lambda: mm.documents.add("ann", tmp),
        "document file over max_document_chars": lambda: mm.documents.add("ann", big_file),
        "message with a lone surrogate": lambda: mm.add_message("ann", "s", "user", "a\ud800"),
        "message with NUL": lambda: mm.add_message("ann", "s", "user", SECRET + "\x00"),
        "message metadata nested deep": lambda: mm.add_message(
            "ann", "s", "user", "hi", metadata=_deep(10_000)
        ),
        "search k NaN": lambda: mm.search("ann", "tea", k=float("nan")),  # type: ignore[arg-type]
        "search k -1": lambda: mm.search("ann", "tea", k=-1),
        "context token_budget 0": lambda: mm.build_context("ann", "s", "tea", token_budget=0),
        "task request over its limit": lambda: mm.tasks.start("ann", "s", "x" * 200_000),
    }


def _snapshot(mm: MemoryManager, store: MemoryStore) -> tuple[Any, ...]:
    mm.flush(timeout=60)
    items = [(i.namespace, i.key, i.value) for i in store.search(("memories",), limit=100)]
    return (
        mm.stats("ann")["messages"],
        items,
        mm.items.core_block("ann", "human"),
        [d.document_id for d in mm.documents.list("ann")],
        [(p.key, p.value) for p in mm.profile.preferences("ann")],
    )


def test_every_bad_input_is_refused_by_name_and_changes_nothing(
    backend: MemoryBackend, tmp_path: Path
) -> None:
    config = MemoryConfig(write={"max_document_chars": 10_000})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=config) as mm:
        store = MemoryStore(mm)
        mm.add_message("ann", "s", "user", "I prefer green tea in the morning.")
        store.put(("memories", "ann"), "k", {"t": "kept"})
        mm.items.set_core_block("ann", "human", "kept block")
        mm.profile.feedback  # noqa: B018 - the call exists
        before = _snapshot(mm, store)
        refused = {}
        for name, call in _cases(mm, store, tmp_path).items():
            with pytest.raises((ValueError, TypeError, InvalidNamespaceError, KeyError)) as err:
                call()
            text = str(err.value)
            assert SECRET not in text, (name, text)  # never echoed
            refused[name] = text
        assert _snapshot(mm, store) == before
    # the errors name what is wrong (and the configured limit where there is one)
    assert "max_item_bytes" in refused["store value over max_item_bytes"]
    assert "65,536" in refused["store value over max_item_bytes"]
    assert "max_block_chars" in refused["core block over max_block_chars"]
    assert "10,000" in refused["document file over max_document_chars"]
    assert "regular file" in refused["document from /dev/zero"]
    assert "regular file" in refused["document from a FIFO"]
    assert "deeper than" in refused["store value nested 100,000 deep"]
    assert "surrogate" in refused["store key with a lone surrogate"]
    assert "label 1" in refused["store namespace with a period"]
    assert "max_content_chars" not in refused["task request over its limit"]
    assert "limit" in refused["store search limit NaN"]
