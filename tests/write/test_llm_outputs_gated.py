"""What a chat model writes passes the storage boundary like what a user writes.

A fake chat model (LangChain's ``GenericFakeChatModel``, with structured output) answers
every prompt of the library (extraction, summaries, roll-ups, knowledge, lessons,
insights, routing) with every secret kind of the write-path test (55) in every text
field of the asked schema. Messages,
tasks, consolidation and reflection run over a real SQLite store; then the database, its
write-ahead log and a backup are grepped: no secret. The control (policy ``allow``)
finds them, which shows the model's answers reached the store.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel
from test_secret_paths import KINDS, SENTENCES, _found
from test_sensitivity_storage import _raw

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings

#: Every secret kind of the write-path test, in one answer of the model.
SENTENCE = " ".join(SENTENCES.values())


def _fill(annotation: Any, name: str = "") -> Any:
    """A value of ``annotation`` with the secret sentence in every string."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {
            f: _cut(_fill(info.annotation, f), info) for f, info in annotation.model_fields.items()
        }
    if origin is typing.Literal:
        return args[0]
    if origin in (typing.Union, types.UnionType):
        return _fill(next(a for a in args if a is not type(None)), name)
    if origin in (list, tuple, set, typing.Sequence):
        return [_fill(args[0] if args else str, name)]
    if origin is dict:
        return {"note": _fill(args[1] if len(args) > 1 else str, name)}
    if annotation is str:
        return f"{SENTENCE} ({name})"
    if annotation is bool:
        return True
    if annotation is int:
        return 0
    if annotation is float:
        return 0.9
    return None


def _cut(value: Any, info: Any) -> Any:
    """A text cut to its field's ``max_length`` (short fields: names, keys, topics; the
    long ones hold every kind)."""
    limit = next((m.max_length for m in info.metadata if hasattr(m, "max_length")), None)
    return value[:limit] if isinstance(value, str) and limit is not None else value


class LeakyModel(GenericFakeChatModel):
    """Answers in any schema, with the secret sentence in every text field."""

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return RunnableLambda(lambda _prompt: schema.model_validate(_fill(schema)))


def _leaky() -> LeakyModel:
    def replies() -> Iterator[AIMessage]:
        while True:
            yield AIMessage(content=SENTENCE)

    return LeakyModel(messages=replies())


def _run(directory: Path, policy: str) -> tuple[bytes, dict[str, int]]:
    config = MemoryConfig(
        write={"sensitivity": policy},
        hierarchy={"rollups": True},
        long_term={"extract_every_turn": True},
    )
    made: dict[str, int] = {}
    with MemoryManager(
        directory, embeddings=HashingEmbeddings(), llm=_leaky(), config=config
    ) as mm:
        for i in range(12):
            mm.add_turn(
                "ann", f"s{i % 3}", user=f"I moved to Lyon in 2021, note {i}.", assistant="ok"
            )
        for n in range(3):
            tid = mm.tasks.start("ann", "s1", f"restart nginx (run {n})")
            step = mm.tasks.step("ann", tid, "reload the config")
            mm.tasks.update_step("ann", tid, step, status="completed", result="ok")
            mm.tasks.complete("ann", tid, summary="restarted", target="nginx")
        mm.flush(timeout=120)
        mm.maintenance.consolidate("ann")
        mm.maintenance.reflect("ann")  # what the background did not reflect on yet
        mm.build_context("ann", "s1", "where do I live? what about nginx?", token_budget=800)
        mm.flush(timeout=120)
        made["facts"] = len(mm.profile.facts("ann"))
        made["knowledge"] = len(mm.tasks.knowledge("ann"))
        made["lessons"] = len(mm.tasks.lessons("ann"))
        made["insights"] = len(mm.profile.insights("ann"))
        made["rollups"] = len(mm.profile.rollups("ann"))
        backup = mm.backup(directory.parent / f"backup-{policy}.sqlite3")
        while_open = _raw(directory)  # the database with its write-ahead log
    return while_open + _raw(directory) + backup.read_bytes(), made


@pytest.mark.parametrize("policy", ["redact", "allow"])
def test_llm_outputs_reach_the_store_only_through_the_gate(tmp_path: Path, policy: str) -> None:
    data, made = _run(tmp_path / "mem", policy)
    assert made["knowledge"] >= 1 and made["lessons"] >= 1, made  # the model's answers
    assert len(KINDS) >= 50
    if policy == "redact":
        assert _found(data) == set()
    else:  # the control: the grep sees where the model's answers went
        assert _found(data) == set(KINDS)
