"""LangGraph's conventions on the manager: ``setup()``/``asetup()`` (idempotent
migrations, as ``PostgresStore.setup()``), and ``with`` / ``async with``."""

from __future__ import annotations

import asyncio

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend


def test_setup_is_idempotent_and_keeps_what_is_stored(backend: MemoryBackend) -> None:
    mm = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
    mm.add_message("u", "s", "user", "I keep bees on the roof.")
    mm.flush()
    mm.setup()
    mm.setup()
    asyncio.run(mm.aio.setup())
    assert mm.stats("u")["messages"] == 1
    assert mm.search("u", "bees", k=1)[0].text == "I keep bees on the roof."
    mm.close()
    with pytest.raises(RuntimeError, match="closed"):
        mm.setup()


def test_async_with_closes_the_manager(tmp_path: object) -> None:
    async def run() -> MemoryManager:
        async with MemoryManager(f"{tmp_path}/m", embeddings=HashingEmbeddings()) as mm:
            await mm.aio.add_message("u", "s", "user", "hello")
            await mm.aio.flush()
            assert (await mm.aio.stats("u"))["messages"] == 1
        return mm

    mm = asyncio.run(run())
    with pytest.raises(RuntimeError, match="closed"):
        mm.search("u", "hello")
