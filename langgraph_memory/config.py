"""Configuration of a :class:`~langgraph_memory.MemoryManager`, in sections.

Every tunable parameter lives in one section, documented and validated beside its
fields: :class:`WriteSection` (limits, the embedder's batches, the write gate),
:class:`RetrievalSection` (hybrid ranking, fusion, routing, reranking),
:class:`PackingSection` (the token budget and its shares), :class:`HierarchySection`
(short-term pages and chains, mid-term segments and heat), :class:`LongTermSection`
(preference confidence, long-term ranking) and :class:`LifecycleSection` (the forget
gate and consolidation). :class:`MemoryConfig` is all of them at once: its flat
keyword names are every section's fields, and ``cfg.retrieval`` (and its kin) gives a
section back. A config is immutable; derive a variant with :func:`dataclasses.replace`.
Defaults are the design documents'.

Example:
    >>> from langgraph_memory import MemoryConfig
    >>> cfg = MemoryConfig(rrf_k=60, default_token_budget=1024)
    >>> cfg.rrf_k, cfg.packing.default_token_budget
    (60, 1024)
    >>> MemoryConfig.from_sections(RetrievalSection(rrf_k=30), show_dates=False).rrf_k
    30
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar, overload

from langgraph_memory.config_sections import (
    HierarchySection,
    LifecycleSection,
    LongTermSection,
    PackingSection,
    RetrievalSection,
    Section,
    WriteSection,
)

__all__ = [
    "MemoryConfig",
    "WriteSection",
    "RetrievalSection",
    "PackingSection",
    "HierarchySection",
    "LongTermSection",
    "LifecycleSection",
    "SECTIONS",
]

_S = TypeVar("_S")


class _SectionView(Generic[_S]):
    """``config.<section>``: that section of a config, as a section object of its own."""

    def __init__(self, section: type[_S]) -> None:
        self.section = section
        self.__doc__ = f"The {section.__name__} of this config."

    @overload
    def __get__(self, obj: None, owner: type) -> _SectionView[_S]: ...

    @overload
    def __get__(self, obj: object, owner: type) -> _S: ...

    def __get__(self, obj: object | None, owner: type) -> _SectionView[_S] | _S:
        if obj is None:
            return self
        names = [f.name for f in fields(self.section)]  # type: ignore[arg-type]
        return self.section(**{name: getattr(obj, name) for name in names})


#: The sections, in the order :class:`MemoryConfig` validates them.
SECTIONS: tuple[type[Section], ...] = (
    WriteSection,
    RetrievalSection,
    PackingSection,
    HierarchySection,
    LongTermSection,
    LifecycleSection,
)


@dataclass(frozen=True)
class MemoryConfig(
    LifecycleSection,
    LongTermSection,
    HierarchySection,
    PackingSection,
    RetrievalSection,
    WriteSection,
):
    """Parameters of the memory system: every section's fields, by their flat names
    (all optional; defaults are sensible). See each section for its fields.

    Raises:
        TypeError: When a field has the wrong type (the message names it).
        ValueError: When a field is out of its range (the message names it).

    Example:
        >>> cfg = MemoryConfig(rrf_k=30, heat_threshold=4.0)
        >>> cfg.retrieval.rrf_k, cfg.hierarchy.heat_threshold
        (30, 4.0)
    """

    def __post_init__(self) -> None:
        for section in SECTIONS:
            section.validate(self)

    @classmethod
    def from_sections(cls, *sections: Section, **overrides: Any) -> MemoryConfig:
        """A config from section objects, then flat ``overrides``.

        Raises:
            TypeError: When an argument is not a section, or an override no field.
        """
        values: dict[str, Any] = {}
        for section in sections:
            if not isinstance(section, SECTIONS):
                raise TypeError(f"not a config section: {type(section).__name__}")
            values.update({f.name: getattr(section, f.name) for f in fields(section)})  # type: ignore[arg-type]
        return cls(**{**values, **overrides})

    write = _SectionView(WriteSection)
    retrieval = _SectionView(RetrievalSection)
    packing = _SectionView(PackingSection)
    hierarchy = _SectionView(HierarchySection)
    long_term = _SectionView(LongTermSection)
    lifecycle = _SectionView(LifecycleSection)
