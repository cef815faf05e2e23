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
from dataclasses import fields
from datetime import timedelta
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
from langgraph_memory.layers.long_term.memory import AgentTrait, LongTermConfig, LongTermMemory
from langgraph_memory.layers.long_term.reflection import Insight, Lesson, Reflector
from langgraph_memory.layers.long_term.rollups import Rollup, RollupWriter
from langgraph_memory.layers.working.forgetting import ForgetGate, ImportanceRule, importance
from langgraph_memory.layers.working.tasks import Episode, WorkingMemory
from langgraph_memory.parts.items import Items
from langgraph_memory.read.external import VectorStores
from langgraph_memory.read.long_term import LongTermDocs
from langgraph_memory.read.messages import MessageRetriever
from langgraph_memory.read.pipeline import ReadPipeline
from langgraph_memory.read.rerank import Reranker
from langgraph_memory.sensitivity.policy import SensitivityFilter
from langgraph_memory.storage.base import MemoryBackend
from langgraph_memory.storage.capabilities import ClaimQueue, LexicalIndex, RecordStore, VectorIndex
from langgraph_memory.storage.sqlite.backend import SQLiteBackend
from langgraph_memory.write.access import AccessLog
from langgraph_memory.write.embedder import Embedder
from langgraph_memory.write.lease import Writer
from langgraph_memory.write.pipeline import WritePipeline

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["MemoryParts", "wire", "open_backend", "importance_rule", "long_term_config"]


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

    def close(self) -> None:
        """Stop the background worker and the search threads, then close the store."""
        self.write.close()
        self.read.close()
        self.storage.close()


def importance_rule(config: MemoryConfig) -> ImportanceRule:
    """The forget gate's importance rule: every constant is a config field
    ``importance_<constant>``."""
    return ImportanceRule(
        **{f.name: getattr(config, f"importance_{f.name}") for f in fields(ImportanceRule)}
    )


def long_term_config(config: MemoryConfig) -> LongTermConfig:
    """Long-term memory's parameters, from the manager's config."""
    return LongTermConfig(
        explicit_confidence=config.explicit_confidence,
        confirmed_confidence=config.confirmed_confidence,
        inferred_confidence=config.inferred_confidence,
        reinforce_step=config.reinforce_step,
        correct_step=config.correct_step,
        context_threshold=config.preference_threshold,
        dedup_threshold=config.dedup_threshold,
        dedup_window_days=config.dedup_window_days,
    )


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
    embedder = Embedder(storage, config, embeddings)
    dense = config.dense_weight > 0 and config.long_term_dense_weight > 0
    entries = EntryIndexer(
        storage, storage, embedder.embed_texts if dense else None, kinds=ENTRY_KINDS
    )
    records = IndexedRecords(storage, entries)  # long-term writes keep the index
    gate = SensitivityFilter(config.sensitivity)
    longterm = LongTermMemory(
        records, long_term_config(config), embed=embedder.embed_texts, gate=gate
    )
    rule = importance_rule(config)
    working = WorkingMemory(records, importance=partial(importance, rule=rule), gate=gate)
    links = None
    if config.contradiction_min_cosine <= 1.0:
        links = ContradictionFinder(
            storage, records, embedder.embed_texts, min_cosine=config.contradiction_min_cosine
        )
    rollups = RollupWriter(
        storage,
        records,
        llm,
        day_tokens=config.rollup_day_tokens,
        week_tokens=config.rollup_week_tokens,
    )
    graph = EntityGraph(records, longterm)
    atoms = AtomWriter(
        longterm,
        llm,
        working,
        links=links,
        users=storage.users,
        rollups=rollups if config.rollups else None,
        extract=config.extract_every_turn,
        entities=graph,
    )
    every_turn = config.extract_every_turn
    hierarchy = Hierarchy(
        storage,
        config,
        llm=llm,
        promote=None if every_turn else atoms,
        claims=storage if isinstance(storage, ClaimQueue) else None,
        distill=atoms,
    )
    forget = ForgetGate(
        working,
        threshold=config.forget_threshold,
        min_age=timedelta(days=config.forget_min_age_days),
        max_episodes=config.max_episodes,
        rule=rule,
    )
    consolidator = Consolidator(working, llm, min_episodes=config.consolidation_min_episodes)
    accesses = AccessLog(working, consolidator, longterm)
    docs = LongTermDocs(longterm, records, ENTRY_KINDS)
    passages = None
    if config.max_passages > 0:  # long messages indexed in passages too
        passages = Passages(
            records,
            entries,
            chars=config.passage_chars,
            overlap=config.passage_overlap,
            max_passages=config.max_passages,
            roles=config.passage_roles,
        )
    sources = VectorStores()  # stores the user keeps elsewhere, read at query time
    read = ReadPipeline(
        storage,
        MessageRetriever(storage, embedder, config, passages),
        config,
        hierarchy,
        docs,
        working,
        entries,
        accesses=accesses,
        reranker=reranker,
        sources=sources,
    )
    reflector = Reflector(
        records,
        storage,
        llm,
        threshold=config.reflection_threshold,
        min_facts=config.reflection_min_facts,
        insights=config.insights,
    )
    writer = Writer(storage, hierarchy)
    write = WritePipeline(
        storage,
        config,
        gate,
        embedder,
        writer,
        hierarchy,
        accesses,
        entries=entries,
        reflector=reflector if config.reflect else None,
        records=records,
        passages=passages,
    )
    items = Items(storage, gate)
    documents = Documents(  # chunks are written through the index, like long-term entries
        records,
        gate,
        max_chars=config.max_document_chars,
        chunk_chars=config.document_chunk_chars,
        max_metadata_bytes=config.max_metadata_bytes,
    )
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
    )
