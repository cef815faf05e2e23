"""One relevance in ``[0, 1]`` for every hit and context item, comparable across layers.

Ranking scores are made for ordering within one ranking: reciprocal ranks (``1/61``
for the first of every layer), min-max-normalised hybrids (``1.0`` for the best hit,
however poor), boosts. None of them says how relevant a hit is, so no threshold works
on them. The relevance here is read from the evidence a hit has, the same way for
every layer (see :func:`~langgraph_memory.retrieval.scoring.calibrated_relevance`):

- its **cosine** with the query (the best of the text's and its matched passage's; a
  stored message ranked without one has its stored vector's, a timeline its closest
  line's, and another text ranked without one is embedded here, in process only),
- its **coverage** of the query's content words (the share of the query's terms the
  text has),
- a cross-encoder's score when one reranked it.

Unrelated texts score near 0, a text close in meaning or carrying the query's words
high, whatever layer it comes from; ``benchmarks/locomo_recall.py --calibration``
prints how well it separates the turns that answer a question from the rest.

Example:
    >>> from langgraph_memory.config import RetrievalSection
    >>> rel = Relevance(["coffee", "tea"], RetrievalSection())
    >>> rel.coverage("I drink coffee every morning")
    0.5
    >>> rel.of("I drink coffee every morning", {"cosine": 0.6}) > 0.8
    True
    >>> round(rel.of("The cat sleeps", {"cosine": 0.01}), 3)
    0.007
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np

from langgraph_memory.config import RetrievalSection
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.retrieval.scoring import calibrated_relevance

__all__ = ["Relevance", "cosine_of"]

_ROLE = re.compile(r"^(?:user|assistant|system|tool|human|ai):\s*", re.I)
_LABEL = re.compile(r"^[^\"“「:：]{1,60}[:：]\s*(?=[\"“「])")
#: Score parts that hold a cosine with the query (the best of them counts).
COSINE_PARTS = ("cosine", "passage_cosine")


def cosine_of(parts: Mapping[str, float]) -> float | None:
    """The best cosine with the query a hit's ``parts`` record (``None``: none).

    Example:
        >>> cosine_of({"cosine": 0.2, "passage_cosine": 0.5}), cosine_of({"rrf": 0.1})
        (0.5, None)
    """
    found = [float(parts[k]) for k in COSINE_PARTS if k in parts]
    return max(found) if found else None


class Relevance:
    """One query's calibrated relevance.

    Args:
        terms: The query's terms (:func:`~langgraph_memory.core.tokens.tokenize`).
        retrieval: The calibration (``relevance_*`` fields).
        embed_cosines: Cosines of texts with the query, for texts ranked without one
            (``None``: such texts have lexical evidence only).
        own: The terms the query itself says (default: all of ``terms``): they count
            one each; the others, words a slot lexicon added for it
            (:func:`~langgraph_memory.core.lexicon.query_terms`: 工作 → 工程师, 公司…),
            stand in for one missing word together.
        dense: Whether cosines are evidence at all: not for a query the model cannot
            read (a Chinese query with an English-only model, where every pair scores
            0.55-0.65), whose relevance is its words alone.
    """

    def __init__(
        self,
        terms: Collection[str],
        retrieval: RetrievalSection,
        embed_cosines: Callable[[Sequence[str]], np.ndarray] | None = None,
        *,
        own: Collection[str] | None = None,
        dense: bool = True,
    ) -> None:
        self.terms = frozenset(terms)
        self._own = (self.terms & frozenset(own) if own is not None else self.terms) or self.terms
        self._added = self.terms - self._own
        self.retrieval = retrieval
        self.dense = dense
        self._embed_cosines = embed_cosines if dense else None

    def coverage(self, text: str) -> float:
        """The share of the query's terms that ``text`` has (0 for a query without any);
        a context line's role label (``user:``, ``assistant:``) and the label before an
        entry's quote (``About the user (location): "…"``) are no evidence."""
        if not self.terms:
            return 0.0
        text = _LABEL.sub("", _ROLE.sub("", text, count=1), count=1)
        words = set(tokenize(text))
        found = len(self._own & words) + bool(self._added & words)
        return min(found, len(self._own)) / len(self._own)

    def of(self, text: str, parts: Mapping[str, float], cosine: float | None = None) -> float:
        """The relevance of ``text`` given its score ``parts`` (or ``cosine``)."""
        cfg = self.retrieval
        if not self.dense:
            cosine = None
        elif cosine is None:
            cosine = cosine_of(parts)
        return calibrated_relevance(
            cosine,
            self.coverage(text),
            parts.get("rerank_score"),
            cosine_mid=cfg.relevance_cosine_mid,
            cosine_scale=cfg.relevance_cosine_scale,
            lexical_weight=cfg.relevance_lexical_weight,
        )

    def of_many(
        self,
        texts: Sequence[str],
        parts: Sequence[Mapping[str, float]],
        known: Sequence[float | None] | None = None,
    ) -> list[float]:
        """:meth:`of` for each text; the cosines missing from ``parts`` are taken from
        ``known`` (one per text, ``None`` where unknown: e.g. a stored message's vector
        with the query), and those still missing computed in one batch (when this
        relevance can embed).

        Example:
            >>> from langgraph_memory.config import RetrievalSection
            >>> rel = Relevance(["coffee"], RetrievalSection(), lambda texts: 1 / 0)
            >>> [round(x, 3) for x in rel.of_many(["tea", "coffee"], [{}, {}], [0.01, 0.6])]
            [0.007, 0.973]
        """
        # what rides along records its closeness: a cosine when this relevance embeds
        dense = self._embed_cosines is not None
        cosines: list[float | None] = [
            cosine_of(p) if "closeness" not in p or not dense else float(p["closeness"])
            for p in parts
        ]
        if known is not None and dense:
            cosines = [k if c is None else c for c, k in zip(cosines, known, strict=True)]
        missing = [i for i, c in enumerate(cosines) if c is None]
        if missing and self._embed_cosines is not None:
            found = self._cosines([texts[i] for i in missing])
            for i, c in zip(missing, found, strict=True):
                cosines[i] = c
        return [self.of(t, p, c) for t, p, c in zip(texts, parts, cosines, strict=True)]

    def _cosines(self, texts: Sequence[str]) -> list[float | None]:
        """Cosines of ``texts`` with the query; a text the model rejects (raises on, or
        gives an unusable vector for) gets none, so it keeps its lexical evidence and a
        read never fails on one stored text (as the write path quarantines it)."""
        assert self._embed_cosines is not None
        try:
            return [_finite(c) for c in self._embed_cosines(texts)]
        except Exception:
            if len(texts) == 1:
                return [None]
        # one by one (the good ones are cached by now): only the rejected get none
        return [self._cosines([t])[0] for t in texts]


def _finite(c: object) -> float | None:
    value = float(c)  # type: ignore[arg-type]
    return value if np.isfinite(value) else None
