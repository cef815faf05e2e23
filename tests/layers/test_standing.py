"""An instruction that makes an earlier request standing by a pro-form ("do that from now
on", "以后都这样") is anchored with the request it stands for: the anchor quotes the user's
request before it and cites both messages; an instruction said in full, or a pro-form with
no request of the user's before it, is anchored as said.

The sentences are our own, written apart from the evaluation sets."""

from __future__ import annotations

import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend


def anchors_after(turns: list[tuple[str, str]], session: str = "s") -> list[tuple[str, list]]:
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        ids = [mm.add_message("u", session, role, text) for role, text in turns]
        mm.flush()
        got = [(a.text, a.metadata.get("source_ids", [])) for a in mm.anchors.list("u")]
    return [(t, [ids.index(i) for i in src if i in ids]) for t, src in got]


@pytest.mark.parametrize(
    ("asked", "answer", "standing", "quoted"),
    [
        (
            "Can you summarise this article in three bullet points?",
            "Sure: - one - two - three",
            "Perfect, do that for every article I send from now on.",
            '(the request: "Can you summarise this article in three bullet points?")',
        ),
        (
            "Write the SQL keywords in capitals please",
            "SELECT * FROM orders;",
            "great, keep doing that for all our chats",
            '(the request: "Write the SQL keywords in capitals please")',
        ),
        (
            "帮我把这段话翻译成英文，保留原文格式",
            "好的，译文如下……",
            "以后都这样",
            "（指的是：帮我把这段话翻译成英文，保留原文格式）",
        ),
    ],
)
def test_a_pro_form_anchors_the_request_it_stands_for(
    asked: str, answer: str, standing: str, quoted: str
) -> None:
    got = anchors_after([("user", asked), ("assistant", answer), ("user", standing)])
    assert len(got) == 1
    text, sources = got[0]
    assert standing.rstrip(".") in text and text.endswith(quoted)
    assert sources == [0, 2]  # the request and the instruction, never the assistant's answer


def test_an_instruction_said_in_full_is_anchored_as_said() -> None:
    got = anchors_after(
        [("user", "Summarise this."), ("assistant", "Done."), ("user", "Always answer in French.")]
    )
    assert [(t.split(": ", 1)[1], s) for t, s in got] == [("Always answer in French.", [2])]


def test_a_pro_form_after_no_request_of_the_user_quotes_nothing_more() -> None:
    # the assistant offered it; the user's own earlier words are not two messages back
    got = anchors_after(
        [
            ("assistant", "Want me to add sources under every answer?"),
            ("assistant", "I can also keep them short."),
            ("user", "yes, do that from now on"),
        ]
    )
    assert all("the request" not in t for t, _ in got)
    assert all(s == [2] for _, s in got)


def test_two_pro_forms_for_two_requests_are_two_anchors() -> None:
    got = anchors_after(
        [
            ("user", "Give me the answer first, then the reasoning"),
            ("assistant", "42. Because..."),
            ("user", "perfect, do that from now on"),
            ("assistant", "Will do."),
            ("user", "Put code in fenced blocks with the language name"),
            ("assistant", "```python\nprint(1)\n```"),
            ("user", "great, do that every time"),
        ]
    )
    assert len(got) == 2
    assert {tuple(s) for _, s in got} == {(0, 2), (4, 6)}
