"""Turns weighed by what they carry: a turn that only asks gives way to its reply, and a
turn said by someone the query names goes before the ones that only mention them."""

from __future__ import annotations

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.read.candidates import only_asks
from langgraph_memory.storage import InMemoryBackend


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Cool! Where did you go?", True),
        ("Looks great! Where did you go camping?", True),
        ("你去哪里了？", True),
        ("I moved to Lyon last May. You?", False),
        ("我上个月搬到了上海，你呢？", False),  # a statement clause, then the question
        ("What do you think? [shares a photo of a lamp]", False),
        ("I bought a lamp.", False),
        ("", False),
    ],
)
def test_only_asks(text: str, asks: bool) -> None:
    assert only_asks(text) is asks


def context(**cfg) -> dict[str, tuple[str, dict]]:
    """Item text -> (layer, score parts) of a context for a question naming Ann."""
    with MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=MemoryConfig.flat(**cfg)
    ) as mm:
        turns = [
            ("Ann", "user", "Bob, where did you buy that lamp?"),
            ("Bob", "assistant", "At the Kyoto market, a paper lamp that glows."),
            ("Bob", "assistant", "Ann, your lamp from the flea market looks great."),
            ("Ann", "user", "My lamp came from a flea market in Lyon."),
        ]
        for i, (name, role, text) in enumerate(turns):
            mm.add_message("u", "s", role, text, name=name, message_id=f"m{i}")
        mm.flush()
        ctx = mm.build_context("u", "q", "Where did Ann buy her lamp?", token_budget=400)
        return {it.text: (it.layer, it.score_parts) for it in ctx.items}


def test_a_turn_that_only_asks_is_weighed_down_and_its_reply_is_not() -> None:
    got = context(question_factor=0.5)
    parts = got["Ann: Bob, where did you buy that lamp?"][1]
    assert parts["question_factor"] == 0.5
    reply = got["Bob: At the Kyoto market, a paper lamp that glows."][1]
    assert "question_factor" not in reply
    off = context()  # off by default
    assert "question_factor" not in off["Ann: Bob, where did you buy that lamp?"][1]


def test_the_named_speakers_turns_are_boosted() -> None:
    got = context()
    assert got["Ann: My lamp came from a flea market in Lyon."][1]["speaker_boost"] == 2.0
    # Bob's turn names Ann but is not hers
    assert "speaker_boost" not in got["Bob: Ann, your lamp from the flea market looks great."][1]
    off = context(speaker_boost=0.0)
    assert "speaker_boost" not in off["Ann: My lamp came from a flea market in Lyon."][1]


@pytest.mark.parametrize(
    ("cfg", "field"),
    [({"question_factor": 1.5}, "question_factor"), ({"speaker_boost": -1.0}, "speaker_boost")],
)
def test_turn_weights_are_checked(cfg: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        MemoryConfig.flat(**cfg)
