"""Mid-term memory: per user, segments of similar pages ranked by heat
(:mod:`.segments`), and the summaries of chains and segments (:mod:`.summaries`).
"""
