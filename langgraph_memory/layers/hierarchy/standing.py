"""Standing instructions written as anchors, and the request a pro-form stands for.

A standing instruction becomes a user anchor quoting the words that said it, one per
topic (a later instruction on the same topic replaces the earlier one), citing its
message. An instruction that makes an earlier request standing by a pro-form ("perfect,
do that for every article I send from now on", "以后都这样") says nothing on its own:
what "that" is lives in the user's request before it (the message before the
assistant's answer). The anchor then quotes that request as well, cites both messages,
and is filed under the request's topic.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.extraction.atoms import MemoryAtom
    >>> when = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> asked = Message("m1", "ann", "s", "user", "Summarise this in three bullets.", when)
    >>> said = Message("m3", "ann", "s", "user", "Perfect, do that from now on.", when)
    >>> atom = MemoryAtom("instruction", "user", "do that from now on", "do that from now on")
    >>> anchor_words(atom, said.content, asked)
    'Perfect, do that from now on. (the request: "Summarise this in three bullets.")'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from langgraph_memory.core.records import Message
from langgraph_memory.extraction.atoms import MemoryAtom
from langgraph_memory.extraction.extractor import normalize_key
from langgraph_memory.extraction.instruction_frames import points_back
from langgraph_memory.extraction.provenance import strip_injected
from langgraph_memory.layers.long_term.profile import stable_id

if TYPE_CHECKING:
    from langgraph_memory.layers.working.tasks import WorkingMemory

__all__ = [
    "INSTRUCTION_SOURCE",
    "REQUEST_CHARS",
    "anchor_words",
    "earlier_request",
    "write_instruction",
]

#: ``metadata["source"]`` of an anchor read from a standing instruction.
INSTRUCTION_SOURCE = "instruction"
#: How much of the request a pro-form stands for an anchor quotes.
REQUEST_CHARS = 240


def earlier_request(
    msg: Message, atoms: list[MemoryAtom], previous: Callable[[Message], Message | None] | None
) -> Message | None:
    """The user's request an instruction of ``msg`` makes standing by a pro-form: the
    latest user message before ``msg`` in its session, at most two messages back (past
    the assistant's answer); ``None`` when no atom points back or there is none.

    Example:
        >>> earlier_request(None, [], None) is None  # type: ignore[arg-type]
        True
    """
    if previous is None or not any(a.kind == "instruction" and points_back(a.value) for a in atoms):
        return None
    before: Message | None = msg
    for _ in range(2):
        before = previous(before) if before is not None else None
        if before is None:
            return None
        if before.role == "user":
            return before if strip_injected(before.content).strip() else None
    return None


def anchor_words(atom: MemoryAtom, words: str, request: Message | None) -> str:
    """The words an instruction's anchor quotes: ``words``, and the ``request`` it stands
    for when it points back
    (:func:`~langgraph_memory.extraction.instruction_frames.points_back`; ``None``: it
    does not)."""
    if request is None:
        return words
    asked = " ".join(strip_injected(request.content).split())
    if len(asked) > REQUEST_CHARS:
        asked = asked[: REQUEST_CHARS - 1] + "…"
    if atom.language == "zh":
        return f"{words}（指的是：{asked}）"
    return f'{words} (the request: "{asked}")'


def write_instruction(
    working: WorkingMemory,
    user_id: str,
    atom: MemoryAtom,
    msg: Message,
    words: str,
    ids: list[str] | None = None,
    provenance: str | None = None,
    request: Message | None = None,
) -> int:
    """A standing instruction as a user anchor quoting ``words``, one per topic, citing
    its message (``ids``: the messages it rests on, for a confirmed one); with the
    ``request`` a pro-form stands for, quoting and citing that too."""
    back = request if request is not None and points_back(atom.value) else None
    topic = normalize_key(strip_injected(back.content) if back is not None else atom.value)
    said = msg.timestamp.date().isoformat()
    quoted = anchor_words(atom, words, back)
    text = f"Standing instruction (said {said}): {quoted}"
    if atom.language == "zh":
        text = f"长期指令（{said}）：{quoted}"
    sources = list(ids or [msg.id])
    if back is not None and back.id not in sources:
        sources.insert(0, back.id)
    meta: dict[str, object] = {
        "source": INSTRUCTION_SOURCE,
        "source_ids": sources,
        "topic": topic,
        "polarity": atom.polarity,
        "said_at": msg.timestamp.isoformat(),
    }
    if provenance:
        meta["provenance"] = provenance
    working.add_anchor(user_id, text, anchor_id=stable_id("instr", topic), metadata=meta)
    return 1
