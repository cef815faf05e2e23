"""The memory in other hands: LangGraph nodes, checkpointer, store and tools, and
LangChain's middleware (:mod:`.graph`), a LangChain retriever (:mod:`.retriever`), and the
command line (:mod:`.cli`). They use the manager's public surface only.
"""
