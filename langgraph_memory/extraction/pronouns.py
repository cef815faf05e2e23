"""A pronoun is never a slot's value: the person it stands for, or nothing.

"Jason接了那个位置，现在我每周一向他汇报" gives the manager slot 他 by its form (向X汇报), and
"Met Dan today. He's my new manager." gives "He". A value that is a pronoun is resolved to
the person named last before it in the same message (a capitalised name, a titled Chinese
name such as 李姐 or 老王, or a person the entity finder knows); with none named, the slot
gets no value.

Example:
    >>> resolved("Jason接了那个位置，现在我每周一向他汇报", [("manager", "他", 19)])
    [('manager', 'Jason', 0)]
    >>> resolved("He's my new manager.", [("manager", "He", 0)])
    []
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.entities import SURNAMES, find_entities

__all__ = ["is_pronoun", "resolved"]

Slot = tuple[str, str, int]

_PRONOUN = re.compile(
    r"(?:he|she|him|her|they|them|it|his|hers|their|this|that|"
    r"他|她|它|他们|她们|它们|您|你|这|那|这个|那个|这位|那位|此人)",
    re.I,
)
#: A capitalised word that names no one: sentence openers, days, months, pronouns.
_NOT_NAME = re.compile(
    r"(?:I|I'm|I've|I'd|I'll|My|Our|The|We|It|This|That|He|She|They|His|Her|Met|So|And|But|"
    r"Also|Just|OK|Ok|Lol|LOL|Mr|Mrs|Ms|Dr|Today|Yesterday|Monday|Tuesday|Wednesday|"
    r"Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|"
    r"September|October|November|December)$"
)
_LATIN_NAME = re.compile(r"(?<![A-Za-z])[A-Z][a-z][a-zA-Z'-]*(?![a-zA-Z])")
_ZH_TITLED = re.compile(
    rf"(?:老|小|阿)[{''.join(sorted(SURNAMES))}]|"
    rf"[{''.join(sorted(SURNAMES))}](?:姐|哥|总|工|老师|经理|主管|医生)"
)


def is_pronoun(value: str) -> bool:
    """Whether a slot value is a pronoun ("He", "他", "them") rather than a name.

    Example:
        >>> is_pronoun("他"), is_pronoun("She"), is_pronoun("Sheila")
        (True, True, False)
    """
    return _PRONOUN.fullmatch(value.strip()) is not None


def _referent(said: str, at: int) -> tuple[str, int] | None:
    """The person named last before offset ``at`` of ``said``, if any."""
    head = said[:at]
    names: list[tuple[int, str]] = []
    for m in _LATIN_NAME.finditer(head):
        # an English sentence's first word is capitalised whatever it is
        opener = not is_cjk_text(said) and re.search(r"(?:^|[.!?]\s+)$", head[: m.start()])
        if not _NOT_NAME.match(m[0]) and not opener:
            names.append((m.start(), m[0]))
    names += [(m.start(), m[0]) for m in _ZH_TITLED.finditer(head)]
    names += [(a, n) for a, n, kind in find_entities(head) if kind == "person"]
    if not names:
        return None
    start, name = max(names)
    return name, start


def resolved(said: str, found: list[Slot]) -> list[Slot]:
    """``found`` (slots of ``said``) with each value that is a pronoun replaced by the
    person named last before it, or dropped when the message names none."""
    out: list[Slot] = []
    for key, value, at in found:
        if is_pronoun(value):
            ref = _referent(said, at)
            if ref is None:
                continue
            value, at = ref
        out.append((key, value, at))
    return out
