"""The ``langgraph-memory`` command line: commands (:mod:`.commands`), rendering
(:mod:`.render`), documents (:mod:`.docs`) and the terminal-safe console every line
of it is printed on (:mod:`.terminal`).
"""
