"""The PostgreSQL + pgvector store: the backend (:mod:`.backend`), its SQL and schema
(:mod:`.sql`, :mod:`.schema`), connections and migrations (:mod:`.conn`), BM25 over
posting lists (:mod:`.lexical`), the entry index (:mod:`.entries`), the claim queue
(:mod:`.queue`) and deletion (:mod:`.deletion`).
"""
