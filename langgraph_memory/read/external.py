"""Knowledge read from vector stores the user already keeps, at query time (no copy).

A user who keeps documents in a LangChain vector store — langchain-postgres' ``PGVectorStore`` (or
its older ``PGVector``), or any other ``VectorStore`` — attaches it to the manager
(:meth:`~langgraph_memory.parts.documents.Documents.attach`), shared or for one user. Nothing of it
is copied: each ``search`` and ``build_context`` asks the store for its closest passages
(``similarity_search_with_relevance_scores``, with the attachment's ``k`` and ``filter``), while the
memory's own retrieval runs. The read path ranks them beside the document chunks
(:meth:`~langgraph_memory.read.query.Retrieval.documents`: one hybrid ranking, terms and the
memory's own embedder, whose vectors of them stay in process), so they are hits of the ``document``
layer, context items of layer ``chunk``, cited as ``[doc: Title § page 3, via handbook]`` with
``vs:<name>:<id>`` in their ``source_ids`` and counted against the token budget like every item.

A store that fails or does not answer within its ``timeout`` is left out of that
query: the failure is logged, noted in the context (``MemoryContext.notes``, shown by
``explain=True``) and counted in ``stats()``; the rest of the context is built as
usual. The async twins (``abuild_context``, ``asearch``) await the stores' own async
methods on the caller's event loop (:meth:`VectorStores.prefetch`).

Example:
    >>> from langchain_core.documents import Document
    >>> from langchain_core.vectorstores import InMemoryVectorStore
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> store = InMemoryVectorStore(HashingEmbeddings())
    >>> _ = store.add_documents([Document("Badges are collected at reception.",
    ...                                   metadata={"source": "office.md", "page": 2})])
    >>> stores = VectorStores()
    >>> stores.attach(None, store, name="handbook")
    >>> found, notes = stores.start("ann", "where are badges").collect()
    >>> print(found[0][0].text)
    [doc: office.md § page 2, via handbook]
    Badges are collected at reception.
    >>> stores.close()
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Mapping
from concurrent.futures import Future, InvalidStateError, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import asynccontextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langgraph_memory.core.validation import check_id, check_positive_int
from langgraph_memory.layers.index.ranking import LongTermDoc
from langgraph_memory.layers.knowledge.documents import SHARED_OWNER, owner_of

if TYPE_CHECKING:  # langchain_core.vectorstores loads the runnables: only on attach
    from langchain_core.documents import Document
    from langchain_core.vectorstores import VectorStore

__all__ = [
    "VectorStoreSource",
    "VectorStores",
    "Pending",
    "PREFETCHED",
    "passage",
    "DEFAULT_TIMEOUT",
]

log = logging.getLogger(__name__)

#: Seconds a store has to answer one query before it is left out of it.
DEFAULT_TIMEOUT = 5.0
_SCALARS = (str, int, float, bool)
#: Found passages with their score parts (``store_rank``, ``store_relevance``).
Found = list[tuple[LongTermDoc, dict[str, float]]]
#: The searches an async twin started on its event loop for the read it runs on a
#: worker thread (``asyncio.to_thread`` carries the context over), as LangGraph's
#: ``get_config()`` finds its config; ``None``: the read starts them itself.
PREFETCHED: ContextVar[Pending | None] = ContextVar("langgraph_memory_prefetched", default=None)


@dataclass(slots=True)
class VectorStoreSource:
    """One attached vector store and how it is asked.

    Attributes:
        name: The attachment's name (shown in citations, reasons and ``stats()``).
        store: The LangChain vector store.
        shared: Read for every user (else for its owner alone).
        k: Passages asked per query.
        filter: The store's own metadata filter, passed as ``filter=`` on every query.
        timeout: Seconds it has to answer (``None``: no limit).
        searches: Queries asked so far.
        failures: Queries it failed or did not answer in time.
        last_error: What the latest failure was.
    """

    name: str
    store: VectorStore
    shared: bool
    k: int = 4
    filter: dict[str, Any] | None = None
    timeout: float | None = DEFAULT_TIMEOUT
    searches: int = 0
    failures: int = 0
    last_error: str | None = None

    def _kwargs(self) -> dict[str, Any]:
        return {"filter": self.filter} if self.filter is not None else {}

    def search(self, query: str) -> list[tuple[Document, float | None]]:
        """The store's closest passages, with their relevance in ``[0, 1]`` when the
        store has a relevance function (else ``None``)."""
        try:
            found = self.store.similarity_search_with_relevance_scores(
                query, k=self.k, **self._kwargs()
            )
        except NotImplementedError:  # a store without relevance scores: its order alone
            docs = self.store.similarity_search(query, self.k, **self._kwargs())
            return [(d, None) for d in docs]
        return [(d, float(s)) for d, s in found]

    async def asearch(self, query: str) -> list[tuple[Document, float | None]]:
        """Async :meth:`search` (the store's own async methods)."""
        try:
            found = await self.store.asimilarity_search_with_relevance_scores(
                query, k=self.k, **self._kwargs()
            )
        except NotImplementedError:
            docs = await self.store.asimilarity_search(query, self.k, **self._kwargs())
            return [(d, None) for d in docs]
        return [(d, float(s)) for d, s in found]


def passage(source: VectorStoreSource, doc: Document) -> LongTermDoc:
    """A store's passage as the read path sees it: a ``chunk`` whose text opens with its
    citation (``title`` or ``source`` metadata, ``page``, the attachment's name)."""
    meta = {str(k): v for k, v in (doc.metadata or {}).items() if isinstance(v, _SCALARS)}
    store_id = str(doc.id) if doc.id else hashlib.sha256(doc.page_content.encode()).hexdigest()
    title = str(meta.get("title") or meta.get("source") or source.name)
    where = f" § page {meta['page']}" if "page" in meta else ""
    via = "" if title == source.name else f", via {source.name}"
    ref = f"vs:{source.name}:{store_id[:64]}"
    cited = [ref] + ([f"doc:{meta['source']}"] if "source" in meta else [])
    meta.update(vector_store=source.name, store_id=store_id, shared=source.shared)
    meta.setdefault("status", "active")  # what a document filter keeps by default
    return LongTermDoc(
        ref, "chunk", f"[doc: {title}{where}{via}]\n{doc.page_content}", cited, meta=meta
    )


def _why(exc: BaseException) -> str:
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}"[:200] if first else type(exc).__name__


class Pending:
    """The searches one query started in its attached stores; :meth:`collect` waits for
    each within its timeout (from when it started).

    Args:
        calls: Each store and its search, under way (timeouts count from here on).
        counted: Records each store's outcome (searches, failures).
    """

    def __init__(
        self,
        calls: list[tuple[VectorStoreSource, Future[Any]]],
        counted: VectorStores,
    ) -> None:
        self._calls = calls
        self._started = time.monotonic()
        self._counted = counted
        self._done: tuple[Found, list[str]] | None = None

    def collect(self) -> tuple[Found, list[str]]:
        """The passages found, each store's in its order (with ``store_rank`` and
        ``store_relevance``), and a note per store left out (logged too)."""
        if self._done is not None:
            return self._done
        found: Found = []
        notes: list[str] = []
        seen: set[str] = set()
        for source, fut in self._calls:
            error: str | None = None
            try:
                wait = None
                if source.timeout is not None:
                    wait = max(0.0, source.timeout - (time.monotonic() - self._started))
                hits = fut.result(timeout=wait)
                for rank, (doc, relevance) in enumerate(hits, 1):
                    d = passage(source, doc)
                    if d.id in seen:
                        continue
                    seen.add(d.id)
                    parts = {"store_rank": float(rank)}
                    if relevance is not None:
                        parts["store_relevance"] = relevance
                    found.append((d, parts))
            except FutureTimeout:
                fut.cancel()
                error = f"no answer within {source.timeout:g} s"
            except Exception as exc:  # noqa: BLE001 - any store failure leaves it out
                error = _why(exc)
            if error is not None:
                note = f"vector store {source.name!r} left out: {error}"
                log.warning("langgraph_memory: %s", note)
                notes.append(note)
            self._counted.count(source, error)
        self._done = (found, notes)
        return self._done

    def cancel(self) -> None:
        """Stop waiting for searches still under way."""
        for _, fut in self._calls:
            fut.cancel()


async def _settle(fut: Future[Any], coro: Awaitable[Any]) -> None:
    """Run ``coro`` and hand its outcome to ``fut`` (read by a worker thread, which may
    have stopped waiting for it)."""
    with suppress(InvalidStateError):
        try:
            result = await coro
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except BaseException as exc:  # noqa: BLE001 - handed over, raised by the reader
            if not fut.done():
                fut.set_exception(exc)
            return
        if not fut.done():
            fut.set_result(result)


class VectorStores:
    """The vector stores attached to one manager, shared or per user (in process: a
    store object is attached again after a restart, like a tool).

    Args:
        workers: Threads that run the stores' sync searches.
    """

    def __init__(self, *, workers: int = 4) -> None:
        self._lock = threading.Lock()
        self._by_owner: dict[str, dict[str, VectorStoreSource]] = {}
        self._workers = workers
        self._pool: ThreadPoolExecutor | None = None

    def attach(
        self,
        user_id: str | None,
        store: VectorStore,
        *,
        name: str,
        k: int = 4,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - LangChain's name
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        """Attach ``store`` as ``name`` (again: replaces it). See the manager's
        :meth:`~langgraph_memory.parts.documents.Documents.attach`."""
        from langchain_core.vectorstores import VectorStore

        owner = owner_of(user_id)
        if not isinstance(store, VectorStore):
            raise TypeError(
                "store must be a LangChain VectorStore (e.g. langchain_postgres.PGVectorStore)"
                f", got {type(store).__name__}"
            )
        name = check_id(name, "name").strip()
        check_positive_int(k, "k")
        if filter is not None and not isinstance(filter, Mapping):
            raise TypeError("filter must be a mapping (the store's metadata filter) or None")
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0
        ):
            raise ValueError(f"timeout must be a positive number of seconds or None: {timeout!r}")
        source = VectorStoreSource(
            name, store, owner == SHARED_OWNER, k, dict(filter) if filter else None, timeout
        )
        with self._lock:
            self._by_owner.setdefault(owner, {})[name] = source

    def detach(self, user_id: str | None, name: str) -> bool:
        """Detach a store; whether one was attached under ``name``."""
        owner = owner_of(user_id)
        name = check_id(name, "name").strip()
        with self._lock:
            return self._by_owner.get(owner, {}).pop(name, None) is not None

    def detach_user(self, user_id: str) -> int:
        """Detach every store attached for ``user_id`` alone (the shared ones stay);
        how many were."""
        with self._lock:
            return len(self._by_owner.pop(owner_of(user_id), {}))

    def names(self, user_id: str | None) -> list[str]:
        """The names attached for ``user_id`` alone (``None``: the shared ones), sorted."""
        owner = owner_of(user_id)
        with self._lock:
            return sorted(self._by_owner.get(owner, {}))

    def sources(self, user_id: str) -> list[VectorStoreSource]:
        """The stores a user reads: the shared ones, then the user's own."""
        with self._lock:
            return [
                *self._by_owner.get(SHARED_OWNER, {}).values(),
                *self._by_owner.get(user_id, {}).values(),
            ]

    def start(self, user_id: str, query: str) -> Pending | None:
        """Start the user's stores' searches on worker threads (``None``: no store)."""
        sources = self.sources(user_id)
        if not sources:
            return None
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    self._workers, thread_name_prefix="langgraph-memory-vstore"
                )
            pool = self._pool
        return Pending([(s, pool.submit(s.search, query)) for s in sources], self)

    @asynccontextmanager
    async def prefetch(self, user_id: str, query: str) -> AsyncIterator[Pending | None]:
        """Start the user's stores' async searches on the running loop, for a read that
        runs on a worker thread meanwhile (it finds them in :data:`PREFETCHED`); those
        still under way stop on exit."""
        try:
            sources = self.sources(check_id(user_id, "user_id"))
        except (TypeError, ValueError):
            sources = []  # the read itself says what is wrong with the id
        calls: list[tuple[VectorStoreSource, Future[Any]]] = []
        tasks = []
        for s in sources:
            fut: Future[Any] = Future()
            tasks.append(asyncio.ensure_future(_settle(fut, s.asearch(query))))
            calls.append((s, fut))
        pending = Pending(calls, self) if calls else None
        token = PREFETCHED.set(pending)
        try:
            yield pending
        finally:
            PREFETCHED.reset(token)
            for task in tasks:
                task.cancel()

    def count(self, source: VectorStoreSource, error: str | None) -> None:
        """Record one query's outcome for ``source``."""
        with self._lock:
            source.searches += 1
            if error is not None:
                source.failures += 1
                source.last_error = error

    def stats(self, user_id: str | None) -> dict[str, dict[str, Any]]:
        """Per store a user reads, by name (``None``: every store, a user's own named
        ``user/name``): shared, searches, failures, last error."""
        with self._lock:
            owned = [
                (owner, s)
                for owner, by_name in self._by_owner.items()
                if user_id is None or owner in (SHARED_OWNER, user_id)
                for s in by_name.values()
            ]
            return {
                (s.name if s.shared or user_id is not None else f"{owner}/{s.name}"): {
                    "shared": s.shared,
                    "searches": s.searches,
                    "failures": s.failures,
                    "last_error": s.last_error,
                }
                for owner, s in owned
            }

    def close(self) -> None:
        """Stop the search threads (a search still under way is not waited for)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
