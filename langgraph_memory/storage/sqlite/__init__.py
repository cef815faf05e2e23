"""The SQLite store (the default): the backend (:mod:`.backend`), its SQL
(:mod:`.sql`), connections (:mod:`.conn`), posting lists (:mod:`.lexical`), the entry
index (:mod:`.entries`) and the checks that refuse a damaged file (:mod:`.health`,
:mod:`.openmark`).
"""
