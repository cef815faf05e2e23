"""Long-term entries ranked like messages: each record kind renders itself
(:mod:`.kinds`), the entry index keeps their terms and vectors (:mod:`.entries`) and ranks
them by words and meaning (:mod:`.ranking`); long messages are indexed as passages too
(:mod:`.passages`).
"""
