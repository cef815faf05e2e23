"""How statements stand among a context's messages: by shared terms, and how far a value
stands above the others'.

:mod:`~langgraph_memory.read.recency` judges whether two of the user's statements answer
one question by how their similarities stand out from the rest of the context
(:func:`lifts`); for a query the embedding model does not read, the similarities are
those of their sets of words (:func:`term_similarities`).

Example:
    >>> import numpy as np
    >>> [round(float(x), 1) for x in lifts(np.array([0.9, 0.1, 0.2, 0.1, 0.15]), 0)]
    [20.3, -1.0, 1.7, -1.0, 0.3]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from langgraph_memory.core.tokens import tokenize

__all__ = ["SPREAD", "lifts", "term_similarities"]

#: The least spread :func:`lifts` divides by.
SPREAD = 0.05


def lifts(values: np.ndarray, answer: int) -> np.ndarray:
    """How far each value stands above the others (all but itself and ``answer``'s), in
    their standard deviations (at least :data:`SPREAD`: a context whose other messages
    are all alike does not make any difference huge)."""
    rest = np.delete(values, answer)
    n = len(rest) - 1  # the others of each value
    mean = (rest.sum() - values) / n
    var = np.maximum((np.square(rest).sum() - np.square(values)) / n - np.square(mean), 0.0)
    return (values - mean) / np.maximum(np.sqrt(var), SPREAD)


def term_similarities(texts: Sequence[str], query: str) -> tuple[np.ndarray, np.ndarray]:
    """Similarities by shared terms (the tokeniser's: jieba's words for Chinese), for a
    query the embedding model does not read: each text's to the query and the texts' to
    each other (the cosine of their sets of terms).

    Example:
        >>> texts = ["我开的是大众。", "大众卖了，现在开比亚迪。"]
        >>> close, near = term_similarities(texts, "我开什么车？")
        >>> round(float(near[0, 1]), 2)
        0.29
    """
    sets = [set(tokenize(t)) for t in [*texts, query]]
    vocab = {w: k for k, w in enumerate(sorted(set().union(*sets)))}
    mat = np.zeros((len(sets), max(len(vocab), 1)), dtype=np.float32)
    for row, words in enumerate(sets):
        mat[row, [vocab[w] for w in words]] = 1.0
    norms = np.linalg.norm(mat, axis=1)
    mat /= np.where(norms == 0, 1.0, norms)[:, None]
    sims = mat @ mat.T
    return sims[:-1, -1], sims[:-1, :-1]
