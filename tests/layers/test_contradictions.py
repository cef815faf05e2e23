"""Contradiction links: a statement negating an earlier one of the user is linked to it
(both kept), and the link reaches a context quoting both, dated and cited."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.long_term.contradictions import CONTRADICTION_KIND, Contradiction
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


def links(mm: MemoryManager, user: str = "ann") -> list[Contradiction]:
    return [Contradiction.load(r.data) for r in mm._backend.list_records(CONTRADICTION_KIND, user)]


@pytest.mark.parametrize(
    ("first", "second", "query"),
    [
        (
            "I implemented a Flask route for the login API last week.",
            "I have never implemented a Flask route for the login API.",
            "did I build the login API routes myself?",
        ),
        (
            "我用 Flask 写过登录接口的路由。",
            "我从来没用 Flask 写过登录接口的路由。",
            "登录接口是谁写的？",
        ),
    ],
)
def test_a_negated_statement_is_linked_to_the_one_it_contradicts(
    mm: MemoryManager, first: str, second: str, query: str
) -> None:
    a = say(mm, first, 0)
    say(mm, "Let's look at the deployment pipeline next.", 1)
    b = say(mm, second, 5)
    mm.flush()
    [link] = links(mm)
    assert (link.earlier_id, link.later_id) == (a, b)
    assert link.earlier == first and link.later == second
    assert link.earlier_at < link.later_at
    # both statements are kept as they were
    assert mm._backend.get_message("ann", a).content == first
    # the link reaches a context: both quoted and dated, both cited
    ctx = mm.build_context("ann", "live", query, 2000)
    [item] = [it for it in ctx.items if it.layer == "contradiction"]
    assert first in item.text and second in item.text and "2024-03-01" in item.text
    assert item.source_ids == [a, b]


def test_no_link_without_opposite_polarity(mm: MemoryManager) -> None:
    say(mm, "I implemented a Flask route for the login API last week.", 0)
    say(mm, "I implemented a Flask route for the login API again today.", 2)
    say(mm, "Have you never implemented a Flask route for the login API?", 3)  # a question
    say(mm, "Never give up on the garden plans, my neighbour said.", 4)  # unrelated
    mm.flush()
    assert links(mm) == []


def test_links_are_off_above_one(backend: MemoryBackend) -> None:
    off = MemoryConfig(long_term={"contradiction_min_cosine": 1.5})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=off) as mm:
        say(mm, "I implemented a Flask route for the login API last week.", 0)
        say(mm, "I have never implemented a Flask route for the login API.", 5)
        mm.flush()
        assert links(mm) == []


def test_links_are_removed_with_their_user(mm: MemoryManager) -> None:
    for user in ("ann", "bob"):
        say(mm, "I implemented a Flask route for the billing API last week.", 6, user)
        say(mm, "I have never implemented a Flask route for the billing API.", 9, user)
    mm.flush()
    assert len(links(mm, "bob")) == 1 and len(links(mm, "ann")) == 1
    mm.delete_user("bob")
    assert links(mm, "bob") == [] and len(links(mm, "ann")) == 1


def test_a_statement_is_linked_to_an_earlier_negation(mm: MemoryManager) -> None:
    a = say(mm, "I have never deployed the billing service to Kubernetes.", 0)
    say(mm, "Let's look at the deployment pipeline next.", 1)
    mm.flush()
    b = say(mm, "I deployed the billing service to Kubernetes last night.", 3)
    mm.flush()
    [link] = links(mm)
    assert (link.earlier_id, link.later_id) == (a, b)
