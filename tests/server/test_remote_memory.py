"""``RemoteMemory`` against a real service on loopback: the manager's types back, the
same answers as the manager in process, and the LangGraph/LangChain pieces' own tests
(recall/remember nodes and ``with_memory``, ``MemoryRetriever``) run unchanged on it.

One uvicorn for the module over a SQLite manager this test holds (so remote answers are
compared with in-process ones on the same store); each test gets a tenant of its own.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
import test_graph_nodes as nodes_suite
import test_retriever as retriever_suite
from live_service import serving

from langgraph_memory import (
    AsyncRemoteMemory,
    ContextItem,
    MemoryContext,
    MemoryHit,
    MemoryManager,
    MemoryRetriever,
    RemoteMemory,
)
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import KeyFile, create_app

pytestmark = pytest.mark.timeout(180)
_tenants = itertools.count()


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("remote")
    keys = KeyFile(root / "keys.json")
    with MemoryManager(root / "mem", embeddings=HashingEmbeddings()) as mm:
        with serving(create_app(mm, keys=keys), log_level="warning") as url:
            yield {"url": url, "keys": keys, "mm": mm}


@pytest.fixture
def tenant(service: dict[str, Any]) -> tuple[str, str]:
    """A fresh tenant and its key."""
    name = f"t{next(_tenants)}"
    return name, service["keys"].create(name)


@pytest.fixture
def remote(service: dict[str, Any], tenant: tuple[str, str]) -> Iterator[RemoteMemory]:
    with RemoteMemory(service["url"], api_key=tenant[1]) as mem:
        yield mem


def test_round_trip_returns_the_managers_types_and_answers(
    remote: RemoteMemory, service: dict[str, Any], tenant: tuple[str, str]
) -> None:
    mid = remote.add_message(
        "alice", "s1", "user", "I am allergic to peanuts.", message_id="pea",
        timestamp="2024-05-01T10:00:00", metadata={"topic": "health"},
    )  # fmt: skip
    assert mid == "pea"
    ids = remote.add_turn("alice", "s1", user="I moved to Lyon.", assistant="Lovely city!")
    batch = [{"session_id": "s2", "role": "user", "content": f"note {i} on tea"} for i in range(3)]
    assert len(remote.add_messages("alice", batch)) == 3 and len(ids) == 2
    remote.flush(timeout=30)

    hits = remote.search("alice", "peanut allergy", k=3)
    assert hits and all(isinstance(h, MemoryHit) for h in hits)
    assert "pea" in hits[0].source_ids  # the message, or a fact from it citing it
    assert remote.search("alice", "peanut", filter={"topic": "nope"}) == []

    ctx = remote.build_context("alice", "s9", "what food should I avoid?", token_budget=300)
    assert isinstance(ctx, MemoryContext) and all(isinstance(i, ContextItem) for i in ctx.items)
    assert ctx.user_id == "alice" and "peanuts" in ctx.to_prompt() and "pea" in ctx.source_ids
    # the same store in process, under the tenant's store id, gives the same context
    local = service["mm"].build_context(
        f"{tenant[0]}:alice", "s9", "what food should I avoid?", token_budget=300
    )
    assert [i.text for i in ctx.items] == [i.text for i in local.items]
    assert ctx.to_prompt() == local.to_prompt() and ctx.tokens == local.tokens
    assert str(remote.build_context("alice", "s9", "peanuts?", explain=True)).count("\n") > 2

    assert remote.stats("alice")["messages"] == 6
    assert remote.users() == ["alice"]
    assert remote.delete("alice", ["pea", "never-written"]) == 1
    assert all("pea" not in h.source_ids for h in remote.search("alice", "peanut allergy", k=3))
    assert remote.delete_user("alice") == 5
    assert remote.users() == []


def test_an_unknown_user_reads_as_empty_like_in_process(remote: RemoteMemory) -> None:
    ctx = remote.build_context("nobody", "s", "anything?", token_budget=100)
    assert ctx.items == [] and ctx.to_prompt() == "" and ctx.token_budget == 100
    assert remote.search("nobody", "anything") == []
    assert remote.delete_user("nobody") == 0 and remote.delete("nobody", "m") == 0
    assert remote.stats("nobody")["messages"] == 0


def test_errors_are_the_managers(
    remote: RemoteMemory, service: dict[str, Any], tenant: tuple[str, str]
) -> None:
    with pytest.raises(ValueError, match="content"):
        remote.add_message("alice", "s", "user", "")
    with pytest.raises(ValueError, match="role"):
        remote.add_message("alice", "s", "pirate", "hi")
    with pytest.raises(PermissionError):
        RemoteMemory(service["url"], api_key=tenant[1] + "x").search("alice", "x")
    service["keys"].revoke(tenant[1])
    with pytest.raises(PermissionError):
        remote.search("alice", "x")
    with pytest.raises(ValueError, match="api_key"):
        RemoteMemory(service["url"], api_key="")
    dead = RemoteMemory("http://127.0.0.1:9", api_key="k", timeout=2)
    with pytest.raises(ConnectionError):
        dead.search("alice", "x")


def test_async_round_trip(service: dict[str, Any], tenant: tuple[str, str]) -> None:
    async def main() -> tuple[list[MemoryHit], MemoryContext, int]:
        async with AsyncRemoteMemory(service["url"], api_key=tenant[1]) as mem:
            await mem.add_message("bob", "s1", "user", "My train leaves at 7:40 from Lyon.")
            await mem.add_messages(
                "bob", [{"session_id": "s1", "role": "user", "content": "I take the TGV."}]
            )
            await mem.flush()
            hits, ctx = await asyncio.gather(
                mem.search("bob", "train time", k=2),
                mem.build_context("bob", "s2", "When is my train?", token_budget=200),
            )
            return hits, ctx, await mem.delete_user("bob")

    hits, ctx, deleted = asyncio.run(main())
    assert "7:40" in hits[0].text and "7:40" in ctx.to_prompt() and deleted == 2


# -- the LangGraph and LangChain pieces, their own tests, on a RemoteMemory ------------------
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("build", list(nodes_suite.BUILDERS))
def test_graph_nodes_acceptance_over_the_service(
    remote: RemoteMemory, build: str, mode: Literal["sync", "async"]
) -> None:
    nodes_suite.test_fact_told_in_one_thread_is_recalled_in_another_and_never_for_another_user(
        remote,  # type: ignore[arg-type]
        build,
        mode,
    )


NODE_CASES = [
    "test_memory_message_is_replaced_each_turn_not_piled_up",
    "test_recall_without_checkpointer_brings_back_the_current_thread",
    "test_remember_is_idempotent",
    "test_recall_options",
    "test_with_memory_wraps_a_plain_node_and_checks_the_schema",
]


def _node_params() -> list[tuple[str, dict[str, Any]]]:
    """Each case of the nodes suite with each combination of its parameters."""
    out: list[tuple[str, dict[str, Any]]] = []
    for case in NODE_CASES:
        marks = [
            m for m in getattr(getattr(nodes_suite, case), "pytestmark", [])
            if m.name == "parametrize"
        ]  # fmt: skip
        names = [m.args[0] for m in marks]
        for values in itertools.product(*(m.args[1] for m in marks)):
            out.append((case, dict(zip(names, values, strict=True))))
    return out


@pytest.mark.parametrize(
    ("case", "params"),
    _node_params(),
    ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())),
)
def test_graph_nodes_suite_over_the_service(
    remote: RemoteMemory, case: str, params: dict[str, Any]
) -> None:
    getattr(nodes_suite, case)(remote, **params)


@pytest.fixture
def filled(remote: RemoteMemory) -> RemoteMemory:
    """The retriever suite's Alice and Bob, stored over HTTP and flushed."""
    for user, msgs in (("alice", retriever_suite.ALICE), ("bob", retriever_suite.BOB)):
        remote.add_messages(
            user,
            [
                {
                    "session_id": session,
                    "role": role,
                    "content": content,
                    "name": "Alice" if user == "alice" and role == "user" else None,
                    "timestamp": f"2024-05-{i + 1:02d}T10:00:00",
                    "message_id": mid,
                    "metadata": meta,
                }  # fmt: skip
                for i, (mid, session, role, content, meta) in enumerate(msgs)
            ],
        )
    remote.flush(timeout=30)
    return remote


@pytest.mark.parametrize(
    "case",
    [
        "test_documents_carry_the_hit_and_its_citations",
        "test_documents_match_manager_search",
        "test_k_from_constructor_and_per_call",
        "test_filter_from_constructor_and_per_call",
        "test_layers",
        "test_unknown_user_sees_nothing",
        "test_ainvoke",
        "test_batch_and_abatch",
    ],
)
def test_retriever_suite_over_the_service(filled: RemoteMemory, case: str) -> None:
    getattr(retriever_suite, case)(filled)


def test_retriever_never_returns_another_users_memory_over_the_service(
    filled: RemoteMemory,
) -> None:
    for query in retriever_suite.QUERIES:
        retriever_suite.test_never_returns_another_users_memory(filled, query)
    assert isinstance(MemoryRetriever(memory=filled, user_id="alice"), MemoryRetriever)


# -- MemoryMiddleware (langchain's create_agent), its own tests on a RemoteMemory ------------
MIDDLEWARE_CASES = [
    "test_recalls_across_threads_for_the_same_user_only",
    "test_async_agent_recalls_and_remembers",
    "test_tool_runs_become_steps_and_an_episode",
    "test_missing_user_id_is_a_clear_error",
    "test_context_user_id_is_used_when_config_has_none",
]


@pytest.mark.parametrize("case", MIDDLEWARE_CASES)
def test_middleware_suite_over_the_service(remote: RemoteMemory, case: str) -> None:
    middleware_suite = pytest.importorskip("test_middleware")
    getattr(middleware_suite, case)(remote)


def test_maintenance_node_refuses_a_remote_memory(remote: RemoteMemory) -> None:
    from langgraph_memory import memory_maintenance_node

    with pytest.raises(TypeError, match="a MemoryManager, got RemoteMemory"):
        memory_maintenance_node(remote)  # type: ignore[arg-type]
