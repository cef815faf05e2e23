"""MCP over streamable HTTP, driven by the ``mcp`` SDK's own streamable-HTTP client against
real servers on loopback: the service's ``/mcp`` behind its keys (a key reaches its own
tenant's users only), ``langgraph-memory mcp --http`` as a subprocess, and
``langgraph-memory mcp --url`` serving the tools over a running service.

One uvicorn (in a thread) for the module over a SQLite store with two tenants' keys;
every wait is bounded.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_service import LogCapture, Tenants, auth, serving

from langgraph_memory import MemoryManager, RemoteMemory
from langgraph_memory.embeddings import HashingEmbeddings

mcp_client = pytest.importorskip("mcp.client.client")
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

from langgraph_memory.integrations.mcp import create_mcp_http_app  # noqa: E402
from langgraph_memory.integrations.server import create_app  # noqa: E402

pytestmark = pytest.mark.timeout(120)
CALL_TIMEOUT = 60.0


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def _data(result: Any) -> Any:
    """A tool's structured result (a list comes wrapped as ``{"result": [...]}``)."""
    assert not result.is_error, _text(result)
    data = result.structured_content
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


def _client(url: str, key: str | None = None) -> Any:
    """The SDK's client on its streamable-HTTP transport, sending ``key`` if given."""
    http = create_mcp_http_client(headers=auth(key) if key else None)
    return mcp_client.Client(streamable_http_client(url, http_client=http))


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, CALL_TIMEOUT))


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("mcp-service")
    tenants = Tenants(root)
    logs = LogCapture()
    with logs.everywhere(), MemoryManager(root / "mem", embeddings=HashingEmbeddings()) as mm:
        app = create_app(mm, keys=tenants.keys)
        with serving(app) as url:
            yield {"url": url, "mcp": f"{url}/mcp", "t": tenants, "mm": mm, "logs": logs}


def test_the_service_mcp_reaches_only_the_keys_tenant(svc: dict[str, Any]) -> None:
    t = svc["t"]

    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with _client(svc["mcp"], t.acme) as acme:
            names = {tool.name for tool in (await acme.list_tools()).tools}
            assert names == {"remember", "recall", "search", "list", "forget"}
            r = await acme.call_tool(
                "remember", {"content": "I am allergic to peanuts.", "user_id": "alice"}
            )
            out["mid"] = _data(r)["message_id"]
            assert _data(r)["user_id"] == "alice"  # the caller's id, not the store's
            await acme.call_tool("remember", {"content": "我住在杭州西湖边。", "user_id": "alice"})
            out["acme"] = _text(
                await acme.call_tool("recall", {"query": "What can't I eat?", "user_id": "alice"})
            )
            out["acme_zh"] = _text(
                await acme.call_tool("recall", {"query": "我住在哪里？", "user_id": "alice"})
            )
        async with _client(svc["mcp"], t.globex) as globex:
            for uid in ("alice", "acme:alice"):
                recall = await globex.call_tool("recall", {"query": "peanuts", "user_id": uid})
                out.setdefault("globex", []).append(_text(recall))
                hits = await globex.call_tool("search", {"query": "peanuts", "user_id": uid})
                out.setdefault("globex_hits", []).append(_data(hits))
                listed = await globex.call_tool("list", {"user_id": uid})
                out.setdefault("globex_list", []).append(_data(listed))
            gone = await globex.call_tool("forget", {"message_id": out["mid"], "user_id": "alice"})
            out["globex_forget"] = _data(gone)
        return out

    out = _run(main())
    assert "peanuts" in out["acme"]
    assert "杭州" in out["acme_zh"]
    for text in out["globex"]:
        assert "peanuts" not in text and "杭州" not in text
    assert out["globex_hits"] == [[], []]
    assert out["globex_list"] == [[], []]
    assert out["globex_forget"] == {"deleted": 0}
    # the writes landed in acme's namespace, and globex's forget deleted nothing there
    mm: MemoryManager = svc["mm"]
    assert mm.stats("acme:alice")["messages"] == 2
    assert mm.stats("alice")["messages"] == 0 and mm.stats("globex:alice")["messages"] == 0
    # the REST routes see the same user through the same key
    with RemoteMemory(svc["url"], api_key=t.acme) as remote:
        assert "alice" in remote.users()
    with RemoteMemory(svc["url"], api_key=t.globex) as remote:
        assert "alice" not in remote.users()


def test_bad_input_is_a_tool_error_naming_the_field(svc: dict[str, Any]) -> None:
    async def main() -> list[tuple[bool, str]]:
        async with _client(svc["mcp"], svc["t"].acme) as acme:
            calls = [
                ("remember", {"content": "   ", "user_id": "bob"}),
                ("remember", {"content": "hello"}),
                ("recall", {"query": "x", "user_id": "bob", "token_budget": -5}),
                ("search", {"query": "x", "user_id": "bob", "k": 0}),
                ("recall", {"query": "x", "user_id": "b" * 500}),
                ("search", {"query": "x", "user_id": "bob", "k": "many"}),
            ]
            results = [await acme.call_tool(name, args) for name, args in calls]
        return [(r.is_error, _text(r)) for r in results]

    errors = _run(main())
    fields = ["content", "user_id", "token_budget", "k", "user_id", "k"]
    for (is_error, text), field in zip(errors, fields, strict=True):
        assert is_error and field in text, (field, text)
    # the tenant prefix never shows in an error
    assert not any("acme:" in text for _, text in errors)
    assert svc["mm"].stats("acme:bob")["messages"] == 0


@pytest.mark.parametrize("which", ["none", "wrong", "revoked"])
def test_mcp_without_a_valid_key_gets_401(svc: dict[str, Any], which: str) -> None:
    key = {"none": None, "wrong": "lgm_not-a-key", "revoked": svc["t"].revoked}[which]
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "recall", "arguments": {"query": "peanuts", "user_id": "alice"}},
    }
    headers = {"Accept": "application/json, text/event-stream", **(auth(key) if key else {})}
    r = httpx.post(svc["mcp"], json=hello, headers=headers, timeout=30)
    assert r.status_code == 401, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert "peanuts" not in r.text

    async def connect() -> None:
        async with _client(svc["mcp"], key) as client:
            await client.list_tools()

    with pytest.raises(Exception):  # noqa: B017 - the SDK's error for a 401 varies by version
        _run(connect())


def test_no_key_appears_in_any_log(svc: dict[str, Any]) -> None:
    """After the calls above (every key used, the revoked one too), at DEBUG."""

    async def main() -> None:
        async with _client(svc["mcp"], svc["t"].acme) as acme:
            await acme.call_tool("recall", {"query": "peanuts", "user_id": "alice"})

    _run(main())
    lines: list[str] = svc["logs"].lines
    assert any("/mcp" in line for line in lines)  # the requests were logged
    for key in svc["t"].all():
        assert not any(key in line for line in lines)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "langgraph_memory.integrations.cli.commands", *args]


def test_langgraph_memory_mcp_over_streamable_http(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        _cli("mcp", "--http", "--port", str(port), "--path", str(tmp_path), "--hashing"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ},
    )
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        deadline = time.monotonic() + 60
        while True:  # until it listens (bounded)
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "") from None
                time.sleep(0.1)

        async def main() -> tuple[str, str]:
            async with _client(url) as client:
                await client.call_tool(
                    "remember", {"content": "My cat is called Miso.", "user_id": "ann"}
                )
                await client.call_tool("remember", {"content": "I live in Oslo.", "user_id": "ben"})
                ann = await client.call_tool("recall", {"query": "cat's name?", "user_id": "ann"})
                ben = await client.call_tool("recall", {"query": "cat's name?", "user_id": "ben"})
                return _text(ann), _text(ben)

        ann, ben = _run(main())
        assert "Miso" in ann and "Miso" not in ben
        # no key, so loopback only: a page that rebound a name to 127.0.0.1 is refused
        hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        accept = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        for headers in ({"Host": "evil.example"}, {"Origin": "http://evil.example"}):
            r = httpx.post(url, json=hello, headers={**accept, **headers}, timeout=30)
            assert r.status_code in (403, 421), (headers, r.status_code, r.text)
            assert "recall" not in r.text
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait(15)
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        assert mm.stats("ann")["messages"] == 1


def test_langgraph_memory_mcp_url_serves_a_running_service(svc: dict[str, Any]) -> None:
    """``mcp --url URL --api-key KEY`` on stdio: the tools over the service, its key's
    tenant's users only."""
    params = StdioServerParameters(
        command=sys.executable,
        args=_cli("mcp", "--url", svc["url"], "--api-key", svc["t"].globex, "--user", "carol")[1:],
        env={**os.environ},
    )

    async def main() -> tuple[str, Any, Any]:
        async with mcp_client.Client(params) as client:
            r = await client.call_tool("remember", {"content": "My dog is called Pixel."})
            mid = _data(r)["message_id"]
            recalled = _text(await client.call_tool("recall", {"query": "dog's name?"}))
            bad = await client.call_tool("search", {"query": "dog", "k": 0})
            gone = _data(await client.call_tool("forget", {"message_id": mid}))
            return recalled, (bad.is_error, _text(bad)), gone

    recalled, (bad_is_error, bad_text), gone = _run(main())
    assert "Pixel" in recalled
    assert bad_is_error and "k" in bad_text
    assert gone["deleted"] >= 1
    mm: MemoryManager = svc["mm"]
    assert mm.stats("globex:carol")["messages"] == 0  # forgotten
    assert mm.stats("acme:carol")["messages"] == 0 and mm.stats("carol")["messages"] == 0


def test_the_tools_over_http_on_a_remote_memory(svc: dict[str, Any]) -> None:
    """``create_mcp_http_app(RemoteMemory(...))`` (what ``mcp --url --http`` serves): the
    tools over the service, as its key's tenant; ``list`` shows the standing
    instructions, preferences and current facts the service holds."""
    with RemoteMemory(svc["url"], api_key=svc["t"].acme) as remote:
        remote.anchors.add("dave", "Always answer in Spanish.", anchor_id="anc-dave")
        with serving(create_mcp_http_app(remote), log_level="warning") as url:

            async def main() -> tuple[str, Any, Any]:
                async with _client(f"{url}/mcp") as client:
                    args = {"content": "I play the cello. I prefer green tea.", "user_id": "dave"}
                    await client.call_tool("remember", args)
                    got = await client.call_tool(
                        "recall", {"query": "instrument?", "user_id": "dave"}
                    )
                    listed = _data(await client.call_tool("list", {"user_id": "dave"}))
                    eve = _data(await client.call_tool("list", {"user_id": "eve"}))
                    return _text(got), listed, eve

            recalled, listed, eve = _run(main())
    assert "cello" in recalled and "Spanish" in recalled
    assert listed[0] == {
        "kind": "instruction",
        "id": "anc-dave",
        "text": "Always answer in Spanish.",
    }
    mm: MemoryManager = svc["mm"]
    held = {f"{p.key}: {p.value}" for p in mm.profile.preferences("acme:dave")}
    held |= {f"{f.subject} {f.relation} {f.object}" for f in mm.profile.facts("acme:dave")}
    assert held and {item["text"] for item in listed[1:]} == held
    assert all(item["source_ids"] for item in listed[1:])
    assert eve == []
    assert svc["mm"].stats("acme:dave")["messages"] == 1
    assert svc["mm"].stats("dave")["messages"] == 0
