"""Scores that mean something, one hit per source, layer names that filter, and the
essentials (anchors, profile) at every budget — on the bundled demo data with the real
model.

- every hit and context item carries one relevance in [0, 1], the same scale for every
  layer: what answers a question scores clearly above what does not, through
  ``MemoryManager.search``, ``MemoryRetriever``, ``MemoryStore.search`` and the CLI;
- a fact, the profile entry quoting its message and the message are one hit citing all;
- every label a hit shows is accepted by ``search(layers=...)`` and keeps that label;
- from 100 tokens on, a context carries the standing instruction and profile entries
  first (shortened to fit), as the CLI demo (300), notebook 04 (250) and the middleware
  default (1000) show; with ``packing.essential_tokens`` more profile entries do, every
  one the room holds (each line takes at least ``MIN_LINE_TOKENS``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager, MemoryRetriever
from langgraph_memory.core.tokens import count_tokens
from langgraph_memory.core.validation import HIT_GROUP, check_layers
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph import MemoryStore
from langgraph_memory.read.essentials import MIN_LINE_TOKENS, POINTER_TOKENS, RELATED, shorten
from langgraph_memory.storage import InMemoryBackend

USER = "demo-user"
#: (question, an id of a message that answers it)
ANSWERED = [
    ("Does the user prefer coffee or tea?", "s1-03"),
    ("What pet does the user have?", "s1-11"),
    ("What is the user allergic to?", "s1-05"),
    ("When is the Kyoto trip?", "s3-01"),
]
#: Questions the demo conversation says nothing about.
UNRELATED = [
    "What is the boiling point of mercury?",
    "Who won the 1998 football world cup final?",
    "How do I configure a Kubernetes ingress controller?",
]


def _records() -> list[dict[str, Any]]:
    text = resources.files("langgraph_memory").joinpath("data/demo.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _ingest(mm: MemoryManager) -> None:
    for r in _records():
        mm.add_message(
            r["user_id"],
            r["session_id"],
            r["role"],
            r["content"],
            timestamp=r.get("timestamp"),
            message_id=r.get("message_id"),
            metadata=r.get("metadata"),
        )
    mm.flush()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory, minilm: Embeddings) -> Iterator[MemoryManager]:
    mm = MemoryManager(tmp_path_factory.mktemp("demo"), embeddings=minilm)
    _ingest(mm)
    yield mm
    mm.close()


# -- one relevance, comparable across layers ----------------------------------------------
def test_search_scores_are_relevances_in_0_1_best_first(demo: MemoryManager) -> None:
    for question, _ in ANSWERED:
        hits = demo.search(USER, question, k=10)
        scores = [h.score for h in hits]
        assert all(0.0 <= s <= 1.0 for s in scores)
        assert scores == sorted(scores, reverse=True)
        assert all("rank_score" in h.score_parts for h in hits)


def test_what_answers_scores_clearly_above_what_does_not_across_layers(
    demo: MemoryManager,
) -> None:
    answering, unrelated = [], []
    layers = set()
    for question, answer in ANSWERED:
        hits = demo.search(USER, question, k=10)
        best = next(h for h in hits if answer in h.source_ids)
        answering.append(best.score)
        layers.add(best.layer)
    for question in UNRELATED:
        hits = demo.search(USER, question, k=10)
        unrelated += [h.score for h in hits]
        layers |= {h.layer for h in hits}
    # a threshold works: every answer above it, every hit of an unrelated question below
    assert min(answering) >= 0.5, answering
    assert max(unrelated) < 0.3, unrelated
    assert len(layers) >= 2  # the same scale for messages and long-term entries


def test_context_items_carry_the_same_relevance(demo: MemoryManager) -> None:
    ctx = demo.build_context(USER, "cli", "Does the user prefer coffee or tea?", 2000)
    by_source = {s: it.relevance for it in ctx.items for s in it.source_ids}
    assert all(0.0 <= it.relevance <= 1.0 for it in ctx.items)
    assert by_source["s1-03"] >= 0.5
    unrelated = demo.build_context(USER, "cli", UNRELATED[0], 2000)
    assert unrelated.items and max(it.relevance for it in unrelated.items) < 0.3
    assert "relevance" in unrelated.to_dict()["items"][0]
    assert "relevance=" in unrelated.explanation()


def test_the_retriever_and_the_store_score_alike(demo: MemoryManager) -> None:
    retriever = MemoryRetriever(memory=demo, user_id=USER, k=5)
    related = retriever.invoke("Does the user prefer coffee or tea?")
    unrelated = retriever.invoke(UNRELATED[1])
    assert related[0].metadata["score"] >= 0.5
    assert max(d.metadata["score"] for d in unrelated) < 0.3

    store = MemoryStore(demo)
    store.put(("notes", USER), "coffee", {"text": "The user drinks a flat white every morning."})
    store.put(("notes", USER), "cat", {"text": "Mochi the cat had her vet check-up."})
    store.put(("notes", USER), "trip", {"text": "Flights to Osaka are booked for April 18."})
    items = store.search(("notes",), query="what coffee does the user drink in the morning?")
    assert items[0].key == "coffee" and items[0].score is not None and items[0].score >= 0.5
    assert all(i.score is not None and i.score < 0.3 for i in items[1:])
    far = store.search(("notes",), query=UNRELATED[0])
    assert all(i.score is not None and i.score < 0.3 for i in far)


# -- one item per source --------------------------------------------------------------------
def test_a_fact_its_profile_entry_and_its_message_come_back_as_one_hit(
    demo: MemoryManager,
) -> None:
    for question, _ in ANSWERED:
        hits = demo.search(USER, question, k=8)
        cited = [frozenset(h.source_ids) for h in hits]
        # no two hits come from the same messages (sources may nest: a belief confirmed
        # across turns cites the assistant's words and the user's yes, and that yes may
        # hold a fact of its own)
        assert all(cited) and len(set(cited)) == len(cited), (question, hits)
        # a message a fact or profile entry stands for never comes back as a hit of its own
        shown = {h.id for h in hits if h.layer == "message"}
        for h in hits:
            if len(h.source_ids) == 1 and h.layer != "message":
                assert not (set(h.source_ids) & shown), (question, hits)
        texts = [" ".join(h.text.split()).casefold() for h in hits]
        assert len(set(texts)) == len(texts)
    hits = demo.search(USER, "Does the user prefer coffee or tea?", k=8)
    [coffee] = [h for h in hits if "s1-03" in h.source_ids]
    merged = coffee.metadata.get("merged_ids", [])
    # the message and the preference quoting it: one hit naming the other
    assert merged and ({coffee.id, *merged} & {"s1-03"})
    assert len({coffee.layer, *coffee.metadata["merged_layers"]}) >= 2


# -- layer names the same in output and filters --------------------------------------------
def test_every_layer_a_hit_shows_is_accepted_as_a_filter(demo: MemoryManager) -> None:
    shown = {h.layer for q, _ in ANSWERED for h in demo.search(USER, q, k=20)}
    assert {"message", "profile", "fact"} <= shown
    for layer in shown | set(HIT_GROUP):
        check_layers([layer])  # accepted
    for layer in shown:
        hits = demo.search(USER, "Where did the user live before moving?", k=10, layers=[layer])
        assert hits and {h.layer for h in hits} == {layer}, layer
    both = demo.search(
        USER, "Where did the user live before moving?", k=10, layers=["fact", "profile"]
    )
    assert {h.layer for h in both} <= {"fact", "profile"}
    with pytest.raises(ValueError, match="known layers.*fact"):
        demo.search(USER, "x", layers=["facts"])
    retriever = MemoryRetriever(memory=demo, user_id=USER, layers=["fact"])
    assert {d.metadata["layer"] for d in retriever.invoke("where does the user live?")} == {"fact"}


# -- the essentials at every budget ---------------------------------------------------------
@pytest.mark.parametrize("budget", [100, 150, 250, 300, 500, 1000])
def test_anchors_and_profile_go_first_at_every_budget_from_100(
    demo: MemoryManager, budget: int
) -> None:
    """By default each kind that has no whole line within its share gets its closest
    line shortened (the standing instruction and one profile entry at least, whatever
    the budget); with ``essential_tokens`` every entry rides along, shortened."""
    ctx = demo.build_context(USER, "cli", "What should I avoid cooking for the user?", budget)
    layers = [it.layer for it in ctx.items]
    assert ctx.tokens <= budget
    assert layers[0] == "anchor" and "profile" in layers, layers
    assert all(x in ("anchor", "profile") for x in layers[: layers.index("profile") + 1])
    assert "allergic to peanuts" in ctx.to_prompt().split("\n")[1]  # the instruction


@pytest.mark.parametrize(("budget", "essential"), [(250, 150), (300, 150), (600, 300)])
def test_with_essential_tokens_the_profile_rides_along_as_far_as_the_room_holds(
    tmp_path: Path, minilm: Embeddings, budget: int, essential: int
) -> None:
    question = "What should I avoid cooking for the user?"
    with MemoryManager(tmp_path / "m", embeddings=minilm) as mm:
        _ingest(mm)
        without = mm.build_context(USER, "cli", question, budget)
    config = MemoryConfig(packing={"essential_tokens": essential})
    with MemoryManager(tmp_path / "m", embeddings=minilm, config=config) as mm:
        ctx = mm.build_context(USER, "cli", question, budget)
        entries = mm._read.long_term.profile_docs(USER)
    layers = [it.layer for it in ctx.items]
    assert layers[0] == "anchor" and ctx.tokens <= budget, layers
    plain = [it.layer for it in without.items].count("profile")
    assert layers.count("profile") > plain, (layers, plain)  # more than the shares give
    assert any("shortened_from_tokens" in it.score_parts for it in ctx.items)
    # every profile entry rides along (shortened), or a line of the context says it
    # already, unless the essentials filled their room: each line takes at least
    # MIN_LINE_TOKENS, so a long profile fits only in part (the closest entries first)
    essentials = sum(it.tokens for it in ctx.items if it.layer in ("anchor", "profile"))
    cited = {s for it in ctx.items if it.layer in ("anchor", "profile") for s in it.source_ids}
    missing = [d.text for d in entries if not set(d.source_ids) <= cited]
    room = min(essential, budget // 2)
    assert not missing or essentials >= room - MIN_LINE_TOKENS - 2, (missing, essentials)
    if budget >= 600:  # room for every entry
        assert not missing, missing


def test_the_cli_demo_and_notebook_04_defaults_show_the_essentials(demo: MemoryManager) -> None:
    from langgraph_memory.integrations.cli.commands import (
        DEMO_QUESTIONS,
        DEMO_SESSION,
        build_parser,
    )

    default = build_parser().parse_args(["demo"]).budget
    for question in DEMO_QUESTIONS:  # the CLI demo's questions at its default budget
        ctx = demo.build_context(USER, DEMO_SESSION, question, default)
        layers = [it.layer for it in ctx.items]
        assert layers[0] == "anchor" and "profile" in layers, (question, layers)
    # notebook 04, as it runs: the hashing embedder in memory, its question at 250 tokens
    notebook = Path(__file__).resolve().parents[2] / "notebooks" / "04_inspecting_memory.ipynb"
    cells = json.loads(notebook.read_text("utf-8"))["cells"]
    source = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    call = 'mm.build_context(user, "new-session", "What should I avoid eating?", token_budget=250'
    assert call in source
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        for r in _records():
            mm.add_message(
                r["user_id"], r["session_id"], r["role"], r["content"],
                timestamp=r["timestamp"], message_id=r["message_id"],
            )  # fmt: skip
        mm.flush()
        ctx = mm.build_context(USER, "new-session", "What should I avoid eating?", 250)
        layers = [it.layer for it in ctx.items]
        assert layers[0] == "anchor" and "profile" in layers, layers
        assert "allergic to peanuts" in ctx.to_prompt()


def test_the_middleware_default_budget_carries_the_essentials(demo: MemoryManager) -> None:
    import inspect

    from langgraph_memory.integrations.graph import MemoryMiddleware

    budget = inspect.signature(MemoryMiddleware.__init__).parameters["token_budget"].default
    ctx = demo.build_context(USER, "thread-1", "Plan my dinner for tonight.", budget)
    layers = [it.layer for it in ctx.items]
    assert layers[0] == "anchor" and "profile" in layers


def test_at_a_small_budget_a_profile_the_query_is_not_about_is_one_pointer_line(
    demo: MemoryManager,
) -> None:
    """The profile rides along at every budget, but at a small one (its share holds
    fewer than two shortest lines) an unrelated question gets it as one pointer line
    (its label and first words) and the room goes to retrieval; a related question
    gets its entry as before, and a larger budget the whole lines its share holds."""
    question = UNRELATED[0]
    small = demo.build_context(USER, "cli", question, 250)
    lines = [it for it in small.items if it.layer == "profile"]
    assert len(lines) == 1, [it.layer for it in small.items]
    assert count_tokens(lines[0].text) <= POINTER_TOKENS and lines[0].relevance < RELATED
    assert lines[0].text.split(":")[0] in ("User preference", "About the user (allergy")  # label
    assert "unrelated to the query" in lines[0].reason and lines[0].source_ids
    related = demo.build_context(USER, "cli", "Does the user prefer coffee or tea?", 250)
    entry = next(it for it in related.items if it.layer == "profile")
    assert entry.relevance >= RELATED and ("coffee" in entry.text or "tea" in entry.text)
    assert count_tokens(entry.text) > POINTER_TOKENS
    large = demo.build_context(USER, "cli", question, 1000)
    whole = [it for it in large.items if it.layer == "profile"]
    assert whole and all("shortened_from_tokens" not in it.score_parts for it in whole)


@pytest.mark.parametrize("budget", [400, 500, 700])
def test_at_a_middling_budget_a_profile_the_query_is_not_about_is_one_short_line(
    demo: MemoryManager, budget: int
) -> None:
    """Between the small budgets (a pointer line) and the large ones (whole lines within
    the share), an unrelated question gets the profile as one line of at most
    MIN_LINE_TOKENS; a related one gets its entry whole."""
    for question in UNRELATED:
        ctx = demo.build_context(USER, "cli", question, budget)
        lines = [it for it in ctx.items if it.layer == "profile"]
        assert len(lines) == 1, [it.layer for it in ctx.items]
        assert count_tokens(lines[0].text) <= MIN_LINE_TOKENS + 2, lines[0].text
        assert "unrelated to the query: one short line" in lines[0].reason
        assert lines[0].relevance < RELATED and lines[0].source_ids and ctx.tokens <= budget
    related = demo.build_context(USER, "cli", "Does the user prefer coffee or tea?", budget)
    entry = next(it for it in related.items if it.layer == "profile")
    assert entry.relevance >= RELATED and "shortened_from_tokens" not in entry.score_parts


def test_a_line_is_shortened_to_its_label_and_the_sentences_closest_to_the_query() -> None:
    text = (
        "Standing instruction (said 2024-03-04): Yes, an important one: I'm allergic to "
        "peanuts. Even peanut oil gives me hives, so please never suggest satay."
    )
    short = shorten(text, {"satay"}, 30)
    assert short.startswith("Standing instruction (said 2024-03-04): ")
    assert "satay" in short and "…" in short
    zh = "关于用户（allergy）：“对了，提醒一下：我对花生过敏。成都很多菜都放花生碎，请留意。”"
    assert shorten(zh, {"过敏"}, 25) == "关于用户（allergy）：“对了，提醒一下：我对花生过敏。 …”"
    assert shorten("short enough", set(), 30) == "short enough"
