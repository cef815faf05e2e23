"""Knowledge: episodes that share a target consolidated into knowledge
(:mod:`.consolidation`), and documents split into cited, versioned chunks
(:mod:`.documents`, :mod:`.chunking`).
"""
