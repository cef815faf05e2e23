"""The MemGPT-style memory tools, called the way a model calls them (tool calls → ToolMessages).

Every tool is exercised sync (``invoke``) and async (``ainvoke``) over every backend of
``conftest.BACKENDS`` with the deterministic ``HashingEmbeddings``.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any, Literal

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.tools import (
    ARCHIVAL_NAME,
    CORE_BLOCK_KIND,
    MEMORY_TOOL_NAMES,
    core_memory_blocks,
    create_memory_tools,
    get_core_block,
    set_core_block,
)
from langgraph_memory.storage import InMemoryBackend

Mode = Literal["sync", "async"]
MODES: list[Mode] = ["sync", "async"]
_ids = itertools.count()


def cfg(user: str, thread: str = "t1") -> RunnableConfig:
    return {"configurable": {"user_id": user, "thread_id": thread}}


def call(tool: BaseTool, args: dict[str, Any], config: RunnableConfig, mode: Mode) -> ToolMessage:
    """Invoke a tool with a tool call, as ToolNode does, and return its ToolMessage."""
    tool_call = {"type": "tool_call", "id": f"call-{next(_ids)}", "name": tool.name, "args": args}
    if mode == "sync":
        out = tool.invoke(tool_call, config)
    else:
        out = asyncio.run(tool.ainvoke(tool_call, config))
    assert isinstance(out, ToolMessage)
    return out


def tools_of(memory: MemoryManager, **kw: Any) -> dict[str, StructuredTool]:
    return {t.name: t for t in create_memory_tools(memory, **kw)}


# -- the factory ------------------------------------------------------------------------------
def test_factory_returns_every_tool_sync_and_async_as_structured_tools(mm: MemoryManager) -> None:
    tools = create_memory_tools(mm)
    assert tuple(t.name for t in tools) == MEMORY_TOOL_NAMES
    for t in tools:
        assert isinstance(t, StructuredTool)
        assert t.func is not None and t.coroutine is not None
        assert t.description
        # the run config is injected, never shown to the model
        assert "config" not in t.tool_call_schema.model_json_schema()["properties"]
    schema = tools[0].tool_call_schema.model_json_schema()
    assert schema["properties"]["label"]["enum"] == ["human", "persona"]
    assert schema["required"] == ["label", "content"]


def test_factory_rejects_bad_arguments(mm: MemoryManager) -> None:
    with pytest.raises(TypeError, match="MemoryManager"):
        create_memory_tools(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="user_id"):
        create_memory_tools(mm, user_id="  ")
    with pytest.raises(ValueError, match="page_size"):
        create_memory_tools(mm, page_size=0)
    with pytest.raises(ValueError, match="non-empty"):
        create_memory_tools(mm, core_limits={})
    with pytest.raises(ValueError, match="identifiers"):
        create_memory_tools(mm, core_limits={"my block": 10})
    with pytest.raises(ValueError, match="core_limits"):
        create_memory_tools(mm, core_limits={"human": 0})


@pytest.mark.parametrize("mode", MODES)
def test_without_a_user_id_the_tools_fail_loudly(mm: MemoryManager, mode: Mode) -> None:
    for name, args in [
        ("core_memory_append", {"label": "human", "content": "x"}),
        ("archival_memory_search", {"query": "x"}),
    ]:
        with pytest.raises(ValueError, match="need a user id"):
            call(tools_of(mm)[name], args, {"configurable": {"thread_id": "t"}}, mode)


# -- core memory ------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_core_memory_append_and_replace(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm)
    out = call(
        tools["core_memory_append"], {"label": "human", "content": "Name: Ana."}, cfg("u"), mode
    )
    assert out.status == "success" and "10/2000" in out.content
    call(tools["core_memory_append"], {"label": "human", "content": "Likes tea."}, cfg("u"), mode)
    assert get_core_block(mm, "u", "human") == "Name: Ana.\nLikes tea."

    out = call(
        tools["core_memory_replace"],
        {"label": "human", "old_content": "tea", "new_content": "green tea"},
        cfg("u"),
        mode,
    )
    assert out.status == "success"
    assert out.content.endswith("Name: Ana.\nLikes green tea.")
    # an empty replacement deletes
    call(
        tools["core_memory_replace"],
        {"label": "human", "old_content": "\nLikes green tea.", "new_content": ""},
        cfg("u"),
        mode,
    )
    assert get_core_block(mm, "u", "human") == "Name: Ana."
    assert get_core_block(mm, "u", "persona") == ""
    assert mm._backend.count_records(CORE_BLOCK_KIND, "u") == 1


@pytest.mark.parametrize("mode", MODES)
def test_replacing_text_that_is_not_there_answers_the_model(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm, user_id="u")
    call(
        tools["core_memory_append"], {"label": "human", "content": "Lives in Lyon."}, cfg("x"), mode
    )
    out = call(
        tools["core_memory_replace"],
        {"label": "human", "old_content": "Paris", "new_content": "Nice"},
        cfg("x"),
        mode,
    )
    assert out.status == "error"
    assert "'Paris' is not in the human block" in out.content
    assert "Lives in Lyon." in out.content  # shows the block so the model can retry
    assert get_core_block(mm, "u", "human") == "Lives in Lyon."


@pytest.mark.parametrize("mode", MODES)
def test_core_block_limits(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm, core_limits={"human": 20, "notes": 30})
    ok = call(tools["core_memory_append"], {"label": "human", "content": "a" * 20}, cfg("u"), mode)
    assert ok.status == "success" and "20/20" in ok.content
    over = call(tools["core_memory_append"], {"label": "human", "content": "b"}, cfg("u"), mode)
    assert over.status == "error" and "over its limit of 20" in over.content
    grow = call(
        tools["core_memory_replace"],
        {"label": "human", "old_content": "a", "new_content": "aa"},
        cfg("u"),
        mode,
    )
    assert grow.status == "error" and "nothing was changed" in grow.content
    assert get_core_block(mm, "u", "human") == "a" * 20
    # the block names are the limits' keys
    bad = call(tools["core_memory_append"], {"label": "persona", "content": "x"}, cfg("u"), mode)
    assert bad.status == "error" and "label" in bad.content
    call(tools["core_memory_append"], {"label": "notes", "content": "n"}, cfg("u"), mode)
    assert core_memory_blocks(mm, "u", limits={"human": 20, "notes": 30}) == (
        '<core_memory>\n<human characters="20/20">\n'
        + "a" * 20
        + '\n</human>\n<notes characters="1/30">\nn\n</notes>\n</core_memory>'
    )


@pytest.mark.parametrize("mode", MODES)
def test_bad_input_comes_back_as_an_error_message(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm)
    cases = [
        ("core_memory_append", {"label": "human", "content": ""}, "content"),
        ("core_memory_append", {"label": "human"}, "content"),
        ("core_memory_replace", {"label": "human", "old_content": "", "new_content": "x"}, "old"),
        ("archival_memory_insert", {"content": ""}, "content"),
        ("archival_memory_search", {"query": "x", "page": -1}, "page"),
        ("conversation_search", {"query": "x", "page": "two"}, "page"),
        ("conversation_search", {}, "query"),
    ]
    for name, args, field in cases:
        out = call(tools[name], args, cfg("u"), mode)
        assert out.status == "error", (name, args)
        assert out.content.startswith("Error: invalid arguments") and field in out.content


def test_set_core_block_seeds_and_validates(mm: MemoryManager) -> None:
    set_core_block(mm, "u", "persona", "I am Sam, a concise assistant.")
    assert "I am Sam" in core_memory_blocks(mm, "u")
    with pytest.raises(ValueError, match="unknown core block"):
        set_core_block(mm, "u", "soul", "x")
    with pytest.raises(ValueError, match="limit"):
        set_core_block(mm, "u", "persona", "x" * 2001)
    with pytest.raises(TypeError):
        set_core_block(mm, "u", "persona", 3)  # type: ignore[arg-type]


def test_core_blocks_survive_a_restart(tmp_path: Path) -> None:
    with MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings()) as mm:
        tools_of(mm)["core_memory_append"].invoke(
            {"label": "human", "content": "喜欢喝乌龙茶"}, cfg("u")
        )
    with MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings()) as mm:
        assert get_core_block(mm, "u", "human") == "喜欢喝乌龙茶"
        assert '<human characters="6/2000">' in core_memory_blocks(mm, "u")
        mm.delete_user("u")
        assert get_core_block(mm, "u", "human") == ""


# -- archival memory and conversation search --------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_archival_insert_then_search(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm)
    out = call(
        tools["archival_memory_insert"],
        {"content": "Ana's daughter Mia starts school in September."},
        cfg("u", "t7"),
        mode,
    )
    assert out.status == "success" and out.content.startswith("Stored in archival memory")
    mm.add_turn("u", "t7", user="Mia loves drawing", assistant="Lovely!")
    mm.flush()
    found = call(
        tools["archival_memory_search"], {"query": "when does Mia start school"}, cfg("u"), mode
    )
    assert found.content.splitlines() == [
        "Archival memories for 'when does Mia start school' (page 0, results 1-1):",
        "1. Ana's daughter Mia starts school in September.",
    ]
    stored = [m for m in mm._backend.iter_messages("u") if m.name == ARCHIVAL_NAME]
    assert [(m.role, m.session_id) for m in stored] == [("system", "t7")]
    # archival memories are not conversation, and conversation is not archival
    conv = call(tools["conversation_search"], {"query": "Mia school drawing"}, cfg("u"), mode)
    assert "starts school" not in conv.content and "Mia loves drawing" in conv.content
    # and the recall path sees archival memories too
    ctx = mm.build_context("u", "t8", "When does Mia start school?", token_budget=200)
    assert stored[0].id in ctx.source_ids


@pytest.mark.parametrize("mode", MODES)
def test_search_tools_page_their_results(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm, user_id="u", page_size=3)
    for i in range(7):
        call(
            tools["archival_memory_insert"], {"content": f"hiking trip number {i}"}, cfg("x"), mode
        )
        mm.add_message("u", f"thread-{i}", "user", f"we went hiking, trip {i}")
    mm.flush()
    seen: list[str] = []
    for name in ("archival_memory_search", "conversation_search"):
        seen.clear()
        for page in range(4):
            out = call(tools[name], {"query": "hiking trip", "page": page}, cfg("x"), mode)
            lines = out.content.splitlines()
            if page < 2:
                assert lines[0].endswith(f"results {page * 3 + 1}-{page * 3 + 3}):")
                assert lines[-1] == f"More results: call again with page={page + 1}."
                seen += lines[1:-1]
            elif page == 2:
                assert lines[0].endswith("results 7-7):") and len(lines) == 2
                seen += lines[1:]
            else:
                assert out.content.endswith("no results on page 3.")
        texts = [line.split(". ", 1)[1] for line in seen]
        assert len(set(texts)) == 7, name  # no result repeated across pages
    assert "(thread thread-" in seen[0] and "user" in seen[0]


@pytest.mark.parametrize("mode", MODES)
def test_nothing_found(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm)
    out = call(tools["archival_memory_search"], {"query": "anything"}, cfg("u"), mode)
    assert out.content == "Archival memories for 'anything': no results."
    out = call(tools["conversation_search"], {"query": "anything"}, cfg("u"), mode)
    assert out.content == "Past messages for 'anything': no results."


def test_archival_insert_refused_by_the_memory_is_reported() -> None:
    config = MemoryConfig(write={"max_content_chars": 50})
    with MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=config
    ) as mm:
        out = call(tools_of(mm)["archival_memory_insert"], {"content": "x" * 51}, cfg("u"), "sync")
        assert out.status == "error" and out.content.startswith("Error: nothing was stored")
        assert mm.stats("u")["messages"] == 0


# -- isolation --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_users_never_see_each_other(mm: MemoryManager, mode: Mode) -> None:
    tools = tools_of(mm)  # user from the config
    one, two = "alice", "human:alice"  # a user id that looks like a block key
    call(
        tools["core_memory_append"],
        {"label": "human", "content": "Allergic to peanuts"},
        cfg(one),
        mode,
    )
    call(
        tools["archival_memory_insert"], {"content": "alice's PIN hint: blue whale"}, cfg(one), mode
    )
    mm.add_message(one, "t1", "user", "my passport number hint is blue whale")
    call(tools["core_memory_append"], {"label": "human", "content": "Likes chess"}, cfg(two), mode)
    mm.flush()

    assert get_core_block(mm, one, "human") == "Allergic to peanuts"
    assert get_core_block(mm, two, "human") == "Likes chess"
    assert "peanuts" not in core_memory_blocks(mm, two)
    for name in ("archival_memory_search", "conversation_search"):
        out = call(tools[name], {"query": "blue whale hint"}, cfg(two), mode)
        assert "no results" in out.content and "whale" not in out.content.split(":", 1)[1]
        assert (
            "blue whale" in call(tools[name], {"query": "blue whale hint"}, cfg(one), mode).content
        )
    # a bound user wins over the config's
    bound = tools_of(mm, user_id=two)
    out = call(bound["archival_memory_search"], {"query": "blue whale"}, cfg(one), mode)
    assert "no results" in out.content


def test_tools_run_under_toolnode_with_the_graph_config(mm: MemoryManager) -> None:
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode(create_memory_tools(mm)))
    builder.add_edge(START, "tools")
    node = builder.compile()
    request = AIMessage(
        content="",
        tool_calls=[
            {
                "name": "core_memory_append",
                "args": {"label": "human", "content": "Vegan"},
                "id": "1",
            },
            {
                "name": "core_memory_replace",
                "args": {"label": "human", "old_content": "meat", "new_content": "x"},
                "id": "2",
            },
        ],
    )
    out = node.invoke({"messages": [request]}, cfg("zoe"))
    statuses = [(m.tool_call_id, m.status) for m in out["messages"][1:]]
    assert statuses == [("1", "success"), ("2", "error")]
    assert get_core_block(mm, "zoe", "human") == "Vegan"
    out = asyncio.run(node.ainvoke({"messages": [request]}, cfg("zoe")))
    assert get_core_block(mm, "zoe", "human") == "Vegan\nVegan"


# -- preference feedback ------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_preference_feedback_moves_confidence(mm: MemoryManager, mode: Mode) -> None:
    mm.add_message("u", "s", "user", "I love green tea.", message_id="m1")
    mm.flush()
    [entry] = mm._longterm.profile.list_preferences("u")
    assert entry.confidence == 1.0
    tools = tools_of(mm)
    out = call(tools["preference_feedback"], {"preference": entry.id, "signal": "corrected"},
               cfg("u"), mode)  # fmt: skip
    assert "confidence 0.6" in out.content  # 1.0 - 0.4: below 0.7, out of the context
    ctx = mm.build_context("u", "s2", "what should I drink?", 400)
    assert not any(it.layer == "profile" for it in ctx.items)
    out = call(tools["preference_feedback"], {"preference": "green tea", "signal": "followed"},
               cfg("u"), mode)  # fmt: skip
    assert "confidence 0.8" in out.content  # by key: back in the context
    assert any(it.layer == "profile" for it in mm.build_context("u", "s2", "drink?", 400).items)
    missing = call(tools["preference_feedback"], {"preference": "nope", "signal": "followed"},
                   cfg("u"), mode)  # fmt: skip
    assert missing.status == "error" and "no preference" in missing.content
    assert mm._longterm.profile.list_preferences("bob") == []  # another user's is never touched
