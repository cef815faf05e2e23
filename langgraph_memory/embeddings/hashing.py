"""A dependency-free stand-in for an embedding model (the hashing trick), for tests.

Example:
    >>> emb = HashingEmbeddings(dim=8)
    >>> len(emb.embed_query("hello world"))
    8
"""

from __future__ import annotations

import hashlib
import re

import numpy as np
from langchain_core.embeddings import Embeddings

from langgraph_memory.core.tokens import tokenize

__all__ = ["HashingEmbeddings"]


class HashingEmbeddings(Embeddings):
    """A tiny, dependency-free bag-of-words embedder (the hashing trick).

    Not a semantic model: texts sharing words get similar vectors. Useful for
    tests, notebooks and machines without the model wheel.

    Args:
        dim: Vector length.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim <= 0:
            raise ValueError("HashingEmbeddings: dim must be > 0")
        self.dim = dim
        self.model_id = f"hashing-{dim}"

    def _one(self, text: str) -> list[float]:
        vec = np.zeros(self.dim, dtype=np.float32)
        for term in tokenize(text) or re.findall(r"\S+", text.lower()):
            h = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "little")
            vec[h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        return (vec / norm).tolist() if norm else vec.tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)
