"""``MemoryCheckpointer`` and the memory tools over a service: LangGraph's checkpoint
conformance suite, and the checkpointer's, the memory tools' and the knowledge-graph
tools' own cases, run unchanged on a ``RemoteMemory`` pointed at a real uvicorn on
loopback. The cases that read the manager's insides (``mm._backend``) have twins here
that read the served manager this test holds, under the tenant's store user ids.

One server for the module; each test gets a tenant of its own.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_checkpointer as checkpointer_suite
import test_checkpointer_conformance as conformance_suite
import test_knowledge_graph_tools as kg_suite
import test_tools as tools_suite
from langgraph.checkpoint.memory import InMemorySaver
from live_service import served_memory

from langgraph_memory import MemoryCheckpointer, MemoryManager, RemoteMemory
from langgraph_memory.integrations.graph.tools import ARCHIVAL_NAME, get_core_block
from langgraph_memory.parts.items import CORE_BLOCK_KIND

pytestmark = pytest.mark.timeout(180)
_tenants = itertools.count()


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with served_memory(tmp_path_factory.mktemp("remote-pieces")) as served:
        yield served


@pytest.fixture
def tenant(service: dict[str, Any]) -> tuple[str, str]:
    name = f"p{next(_tenants)}"
    return name, service["keys"].create(name)


@pytest.fixture
def remote(service: dict[str, Any], tenant: tuple[str, str]) -> Iterator[RemoteMemory]:
    with RemoteMemory(service["url"], api_key=tenant[1]) as mem:
        yield mem


def _mode_cases(module: Any, names: list[str]) -> list[tuple[str, str | None]]:
    """Each case, with each of its modes when it has a ``mode`` parameter."""
    out: list[tuple[str, str | None]] = []
    for name in names:
        marks = [
            m for m in getattr(getattr(module, name), "pytestmark", []) if m.name == "parametrize"
        ]
        modes = [v for m in marks if m.args[0] == "mode" for v in m.args[1]]
        out += [(name, mode) for mode in modes] if modes else [(name, None)]
    return out


def _ids(v: Any) -> str:
    return str(v)


# -- MemoryCheckpointer ----------------------------------------------------------------------
@pytest.mark.asyncio
@pytest.mark.filterwarnings("ignore::UserWarning")
async def test_checkpoint_conformance_over_the_service(
    remote: RemoteMemory, tmp_path: Path
) -> None:
    """LangGraph's conformance report of ``MemoryCheckpointer(InMemorySaver(), remote)``
    equals the bare saver's: every base capability passes."""
    inner = conformance_suite.INNER["InMemorySaver"]
    wrapped = await conformance_suite._report("remote", inner, tmp_path / "w", True, remote)
    bare = await conformance_suite._report("bare", inner, tmp_path / "b", False)
    results = wrapped["results"]
    assert not {k: r["failures"] for k, r in results.items() if r["passed"] is False}
    for cap in ("put", "put_writes", "get_tuple", "list", "delete_thread"):
        assert results[cap]["passed"] is True and results[cap]["tests_passed"] > 0, cap
    assert wrapped["conformance_level"] == bare["conformance_level"] == "FULL"


def test_checkpointer_suite_over_the_service(
    remote: RemoteMemory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    saver = MemoryCheckpointer(InMemorySaver(), remote)
    checkpointer_suite.test_capture_errors_never_break_checkpointing(
        remote,  # type: ignore[arg-type]
        saver,
        monkeypatch,
        caplog,
    )
    monkeypatch.undo()
    checkpointer_suite.test_with_allowlist_keeps_wrapping(remote, saver)  # type: ignore[arg-type]
    checkpointer_suite.test_rejects_wrong_types(remote)  # type: ignore[arg-type]
    saver = MemoryCheckpointer(InMemorySaver(), remote)
    asyncio.run(checkpointer_suite.test_async_path(remote, saver))  # type: ignore[arg-type]


def test_checkpointer_captures_into_the_service_once(
    remote: RemoteMemory, service: dict[str, Any], tenant: tuple[str, str]
) -> None:
    """``test_thread_messages_are_searchable_and_scoped`` and ``test_capture_is_idempotent``
    over the service, read back in the served manager under the tenant's users."""
    mm: MemoryManager = service["mm"]
    saver = MemoryCheckpointer(InMemorySaver(), remote)
    graph = checkpointer_suite._chat_graph(saver, ["Noted, peanuts are off the menu.", "Hi Bob."])
    graph.invoke(
        {"messages": [("user", "I am allergic to peanuts")]}, checkpointer_suite._cfg("u1", "A")
    )
    graph.invoke(
        {"messages": [("user", "I am Bob, I like hiking")]}, checkpointer_suite._cfg("u2", "B")
    )
    remote.flush(timeout=30)
    stored = mm._backend.session_messages(f"{tenant[0]}:u1", "A")
    assert [m.content for m in stored] == [
        "I am allergic to peanuts",
        "Noted, peanuts are off the menu.",
    ]
    [first, *_] = remote.search("u1", "peanut allergy", k=5, layers=["message"])
    assert first.text == "I am allergic to peanuts" and first.id == stored[0].id
    assert all("peanut" not in h.text for h in remote.search("u2", "peanut allergy", k=10))
    # the latest checkpoint put again, through a fresh wrapper too: nothing stored twice
    latest = saver.get_tuple(checkpointer_suite._cfg("u1", "A"))
    assert latest is not None
    versions = {"messages": latest.checkpoint["channel_versions"]["messages"]}
    config = {"configurable": {**latest.config["configurable"], "user_id": "u1"}}
    for again in (saver, MemoryCheckpointer(saver.inner, remote)):
        again.put(config, latest.checkpoint, latest.metadata, versions)  # type: ignore[arg-type]
    assert len(mm._backend.session_messages(f"{tenant[0]}:u1", "A")) == 2
    assert mm._backend.session_messages("u1", "A") == []  # nothing outside the tenant


# -- the memory tools ------------------------------------------------------------------------
TOOL_CASES = [
    "test_factory_returns_every_tool_sync_and_async_as_structured_tools",
    "test_factory_rejects_bad_arguments",
    "test_without_a_user_id_the_tools_fail_loudly",
    "test_replacing_text_that_is_not_there_answers_the_model",
    "test_core_block_limits",
    "test_bad_input_comes_back_as_an_error_message",
    "test_set_core_block_seeds_and_validates",
    "test_search_tools_page_their_results",
    "test_nothing_found",
    "test_users_never_see_each_other",
    "test_tools_run_under_toolnode_with_the_graph_config",
]


@pytest.mark.parametrize(("case", "mode"), _mode_cases(tools_suite, TOOL_CASES), ids=_ids)
def test_tools_suite_over_the_service(remote: RemoteMemory, case: str, mode: str | None) -> None:
    fn = getattr(tools_suite, case)
    fn(remote) if mode is None else fn(remote, mode)


@pytest.mark.parametrize("mode", tools_suite.MODES)
def test_core_blocks_archival_and_feedback_over_the_service(
    remote: RemoteMemory, service: dict[str, Any], tenant: tuple[str, str], mode: Any
) -> None:
    """The tools' cases that read the manager's insides, read in the served manager."""
    mm: MemoryManager = service["mm"]
    uid = f"{tenant[0]}:u"
    tools, cfg, call = tools_suite.tools_of(remote), tools_suite.cfg, tools_suite.call
    call(tools["core_memory_append"], {"label": "human", "content": "Name: Ana."}, cfg("u"), mode)
    call(tools["core_memory_append"], {"label": "human", "content": "Likes tea."}, cfg("u"), mode)
    swap = {"label": "human", "old_content": "tea", "new_content": "green tea"}
    out = call(tools["core_memory_replace"], swap, cfg("u"), mode)
    assert out.status == "success" and out.content.endswith("Name: Ana.\nLikes green tea.")
    assert get_core_block(remote, "u", "human") == mm.items.core_block(uid, "human")
    assert mm.items.core_block(uid, "human") == "Name: Ana.\nLikes green tea."
    assert (
        get_core_block(remote, "u", "persona") == "" and get_core_block(remote, "v", "human") == ""
    )
    assert mm._backend.count_records(CORE_BLOCK_KIND, uid) == 1

    note = {"content": "Ana's daughter Mia starts school in September."}
    out = call(tools["archival_memory_insert"], note, cfg("u", "t7"), mode)
    assert out.status == "success"
    remote.add_message("u", "s", "user", "I love green tea.", message_id="m1")
    remote.flush(timeout=30)
    stored = [m for m in mm._backend.iter_messages(uid) if m.name == ARCHIVAL_NAME]
    assert [(m.role, m.session_id) for m in stored] == [("system", "t7")]
    found = call(
        tools["archival_memory_search"], {"query": "when does Mia start school"}, cfg("u"), mode
    )
    assert found.content.splitlines()[1] == "1. Ana's daughter Mia starts school in September."

    [entry] = remote.profile.preferences("u")
    [local] = mm.profile.preferences(uid)
    assert entry == dataclasses.replace(local, user_id="u") and entry.confidence == 1.0
    out = call(
        tools["preference_feedback"],
        {"preference": entry.id, "signal": "corrected"},
        cfg("u"),
        mode,
    )
    assert "confidence 0.6" in out.content
    assert mm.profile.preferences(uid)[0].confidence == pytest.approx(0.6)
    missing = call(
        tools["preference_feedback"], {"preference": "nope", "signal": "followed"}, cfg("u"), mode
    )
    assert missing.status == "error" and "no preference" in missing.content
    assert remote.profile.preferences("bob") == []


# -- the knowledge-graph tools ---------------------------------------------------------------
@pytest.fixture
def graph_memory(remote: RemoteMemory) -> RemoteMemory:
    """The knowledge-graph suite's Ann and Bob, told over HTTP and flushed."""
    for user, said in (("ann", kg_suite.ANN), ("bob", kg_suite.BOB)):
        remote.add_messages(
            user,
            [
                {
                    "session_id": "s1",
                    "role": "user",
                    "content": text,
                    "timestamp": day,
                    "message_id": f"{user}{i}",
                }
                for i, (day, text) in enumerate(said)
            ],  # fmt: skip
        )
    remote.flush(timeout=30)
    return remote


KG_CASES = [
    "test_the_graph_tools_come_with_the_memory_tools",
    "test_entity_search_finds_entities_by_name",
    "test_relations_carry_validity_and_sources",
    "test_a_close_name_is_resolved_and_said",
    "test_another_users_graph_is_never_returned",
    "test_an_agent_walks_the_graph_with_the_tools",
]


@pytest.mark.parametrize(("case", "mode"), _mode_cases(kg_suite, KG_CASES), ids=_ids)
def test_knowledge_graph_tools_suite_over_the_service(
    graph_memory: RemoteMemory, case: str, mode: str | None
) -> None:
    fn = getattr(kg_suite, case)
    fn(graph_memory) if mode is None else fn(graph_memory, mode)


def test_profile_reads_match_the_served_manager(
    graph_memory: RemoteMemory, service: dict[str, Any], tenant: tuple[str, str]
) -> None:
    mm: MemoryManager = service["mm"]
    uid = f"{tenant[0]}:ann"
    local_facts = mm.profile.facts(uid)
    remote_facts = graph_memory.profile.facts("ann")
    assert remote_facts and [f.id for f in remote_facts] == [f.id for f in local_facts]
    assert {f.user_id for f in remote_facts} == {"ann"}
    assert [f.id for f in graph_memory.profile.facts("ann", current=True)] == [
        f.id for f in mm.profile.facts(uid, current=True)
    ]
    entities = graph_memory.profile.entities("ann")
    assert [e.name for e in entities] == [e.name for e in mm.profile.entities(uid)]
    assert [f.id for f in graph_memory.profile.relations("ann", "Sofia")] == [
        f.id for f in mm.profile.relations(uid, "Sofia")
    ]
    assert graph_memory.profile.entities("nobody") == []
    assert len(graph_memory.profile.insights("ann")) == len(mm.profile.insights(uid))
    assert len(graph_memory.profile.rollups("ann")) == len(mm.profile.rollups(uid))
