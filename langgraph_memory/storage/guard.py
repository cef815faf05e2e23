"""The one door to storage: every row the library persists passes the sensitivity gate.

:class:`GuardedStore` wraps a backend; :func:`~langgraph_memory.parts.assembly.wire`
hands every collaborator the guard, never the backend, so no write path can go around
it (a test walks the objects of a running memory: only the guard holds the backend).
Each field is treated by its kind:

* **free text** (a message's content and speaker name, an entry's text, a record's
  string values: summaries, lessons, facts, LLM outputs...) is redacted, or refused, as
  the policy says (in the library's background threads, where nobody could be told,
  a refused span is redacted instead);
* **identifiers** (user, session, message and record ids, keys, versions, namespaces)
  are refused when they hold a secret, whatever the policy, with an error naming the
  field: they are stored as given;
* **a mapping value whose key names a secret** (``password``, ``token``, ``api_key``,
  ``Authorization``, ``cookie``, ``密码``, ``口令``, ``令牌``, ``密钥`` ..., see
  :func:`~langgraph_memory.sensitivity.patterns.names_a_secret`) is stored as
  ``[SECRET]``;
* **a mapping's keys** holding a secret become its pseudonym (``[EMAIL:1a2b...]``);
* below the fields that hold the caller's own mapping (``metadata``, ``context``,
  ``args``, ``value``...), every string is text, whatever its key (a caller's ``"id"``
  is data);
* vectors, hashes, term counts of clean text, numbers and timestamps pass as they are.

Text a layer has cleaned already is not scanned twice (the filter remembers what it
gave out).

What it lets pass as it is: an identifier made of 12 to 64 lowercase hex digits (with a
word prefix) or a UUID, the shape of the library's own ids and digests, and ISO
timestamps. A secret written as such an id is not found.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.records import Record
    >>> from langgraph_memory.sensitivity.policy import SensitivityFilter
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> store = GuardedStore(InMemoryBackend(), SensitivityFilter())
    >>> now = datetime.now(timezone.utc)
    >>> data = {"text": "mail me at ann@example.com", "meta": {"api_key": "hunter22"}}
    >>> store.put_record(Record("note", "n1", "ann", data, now, now))
    >>> store.get_record("note", "n1", "ann").data
    {'text': 'mail me at [EMAIL]', 'meta': {'api_key': '[SECRET]'}}
    >>> store.put_record(Record("note", "ann@example.com", "ann", {}, now, now))
    Traceback (most recent call last):
    ...
    langgraph_memory.sensitivity.policy.SensitiveContentError: record id is an identifier ...
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from langgraph_memory.core.concurrency import in_background
from langgraph_memory.core.records import Message, Record, index_text
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.sensitivity.patterns import names_a_secret
from langgraph_memory.sensitivity.policy import Finding, SensitiveContentError
from langgraph_memory.storage.base import BackendStats, MemoryBackend, MessageCounts, SessionRow
from langgraph_memory.storage.capabilities import IndexedEntry

if TYPE_CHECKING:
    import numpy as np

    from langgraph_memory.core.filters import Predicate
    from langgraph_memory.sensitivity.policy import SensitivityFilter
    from langgraph_memory.storage.capabilities import Postings, RecordValue

__all__ = ["GuardedStore"]

#: Record fields that hold the caller's own mapping: below them keys are the caller's
#: (an ``"id"`` there is data, not an identifier), and a key naming a secret hides its
#: value.
_CALLER_KEYS = frozenset({"metadata", "meta", "context", "args", "value", "values", "extra"})
#: Record fields kept as they are: vectors, digests, term counts, embeddings' keys.
_OPAQUE_KEYS = frozenset({"vector", "vectors", "hash", "hashes", "terms", "embedding"})
#: Ids the library makes (hex digests and UUIDs, with a word prefix), never a secret.
_GENERATED = re.compile(
    r"(?:[a-z]+-)?(?=[0-9]*[a-f])[0-9a-f]{12,64}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"
)
#: ISO timestamps (a date's digits are not a phone number).
_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\d(?:[T ][\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?")
#: A run of hex digits or a UUID (a digest inside an id, LangChain's ``run-<uuid>-0``):
#: a phone number or an IBAN is not found in it.
_HEX_RUN = re.compile(
    r"(?<![0-9A-Za-z])(?:[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"
    r"|(?=[0-9]*[a-f])[0-9a-f]{12,64})(?![0-9A-Za-z])"
)
#: How many clean identifiers a guard remembers (then it starts again).
_ID_MEMO = 16384
#: Pseudonyms and placeholders the gate writes (``[EMAIL:0f3306f460ed]``, ``[SECRET]``).
_MARK = re.compile(r"\[[A-Z_]+(?::[0-9a-f]{12})?\]")


_SCALARS = (int, float, bool, type(None))
_CONTAINERS = (dict, list, tuple, bool, type(None))


def _within(err: SensitiveContentError, part: str) -> SensitiveContentError:
    """The refusal ``err`` of a value found under ``part`` (a key, or ``[i]``)."""
    inner = err.field
    if not inner:
        field = part
    elif inner.startswith("[") or inner.startswith(" "):
        field = part + inner
    else:
        field = f"{part}.{inner}"
    return SensitiveContentError(field, err.kinds, identifier=err.identifier)


def _remember(memo: dict[Any, None], key: Any) -> None:
    """Note ``key`` as found clean (a memo starts again when full)."""
    if len(memo) >= _ID_MEMO:
        memo.clear()
    memo[key] = None


def _is_id_key(key: str) -> bool:
    return key in ("id", "ids", "key", "version", "namespace") or key.endswith(("_id", "_ids"))


class GuardedStore(MemoryBackend):
    """A backend behind the sensitivity gate (see the module docs for the policy).

    Reads pass through unchanged; every write's text, identifiers and mappings are
    checked first. A capability the backend lacks (a claim queue, backups...) is one
    the guard lacks too, so ``isinstance(guard, Checkpoint)`` answers for the backend.

    Args:
        backend: The store.
        gate: The sensitivity filter (the memory's policy).
    """

    #: Optional capabilities and attributes, passed on when the backend has them.
    OPTIONAL = frozenset(
        {
            "embed_pending",
            "unplaced_messages",
            "mark_placed",
            "verify",
            "backup",
            "writer_lease",
            "checkpoint",
            "grouped_writes",
            "atomic_writes",
            "setup",
            "file",
        }
    )

    _inner: MemoryBackend

    def __init__(self, backend: MemoryBackend, gate: SensitivityFilter) -> None:
        inner = backend._inner if isinstance(backend, GuardedStore) else backend
        self._inner = inner
        self._gate = gate
        self._ok: dict[str, None] = {}  # identifiers found clean
        self._trees: dict[tuple[int, int], None] = {}  # list items found clean
        #: Whether a value whose key names a secret is hidden (the policy does not allow
        #: secrets).
        self._hides = gate.active and gate.policy.action_for("secret") != "allow"
        self.name = inner.name
        self.parallel_reads = inner.parallel_reads

    def __getattr__(self, name: str) -> Any:
        if name in GuardedStore.OPTIONAL:
            return getattr(self.__dict__["_inner"], name)
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __repr__(self) -> str:
        return f"GuardedStore({self._inner!r})"

    # -- the policy ---------------------------------------------------------------------
    def _findings(self, text: str) -> list[Finding]:
        """What the gate finds in an identifier (ignoring its own marks)."""
        if not self._gate.active or _GENERATED.fullmatch(text) or _ISO_TIME.fullmatch(text):
            return []
        marks = [(m.start(), m.end()) for m in _MARK.finditer(text)]
        digests = [(m.start(), m.end()) for m in _HEX_RUN.finditer(text)]
        found = self._gate.scan(text)
        if "_" in text:  # a key in snake case: "my_password_is_hunter22"
            found += self._gate.scan(text.replace("_", " "))
        return [
            f
            for f in found
            if f.action != "allow"
            and not any(a <= f.start < b for a, b in marks)
            # digits or entropy inside a digest are not a secret; a keyword's value is
            and not (
                f.detector not in ("keyword", "passphrase")
                and any(a <= f.start and f.end <= b for a, b in digests)
            )
        ]

    def _id(self, value: str, field: str) -> str:
        """An identifier: refused when it holds a secret (pseudonymised in the
        background, where a refusal would stop the worker)."""
        if value in self._ok:
            return value
        found = self._findings(value)
        if not found:
            _remember(self._ok, value)
            return value
        if in_background():
            return self._gate.pseudonym(value, field=field, refuse=False)
        raise SensitiveContentError(field, [f.kind for f in found], identifier=True)

    def _ids(self, value: str, field: str) -> str:
        """An identifier that may be a JSON array of ids (a record's id made of parts)."""
        if value.startswith('["') and value.endswith('"]'):
            try:
                parts = json.loads(value)
            except ValueError:
                parts = None
            if isinstance(parts, list):
                clean = [self._id(str(part), field) for part in parts]
                return value if clean == parts else json.dumps(clean, ensure_ascii=False)
        return self._id(value, field)

    def _text(self, text: str, field: str) -> str:
        """Free text: redacted, or refused, per the policy."""
        if not self._gate.active or not text or _ISO_TIME.fullmatch(text):
            return text
        return self._gate.apply(text, field=field, refuse=not in_background())[0]

    def _label(self, key: str, field: str) -> str:
        """A mapping's key: a secret in it becomes its pseudonym (``[EMAIL:1a2b...]``, as
        the layers' own gate writes it: two keys stay two), or is refused."""
        if key in self._ok or not self._gate.active:
            return key
        clean = self._gate.pseudonym(key, field=field, refuse=not in_background())
        if clean == key:
            _remember(self._ok, key)
        return clean

    def _hidden(self, field: str) -> str:
        """The value of a key that names a secret: ``[SECRET]``, or refused."""
        return self._gate.hidden(field, refuse=not in_background())

    def _value(self, value: Any, field: str, caller: bool) -> Any:
        """A JSON-like value: strings are text (identifiers under id keys of the
        library's own fields), keys naming a secret hide their value. A refusal names
        the field (``field`` and the path below it)."""
        try:
            return self._walk(value, caller)
        except SensitiveContentError as err:
            raise _within(err, field) from None

    def _walk(self, value: Any, caller: bool) -> Any:
        # the hot path of the guard: a segment's record holds its pages (~1,500 values)
        # and is written again with each page, so names are made only for an error
        kind = type(value)
        if kind is str:
            return value if self._gate.known_clean(value) else self._text(value, "")
        if kind in _SCALARS:
            return value
        if kind is dict or isinstance(value, Mapping):
            out: dict[Any, Any] = {}
            ok, hide = self._ok, self._hides
            for key, item in value.items():
                if type(key) is not str:
                    try:
                        out[key] = self._walk(item, caller)
                    except SensitiveContentError as err:
                        raise _within(err, repr(key)) from None
                    continue
                clean_key = key
                if key not in ok:
                    try:
                        clean_key = self._label(key, "")
                    except SensitiveContentError as err:  # named by where it is, not by it
                        raise SensitiveContentError(
                            " key", err.kinds, identifier=err.identifier
                        ) from None
                try:
                    if not caller and (type(item) in _SCALARS or key in _OPAQUE_KEYS):
                        # a number of the library's own: a count, not a secret, even
                        # under a word that names one ({"token": 3}); kept as it is
                        out[clean_key] = item
                    elif hide and type(item) not in _CONTAINERS and names_a_secret(key):
                        out[clean_key] = self._hidden("")
                    elif not caller and _is_id_key(key):
                        out[clean_key] = self._idv(item)
                    else:
                        out[clean_key] = self._walk(item, caller or key in _CALLER_KEYS)
                except SensitiveContentError as err:
                    raise _within(err, str(key)) from None
            return out
        if kind is list or kind is tuple:
            out_list = []
            for i, item in enumerate(value):
                try:
                    if type(item) is dict:  # a page of a segment, a mention of an entity
                        out_list.append(self._item(item, caller))
                    else:
                        out_list.append(self._walk(item, caller))
                except SensitiveContentError as err:
                    raise _within(err, f"[{i}]") from None
            return out_list
        return value

    def _item(self, item: dict[str, Any], caller: bool) -> Any:
        """A mapping in a list, walked once per content: records are written again with
        most of their items unchanged (a segment with each new page), and an item that
        passed unchanged passes again (known by a digest of its ``repr``, made in C: half
        the cost of its JSON form, and it tells more apart, ``1`` from ``True``)."""
        try:
            key = (caller, repr(item))
        except Exception:  # a value whose repr fails: walked
            return self._walk(item, caller)
        digest = (len(key[1]), hash(key))
        if digest in self._trees:
            return item
        out = self._walk(item, caller)
        if out == item:
            _remember(self._trees, digest)
        return out

    def _idv(self, value: Any) -> Any:
        """The value of an id field: an id, or a list of them."""
        if isinstance(value, str):
            return self._id(value, "")
        if isinstance(value, (list, tuple)):
            ok = self._ok
            if all(type(item) is str and item in ok for item in value):
                return list(value)  # a page's message ids, found clean when first written
            out = []
            for i, item in enumerate(value):
                try:
                    out.append(self._idv(item))
                except SensitiveContentError as err:
                    raise _within(err, f"[{i}]") from None
            return out
        return self._walk(value, False)

    def _message(self, msg: Message) -> Message:
        ids = (
            self._id(msg.id, "message_id"),
            self._id(msg.user_id, "user_id"),
            self._id(msg.session_id, "session_id"),
        )
        content = self._text(msg.content, "content")
        name = None if msg.name is None else self._text(msg.name, "name")
        metadata = self._value(msg.metadata, "metadata", True) if msg.metadata else msg.metadata
        if ids == (msg.id, msg.user_id, msg.session_id) and (content, name, metadata) == (
            msg.content,
            msg.name,
            msg.metadata,
        ):
            return msg
        mid, user, session = ids
        return dataclasses.replace(
            msg, id=mid, user_id=user, session_id=session, content=content, name=name,
            metadata=metadata,
        )  # fmt: skip

    def _record(self, record: Record) -> Record:
        kind = self._id(record.kind, "record kind")
        rid = self._ids(record.id, "record id")
        user = self._id(record.user_id, "user_id")
        data = self._value(record.data, record.kind, False)
        if (kind, rid, user) == (record.kind, record.id, record.user_id) and data == record.data:
            return record
        return dataclasses.replace(record, kind=kind, id=rid, user_id=user, data=data)

    def _entry(self, entry: IndexedEntry) -> IndexedEntry:
        key = self._ids(entry.key, "entry key")
        if key != entry.key:
            entry = dataclasses.replace(entry, key=key)
        if entry.text is None:
            return entry
        text = self._text(entry.text, "entry text")
        doc = self._value(entry.doc, "entry", False)
        if text == entry.text and doc == entry.doc:
            return entry
        terms = entry.terms if text == entry.text else dict(Counter(tokenize(text)))
        return dataclasses.replace(entry, text=text, terms=terms, doc=doc)

    # -- writes: through the gate ---------------------------------------------------------
    def insert_message(self, msg: Message, terms: Sequence[str]) -> tuple[Message, bool]:
        clean = self._message(msg)
        if clean is not msg and clean.content != msg.content:
            terms = tokenize(index_text(clean))
        return self._inner.insert_message(clean, terms)

    def put_record(self, record: Record) -> None:
        self._inner.put_record(self._record(record))

    def put_entries(self, user_id: str, entries: Sequence[IndexedEntry]) -> int:
        user_id = self._id(user_id, "user_id")
        return self._inner.put_entries(user_id, [self._entry(e) for e in entries])

    def set_meta(self, key: str, value: str) -> None:
        self._inner.set_meta(self._id(key, "meta key"), value)

    # -- writes of what passed already (vectors, marks) and deletions ----------------------
    def store_vectors(self, items: Sequence[tuple[Message, np.ndarray]]) -> None:
        self._inner.store_vectors(items)

    def store_entry_vectors(self, items: Sequence[tuple[str, str, str, np.ndarray]]) -> int:
        return self._inner.store_entry_vectors(items)

    def cache_put(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        self._inner.cache_put(model, vectors)

    def mark_entries_built(self, user_id: str) -> int:
        return self._inner.mark_entries_built(user_id)

    def set_failed(self, user_id: str, ids: Sequence[str], failed: bool = True) -> int:
        return self._inner.set_failed(user_id, ids, failed)

    def index_pending(self, limit: int = 4096) -> int:
        return self._inner.index_pending(limit)

    def delete_records(self, kind: str, ids: Sequence[str], user_id: str) -> int:
        return self._inner.delete_records(kind, ids, user_id)

    def delete_messages(
        self, user_id: str, ids: Sequence[str], cache_hashes: Sequence[str] = ()
    ) -> list[Message]:
        self._ok.clear()  # identifiers and keys found clean: none of the deleted stays
        return self._inner.delete_messages(user_id, ids, cache_hashes)

    def delete_user(self, user_id: str, cache_hashes: Sequence[str] = ()) -> int:
        self._ok.clear()
        return self._inner.delete_user(user_id, cache_hashes)

    def compact(self) -> None:
        self._inner.compact()

    def close(self) -> None:
        self._inner.close()

    # -- reads ----------------------------------------------------------------------------
    def get_messages(self, user_id: str, seqs: Sequence[int]) -> dict[int, Message]:
        return self._inner.get_messages(user_id, seqs)

    def get_message(self, user_id: str, message_id: str) -> Message | None:
        return self._inner.get_message(user_id, message_id)

    def session_messages(
        self, user_id: str, session_id: str, *, last: int | None = None
    ) -> list[Message]:
        return self._inner.session_messages(user_id, session_id, last=last)

    def neighbors_many(
        self, user_id: str, seqs: Sequence[int], window: int
    ) -> dict[int, list[Message]]:
        return self._inner.neighbors_many(user_id, seqs, window)

    def message_page(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        terms: Sequence[str] = (),
        before: int | None = None,
        limit: int = 50,
    ) -> list[Message]:
        return self._inner.message_page(
            user_id, session_id=session_id, terms=terms, before=before, limit=limit
        )

    def session_page(
        self, user_id: str, *, before: int | None = None, limit: int = 20
    ) -> list[SessionRow]:
        return self._inner.session_page(user_id, before=before, limit=limit)

    def message_counts(self, user_id: str) -> MessageCounts:
        return self._inner.message_counts(user_id)

    def neighbors(self, user_id: str, seq: int, window: int) -> list[Message]:
        return self._inner.neighbors(user_id, seq, window)

    def iter_messages(self, user_id: str) -> list[Message]:
        return self._inner.iter_messages(user_id)

    def speaker_names(self, user_id: str, after: int = 0) -> tuple[set[str], int]:
        return self._inner.speaker_names(user_id, after)

    def filter_seqs(self, user_id: str, predicate: Predicate) -> set[int]:
        return self._inner.filter_seqs(user_id, predicate)

    def pending_embeddings(self, limit: int) -> list[Message]:
        return self._inner.pending_embeddings(limit)

    @property
    def concurrent_embedding(self) -> bool:
        return self._inner.concurrent_embedding

    def get_meta(self, key: str) -> str | None:
        return self._inner.get_meta(key)

    def stats(self, user_id: str | None = None) -> BackendStats:
        return self._inner.stats(user_id)

    def users(self) -> list[str]:
        return self._inner.users()

    def vector_search(
        self, user_id: str, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        return self._inner.vector_search(user_id, vector, k, allowed)

    def vector_search_many(
        self, user_id: str, vectors: Sequence[np.ndarray], k: int
    ) -> list[list[tuple[int, float]]]:
        return self._inner.vector_search_many(user_id, vectors, k)

    def postings(self, user_id: str, terms: Sequence[str]) -> Postings:
        return self._inner.postings(user_id, terms)

    def lexical_search(
        self,
        user_id: str,
        terms: Sequence[str],
        k: int,
        allowed: set[int] | None = None,
        *,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> list[tuple[int, float]]:
        return self._inner.lexical_search(user_id, terms, k, allowed, k1=k1, b=b)

    def document_frequencies(self, user_id: str, terms: Sequence[str]) -> dict[str, int]:
        return self._inner.document_frequencies(user_id, terms)

    def get_record(self, kind: str, record_id: str, user_id: str | None = None) -> Record | None:
        return self._inner.get_record(kind, record_id, user_id)

    def query_records(
        self,
        kind: str,
        user_id: str | None = None,
        *,
        where: Mapping[str, RecordValue] | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        return self._inner.query_records(
            kind, user_id, where=where, limit=limit, newest_first=newest_first
        )

    def list_records(self, kind: str, user_id: str | None = None) -> list[Record]:
        return self._inner.list_records(kind, user_id)

    def record_page(
        self,
        kind: str,
        user_id: str,
        *,
        before: tuple[str, str] | None = None,
        limit: int = 50,
    ) -> list[Record]:
        return self._inner.record_page(kind, user_id, before=before, limit=limit)

    def count_records(self, kind: str, user_id: str | None = None) -> int:
        return self._inner.count_records(kind, user_id)

    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        return self._inner.cache_get(model, hashes)

    def entries_since(self, user_id: str, rev: int) -> tuple[int, list[IndexedEntry]]:
        return self._inner.entries_since(user_id, rev)

    def pending_entries(self, limit: int) -> list[tuple[str, IndexedEntry]]:
        return self._inner.pending_entries(limit)
