"""Memory atoms read from what the user says: preferences, standing instructions, facts,
decisions, tasks, entities and relations, by English and Chinese rules (:mod:`.rules`,
:mod:`.entities`) or by a chat model's structured output (:mod:`.llm`), one extractor
over both (:mod:`.extractor`).
"""
