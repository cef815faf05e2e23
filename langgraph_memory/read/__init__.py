"""The read path: one orchestration for ``search`` and ``build_context`` (:mod:`.pipeline`),
context items (:mod:`.candidates`), their scores (:mod:`.rescoring`), packing into the
token budget (:mod:`.packing`) and per-layer counts (:mod:`.stats`)."""

from .pipeline import LAYERS, ReadPipeline, Retrieval

__all__ = ["ReadPipeline", "Retrieval", "LAYERS"]
