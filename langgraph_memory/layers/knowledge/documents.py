"""Semantic memory: documents split into cited chunks, versioned, per user or shared.

Seed 002 §4.3 keeps ``knowledge_chunks(document_id, document_version, chunk_text,
source_metadata, hierarchy_info, status)``. Here each chunk is a record of kind
``chunk`` (:class:`DocumentChunk`) and each document one record of kind ``document``
(:class:`DocumentInfo`: its versions and metadata), both in the backend's record store.
Chunks are written through the entry-index record store
(:class:`~langgraph_memory.layers.index.entries.IndexedRecords`), so they are indexed
like long-term entries (terms now, vectors by the background worker) and ranked by the
same hybrid ranking; the read path ranks them as the ``document`` layer.

- Every text (the document, its title, id and metadata) goes through the sensitivity
  gate before anything is stored.
- A new version archives the chunks of the previous one (kept, ``status="archived"``,
  searchable only on request); a version older than the current one is refused, and
  the current version again with the same text changes nothing.
- Shared knowledge (``user_id=None``) is kept under :data:`SHARED_OWNER`, an id no user
  can have (user ids hold no control character), and is read beside every user's own.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.sensitivity.policy import SensitivityFilter
    >>> docs = Documents(InMemoryBackend(), SensitivityFilter(None))
    >>> info = docs.add("ann", "# Tea\\n## Brewing\\nSteep green tea 2 minutes.",
    ...                 document_id="tea", version="1.0")
    >>> info.version, info.chunks, docs.chunks("ann", "tea")[0].text()
    ('1.0', 1, '[doc: Tea § Tea > Brewing, v1.0]\\nSteep green tea 2 minutes.')
    >>> docs.add("ann", "# Tea\\nGreen tea: 80 °C.", document_id="tea", version="0.9")
    Traceback (most recent call last):
    ...
    ValueError: document 'tea' is at version '1.0'; version '0.9' is older
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, ClassVar

from langgraph_memory.config import WriteSection
from langgraph_memory.core.records import Record, from_data, to_data
from langgraph_memory.core.validation import check_id, check_metadata
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.knowledge.chunking import (
    citation,
    read_source,
    split_markdown,
    version_key,
)
from langgraph_memory.sensitivity.policy import SensitivityFilter
from langgraph_memory.storage.capabilities import RecordStore, atomic

__all__ = [
    "CHUNK_KIND",
    "DOCUMENT_KIND",
    "SHARED_OWNER",
    "MAX_DOCUMENT_CHARS",
    "CHUNK_CHARS",
    "DocumentChunk",
    "DocumentInfo",
    "Documents",
    "owner_of",
]

CHUNK_KIND = "chunk"
DOCUMENT_KIND = "document"
#: The owner of shared knowledge: no user id can equal it (ids hold no control character).
SHARED_OWNER = "\x1fshared"
#: The longest document accepted by default, in characters (``max_document_chars``).
MAX_DOCUMENT_CHARS = 10_000_000
#: The longest chunk by default, in characters (``document_chunk_chars``): about the
#: 256-token window of the default embedder.
CHUNK_CHARS = 1000
_SCALARS = (str, int, float, bool)


def owner_of(user_id: str | None) -> str:
    """The record owner of a user's documents (:data:`SHARED_OWNER` for ``None``).

    Raises:
        TypeError, ValueError: When ``user_id`` is no valid id.
    """
    return SHARED_OWNER if user_id is None else check_id(user_id, "user_id")


@dataclass(slots=True)
class DocumentChunk:
    """One chunk of one version of a document (seed 002's ``knowledge_chunks`` row).

    Attributes:
        id: The record id.
        owner: The user it belongs to (:data:`SHARED_OWNER` for shared knowledge).
        document_id: The document's id.
        version: The document version it belongs to.
        index: Its place in that version (0 first).
        body: The chunk's text.
        title: The document's title.
        hierarchy_info: Its heading path, ``{"h1": ..., "h2": ...}``.
        source_metadata: The document's metadata and that of its part (a page...).
        status: ``"active"`` or ``"archived"`` (a later version replaced it).
        created_at: When it was added.
    """

    id: str
    owner: str
    document_id: str
    version: str
    index: int
    body: str
    title: str
    hierarchy_info: dict[str, str] = field(default_factory=dict)
    source_metadata: dict[str, Any] = field(default_factory=dict)
    status: str = "active"
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    #: Its record kind.
    KIND: ClassVar[str] = CHUNK_KIND

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> DocumentChunk:
        """A chunk from its stored form."""
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        return EntryView(self.text(), self.source_ids(), self.created_at, {"meta": self.meta()})

    @property
    def headings(self) -> list[str]:
        """The heading path, outermost first."""
        return [self.hierarchy_info[k] for k in sorted(self.hierarchy_info)]

    def citation(self) -> str:
        """``[doc: Title § Heading > Subheading, v1.2]``."""
        return citation(self.title, self.headings, self.version)

    def text(self) -> str:
        """The citation, then the chunk: what is indexed, ranked and shown."""
        return f"{self.citation()}\n{self.body}"

    def source_ids(self) -> list[str]:
        """Its citations: the chunk's id and ``doc:<document id>@<version>``."""
        return [self.id, f"doc:{self.document_id}@{self.version}"]

    def meta(self) -> dict[str, Any]:
        """What a hit shows beside the text (and what a search filter matches)."""
        return {
            **self.source_metadata,
            "document_id": self.document_id,
            "version": self.version,
            "title": self.title,
            "headings": self.headings,
            "chunk": self.index,
            "status": self.status,
            "shared": self.owner == SHARED_OWNER,
        }


@dataclass(slots=True)
class DocumentInfo:
    """A document as :meth:`MemoryManager.documents` lists it.

    Attributes:
        document_id: Its id.
        title: Its title.
        version: The current version (its chunks are active; earlier ones archived).
        chunks: Chunks of the current version.
        versions: Every version added, oldest first: ``{"version", "chunks", "hash",
            "added_at"}``.
        metadata: The metadata given with the current version.
        shared: Whether it is shared knowledge (``user_id=None``).
        created_at: When its first version was added.
        updated_at: When its current version was added.
    """

    document_id: str
    title: str
    version: str
    chunks: int
    versions: list[dict[str, Any]] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    shared: bool = False
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    updated_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> DocumentInfo:
        """A document from its stored form."""
        return from_data(cls, data)


def _rid(prefix: str, *parts: str) -> str:
    raw = "\x1f".join(parts).encode("utf-8")
    return f"{prefix}-{hashlib.sha256(raw).hexdigest()[:32]}"


def _part_metadata(meta: Mapping[str, Any]) -> dict[str, Any]:
    """A loader's metadata, its JSON scalars only (``source``, ``page``...)."""
    return {str(k): v for k, v in meta.items() if isinstance(v, _SCALARS)}


class Documents:
    """Documents and their chunks over a record store (see the module docs).

    Args:
        records: Where chunks and documents are stored; the entry-index record store,
            so chunks are indexed as they are written.
        gate: The sensitivity gate every stored text goes through.
        config: ``max_document_chars``, ``document_chunk_chars`` and
            ``max_metadata_bytes``: the longest document and chunk, in characters, and
            the largest metadata, as JSON.
        clock: The current time (UTC).
    """

    def __init__(
        self,
        records: RecordStore,
        gate: SensitivityFilter,
        config: WriteSection | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        config = config or WriteSection()
        self.records = records
        self.gate = gate
        self.max_chars = config.max_document_chars
        self.chunk_chars = config.document_chunk_chars
        self.max_metadata_bytes = config.max_metadata_bytes
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        self._lock = threading.Lock()

    # -- writing --------------------------------------------------------------------------
    def add(
        self,
        user_id: str | None,
        source: Any,
        *,
        document_id: str | None = None,
        version: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentInfo:
        """Add a document, or a new version of one (see the module docs).

        Returns:
            The document as stored.

        Raises:
            TypeError: On a source or argument of the wrong type.
            ValueError: On a binary, empty, heading-only or too long document, or a
                version older than the current one (or the current one with other
                text). Nothing is stored then.
            SensitiveContentError: When the gate's policy refuses what it found.
        """
        owner = owner_of(user_id)
        meta = check_metadata(
            dict(metadata) if isinstance(metadata, Mapping) else metadata,
            self.max_metadata_bytes,
        )
        if version is not None:
            version = check_id(version, "version").strip()
        parts = read_source(source, self.max_chars)
        gate = self.gate
        meta = gate.clean(meta, field="metadata")
        sections = []
        for text, part_meta in parts:
            clean = gate.redact(text, field="document")
            extra = gate.clean(_part_metadata(part_meta), field="metadata")
            sections += split_markdown(clean, self.chunk_chars, extra)
        if not sections:
            raise ValueError(
                "document holds no text under its headings (only headings, or only "
                "whitespace); nothing to store"
            )
        first_source = parts[0][1].get("source")
        if document_id is None:
            named = first_source or next((s.headings[0] for s in sections if s.headings), None)
            digest = hashlib.sha256("\x1f".join(t for t, _ in parts).encode()).hexdigest()
            document_id = str(named) if named else f"doc-{digest[:12]}"
        document_id = gate.clean_label(check_id(document_id, "document_id").strip(), field="id")
        title = meta.get("title") or parts[0][1].get("title")
        if not isinstance(title, str) or not title.strip():
            title = next((s.headings[0] for s in sections if s.headings), document_id)
        title = gate.redact(str(title).strip(), field="title")
        digest = hashlib.sha256(
            repr([(s.text, s.headings, s.metadata) for s in sections] + [title]).encode()
        ).hexdigest()[:32]
        with self._lock:
            info = self.info(user_id, document_id)
            version = self._next_version(document_id, info, version, digest)
            if info is not None and version == info.version:
                return info  # the current version again, the same text: nothing changes
            now = self._clock()
            chunks = [
                DocumentChunk(
                    _rid("chunk", owner, document_id, version, str(i)),
                    owner,
                    document_id,
                    version,
                    i,
                    s.text,
                    title,
                    {f"h{d}": h for d, h in enumerate(s.headings, 1)},
                    {**meta, **s.metadata},
                    "active",
                    now,
                )
                for i, s in enumerate(sections)
            ]
            for c in chunks:  # not yet read: the document's record names its version
                self._put(c)
            # the commit point: the old version archived and the record naming the new one,
            # in one transaction (a crash between them left a half-archived document)
            with atomic(self.records):
                if info is not None:  # the previous version's chunks: kept, archived
                    for c in self.chunks(user_id, document_id, version=info.version):
                        c.status = "archived"
                        self._put(c)
                versions = (info.versions if info is not None else []) + [
                    {"version": version, "chunks": len(chunks), "hash": digest,
                     "added_at": now.isoformat()}
                ]  # fmt: skip
                new = DocumentInfo(
                    document_id,
                    title,
                    version,
                    len(chunks),
                    versions,
                    meta,
                    owner == SHARED_OWNER,
                    info.created_at if info is not None else now,
                    now,
                )
                rid = _rid("document", owner, document_id)
                created = info.created_at if info is not None else now
                self.records.put_record(
                    Record(DOCUMENT_KIND, rid, owner, to_data(new), created, now)
                )
            return new

    def _next_version(
        self, document_id: str, info: DocumentInfo | None, version: str | None, digest: str
    ) -> str:
        """The version to store (``version``, or the next one), checked against the
        current one."""
        if info is None:
            return version if version is not None else "1"
        current = info.version
        if version is None:
            if info.versions and info.versions[-1].get("hash") == digest:
                return current
            if not current.isdigit():
                raise ValueError(
                    f"document {document_id!r} is at version {current!r}; pass version= "
                    "for the new one"
                )
            return str(int(current) + 1)
        if version == current:
            if info.versions and info.versions[-1].get("hash") == digest:
                return current
            raise ValueError(
                f"document {document_id!r} already has version {version!r} with other "
                "text; give the new text a new version"
            )
        if version_key(version) <= version_key(current):
            raise ValueError(
                f"document {document_id!r} is at version {current!r}; version {version!r} is older"
            )
        if any(v.get("version") == version for v in info.versions):
            raise ValueError(f"document {document_id!r} had version {version!r} already")
        return version

    def _put(self, chunk: DocumentChunk) -> None:
        now = self._clock()
        self.records.put_record(
            Record(CHUNK_KIND, chunk.id, chunk.owner, to_data(chunk), chunk.created_at, now)
        )

    def remove(self, user_id: str | None, document_id: str) -> int:
        """Remove a document: every version's chunks (and their index entries) and the
        document itself; returns how many chunks went (0 for an unknown document)."""
        owner = owner_of(user_id)
        document_id = self._lookup_id(document_id)
        with self._lock:
            ids = [
                r.id
                for r in self.records.query_records(
                    CHUNK_KIND, owner, where={"document_id": document_id}
                )
            ]
            n = self.records.delete_records(CHUNK_KIND, ids, owner) if ids else 0
            self.records.delete_records(
                DOCUMENT_KIND, [_rid("document", owner, document_id)], owner
            )
            return n

    # -- reading --------------------------------------------------------------------------
    def _lookup_id(self, document_id: str) -> str:
        """A document id as it was stored (a secret in it pseudonymised by the gate)."""
        return self.gate.clean_label(
            check_id(document_id, "document_id").strip(), field="id", refuse=False
        )

    def info(self, user_id: str | None, document_id: str) -> DocumentInfo | None:
        """A document, or ``None``."""
        owner = owner_of(user_id)
        rec = self.records.get_record(
            DOCUMENT_KIND, _rid("document", owner, self._lookup_id(document_id)), owner
        )
        return DocumentInfo.load(rec.data) if rec is not None else None

    def documents(self, user_id: str | None) -> list[DocumentInfo]:
        """A user's documents (shared knowledge for ``None``), oldest first."""
        return [
            DocumentInfo.load(r.data)
            for r in self.records.list_records(DOCUMENT_KIND, owner_of(user_id))
        ]

    def chunks(
        self, user_id: str | None, document_id: str, *, version: str | None = None
    ) -> list[DocumentChunk]:
        """A document's chunks (of every version, or of ``version``), in order."""
        owner = owner_of(user_id)
        where: dict[str, str] = {"document_id": self._lookup_id(document_id)}
        if version is not None:
            where["version"] = version
        found = [
            DocumentChunk.load(r.data)
            for r in self.records.query_records(CHUNK_KIND, owner, where=where)
        ]
        found.sort(key=lambda c: (version_key(c.version), c.index))
        return found

    def texts(self, user_id: str) -> list[str]:
        """The indexed texts of a user's chunks (their cached vectors go with the user)."""
        return [
            DocumentChunk.load(r.data).text()
            for r in self.records.list_records(CHUNK_KIND, owner_of(user_id))
        ]
