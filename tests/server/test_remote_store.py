"""``MemoryStore`` over a service: the store's own suites (the LangGraph store cases of
``test_store.py``, the vector cases of ``test_store_vector.py`` and those of
``test_store_memory.py`` that need no backend of their own) run unchanged on a
``MemoryStore(RemoteMemory(...))`` pointed at a real uvicorn on loopback.

One server for the module (a SQLite manager this test holds); each store gets a tenant
of its own, so the cases see empty stores as they do in process.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import test_store as store_suite
import test_store_memory as store_memory_suite
import test_store_vector as vector_suite
from live_service import served_memory

from langgraph_memory import MemoryStore, RemoteMemory
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.store import STORE_KIND

pytestmark = pytest.mark.timeout(180)
_tenants = itertools.count()


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with served_memory(tmp_path_factory.mktemp("remote-store")) as served:
        yield served


@pytest.fixture
def fresh(service: dict[str, Any]) -> Iterator[Callable[[], RemoteMemory]]:
    """Clients, each of a tenant of its own (an empty store each)."""
    made: list[RemoteMemory] = []

    def make() -> RemoteMemory:
        tenant = f"s{next(_tenants)}"
        key = service["keys"].create(tenant)
        made.append(RemoteMemory(service["url"], api_key=key))
        made[-1].tenant, made[-1].key = tenant, key  # type: ignore[attr-defined]
        return made[-1]

    yield make
    for mem in made:
        mem.close()


def _cases(module: Any, skip: set[str]) -> list[tuple[str, dict[str, Any]]]:
    """Each test of ``module`` with each combination of its parametrize marks."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name, fn in vars(module).items():
        if not name.startswith("test_") or name in skip or not callable(fn):
            continue
        marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
        names = [n.strip() for m in marks for n in m.args[0].split(",")]
        for values in itertools.product(*(m.args[1] for m in marks)):
            out.append((name, dict(zip(names, values, strict=True))))
    return out


def _run(module: Any, case: str, params: dict[str, Any], fixtures: dict[str, Any]) -> None:
    fn = getattr(module, case)
    args = {p: fixtures[p] for p in inspect.signature(fn).parameters if p not in params}
    result = fn(**args, **params)
    if inspect.iscoroutine(result):
        asyncio.run(result)


def _ids(v: Any) -> str:
    return v if isinstance(v, str) else "-".join(map(repr, v.values()))


def _fixtures(fresh: Callable[[], RemoteMemory], tmp_path: Path) -> dict[str, Any]:
    def make_store(index: Any = None) -> MemoryStore:
        return MemoryStore(fresh(), index=index)

    return {
        "store": make_store(),
        "make_store": make_store,
        "fake_embeddings": store_suite.CharacterEmbeddings(dims=500),
        "mm": fresh(),
        "tmp_path": tmp_path,
    }


# -- the suites ------------------------------------------------------------------------------
@pytest.mark.parametrize(("case", "params"), _cases(store_suite, set()), ids=_ids)
def test_store_suite_over_the_service(
    fresh: Callable[[], RemoteMemory], tmp_path: Path, case: str, params: dict[str, Any]
) -> None:
    _run(store_suite, case, params, _fixtures(fresh, tmp_path))


@pytest.mark.parametrize(("case", "params"), _cases(vector_suite, set()), ids=_ids)
def test_store_vector_suite_over_the_service(
    fresh: Callable[[], RemoteMemory], tmp_path: Path, case: str, params: dict[str, Any]
) -> None:
    _run(vector_suite, case, params, _fixtures(fresh, tmp_path))


#: Cases that read the manager's backend or restart it (not a service's to give).
BACKEND_CASES = {
    "test_items_survive_a_restart_on_sqlite",
    "test_items_are_records_of_their_owner_or_of_a_reserved_scope",
}


@pytest.mark.parametrize(("case", "params"), _cases(store_memory_suite, BACKEND_CASES), ids=_ids)
def test_store_memory_suite_over_the_service(
    fresh: Callable[[], RemoteMemory], tmp_path: Path, case: str, params: dict[str, Any]
) -> None:
    _run(store_memory_suite, case, params, _fixtures(fresh, tmp_path))


# -- what the service keeps, and for whom ----------------------------------------------------
def test_items_are_the_tenants_users_records_and_go_with_the_user(
    fresh: Callable[[], RemoteMemory], service: dict[str, Any]
) -> None:
    """An owned namespace's items are the tenant's user's records (``delete_user`` over
    the service removes them); an unowned one's are kept under the tenant's own root.
    The same data in process, under the mapped names."""
    remote = fresh()
    tenant, mm = remote.tenant, service["mm"]  # type: ignore[attr-defined]
    store = MemoryStore(remote)
    store.put(("memories", "alice"), "k", {"text": "a private note about tea"})
    store.put(("notes",), "k", {"text": "a shared note about tea"})
    local = MemoryStore(mm)
    mine = local.get(("memories", f"{tenant}:alice"), "k")
    assert mine is not None and mine.value == {"text": "a private note about tea"}
    assert local.get((f"{tenant}:notes",), "k").value["text"].startswith("a shared")  # type: ignore[union-attr]
    assert local.get(("memories", "alice"), "k") is None and local.get(("notes",), "k") is None
    rec = mm.items.get(("memories", f"{tenant}:alice"), "k")
    assert rec.user_id == f"{tenant}:alice" and rec.kind == STORE_KIND
    assert remote.items.get(("memories", "alice"), "k").user_id == "alice"  # type: ignore[union-attr]
    assert json.loads(remote.items.get(("notes",), "k").id) == ["notes", "k"]  # type: ignore[union-attr]
    # the search ranks with the service's own vectors
    hits = store.search(("memories", "alice"), query="tea note")
    assert [h.key for h in hits] == ["k"] and hits[0].score is not None
    assert sorted(store.list_namespaces()) == [("memories", "alice"), ("notes",)]
    # the user's memory goes with the user, the tenant's shared namespace stays
    assert remote.users() == ["alice"]
    remote.delete_user("alice")
    assert store.get(("memories", "alice"), "k") is None
    assert store.list_namespaces() == [("notes",)]


def test_a_secret_in_a_label_is_its_pseudonym_on_both_sides(
    fresh: Callable[[], RemoteMemory], service: dict[str, Any]
) -> None:
    remote = fresh()
    store = MemoryStore(remote)
    store.put(("memories", "bob"), "mail ann@example.com", {"text": "call ann@example.com"})
    [item] = store.search(("memories", "bob"))
    assert "ann@example.com" not in item.key and item.key.startswith("mail [EMAIL:")
    assert item.value == {"text": "call [EMAIL]"}
    assert store.get(("memories", "bob"), "mail ann@example.com") is not None
    dump = json.dumps([r.data for r in service["mm"].items.list()], ensure_ascii=False)
    assert "ann@example.com" not in dump


def test_the_client_loads_no_model(fresh: Callable[[], RemoteMemory]) -> None:
    remote = fresh()
    vecs = remote.embeddings.embed_array(["tea", "茶"])
    assert vecs.shape[0] == 2 and vecs.dtype.name == "float32"
    local = HashingEmbeddings()
    assert [round(x, 5) for x in remote.embeddings.embed_query("tea")] == [
        round(x, 5) for x in local.embed_query("tea")
    ]


def test_the_users_documents_show_in_the_store_over_the_service(
    fresh: Callable[[], RemoteMemory],
) -> None:
    """``MemoryStore``'s read-only documents namespace over a service: a user's own
    documents at ``("documents", user)``; the service keeps no shared knowledge."""
    remote = fresh()
    remote.documents.add("ann", "# Notes\n## Garden\nWater the tomatoes every morning.",
                         document_id="notes")  # fmt: skip
    remote.add_message("bob", "s1", "user", "hi")
    remote.flush(timeout=30)
    store = MemoryStore(remote)
    item = store.get(("documents", "ann"), "notes#0")
    assert item is not None and item.value["title"] == "Notes"
    assert "tomatoes" in item.value["text"] and item.value["shared"] is False
    assert store.get(("documents", "bob"), "notes#0") is None
    assert store.get(("documents",), "notes#0") is None
    [hit] = store.search(("documents", "ann"), query="when to water the tomatoes", limit=1)
    assert hit.key == "notes#0" and hit.score is not None
    assert store.search(("documents", "bob"), query="tomatoes") == []
    assert ("documents", "ann") in store.list_namespaces()
    assert remote.documents.list(None) == [] and remote.documents.chunks("ann", "nope") == []
    with pytest.raises(ValueError, match="shared knowledge"):
        remote.documents.add(None, "x")  # type: ignore[arg-type]
    assert remote.documents.remove("ann", "notes") >= 1
    assert store.get(("documents", "ann"), "notes#0") is None


def test_async_client_parts(service: dict[str, Any], fresh: Callable[[], RemoteMemory]) -> None:
    from langgraph_memory import AsyncRemoteMemory

    sync = fresh()
    sync.documents.add("ann", "# Notes\n## Garden\nWater the tomatoes.", document_id="notes")
    sync.add_message("ann", "s1", "user", "I love green tea.")
    sync.flush(timeout=30)
    key = sync.key  # type: ignore[attr-defined]

    async def main() -> None:
        async with AsyncRemoteMemory(service["url"], api_key=key) as mem:
            rec = await mem.items.put(("memories", "ann"), "k", {"value": {"text": "tea"}})
            assert rec.user_id == "ann" and (await mem.items.get(("memories", "ann"), "k")) == rec
            assert [r.id for r in await mem.items.list(("memories",))] == [rec.id]
            await mem.items.refresh(rec, "2999-01-01T00:00:00+00:00")
            assert rec.data["expires_at"] == "2999-01-01T00:00:00+00:00"
            assert await mem.items.owner(("memories", "ann")) == "ann"
            assert await mem.items.delete_many([rec]) == 1
            assert await mem.items.delete(("memories", "ann"), "k") == 0
            assert await mem.items.set_core_block("ann", "human", "Ann") == "Ann"
            assert await mem.items.core_block("ann", "human") == "Ann"
            assert await mem.items.core_block("nobody", "human") == ""
            prefs = await mem.profile.preferences("ann")
            assert prefs == sync.profile.preferences("ann") and prefs
            assert await mem.profile.facts("ann") == sync.profile.facts("ann")
            assert await mem.profile.entities("nobody") == []
            assert [c.index for c in await mem.documents.chunks("ann", "notes")] == [0]
            assert (await mem.documents.search("ann", "tomatoes"))[0].text.endswith("tomatoes.")
            assert [d.document_id for d in await mem.documents.list("ann")] == ["notes"]

    asyncio.run(main())
