"""Through the write path: a user's short answer to the assistant's either-or question is a
liking in the user's words; the question makes no belief (nor a dislike of the other
option), and an answer in another session, or to no question, makes none."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 5, 1, 9, tzinfo=timezone.utc)


@pytest.fixture
def mm() -> Iterator[MemoryManager]:
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as manager:
        yield manager


def tastes(mm: MemoryManager, user: str) -> list[tuple[str, str | None, list[str]]]:
    return [(str(p.value), p.polarity, p.source_ids) for p in mm.profile.preferences(user)]


@pytest.mark.parametrize(
    ("question", "answer", "value", "other"),
    [
        (
            "Do you like your eggs scrambled or poached?",
            "Poached, runny yolk please",
            "Poached",
            "scrambled",
        ),
        ("周末想去爬山还是看展？", "看展吧，我膝盖不好", "看展", "爬山"),
    ],
)
def test_the_answer_makes_the_liking_and_cites_the_users_message(
    mm: MemoryManager, question: str, answer: str, value: str, other: str
) -> None:
    mm.add_message("ann", "s1", "assistant", question, timestamp=T0)
    said = mm.add_message("ann", "s1", "user", answer, timestamp=T0 + timedelta(seconds=5))
    mm.flush()
    found = tastes(mm, "ann")
    assert any(v == value and pol == "positive" and said in ids for v, pol, ids in found)
    assert not any(other in v for v, _, _ in found)  # the question's words make nothing


def test_no_question_before_it_or_another_session_no_liking(mm: MemoryManager) -> None:
    mm.add_message("ann", "s1", "assistant", "Scrambled or poached?", timestamp=T0)
    mm.add_message("ann", "s2", "user", "Poached", timestamp=T0 + timedelta(seconds=5))
    mm.add_message("bob", "s1", "assistant", "Noted, enjoy your day.", timestamp=T0)
    mm.add_message("bob", "s1", "user", "Poached", timestamp=T0 + timedelta(seconds=5))
    mm.flush()
    assert tastes(mm, "ann") == [] and tastes(mm, "bob") == []
