"""One query value, computed once and handed to every ranker of a search or a context.

A :class:`Query` holds the query's text, its terms (tokenised once), its embedding (a
:class:`QueryVector`, made once on a thread of its own while the caller reads what needs
none), whether it asks for a timeline, and its route (the intent and
the time it names, worked out on first use). The message ranker, the segments, the
long-term entry index, the documents, the entities and the packing read this one value;
none of them tokenises or embeds the query again.

Example:
    >>> from langgraph_memory.embeddings import CachedEmbeddings, HashingEmbeddings
    >>> class Source:
    ...     def get(self): return CachedEmbeddings(HashingEmbeddings(dim=8))
    >>> q = Query("Where did Ann move in May?", QueryVector(Source(), "Where did Ann move?"))
    >>> q.terms, q.vector.get().shape
    (('ann', 'move'), (8,))
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from langgraph_memory.core.lexicon import query_terms
from langgraph_memory.embeddings import EmbedderSource
from langgraph_memory.read.routing import Route, route_query
from langgraph_memory.read.speakers import lexical_terms
from langgraph_memory.read.timeline import timeline_kind

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Query", "QueryVector"]


class QueryVector:
    """A query's embedding, made on first use and shared by the rankings of one call.

    Message, segment and long-term retrieval of one ``search`` or ``build_context``
    embed the query once (on the retriever's thread when the dense search runs
    beside the lexical one).

    Args:
        embedder: Hands out the query embedder.
        query: The query text.
    """

    __slots__ = ("_embedder", "query", "_vector", "_lock")

    def __init__(self, embedder: EmbedderSource, query: str) -> None:
        self._embedder = embedder
        self.query = query
        self._vector: np.ndarray | None = None
        self._lock = threading.Lock()

    def ready(self) -> bool:
        """Whether the embedding is made (``get`` returns at once)."""
        return self._vector is not None

    def get(self) -> np.ndarray:
        """The embedding (computed once)."""
        with self._lock:
            if self._vector is None:
                self._vector = self._embedder.get().embed_queries([self.query])[0]
            return self._vector


class Query:
    """One query, as every ranker of one call reads it.

    Args:
        text: The query.
        vector: Its embedding (of the text or of a form of it without speaker names).
        dense: Whether its embedding ranks anything (not a Chinese query's with an
            English-only model: then it is ranked by its terms).
        speakers: The names of the user's speakers whose words the message ranking's
            BM25 does not read (:func:`~langgraph_memory.read.speakers.lexical_terms`:
            the speaker boost matches them); none by default.

    Attributes:
        text: The query.
        terms: Its lexical terms (:func:`~langgraph_memory.core.lexicon.query_terms`:
            question words dropped, the slots it asks about expanded).
        term_set: The distinct terms.
        lexical: The terms the message ranking's BM25 reads: ``terms`` without the
            words of the ``speakers`` the query names.
        own: Those the query's text holds itself (the others a slot lexicon added).
        vector: Its embedding, made once.
        timeline: What it asks of a topic's story: ``"order"`` (what happened first,
            next), ``"summary"`` (how it went), or ``None`` (see
            :func:`~langgraph_memory.read.timeline.timeline_kind`).
        dense: Whether its embedding ranks anything.
    """

    __slots__ = (
        "text",
        "terms",
        "term_set",
        "lexical",
        "own",
        "vector",
        "timeline",
        "dense",
        "_route",
        "_lock",
    )

    def __init__(
        self,
        text: str,
        vector: QueryVector,
        *,
        dense: bool = True,
        speakers: Iterable[str] = (),
    ) -> None:
        self.text = text
        self.dense = dense
        self.terms = query_terms(text)
        self.term_set = frozenset(self.terms)
        self.lexical = lexical_terms(self.terms, speakers)
        lower = text.lower()  # the terms the query says itself (the rest a lexicon added)
        self.own = frozenset(t for t in self.term_set if t in lower)
        self.vector = vector
        self.timeline = timeline_kind(text)
        self._route: Route | None = None
        self._lock = threading.Lock()

    def route(self) -> Route:
        """The query's route (intent, layer weights, the time it names), by rules, worked
        out on first use."""
        with self._lock:
            if self._route is None:
                self._route = route_query(self.text)
            return self._route
