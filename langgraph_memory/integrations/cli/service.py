"""The service's subcommands: ``serve``, ``mcp`` and ``keys create|list|revoke``.

``serve`` runs :func:`~langgraph_memory.integrations.server.create_app` on uvicorn:
SQLite under ``--path`` (default ``./.langgraph_memory``) with the in-process worker, or
PostgreSQL with ``--postgres URL`` (or ``$LANGGRAPH_MEMORY_POSTGRES_URL``); with
``--redis URL`` (or ``$LANGGRAPH_MEMORY_REDIS_URL``) the sessions' working memory (window,
chain summaries, anchors) is kept in Redis for every process (``WriteSection.
working_memory_url``). ``keys``
administers the API keys in ``service_keys.json`` beside the store (``--keys FILE``
elsewhere), or, with ``--postgres URL`` (or the same variable), in the database's
``lgm_service_keys`` table that every service process on it reads; ``keys create`` prints
the new key alone on its last line, the only time it is ever shown. ``--agent A``
(repeatable) binds the key to agents, ``--admin`` makes an admin key. ``mcp`` serves the
memory as MCP tools on stdio, or over streamable HTTP with ``--http``; with ``--url`` the
tools use a running service instead of ``--path``.

Example:
    $ langgraph-memory keys create --tenant acme
    $ langgraph-memory keys create --tenant acme --agent planner --agent coder
    $ langgraph-memory keys create --tenant acme --admin
    $ langgraph-memory serve --port 8420
    $ langgraph-memory mcp --http --port 8421
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from langgraph_memory.integrations.cli.processes import reuse_port_supported, serve_processes
from langgraph_memory.integrations.cli.worker import (
    REDIS_ENV,
    add_broker_arguments,
    manager_kw,
    open_queue,
    postgres_url,
    redis_url,
)

if TYPE_CHECKING:
    from langgraph_memory.integrations.server.keys import KeyStore

__all__ = [
    "add_parsers",
    "cmd_serve",
    "cmd_keys",
    "cmd_mcp",
    "DEFAULT_PORT",
    "DEFAULT_MCP_PORT",
    "REDIS_ENV",
]

#: The port ``serve`` listens on by default.
DEFAULT_PORT = 8420
#: The port ``mcp --http`` listens on by default.
DEFAULT_MCP_PORT = 8421
MCP_HTTP_PATH = "/mcp"
#: Where ``serve --workers N`` hands its options to its processes (JSON).
SERVE_ENV = "LANGGRAPH_MEMORY_SERVE_OPTIONS"


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
        "--keys",
        default=None,
        metavar="FILE",
        help="a keys file (default: in --path; with --postgres, the database's key table)",
    )
    p.add_argument(
        "--backups",
        default=None,
        metavar="DIR",
        help="where admin backups go (default: backups/ in --path)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="serve from N processes sharing the port and the store (default 1)",
    )
    p.add_argument(
        "--concurrent-reads",
        type=int,
        default=None,
        metavar="N",
        help="contexts/searches each process computes at once, the others wait their turn "
        "(default: the CPU count; 0: no bound)",
    )
    p.add_argument(
        "--no-freeze-gc",
        dest="freeze_gc",
        action="store_false",
        help="leave the objects loaded at start in the garbage collector's passes (by "
        "default they are frozen out: a full pass over them paused every request)",
    )
    p.add_argument("--log-level", default="info", help="uvicorn's log level (default info)")
    add_broker_arguments(p)  # --broker URL: writes through the queue to `worker` processes
    p.set_defaults(func=cmd_serve)

    p = command(
        "mcp",
        "serve the memory as MCP tools (remember, recall, search, ...) on stdio, or over "
        "streamable HTTP with --http",
        "; --url serves a running `langgraph-memory serve` instead of --path",
    )
    p.add_argument("--user", default=None, help="scope every tool to this user")
    p.add_argument(
        "--http", action="store_true", help=f"streamable HTTP at {MCP_HTTP_PATH} instead of stdio"
    )
    p.add_argument("--host", default="127.0.0.1", help="with --http: interface (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_MCP_PORT,
        help=f"with --http: port (default {DEFAULT_MCP_PORT})",
    )
    p.add_argument(
        "--url", default=None, help="a running service's URL: the tools use it (not --path)"
    )
    p.add_argument(
        "--api-key",
        default=None,
        metavar="KEY",
        help="with --url: the service's API key (default $LANGGRAPH_MEMORY_API_KEY)",
    )
    p.add_argument("--log-level", default="warning", help="with --http: uvicorn's log level")
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
        k.add_argument(
            "--postgres",
            default=None,
            metavar="URL",
            help="keys in this PostgreSQL database (default $LANGGRAPH_MEMORY_POSTGRES_URL)",
        )
        if name == "create":
            k.add_argument("--tenant", required=True, help="the tenant the key reaches")
            k.add_argument(
                "--agent",
                action="append",
                default=None,
                metavar="AGENT",
                help="an agent the key acts as (repeat for several; default: any agent)",
            )
            k.add_argument(
                "--admin", action="store_true", help="also reach the tenant's /v1/admin routes"
            )
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
    """``keys create|list|revoke``: in the keys file, or in PostgreSQL with ``--postgres``."""
    from langgraph_memory.integrations.server.keys import KeyFile

    url = None if args.keys else postgres_url(args)
    keys: KeyStore
    if url is not None:
        from langgraph_memory.integrations.server.keys_pg import KeyTable

        keys = KeyTable(url)
    else:
        keys = KeyFile(_key_file(args))
    try:
        return _keys_command(args, keys, out, err)
    finally:
        keys.close()


def _keys_command(args: argparse.Namespace, keys: KeyStore, out: Console, err: Console) -> int:
    if args.keys_command == "create":
        key = keys.create(args.tenant, agents=args.agent, admin=args.admin)
        what = " (admin)" if args.admin else ""
        if args.agent:
            what += f" acting only as {', '.join(sorted(set(args.agent)))}"
        err.print(
            f"a key for tenant {args.tenant!r}{what} (stored hashed in {keys.where}); keep it:"
        )
        out.print(key, soft_wrap=True)
        return 0
    if args.keys_command == "revoke":
        if not keys.revoke(args.key_id):
            err.print("no such key (or revoked already)")
            return 1
        out.print("revoked")
        return 0
    table = Table(title=f"keys in {keys.where}")
    for col in ("key id", "tenant", "agents", "admin", "created", "revoked"):
        table.add_column(col)
    for info in keys.list():
        table.add_row(
            info.key_id,
            info.tenant,
            ", ".join(info.agents) or "any",
            "yes" if info.admin else "",
            info.created_at,
            info.revoked_at or "",
        )
    out.print(table)
    return 0


def cmd_serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``serve``: run the service until interrupted (``--workers N``: N processes)."""
    try:
        import uvicorn

        from langgraph_memory.integrations.queue import BROKER_ENV
        from langgraph_memory.integrations.server import deps  # noqa: F401 - the extra is here
    except ImportError as exc:
        raise ImportError(
            f"serve needs the server extra ({exc}): pip install 'langgraph-memory[server]'"
        ) from None
    from langgraph_memory.manager import DEFAULT_PATH

    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    if args.concurrent_reads is not None and args.concurrent_reads < 0:
        raise ValueError(f"--concurrent-reads must be 0 or more, got {args.concurrent_reads}")
    postgres = postgres_url(args)
    redis = redis_url(args)
    root = Path(args.path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
    opts = {
        "root": str(root),
        "postgres": postgres,
        "redis": redis,
        # with PostgreSQL the keys live in the database, unless --keys names a file
        "keys": str(_key_file(args)) if (args.keys or not postgres) else None,
        "backups": args.backups,
        "hashing": bool(args.hashing),
        "concurrent_reads": args.concurrent_reads,
        "freeze_gc": bool(getattr(args, "freeze_gc", True)),
        "broker": {
            k: getattr(args, k)
            for k in ("broker", "queue_prefix", "max_backlog", "max_attempts", "claim_idle")
        },
    }
    where = "PostgreSQL" if postgres else f"SQLite under {root}"
    if args.broker or os.environ.get(BROKER_ENV):
        where += ", writes queued for `langgraph-memory worker`"
    where += ", working memory in Redis" if redis else ""
    if args.workers > 1:
        where += f", {args.workers} processes"
    err.print(f"serving {where} on http://{args.host}:{args.port} (docs at /docs)")
    if args.workers == 1:
        app = _make_app(opts)
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
        return 0
    # N processes: each imports the factory, which reads the options from the environment
    # they inherit; the store is shared through its writer lease (SQLite: a file lock;
    # PostgreSQL: an advisory lock) and its pending queue. Each listens on its own
    # SO_REUSEPORT socket, so the kernel spreads connections across them (uvicorn's
    # shared socket let one process take most of them); elsewhere uvicorn's workers.
    os.environ[SERVE_ENV] = json.dumps(opts)
    if reuse_port_supported():
        return serve_processes(args.host, args.port, args.workers, args.log_level)
    uvicorn.run(
        f"{__name__}:app_from_env",
        factory=True,
        workers=args.workers,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
    )
    return 0


def app_from_env() -> Any:
    """The service's ASGI app made from the options ``serve`` put in
    ``$LANGGRAPH_MEMORY_SERVE_OPTIONS`` (each of ``serve --workers N``'s processes calls it).

    Returns:
        The FastAPI application.

    Raises:
        RuntimeError: When the variable is not set (not started by ``serve``).

    Example:
        >>> app = app_from_env()  # doctest: +SKIP
    """
    raw = os.environ.get(SERVE_ENV)
    if not raw:
        raise RuntimeError(f"${SERVE_ENV} is not set: start the service with `serve --workers N`")
    return _make_app(json.loads(raw))


def _make_app(opts: dict[str, Any]) -> Any:
    """``create_app`` with ``serve``'s options (a JSON-able dict, see ``cmd_serve``)."""
    try:
        from langgraph_memory.integrations.server import create_app
        from langgraph_memory.integrations.server.deps import ServiceSettings
    except ImportError as exc:
        raise ImportError(
            f"serve needs the server extra ({exc}): pip install 'langgraph-memory[server]'"
        ) from None
    kw = manager_kw(hashing=opts["hashing"], redis=opts["redis"])
    queue = open_queue(argparse.Namespace(**opts["broker"]))
    settings = ServiceSettings(
        warm_up=not opts["hashing"],
        backups_dir=opts["backups"],
        max_concurrent_reads=opts["concurrent_reads"],
        freeze_gc=opts.get("freeze_gc", True),
    )
    postgres = opts["postgres"]
    return create_app(
        None if postgres else Path(opts["root"]),
        keys=opts["keys"],
        postgres=postgres,
        settings=settings,
        broker=queue,
        **kw,
    )


def cmd_mcp(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``mcp``: the memory under ``--path`` (or the service at ``--url``) as MCP tools, on
    stdio until stdin closes, or over streamable HTTP (``--http``) until interrupted."""
    try:
        from langgraph_memory.integrations.mcp import create_mcp_http_app, create_mcp_server
    except ImportError as exc:
        raise ImportError(
            f"mcp needs the mcp SDK ({exc}): pip install 'langgraph-memory[mcp]'"
        ) from None
    from contextlib import ExitStack

    from langgraph_memory.embeddings import HashingEmbeddings
    from langgraph_memory.manager import DEFAULT_PATH, MemoryManager

    if args.api_key and not args.url:
        raise ValueError("--api-key goes with --url (the service it is a key of)")
    with ExitStack() as stack:
        memory: Any
        if args.url:
            from langgraph_memory.integrations.remote import RemoteMemory

            memory = stack.enter_context(RemoteMemory(args.url, api_key=args.api_key))
            where = f"the service at {memory.url}"
        else:
            root = Path(args.path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
            emb = HashingEmbeddings() if args.hashing else None
            memory = stack.enter_context(MemoryManager(root, embeddings=emb))
            where = f"SQLite under {root}"
        if not args.http:
            create_mcp_server(memory, user_id=args.user).run("stdio")
            return 0
        import uvicorn

        app = create_mcp_http_app(memory, user_id=args.user, host=args.host, path=MCP_HTTP_PATH)
        err.print(
            f"MCP over streamable HTTP on http://{args.host}:{args.port}{MCP_HTTP_PATH} "
            f"({where}; no API key checked: for keys use `serve`, whose /mcp needs one)"
        )
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            err.print(
                f"warning: {args.host} is not loopback and no key is checked: whoever reaches "
                "the port reaches every user's memory (serve's /mcp needs a key)",
                style="yellow",
            )
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0
