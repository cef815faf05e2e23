"""One guarded storage boundary: every collaborator of a memory holds the guard, never the
backend; the guard answers every method a backend has; each field kind gets its policy."""

from __future__ import annotations

import gc
import threading
import types
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from langgraph_memory import MemoryManager
from langgraph_memory.core.concurrency import mark_background
from langgraph_memory.core.records import Message, Record
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.sensitivity.policy import (
    SensitiveContentError,
    SensitivityFilter,
    SensitivityPolicy,
)
from langgraph_memory.storage import InMemoryBackend, MemoryBackend, SQLiteBackend
from langgraph_memory.storage.capabilities import Checkpoint, ClaimQueue, IndexedEntry
from langgraph_memory.storage.guard import GuardedStore

NOW = datetime(2024, 5, 1, tzinfo=timezone.utc)


def _reaches(root: object, target: object, stop: object) -> list[str] | None:
    """A path of attribute/item steps from ``root`` to ``target`` that does not pass
    through ``stop``, or ``None``. Modules, classes and functions are not walked (their
    globals are the world, not this memory; a function's closure and defaults are)."""
    seen = {id(root), id(stop)}
    frontier: list[tuple[object, list[str]]] = [(root, [type(root).__name__])]
    skip = (type, types.ModuleType, types.BuiltinFunctionType)
    for _ in range(500_000):
        if not frontier:
            return None
        obj, path = frontier.pop()
        if isinstance(obj, types.FunctionType):
            refs: list[object] = [*(obj.__closure__ or ()), *(obj.__defaults__ or ())]
            refs += list((obj.__kwdefaults__ or {}).values())
        else:
            refs = gc.get_referents(obj)
        for ref in refs:
            if ref is target:
                return [*path, type(ref).__name__]
            if id(ref) in seen or isinstance(ref, skip):
                continue
            seen.add(id(ref))
            frontier.append((ref, [*path, type(ref).__name__]))
    raise AssertionError("the walk did not end")


@pytest.mark.parametrize("make", [InMemoryBackend, lambda: SQLiteBackend(_tmp())])
def test_only_the_guard_holds_the_backend(make: Any) -> None:
    backend = make()
    mm = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
    try:
        mm.add_turn("ann", "s1", user="I moved to Lyon. Mail me at ann@example.com", assistant="ok")
        mm.flush()
        mm.build_context("ann", "s1", "where do I live?")
        guard = mm._backend
        assert isinstance(guard, GuardedStore)
        assert _reaches(mm, backend, stop=guard) is None
        assert _reaches(mm, backend, stop=object()) is not None  # the walk can find it
    finally:
        mm.close()


_TMP: list[Path] = []


def _tmp() -> Path:
    import tempfile

    _TMP.append(Path(tempfile.mkdtemp()))
    return _TMP[-1]


def test_the_guard_answers_every_method_of_every_backend() -> None:
    """A method a backend adds must be passed through the guard or listed as optional:
    nothing a backend offers is reachable around it."""
    from langgraph_memory.storage.chroma.backend import ChromaBackend
    from langgraph_memory.storage.postgres.backend import PostgresBackend

    known = {n for n in dir(GuardedStore) if not n.startswith("_")} | GuardedStore.OPTIONAL
    made_elsewhere = {"from_conn_string", "persistent", "http"}  # constructors
    constants = {"POSTINGS_PER_COMMIT", "ALLOWED_DIRECT", "SESSION_WALK"}
    for cls in (InMemoryBackend, SQLiteBackend, PostgresBackend, ChromaBackend):
        public = {n for n in dir(cls) if not n.startswith("_")}
        assert public - known - made_elsewhere - constants == set(), cls.__name__
    for name in dir(MemoryBackend):  # every method of the core is the guard's own
        if not name.startswith("_") and callable(getattr(MemoryBackend, name)):
            assert name in vars(GuardedStore), name


def test_capabilities_are_the_backends() -> None:
    sqlite = GuardedStore(SQLiteBackend(_tmp()), SensitivityFilter())
    memory = GuardedStore(InMemoryBackend(), SensitivityFilter())
    assert isinstance(sqlite, Checkpoint) and not isinstance(memory, Checkpoint)
    assert isinstance(sqlite, ClaimQueue) == isinstance(sqlite._inner, ClaimQueue)
    with pytest.raises(AttributeError):
        memory.checkpoint  # noqa: B018 - the in-memory store has none
    with pytest.raises(AttributeError):
        sqlite._conn  # noqa: B018 - a backend's insides are not passed on
    sqlite.close()


@pytest.fixture
def guard() -> GuardedStore:
    return GuardedStore(InMemoryBackend(), SensitivityFilter())


def _record(rid: str = "r1", user: str = "ann", **data: Any) -> Record:
    return Record("note", rid, user, data, NOW, NOW)


def test_free_text_is_redacted(guard: GuardedStore) -> None:
    guard.put_record(_record(text="call +44 20 7946 0958", tags=["a@b.io", 3]))
    rec = guard.get_record("note", "r1", "ann")
    assert rec is not None and rec.data == {"text": "call [PHONE]", "tags": ["[EMAIL]", 3]}


def test_identifiers_are_refused_naming_the_field(guard: GuardedStore) -> None:
    cases = {
        "record id": lambda: guard.put_record(_record("ann@example.com")),
        "user_id": lambda: guard.put_record(_record(user="13987654322")),
        "note.source_id": lambda: guard.put_record(
            _record(source_id="sk_live_4eC39HqLyjWDarjtT1zdp7dc")
        ),
        "note.version": lambda: guard.put_record(_record(version="my password is hunter2hunter2")),
        "message_id": lambda: guard.insert_message(
            Message("ann@example.com", "ann", "s1", "user", "hi", NOW), ["hi"]
        ),
        "session_id": lambda: guard.insert_message(
            Message("m1", "ann", "card 4532 0151 1283 0366", "user", "hi", NOW), ["hi"]
        ),
        "entry key": lambda: guard.put_entries("ann", [IndexedEntry("fact/a@b.io", "x")]),
    }
    for field, write in cases.items():
        with pytest.raises(SensitiveContentError) as err:
            write()
        assert err.value.identifier and err.value.field == field, field
        assert "identifier" in str(err.value)
    assert guard.list_records("note") == [] and guard.iter_messages("ann") == []


def test_generated_ids_timestamps_and_opaque_fields_pass(guard: GuardedStore) -> None:
    data = {
        "id": "fact-3f9a1c2b7d4e5f60718293a4b5c6d7e8",
        "segment_id": "seg-0123456789abcdef",
        "created_at": "2024-05-01T10:20:30.123456+00:00",
        "hash": "d8f7a6e5c4b3a2910f8e7d6c5b4a3921d8f7a6e5c4b3a2910f8e7d6c5b4a3921",
        "vector": "AAAAAAAAgD8AAABA",
        "text": "[EMAIL:0f3306f460ed] said hi",
    }
    guard.put_record(_record("3f9a1c2b-7d4e-4f60-8182-93a4b5c6d7e8", **data))
    rec = guard.get_record("note", "3f9a1c2b-7d4e-4f60-8182-93a4b5c6d7e8", "ann")
    assert rec is not None and rec.data == data


def test_keys_that_name_a_secret_hide_their_value(guard: GuardedStore) -> None:
    value = {
        "metadata": {"id": "a@b.io", "DB-Password": "plainwords", "note": "ok"},
        "context": {"headers": {"Authorization": "x"}, "口令": 1234, "token_count": 57},
    }
    guard.put_record(_record(**value))
    rec = guard.get_record("note", "r1", "ann")
    assert rec is not None
    assert rec.data["metadata"] == {"id": "[EMAIL]", "DB-Password": "[SECRET]", "note": "ok"}
    assert rec.data["context"] == {
        "headers": {"Authorization": "[SECRET]"},
        "口令": "[SECRET]",
        "token_count": 57,
    }


def test_a_message_is_cleaned_and_its_terms_follow(guard: GuardedStore) -> None:
    msg = Message("m1", "ann", "s1", "user", "mail ann@example.com", NOW, name="a@b.io",
                  metadata={"apiKey": "k"})  # fmt: skip
    stored, created = guard.insert_message(msg, ["mail", "ann", "example", "com"])
    assert created
    assert (stored.content, stored.name, stored.metadata) == (
        "mail [EMAIL]",
        "[EMAIL]",
        {"apiKey": "[SECRET]"},
    )
    assert guard.postings("ann", ["example"]).lists.get("example", []) == []
    assert guard.postings("ann", ["mail"]).lists["mail"]


def test_the_policy_decides_text_and_secret_values() -> None:
    refuse = GuardedStore(InMemoryBackend(), SensitivityFilter(SensitivityPolicy(default="refuse")))
    with pytest.raises(SensitiveContentError) as err:
        refuse.put_record(_record(text="mail a@b.io"))
    assert not err.value.identifier and err.value.field == "note.text"
    with pytest.raises(SensitiveContentError, match="note.meta.password"):
        refuse.put_record(_record(meta={"password": "plainwords"}))
    allow = GuardedStore(InMemoryBackend(), SensitivityFilter(SensitivityPolicy(default="allow")))
    allow.put_record(_record("a@b.io", text="mail a@b.io", meta={"password": "p"}))
    rec = allow.get_record("note", "a@b.io", "ann")
    assert rec is not None and rec.data == {"text": "mail a@b.io", "meta": {"password": "p"}}


def test_the_background_redacts_what_the_foreground_would_refuse() -> None:
    """A refusal in the worker's thread would stop the worker, and nobody could be told:
    there the guard redacts (identifiers become pseudonyms) instead."""
    store = GuardedStore(InMemoryBackend(), SensitivityFilter(SensitivityPolicy(default="refuse")))
    done: list[BaseException | None] = []

    def work() -> None:
        mark_background()
        try:
            store.put_record(_record("lesson a@b.io", text="mail a@b.io", meta={"token": "t"}))
            done.append(None)
        except BaseException as exc:  # noqa: BLE001 - reported below
            done.append(exc)

    t = threading.Thread(target=work)
    t.start()
    t.join(10)
    assert done == [None]
    [rec] = store.list_records("note")
    assert "a@b.io" not in rec.id and rec.id.startswith("lesson [EMAIL:")
    assert rec.data == {"text": "mail [EMAIL]", "meta": {"token": "[SECRET]"}}


def test_vectors_pass_unchanged(guard: GuardedStore) -> None:
    msg = Message("m1", "ann", "s1", "user", "hello", NOW)
    stored, _ = guard.insert_message(msg, ["hello"])
    guard.store_vectors([(stored, np.ones(4, np.float32))])
    assert guard.vector_search("ann", np.ones(4, np.float32), 1)[0][0] == stored.seq


def test_generated_ids_are_never_taken_for_secrets(guard: GuardedStore) -> None:
    """UUIDs and digests, bare or inside ids (LangChain's ``run-<uuid>-0``), hold runs of
    digits and letters that a phone, card or IBAN rule could match by chance (one IBAN
    check in 97 passes): the guard never refuses them, and still finds a secret beside."""
    import random
    import uuid

    rng = random.Random(0)
    for _ in range(5000):
        u = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        for made in (u, f"run-{u}-0", f"lc_run--{u}", "lgm-" + u.replace("-", "")):
            assert guard._id(made, "message_id") == made
    with pytest.raises(SensitiveContentError):
        guard._id(f"ann@example.com run-{u}", "message_id")
