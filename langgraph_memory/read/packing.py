"""Packing candidates into a token budget: best first, each once, never over budget.

The packer counts the rendered prompt exactly (header, date-group lines and
item lines), so a context uses its whole budget and never exceeds it.

Example:
    >>> from langgraph_memory.core.context import ContextItem
    >>> a = ContextItem("message", "Alice: hi", 0, 1.0, {}, ["m1"], "", group="2024-01-02")
    >>> p = Packer(100)
    >>> [it.source_ids for it in p.take([a])]
    [['m1']]
    >>> p.tokens <= 100
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import get_args

from langgraph_memory.core.context import HEADER, ContextItem, group_line, item_line
from langgraph_memory.core.tokens import count_cjk
from langgraph_memory.layers.index.ranking import LongTermLayer

__all__ = ["Packer", "STATEMENT_LAYERS"]

#: Layers whose items are statements drawn from messages rather than the messages.
#: (every long-term layer, and what rides along from working memory)
STATEMENT_LAYERS = frozenset({"anchor", "task", *get_args(LongTermLayer)})


class Packer:
    """Greedy, exact token packing.

    Args:
        budget: Tokens the rendered prompt may take.
        shown: Ids of messages the reader has anyway: an item quoting only those is
            not new (a statement drawn from them still is).
    """

    def __init__(self, budget: int, shown: Iterable[str] = ()) -> None:
        self.budget = budget
        self.items: list[ContextItem] = []
        self._covered: set[str] = set(shown)
        self._groups: set[str] = set()
        self._cjk = count_cjk(HEADER)
        self._other = len(HEADER) - self._cjk

    @property
    def tokens(self) -> int:
        """Tokens of the prompt rendered from the items taken so far."""
        if not self.items:
            return 0
        return self._cjk + -(-self._other // 4)

    def share(self, share: float) -> int:
        """The limit that lets the next items take ``share`` of the budget beyond what
        the context holds now (a limit for :meth:`add` and :meth:`take`)."""
        return self.tokens + int(self.budget * share)

    def _delta(self, item: ContextItem) -> tuple[int, int]:
        lines = "\n" + item_line(item.text)
        if item.group is not None and item.group not in self._groups:
            lines += "\n" + group_line(item.group)
        cjk = count_cjk(lines)
        return cjk, len(lines) - cjk

    def covers(self, item: ContextItem) -> bool:
        """Whether ``item`` would bring nothing new (see :meth:`add`)."""
        return self._keys(item) <= self._covered

    @staticmethod
    def _keys(item: ContextItem) -> set[str]:
        return {f"text:{item.text}"} if item.layer in STATEMENT_LAYERS else set(item.source_ids)

    def add(self, item: ContextItem, limit: int | None = None) -> bool:
        """Take ``item`` if it is new and fits within ``limit`` (default: the budget).

        Messages and the summaries quoting them are new when they bring a message not
        in the context yet; a statement drawn from messages (a profile entry, a fact,
        an episode...) is new when its text is: it says something its sources do not
        say in so many words, so neither hides the other.
        """
        keys = self._keys(item)
        if keys <= self._covered:
            return False
        cjk, other = self._delta(item)
        total = self._cjk + cjk + -(-(self._other + other) // 4)
        if total > min(self.budget, limit if limit is not None else self.budget):
            return False
        self._cjk += cjk
        self._other += other
        self.items.append(item)
        self._covered.update(keys)
        if item.group is not None:
            self._groups.add(item.group)
        return True

    def take(
        self, candidates: Iterable[ContextItem], limit: int | None = None, *, by_score: bool = True
    ) -> list[ContextItem]:
        """Take the candidates that fit, best score first (or in the given order).

        A candidate whose sources are all covered is skipped; one that does not
        fit is skipped, and smaller ones after it may still be taken.

        Returns:
            The items taken by this call.
        """
        ordered = sorted(candidates, key=lambda it: -it.score) if by_score else candidates
        return [it for it in ordered if self.add(it, limit)]
