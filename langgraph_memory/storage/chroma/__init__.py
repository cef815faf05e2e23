"""The Chroma store: the backend (:mod:`.backend`) over a client's collections
(:mod:`.store`), with records (:mod:`.records`) and vectors (:mod:`.vectors`).
"""
