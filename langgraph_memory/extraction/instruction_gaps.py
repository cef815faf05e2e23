"""Chinese said in chat style, its clauses set off by spaces instead of commas
(see :mod:`.instructions`).

"拜托拜托 讲数学题的时候一步一步来 别跳步", "那个回答太官方了 以后跟我说话随意点":
a space between two Chinese words parts clauses as a comma would. The sentence is read
as if each such space were a comma: as a whole first, then clause by clause, each clause
with the lasting scope the words before it give ("以后…", "每次…") and, for a clause
opening a condition, with the rest of the sentence (its rule). A space beside a Latin
word or a number ("代码用 Tab 缩进", "日期用 YYYY-MM-DD 格式") parts nothing.

Example:
    >>> from langgraph_memory.extraction.instructions_zh import zh_instruction
    >>> spaced_instruction("拜托拜托 讲数学题的时候一步一步来 别跳步", False, zh_instruction)
    ('一步一步来 别跳步', 1)
    >>> spaced_instruction("代码用 Tab 缩进", False, zh_instruction) is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable

from langgraph_memory.extraction.clauses import ZH_GAP, is_question, split_clauses

__all__ = ["spaced", "spaced_instruction"]

#: A clause that opens a condition: the rule is what follows it.
_COND = re.compile(r"\s*(?:如果|要是|只要|当|每当|凡是|一旦|遇到|碰到|每次|每回)")
#: A clause that opens on the past ("之前吃了两年素"): it tells what was, not a rule.
_WAS = re.compile(r"\s*(?:以前|之前|曾经|原来|过去|那时候)")

Reader = Callable[[str, bool], "tuple[str, int] | None"]


def spaced(sentence: str) -> bool:
    """Whether a Chinese sentence sets its clauses off by spaces.

    Example:
        >>> spaced("翻译的时候保留原文 放在译文上面"), spaced("代码用 Tab 缩进")
        (True, False)
    """
    return ZH_GAP.search(sentence) is not None


def spaced_instruction(
    sentence: str, scoped: bool, read: Reader, lasting: Callable[[str], bool] | None = None
) -> tuple[str, int] | None:
    """``read``'s instruction in a sentence whose clauses are set off by spaces, read with a
    comma for each such space (``None`` when it has none such, or no rule); ``lasting``
    tells whether the words before a clause give it a lasting scope. What is read keeps
    the sentence's own spaces."""
    gaps = [m.start() for m in ZH_GAP.finditer(sentence)]
    if not gaps:
        return None
    commas = list(sentence)
    for at in gaps:  # a comma for the gap's first space, the rest kept: the offsets hold
        commas[at] = "，"
    text = "".join(commas)
    tries = [(text, scoped)]
    if not is_question(text):  # a question's clauses lead up to it
        clauses = split_clauses(text)
        for off, clause in clauses if len(clauses) > 1 else []:
            if _WAS.match(clause):
                continue
            before = scoped or bool(lasting and lasting(text[:off]))
            tries.append((clause, before))
            if _COND.match(clause) and off + len(clause) < len(text):
                tries.append((text[off:], before))  # a condition and its rule
    for part, on in tries:
        got = read(part, on)
        if got is not None:
            return _as_said(got, text, sentence), got[1]
    return None


def _as_said(got: tuple[str, int], text: str, sentence: str) -> str:
    """What was read, with the spaces the sentence had where commas were read."""
    at = text.find(got[0])
    return sentence[at : at + len(got[0])] if at >= 0 else got[0]
