"""A LangChain retriever over one user's memory: :class:`MemoryRetriever`.

Example:
    >>> from langgraph_memory import HashingEmbeddings, InMemoryBackend, MemoryManager
    >>> from langgraph_memory.integrations.retriever import MemoryRetriever
    >>> mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    >>> _ = mm.add_turn("alice", "s1", user="I moved to Lyon last spring.",
    ...                 assistant="Lyon is lovely in spring!")
    >>> mm.flush()
    >>> docs = MemoryRetriever(memory=mm, user_id="alice", k=1).invoke("Where do I live?")
    >>> docs[0].page_content, docs[0].metadata["layer"]
    ('I moved to Lyon last spring.', 'message')
    >>> mm.close()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, field_validator

from langgraph_memory.core.filters import compile_filter
from langgraph_memory.core.records import MemoryHit, SearchLayer
from langgraph_memory.core.validation import check_id, check_layers, check_positive_int
from langgraph_memory.integrations.remote import RemoteMemory
from langgraph_memory.manager import MemoryManager

__all__ = ["MemoryRetriever"]

#: Keyword arguments ``invoke`` forwards that the retriever tolerates but does not use.
_IGNORED_KWARGS = frozenset({"verbose"})


class MemoryRetriever(BaseRetriever):
    """Retrieve one user's memories as LangChain ``Document`` objects.

    A thin, typed face of :meth:`MemoryManager.search` for chains and agents:
    every call searches only ``user_id``'s memory (no filter can widen that),
    with hybrid BM25 + dense ranking, best first.

    Each ``Document`` has the memory's text as ``page_content``, its id as ``id``,
    and these ``metadata`` keys: ``layer``, ``score`` (a relevance in ``[0, 1]``, one
    scale for every layer: unrelated memories near 0), ``score_parts``,
    ``source_ids`` (the ids of the messages it came from: the citation trail),
    ``session_id``, ``timestamp`` (ISO 8601 str or ``None``), ``name``, ``role``,
    ``user_id``, and ``metadata`` (the memory's own metadata).

    Args:
        memory: The :class:`MemoryManager` to search.
        user_id: Whose memory; validated at construction.
        k: How many documents a call returns at most (default 8).
        filter: A metadata filter (see ``MemoryManager.search``), e.g.
            ``{"topic": "travel"}``; it may not name ``user_id``.
        layers: Restrict to these memory layers (see ``manager.LAYERS``), or to the
            hits of these labels (``"fact"``, ``"profile"``, ``"chunk"``...); default: all.
        agent_id: The agent the documents are for: other agents' traits are left
            out (default: every agent's count).

    Per call, ``invoke(query, k=...)`` and ``invoke(query, filter=...)`` override
    the constructor's ``k`` and ``filter`` (``filter={}`` searches unfiltered).

    Raises:
        ValueError: At construction, when ``user_id``, ``k``, ``filter``,
            ``layers`` or ``agent_id`` is invalid (a ``pydantic.ValidationError``); per call,
            when ``k`` or ``filter`` is invalid or the query is empty.
        TypeError: Per call, when an unknown keyword argument is given.

    Example:
        ```python
        from langchain_core.runnables import RunnableLambda, RunnablePassthrough
        from langgraph_memory import MemoryManager
        from langgraph_memory.integrations.retriever import MemoryRetriever

        mm = MemoryManager()
        retriever = MemoryRetriever(memory=mm, user_id="alice", k=4)


        def format_docs(docs):
            return "\\n".join(f"- {d.page_content}" for d in docs)


        chain = {
            "memories": retriever | RunnableLambda(format_docs),
            "question": RunnablePassthrough(),
        } | prompt | llm
        chain.invoke("Where did I say I moved to?")
        retriever.invoke("travel plans", k=2, filter={"topic": "travel"})
        ```
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, validate_assignment=True)

    memory: MemoryManager | RemoteMemory
    """The memory to search (a manager, or a service's :class:`~langgraph_memory.RemoteMemory`)."""
    user_id: str
    """Whose memory; nothing of another user is ever returned."""
    k: int = 8
    """How many documents a call returns at most."""
    filter: dict[str, Any] | None = None
    """A metadata filter applied to every call that does not pass its own."""
    layers: list[str] | None = None
    """The memory layers searched (``None``: all)."""
    agent_id: str | None = None
    """The agent the documents are for: the traits of other agents are left out
    (``None``: every agent's count)."""

    @field_validator("user_id")
    @classmethod
    def _check_user_id(cls, value: str) -> str:
        return check_id(value, "user_id")

    @field_validator("agent_id")
    @classmethod
    def _check_agent_id(cls, value: str | None) -> str | None:
        return None if value is None else check_id(value, "agent_id")

    @field_validator("k", mode="before")
    @classmethod
    def _check_k(cls, value: Any) -> int:
        try:
            return check_positive_int(value, "k")
        except TypeError as exc:  # pydantic reports ValueErrors, not TypeErrors
            raise ValueError(str(exc)) from exc

    @field_validator("filter")
    @classmethod
    def _check_filter(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        compile_filter(value)  # raises on a malformed filter or one naming user_id
        return value

    @field_validator("layers")
    @classmethod
    def _check_layers(cls, value: list[str] | None) -> list[str] | None:
        if value is not None:
            check_layers(value)  # raises on an unknown name, naming the known ones
        return value

    def _search_args(
        self, k: int | None, flt: Mapping[str, Any] | None, kwargs: Mapping[str, Any]
    ) -> tuple[int, Mapping[str, Any] | None]:
        unknown = sorted(set(kwargs) - _IGNORED_KWARGS)
        if unknown:
            raise TypeError(
                f"MemoryRetriever got unexpected keyword arguments {unknown}; "
                "per call it accepts k and filter"
            )
        return (self.k if k is None else k), (self.filter if flt is None else flt)

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - LangChain's name
        **kwargs: Any,
    ) -> list[Document]:
        n, flt = self._search_args(k, filter, kwargs)
        hits = self.memory.search(
            self.user_id, query, k=n, layers=self._layers(), filter=flt, agent_id=self.agent_id
        )
        return [self._to_document(h) for h in hits]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        k: int | None = None,
        filter: Mapping[str, Any] | None = None,  # noqa: A002 - LangChain's name
        **kwargs: Any,
    ) -> list[Document]:
        n, flt = self._search_args(k, filter, kwargs)
        hits = await self.memory.aio.search(
            self.user_id, query, k=n, layers=self._layers(), filter=flt, agent_id=self.agent_id
        )
        return [self._to_document(h) for h in hits]

    def _layers(self) -> list[SearchLayer] | None:
        return cast("list[SearchLayer] | None", self.layers)  # checked by _check_layers

    def _to_document(self, hit: MemoryHit) -> Document:
        return Document(
            page_content=hit.text,
            id=hit.id,
            metadata={
                "layer": hit.layer,
                "score": float(hit.score),
                "score_parts": {name: float(v) for name, v in hit.score_parts.items()},
                "source_ids": list(hit.source_ids),
                "session_id": hit.session_id,
                "timestamp": hit.timestamp.isoformat() if hit.timestamp is not None else None,
                "name": hit.name,
                "role": hit.role,
                "user_id": self.user_id,
                "metadata": dict(hit.metadata),
            },
        )
