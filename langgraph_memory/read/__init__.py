"""The read path: one orchestration for ``search`` and ``build_context``
(:mod:`.pipeline`), one query's retrieval over every layer (:mod:`.query`), context
items (:mod:`.candidates`), their scores (:mod:`.rescoring`), packing into the token
budget (:mod:`.packing`) and per-layer counts (:mod:`.stats`)."""
