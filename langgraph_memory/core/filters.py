"""Metadata filters: a small, Mongo-like language evaluated the same way on every backend.

A filter is a dict. Each key names a message field (``session_id``, ``role``,
``name``, ``timestamp``) or a metadata key (dotted for nesting, or prefixed
``metadata.``); each value is either a literal (equality) or a dict of
operators: ``$eq $ne $in $nin $gt $gte $lt $lte $exists``. Keys are AND-ed.
``user_id`` cannot be filtered on: scope is always the ``user_id`` argument.

Example:
    >>> pred = compile_filter({"topic": "travel", "importance": {"$gte": 3}})
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.records import Message
    >>> m = Message("m1", "u", "s", "user", "hi", datetime.now(timezone.utc),
    ...             metadata={"topic": "travel", "importance": 5})
    >>> pred(m)
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from langgraph_memory.core.records import Message

__all__ = ["compile_filter", "Predicate"]

Predicate = Callable[[Message], bool]

_FIELDS = ("session_id", "role", "name", "timestamp", "id")
_KEY_RE = re.compile(r"^[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*$")
_OPS = {"$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$exists"}
_MISSING = object()


def _getter(key: str) -> Callable[[Message], Any]:
    if key in _FIELDS:
        return lambda m: getattr(m, key)
    path = key.split(".")
    if path[0] == "metadata" and len(path) > 1:
        path = path[1:]

    def get(m: Message) -> Any:
        cur: Any = m.metadata
        for part in path:
            if not isinstance(cur, Mapping) or part not in cur:
                return _MISSING
            cur = cur[part]
        return cur

    return get


def _coerce(value: Any, like: Any) -> Any:
    if isinstance(like, datetime) and isinstance(value, str):
        from langgraph_memory.core.validation import parse_timestamp

        return parse_timestamp(value, "filter")
    return value


def _compare(op: str, actual: Any, expected: Any) -> bool:
    if op == "$exists":
        return (actual is not _MISSING) == bool(expected)
    if actual is _MISSING:
        return op in ("$ne", "$nin")
    if op == "$in":
        return actual in expected
    if op == "$nin":
        return actual not in expected
    expected = _coerce(expected, actual)
    if op == "$eq":
        return bool(actual == expected)
    if op == "$ne":
        return bool(actual != expected)
    try:
        if op == "$gt":
            return bool(actual > expected)
        if op == "$gte":
            return bool(actual >= expected)
        if op == "$lt":
            return bool(actual < expected)
        return bool(actual <= expected)
    except TypeError:
        return False


def compile_filter(flt: Mapping[str, Any] | None) -> Predicate | None:
    """Validate a filter and turn it into a predicate over messages.

    Args:
        flt: The filter, or ``None``.

    Returns:
        A predicate, or ``None`` when there is no filter.

    Raises:
        TypeError: When the filter is not a mapping.
        ValueError: When a key is malformed, names ``user_id``, or an operator
            is unknown.
    """
    if flt is None or (isinstance(flt, Mapping) and not flt):
        return None
    if not isinstance(flt, Mapping):
        raise TypeError(f"filter must be a dict, got {type(flt).__name__}")
    checks: list[tuple[Callable[[Message], Any], str, Any]] = []
    for key, cond in flt.items():
        if not isinstance(key, str) or not _KEY_RE.match(key):
            raise ValueError(f"filter key {key!r} is not a valid field name")
        if key in ("user_id", "agent_id") or key.startswith("user_id."):
            raise ValueError(
                "filter cannot select user_id: memory is always scoped by the user_id argument"
            )
        get = _getter(key)
        if isinstance(cond, Mapping):
            if not cond:
                raise ValueError(f"filter on {key!r} has no operator")
            for op, value in cond.items():
                if op not in _OPS:
                    raise ValueError(f"filter on {key!r}: unknown operator {op!r}")
                if op in ("$in", "$nin") and not isinstance(value, (list, tuple, set, frozenset)):
                    raise ValueError(f"filter on {key!r}: {op} needs a list")
                if op in ("$in", "$nin"):
                    value = list(value)  # compared by ==, so unhashable values work
                checks.append((get, op, value))
        else:
            checks.append((get, "$eq", cond))

    def predicate(m: Message) -> bool:
        return all(_compare(op, get(m), value) for get, op, value in checks)

    return predicate
