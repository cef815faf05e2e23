"""Long-term memory: the user profile (:mod:`.profile`), facts with their validity
(:mod:`.facts`), agent traits (:mod:`.memory`), contradictions (:mod:`.contradictions`),
entities and relations (:mod:`.entities`), day and week roll-ups (:mod:`.rollups`), and
lessons and insights (:mod:`.reflection`).
"""
