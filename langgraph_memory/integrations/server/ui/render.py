"""Pages as HTML: Jinja2 templates with autoescaping, stored text made inert, headers.

Every value a template shows is escaped by Jinja2's autoescape; :func:`inert` also makes
what escaping leaves invisible or misleading visible: C0/C1 control characters (a
terminal escape ``\\x1b[31m`` shows as ``␛[31m``) and the bidirectional overrides that
reorder text on screen (shown as ``<U+202E>``). Each response carries a Content
Security Policy that allows only the package's own script and style, so even a tag that
slipped through could not run.

Example:
    >>> inert("\\x1b[31mred\\x1b[0m")
    '␛[31mred␛[0m'
    >>> str(Renderer().env.from_string("{{ t | inert }}").render(t="<script>"))
    '&lt;script&gt;'
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.responses import HTMLResponse

__all__ = ["Renderer", "inert", "zone_of", "SECURITY_HEADERS"]

#: Sent with every page.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _picture(m: re.Match[str]) -> str:
    c = ord(m.group())
    if c < 0x20:
        return chr(0x2400 + c)  # ␀..␟ (␛ for ESC)
    if c == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{c:04X}>"


def inert(value: Any) -> str:
    """``value`` as text whose control and bidi characters are shown, not obeyed
    (newlines and tabs kept)."""
    text = "" if value is None else str(value)
    text = _CONTROL.sub(_picture, text)
    return _BIDI.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def zone_of(name: str | None) -> ZoneInfo | None:
    """The time zone a ``tz`` parameter names, or ``None`` (unknown, or none given)."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


class Renderer:
    """The templates of the inspector and what they share."""

    def __init__(self) -> None:
        self.env = Environment(
            loader=PackageLoader("langgraph_memory.integrations.server.ui", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=StrictUndefined,
        )
        self.env.filters["inert"] = inert
        self.env.filters["num"] = _num
        self.env.filters["seg"] = lambda v: quote(str(v), safe="")
        self.env.filters["fields"] = _fields
        self.env.filters["brief"] = _brief

    def page(
        self, name: str, status: int = 200, headers: dict[str, str] | None = None, **ctx: Any
    ) -> HTMLResponse:
        """Render template ``name`` as a response with the security headers."""
        ctx.setdefault("tz", None)
        ctx["when"] = _when_fn(zone_of(ctx.get("tz")))
        html = self.env.get_template(name).render(**ctx)
        return HTMLResponse(
            html, status_code=status, headers={**SECURITY_HEADERS, **(headers or {})}
        )


def _fields(record: Any) -> list[tuple[str, Any]]:
    """A record's fields as (name, value) pairs, its owner's id left out."""
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        pairs = [(f.name, getattr(record, f.name)) for f in dataclasses.fields(record)]
    else:
        pairs = list(getattr(record, "__dict__", {}).items())
    return [(k, v) for k, v in pairs if k != "user_id" and not k.startswith("_")]


def _brief(record: Any) -> str:
    """A record in one line: its own ``text()`` when it has one."""
    text = getattr(record, "text", None)
    if callable(text):
        try:
            return str(text())
        except Exception:  # a record that cannot render itself is shown by its fields
            pass
    return ", ".join(f"{k}={v}" for k, v in _fields(record))[:300]


def _num(v: Any, places: int = 3) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return inert(v)
    if float(v).is_integer():
        return str(int(v))
    return f"{v:.{places}f}"


def _when_fn(zone: ZoneInfo | None) -> Any:
    """A template helper: ``when(dt)`` -> (ISO datetime attribute, text shown). Shown in
    the ``tz`` parameter's zone when given (the page's script then leaves it), else in UTC
    (the script rewrites it to the browser's zone)."""

    def when(value: Any) -> tuple[str, str, bool]:
        if value is None or value == "":
            return "", "", False
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                return "", inert(value), False
        if not isinstance(value, datetime):
            return "", inert(value), False
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        iso = value.astimezone(timezone.utc).isoformat(timespec="seconds")
        shown = value.astimezone(zone or timezone.utc)
        text = shown.strftime("%Y-%m-%d %H:%M") + (f" {shown.tzname()}" if zone else " UTC")
        return iso, text, zone is not None

    return when
