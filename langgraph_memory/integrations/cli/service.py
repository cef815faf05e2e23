"""The service's subcommands: ``serve``, ``mcp`` and ``keys create|list|revoke``.

``serve`` runs :func:`~langgraph_memory.integrations.server.create_app` on uvicorn:
SQLite under ``--path`` (default ``./.langgraph_memory``) with the in-process worker, or
PostgreSQL with ``--postgres URL`` (or ``$LANGGRAPH_MEMORY_POSTGRES_URL``); with
``--redis URL`` (or ``$LANGGRAPH_MEMORY_REDIS_URL``) the sessions' working memory (window,
chain summaries, anchors) is kept in Redis for every process (``WriteSection.
working_memory_url``). ``keys``
administers the API keys in ``service_keys.json`` beside the store (``--keys FILE``
elsewhere); ``keys create`` prints the new key alone on its last line, the only time it
is ever shown.

Example:
    $ langgraph-memory keys create --tenant acme
    $ langgraph-memory serve --port 8420
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

__all__ = ["add_parsers", "cmd_serve", "cmd_keys", "cmd_mcp", "DEFAULT_PORT", "REDIS_ENV"]

#: The port ``serve`` listens on by default.
DEFAULT_PORT = 8420
#: The environment variable ``serve --redis`` defaults to.
REDIS_ENV = "LANGGRAPH_MEMORY_REDIS_URL"


def add_parsers(
    command: Callable[..., argparse.ArgumentParser],
    common: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add ``serve`` and ``keys`` to the command line (``command`` makes a subparser)."""
    p = command(
        "serve",
        "serve the memory over HTTP (the REST API under /v1, docs at /docs)",
        "; keys: `langgraph-memory keys create --tenant T`",
    )
    p.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--postgres",
        default=None,
        metavar="URL",
        help="a PostgreSQL URL instead of SQLite (default $LANGGRAPH_MEMORY_POSTGRES_URL)",
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="keep the sessions' working memory in this Redis, shared by every process "
        f"(default ${REDIS_ENV}; pip install 'langgraph-memory[redis]')",
    )
    p.add_argument(
        "--keys", default=None, metavar="FILE", help="the keys file (default: in --path)"
    )
    p.add_argument("--log-level", default="info", help="uvicorn's log level (default info)")
    p.set_defaults(func=cmd_serve)

    p = command("mcp", "serve the memory as MCP tools on stdio (remember, recall, search, ...)")
    p.add_argument("--user", default=None, help="scope every tool to this user")
    p.set_defaults(func=cmd_mcp)

    p = command("keys", "create, list and revoke the service's API keys")
    sub = p.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    for name, help_ in (
        ("create", "make a key for a tenant (printed once, alone on the last line)"),
        ("list", "list the keys (their ids and tenants, never the keys)"),
        ("revoke", "revoke a key by its id"),
    ):
        k = sub.add_parser(name, help=help_, description=help_)
        common(k)
        k.add_argument("--keys", default=None, metavar="FILE", help="the keys file")
        if name == "create":
            k.add_argument("--tenant", required=True, help="the tenant the key reaches")
        if name == "revoke":
            k.add_argument("key_id", metavar="KEY_ID", help="the key's id (or the key)")
        k.set_defaults(func=cmd_keys)


def _key_file(args: argparse.Namespace) -> Path:
    from langgraph_memory.integrations.server.keys import KEYS_FILE
    from langgraph_memory.manager import DEFAULT_PATH

    if getattr(args, "keys", None):
        return Path(args.keys)
    root = Path(args.path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
    return root / KEYS_FILE


def cmd_keys(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``keys create|list|revoke``."""
    from langgraph_memory.integrations.server.keys import KeyFile

    keys = KeyFile(_key_file(args))
    if args.keys_command == "create":
        key = keys.create(args.tenant)
        err.print(f"a key for tenant {args.tenant!r} (stored hashed in {keys.path}); keep it:")
        out.print(key, soft_wrap=True)
        return 0
    if args.keys_command == "revoke":
        if not keys.revoke(args.key_id):
            err.print("no such key (or revoked already)")
            return 1
        out.print("revoked")
        return 0
    table = Table(title=f"keys in {keys.path}")
    for col in ("key id", "tenant", "created", "revoked"):
        table.add_column(col)
    for info in keys.list():
        table.add_row(info.key_id, info.tenant, info.created_at, info.revoked_at or "")
    out.print(table)
    return 0


def cmd_serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``serve``: run the service until interrupted."""
    try:
        import uvicorn

        from langgraph_memory.integrations.server import create_app
        from langgraph_memory.integrations.server.deps import POSTGRES_ENV, ServiceSettings
    except ImportError as exc:
        raise ImportError(
            f"serve needs the server extra ({exc}): pip install 'langgraph-memory[server]'"
        ) from None
    from langgraph_memory.config import MemoryConfig, WriteSection
    from langgraph_memory.embeddings import HashingEmbeddings
    from langgraph_memory.manager import DEFAULT_PATH

    postgres = args.postgres or os.environ.get(POSTGRES_ENV) or None
    redis = args.redis or os.environ.get(REDIS_ENV) or None
    root = Path(args.path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
    kw: dict[str, Any] = {"embeddings": HashingEmbeddings()} if args.hashing else {}
    if redis:
        kw["config"] = MemoryConfig(write=WriteSection(working_memory_url=redis))
    app = create_app(
        None if postgres else root,
        keys=_key_file(args),
        postgres=postgres,
        settings=ServiceSettings(warm_up=not args.hashing),
        **kw,
    )
    where = "PostgreSQL" if postgres else f"SQLite under {root}"
    where += ", working memory in Redis" if redis else ""
    err.print(f"serving {where} on http://{args.host}:{args.port} (docs at /docs)")
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


def cmd_mcp(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``mcp``: the memory under ``--path`` as MCP tools on stdio, until stdin closes."""
    try:
        from langgraph_memory.integrations.mcp import create_mcp_server
    except ImportError as exc:
        raise ImportError(
            f"mcp needs the mcp SDK ({exc}): pip install 'langgraph-memory[mcp]'"
        ) from None
    from langgraph_memory.embeddings import HashingEmbeddings
    from langgraph_memory.manager import DEFAULT_PATH, MemoryManager

    root = Path(args.path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
    with MemoryManager(root, embeddings=HashingEmbeddings() if args.hashing else None) as mm:
        create_mcp_server(mm, user_id=args.user).run("stdio")
    return 0
