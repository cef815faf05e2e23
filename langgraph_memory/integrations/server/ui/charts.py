"""Small inline SVG charts (no script, no library): segments' heat, a segment's pages
over time.

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

__all__ = ["heat_chart", "activity_chart"]

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


def activity_chart(
    times: Sequence[datetime], heat_now: float, label: str = "Pages joined over time"
) -> Markup:
    """How many pages joined a segment in each of up to 40 spans of time (oldest left),
    with its heat now in the label: the store keeps no past heat, and pages joining are
    what raise it (with visits, and the recency of its last access)."""
    label = f"{label}; heat now {heat_now:.3f}"
    if not times:
        return _svg(label + ": no pages", [])
    t0, t1 = min(times).timestamp(), max(times).timestamp()
    bins = 1 if t1 == t0 else min(40, len(times))
    counts = [0] * bins
    for when in times:
        k = 0 if t1 == t0 else min(bins - 1, int((when.timestamp() - t0) / (t1 - t0) * bins))
        counts[k] += 1
    top = max(counts)
    span = (_W - _PAD - 8) / bins
    body = []
    for k, n in enumerate(counts):
        h = n / top * (_H - _PAD - 10)
        x = _PAD + 4 + k * span
        start = datetime.fromtimestamp(t0 + (t1 - t0) * k / bins, tz=min(times).tzinfo)
        stamp = escape(start.isoformat(timespec="minutes"))
        body.append(
            f'<rect class="bar" x="{x:.1f}" y="{_H - _PAD - h:.1f}" '
            f'width="{max(1.0, span - 2):.1f}" height="{h:.1f}">'
            f"<title>{stamp}: {n} pages</title></rect>"
        )
    first, last = min(times).date().isoformat(), max(times).date().isoformat()
    body.append(
        f'<text x="{_PAD}" y="{_H - 8}">{escape(first)}</text>'
        f'<text x="{_W - 70}" y="{_H - 8}">{escape(last)}</text>'
        f'<text x="2" y="12">{top}</text>'
    )
    return _svg(label, body)
