"""The ``add-doc`` command: Markdown or text files into semantic memory, with a progress bar.

Each file is one document (its id: ``--id``, else the file's path), added for ``--user``
or, without it, as knowledge shared by every user of the memory; then the command
waits while the background worker embeds the chunks.

Example:
    $ langgraph-memory --path ./mem add-doc docs/*.md --version 1.2
    $ langgraph-memory --path ./mem add-doc notes.md --user alice --id notes
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from langgraph_memory.integrations.cli import render as render
from langgraph_memory.integrations.cli.terminal import shown
from langgraph_memory.manager import MemoryManager

__all__ = ["add_parser", "add_files"]


def add_parser(p: argparse.ArgumentParser) -> None:
    """The ``add-doc`` arguments."""
    p.add_argument("files", nargs="+", metavar="PATH", help="Markdown or text files (UTF-8)")
    p.add_argument("--user", help="whose documents (default: shared by every user)")
    p.add_argument("--id", dest="document_id", help="the document id (one file only)")
    p.add_argument("--version", dest="doc_version", help="the version (default: 1, then +1)")


def add_files(
    mm: MemoryManager, args: argparse.Namespace, console: Console
) -> tuple[Table, list[tuple[str, str]]]:
    """Add every file of ``args.files``; returns a summary table and the files that
    failed with their errors (a failed file leaves the memory as it was)."""
    if args.document_id is not None and len(args.files) > 1:
        raise ValueError("--id names one document: pass one file with it")
    errors: list[tuple[str, str]] = []
    table = Table(title="documents added", title_justify="left")
    for col in ("file", "document id", "version", "chunks"):
        table.add_column(col)
    t0 = time.perf_counter()
    chunks = 0
    with render.make_progress(console) as progress:
        task = progress.add_task("adding", total=len(args.files))
        for name in args.files:
            try:
                info = mm.documents.add(
                    args.user,
                    Path(name),
                    document_id=args.document_id,
                    version=args.doc_version,
                )
                chunks += info.chunks
                table.add_row(name, info.document_id, info.version, str(info.chunks))
            except (ValueError, TypeError, OSError) as exc:  # a refusal of the gate too
                errors.append((name, str(exc)))
            progress.advance(task)
        task = progress.add_task("embedding", total=None)
        flushed = False
        while not flushed:  # flush in slices to keep the spinner turning
            try:
                mm.flush(timeout=0.2)
                flushed = True
            except TimeoutError:
                pass
        progress.update(task, total=chunks, completed=chunks)
    table.caption = f"{chunks} chunks in {time.perf_counter() - t0:.1f} s"
    return table, errors


def cmd_add_doc(args: argparse.Namespace, out: Console, err: Console, mm: MemoryManager) -> int:
    """Add the files and print a summary (exit 1 when a file failed)."""
    table, errors = add_files(mm, args, err)
    for name, message in errors:
        err.print(shown(f"{name}: {message}", style="red"))
    out.print(table)
    return 1 if errors else 0
