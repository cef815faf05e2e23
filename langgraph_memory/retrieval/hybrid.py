"""The one hybrid ranker: a lexical and a dense ranking of candidates, fused by RRF.

Every layer is ranked by it, from candidates of its own: messages by the store's
BM25 and vector search (:mod:`langgraph_memory.read.messages`), long-term entries by
their term overlap with the query and the cosine of their embedding
(:mod:`~langgraph_memory.layers.index.ranking`), store items by BM25 and cosine over
their indexed texts (:mod:`~langgraph_memory.integrations.graph.store_search`). The ranker turns
those rankings into one: weighted reciprocal rank fusion, ``weight / (rrf_k + rank)``
per ranking, with the options the layers need (a fusion depth past which candidates
follow as a tail, shared ranks for equal scores, a normalised score). It can also
combine scores instead of ranks (:meth:`HybridRanker.combine`): the weighted mean of
each ranking's min-max-normalised scores, which tells a close second from a distant one.

Example:
    >>> ranker = HybridRanker(rrf_k=60)
    >>> fused = ranker.fuse({"bm25": [("a", 3.1), ("b", 1.2)], "dense": [("b", 0.9), ("c", 0.4)]})
    >>> [(f.key, round(f.score, 4)) for f in fused]
    [('b', 0.0325), ('a', 0.0164), ('c', 0.0161)]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Generic, Literal, NamedTuple, TypeVar

from langgraph_memory.retrieval.fusion import rrf_fuse

__all__ = ["HybridRanker", "Fused", "Normalise"]

K = TypeVar("K", bound=Hashable)
#: How a fused score is normalised: ``"weights"`` divides by the weights of the rankings
#: fused (ranked ``r`` by all of them: ``1 / (rrf_k + r)``), ``"top"`` by the score of a
#: candidate ranked first by all of them (which scores 1.0).
Normalise = Literal["weights", "top"]


class Fused(NamedTuple, Generic[K]):
    """A candidate as the fusion ranked it."""

    key: K
    score: float
    #: Each ranking's rank of it (``<name>_rank``) and the fused ``rrf`` score.
    parts: dict[str, float]
    #: Fused within the fusion depth; ``False`` for a candidate past it (the tail).
    primary: bool = True


class HybridRanker:
    """Weighted reciprocal rank fusion of named rankings (``"bm25"``, ``"dense"``...).

    Args:
        rrf_k: The RRF constant.
        lexical_weight: Weight of the ``"bm25"`` ranking.
        dense_weight: Weight of the ``"dense"`` ranking.
    """

    def __init__(
        self, *, rrf_k: int = 60, lexical_weight: float = 1.0, dense_weight: float = 1.0
    ) -> None:
        self.rrf_k = rrf_k
        self.weights = {"bm25": lexical_weight, "dense": dense_weight}

    def combine(
        self,
        scores: Mapping[str, Mapping[K, float]],
        floors: Mapping[str, float] | None = None,
    ) -> list[tuple[K, float]]:
        """One ranking from several rankings' scores: each candidate scores the weighted
        mean of its min-max-normalised score in each, best first; equal scores keep
        first-seen order.

        Args:
            scores: Per ranking name, each candidate's score (higher is better).
            floors: Per ranking name, the score that normalises to 0 (a score at or
                below it counts 0, as does a candidate the ranking lacks); default the
                lower of 0 and the ranking's lowest score.

        Example:
            >>> ranker = HybridRanker()
            >>> ranked = ranker.combine({"bm25": {"a": 9.0, "b": 1.0},
            ...                          "dense": {"a": 0.2, "b": 0.6, "c": 0.5}},
            ...                         floors={"dense": 0.2})
            >>> [(key, round(s, 3)) for key, s in ranked]
            [('b', 0.556), ('a', 0.5), ('c', 0.375)]
        """
        keys = list(dict.fromkeys(key for ranked in scores.values() for key in ranked))
        total = sum(self.weights.get(name, 1.0) for name in scores) or 1.0
        combined = dict.fromkeys(keys, 0.0)
        for name, ranked in scores.items():
            if not ranked:
                continue
            weight = self.weights.get(name, 1.0) / total
            low = (floors or {}).get(name, min(0.0, *ranked.values()))
            span = max(ranked.values()) - low
            if span <= 0:
                continue
            for key, score in ranked.items():
                if score > low:
                    combined[key] += weight * (score - low) / span
        return sorted(combined.items(), key=lambda kv: -kv[1])

    def fuse(
        self,
        rankings: Mapping[str, Sequence[tuple[K, float]]],
        *,
        depth: int | None = None,
        k: int | None = None,
        tail_factor: float = 0.1,
        shared_ties: bool = False,
        normalise: Normalise | None = None,
    ) -> list[Fused[K]]:
        """The rankings' candidates fused, best first.

        Args:
            rankings: Named rankings of ``(candidate, score)``, best first; a ranking's
                weight is the ranker's for its name (1 for any other name).
            depth: Fuse only each ranking's best ``depth``, and keep the best ``depth``
                fused as primary candidates; when they are fewer than ``k``, the rest of
                the rankings follow, fused, scored ``tail_factor`` times lower (the tail).
            k: How many candidates are wanted (with ``depth``).
            tail_factor: The tail's score factor.
            shared_ties: Rank equal scores of a ranking equally (1, 2, 2, 4...), and
                order equal fused scores by candidate; else ranks are positions and ties
                keep first-seen order.
            normalise: How the fused score is normalised (see :data:`Normalise`).

        Example:
            >>> r = HybridRanker().fuse({"bm25": [(1, 2.0), (2, 2.0)]}, shared_ties=True,
            ...                         normalise="top")
            >>> [(f.key, f.score) for f in r]
            [(1, 1.0), (2, 1.0)]
        """
        weights = {name: self.weights.get(name, 1.0) for name in rankings}
        if shared_ties:
            fused = self._shared(rankings, weights)
        elif depth is None:
            fused = self._ordinal(rankings, weights)
        else:
            fused = self._ordinal({n: r[:depth] for n, r in rankings.items()}, weights)[:depth]
            if k is not None and len(fused) < k:
                seen = {f.key for f in fused}
                fused += [
                    Fused(f.key, f.score * tail_factor, f.parts, False)
                    for f in self._ordinal(rankings, weights)
                    if f.key not in seen
                ]
        if normalise is None or not fused:
            return fused
        total = sum(w if normalise == "weights" else w / (self.rrf_k + 1) for w in weights.values())
        out = []
        for f in fused:
            if normalise == "weights":
                f.parts["rrf"] = f.score / total
            out.append(Fused(f.key, f.score / total, f.parts, f.primary))
        if shared_ties:
            out.sort(key=lambda f: (-f.score, f.key))  # type: ignore[operator]
        return out

    def _ordinal(
        self, rankings: Mapping[str, Sequence[tuple[K, float]]], weights: Mapping[str, float]
    ) -> list[Fused[K]]:
        keys = {name: [key for key, _ in ranked] for name, ranked in rankings.items()}
        return [
            Fused(key, score, parts)
            for key, score, parts in rrf_fuse(keys, k=self.rrf_k, weights=weights)
        ]

    def _shared(
        self, rankings: Mapping[str, Sequence[tuple[K, float]]], weights: Mapping[str, float]
    ) -> list[Fused[K]]:
        scores: dict[K, float] = {}
        parts: dict[K, dict[str, float]] = {}
        for name, ranked in rankings.items():
            for key, rank in _shared_ranks(ranked).items():
                scores[key] = scores.get(key, 0.0) + weights[name] / (self.rrf_k + rank)
                parts.setdefault(key, {})[f"{name}_rank"] = float(rank)
        order = sorted(scores, key=lambda key: (-scores[key], key))  # type: ignore[operator]
        return [Fused(key, scores[key], {**parts[key], "rrf": scores[key]}) for key in order]


def _shared_ranks(ranked: Sequence[tuple[K, float]]) -> dict[K, int]:
    """Competition ranks (1, 2, 2, 4...): equal scores share the better rank."""
    ordered = sorted((score for _, score in ranked), reverse=True)
    first: dict[float, int] = {}
    for pos, s in enumerate(ordered, start=1):
        first.setdefault(s, pos)
    return {key: first[score] for key, score in ranked}
