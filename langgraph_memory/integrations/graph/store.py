"""``MemoryStore``: a LangGraph ``BaseStore`` kept in the memory's backend, with hybrid search.

A drop-in for ``InMemoryStore``/``PostgresStore`` wherever LangGraph takes a
store (``compile(store=...)``, ``create_react_agent(..., store=...)``, LangMem
tools). Items live in the :class:`~langgraph_memory.MemoryManager`'s backend, so
on SQLite they survive a restart; a query search ranks them by BM25 and dense
cosine fused by reciprocal rank, not by cosine alone.

Items are kept through the manager (:meth:`~langgraph_memory.parts.items.Items.put` and its
kin; :mod:`langgraph_memory.parts.items` documents the layout), so every value and indexed
text goes through the memory's sensitivity gate before it is stored or embedded.

Example:
    >>> from langgraph_memory import HashingEmbeddings, InMemoryBackend, MemoryManager
    >>> mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    >>> store = MemoryStore(mm)
    >>> store.put(("memories", "alice"), "1", {"text": "Alice is allergic to peanuts"})
    >>> store.put(("memories", "alice"), "2", {"text": "Alice lives in Lyon"})
    >>> [i.key for i in store.search(("memories", "alice"), query="peanut allergy", limit=1)]
    ['1']
    >>> mm.close()
"""

from __future__ import annotations

import asyncio
import base64
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    NotProvided,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from langgraph_memory.core.records import Record
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.core.validation import check_count
from langgraph_memory.integrations.graph.scope import check_memory
from langgraph_memory.integrations.graph.store_documents import DocumentsView
from langgraph_memory.integrations.graph.store_search import (
    IndexedText,
    hybrid_rank,
    matches_filter,
    namespace_matches,
    relevance,
)
from langgraph_memory.manager import MemoryManager
from langgraph_memory.parts.items import STORE_KIND, check_item_value, store_scope

if TYPE_CHECKING:
    from langgraph_memory.integrations.remote import RemoteMemory

__all__ = ["MemoryStore", "STORE_KIND", "store_scope"]

_Key = tuple[tuple[str, ...], str]


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _encode(vec: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vec, dtype=np.float32).tobytes()).decode("ascii")


def _decode(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=np.float32)


def _check_op(op: Op) -> None:
    """LangGraph's namespace rules (its own error, which names the offending label, is
    replaced by one naming its position only: a label may hold a user's e-mail), and
    counts checked: ``limit``, ``offset`` and ``max_depth`` are non-negative ints."""
    try:
        validate_op_namespace(op)
    except InvalidNamespaceError:
        if isinstance(op, SearchOp):
            raise _namespace_error(op.namespace_prefix or ("",)) from None
        if isinstance(op, ListNamespacesOp):
            raise InvalidNamespaceError("a match condition's path is invalid") from None
        raise _namespace_error(getattr(op, "namespace", ()) or ()) from None
    if isinstance(op, SearchOp | ListNamespacesOp):
        check_count(op.limit, "limit")
        check_count(op.offset, "offset")
    if isinstance(op, ListNamespacesOp) and op.max_depth is not None:
        check_count(op.max_depth, "max_depth", minimum=1)


def _check_namespace(namespace: Sequence[Any]) -> None:
    """LangGraph's rules for a put's namespace, with :func:`_namespace_error`'s error."""
    if not isinstance(namespace, tuple) or not namespace:
        raise _namespace_error(tuple(namespace) if isinstance(namespace, list) else ())
    try:
        validate_op_namespace(PutOp(namespace, "", None))
    except InvalidNamespaceError:
        raise _namespace_error(namespace) from None
    if namespace[0] == "langgraph":
        raise _namespace_error(namespace)


def _namespace_error(namespace: Sequence[Any]) -> InvalidNamespaceError:
    """What is wrong with a namespace LangGraph refused, naming positions, not labels."""
    if not namespace:
        return InvalidNamespaceError("namespace cannot be empty")
    why = "is invalid"
    for n, label in enumerate(namespace):
        if not isinstance(label, str):
            why = f"label {n} is a {type(label).__name__}, not a str"
        elif not label:
            why = f"label {n} is empty"
        elif "." in label:
            why = f"label {n} holds a period ('.'), which labels cannot hold"
        elif "\x00" in label:
            why = f"label {n} holds a NUL character, which labels cannot hold"
        else:
            continue
        break
    if namespace and namespace[0] == "langgraph":
        why = "starts with the reserved label 'langgraph'"
    return InvalidNamespaceError(f"namespace {why}")


class MemoryStore(BaseStore):
    """A LangGraph store persisted in a :class:`MemoryManager`'s backend.

    Behaves like ``InMemoryStore`` (same ops, filters, namespace rules and
    pagination) with three differences, all documented in the tests:

    * **search is on by default**: without ``index``, every item is indexed whole
      (``fields=["$"]``) with the manager's embeddings;
    * a query search is **hybrid** — BM25 and dense cosine over the indexed texts,
      each max-pooled per item, fused by RRF (``memory.config.retrieval.rrf_k`` and the
      lexical/dense weights). ``SearchItem.score`` is the item's relevance in
      ``[0, 1]``, the scale every hit of the library uses (its best cosine with the
      query and the share of the query's words it has, calibrated; never more than
      that of an item ranked above it): an unrelated item scores near 0 even when
      it is the best there is, so a threshold works. Items not indexed
      (``index=False``) follow with ``score=None``;
    * **TTL** is supported (``supports_ttl``): ``ttl`` minutes per item or
      ``ttl={"default_ttl": ...}``, refreshed on reads unless
      ``refresh_on_read=False``; expired items are removed by :meth:`sweep_ttl` or
      the thread :meth:`start_ttl_sweeper` starts (and hidden from reads before
      that with ``omit_expired=True``).

    Within one ``batch``, reads see the store as it was before the batch's puts,
    and of several puts to one key the last wins — as in LangGraph's stores.

    Args:
        memory: The manager whose backend keeps the items, or a
            :class:`~langgraph_memory.RemoteMemory`: the items are then the service's
            (the tenant's own namespaces; the service's model embeds, the store ranks).
        index: ``IndexConfig``: ``fields`` to index (default ``["$"]``), ``embed``
            (default: ``memory.embeddings``), ``dims`` (checked when given).
        ttl: ``TTLConfig``: ``default_ttl`` and ``sweep_interval_minutes`` in
            minutes, ``refresh_on_read`` (default True), ``omit_expired``.
        documents_namespace: The read-only namespace root showing the memory's
            documents (:meth:`~langgraph_memory.parts.documents.Documents.add`): shared knowledge at
            ``(root,)``, a user's own at ``(root, user_id)``, one item per chunk of a document's
            current version keyed ``"<document id>#<index>"`` (see
            :mod:`~langgraph_memory.integrations.graph.store_documents`); ``None`` shows none (the
            root is then a plain namespace).

    Example:
        >>> store = MemoryStore(mm, index={"fields": ["text"]},  # doctest: +SKIP
        ...                     ttl={"default_ttl": 60 * 24})
        >>> graph = builder.compile(store=store)  # doctest: +SKIP
    """

    supports_ttl = True

    def __init__(
        self,
        memory: MemoryManager | RemoteMemory,
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        documents_namespace: str | None = "documents",
    ) -> None:
        check_memory(memory)
        self.memory = memory
        config: dict[str, Any] = dict(index or {})
        fields = config.get("fields") or ["$"]
        config["fields"] = list(fields)
        self.index_config: IndexConfig = config  # type: ignore[assignment]
        self._fields = [(f, f if f == "$" else tokenize_path(f)) for f in fields]
        self._embed: Embeddings | None = (
            ensure_embeddings(config["embed"]) if config.get("embed") is not None else None
        )
        self.ttl_config = dict(ttl) if ttl else None  # type: ignore[assignment]
        self._lock = threading.RLock()
        self._sweep_stop = threading.Event()
        self._sweeper: threading.Thread | None = None
        self._docs = (
            None if documents_namespace is None else DocumentsView(memory, documents_namespace)
        )

    # -- embeddings ------------------------------------------------------------------------
    @property
    def embeddings(self) -> Embeddings:
        """The embedder: ``index["embed"]`` when given, else the manager's."""
        return self._embed if self._embed is not None else self.memory.embeddings

    def _check_dims(self, vecs: np.ndarray) -> np.ndarray:
        dims = self.index_config.get("dims")
        if dims and vecs.size and vecs.shape[-1] != dims:
            raise ValueError(
                f"the embedder returned {vecs.shape[-1]}-dimensional vectors but "
                f"index['dims'] is {dims}; fix index['dims'] or the embedder"
            )
        return vecs

    def _embed_texts(self, texts: list[str]) -> np.ndarray:
        if self._embed is None:
            return self._check_dims(self.memory.embeddings.embed_array(texts))
        return self._check_dims(np.asarray(self._embed.embed_documents(texts), np.float32))

    def _embed_query(self, query: str) -> np.ndarray:
        if self._embed is None:
            return self._check_dims(self.memory.embeddings.embed_array([query], persist=False)[0])
        return self._check_dims(np.asarray(self._embed.embed_query(query), np.float32))

    # -- batch -----------------------------------------------------------------------------
    def _plan(self, ops: Iterable[Op]) -> tuple[list[Op], dict[_Key, dict[str, str]], set[str]]:
        """Validate ops; the texts each effective put indexes and the queries to embed.

        A put's value goes through the memory's sensitivity gate here, before its texts
        are taken from it (they are embedded next), and every op's namespace labels and
        key through :meth:`~langgraph_memory.parts.items.Items.label` (a put's are refused per the
        policy; a read looks up the pseudonym its put stored)."""
        ops = list(ops)
        puts: dict[_Key, PutOp] = {}
        queries: set[str] = set()
        for i, op in enumerate(ops):
            _check_op(op)
            if self._in_documents(op):
                if isinstance(op, PutOp):
                    self._docs.refuse_write(op.namespace)  # type: ignore[union-attr]
                continue  # read from the documents as they are, unlabelled
            op = ops[i] = self._labelled(op)
            if isinstance(op, PutOp):
                if not op.namespace:
                    raise InvalidNamespaceError("Namespace cannot be empty.")
                if op.value is not None:  # shape and size first: nothing is done with it
                    check_item_value(op.value, self.memory.items.max_item_bytes)
                    clean = self.memory.maintenance.redact(dict(op.value), field="value")
                    op = ops[i] = op._replace(value=clean)
                puts[(tuple(op.namespace), str(op.key))] = op
            elif isinstance(op, SearchOp):
                if op.query:
                    queries.add(op.query)
            elif not isinstance(op, (GetOp, ListNamespacesOp)):
                raise ValueError(f"Unknown operation type: {type(op)}")
        texts = {k: self._index_texts(op) for k, op in puts.items()}
        return ops, texts, queries

    def _in_documents(self, op: Op) -> bool:
        """Whether ``op`` addresses the documents namespace."""
        if self._docs is None:
            return False
        if isinstance(op, (GetOp, PutOp)):
            return self._docs.owns(op.namespace)
        return isinstance(op, SearchOp) and self._docs.owns(op.namespace_prefix)

    def _labelled(self, op: Op) -> Op:
        """``op`` with its namespace labels and key through the sensitivity gate."""

        def names(labels: Sequence[str], refuse: bool = False) -> tuple[str, ...]:
            label = self.memory.items.label
            return tuple(label(x, field="namespace", refuse=refuse) for x in labels)

        if isinstance(op, PutOp):
            key = self.memory.items.label(str(op.key), field="key")
            return op._replace(namespace=names(op.namespace, refuse=True), key=key)
        if isinstance(op, GetOp):
            key = self.memory.items.label(str(op.key), field="key", refuse=False)
            return op._replace(namespace=names(op.namespace), key=key)
        if isinstance(op, SearchOp):
            return op._replace(namespace_prefix=names(op.namespace_prefix))
        if isinstance(op, ListNamespacesOp) and op.match_conditions:
            conditions = tuple(c._replace(path=names(c.path)) for c in op.match_conditions)
            return op._replace(match_conditions=conditions)
        return op

    def _index_texts(self, op: PutOp) -> dict[str, str]:
        if op.value is None or op.index is False:
            return {}
        fields = self._fields if op.index is None else [(f, tokenize_path(f)) for f in op.index]
        out: dict[str, str] = {}
        for path, tokens in fields:
            found = get_text_at_path(op.value, tokens)
            if len(found) == 1:
                out[path] = found[0]
            else:
                out.update({f"{path}.{i}": t for i, t in enumerate(found)})
        return out

    def put(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
    ) -> None:
        """Store or update an item (see ``BaseStore.put``); a refused namespace's error
        names the label's position, never the label."""
        _check_namespace(namespace)
        super().put(namespace, key, value, index, ttl=ttl)

    async def aput(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
    ) -> None:
        """Async :meth:`put`."""
        _check_namespace(namespace)
        await super().aput(namespace, key, value, index, ttl=ttl)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run Get/Put/Search/ListNamespaces ops (use the convenience methods instead)."""
        ops, texts, queries = self._plan(ops)
        flat = [t for per in texts.values() for t in per.values()]
        vecs = self._embed_texts(flat) if flat else np.zeros((0, 0), np.float32)
        qvecs = {q: self._embed_query(q) for q in queries}
        return self._run(ops, texts, vecs, qvecs)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async :meth:`batch` (embeds with the embedder's async methods)."""
        ops, texts, queries = self._plan(ops)
        flat = [t for per in texts.values() for t in per.values()]
        emb = self._embed
        if emb is None:
            vecs = await asyncio.to_thread(self._embed_texts, flat) if flat else None
            qlist = list(queries)
            qv = await asyncio.gather(*(asyncio.to_thread(self._embed_query, q) for q in qlist))
        else:
            vecs = self._check_dims(np.asarray(await emb.aembed_documents(flat), np.float32))
            qlist = list(queries)
            raw = await asyncio.gather(*(emb.aembed_query(q) for q in qlist))
            qv = [self._check_dims(np.asarray(v, np.float32)) for v in raw]
        if vecs is None:
            vecs = np.zeros((0, 0), np.float32)
        return await asyncio.to_thread(
            self._run, ops, texts, vecs, dict(zip(qlist, qv, strict=True))
        )

    def _run(
        self,
        ops: list[Op],
        texts: dict[_Key, dict[str, str]],
        vecs: np.ndarray,
        qvecs: dict[str, np.ndarray],
    ) -> list[Result]:
        results: list[Result] = [None] * len(ops)
        puts: dict[_Key, PutOp] = {}
        with self._lock:
            now = _now()
            refresh: dict[str, Record] = {}
            for i, op in enumerate(ops):
                if self._in_documents(op):
                    results[i] = self._read_documents(op)
                elif isinstance(op, GetOp):
                    rec = self._get(op.namespace, op.key, now)
                    results[i] = None if rec is None else _item(rec)
                    if rec is not None and op.refresh_ttl:
                        refresh[rec.id] = rec
                elif isinstance(op, SearchOp):
                    results[i] = self._search(op, qvecs, now, refresh)
                elif isinstance(op, ListNamespacesOp):
                    results[i] = self._list_namespaces(op, now)
                elif isinstance(op, PutOp):
                    puts[(tuple(op.namespace), str(op.key))] = op
            self._refresh(refresh.values(), now)
            row = 0
            for key, op in puts.items():
                n = len(texts.get(key, {}))
                self._apply_put(op, texts.get(key, {}), vecs[row : row + n], now)
                row += n
        return results

    def _read_documents(self, op: Op) -> Result:
        docs = self._docs
        assert docs is not None
        if isinstance(op, GetOp):
            return docs.get(op.namespace, str(op.key))
        assert isinstance(op, SearchOp)
        return docs.search(op.namespace_prefix, op.query, op.filter, op.limit, op.offset)

    # -- records ---------------------------------------------------------------------------
    def _expired(self, rec: Record, now: datetime) -> bool:
        expires = rec.data.get("expires_at")
        return expires is not None and datetime.fromisoformat(expires) <= now

    def _hidden(self, rec: Record, now: datetime) -> bool:
        omit = bool(self.ttl_config and self.ttl_config.get("omit_expired"))
        return omit and self._expired(rec, now)

    def _get(self, namespace: tuple[str, ...], key: str, now: datetime) -> Record | None:
        if not namespace:
            return None
        rec = self.memory.items.get(tuple(namespace), str(key))
        return None if rec is None or self._hidden(rec, now) else rec

    def _records(self, prefix: tuple[str, ...], now: datetime) -> list[Record]:
        n = len(prefix)
        return [
            r
            for r in self.memory.items.list(prefix)
            if tuple(r.data["namespace"][:n]) == prefix and not self._hidden(r, now)
        ]

    def _refresh(self, records: Iterable[Record], now: datetime) -> None:
        for rec in records:
            ttl = rec.data.get("ttl")
            if ttl is not None:
                expires = (now + timedelta(minutes=ttl)).isoformat()
                self.memory.items.refresh(rec, expires)

    def _apply_put(self, op: PutOp, texts: dict[str, str], vecs: np.ndarray, now: datetime) -> None:
        namespace, key = tuple(op.namespace), str(op.key)
        if op.value is None:
            self.memory.items.delete(namespace, key)
            return
        old = self.memory.items.get(namespace, key)
        data: dict[str, Any] = {
            "namespace": list(namespace),
            "key": key,
            "value": dict(op.value),
            "index": {
                path: {"text": text, "vector": _encode(vec)}
                for (path, text), vec in zip(texts.items(), vecs, strict=True)
            },
            "ttl": op.ttl,
            "expires_at": (
                None if op.ttl is None else (now + timedelta(minutes=op.ttl)).isoformat()
            ),
        }
        created = old.created_at if old is not None else now
        self.memory.items.put(namespace, key, data, created_at=created, updated_at=now)

    # -- search and listing -------------------------------------------------------------------
    def _search(
        self,
        op: SearchOp,
        qvecs: Mapping[str, np.ndarray],
        now: datetime,
        refresh: dict[str, Record],
    ) -> list[SearchItem]:
        records = [
            r
            for r in self._records(tuple(op.namespace_prefix), now)
            if matches_filter(r.data["value"], op.filter)
        ]
        scored: list[tuple[Record, float | None]]
        if op.query:
            docs = [
                IndexedText(i, tokenize(entry["text"]), _decode(entry["vector"]))
                for i, r in enumerate(records)
                for entry in r.data.get("index", {}).values()
            ]
            cfg = self.memory.config
            ranked = hybrid_rank(
                docs,
                tokenize(op.query),
                qvecs.get(op.query),
                rrf_k=cfg.retrieval.rrf_k,
                lexical_weight=cfg.retrieval.lexical_weight,
                dense_weight=cfg.retrieval.dense_weight,
                k1=cfg.retrieval.bm25_k1,
                b=cfg.retrieval.bm25_b,
            )
            ranked = relevance(docs, ranked, tokenize(op.query), qvecs.get(op.query), cfg.retrieval)
            seen = {i for i, _ in ranked}
            scored = [(records[i], s) for i, s in ranked]
            scored += [(r, None) for i, r in enumerate(records) if i not in seen]
        else:
            scored = [(r, None) for r in records]
        page = scored[op.offset : op.offset + op.limit]
        if op.refresh_ttl:
            refresh.update((r.id, r) for r, _ in page)
        return [_item(r, score, search=True) for r, score in page]  # type: ignore[misc]

    def _list_namespaces(self, op: ListNamespacesOp, now: datetime) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        roots = {c.path[0] for c in conditions if c.match_type == "prefix" and c.path}
        root = next(iter(roots)) if len(roots) == 1 else "*"
        scope: tuple[str, ...] = () if root == "*" else (root,)
        found = {tuple(r.data["namespace"]) for r in self._records(scope, now)}
        if self._docs is not None and root in ("*", self._docs.root):
            found.update(self._docs.namespaces())
        matched = [
            ns
            for ns in found
            if all(namespace_matches(ns, c.match_type, c.path) for c in conditions)
        ]
        if op.max_depth is not None:
            matched = list({ns[: op.max_depth] for ns in matched})
        return sorted(matched)[op.offset : op.offset + op.limit]

    # -- TTL -------------------------------------------------------------------------------
    def sweep_ttl(self) -> int:
        """Delete every expired item now.

        Returns:
            How many items were deleted.
        """
        with self._lock:
            now = _now()
            expired = [rec for rec in self.memory.items.list() if self._expired(rec, now)]
            return self.memory.items.delete_many(expired)

    async def asweep_ttl(self) -> int:
        """Async :meth:`sweep_ttl`."""
        return await asyncio.to_thread(self.sweep_ttl)

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> None:
        """Sweep expired items in a daemon thread every ``sweep_interval_minutes``.

        Args:
            sweep_interval_minutes: Minutes between sweeps (default: the TTL
                config's ``sweep_interval_minutes``, else 5).
        """
        if self._sweeper is not None and self._sweeper.is_alive():
            return
        interval = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes")
        seconds = 60.0 * float(interval or 5)
        self._sweep_stop.clear()

        def loop() -> None:
            while not self._sweep_stop.wait(seconds):
                try:
                    self.sweep_ttl()
                except Exception:  # noqa: BLE001 - a failed sweep is retried next interval
                    continue

        self._sweeper = threading.Thread(target=loop, name="langgraph-memory-ttl", daemon=True)
        self._sweeper.start()

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread; ``True`` when it has stopped (or never ran)."""
        self._sweep_stop.set()
        if self._sweeper is None:
            return True
        self._sweeper.join(timeout)
        stopped = not self._sweeper.is_alive()
        if stopped:
            self._sweeper = None
        return stopped

    def close(self) -> None:
        """Stop the TTL sweeper (the manager stays open: it is not the store's)."""
        self.stop_ttl_sweeper()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _item(rec: Record, score: float | None = None, *, search: bool = False) -> Item:
    args = {
        "value": rec.data["value"],
        "key": rec.data["key"],
        "namespace": tuple(rec.data["namespace"]),
        "created_at": rec.created_at,
        "updated_at": rec.updated_at,
    }
    return SearchItem(**args, score=score) if search else Item(**args)
