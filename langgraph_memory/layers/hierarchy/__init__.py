"""The hierarchy in motion: embedded messages placed into pages, chains and segments
(:mod:`.placement`), kept as records (:mod:`.records`), placed again after a crash
(:mod:`.recovery`), kept coherent across processes (:mod:`.coherence`), taken out again
when deleted (:mod:`.erasure`), and distilled into long-term and working memory
(:mod:`.promotion`).
"""
