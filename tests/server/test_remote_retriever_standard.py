"""LangChain's standard retriever tests for :class:`MemoryRetriever` on a ``RemoteMemory``:
the same suite and data as ``tests/test_retriever_standard.py``, the memory behind a real
service on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import test_retriever_standard as std
from live_service import serving

from langgraph_memory import MemoryManager, RemoteMemory
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import KeyFile, create_app


class TestRemoteMemoryRetrieverStandard(std.TestMemoryRetrieverStandard):
    """The standard suite with ``memory`` a ``RemoteMemory`` (shared by the class)."""

    @pytest.fixture(scope="class", autouse=True)
    def _filled_memory(  # type: ignore[override]
        self, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[RemoteMemory]:
        path: Path = tmp_path_factory.mktemp("remote-retriever-standard")
        keys = KeyFile(path / "keys.json")
        with MemoryManager(path / "mem", embeddings=HashingEmbeddings()) as mm:
            with serving(create_app(mm, keys=keys), log_level="warning") as url:
                remote = RemoteMemory(url, api_key=keys.create("std"))
                for i, (user, assistant) in enumerate(std.ALICE_TURNS):
                    remote.add_turn("alice", f"s{i % 2}", user=user, assistant=assistant)
                for user, assistant in std.BOB_TURNS:
                    remote.add_turn("bob", "s0", user=user, assistant=assistant)
                remote.flush(timeout=60)
                request.cls.memory = remote
                yield remote
                remote.close()
