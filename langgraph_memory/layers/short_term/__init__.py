"""Short-term memory: pages (a user message and its reply, :mod:`.pages`) in a session's
FIFO, linked into topic chains (:mod:`.sessions`).
"""
