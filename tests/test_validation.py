"""Bad input raises the documented error naming the field, and stores nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend

Call = Callable[[MemoryManager], Any]


def add(**overrides: Any) -> Call:
    """add_message with valid arguments except ``overrides``."""
    kwargs: dict[str, Any] = {
        "user_id": "alice",
        "session_id": "s1",
        "role": "user",
        "content": "a perfectly fine message",
    }
    kwargs.update(overrides)
    return lambda mm: mm.add_message(**kwargs)


class Unserialisable:
    pass


def _nested(depth: int) -> dict[str, Any]:
    """``{"a": {"a": ... {}}}`` nested ``depth`` deep."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


BAD_WRITES: list[tuple[str, Call, type[Exception], str]] = [
    ("empty content", add(content=""), ValueError, "content"),
    ("zero-width only content", add(content="\u200b\u2060 \ufeff"), ValueError, "content"),
    ("lone surrogate content", add(content="tea \ud800 time"), ValueError, "content"),
    ("NUL content", add(content="tea\x00time"), ValueError, "content"),
    ("lone surrogate user_id", add(user_id="al\udfffice"), ValueError, "user_id"),
    ("NaN in metadata", add(metadata={"score": float("nan")}), ValueError, "metadata"),
    ("infinity in metadata", add(metadata={"a": [1.0, float("-inf")]}), ValueError, "metadata"),
    ("NUL in metadata", add(metadata={"a": "x\x00y"}), ValueError, "metadata"),
    ("surrogate metadata key", add(metadata={"\ud800": 1}), ValueError, "metadata"),
    ("deep metadata", add(metadata=_nested(5000)), ValueError, "metadata"),
    ("int metadata key", add(metadata={"a": {1: "x"}}), TypeError, "metadata"),
    ("object in metadata", add(metadata={"a": object()}), ValueError, "metadata"),
    (
        "timestamp of year 10000 in UTC",
        add(timestamp="9999-12-31T23:59:59-05:00"),
        ValueError,
        "timestamp",
    ),
    (
        "timestamp of year 0 in UTC",
        add(timestamp="0001-01-01T00:00:00+05:00"),
        ValueError,
        "timestamp",
    ),
    (
        "step index out of range",
        lambda mm: mm.tasks.update_step("alice", mm.tasks.start("alice", "s1", "x"), 0, result="r"),
        IndexError,
        "step",
    ),
    (
        "oversize step result",
        lambda mm: mm.tasks.update_step(
            "alice",
            (t := mm.tasks.start("alice", "s1", "x")),
            mm.tasks.step("alice", t, "y"),
            result="r" * 100_001,
        ),
        ValueError,
        "result",
    ),
    (
        "deep step args",
        lambda mm: mm.tasks.step(
            "alice", mm.tasks.start("alice", "s1", "x"), "y", args=_nested(99)
        ),
        ValueError,
        "args",
    ),
    (
        "zero-width task request",
        lambda mm: mm.tasks.start("alice", "s1", "\u200b"),
        ValueError,
        "request",
    ),
    (
        "tags not a list",
        lambda mm: mm.tasks.complete("alice", mm.tasks.start("alice", "s1", "x"), tags="ops"),
        TypeError,
        "tags",
    ),
    ("whitespace content", add(content="  \n\t "), ValueError, "content"),
    ("int content", add(content=42), TypeError, "content"),
    ("None content", add(content=None), TypeError, "content"),
    ("bytes content", add(content=b"bytes"), TypeError, "content"),
    ("unknown role", add(role="wizard"), ValueError, "role"),
    ("empty role", add(role=""), ValueError, "role"),
    ("non-str role", add(role=1), TypeError, "role"),
    ("malformed timestamp", add(timestamp="last tuesday-ish"), ValueError, "timestamp"),
    ("bad date", add(timestamp="2024-02-30"), ValueError, "timestamp"),
    ("bool timestamp", add(timestamp=True), TypeError, "timestamp"),
    ("list timestamp", add(timestamp=[2024, 1, 1]), TypeError, "timestamp"),
    ("infinite timestamp", add(timestamp=float("inf")), ValueError, "timestamp"),
    ("nan timestamp", add(timestamp=float("nan")), ValueError, "timestamp"),
    ("empty user_id", add(user_id=""), ValueError, "user_id"),
    ("blank user_id", add(user_id="   "), ValueError, "user_id"),
    ("int user_id", add(user_id=7), TypeError, "user_id"),
    ("None user_id", add(user_id=None), TypeError, "user_id"),
    ("NUL in user_id", add(user_id="ali\x00ce"), ValueError, "user_id"),
    ("newline in user_id", add(user_id="ali\nce"), ValueError, "user_id"),
    ("DEL in user_id", add(user_id="alice\x7f"), ValueError, "user_id"),
    ("long user_id", add(user_id="u" * 257), ValueError, "user_id"),
    ("empty session_id", add(session_id=""), ValueError, "session_id"),
    ("list session_id", add(session_id=["s1"]), TypeError, "session_id"),
    ("control session_id", add(session_id="s\x1b1"), ValueError, "session_id"),
    ("empty message_id", add(message_id=""), ValueError, "message_id"),
    ("int message_id", add(message_id=5), TypeError, "message_id"),
    ("long message_id", add(message_id="m" * 300), ValueError, "message_id"),
    ("empty name", add(name=""), ValueError, "name"),
    ("int name", add(name=3), TypeError, "name"),
    ("list metadata", add(metadata=[("a", 1)]), TypeError, "metadata"),
    ("str metadata", add(metadata="topic=food"), TypeError, "metadata"),
    ("object in metadata", add(metadata={"o": Unserialisable()}), ValueError, "metadata"),
    ("set in metadata", add(metadata={"s": {1, 2}}), ValueError, "metadata"),
    ("nan in metadata", add(metadata={"x": float("nan")}), ValueError, "metadata"),
    ("int metadata key", add(metadata={1: "a"}), TypeError, "metadata"),
    ("bad turn user", lambda mm: mm.add_turn("alice", "s1", user=""), ValueError, "user"),
    (
        "bad turn assistant",
        lambda mm: mm.add_turn("alice", "s1", user="hi", assistant="   "),
        ValueError,
        "assistant",
    ),
    (
        "non-str turn assistant",
        lambda mm: mm.add_turn("alice", "s1", user="hi", assistant=5),
        TypeError,
        "assistant",
    ),
    (
        "bad turn user_id",
        lambda mm: mm.add_turn("", "s1", user="hi", assistant="yo"),
        ValueError,
        "user_id",
    ),
    (
        "bad turn timestamp",
        lambda mm: mm.add_turn("alice", "s1", user="hi", assistant="yo", timestamp="soon"),
        ValueError,
        "timestamp",
    ),
    (
        "bad turn metadata",
        lambda mm: mm.add_turn("alice", "s1", user="hi", assistant="yo", metadata={"o": object()}),
        ValueError,
        "metadata",
    ),
    (
        "bad turn user_name",
        lambda mm: mm.add_turn("alice", "s1", user="hi", assistant="yo", user_name="\x00"),
        ValueError,
        "name",
    ),
]

BAD_READS: list[tuple[str, Call, type[Exception], str]] = [
    ("empty query", lambda mm: mm.search("alice", ""), ValueError, "query"),
    ("blank query", lambda mm: mm.search("alice", " \n "), ValueError, "query"),
    ("int query", lambda mm: mm.search("alice", 3), TypeError, "query"),
    ("k=0", lambda mm: mm.search("alice", "tea", k=0), ValueError, "k"),
    ("k<0", lambda mm: mm.search("alice", "tea", k=-3), ValueError, "k"),
    ("bool k", lambda mm: mm.search("alice", "tea", k=True), TypeError, "k"),
    ("float k", lambda mm: mm.search("alice", "tea", k=2.0), TypeError, "k"),
    ("search bad user", lambda mm: mm.search("", "tea"), ValueError, "user_id"),
    ("search int user", lambda mm: mm.search(1, "tea"), TypeError, "user_id"),
    (
        "filter on user_id",
        lambda mm: mm.search("alice", "tea", filter={"user_id": "bob"}),
        ValueError,
        "user_id",
    ),
    (
        "filter on user_id with operator",
        lambda mm: mm.search("alice", "tea", filter={"user_id": {"$ne": "alice"}}),
        ValueError,
        "user_id",
    ),
    (
        "filter on agent_id",
        lambda mm: mm.search("alice", "tea", filter={"agent_id": "x"}),
        ValueError,
        "user_id",
    ),
    (
        "unknown operator",
        lambda mm: mm.search("alice", "tea", filter={"topic": {"$regex": ".*"}}),
        ValueError,
        "operator",
    ),
    (
        "empty operator dict",
        lambda mm: mm.search("alice", "tea", filter={"topic": {}}),
        ValueError,
        "topic",
    ),
    (
        "$in without list",
        lambda mm: mm.search("alice", "tea", filter={"topic": {"$in": "food"}}),
        ValueError,
        r"\$in",
    ),
    (
        "operator-like key",
        lambda mm: mm.search("alice", "tea", filter={"$where": "1"}),
        ValueError,
        "field name",
    ),
    (
        "malformed dotted key",
        lambda mm: mm.search("alice", "tea", filter={"a..b": 1}),
        ValueError,
        "field name",
    ),
    ("list filter", lambda mm: mm.search("alice", "tea", filter=["topic"]), TypeError, "filter"),
    (
        "bad date in filter",
        lambda mm: mm.search("alice", "tea", filter={"timestamp": {"$gte": "someday"}}),
        ValueError,
        "filter",
    ),
    (
        "budget 0",
        lambda mm: mm.build_context("alice", "s1", "tea", token_budget=0),
        ValueError,
        "token_budget",
    ),
    (
        "negative budget",
        lambda mm: mm.build_context("alice", "s1", "tea", token_budget=-100),
        ValueError,
        "token_budget",
    ),
    (
        "bool budget",
        lambda mm: mm.build_context("alice", "s1", "tea", token_budget=True),
        TypeError,
        "token_budget",
    ),
    (
        "float budget",
        lambda mm: mm.build_context("alice", "s1", "tea", token_budget=100.0),
        TypeError,
        "token_budget",
    ),
    (
        "context empty query",
        lambda mm: mm.build_context("alice", "s1", ""),
        ValueError,
        "query",
    ),
    (
        "context bad session",
        lambda mm: mm.build_context("alice", "", "tea"),
        ValueError,
        "session_id",
    ),
    (
        "context filter on user_id",
        lambda mm: mm.build_context("alice", "s1", "tea", filter={"user_id": "bob"}),
        ValueError,
        "user_id",
    ),
    ("stats bad user", lambda mm: mm.stats(""), ValueError, "user_id"),
    ("delete bad user", lambda mm: mm.delete_user(""), ValueError, "user_id"),
    ("delete None user", lambda mm: mm.delete_user(None), TypeError, "user_id"),
]


@pytest.fixture
def seeded(mm: MemoryManager) -> MemoryManager:
    mm.add_message("alice", "s1", "user", "I drink tea every morning")
    mm.add_message("bob", "s1", "user", "I drink coffee", metadata={"topic": "food"})
    mm.flush()
    return mm


def _counts(mm: MemoryManager) -> tuple[int, int, int]:
    return mm.stats("alice")["messages"], mm.stats("bob")["messages"], mm.stats()["messages"]


@pytest.mark.parametrize(
    ("call", "exc", "field"),
    [pytest.param(c, e, f, id=name) for name, c, e, f in BAD_WRITES + BAD_READS],
)
def test_bad_input_is_rejected_and_nothing_stored(
    seeded: MemoryManager, call: Call, exc: type[Exception], field: str
) -> None:
    before = _counts(seeded)
    with pytest.raises(exc, match=field):
        call(seeded)
    assert _counts(seeded) == before
    seeded.flush()
    assert seeded.stats()["pending"] == 0
    # the manager is still fully usable afterwards
    assert seeded.search("alice", "tea")[0].text == "I drink tea every morning"


def test_valid_edge_values_are_accepted(seeded: MemoryManager) -> None:
    seeded.add_message("u" * 256, "s" * 256, "SYSTEM", "x", message_id="m" * 256, name="N" * 256)
    seeded.add_message("alice", "s1", " Tool ", "result: 42", metadata={})
    seeded.add_message("alice", "s1", "user", "epoch zero", timestamp=0)
    seeded.add_message("alice", "s1", "user", "no metadata", metadata=None)
    assert seeded.stats("u" * 256)["messages"] == 1
    assert seeded.stats("alice")["messages"] == 4


def test_oversize_content_rejected(backend: MemoryBackend) -> None:
    cfg = MemoryConfig(write={"max_content_chars": 50})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        mm.add_message("alice", "s1", "user", "x" * 50)  # exactly at the limit
        with pytest.raises(ValueError, match="content.*max_content_chars"):
            mm.add_message("alice", "s1", "user", "x" * 51)
        with pytest.raises(ValueError, match="content"):
            mm.add_message("alice", "s1", "user", "字" * 51)
        with pytest.raises(ValueError, match="assistant"):
            mm.add_turn("alice", "s1", user="fine", assistant="y" * 51)
        with pytest.raises(ValueError, match="query"):
            mm.search("alice", "q" * 51)
        with pytest.raises(ValueError, match="query"):
            mm.build_context("alice", "s1", "q" * 51)
        assert mm.stats("alice")["messages"] == 1


def test_oversize_metadata_rejected(backend: MemoryBackend) -> None:
    cfg = MemoryConfig(write={"max_metadata_bytes": 40})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        mm.add_message("alice", "s1", "user", "small", metadata={"k": "v"})
        with pytest.raises(ValueError, match="metadata"):
            mm.add_message("alice", "s1", "user", "big", metadata={"k": "v" * 100})
        with pytest.raises(ValueError, match="metadata"):  # counted in UTF-8 bytes
            mm.add_message("alice", "s1", "user", "big", metadata={"k": "字" * 12})
        assert mm.stats("alice")["messages"] == 1


def test_add_turn_with_bad_assistant_name_stores_nothing(seeded: MemoryManager) -> None:
    before = _counts(seeded)
    with pytest.raises(ValueError, match="name"):
        seeded.add_turn("alice", "s1", user="half a turn", assistant="reply", assistant_name="")
    assert _counts(seeded) == before


# -- MemoryConfig ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"max_content_chars": 0}, ValueError, "max_content_chars"),
        ({"max_metadata_bytes": -1}, ValueError, "max_metadata_bytes"),
        ({"embed_batch_size": 0}, ValueError, "embed_batch_size"),
        ({"embed_cache_size": 0}, ValueError, "embed_cache_size"),
        ({"rrf_k": 0}, ValueError, "rrf_k"),
        ({"candidate_pool": 0}, ValueError, "candidate_pool"),
        ({"fusion_depth": -2}, ValueError, "fusion_depth"),
        ({"default_token_budget": 0}, ValueError, "default_token_budget"),
        ({"rrf_k": "60"}, TypeError, "rrf_k"),
        ({"rrf_k": True}, TypeError, "rrf_k"),
        ({"lexical_weight": None}, TypeError, "lexical_weight"),
        ({"lexical_weight": -0.5}, ValueError, "lexical_weight"),
        ({"dense_weight": -1}, ValueError, "dense_weight"),
        ({"bm25_k1": -1}, ValueError, "bm25_k1"),
        ({"neighbor_decay": -0.1}, ValueError, "neighbor_decay"),
        ({"answer_decay": -0.1}, ValueError, "answer_decay"),
        ({"tail_factor": -1}, ValueError, "tail_factor"),
        ({"lexical_weight": 0, "dense_weight": 0}, ValueError, "both be 0"),
        ({"bm25_b": 1.5}, ValueError, "bm25_b"),
        ({"bm25_b": -0.1}, ValueError, "bm25_b"),
        ({"session_share": 1.01}, ValueError, "session_share"),
        ({"session_share": -0.1}, ValueError, "session_share"),
        ({"neighbor_window": -1}, ValueError, "neighbor_window"),
        ({"recent_messages": -1}, ValueError, "recent_messages"),
    ],
)
def test_memory_config_validation(kwargs: dict, exc: type[Exception], match: str) -> None:
    with pytest.raises(exc, match=match):
        MemoryConfig.flat(**kwargs)


def test_memory_config_defaults_and_immutability() -> None:
    cfg = MemoryConfig()
    assert (cfg.retrieval.rrf_k, cfg.packing.default_token_budget, cfg.write.max_content_chars) == (
        60,
        2000,
        1_000_000,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.retrieval.rrf_k = 10  # type: ignore[misc]
    derived = cfg.replace(rrf_k=10, lexical_weight=0)
    assert derived.retrieval.rrf_k == 10 and cfg.retrieval.rrf_k == 60
    assert derived.packing is cfg.packing  # the sections not named are shared as they are
    with pytest.raises(ValueError, match="session_share"):
        cfg.replace(session_share=2)
    with pytest.raises(TypeError, match="no section or field 'rrfk'"):
        cfg.replace(rrfk=10)


@pytest.mark.parametrize(
    "field", ["recent_messages", "candidate_pool", "fusion_depth", "embed_batch_size"]
)
def test_memory_config_rejects_fractional_int_fields(field: str) -> None:
    with pytest.raises((TypeError, ValueError), match=field):
        MemoryConfig.flat(**{field: 2.5})


def test_manager_constructor_validation(backend: MemoryBackend) -> None:
    with pytest.raises(TypeError, match="config"):
        MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config={"rrf_k": 60})
    with pytest.raises(TypeError, match="embeddings"):
        MemoryManager(backend=backend, embeddings="all-MiniLM-L6-v2")


def test_memory_path_that_is_a_file_is_rejected(tmp_path) -> None:
    f = tmp_path / "not-a-dir"
    f.write_text("x")
    with pytest.raises(ValueError, match="not a directory"):
        MemoryManager(f, embeddings=HashingEmbeddings())
