"""Rendering helpers of the ``langgraph-memory`` command line (rich tables and progress).

Everything user-supplied (message text, ids, queries) is wrapped in
:class:`rich.text.Text`, so square brackets in it are shown, never read as markup.

Example:
    >>> format_parts({"bm25_rank": 1.0, "dense_rank": 3.0, "rrf": 0.0325, "cosine": 0.61})
    'bm25#1 dense#3 rrf=.0325 cos=.610'
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

from .context import MemoryContext
from .records import MemoryHit

__all__ = [
    "IngestResult",
    "LAYER_STYLES",
    "format_parts",
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
    "bm25": "bm25s",
    "neighbor_of_score": "of",
    "tier": "tier",
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


def format_time(ts: datetime | None) -> str:
    """A timestamp as ``YYYY-MM-DD HH:MM`` (empty when unknown)."""
    return ts.strftime("%Y-%m-%d %H:%M") if ts is not None else ""


def context_table(ctx: MemoryContext, title: str | None = None, width: int = 120) -> Table:
    """The explanation of a context: one row per item, best first.

    Columns: rank, layer, score, tokens, cited message ids, score parts, reason, text.
    ``width`` is the console width: the text column gets what the others leave, and
    below ``WIDE`` columns the reason and score parts go under the text.
    """
    wide = width >= WIDE
    table = Table(
        title=Text(title if title is not None else ctx.query, style="bold"),
        title_justify="left",
        caption=context_caption(ctx),
        caption_justify="left",
    )
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("layer", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("tok", justify="right", no_wrap=True)
    table.add_column("sources", style="magenta", overflow="fold", max_width=16)
    if wide:
        table.add_column("score parts", style="dim", max_width=20, overflow="fold")
        table.add_column("why", max_width=22, overflow="fold")
    table.add_column("text", min_width=max(20, width - (104 if wide else 58)), overflow="fold")
    for i, it in enumerate(ctx.items, start=1):
        parts = format_parts(it.score_parts)
        cells: list[RenderableType] = [Text(", ".join(it.source_ids))]
        if wide:
            cells += [Text(parts), Text(it.reason), Text(it.text)]
        else:
            cells.append(Text.assemble(it.text, "\n", (f"{it.reason} · {parts}", "dim")))
        layer = Text(it.layer, style=LAYER_STYLES.get(it.layer, ""))
        table.add_row(str(i), layer, f"{it.score:.4f}", str(it.tokens), *cells)
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


def hits_table(hits: Sequence[MemoryHit], title: str, width: int = 120) -> Table:
    """Search hits: rank, score, id, session, time, text, score parts (``width`` as above)."""
    wide = width >= WIDE
    table = Table(title=Text(title, style="bold"), title_justify="left")
    table.add_column("rank", justify="right", style="dim", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("id", style="magenta", overflow="fold", max_width=16)
    if wide:
        table.add_column("session", overflow="fold", max_width=16)
        table.add_column("time", no_wrap=True)
    table.add_column("text", min_width=max(20, width - (102 if wide else 42)), overflow="fold")
    if wide:
        table.add_column("score parts", style="dim", max_width=20)
    for rank, hit in enumerate(hits, start=1):
        speaker = hit.name or hit.role
        text = f"{speaker}: {hit.text}" if speaker else hit.text
        where = f"{hit.session_id or ''} · {format_time(hit.timestamp)}"
        parts = format_parts(hit.score_parts)
        cells: list[RenderableType] = (
            [Text(hit.session_id or ""), format_time(hit.timestamp), Text(text), Text(parts)]
            if wide
            else [Text.assemble(text, "\n", (f"{where} · {parts}", "dim"))]
        )
        table.add_row(str(rank), f"{hit.score:.4f}", Text(hit.id), *cells)
    return table


def hit_to_dict(hit: MemoryHit) -> dict[str, Any]:
    """A JSON-friendly view of a search hit."""
    return {
        "id": hit.id,
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
        console.print(Text.assemble(("line ", "red"), (str(lineno), "bold red"), ": ", msg))
    if len(errors) > limit:
        console.print(f"[red]… and {len(errors) - limit} more bad lines[/]")


def stats_table(stats: Mapping[str, Any], title: str = "memory stats") -> Table:
    """Memory statistics as a two-column table."""
    table = Table(title=Text(title, style="bold"), title_justify="left", show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in stats.items():
        if isinstance(value, Mapping):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        table.add_row(key, Text(str(value)))
    return table


def users_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Per-user counts (``user``, ``messages``, ``embedded``, ``sessions``)."""
    table = Table(title=Text("users", style="bold"), title_justify="left")
    table.add_column("user", overflow="fold")
    for col in ("messages", "embedded", "sessions"):
        table.add_column(col, justify="right")
    for row in rows:
        table.add_row(
            Text(str(row["user"])), *(str(row[c]) for c in ("messages", "embedded", "sessions"))
        )
    return table


def summary_table(rows: Sequence[tuple[str, Any]], title: str) -> Table:
    """A small key/value summary (e.g. of an ingest)."""
    table = Table(title=Text(title, style="bold"), title_justify="left", show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in rows:
        table.add_row(key, Text(str(value)))
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
    return Text.assemble(("error: ", "bold red"), (str(exc), "red"), hint)


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
    console.print(f"[green]✓[/] {done} in {time.perf_counter() - t0:.1f} s", highlight=False)
