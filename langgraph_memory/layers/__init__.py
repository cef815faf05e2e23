"""The memory's layers: short-term pages in topic chains (:mod:`.short_term`), mid-term
segments ranked by heat (:mod:`.mid_term`), the hierarchy that places, promotes and
erases across them (:mod:`.hierarchy`), long-term profile, facts, traits, entities,
reflection and roll-ups (:mod:`.long_term`), working memory's tasks, episodes and anchors
with the forget gate (:mod:`.working`), knowledge consolidated from episodes and read from
documents (:mod:`.knowledge`), and the index that ranks long-term entries like messages
(:mod:`.index`). Each folder imports only those listed after it (the import contract in
``pyproject.toml``).
"""
