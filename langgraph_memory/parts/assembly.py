"""How one memory is put together: every collaborator of a manager, wired once.

The data flow is visible here: the write pipeline embeds with the embedder and
places into the hierarchy under the writer lease; the hierarchy promotes hot
segments into long-term memory; the read pipeline reads the store, the hierarchy,
long-term memory (profile, facts, traits, episodes, knowledge) and working memory,
and counts the long-term entries it used into the access log, which the write
pipeline saves; it also reads the vector stores attached as knowledge at query time.
:class:`~langgraph_memory.MemoryManager` only delegates to these.

Example:
    >>> from langgraph_memory import MemoryConfig
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> parts = wire(InMemoryBackend(), MemoryConfig(), HashingEmbeddings())
    >>> type(parts.write).__name__, type(parts.read).__name__
    ('WritePipeline', 'ReadPipeline')
    >>> parts.close()
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from langchain_core.embeddings import Embeddings

from langgraph_memory.config import MemoryConfig
from langgraph_memory.layers.hierarchy.placement import Hierarchy
from langgraph_memory.layers.hierarchy.promotion import AtomWriter
from langgraph_memory.layers.index.entries import EntryIndexer, IndexedRecords
from langgraph_memory.layers.index.kinds import EntryKinds
from langgraph_memory.layers.index.passages import Passage, Passages
from langgraph_memory.layers.knowledge.consolidation import Consolidator, Knowledge
from langgraph_memory.layers.knowledge.documents import DocumentChunk, Documents
from langgraph_memory.layers.long_term.contradictions import Contradiction, ContradictionFinder
from langgraph_memory.layers.long_term.entities import Entity, EntityGraph
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.memory import AgentTrait, LongTermMemory
from langgraph_memory.layers.long_term.reflection import Insight, Lesson, Reflector
from langgraph_memory.layers.long_term.rollups import Rollup, RollupWriter
from langgraph_memory.layers.working.forgetting import ForgetGate, importance
from langgraph_memory.layers.working.redis_cache import WorkingMemoryCache
from langgraph_memory.layers.working.tasks import Episode, WorkingMemory
from langgraph_memory.parts.items import Items
from langgraph_memory.parts.lifetime import Lifetime
from langgraph_memory.read.expansion import expander_for
from langgraph_memory.read.external import VectorStores
from langgraph_memory.read.long_term import LongTermDocs
from langgraph_memory.read.messages import MessageRetriever
from langgraph_memory.read.pipeline import ReadPipeline
from langgraph_memory.read.rerank import Reranker
from langgraph_memory.sensitivity.policy import SensitivityFilter
from langgraph_memory.storage.base import MemoryBackend
from langgraph_memory.storage.capabilities import ClaimQueue, LexicalIndex, RecordStore, VectorIndex
from langgraph_memory.storage.guard import GuardedStore
from langgraph_memory.storage.sqlite.backend import SQLiteBackend
from langgraph_memory.write.access import AccessLog
from langgraph_memory.write.embedder import Embedder
from langgraph_memory.write.lease import Writer
from langgraph_memory.write.pipeline import WritePipeline

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["MemoryParts", "wire", "open_backend", "ENTRY_KINDS"]


#: The record kinds the read path ranks beside the messages, each rendering itself (the
#: order of the layers in ``MemoryHit.layer``).
ENTRY_KINDS: EntryKinds = {
    kind.KIND: kind
    for kind in (
        Fact,
        AgentTrait,
        Episode,
        Knowledge,
        Lesson,
        Insight,
        Contradiction,
        Rollup,
        Entity,
        DocumentChunk,
        Passage,
    )
}


class MemoryParts(NamedTuple):
    """The collaborators of one manager."""

    storage: MemoryBackend
    write: WritePipeline
    read: ReadPipeline
    hierarchy: Hierarchy
    longterm: LongTermMemory
    working: WorkingMemory
    forget: ForgetGate
    consolidator: Consolidator
    long_term_docs: LongTermDocs
    items: Items
    reflector: Reflector
    rollups: RollupWriter
    entities: EntityGraph
    documents: Documents
    sources: VectorStores
    lifetime: Lifetime
    gate: SensitivityFilter
    #: The sessions' working memory in Redis (``WriteSection.working_memory_url``), or None.
    window: WorkingMemoryCache | None = None

    def close(self) -> None:
        """Stop the background worker and the search threads, then close the store."""
        self.lifetime.close()
        self.write.close()
        self.read.close()
        self.storage.close()
        if self.window is not None:
            self.window.close()


def open_backend(
    path: str | os.PathLike[str] | None,
    backend: MemoryBackend | None,
    config: MemoryConfig | None,
    embeddings: Embeddings | None,
    reranker: Reranker | None,
    default_path: str,
    encryption_key: str | None = None,
) -> MemoryBackend:
    """Check a manager's arguments and return its store: ``backend``, or a SQLite store
    under ``path`` (else ``$LANGGRAPH_MEMORY_PATH``, else ``default_path``), encrypted
    with ``encryption_key`` (else ``$LANGGRAPH_MEMORY_KEY``) when one is given.

    Raises:
        TypeError: When an argument has the wrong type, or the backend lacks a
            capability the memory needs (vectors, lexical search, records).
    """
    if reranker is not None and not isinstance(reranker, Reranker):
        raise TypeError(
            "reranker must be a langgraph_memory.read.rerank.Reranker "
            f"(e.g. FlashRankReranker), got {type(reranker).__name__}"
        )
    if config is not None and not isinstance(config, MemoryConfig):
        raise TypeError(f"config must be a MemoryConfig, got {type(config).__name__}")
    if embeddings is not None and not isinstance(embeddings, Embeddings):
        raise TypeError("embeddings must be a LangChain Embeddings instance")
    if encryption_key is not None and not (isinstance(encryption_key, str) and encryption_key):
        raise ValueError("encryption_key must be a non-empty str")
    if backend is None:
        root = path if path is not None else os.environ.get("LANGGRAPH_MEMORY_PATH", default_path)
        key = encryption_key or os.environ.get("LANGGRAPH_MEMORY_KEY") or None
        backend = SQLiteBackend(Path(root), encryption_key=key)
    elif encryption_key is not None:
        raise TypeError(
            "encryption_key applies to the default SQLite store; with a backend, pass it "
            "there: SQLiteBackend(path, encryption_key=...)"
        )
    for capability in (VectorIndex, LexicalIndex, RecordStore):
        if not isinstance(backend, capability):
            raise TypeError(
                f"backend {type(backend).__name__} offers no {capability.__name__}, "
                "which the memory needs (see langgraph_memory.storage.capabilities)"
            )
    return backend


def wire(
    storage: MemoryBackend,
    config: MemoryConfig,
    embeddings: Embeddings | None = None,
    llm: BaseChatModel | None = None,
    reranker: Reranker | None = None,
) -> MemoryParts:
    """Build every collaborator of a memory over ``storage`` and start its worker.

    Args:
        storage: The store.
        config: The memory's parameters.
        embeddings: The embedding model (the packaged default when ``None``).
        llm: An optional chat model (extraction, summaries, consolidation).
        reranker: An optional cross-encoder for the read path.
    """
    gate = SensitivityFilter(config.write.policy)
    storage = GuardedStore(storage, gate)  # the one door: nothing below holds the backend
    embedder = Embedder(storage, config.write, embeddings)
    ranking = config.retrieval
    dense = ranking.dense_weight > 0 and ranking.long_term_dense_weight > 0
    entries = EntryIndexer(
        storage, storage, embedder.embed_texts if dense else None, kinds=ENTRY_KINDS
    )
    records = IndexedRecords(storage, entries)  # long-term writes keep the index
    longterm = LongTermMemory(records, config.long_term, embed=embedder.embed_texts, gate=gate)
    rule = config.lifecycle.importance
    working = WorkingMemory(records, importance=partial(importance, rule=rule), gate=gate)
    links = None
    if config.long_term.contradiction_min_cosine <= 1.0:
        links = ContradictionFinder(storage, records, embedder.embed_texts, config.long_term)
    rollups = RollupWriter(storage, records, llm, config.hierarchy)
    graph = EntityGraph(records, longterm)
    every_turn = config.long_term.extract_every_turn
    atoms = AtomWriter(
        longterm,
        llm,
        working,
        links=links,
        users=storage.users,
        rollups=rollups if config.hierarchy.rollups else None,
        extract=every_turn,
        entities=graph,
        messages=storage,
    )
    hierarchy = Hierarchy(
        storage,
        config.hierarchy,
        llm=llm,
        promote=None if every_turn else atoms,
        claims=storage if isinstance(storage, ClaimQueue) else None,
        distill=atoms,
    )
    forget = ForgetGate(working, config.lifecycle)
    consolidator = Consolidator(working, llm, config.lifecycle)
    accesses = AccessLog(working, consolidator, longterm)
    docs = LongTermDocs(longterm, records, ENTRY_KINDS)
    passages = None
    if config.write.max_passages > 0:  # long messages indexed in passages too
        passages = Passages(records, entries, config.write)
    sources = VectorStores()  # stores the user keeps elsewhere, read at query time
    window = None
    if config.write.working_memory_url is not None:  # working memory in Redis
        window = WorkingMemoryCache(
            config.write.working_memory_url,
            storage,
            hierarchy,
            working,
            window=config.write.working_memory_window,
            ttl_seconds=config.write.working_memory_ttl_seconds,
        )
        working.listener = hierarchy.window = window
    read = ReadPipeline(
        storage,
        MessageRetriever(storage, embedder, ranking, passages),
        ranking,
        config.packing,
        hierarchy,
        docs,
        window or working,
        entries,
        accesses=accesses,
        reranker=reranker,
        sources=sources,
        expander=expander_for(llm, ranking),
    )
    reflector = Reflector(records, storage, llm, config.lifecycle)
    writer = Writer(storage, hierarchy)
    write = WritePipeline(
        storage,
        config.write,
        gate,
        embedder,
        writer,
        hierarchy,
        accesses,
        entries=entries,
        reflector=reflector if config.lifecycle.reflect else None,
        records=records,
        passages=passages,
    )
    read.window = write.window = window
    lifetime = Lifetime()
    items = Items(
        storage,
        gate,
        lifetime,
        owner_label=config.write.store_owner_label,
        max_item_bytes=config.write.max_item_bytes,
        max_block_chars=config.write.max_block_chars,
    )
    items.adopt()
    write.finish_deletions()  # what a crash interrupted, before anything else
    # document chunks are written through the index, like long-term entries
    documents = Documents(records, gate, config.write)
    return MemoryParts(
        storage,
        write,
        read,
        hierarchy,
        longterm,
        working,
        forget,
        consolidator,
        docs,
        items,
        reflector,
        rollups,
        graph,
        documents,
        sources,
        lifetime,
        gate,
        window,
    )
