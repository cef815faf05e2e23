"""Entities: who and what the user mentions becomes an entity with its mentions (quoted,
cited, dated) and its relations (the facts naming it); a question naming it gets its
card, one that does not name it does not."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)


@pytest.fixture
def mm(backend: MemoryBackend) -> Iterator[MemoryManager]:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as m:
        yield m


def say(mm: MemoryManager, text: str, day: int, user: str = "ann") -> str:
    return mm.add_turn(
        user, f"s{day}", user=text, assistant="Okay.", timestamp=T0 + timedelta(days=day)
    )[0]


def test_mentions_make_an_entity_whose_card_a_question_naming_it_gets(mm: MemoryManager) -> None:
    a = say(mm, "I met Caroline at the book club on Tuesday.", 0)
    say(mm, "The quarterly report is due soon.", 1)
    b = say(mm, "Yesterday I had coffee with Caroline and her sister.", 5)
    say(mm, "我和王伟在杭州见面了。", 6)
    mm.flush()
    by_name = {e.name: e for e in mm.profile.entities("ann")}
    caroline = by_name["Caroline"]
    assert caroline.type == "person" and caroline.count == 2
    assert [m[0] for m in caroline.mentions] == [a, b]
    assert caroline.first_at == T0 and caroline.last_at == T0 + timedelta(days=5)
    assert by_name["王伟"].type == "person"
    assert mm.profile.entities("bob") == []
    ctx = mm.build_context("ann", "live", "What do I know about Caroline?", 2000)
    [card] = [it for it in ctx.items if it.layer == "entity"]
    assert "Caroline (person): mentioned 2 times" in card.text and card.source_ids == [a, b]
    # its latest mentions, the newest first (a value said last answers a question now)
    assert card.text.index("coffee") < card.text.index("book club")
    # a question that does not name it does not get the card
    ctx = mm.build_context("ann", "live", "When is the quarterly report due?", 2000)
    assert not [it for it in ctx.items if it.layer == "entity"]


def test_relations_are_the_facts_naming_the_entity(mm: MemoryManager) -> None:
    lt = mm._longterm
    lt.facts.add_fact("ann", "Sofia", "runs", "the design review", valid_from=T0)
    lt.facts.add_fact("ann", "ann", "works_with", "Sofia from the design team", valid_from=T0)
    lt.facts.add_fact("ann", "ann", "location", "Lisbon", valid_from=T0)
    assert sorted(f.relation for f in mm.profile.relations("ann", "sofia")) == [
        "runs",
        "works_with",
    ]
    assert mm.profile.relations("bob", "Sofia") == []


def test_a_replayed_message_is_one_mention(mm: MemoryManager) -> None:
    say(mm, "I met Caroline at the book club on Tuesday.", 0)
    mm.flush()
    graph = mm._parts.entities
    msg = mm._backend.iter_messages("ann")[0]
    graph.mention("ann", "Caroline", "person", msg, msg.content)
    assert graph.get("ann", "caroline").count == 1


def test_an_entity_mentioned_once_has_no_card(mm: MemoryManager) -> None:
    say(mm, "I met Caroline at the book club on Tuesday.", 0)
    mm.flush()
    assert [e.count for e in mm.profile.entities("ann") if e.name == "Caroline"] == [1]
    ctx = mm.build_context("ann", "live", "What do I know about Caroline?", 2000)
    assert not [it for it in ctx.items if it.layer == "entity"]


def test_a_batch_writes_each_entity_once_with_every_mention(tmp_path) -> None:
    import threading

    from langgraph_memory.core.records import Message
    from langgraph_memory.layers.long_term.entities import ENTITY_KIND, EntityGraph
    from langgraph_memory.storage import SQLiteBackend

    backend = SQLiteBackend(tmp_path)
    graph = EntityGraph(backend)
    msgs = [
        Message(f"m{i}", "ann", "s", "user", f"Lunch with Caroline, day {i}.", T0 + timedelta(i))
        for i in range(5)
    ]
    graph.mention("ann", "Caroline", "person", msgs[0], msgs[0].content)
    seen_inside: list[int] = []
    with graph.batch():
        for m in msgs[1:]:
            graph.mention("ann", "Caroline", "person", m, m.content)
        graph.mention("ann", "Caroline", "person", msgs[2], msgs[2].content)  # replayed
        graph.mention("ann", "Kyoto", "place", msgs[3], msgs[3].content)
        # another thread reads what was last written: the batch is not stored yet
        reader = threading.Thread(
            target=lambda: seen_inside.append(graph.get("ann", "caroline").count)
        )
        reader.start()
        reader.join()
        assert (
            backend.get_record(ENTITY_KIND, graph.get("ann", "Caroline").id, "ann").data["count"]
            == 1
        )
    assert seen_inside == [1]
    caroline = graph.get("ann", "Caroline")
    assert caroline.count == 5 and [m[0] for m in caroline.mentions] == [m.id for m in msgs]
    assert graph.get("ann", "Kyoto").count == 1
    # outside a batch each mention is written at once
    later = Message("m9", "ann", "s", "user", "Caroline again.", T0 + timedelta(9))
    assert graph.mention("ann", "Caroline", "person", later, later.content).count == 6
    assert graph.get("ann", "Caroline").count == 6
    backend.close()
