"""The API's OpenAPI document, pinned: any change to a route, a body or a response is a
diff of ``tests/server/openapi.json`` (regenerate it with
``LANGGRAPH_MEMORY_UPDATE_OPENAPI=1 python -m pytest tests/server/test_service_openapi.py``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import create_app
from langgraph_memory.storage import InMemoryBackend

SNAPSHOT = Path(__file__).with_name("openapi.json")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    try:
        yield create_app(mm, keys=tmp_path_factory.mktemp("keys"))
    finally:
        mm.close()


def test_the_openapi_document_matches_its_snapshot(app) -> None:  # type: ignore[no-untyped-def]
    doc = app.openapi()
    text = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("LANGGRAPH_MEMORY_UPDATE_OPENAPI") == "1":
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert SNAPSHOT.exists(), "no snapshot: run with LANGGRAPH_MEMORY_UPDATE_OPENAPI=1"
    assert text == SNAPSHOT.read_text(encoding="utf-8"), (
        "the API changed: review the diff, then regenerate tests/server/openapi.json"
    )


def test_the_contract_routes_are_documented(app) -> None:  # type: ignore[no-untyped-def]
    paths = app.openapi()["paths"]
    for path, method in [
        ("/v1/health", "get"),
        ("/v1/users/{user_id}/messages", "post"),
        ("/v1/users/{user_id}/context", "post"),
        ("/v1/users/{user_id}/search", "post"),
        ("/v1/users/{user_id}", "delete"),
        ("/v1/flush", "post"),
    ]:
        assert method in paths[path], path
    ctx = app.openapi()["components"]["schemas"]["ContextOut"]["properties"]
    assert {"text", "items"} <= set(ctx)
    # the items are the library's ContextItem, not a copy
    assert "ContextItem" in app.openapi()["components"]["schemas"]
    # every user route declares the key (a security requirement)
    for path, ops in paths.items():
        if path.startswith("/v1/users"):
            for op in ops.values():
                assert op.get("security"), path


async def test_docs_and_openapi_are_served(app) -> None:  # type: ignore[no-untyped-def]
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        assert (await client.get("/openapi.json")).json()["info"]["title"] == "langgraph-memory"
        assert "swagger" in (await client.get("/docs")).text.lower()


test_docs_and_openapi_are_served = pytest.mark.asyncio(test_docs_and_openapi_are_served)
