"""Input validation: every public entry point checks its arguments here first.

Bad input raises ``TypeError`` (wrong type) or ``ValueError`` (bad value) with a
message naming the field, before anything is stored. One rule holds on every
backend (SQLite, PostgreSQL, Chroma, in-memory), so a value accepted by one is
accepted by all and reads back the same:

* **text** (message content, task requests, step descriptions and results,
  summaries, anchors, core blocks, store values): a ``str`` that is valid Unicode
  (a lone surrogate such as ``"\ud800"`` is refused: it cannot be encoded as
  UTF-8), holds no NUL character (PostgreSQL cannot store one), is not empty or
  only invisible characters (spaces, zero-width and other format characters),
  and is at most its field's limit in characters;
* **metadata and other JSON values** (message metadata, task context, step args):
  ``dict`` with ``str`` keys, nested at most :data:`MAX_JSON_DEPTH` deep, finite
  numbers only (``NaN`` and infinities are refused), strings under the text rule
  (empty strings allowed), at most its field's limit in bytes as JSON;
* **timestamps**: aware or naive (taken as UTC) datetimes, epoch seconds or date
  strings whose UTC value lies within :data:`MIN_TIMESTAMP` … :data:`MAX_TIMESTAMP`
  (years 1 to 9999 with a day to spare: every backend stores and reads that
  range back);
* **ids**: non-empty ``str`` of at most :data:`MAX_ID_CHARS` characters, no control
  characters, valid Unicode.

Example:
    >>> check_text("\u200b\u2060 ", 100, "content")
    Traceback (most recent call last):
    ...
    ValueError: content must not be empty (it holds only invisible characters)
    >>> check_metadata({"a": float("nan")}, 1000)
    Traceback (most recent call last):
    ...
    ValueError: metadata.a is NaN or infinite; only finite numbers are stored
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
import uuid
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from langgraph_memory.core.records import ROLE_ALIASES, ROLES

__all__ = [
    "check_id",
    "check_role",
    "check_roles",
    "check_content",
    "check_text",
    "check_json",
    "check_json_shape",
    "parse_timestamp",
    "check_metadata",
    "check_positive_int",
    "new_message_id",
    "LAYERS",
    "LAYER_ALIASES",
    "check_layers",
    "MAX_VALUE_BYTES",
    "check_count",
]

MAX_ID_CHARS = 256
#: How deep metadata and other JSON values may nest.
MAX_JSON_DEPTH = 32
#: Largest JSON-encoded value of a call that takes one (a feedback correction), in bytes.
MAX_VALUE_BYTES = 65_536
#: The earliest timestamp stored (UTC): a day after year 1 began.
MIN_TIMESTAMP = datetime(1, 1, 2, tzinfo=timezone.utc)
#: The latest timestamp stored (UTC): a day before year 9999 ends.
MAX_TIMESTAMP = datetime(9999, 12, 30, 23, 59, 59, tzinfo=timezone.utc)
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_DATE_FORMATS = (
    "%I:%M %p on %d %B, %Y",  # LoCoMo: "1:56 pm on 8 May, 2023"
    "%I:%M %p on %d %b, %Y",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d",
    "%Y/%m/%d %H:%M:%S",
    "%Y/%m/%d",
    "%Y年%m月%d日 %H:%M",
    "%Y年%m月%d日",
)


def check_id(value: Any, field: str) -> str:
    """Validate an identifier (``user_id``, ``session_id``, ``message_id``...)."""
    if not isinstance(value, str):
        raise TypeError(f"{field} must be a str, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{field} must not be empty")
    if len(value) > MAX_ID_CHARS:
        raise ValueError(f"{field} is longer than {MAX_ID_CHARS} characters")
    if _CONTROL_RE.search(value):
        raise ValueError(f"{field} must not contain control characters")
    _check_unicode(value, field)
    return value


def _check_unicode(value: str, field: str) -> None:
    found = _SURROGATE_RE.search(value)
    if found is not None:
        raise ValueError(
            f"{field} holds a lone surrogate (U+{ord(found.group()):04X}) at position "
            f"{found.start()}: it is not valid Unicode and cannot be stored"
        )


def _visible(value: str) -> bool:
    """Whether ``value`` holds a character that is neither space nor a format
    character (zero-width space, joiners, BOM...)."""
    return any(not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Cc") for ch in value)


def check_role(value: Any) -> str:
    """Validate a role and map LangChain's ``human``/``ai`` onto ``user``/``assistant``."""
    if not isinstance(value, str):
        raise TypeError(f"role must be a str, got {type(value).__name__}")
    role = value.strip().lower()
    if role not in ROLES:
        raise ValueError(f"role {value!r} is unknown; use one of {sorted(ROLES)}")
    return ROLE_ALIASES.get(role, role)


def check_roles(value: Any, name: str = "roles") -> tuple[str, ...]:
    """Validate a tuple (or list) of roles; each as :func:`check_role` maps it, once.

    Example:
        >>> check_roles(["human", "ai", "user"])
        ('user', 'assistant')
    """
    if isinstance(value, str) or not isinstance(value, (tuple, list)):
        raise TypeError(f"{name} must be a tuple of roles, got {value!r}")
    try:
        return tuple(dict.fromkeys(check_role(r) for r in value))
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{name}: {exc}") from None


def check_content(
    value: Any,
    max_chars: int,
    field: str = "content",
    setting: str | None = "MemoryConfig.write.max_content_chars",
) -> str:
    """Validate message content: a non-empty str of at most ``max_chars`` (the text rule
    of the module docstring); ``setting`` names where the limit is configured."""
    return check_text(value, max_chars, field, setting=setting)


def check_text(
    value: Any,
    max_chars: int,
    field: str,
    *,
    allow_empty: bool = False,
    setting: str | None = None,
) -> str:
    """Validate a text field: a ``str`` of valid Unicode without NUL, of at most
    ``max_chars`` characters, holding something visible (unless ``allow_empty``, which
    accepts ``""`` and whitespace too). Errors name the field and the limit (and
    ``setting``, where it is configured), never the text.

    Raises:
        TypeError: When ``value`` is not a str.
        ValueError: Naming ``field``, when it breaks the rule.
    """
    if not isinstance(value, str):
        raise TypeError(f"{field} must be a str, got {type(value).__name__}")
    if len(value) > max_chars:
        where = f" ({setting})" if setting else ""
        raise ValueError(
            f"{field} has {len(value)} characters, over the limit of {max_chars}{where}; "
            "shorten it or split it"
        )
    if "\x00" in value:
        raise ValueError(
            f"{field} holds a NUL character (at position {value.index(chr(0))}), "
            "which no backend stores alike; remove it"
        )
    _check_unicode(value, field)
    if not allow_empty and not _visible(value):
        if value.strip():
            raise ValueError(f"{field} must not be empty (it holds only invisible characters)")
        raise ValueError(f"{field} must not be empty")
    return value


def parse_timestamp(value: Any, field: str = "timestamp") -> datetime:
    """Turn a datetime, epoch seconds or a date string into an aware UTC-based datetime.

    Naive datetimes and strings without an offset are taken as UTC.

    Example:
        >>> parse_timestamp("1:56 pm on 8 May, 2023").isoformat()
        '2023-05-08T13:56:00+00:00'
    """
    if value is None:
        return datetime.now(timezone.utc)
    return _in_range(_to_datetime(value, field), value, field)


def _in_range(dt: datetime, value: Any, field: str) -> datetime:
    try:
        utc = dt.astimezone(timezone.utc)
    except (OverflowError, ValueError):
        utc = None
    if utc is None or not MIN_TIMESTAMP <= utc <= MAX_TIMESTAMP:
        raise ValueError(
            f"{field} {value!r} is out of the range stored: {MIN_TIMESTAMP.date()} to "
            f"{MAX_TIMESTAMP.date()} (UTC)"
        )
    return dt


def _to_datetime(value: Any, field: str) -> datetime:
    if isinstance(value, bool):
        raise TypeError(f"{field} must be a datetime, a number or a str, got bool")
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{field} {value!r} is not a finite number of seconds")
        try:
            return datetime.fromtimestamp(float(value), tz=timezone.utc)
        except (OverflowError, OSError, ValueError) as exc:
            raise ValueError(f"{field} {value!r} is out of range") from exc
    if not isinstance(value, str):
        raise TypeError(
            f"{field} must be a datetime, a number or a str, got {type(value).__name__}"
        )
    if "\x00" in value or _SURROGATE_RE.search(value):
        raise ValueError(f"{field} is not a date: it holds NUL or a lone surrogate")
    dt = _parse_date_string(value.strip())
    if dt is None:
        raise ValueError(
            f"{field} {value!r} is not a date; use ISO 8601 such as 2024-05-08T13:56:00"
        )
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def _parse_date_string(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        pass
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def check_metadata(value: Any, max_bytes: int, field: str = "metadata") -> dict[str, Any]:
    """Validate metadata: a JSON-serialisable dict with str keys, at most ``max_bytes``
    (the JSON rule of the module docstring). ``None`` is ``{}``.

    Returns:
        A deep copy made of plain JSON types (tuples become lists).
    """
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"{field} must be a dict, got {type(value).__name__}")
    return dict(check_json(value, max_bytes, field))


def check_json(value: Any, max_bytes: int, field: str) -> Any:
    """Validate a JSON-like value (dicts with str keys, lists, tuples, str, finite
    numbers, bool, None) under the JSON rule; returns a plain-JSON copy.

    Raises:
        TypeError: When a key is not a str, naming its path.
        ValueError: When a value has no JSON form, it nests deeper than
            :data:`MAX_JSON_DEPTH`, holds NaN or an infinity or a string breaking the text
            rule, or it exceeds ``max_bytes``.
    """
    check_json_shape(value, field)
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:  # e.g. a custom object's str
        raise ValueError(f"{field} must be JSON-serialisable: {exc}") from exc
    if len(encoded.encode("utf-8")) > max_bytes:
        raise ValueError(f"{field} is larger than {max_bytes} bytes when encoded as JSON")
    return json.loads(encoded)


def check_json_shape(value: Any, field: str) -> None:
    """The JSON rule without a size limit or a copy: depth, keys, finite numbers and
    strings, checked without recursion (a value nested 5,000 deep gets a ValueError, not
    a RecursionError).

    Raises:
        TypeError: When a key is not a str, naming its path.
        ValueError: When a value has no JSON form (NaN, an infinity, another type), it
            nests deeper than :data:`MAX_JSON_DEPTH` or a string breaks the text rule.
    """
    stack: list[tuple[Any, str, int]] = [(value, field, 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            check_text(item, len(item), path, allow_empty=True)
        elif isinstance(item, bool) or item is None or isinstance(item, int):
            continue
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ValueError(f"{path} is NaN or infinite; only finite numbers are stored")
        elif isinstance(item, (dict, list, tuple)):
            if depth >= MAX_JSON_DEPTH:
                raise ValueError(f"{field} nests deeper than {MAX_JSON_DEPTH} levels (at {path})")
            if isinstance(item, dict):
                for k, v in item.items():
                    if not isinstance(k, str):
                        raise TypeError(f"{field} keys must be str (at {path}: {k!r})")
                    check_text(k, len(k), f"{path} key", allow_empty=True)
                    stack.append((v, f"{path}.{k}", depth + 1))
            else:
                stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(item))
        else:
            raise ValueError(f"{path} must be JSON-serialisable, got {type(item).__name__}")


def check_count(value: Any, field: str, *, minimum: int = 0) -> int:
    """Validate a count argument such as ``limit`` or ``offset``: an int (not a bool, not
    a float, NaN included) of at least ``minimum``.

    Example:
        >>> check_count(3, "limit")
        3
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{field} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{field} must be >= {minimum}, got {value}")
    return value


def check_positive_int(value: Any, field: str) -> int:
    """Validate a positive integer argument such as ``k`` or ``token_budget``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{field} must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{field} must be > 0, got {value}")
    return value


def new_message_id() -> str:
    """A fresh message id."""
    return uuid.uuid4().hex


#: Layers that ``search(layers=...)`` accepts: stored messages (every page, whatever
#: layer holds it, stays searchable as a message), mid-term segment summaries,
#: long-term entries (profile, facts, traits, episodes, knowledge), and the chunks of
#: documents (``add_document``: the user's own and shared knowledge; hits of layer
#: ``chunk``), with the passages of attached vector stores (also ``chunk``).
LAYERS = ("message", "mid_term", "long_term", "document")
#: The group of :data:`LAYERS` each layer a hit is labelled with belongs to: every label
#: a hit shows is accepted by ``search(layers=...)`` too, and keeps only hits of that
#: label (``["fact", "profile"]``: facts and profile entries; ``["long_term"]``: every
#: long-term entry).
HIT_GROUP = {
    "message": "message",
    "mid_term": "mid_term",
    "profile": "long_term",
    "fact": "long_term",
    "trait": "long_term",
    "episode": "long_term",
    "knowledge": "long_term",
    "lesson": "long_term",
    "insight": "long_term",
    "contradiction": "long_term",
    "rollup": "long_term",
    "entity": "long_term",
    "chunk": "document",
    "passage": "document",
}
#: Other names ``layers`` accepts: ``"knowledge"`` is the semantic layer (seed 002's
#: knowledge base, as RAG code names it): the documents' chunks and the long-term
#: knowledge consolidated from episodes.
LAYER_ALIASES = {"knowledge": ("document", "chunk", "passage", "long_term", "knowledge")}


def check_layers(layers: Sequence[str] | None) -> set[str]:
    """The layers ``search`` ranks: ``layers`` checked against :data:`LAYERS` and the
    hit labels of :data:`HIT_GROUP`, or all.

    Returns:
        The groups to rank, and the hit labels to keep (none: every hit of a group).

    Raises:
        TypeError: When ``layers`` is not a list of names.
        ValueError: When a name is no layer (the message lists the known ones).

    Example:
        >>> sorted(check_layers(["fact", "message"]))
        ['fact', 'long_term', 'message']
    """
    if layers is None:
        return set(LAYERS)
    if isinstance(layers, str) or not isinstance(layers, Sequence):
        raise TypeError("layers must be a list of layer names")
    unknown = [x for x in layers if x not in LAYERS and x not in HIT_GROUP]
    if unknown:
        known = list(dict.fromkeys([*LAYERS, *HIT_GROUP]))
        raise ValueError(f"unknown layers {unknown}; known layers: {known}")
    out: set[str] = set()
    for x in layers:
        if x in LAYER_ALIASES:
            out.update(LAYER_ALIASES[x])
        elif x in LAYERS:
            out.add(x)
        else:
            out.update((HIT_GROUP[x], x))
    return out
