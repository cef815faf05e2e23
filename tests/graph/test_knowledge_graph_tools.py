"""The knowledge-graph tools (seed 001): a model finds entities by name and walks their
relations, each with its validity and sources, sync and async, one user at a time."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.prebuilt import create_react_agent
from langgraph.warnings import LangGraphDeprecatedSinceV10
from scripted import scripted
from test_tools import MODES, Mode, call, cfg

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.graph_tools import (
    MAX_NEIGHBOURS,
    name_score,
    walk_relations,
)
from langgraph_memory.integrations.graph.tools import MEMORY_TOOL_NAMES, create_memory_tools

ANN = [
    ("2024-01-10", "My sister Sofia lives in Lisbon."),
    ("2024-02-01", "Sofia works at Google as a designer."),
    ("2024-03-05", "Sofia moved to Berlin last week."),
    ("2024-04-01", "I work at Acme Corp."),
    ("2024-05-01", "Actually I now work at Initech."),
    ("2024-06-01", "I talked to Sofia about the trip."),
]
BOB = [("2024-01-03", "Sofia is my boss at Globex."), ("2024-02-03", "Globex is based in Oslo.")]


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[MemoryManager]:
    with MemoryManager(tmp_path / "kg", embeddings=HashingEmbeddings()) as mm:
        for user, said in (("ann", ANN), ("bob", BOB)):
            for i, (day, text) in enumerate(said):
                mm.add_message(user, "s1", "user", text, timestamp=day, message_id=f"{user}{i}")
        mm.flush()
        yield mm


def tools(memory: MemoryManager) -> dict[str, BaseTool]:
    return {t.name: t for t in create_memory_tools(memory)}


def test_the_graph_tools_come_with_the_memory_tools(memory: MemoryManager) -> None:
    names = [t.name for t in create_memory_tools(memory)]
    assert names == list(MEMORY_TOOL_NAMES)
    assert names[-2:] == ["entity_search", "entity_relations"]
    schema = tools(memory)["entity_relations"].tool_call_schema.model_json_schema()
    assert schema["properties"]["status"]["enum"] == ["all", "current", "superseded"]
    assert "config" not in schema["properties"]


@pytest.mark.parametrize("mode", MODES)
def test_entity_search_finds_entities_by_name(memory: MemoryManager, mode: Mode) -> None:
    t = tools(memory)
    out = call(t["entity_search"], {"name": "sofia"}, cfg("ann"), mode)
    assert out.status == "success"
    assert out.content.splitlines()[1].startswith("1. Sofia (")
    [sofia] = [e for e in memory.profile.entities("ann") if e.name == "Sofia"]
    assert f"mentioned {sofia.count} times, 2024-01-10 to 2024-06-01" in out.content
    [node] = [n for n in out.artifact if n["name"] == "Sofia"]
    assert node["relations"] == 3 and node["current_relations"] == 2
    assert node["source_ids"] == [m[0] for m in sofia.mentions] and "ann5" in node["source_ids"]
    # part of a name finds the whole one
    acme = call(t["entity_search"], {"name": "Acme"}, cfg("ann"), mode)
    assert acme.artifact[0]["name"] == "Acme Corp"
    none = call(t["entity_search"], {"name": "Zanzibar"}, cfg("ann"), mode)
    assert none.content == "No entity matches 'Zanzibar'." and none.artifact == []


@pytest.mark.parametrize("mode", MODES)
def test_relations_carry_validity_and_sources(memory: MemoryManager, mode: Mode) -> None:
    t = tools(memory)
    out = call(t["entity_relations"], {"name": "Sofia"}, cfg("ann"), mode)
    rels = {(r["relation"], r["object"]): r for r in out.artifact}
    lisbon, berlin = rels["lives_in", "Lisbon"], rels["lives_in", "Berlin"]
    assert lisbon["status"] == "superseded" and lisbon["superseded_by"] == berlin["id"]
    assert lisbon["valid_from"][:10] == "2024-01-10" and lisbon["valid_to"][:10] == "2024-03-05"
    assert berlin["status"] == "current" and berlin["valid_to"] is None
    assert lisbon["source_ids"] == ["ann0"] and berlin["source_ids"] == ["ann2"]
    assert [r["valid_from"] for r in out.artifact] == sorted(r["valid_from"] for r in out.artifact)
    text = out.content
    assert "Sofia —lives in→ Lisbon [superseded: held 2024-01-10 to 2024-03-05" in text
    assert "Sofia —lives in→ Berlin [current since 2024-03-05]" in text and "sources: ann2" in text
    # only what holds now, or only what no longer does
    now = call(t["entity_relations"], {"name": "Sofia", "status": "current"}, cfg("ann"), mode)
    assert {r["object"] for r in now.artifact} == {"Berlin", "Google as a designer"}
    old = call(t["entity_relations"], {"name": "Sofia", "status": "superseded"}, cfg("ann"), mode)
    assert [r["object"] for r in old.artifact] == ["Lisbon"]
    # the user's own relations, by what the user calls themselves
    me = call(t["entity_relations"], {"name": "me"}, cfg("ann"), mode)
    jobs = [(r["object"], r["status"]) for r in me.artifact if r["relation"] == "employer"]
    assert jobs == [("Acme Corp", "superseded"), ("Initech", "current")]


@pytest.mark.parametrize("mode", MODES)
def test_a_close_name_is_resolved_and_said(memory: MemoryManager, mode: Mode) -> None:
    out = call(tools(memory)["entity_relations"], {"name": "sofía"}, cfg("ann"), mode)
    assert out.content.startswith("Relations of 'Sofia'")  # accents and case folded
    near = call(tools(memory)["entity_relations"], {"name": "Sofia Rossi"}, cfg("ann"), mode)
    assert near.content.startswith("No entity is named 'Sofia Rossi'; the closest is 'Sofia'.")
    assert {r["object"] for r in near.artifact} >= {"Lisbon", "Berlin"}
    missing = call(tools(memory)["entity_relations"], {"name": "Zanzibar"}, cfg("ann"), mode)
    assert missing.content.startswith("No entity or relation matches 'Zanzibar'")
    bad = call(tools(memory)["entity_relations"], {"name": "Sofia", "hops": 3}, cfg("ann"), mode)
    assert bad.status == "error" and "hops" in bad.content


@pytest.mark.parametrize("mode", MODES)
def test_another_users_graph_is_never_returned(memory: MemoryManager, mode: Mode) -> None:
    t = tools(memory)
    bob = call(t["entity_relations"], {"name": "Sofia", "hops": 2}, cfg("bob"), mode)
    assert [(r["subject"], r["object"]) for r in bob.artifact] == [("user", "Sofia")]  # his boss
    assert not {s for r in bob.artifact for s in r["source_ids"]} - {"bob0", "bob1"}
    assert "Lisbon" not in bob.content and "Berlin" not in bob.content
    found = call(t["entity_search"], {"name": "Sofia"}, cfg("bob"), mode)
    assert found.artifact[0]["source_ids"] == ["bob0"]
    ann = call(t["entity_search"], {"name": "Globex"}, cfg("ann"), mode)
    assert ann.artifact == []
    bound = {x.name: x for x in create_memory_tools(memory, user_id="bob")}
    out = call(bound["entity_relations"], {"name": "Sofia"}, cfg("ann"), mode)
    assert "Berlin" not in out.content  # the bound user wins over the run's


def test_two_hops_follow_the_linked_entities() -> None:
    class F:
        def __init__(self, i: int, s: str, r: str, o: str) -> None:
            self.id, self.subject, self.relation, self.object = f"f{i}", s, r, o
            self.valid_from = datetime(2024, 1, i + 1, tzinfo=timezone.utc)
            self.valid_to, self.superseded_by, self.source_ids = None, None, [f"m{i}"]
            self.quote, self.confidence = None, 1.0

    edges = [
        F(0, "Analysis A", "depends_on", "Experiment B"),
        F(1, "Experiment B", "uses", "Lyon dataset"),
        F(2, "Lyon dataset", "owned_by", "Dr. Roy"),
    ]

    def relations_of(name: str) -> list[F]:
        n = name.casefold()
        return [f for f in edges if f.subject.casefold() == n or n in f.object.casefold()]

    one = walk_relations("Analysis A", relations_of)
    assert [r["id"] for r in one] == ["f0"]
    two = walk_relations("Analysis A", relations_of, hops=2)
    assert [(r["id"], r["hop"]) for r in two] == [("f0", 1), ("f1", 2)]
    assert MAX_NEIGHBOURS >= 1
    with pytest.raises(ValueError, match="hops"):
        walk_relations("Analysis A", relations_of, hops=3)
    with pytest.raises(ValueError, match="status"):
        walk_relations("Analysis A", relations_of, status="old")


def test_name_scores() -> None:
    assert name_score("Sofia", " sofia ") == 1.0
    assert name_score("王伟", "王伟老师") == 0.8
    assert 0 < name_score("Lena Hartmann", "Dr. Hartmann") < 0.8
    assert name_score("Lisbon", "Berlin") == 0.0


def tool_call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


@pytest.mark.parametrize("mode", MODES)
def test_an_agent_walks_the_graph_with_the_tools(memory: MemoryManager, mode: Mode) -> None:
    llm = scripted(
        tool_call("entity_search", {"name": "sofia"}, "c1"),
        tool_call("entity_relations", {"name": "Sofia", "status": "current"}, "c2"),
        "Sofia lives in Berlin now (she used to live in Lisbon).",
        tool_call("entity_relations", {"name": "Sofia"}, "c3"),
        "I only know that Sofia is your boss at Globex.",
    )
    with pytest.warns(LangGraphDeprecatedSinceV10):
        agent = create_react_agent(llm, create_memory_tools(memory))

    def ask(question: str, user: str) -> dict[str, Any]:
        inputs = {"messages": [HumanMessage(content=question)]}
        if mode == "sync":
            return agent.invoke(inputs, cfg(user))
        return asyncio.run(agent.ainvoke(inputs, cfg(user)))

    out = ask("Where does my sister live now?", "ann")
    found, current = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert "1. Sofia (" in found.content
    assert "Sofia —lives in→ Berlin [current since 2024-03-05]" in current.content
    assert "Lisbon" not in current.content  # superseded: left out of the current ones
    assert current.artifact and all(r["status"] == "current" for r in current.artifact)
    assert current.content in [m.content for m in llm.seen[2]]  # the model read it
    other = ask("Where does Sofia live?", "bob")
    [bobs] = [m for m in other["messages"] if isinstance(m, ToolMessage)]
    assert "Globex" in bobs.content
    assert "Berlin" not in bobs.content and "Lisbon" not in bobs.content
