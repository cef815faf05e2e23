"""Retrieval: BM25, dense cosine and reciprocal rank fusion.

The hybrid retriever itself is in :mod:`langgraph_memory.retrieval.hybrid`.
"""

from langgraph_memory.retrieval.bm25 import bm25_scores
from langgraph_memory.retrieval.fusion import rrf_fuse
from langgraph_memory.retrieval.vectors import VectorMatrix

__all__ = ["bm25_scores", "rrf_fuse", "VectorMatrix"]
