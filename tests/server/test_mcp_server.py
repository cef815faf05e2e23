"""``langgraph-memory mcp``: the memory as MCP tools, driven by the ``mcp`` SDK's own client,
in process and as a stdio subprocess (the command a desktop client launches)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

mcp_client = pytest.importorskip("mcp.client.client")
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from langgraph_memory.integrations.mcp import create_mcp_server  # noqa: E402

pytestmark = pytest.mark.timeout(120)


def _text(result: Any) -> str:
    assert not result.is_error, result
    return "".join(getattr(c, "text", "") for c in result.content)


def _data(result: Any) -> Any:
    """A tool's structured result (a list comes wrapped as ``{"result": [...]}``)."""
    assert not result.is_error, result
    data = result.structured_content
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


@pytest.fixture
def mm(tmp_path: Path) -> Iterator[MemoryManager]:
    with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as memory:
        yield memory


def test_the_tools_remember_recall_search_list_and_forget(mm: MemoryManager) -> None:
    async def main() -> None:
        server = create_mcp_server(mm, user_id="alice")
        async with mcp_client.Client(server) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == {"remember", "recall", "search", "list", "forget"}
            r = await client.call_tool("remember", {"content": "I am allergic to peanuts."})
            mid = _data(r)["message_id"]
            await client.call_tool("remember", {"content": "From now on, always answer in French."})
            recalled = _text(await client.call_tool("recall", {"query": "What can't I eat?"}))
            assert "peanuts" in recalled and "French" in recalled
            hits = _data(await client.call_tool("search", {"query": "peanuts"}))
            assert hits[0]["id"] == mid or mid in hits[0]["source_ids"]
            listed = _data(await client.call_tool("list", {}))
            assert any("French" in m["text"] for m in listed), listed
            # scoped to alice: another user is refused, as a tool error naming the field
            other = await client.call_tool("recall", {"query": "x", "user_id": "bob"})
            assert other.is_error and "user_id" in "".join(c.text for c in other.content)
            gone = _data(await client.call_tool("forget", {"message_id": mid}))
            assert gone == {"deleted": 1}
            after = _text(await client.call_tool("recall", {"query": "What can't I eat?"}))
            assert "peanuts" not in after

    asyncio.run(main())
    assert mm.stats("bob")["messages"] == 0


def test_an_unscoped_server_takes_the_user_per_call(mm: MemoryManager) -> None:
    async def main() -> None:
        async with mcp_client.Client(create_mcp_server(mm)) as client:
            await client.call_tool("remember", {"content": "I live in Lyon.", "user_id": "ann"})
            await client.call_tool("remember", {"content": "I live in Oslo.", "user_id": "ben"})
            ann = _text(await client.call_tool("recall", {"query": "city?", "user_id": "ann"}))
            assert "Lyon" in ann and "Oslo" not in ann
            missing = await client.call_tool("recall", {"query": "city?"})
            assert missing.is_error

    asyncio.run(main())


def test_langgraph_memory_mcp_over_stdio(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "langgraph_memory.integrations.cli.commands",
            "mcp",
            "--path",
            str(tmp_path),
            "--hashing",
            "--user",
            "alice",
        ],  # fmt: skip
        env={**os.environ},
    )

    async def main() -> str:
        async with mcp_client.Client(params) as client:
            await client.call_tool("remember", {"content": "My cat is called Miso."})
            return _text(await client.call_tool("recall", {"query": "cat's name?"}))

    assert "Miso" in asyncio.run(asyncio.wait_for(main(), 90))
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        assert mm.stats("alice")["messages"] == 1
