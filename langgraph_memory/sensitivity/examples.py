"""A value marked as an example is no secret: ``password: P@ssw0rd (example only)``,
``e.g. password: Hunter22``, ``sample token: Zx81Qa77``, ``密码：Abc12345（示例）``,
``比如密码设成 Abc12345``, ``例如：口令是 tiger2026``.

A mark is one of two kinds:

- **after the value**, in brackets or after a dash or a comma: ``(example)``, ``(just an
  example)``, ``— sample only``, ``, e.g.``, ``(dummy)``, ``(not real)``, ``（示例）``,
  ``（仅作示例）``, ``，只是举个例子``, ``（假的）``;
- **before it**, in the same clause and at most 48 characters before the value:
  ``e.g.``, ``for example``, ``for instance``, ``such as``, ``example``, ``sample``,
  ``dummy``, ``fake``, ``例如``, ``比如``, ``譬如``, ``举例``, ``示例``, ``样例``, ``范例``,
  ``例子``.

A mark before the value does not hold when the speaker owns what follows (``e.g. my
password is x``, ``for example when I set the password to x``, ``比如我家 wifi 密码是 x``):
that is a real case given as an example, so its value is still a secret. An example's
domain is no mark (``admin@example.com password: x``), nor is a sentence before the
value's (``Here is an example. password: x``).

Example:
    >>> text = "password: P@ssw0rd (example only)"
    >>> marked_as_example(text, 10, 18)
    True
    >>> text = "e.g. my password is Hunter22"
    >>> marked_as_example(text, 20, 28)
    False
"""

from __future__ import annotations

import re
from collections.abc import Collection

from langgraph_memory.sensitivity.patterns import Span

__all__ = ["drop_examples", "marked_as_example", "may_mark_examples"]

#: Pieces of the marks, looked for before any pattern runs (most texts hold none).
_HINTS = (
    "exam", "e.g", "eg.", "sampl", "instance", "such as", "dummy", "fake", "not real",
    "made up", "made-up", "例", "比如", "譬如", "示范", "演示", "假的", "虚构",
)  # fmt: skip

_EXAMPLE_EN = (
    r"(?:(?:just|only|purely|merely)[ \t]+)?(?:(?:this|that|it)[ \t]*(?:is|'s)[ \t]+)?"
    r"(?:(?:just|only|purely|merely)[ \t]+)?(?:an?[ \t]+|for[ \t]+)?"
    r"(?:example|e\.g\.?|eg\.|sample|instance|illustration|dummy|fake|made[ \-]up"
    r"|not[ \t]+(?:a[ \t]+|the[ \t]+)?real)(?![a-z])"
)
_EXAMPLE_ZH = (
    r"(?:仅|僅|只是|只|仅为|仅作|僅作|仅供|作为|作為|这是|這是|是)?(?:举个|舉個|举|舉)?(?:一个|一個|个|個)?"
    r"(?:示例|例子|样例|樣例|范例|範例|示范|示範|举例|舉例|演示|比方|假的|虚构|虛構)"
)
#: A mark after the value: an aside in brackets, or after a dash or a comma.
_AFTER = re.compile(
    r"[ \t]*(?:\([ \t]*|[—–\-][ \t]*|,[ \t]*)(?:(?i:" + _EXAMPLE_EN + ")|" + _EXAMPLE_ZH + ")"
)
#: A mark before the value (an English word not part of a name: ``example.com``).
_BEFORE = re.compile(
    r"(?<![\w@./\-])(?i:e\.g\.|eg\.|for[ \t]+example|for[ \t]+instance|such[ \t]+as"
    r"|examples?|samples?|dummy|fake)(?![\w\-]|\.[A-Za-z])"
    r"|例如|比如|譬如|举例|舉例|示例|样例|樣例|范例|範例|例子"
)
#: What ends the mark's clause: a sentence's end or a line break (``e.g.`` ends in a dot
#: of its own, and is no sentence's end).
_CLAUSE_END = re.compile(r"[.!?;。！？；\n](?:[ \t]|$)|[。！？；\n]")
#: An owner of the value: the speaker's own case given as an example.
_OWNER = re.compile(
    r"(?<![A-Za-z])(?i:my|mine|our|ours|i|i'm|i've|we|we're|us|me)(?![A-Za-z])|我|咱"
)

_LOOK_BACK = 48


def may_mark_examples(text: str) -> bool:
    """Whether ``text`` holds a piece of an example's mark (a cheap look first).

    Example:
        >>> may_mark_examples("password: x (e.g.)"), may_mark_examples("password: x")
        (True, False)
    """
    low = text.lower()
    return any(hint in low for hint in _HINTS)


def marked_as_example(text: str, start: int, end: int) -> bool:
    """Whether the value at ``text[start:end]`` is marked as an example (see the module
    docs); a bracket inside the span (``P@ssw0rd（示例）`` read whole) is its aside."""
    bracket = text.find("(", start + 1, end)
    if _AFTER.match(text, bracket if bracket > start else end) is not None:
        return True
    lo = max(0, start - _LOOK_BACK)
    marks = list(_BEFORE.finditer(text, lo, start))
    if not marks:
        return False
    between = text[marks[-1].end() : start]
    return _CLAUSE_END.search(between) is None and _OWNER.search(between) is None


def drop_examples(text: str, spans: list[Span], kinds: Collection[str]) -> list[Span]:
    """``spans`` less those of ``kinds`` whose value ``text`` marks as an example.

    Example:
        >>> drop_examples("e.g. password: abc123", [(15, 21, "secret", "keyword")], {"secret"})
        []
    """
    if not any(s[2] in kinds for s in spans) or not may_mark_examples(text):
        return spans  # (most texts hold no span, and most of the rest no mark)
    return [s for s in spans if s[2] not in kinds or not marked_as_example(text, s[0], s[1])]
