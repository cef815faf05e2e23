"""Small inline SVG charts (no script, no library): segments' heat, a segment's heat
over time (its visits and promotions marked).

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
from datetime import datetime, timezone, tzinfo
from html import escape

from markupsafe import Markup

__all__ = ["heat_chart", "heat_curve_chart"]

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


def _stamp(when: datetime, zone: tzinfo | None) -> str:
    """``when`` in ``zone`` (UTC when none), with the zone's name."""
    shown = when.astimezone(zone or timezone.utc)
    return shown.strftime("%Y-%m-%d %H:%M") + " " + (shown.tzname() or "UTC")


def heat_curve_chart(
    points: Sequence[tuple[datetime, float]],
    visits: Sequence[datetime] = (),
    promotions: Sequence[datetime] = (),
    *,
    zone: tzinfo | None = None,
    label: str = "Heat over time",
) -> Markup:
    """A line through ``(time, heat)`` points (oldest first), each visit a tick on the
    time axis and each promotion a dashed vertical line, each with its time (in ``zone``,
    UTC when none) in a ``<title>``.

    Example:
        >>> from datetime import datetime, timezone
        >>> t = [datetime(2024, 1, 1, h, tzinfo=timezone.utc) for h in (0, 1, 2)]
        >>> svg = heat_curve_chart([(t[0], 1.0), (t[1], 2.0), (t[2], 0.5)], [t[1]], [t[2]])
        >>> svg.count('class="visit"'), svg.count('class="promotion"'), 'role="img"' in svg
        (1, 1, True)
    """
    if not points:
        return _svg(label + ": no history", [])
    t0, t1 = points[0][0].timestamp(), points[-1][0].timestamp()
    span = max(t1 - t0, 1e-9)
    top = max(max(h for _, h in points), 1e-9)
    left, right, base, high = _PAD + 4, _W - 8, _H - _PAD, 14

    def x(when: datetime) -> float:
        return left + (when.timestamp() - t0) / span * (right - left)

    def y(h: float) -> float:
        return base - max(0.0, h) / top * (base - high)

    path = " ".join(
        f"{'M' if i == 0 else 'L'}{x(t):.1f},{y(h):.1f}" for i, (t, h) in enumerate(points)
    )
    shown = [w for w in visits if t0 <= w.timestamp() <= t1]
    promoted = [w for w in promotions if t0 <= w.timestamp() <= t1]
    body = [f'<path class="line" d="{path}"><title>{escape(label)}</title></path>']
    for w in shown:
        body.append(
            f'<line class="visit" x1="{x(w):.1f}" y1="{base}" x2="{x(w):.1f}" y2="{base + 7}">'
            f"<title>visit {escape(_stamp(w, zone))}</title></line>"
        )
    for w in promoted:
        body.append(
            f'<line class="promotion" x1="{x(w):.1f}" y1="{high}" x2="{x(w):.1f}" y2="{base}">'
            f"<title>promotion {escape(_stamp(w, zone))}</title></line>"
        )
    first, last = _stamp(points[0][0], zone), _stamp(points[-1][0], zone)
    body.append(
        f'<text x="2" y="{high}">{top:.2f}</text><text x="2" y="{base}">0</text>'
        f'<text x="{left}" y="{_H - 6}">{escape(first)}</text>'
        f'<text x="{right}" y="{_H - 6}" text-anchor="end">{escape(last)}</text>'
        f'<text class="key-visit" x="{right}" y="10" text-anchor="end">'
        f"ticks: visits · dashed: promotions</text>"
    )
    now = points[-1][1]
    label = (
        f"{label} from {first} to {last}: heat now {now:.3f}, highest {top:.3f}; "
        f"{len(shown)} visits and {len(promoted)} promotions marked"
    )
    return _svg(label, body)
