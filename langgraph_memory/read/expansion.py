"""Query expansion by a chat model (seed 002, step 2: multi-query and HyDE), off by default.

When the manager has a chat model (``MemoryManager(llm=...)``) and
``retrieval.query_expansion`` is not ``"off"``, the model is asked once per query for
other phrasings of it (``"multi_query"``), a short hypothetical answer
(``"hyde"``: Hypothetical Document Embeddings, whose words and embedding look like the
memory that answers), or both. Each extra text is ranked like the query (BM25 and
dense) and the rankings are fused with the query's by weighted reciprocal rank
(``expansion_weight`` each, the query 1): a message the plain query misses can reach
the candidates. The model's answer is bounded (at most ``expansion_queries`` phrasings,
each cut to ``expansion_chars`` characters, the answer too); a malformed or failing
answer, or none, leaves the plain query alone (the result is the same as without).

Example:
    >>> from langchain_core.language_models.fake_chat_models import FakeListChatModel
    >>> llm = FakeListChatModel(responses=[
    ...     '{"queries": ["which city does Ann live in"], "answer": "Ann lives in Lyon."}'])
    >>> expand_query("Where is Ann's home?", llm)
    ['which city does Ann live in', 'Ann lives in Lyon.']
    >>> expand_query("Where is Ann's home?", FakeListChatModel(responses=["no idea"]))
    []
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from langgraph_memory.config import RetrievalSection
from langgraph_memory.core.llm import structured_call

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "ExpansionDraft",
    "QueryExpander",
    "expand_query",
    "expander_for",
    "MODES",
    "MAX_QUERIES",
]

Mode = Literal["off", "multi_query", "hyde", "both"]
#: The values of ``retrieval.query_expansion``.
MODES: tuple[str, ...] = ("off", "multi_query", "hyde", "both")
#: The most phrasings ever used, whatever the configuration says.
MAX_QUERIES = 8
#: Queries whose expansions a :class:`QueryExpander` remembers (the same query at
#: several budgets asks the model once).
CACHE_SIZE = 256


class ExpansionDraft(BaseModel):
    """What the model is asked to answer."""

    queries: list[str] = Field(
        default_factory=list,
        max_length=4 * MAX_QUERIES,
        description="other ways to ask the same question, each short",
    )
    answer: str = Field(
        default="", max_length=20_000, description="a short plausible answer, as a memory"
    )


PROMPT = {
    "multi_query": (
        "Rewrite this question to a personal memory system in up to {n} other short ways "
        "(other words, synonyms, the same language). Leave answer empty.\n"
        "用其他说法改写这个问题（同一种语言）。\n\nQuestion: {query}"
    ),
    "hyde": (
        "Write a short plausible answer to this question, as the user or assistant would "
        "have said it in an earlier conversation (a guess is fine; same language). Leave "
        "queries empty.\n为这个问题写一个简短的假设性理想回答（同一种语言）。\n\nQuestion: {query}"
    ),
    "both": (
        "For this question to a personal memory system: give up to {n} other short ways "
        "to ask it (queries), and a short plausible answer as the user or assistant "
        "would have said it in an earlier conversation (answer; a guess is fine). Use the "
        "question's language.\n给出问题的其他说法，以及一个简短的假设性回答。\n\n"
        "Question: {query}"
    ),
}


def _clean(text: object, max_chars: int) -> str:
    """One line of at most ``max_chars`` characters (cut at a space when there is one)."""
    if not isinstance(text, str):
        return ""
    one = " ".join(text.split())
    if len(one) <= max_chars:
        return one
    cut = one[:max_chars]
    space = cut.rfind(" ")
    return cut[:space] if space > max_chars // 2 else cut


def expand_query(
    query: str,
    llm: BaseChatModel,
    *,
    mode: Mode = "both",
    max_queries: int = 3,
    max_chars: int = 400,
) -> list[str]:
    """The extra texts a chat model gives for ``query``: other phrasings and/or a
    hypothetical answer, bounded and deduplicated (the query itself left out).

    Args:
        query: The query.
        llm: Any LangChain chat model (structured output, or JSON in plain text).
        mode: ``"multi_query"``, ``"hyde"`` or ``"both"`` (``"off"``: none).
        max_queries: The most phrasings kept (at most :data:`MAX_QUERIES`).
        max_chars: Each text is cut to this many characters.

    Returns:
        The texts, phrasings first; ``[]`` when the model fails or answers in another
        shape (the plain query is used alone then).

    Raises:
        ValueError: On an unknown ``mode`` or a bound below 1.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if max_queries < 1 or max_chars < 1:
        raise ValueError("max_queries and max_chars must be at least 1")
    if mode == "off" or not query.strip():
        return []
    n = min(max_queries, MAX_QUERIES)
    draft = structured_call(llm, ExpansionDraft, PROMPT[mode].format(n=n, query=query))
    if draft is None:
        return []
    texts: list[str] = []
    if mode in ("multi_query", "both"):
        texts += [_clean(q, max_chars) for q in draft.queries[:n]]
    if mode in ("hyde", "both"):
        texts.append(_clean(draft.answer, max_chars))
    seen = {" ".join(query.split()).casefold()}
    out = []
    for text in texts:
        key = text.casefold()
        if text and key not in seen:
            seen.add(key)
            out.append(text)
    return out


class QueryExpander:
    """Expands queries with one chat model (see the module docs); remembers the latest
    :data:`CACHE_SIZE` queries' expansions (not a failure: that is asked again).

    Args:
        llm: The chat model.
        mode: What to ask for.
        max_queries: The most phrasings kept.
        max_chars: Each text's cut.
    """

    def __init__(
        self, llm: BaseChatModel, mode: Mode, *, max_queries: int = 3, max_chars: int = 400
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        self.llm = llm
        self.mode: Mode = mode
        self.max_queries = max_queries
        self.max_chars = max_chars
        self._cache: OrderedDict[str, list[str]] = OrderedDict()
        self._lock = threading.Lock()

    def expand(self, query: str) -> list[str]:
        """The extra texts for ``query`` (``[]`` when off, or when the model fails)."""
        if self.mode == "off":
            return []
        with self._lock:
            if query in self._cache:
                self._cache.move_to_end(query)
                return list(self._cache[query])
        texts = expand_query(
            query,
            self.llm,
            mode=self.mode,
            max_queries=self.max_queries,
            max_chars=self.max_chars,
        )
        if texts:  # a failure is asked again next time (it may pass)
            with self._lock:
                self._cache[query] = texts
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        return list(texts)


def expander_for(llm: BaseChatModel | None, retrieval: RetrievalSection) -> QueryExpander | None:
    """The expander ``retrieval`` asks for (``query_expansion`` and its bounds), or
    ``None`` without a model or when it is ``"off"``.

    Example:
        >>> expander_for(None, RetrievalSection(query_expansion="hyde")) is None
        True
    """
    if llm is None or retrieval.query_expansion == "off":
        return None
    return QueryExpander(
        llm,
        retrieval.query_expansion,
        max_queries=retrieval.expansion_queries,
        max_chars=retrieval.expansion_chars,
    )
