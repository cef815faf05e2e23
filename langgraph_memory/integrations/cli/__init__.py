"""The ``langgraph-memory`` command line: commands (:mod:`.commands`), rendering
(:mod:`.render`) and documents (:mod:`.docs`).
"""
