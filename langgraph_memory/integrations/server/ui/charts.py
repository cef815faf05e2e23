"""Small inline SVG charts (no script, no library): segments' heat, heat over time.

Every label is escaped; the SVG carries a ``<title>`` and ``role="img"`` with an
``aria-label`` so a screen reader reads what it shows, and each bar's value is in its
own ``<title>``.

Example:
    >>> svg = heat_chart([("s1#1", 2.5), ("<b>", 1.0)])
    >>> "<b>" in svg, "&lt;b&gt;" in svg, svg.count('class="bar"')
    (False, True, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape

from markupsafe import Markup

__all__ = ["heat_chart", "heat_timeline"]

_W, _H, _PAD = 640, 180, 28


def _svg(label: str, body: list[str]) -> Markup:
    head = (
        f'<svg class="heat" viewBox="0 0 {_W} {_H}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(label)}</title>"
    )
    axes = (
        f'<line class="axis" x1="{_PAD}" y1="{_H - _PAD}" x2="{_W - 4}" y2="{_H - _PAD}"/>'
        f'<line class="axis" x1="{_PAD}" y1="4" x2="{_PAD}" y2="{_H - _PAD}"/>'
    )
    return Markup(head + axes + "".join(body) + "</svg>")  # noqa: S704 - every part escaped


def heat_chart(rows: Sequence[tuple[str, float]], label: str = "Heat per segment") -> Markup:
    """A bar per ``(segment id, heat)``, in the given order."""
    if not rows:
        return _svg(label + ": no segments", [])
    top = max(max(h for _, h in rows), 1e-9)
    span = (_W - _PAD - 8) / len(rows)
    body = []
    for i, (name, heat) in enumerate(rows):
        h = max(0.0, heat) / top * (_H - _PAD - 10)
        x = _PAD + 4 + i * span
        w = max(1.0, span - 3)
        body.append(
            f'<rect class="bar" x="{x:.1f}" y="{_H - _PAD - h:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}"><title>{escape(name)}: heat {heat:.3f}</title></rect>'
        )
    body.append(f'<text x="2" y="12">{top:.2f}</text><text x="2" y="{_H - _PAD}">0</text>')
    return _svg(label, body)


def heat_timeline(
    points: Sequence[tuple[datetime, float]], label: str = "Heat over time"
) -> Markup:
    """A bar per ``(time, heat)`` on a time axis, oldest left."""
    if not points:
        return _svg(label + ": no history yet", [])
    pts = sorted(points)
    t0, t1 = pts[0][0].timestamp(), pts[-1][0].timestamp()
    top = max(max(h for _, h in pts), 1e-9)
    width = _W - _PAD - 12
    body = []
    for when, heat in pts:
        x = _PAD + 6 + (0 if t1 == t0 else (when.timestamp() - t0) / (t1 - t0) * width)
        h = max(0.0, heat) / top * (_H - _PAD - 10)
        stamp = when.isoformat(timespec="minutes")
        body.append(
            f'<rect class="bar" x="{x - 2:.1f}" y="{_H - _PAD - h:.1f}" width="4" '
            f'height="{h:.1f}"><title>{escape(stamp)}: heat {heat:.3f}</title></rect>'
        )
    first, last = pts[0][0].date().isoformat(), pts[-1][0].date().isoformat()
    body.append(
        f'<text x="{_PAD}" y="{_H - 8}">{escape(first)}</text>'
        f'<text x="{_W - 70}" y="{_H - 8}">{escape(last)}</text>'
        f'<text x="2" y="12">{top:.2f}</text>'
    )
    return _svg(label, body)
