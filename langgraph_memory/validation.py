"""Input validation: every public entry point checks its arguments here first.

Bad input raises ``TypeError`` (wrong type) or ``ValueError`` (bad value) with a
message naming the field, before anything is stored.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime, timezone
from typing import Any

from .records import ROLE_ALIASES, ROLES

__all__ = [
    "check_id",
    "check_role",
    "check_content",
    "parse_timestamp",
    "check_metadata",
    "check_positive_int",
    "new_message_id",
]

MAX_ID_CHARS = 256
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
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
    return value


def check_role(value: Any) -> str:
    """Validate a role and map LangChain's ``human``/``ai`` onto ``user``/``assistant``."""
    if not isinstance(value, str):
        raise TypeError(f"role must be a str, got {type(value).__name__}")
    role = value.strip().lower()
    if role not in ROLES:
        raise ValueError(f"role {value!r} is unknown; use one of {sorted(ROLES)}")
    return ROLE_ALIASES.get(role, role)


def check_content(value: Any, max_chars: int, field: str = "content") -> str:
    """Validate message content: a non-empty str of at most ``max_chars``."""
    if not isinstance(value, str):
        raise TypeError(f"{field} must be a str, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{field} must not be empty")
    if len(value) > max_chars:
        raise ValueError(
            f"{field} has {len(value)} characters, over the limit of {max_chars} "
            "(MemoryConfig.max_content_chars); split it into several messages"
        )
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
    if isinstance(value, bool):
        raise TypeError(f"{field} must be a datetime, a number or a str, got bool")
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)):
        try:
            return datetime.fromtimestamp(float(value), tz=timezone.utc)
        except (OverflowError, OSError, ValueError) as exc:
            raise ValueError(f"{field} {value!r} is out of range") from exc
    if not isinstance(value, str):
        raise TypeError(
            f"{field} must be a datetime, a number or a str, got {type(value).__name__}"
        )
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
    """Validate metadata: a JSON-serialisable dict with str keys, at most ``max_bytes``."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"{field} must be a dict, got {type(value).__name__}")
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{field} must be JSON-serialisable: {exc}") from exc
    if any(not isinstance(k, str) for k in value):
        raise TypeError(f"{field} keys must be str")
    if len(encoded.encode("utf-8")) > max_bytes:
        raise ValueError(f"{field} is larger than {max_bytes} bytes when encoded as JSON")
    return dict(json.loads(encoded))


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
