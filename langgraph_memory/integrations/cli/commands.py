"""The ``langgraph-memory`` command line: demo, ingest, add-doc, search, context, stats,
delete-user.

Every subcommand takes ``--path DIR`` (the memory directory; default
``$LANGGRAPH_MEMORY_PATH`` or ``./.langgraph_memory``), before or after the
subcommand, and ``--hashing`` (a fast toy embedder instead of the model).

Example:
    $ langgraph-memory demo
    $ langgraph-memory --path ./mem ingest chat.jsonl
    $ langgraph-memory --path ./mem context --user alice --explain "what do I like?"
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

try:
    from rich.console import Console
    from rich.panel import Panel
    from rich.prompt import Confirm
    from rich.text import Text
except ImportError as exc:  # the library works without it; its command line does not
    raise SystemExit(
        f"langgraph-memory's command line needs rich ({exc}): pip install 'langgraph-memory[cli]'"
    ) from exc

from langgraph_memory import __version__
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.cli import cluster as cli_cluster
from langgraph_memory.integrations.cli import docs as cli_docs
from langgraph_memory.integrations.cli import render as render
from langgraph_memory.integrations.cli import service as cli_service
from langgraph_memory.integrations.cli import worker as cli_worker
from langgraph_memory.integrations.cli.terminal import SafeConsole, json_text, logging_to, shown
from langgraph_memory.manager import DEFAULT_PATH, MemoryManager

__all__ = ["main", "build_parser", "parse_record", "DEMO_QUESTIONS"]

#: Questions the demo asks: three in English, two in Chinese.
DEMO_QUESTIONS = (
    "What should I avoid cooking for the user?",
    "Does the user prefer coffee or tea?",
    "When is the Kyoto trip and what is planned?",
    "用户最近搬到哪里了？",
    "用户对什么食物过敏？",
)
DEMO_USER = "demo-user"
DEMO_SESSION = "demo-questions"
#: The session ``context`` uses when none is given (so no session messages are forced in).
NO_SESSION = "cli"
RECORD_KEYS = frozenset(
    {"user_id", "session_id", "role", "content", "timestamp", "name", "message_id", "metadata"}
)
#: Errors reported as a one-line message (exit code 1) instead of a traceback.
USER_ERRORS = (ValueError, TypeError, OSError, ImportError, RuntimeError, sqlite3.Error)


class _YesNo(Confirm):
    """rich's confirmation, its error message a Text (the console reads no markup)."""

    validate_error_message = Text("Please enter Y or N", style="prompt.invalid")  # type: ignore[assignment]


# -- parsing ------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The argument parser (``--path``/``--hashing`` work before and after the subcommand)."""
    parser = argparse.ArgumentParser(
        prog="langgraph-memory",
        description="Layered, token-budgeted, explainable memory for LangGraph agents.",
    )
    parser.add_argument("--version", action="version", version=f"langgraph-memory {__version__}")
    _common(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_: str, more: str = "") -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_ + more)
        _common(p)
        return p

    p = command(
        "demo",
        "ingest the bundled bilingual conversation and explain some contexts",
        " (in a fresh temporary directory unless --path is given)",
    )
    p.add_argument("--budget", type=int, default=300, help="token budget (default 300)")
    p.add_argument("--explain", action="store_true", help="also show raw scores and their parts")
    p.set_defaults(func=cmd_demo)

    p = command(
        "ingest",
        "store messages from a JSON-lines file (one message per line)",
        ': {"user_id", "session_id" (default "default"), "role", "content", and optionally '
        '"timestamp" (ISO 8601), "name", "message_id", "metadata"}',
    )
    p.add_argument("file", metavar="FILE.jsonl", help="the file, or - for stdin")
    p.add_argument("--user", help="user id for every record (overrides the file's user_id)")
    p.add_argument("--skip-errors", action="store_true", help="exit 0 even if lines failed")
    p.set_defaults(func=cmd_ingest)

    p = command("add-doc", "add Markdown or text files as documents (semantic memory)")
    cli_docs.add_parser(p)
    p.set_defaults(func=cmd_add_doc)

    p = command("search", "hybrid search over one user's messages")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--user", required=True)
    p.add_argument("-k", type=int, default=10, help="number of hits (default 10)")
    p.add_argument("--filter", help='metadata filter as JSON, e.g. \'{"topic": "travel"}\'')
    p.add_argument(
        "--layers",
        nargs="+",
        metavar="LAYER",
        help="only these layers or hit labels (message, fact, profile…)",
    )
    p.add_argument("--explain", action="store_true", help="also show raw scores and their parts")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_search)

    p = command("context", "build the token-budgeted context for a query")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--user", required=True)
    p.add_argument("--session", help="the current session (its latest messages ride along)")
    p.add_argument("--budget", type=int, default=None, help="token budget (default: config)")
    p.add_argument("--filter", help="metadata filter as JSON")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--explain",
        action="store_true",
        help="a table: why each item is there, its relevance, raw score and score parts",
    )
    mode.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_context)

    p = command("stats", "show counts (of one user or the whole store)")
    p.add_argument("--user")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_stats)

    p = command(
        "failed",
        "list the messages the background worker could not embed (quarantined)",
        "; --retry puts them back in the queue (after the embedder is fixed)",
    )
    p.add_argument("--user", help="one user's (default: every user's)")
    p.add_argument("--retry", action="store_true", help="queue them again (needs --user)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_failed)

    p = command(
        "backup",
        "copy the store while it is in use (a consistent, checked, self-contained file)",
    )
    p.add_argument("dest", metavar="DEST", help="the copy's .sqlite3 file, or a directory")
    p.set_defaults(func=cmd_backup)

    p = command("verify", "check the store's files and every page of it")
    p.set_defaults(func=cmd_verify)

    p = command("delete-user", "delete every trace of a user")
    p.add_argument("--user", required=True)
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(func=cmd_delete_user)
    cli_service.add_parsers(command, _common)  # serve, keys
    cli_worker.add_parsers(command, _common)  # worker (the write queue's consumer)
    cli_cluster.add_parsers(command, _common)  # dev-cluster (a local recipe)
    return parser


def _common(parser: argparse.ArgumentParser) -> None:
    # A subparser's defaults would overwrite what the main parser parsed, so both
    # levels SUPPRESS the defaults and main() fills them in.
    hlp = "memory directory (default: $LANGGRAPH_MEMORY_PATH or ./.langgraph_memory)"
    parser.add_argument("--path", default=argparse.SUPPRESS, help=hlp)
    hlp = "use HashingEmbeddings (fast, not semantic) instead of the embedding model"
    parser.add_argument("--hashing", action="store_true", default=argparse.SUPPRESS, help=hlp)


def resolve_path(path: str | None) -> Path:
    """The memory directory: ``path``, else ``$LANGGRAPH_MEMORY_PATH``, else the default."""
    return Path(path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)


def parse_record(line: str, user: str | None = None) -> dict[str, Any]:
    """Turn one JSON line into ``add_message`` keyword arguments.

    Raises:
        ValueError: When the line is not a JSON object, has unknown keys, or
            lacks ``user_id`` (and no ``user`` is given), ``role`` or ``content``.
    """
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - RECORD_KEYS)
    if unknown:
        raise ValueError(f"unknown keys {unknown}; allowed: {sorted(RECORD_KEYS)}")
    for key in ("role", "content"):
        if key not in obj:
            raise ValueError(f"missing {key!r}")
    user_id = user if user is not None else obj.get("user_id")
    if user_id is None:
        raise ValueError("missing 'user_id' (add it to the record or pass --user)")
    keys = ("role", "content", "name", "timestamp", "message_id", "metadata")
    record = {k: obj.get(k) for k in keys}
    return record | {"user_id": user_id, "session_id": obj.get("session_id", "default")}


def _parse_filter(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        flt = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--filter is not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(flt, dict):
        raise ValueError('--filter must be a JSON object, e.g. {"topic": "travel"}')
    return flt


# -- shared steps ---------------------------------------------------------------------------
def _open(
    args: argparse.Namespace, *, path: Path | None = None, create: bool = False
) -> MemoryManager:
    root = path or resolve_path(args.path)
    if not create and not (root / "memory.sqlite3").exists() and not root.is_file():
        raise FileNotFoundError(f"no memory at {root} (ingest something first, or pass --path)")
    return MemoryManager(root, embeddings=HashingEmbeddings() if args.hashing else None)


def _load_model(mm: MemoryManager, args: argparse.Namespace, console: Console) -> None:
    if args.hashing:
        console.print(Text("embeddings: HashingEmbeddings (--hashing)", style="dim"))
        return
    with render.loading(console, "loading embedding model…", done="embedding model loaded"):
        _ = mm.embeddings  # the first access loads it


def ingest_lines(
    mm: MemoryManager, lines: Sequence[str], console: Console, user: str | None = None
) -> render.IngestResult:
    """Store JSON lines (bad lines are collected, not fatal), then wait for embedding."""
    res = render.IngestResult()
    t0 = time.perf_counter()
    before = mm.stats()["messages"]
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    with render.make_progress(console) as progress:
        task = progress.add_task("storing", total=len(numbered))
        for lineno, line in numbered:
            progress.advance(task)
            res.lines += 1
            try:
                mm.add_message(**parse_record(line, user))
                res.stored += 1
            except (ValueError, TypeError) as exc:
                res.errors.append((lineno, str(exc)))
        task = progress.add_task("embedding", total=None)
        flushed = False
        while not flushed:  # flush in slices to move the bar
            try:
                mm.flush(timeout=0.2)
                flushed = True
            except TimeoutError:
                pass
            s = mm.stats()
            progress.update(task, total=s["messages"], completed=s["embedded"])
    res.new = mm.stats()["messages"] - before
    res.seconds = time.perf_counter() - t0
    return res


def _read_lines(file: str) -> list[str]:
    if file == "-":
        return sys.stdin.read().split("\n")
    with open(file, encoding="utf-8") as f:
        return [line.rstrip("\r\n") for line in f]


# -- commands ------------------------------------------------------------------------------
def cmd_demo(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Ingest the bundled demo conversation and explain the context of a few questions."""
    temp = args.path is None
    root = Path(tempfile.mkdtemp(prefix="langgraph-memory-demo-")) if temp else Path(args.path)
    data = resources.files("langgraph_memory").joinpath("data/demo.jsonl")
    lines = data.read_text(encoding="utf-8").split("\n")
    out.rule(Text("langgraph-memory demo", style="bold"))
    where = f"a temporary directory ({root})" if temp else str(root)
    out.print(f"memory: {where}")
    mm = _open(args, path=root, create=True)
    try:
        _load_model(mm, args, out)
        res = ingest_lines(mm, lines, out)
        out.print(
            f"ingested {res.stored} messages ({res.new} new) from demo.jsonl in {res.seconds:.1f} s"
        )
        if res.errors:
            render.report_errors(err, res.errors)
            return 1
        for i, question in enumerate(DEMO_QUESTIONS):
            ctx = mm.build_context(DEMO_USER, DEMO_SESSION, question, token_budget=args.budget)
            out.print()
            title = f"Q{i + 1}: {question}"
            out.print(render.context_table(ctx, title, out.width, explain=args.explain))
            if i == 0:
                prompt = shown(ctx.to_prompt() or "(empty)")
                out.print(Panel(prompt, title="the prompt an LLM would see for Q1", expand=False))
        out.print()
        out.print(render.stats_table(mm.stats(DEMO_USER), title=f"memory stats of {DEMO_USER}"))
        if not temp:
            flag = " --hashing" if args.hashing else ""
            out.print(
                f"try: langgraph-memory --path {shlex.quote(str(root))}{flag} context "
                f'--user {DEMO_USER} --explain "what does the user drink?"'
            )
        return 0
    finally:
        mm.close()
        if temp:
            shutil.rmtree(root, ignore_errors=True)


def cmd_ingest(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Store a JSON-lines file (or stdin) and print a summary."""
    lines = _read_lines(args.file)
    mm = _open(args, create=True)
    try:
        _load_model(mm, args, err)
        res = ingest_lines(mm, lines, err, user=args.user)
        render.report_errors(err, res.errors)
        total = mm.stats()
    finally:
        mm.close()
    source = "<stdin>" if args.file == "-" else args.file
    out.print(render.ingest_table(source, res, total))
    return 1 if res.errors and not args.skip_errors else 0


def cmd_add_doc(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Add files as documents (see :mod:`~langgraph_memory.integrations.cli.docs`)."""
    mm = _open(args, create=True)
    try:
        _load_model(mm, args, err)
        return cli_docs.cmd_add_doc(args, out, err, mm)
    finally:
        mm.close()


def cmd_search(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Print the best hits of a hybrid search."""
    flt = _parse_filter(args.filter)
    mm = _open(args)
    try:
        _load_model(mm, args, err)
        hits = mm.search(args.user, args.query, k=args.k, filter=flt, layers=args.layers)
    finally:
        mm.close()
    if args.json:
        out.print(json_text([render.hit_to_dict(h) for h in hits]), soft_wrap=True)
    elif hits:
        out.print(
            render.hits_table(
                hits,
                f"{len(hits)} hit{'s' * (len(hits) != 1)} for {args.query!r} ({args.user})",
                out.width,
                explain=args.explain,
            )
        )
    else:
        err.print(f"no hits for {args.query!r}")
    return 0


def cmd_context(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Print the context for a query: the prompt, an explanation table, or JSON."""
    flt = _parse_filter(args.filter)
    mm = _open(args)
    try:
        _load_model(mm, args, err)
        ctx = mm.build_context(
            args.user, args.session or NO_SESSION, args.query, args.budget, filter=flt
        )
    finally:
        mm.close()
    if args.json:
        extra = {"user_id": ctx.user_id, "session_id": ctx.session_id, "timings_ms": ctx.timings_ms}
        out.print(json_text(ctx.to_dict() | extra), soft_wrap=True)
    elif args.explain:
        out.print(render.context_table(ctx, width=out.width, explain=True))
    elif ctx.items:
        out.print(ctx.to_prompt(), soft_wrap=True)
        err.print(render.context_caption(ctx))
    else:
        err.print("no memories for this query")
    return 0


def cmd_stats(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Print counts of one user or of the whole store (with a row per user)."""
    mm = _open(args)
    try:
        stats = mm.stats(args.user)
        users = mm.maintenance.users() if args.user is None else []
        keys = ("messages", "embedded", "sessions")
        per_user = [{"user": u, **{k: mm.stats(u)[k] for k in keys}} for u in users]
    finally:
        mm.close()
    if args.json:
        data = stats | ({"per_user": per_user} if args.user is None else {})
        out.print(json_text(data), soft_wrap=True)
        return 0
    title = f"memory stats of {args.user}" if args.user else "memory stats"
    out.print(render.stats_table(stats, title=title))
    if per_user:
        out.print(render.users_table(per_user))
    return 0


def cmd_failed(args: argparse.Namespace, out: Console, err: Console) -> int:
    """List quarantined messages (message id, user, session, when, error), or requeue a
    user's with ``--retry``."""
    if args.retry and not args.user:
        err.print(Text("--retry needs --user", style="red"))
        return 2
    mm = _open(args)
    try:
        if args.retry:
            n = mm.maintenance.retry_failed(args.user)
            out.print(f"queued {n} message(s) of user {args.user!r} again")
            return 0
        failed = mm.maintenance.failed(args.user)
    finally:
        mm.close()
    if args.json:
        rows = [
            {
                "user_id": f.user_id,
                "message_id": f.message_id,
                "session_id": f.session_id,
                "failed_at": f.failed_at.isoformat(),
                "error": f.error,
            }
            for f in failed
        ]
        out.print(json_text(rows), soft_wrap=True)
        return 0
    if not failed:
        out.print("no quarantined messages")
        return 0
    for f in failed:
        when = f.failed_at.strftime("%Y-%m-%d %H:%M")
        out.print(f"{f.user_id}  {f.message_id}  (session {f.session_id}, {when}): {f.error}")
    return 0


def cmd_backup(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Copy the store with SQLite's online backup API and check the copy."""
    mm = _open(args)
    try:
        dest = mm.backup(args.dest)
        n = mm.stats()["messages"]
    finally:
        mm.close()
    out.print(f"backed up {n} messages to {dest} (checked)")
    return 0


def cmd_verify(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Open the store (its files are checked first) and check every page of it."""
    mm = _open(args)
    try:
        mm.maintenance.verify()
        stats = mm.stats()
    finally:
        mm.close()
    out.print(
        f"ok: {stats['messages']} messages of {stats['users']} users, "
        f"{stats['pending']} waiting to be embedded, {stats['failed']} quarantined"
    )
    return 0


def cmd_delete_user(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Delete a user's memory after confirmation (``--yes`` skips it; required without a TTY)."""
    mm = _open(args)
    try:
        n = mm.stats(args.user)["messages"]
        if not args.yes:
            if sys.stdin is None or not sys.stdin.isatty():
                msg = (
                    f"refusing to delete user {args.user!r} without --yes: stdin is not a terminal"
                )
                err.print(Text(msg, style="red"))
                return 2
            question = f"Delete all {n} messages of user {args.user!r} from {mm.path}?"
            if not _YesNo.ask(Text(question), console=out, default=False):
                out.print("nothing deleted")
                return 1
        deleted = mm.delete_user(args.user)
    finally:
        mm.close()
    out.print(f"deleted {deleted} messages of user {args.user!r}")
    return 0


# -- entry point ---------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 error, 2 usage/refusal)."""
    parser = build_parser()
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as exc:  # --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no bar while the model loads
    args.path = getattr(args, "path", None)
    args.hashing = getattr(args, "hashing", False)
    # every character printed passes through these two (see .terminal)
    out, err = SafeConsole(), SafeConsole(stderr=True)
    try:
        with logging_to(err):
            code: int = args.func(args, out, err)
        return code
    except KeyboardInterrupt:
        err.print(Text("interrupted", style="red"))
        return 130
    except USER_ERRORS as exc:
        if os.environ.get("LANGGRAPH_MEMORY_DEBUG"):
            raise
        err.print(render.error_text(exc))
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
