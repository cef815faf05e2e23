"""Two service processes' worth of apps on one store and one real ``redis-server``: a turn
written through one app is in the session window the other app serves (through Redis),
and tenants never meet in it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_service import Tenants, auth, serving
from redis_scratch import RedisServer, redis_binary

from langgraph_memory import MemoryConfig
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import create_app

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(
        redis_binary() is None,
        reason="redis-server is not installed (apt-get install redis-server): working "
        "memory in Redis is tested against a real server only",
    ),
]
redis = pytest.importorskip("redis", reason="pip install 'langgraph-memory[redis]'")


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("service-redis")
    tenants = Tenants(root)
    server = RedisServer.start()
    cfg = MemoryConfig(write={"working_memory_url": server.url})
    try:
        a = create_app(root, config=cfg, embeddings=HashingEmbeddings())
        b = create_app(root, config=cfg, embeddings=HashingEmbeddings())
        with serving(a) as url_a, serving(b) as url_b:
            with httpx.Client(base_url=url_a, timeout=30) as ca:
                with httpx.Client(base_url=url_b, timeout=30) as cb:
                    yield {"a": ca, "b": cb, "t": tenants, "redis": server}
    finally:
        server.remove()


def _session_texts(client: httpx.Client, key: str, user: str) -> list[str]:
    r = client.post(
        f"/v1/users/{user}/context",
        json={"query": "what did I say?", "session_id": "s1"},
        headers=auth(key),
    )
    assert r.status_code == 200, r.text
    return [it["text"] for it in r.json()["items"] if it["layer"] == "short_term"]


def test_a_turn_written_through_one_app_is_served_by_the_other(two: dict[str, Any]) -> None:
    acme, globex = two["t"].acme, two["t"].globex
    turn = {"session_id": "s1", "user": "我下周去成都出差。", "assistant": "祝一路顺风！"}
    r = two["a"].post("/v1/users/alice/turns", json=turn, headers=auth(acme))
    assert r.status_code == 201, r.text
    seen = _session_texts(two["b"], acme, "alice")
    assert any("成都" in t for t in seen) and any("祝一路顺风" in t for t in seen)
    # the same user and session id in another tenant: nothing of acme's
    other = {"session_id": "s1", "user": "Globex's alice talks about sailing."}
    assert two["b"].post("/v1/users/alice/turns", json=other, headers=auth(globex)).is_success
    theirs = _session_texts(two["a"], globex, "alice")
    assert theirs and all("成都" not in t for t in theirs)
    assert all("sailing" not in t for t in _session_texts(two["a"], acme, "alice"))
    c = redis.Redis.from_url(two["redis"].url, decode_responses=True)
    try:
        assert len(list(c.scan_iter("wm:history:*"))) == 2  # one list per tenant's alice
    finally:
        c.close()
