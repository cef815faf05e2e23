"""``langgraph-memory worker``: store the writes the service published to a broker.

Run one or more beside ``langgraph-memory serve --broker URL``, on the same store
(``--path DIR`` for SQLite, ``--postgres URL`` for PostgreSQL). Each takes writes from
the queue, stores them (gate, embed, extract, place), and acknowledges them only once
they are stored; a worker killed mid-batch loses nothing (another takes its writes over
after ``--claim-idle`` seconds), a write failing ``--max-attempts`` times is
dead-lettered (``stats`` shows how many). Stop it with Ctrl-C or SIGTERM: the batch in
hand is finished first.

Example:
    $ redis-server --appendonly yes --port 6379 &
    $ langgraph-memory serve --broker redis://127.0.0.1:6379/0 &
    $ langgraph-memory worker --broker redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

__all__ = [
    "add_parsers",
    "cmd_worker",
    "add_broker_arguments",
    "manager_kw",
    "postgres_url",
    "redis_url",
    "REDIS_ENV",
]

#: The environment variable ``serve --redis`` and ``worker --redis`` default to.
REDIS_ENV = "LANGGRAPH_MEMORY_REDIS_URL"


def add_broker_arguments(p: argparse.ArgumentParser) -> None:
    """The options ``serve`` and ``worker`` share about the broker."""
    p.add_argument(
        "--broker",
        default=None,
        metavar="URL",
        help="the write queue's Redis, redis://HOST:PORT/DB (default $LANGGRAPH_MEMORY_BROKER_URL)",
    )
    p.add_argument(
        "--queue-prefix", default="lgm:q", metavar="P", help="the queue's key prefix (lgm:q)"
    )
    p.add_argument(
        "--max-attempts",
        type=int,
        default=3,
        metavar="N",
        help="deliveries of a failing write before it is dead-lettered (default 3)",
    )
    p.add_argument(
        "--max-backlog",
        type=int,
        default=10_000,
        metavar="N",
        help="queued writes beyond which the API answers 503 + Retry-After (default 10000)",
    )
    p.add_argument(
        "--claim-idle",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds before an unacknowledged write is taken over or retried (default 30)",
    )


def add_parsers(
    command: Callable[..., argparse.ArgumentParser],
    common: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add ``worker`` to the command line (``command`` makes a subparser)."""
    p = command(
        "worker",
        "store the writes `serve --broker URL` queued (run one or more beside it)",
        "; on SQLite (--path) or PostgreSQL (--postgres URL); acknowledges a write only "
        "after it is stored, dead-letters one failing --max-attempts times",
    )
    add_broker_arguments(p)
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
        help="the working memory's Redis, as given to `serve --redis` (default "
        "$LANGGRAPH_MEMORY_REDIS_URL): the writes this worker stores reach the sessions' "
        "shared windows",
    )
    p.add_argument("--batch", type=int, default=64, help="most writes taken at once (64)")
    p.add_argument("--name", default=None, help="this worker's name (default host-pid)")
    p.add_argument(
        "--nice",
        type=int,
        default=10,
        metavar="N",
        help="CPU priority given up (os.nice; default 10, 0 keeps the shell's): on a "
        "machine shared with API processes, callers wait for those, never for the worker",
    )
    p.set_defaults(func=cmd_worker)


def open_queue(args: argparse.Namespace) -> Any:
    """The ``WriteQueue`` the options name (``None`` without ``--broker`` or the env)."""
    from langgraph_memory.integrations.queue import BROKER_ENV, WriteQueue

    url = args.broker or os.environ.get(BROKER_ENV) or None
    if url is None:
        return None
    return WriteQueue.from_url(
        url,
        prefix=args.queue_prefix,
        max_backlog=args.max_backlog,
        max_attempts=args.max_attempts,
        claim_idle_s=args.claim_idle,
    )


def postgres_url(args: argparse.Namespace) -> str | None:
    """The PostgreSQL URL of ``--postgres`` or the environment (``None``: SQLite)."""
    from langgraph_memory.integrations.server.keys import POSTGRES_ENV

    return getattr(args, "postgres", None) or os.environ.get(POSTGRES_ENV) or None


def redis_url(args: argparse.Namespace) -> str | None:
    """The working memory's Redis URL of ``--redis`` or the environment (``None``: none)."""
    return getattr(args, "redis", None) or os.environ.get(REDIS_ENV) or None


def manager_kw(*, hashing: bool, redis: str | None) -> dict[str, Any]:
    """The manager's keyword arguments of ``serve`` and ``worker``: the hashing embedder
    (a smoke run) and the working memory in Redis."""
    from langgraph_memory.config import MemoryConfig, WriteSection
    from langgraph_memory.embeddings import HashingEmbeddings

    kw: dict[str, Any] = {"embeddings": HashingEmbeddings()} if hashing else {}
    if redis:
        kw["config"] = MemoryConfig(write=WriteSection(working_memory_url=redis))
    return kw


def cmd_worker(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``worker``: consume the write queue until interrupted."""
    from langgraph_memory.integrations.queue import QueueWorker
    from langgraph_memory.manager import DEFAULT_PATH, MemoryManager

    if args.nice < 0:
        err.print(f"--nice must be 0 or more, got {args.nice}")
        return 2
    queue = open_queue(args)
    if queue is None:
        err.print("worker needs --broker URL (or $LANGGRAPH_MEMORY_BROKER_URL)")
        return 2
    if args.nice and hasattr(os, "nice"):  # POSIX: the API processes' requests go first
        os.nice(args.nice)
    postgres = postgres_url(args)
    kw = manager_kw(hashing=args.hashing, redis=redis_url(args))
    if postgres:
        mm = MemoryManager.from_conn_string(postgres, **kw)
    else:
        mm = MemoryManager(
            Path(args.path or os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH), **kw
        )
    worker = QueueWorker(queue, mm, consumer=args.name, batch=args.batch)

    def stop(signum: int, frame: object) -> None:
        worker.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    where = "PostgreSQL" if postgres else mm.path
    err.print(f"worker {worker.consumer} consuming {queue.stream} into {where}")
    try:
        worker.run()
    finally:
        mm.close()
        queue.close()
    err.print(f"stopped: {worker.stored} stored, {worker.dead} dead-lettered")
    return 0
