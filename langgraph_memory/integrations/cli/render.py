"""Rendering helpers of the ``langgraph-memory`` command line (rich tables and progress).

Everything user-supplied (message text, ids, queries) is wrapped in
:class:`rich.text.Text`, so square brackets in it are shown, never read as markup; the
console the command line prints on (:class:`~.terminal.SafeConsole`) shows the control
characters in it instead of sending them to the terminal.

Example:
    >>> format_parts({"bm25_rank": 1.0, "dense_rank": 3.0, "rrf": 0.0325, "cosine": 0.61})
    'bm25#1 dense#3 rrf=.0325 cos=.610'
    >>> relevance(0.5)
    50
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from langgraph_memory.core.context import MemoryContext
from langgraph_memory.core.records import MemoryHit
from langgraph_memory.integrations.cli.terminal import shown

__all__ = [
    "IngestResult",
    "LAYER_STYLES",
    "format_parts",
    "relevance",
    "format_time",
    "context_table",
    "context_caption",
    "hits_table",
    "hit_to_dict",
    "report_errors",
    "stats_table",
    "users_table",
    "summary_table",
    "ingest_table",
    "error_text",
    "make_progress",
    "loading",
]


@dataclass
class IngestResult:
    """What an ingest did: non-blank lines read, messages stored (new ones among
    them), bad lines as ``(line number, error)``, and the time it took."""

    lines: int = 0
    stored: int = 0
    new: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)
    seconds: float = 0.0


#: Colour of each context layer in tables.
LAYER_STYLES = {
    "short_term": "cyan",
    "message": "green",
    "neighbor": "yellow",
    "mid_term": "magenta",
    "segment_page": "blue",
}

#: Console width from which tables get a column each for reasons, score parts, sessions.
WIDE = 130
#: Short names of score components: ranks print as ``name#rank``, the rest as ``name=value``.
_RANKS = {"bm25_rank": "bm25", "dense_rank": "dense", "recency_rank": "recent"}
_VALUES = {
    "rrf": "rrf",
    "cosine": "cos",
    "bm25": "bm25-score",
    "neighbor_of_score": "of",
    "tier": "priority",
    "successor_of_score": "update-of",
    "cosine_to_statement": "cos-stmt",
    "bm25_to_statement": "bm25-stmt",
    "heat_factor": "heat×",
}


def _num(v: float) -> str:
    """A compact number: integers as is, small floats without the leading zero."""
    if float(v).is_integer():
        return str(int(v))
    text = f"{v:.4f}" if abs(v) < 0.1 else f"{v:.3f}"
    return text.replace("0.", ".", 1) if text.startswith(("0.", "-0.")) else text


def format_parts(parts: Mapping[str, float]) -> str:
    """Score components on one short line, e.g. ``bm25#1 dense#3 rrf=.0325 cos=.610``."""
    out: list[str] = []
    for key, value in parts.items():
        if key in _RANKS:
            out.append(f"{_RANKS[key]}#{int(value)}")
        else:
            out.append(f"{_VALUES.get(key, key)}={_num(value)}")
    return " ".join(out)


def relevance(value: float) -> int:
    """A relevance in ``[0, 1]`` (``MemoryHit.score``, ``ContextItem.relevance``) as a
    plain 0-100: the same scale for every item and query, so an unrelated item shows
    near 0 even when it is the best there is.

    Example:
        >>> relevance(0.5), relevance(1.0), relevance(0.013)
        (50, 100, 1)
    """
    return max(0, min(100, round(100 * value)))


def format_time(ts: datetime | None) -> str:
    """A timestamp as ``YYYY-MM-DD HH:MM`` (empty when unknown)."""
    return ts.strftime("%Y-%m-%d %H:%M") if ts is not None else ""


def context_table(
    ctx: MemoryContext, title: str | None = None, width: int = 120, *, explain: bool = False
) -> Table:
    """A context, one row per item, best first: rank, layer, relevance (0-100, the
    calibrated relevance, the same scale for every item), tokens, cited message ids, why
    it is there, and its text. With ``explain`` the raw score and its parts are shown
    too.

    ``width`` is the console width: the text column gets what the others leave, and
    below ``WIDE`` columns the reason (and score parts) go under the text.
    """
    wide = width >= WIDE
    table = Table(
        title=shown(title if title is not None else ctx.query, style="bold"),
        title_justify="left",
        caption=context_caption(ctx),
        caption_justify="left",
    )
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("layer", no_wrap=True)
    table.add_column("relevance" if wide else "rel", justify="right", no_wrap=True)
    table.add_column("tok", justify="right", no_wrap=True)
    table.add_column("sources", style="magenta", overflow="fold", max_width=16)
    if wide and explain:
        table.add_column("score parts", style="dim", max_width=20, overflow="fold")
    if wide:
        table.add_column("why", max_width=22, overflow="fold")
    spare = 104 if wide and explain else 82 if wide else 58
    table.add_column("text", min_width=max(20, width - spare), overflow="fold")
    for i, it in enumerate(ctx.items, start=1):
        parts = f"score={_num(it.score)} {format_parts(it.score_parts)}" if explain else ""
        cells: list[RenderableType] = [shown(", ".join(it.source_ids))]
        if wide:
            cells += [Text(parts)] if explain else []
            cells += [shown(it.reason), shown(it.text)]
        else:
            note = f"{it.reason} · {parts}" if parts else it.reason
            cells.append(shown(it.text, "\n", (note, "dim")))
        layer = Text(it.layer, style=LAYER_STYLES.get(it.layer, ""))
        table.add_row(str(i), layer, str(relevance(it.relevance)), str(it.tokens), *cells)
    return table


def context_caption(ctx: MemoryContext) -> Text:
    """``tokens used/budget · items · timings`` of a context."""
    timings = ", ".join(f"{k} {v:.1f} ms" for k, v in ctx.timings_ms.items())
    total = sum(ctx.timings_ms.values())
    line = Text()
    line.append(f"{ctx.tokens}/{ctx.token_budget} tokens", style="bold")
    line.append(f" · {len(ctx.items)} items · {len(ctx.source_ids)} cited messages")
    if timings:
        line.append(f" · {total:.1f} ms ({timings})")
    return line


def hits_table(
    hits: Sequence[MemoryHit], title: str, width: int = 120, *, explain: bool = False
) -> Table:
    """Search hits: rank, relevance (0-100, the hit's calibrated score), layer, id,
    session, time, text; with ``explain`` also the raw score and its parts (``width``
    as above)."""
    wide = width >= WIDE
    table = Table(title=shown(title, style="bold"), title_justify="left")
    table.add_column("rank", justify="right", style="dim", no_wrap=True)
    table.add_column("relevance" if wide else "rel", justify="right", no_wrap=True)
    table.add_column("layer", no_wrap=True)
    table.add_column("id", style="magenta", overflow="fold", max_width=16)
    if wide:
        table.add_column("session", overflow="fold", max_width=16)
        table.add_column("time", no_wrap=True)
    spare = (112 if explain else 90) if wide else 52
    table.add_column("text", min_width=max(20, width - spare), overflow="fold")
    if wide and explain:
        table.add_column("score parts", style="dim", max_width=20)
    for rank, hit in enumerate(hits, start=1):
        speaker = hit.name or hit.role
        text = f"{speaker}: {hit.text}" if speaker else hit.text
        where = f"{hit.session_id or ''} · {format_time(hit.timestamp)}"
        parts = f"score={_num(hit.score)} {format_parts(hit.score_parts)}" if explain else ""
        if wide:
            cells: list[RenderableType] = [
                shown(hit.session_id or ""),
                format_time(hit.timestamp),
                shown(text),
            ]
            if explain:
                cells.append(Text(parts))
        else:
            note = f"{where} · {parts}" if parts else where
            cells = [shown(text, "\n", (note, "dim"))]
        layer = Text(hit.layer, style=LAYER_STYLES.get(hit.layer, ""))
        table.add_row(str(rank), str(relevance(hit.score)), layer, shown(hit.id), *cells)
    return table


def hit_to_dict(hit: MemoryHit) -> dict[str, Any]:
    """A JSON-friendly view of a search hit."""
    return {
        "id": hit.id,
        "layer": hit.layer,
        "score": hit.score,
        "score_parts": hit.score_parts,
        "text": hit.text,
        "role": hit.role,
        "name": hit.name,
        "session_id": hit.session_id,
        "timestamp": hit.timestamp.isoformat() if hit.timestamp else None,
        "source_ids": hit.source_ids,
        "metadata": hit.metadata,
    }


def report_errors(console: Console, errors: Sequence[tuple[int, str]], limit: int = 20) -> None:
    """Print ``line N: message`` for the first ``limit`` bad input lines."""
    for lineno, msg in errors[:limit]:
        console.print(shown(("line ", "red"), (str(lineno), "bold red"), ": ", msg))
    if len(errors) > limit:
        console.print(Text(f"… and {len(errors) - limit} more bad lines", style="red"))


def stats_table(stats: Mapping[str, Any], title: str = "memory stats") -> Table:
    """The counts a person asks about, as a short table (``--json`` has them all)."""
    table = Table(title=shown(title, style="bold"), title_justify="left", show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value", overflow="fold")
    layers = stats.get("layers") or {}
    longterm = stats.get("longterm") or {}
    hierarchy = stats.get("hierarchy") or {}
    queue = f"{stats.get('embedded', 0)} embedded, {stats.get('pending', 0)} pending"
    if stats.get("failed"):
        queue += f", {stats['failed']} failed (langgraph-memory failed)"
    rows = [
        ("messages", f"{stats.get('messages', 0)} ({queue})"),
        ("sessions", str(stats.get("sessions", 0))),
        ("users", str(stats.get("users", 0))),
        (
            "about the user",
            f"{longterm.get('profile', 0)} profile entries, {longterm.get('facts_current', 0)}"
            f" current facts ({longterm.get('facts_superseded', 0)} superseded), "
            f"{layers.get('anchor', 0)} standing instructions and anchors",
        ),
        (
            "tasks and lessons",
            f"{layers.get('task', 0)} tasks, {layers.get('episode', 0)} episodes, "
            f"{layers.get('knowledge', 0)} knowledge, {layers.get('lesson', 0)} lessons",
        ),
        (
            "conversation layers",
            f"{hierarchy.get('short_term_pages', 0)} recent pages, "
            f"{hierarchy.get('mid_term_segments', 0)} topics, "
            f"{layers.get('rollup', 0)} day/week summaries",
        ),
        ("store", f"{stats.get('backend', '?')} at {stats.get('path', '?')}"),
    ]
    for key, value in rows:
        table.add_row(key, shown(value))
    return table


def users_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Per-user counts (``user``, ``messages``, ``embedded``, ``sessions``)."""
    table = Table(title=Text("users", style="bold"), title_justify="left")
    table.add_column("user", overflow="fold")
    for col in ("messages", "embedded", "sessions"):
        table.add_column(col, justify="right")
    for row in rows:
        table.add_row(
            shown(str(row["user"])), *(str(row[c]) for c in ("messages", "embedded", "sessions"))
        )
    return table


def summary_table(rows: Sequence[tuple[str, Any]], title: str) -> Table:
    """A small key/value summary (e.g. of an ingest)."""
    table = Table(title=shown(title, style="bold"), title_justify="left", show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in rows:
        table.add_row(key, shown(str(value)))
    return table


def ingest_table(source: str, res: IngestResult, stats: Mapping[str, Any]) -> Table:
    """The summary of an ingest."""
    lines = ", ".join(str(n) for n, _ in res.errors[:10]) + (" …" if len(res.errors) > 10 else "")
    return summary_table(
        [
            ("file", source),
            ("records", str(res.lines)),
            ("stored", f"{res.stored} ({res.new} new, {res.stored - res.new} already present)"),
            ("bad lines", f"{len(res.errors)}: line {lines}" if res.errors else "0"),
            ("time", f"{res.seconds:.2f} s"),
            ("memory", f"{stats['path']} (messages: {stats['messages']}, users: {stats['users']})"),
        ],
        title="ingest",
    )


def error_text(exc: BaseException) -> Text:
    """``error: <message>`` in red, with a hint for the errors that have an easy fix."""
    hint = ""
    if isinstance(exc, ImportError):
        hint = "\nhint: or run with --hashing (a toy embedder that needs no model)"
    elif "dimension" in str(exc) or "embedding model" in str(exc):
        hint = (
            "\nhint: this memory was embedded by another model; "
            "pass --hashing if, and only if, it was ingested with --hashing"
        )
    return shown(("error: ", "bold red"), (str(exc), "red"), hint)


def make_progress(console: Console) -> Progress:
    """A progress display for ingesting and embedding."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description:<10}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


@contextmanager
def loading(console: Console, message: str, done: str = "done") -> Iterator[None]:
    """Show ``message`` while the block runs (a spinner on terminals), then ``done`` and
    the time it took."""
    t0 = time.perf_counter()
    if console.is_terminal:
        with console.status(message):
            yield
    else:
        console.print(message, highlight=False)
        yield
    took = f" {done} in {time.perf_counter() - t0:.1f} s"
    console.print(Text.assemble(("✓", "green"), took), highlight=False)
