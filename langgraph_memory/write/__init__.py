"""The write path: validation, the durable queue and the store (:mod:`.pipeline`), the
background worker (:mod:`.worker`) under the writer lease (:mod:`.lease`), the embedder
(:mod:`.embedder`), quarantined messages (:mod:`.quarantine`) and the access counts the
reads leave (:mod:`.access`).
"""
