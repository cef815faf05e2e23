"""``/v1/items``, ``/v1/embeddings`` and ``/v1/users/{user_id}/blocks`` on a real uvicorn:
what a tenant's namespaces map to, the refusals, and the hostile part: every items route
as another tenant, with the first tenant's namespaces (as it names them, and as the
store keeps them), reads nothing and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_service import Tenants, auth, serving

from langgraph_memory import MemoryManager, MemoryStore
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import create_app
from langgraph_memory.integrations.server.items import router as item_router

pytestmark = pytest.mark.timeout(120)

#: acme's items, as acme names them: an owned namespace, a deeper one, an unowned one.
ACME_ITEMS = [
    (["memories", "alice"], "k1", {"text": "alice's locker is number 4471"}),
    (["memories", "alice", "notes"], "k2", {"text": "alice parks on level 3"}),
    (["shared"], "k3", {"text": "the office wifi is guest-4471"}),
]


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("items")
    tenants = Tenants(root / "keys")
    with MemoryManager(root / "mem", embeddings=HashingEmbeddings()) as mm:
        app = create_app(mm, keys=tenants.keys)
        with serving(app, log_level="warning") as url, httpx.Client(base_url=url) as client:
            for ns, key, value in ACME_ITEMS:
                data = {"value": value, "index": {}, "ttl": None, "expires_at": None}
                body = {"namespace": ns, "key": key, "data": data}
                r = client.put("/v1/items", json=body, headers=auth(tenants.acme))
                assert r.status_code == 200, r.text
            r = client.put(
                "/v1/users/alice/blocks/human", json={"value": "Alice uses locker 12"},
                headers=auth(tenants.acme),
            )  # fmt: skip
            assert r.status_code == 200, r.text
            yield {"c": client, "t": tenants, "mm": mm}


def _as(svc: dict[str, Any], key: str, method: str, path: str, **kw: Any) -> httpx.Response:
    return svc["c"].request(method, path, headers=auth(key), **kw)


def test_a_namespace_maps_to_the_tenants_user_or_the_tenants_root(svc: dict[str, Any]) -> None:
    mm: MemoryManager = svc["mm"]
    owned = mm.items.get(("memories", "acme:alice"), "k1")
    assert owned is not None and owned.user_id == "acme:alice"
    deeper = mm.items.get(("memories", "acme:alice", "notes"), "k2")
    assert deeper is not None and deeper.user_id == "acme:alice"
    shared = mm.items.get(("acme:shared",), "k3")
    assert shared is not None and shared.user_id.endswith("store:acme:shared")
    r = _as(
        svc,
        svc["t"].acme,
        "GET",
        "/v1/items/item",
        params={"namespace": ["memories", "alice"], "key": "k1"},
    )
    assert r.status_code == 200
    got = r.json()
    assert got["namespace"] == ["memories", "alice"] and got["user_id"] == "alice"
    assert got["data"]["value"] == {"text": "alice's locker is number 4471"}
    listed = _as(svc, svc["t"].acme, "GET", "/v1/items").json()
    assert sorted((i["namespace"], i["key"]) for i in listed) == sorted(
        (ns, k) for ns, k, _ in ACME_ITEMS
    )
    assert [i["user_id"] for i in listed if i["key"] == "k3"] == [None]
    # the user's items are known to the service: the user can be deleted over it
    assert "alice" in _as(svc, svc["t"].acme, "GET", "/v1/users").json()["users"]


def test_refusals_name_the_field(svc: dict[str, Any]) -> None:
    key = svc["t"].acme
    r = _as(svc, key, "PUT", "/v1/items", json={"namespace": [], "key": "k", "data": {}})
    assert r.status_code == 422 and "namespace" in r.text
    big = {"namespace": ["n"], "key": "k", "data": {"value": {"x": "y" * 70_000}}}
    r = _as(svc, key, "PUT", "/v1/items", json=big)
    assert r.status_code == 422 and "max_item_bytes" in r.json()["detail"]
    r = _as(
        svc,
        key,
        "PATCH",
        "/v1/items",
        json={"namespace": ["shared"], "key": "k3", "expires_at": "soon"},
    )
    assert r.status_code == 422 and r.json()["field"] == "expires_at"
    # a record no store could read back is refused, naming where
    for data, field in [
        ({"value": ["not", "an", "object"]}, "data.value"),
        ({"value": {}, "index": {"$": {"text": "x", "vector": "!!"}}}, "data.index.$"),
        ({"value": {}, "index": {"$": {"text": "x", "vector": "AAA="}}}, "data.index.$"),
        ({"value": {}, "index": {"$": {"vector": "AAAAAA=="}}}, "data.index.$"),
        ({"value": {}, "ttl": "soon"}, "data.ttl"),
        ({"value": {}, "expires_at": "tomorrow"}, "data.expires_at"),
    ]:
        r = _as(svc, key, "PUT", "/v1/items", json={"namespace": ["n"], "key": "bad", "data": data})
        assert r.status_code == 422 and r.json()["field"] == field, (data, r.text)
    assert svc["mm"].items.get(("acme:n",), "bad") is None
    r = _as(svc, key, "POST", "/v1/embeddings", json={"texts": ["x"] * 1001})
    assert r.status_code == 413
    r = _as(
        svc,
        key,
        "POST",
        "/v1/items/delete",
        json={"items": [{"namespace": ["n"], "key": "k"}] * 1001},
    )
    assert r.status_code == 413
    assert (
        _as(
            svc, key, "GET", "/v1/items/item", params={"namespace": ["shared"], "key": "nope"}
        ).status_code
        == 404
    )
    assert _as(svc, "lgm_wrong", "GET", "/v1/items").status_code == 401
    assert svc["c"].post("/v1/embeddings", json={"texts": ["x"]}).status_code == 401


#: Words only acme's items and blocks hold.
ACME_WORDS = ("4471", "locker", "level 3", "wifi", "Alice")


def _addresses() -> list[list[str]]:
    """acme's namespaces as acme names them and as the store keeps them."""
    out = []
    for ns, _, _ in ACME_ITEMS:
        out.append(ns)
    out += [["memories", "acme:alice"], ["memories", "acme:alice", "notes"], ["acme:shared"]]
    return out


def test_another_tenant_reads_and_changes_nothing_of_the_items(svc: dict[str, Any]) -> None:
    t, mm = svc["t"], svc["mm"]
    before = sorted((r.id, r.updated_at) for r in mm.items.list())
    routes_hit: set[tuple[str, str]] = set()

    def call(method: str, path: str, **kw: Any) -> httpx.Response:
        routes_hit.add((method, path))
        r = _as(svc, t.globex, method, path, **kw)
        assert not any(word in r.text for word in ACME_WORDS), (method, path, r.text)
        return r

    call("GET", "/v1/items/settings")
    for ns in _addresses():
        for _, key, _ in ACME_ITEMS:
            params = {"namespace": ns, "key": key}
            assert call("GET", "/v1/items/item", params=params).status_code == 404
            assert call("DELETE", "/v1/items", params=params).json() == {"deleted": 0}
            r = call(
                "PATCH", "/v1/items", json={**params, "expires_at": "2000-01-01T00:00:00+00:00"}
            )
            assert r.status_code == 404
            r = call("POST", "/v1/items/delete", json={"items": [params]})
            assert r.json() == {"deleted": 0}
        assert call("GET", "/v1/items", params={"prefix": ns}).json() == []
    assert call("GET", "/v1/items").json() == []
    call("POST", "/v1/embeddings", json={"texts": ["locker code"]})
    # a put to the same names lands in globex's own namespaces
    for ns, key, _ in ACME_ITEMS:
        body = {"namespace": ns, "key": key, "data": {"value": {"text": "globex's"}, "index": {}}}
        assert call("PUT", "/v1/items", json=body).status_code == 200
    after = [
        (i, u)
        for i, u in sorted((r.id, r.updated_at) for r in mm.items.list())
        if "globex" not in i
    ]
    assert after == before
    # a core block of "alice" as globex: its own alice's, never written
    r = call("GET", "/v1/users/alice/blocks/human")
    assert r.json() == {"label": "human", "value": ""}
    assert call("PUT", "/v1/users/alice/blocks/human", json={"value": "globex"}).status_code == 200
    assert mm.items.core_block("acme:alice", "human") == "Alice uses locker 12"
    # every route of the two routers was called
    templates = {
        (m, r.path)  # type: ignore[attr-defined]
        for router in (item_router,)
        for r in router.routes
        for m in r.methods  # type: ignore[attr-defined]
    }
    assert templates <= routes_hit, templates - routes_hit


def test_a_store_over_the_service_sees_its_tenants_items_only(svc: dict[str, Any]) -> None:
    from langgraph_memory import RemoteMemory

    url = str(svc["c"].base_url).rstrip("/")
    with (
        RemoteMemory(url, api_key=svc["t"].acme) as acme,
        RemoteMemory(url, api_key=svc["t"].globex) as globex,
    ):
        mine, theirs = MemoryStore(acme), MemoryStore(globex)
        assert mine.get(("memories", "alice"), "k1").value["text"].endswith("4471")  # type: ignore[union-attr]
        assert all(
            "4471" not in str(i.value) for i in theirs.search(("memories",), query="locker number")
        )
        assert all(ns[0] != "acme:shared" for ns in theirs.list_namespaces())
        assert ("shared",) in mine.list_namespaces()


def test_a_users_blocks_and_items_read_back_after_a_restart(svc: dict[str, Any]) -> None:
    """A new service over the same store (nothing known of the first one's writes): a user
    with no messages still has her block and items, and deleting her deletes them."""
    from langgraph_memory import RemoteMemory

    mm: MemoryManager = svc["mm"]
    key = svc["t"].acme
    item = {"namespace": ["memories", "dana"], "key": "k", "data": {"value": {"text": "tea"}}}
    assert _as(svc, key, "PUT", "/v1/items", json=item).status_code == 200
    assert _as(svc, key, "PUT", "/v1/users/dana/blocks/human", json={"value": "Dana"}).is_success
    assert mm.stats("acme:dana")["messages"] == 0
    with serving(create_app(mm, keys=svc["t"].keys), log_level="warning") as url:
        with RemoteMemory(url, api_key=key) as acme:
            assert acme.items.core_block("dana", "human") == "Dana"
            assert acme.items.get(("memories", "dana"), "k") is not None
            assert acme.profile.facts("dana") == []  # a user of the tenant: no 404
            acme.delete_user("dana")
            assert acme.items.get(("memories", "dana"), "k") is None
            assert acme.items.core_block("dana", "human") == ""
    assert not mm.items.holds("acme:dana")
    assert mm.items.get(("acme:shared",), "k3") is not None  # the tenant's own root stays
