"""``to_data``: its one-pass copy gives what ``dataclasses.asdict`` gave, whatever the fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import pytest

from langgraph_memory.core.records import from_data, to_data, via_asdict
from langgraph_memory.layers.long_term.entities import Entity

T = datetime(2024, 5, 1, 12, 30, tzinfo=timezone.utc)


@dataclass
class Inner:
    at: datetime
    pair: tuple[int, datetime] = (1, T)


@dataclass
class Outer:
    items: list[Any]
    table: dict[Any, Any]
    inner: Inner
    when: tuple[datetime, ...] = (T,)
    tags: set[str] = field(default_factory=set)


@pytest.mark.parametrize(
    "obj",
    [
        Entity("e1", "ann", "Kyoto", "place", 3, T, T, [["m1", T.isoformat(), "Kyoto!"]] * 12),
        Inner(T),
        Outer([T, {"k": [T]}, None, 1.5, True], {"a": [T]}, Inner(T)),
        Outer([], {1: T}, Inner(T, (2, T)), (), {"x"}),  # non-str keys, tuples, sets
    ],
)
def test_to_data_is_what_asdict_gave(obj: Any) -> None:
    got = to_data(obj)
    assert got == via_asdict(obj)
    if isinstance(obj, Entity):
        got["mentions"][0][2] = "changed"  # a copy: the entity keeps its own lists
        assert obj.mentions[0][2] == "Kyoto!"
        assert from_data(Entity, to_data(obj)) == obj


def test_to_data_refuses_what_is_not_a_dataclass() -> None:
    with pytest.raises(TypeError):
        to_data({"a": 1})
