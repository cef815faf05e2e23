"""Excerpts of long messages: the part that answers the query, not the whole paste.

A long assistant reply (an explanation with code, a pasted log) can hold one relevant
sentence in thousands of tokens; packed whole it crowds the user's own words out of
the budget. :func:`excerpt` keeps a message's opening sentence and then its sentences
(or lines of code) sharing the most terms with the query, in their original order,
within a token cap; gaps are marked with ``…``. Given the span of the passage that
matched the query (see :mod:`~langgraph_memory.layers.index.passages`), the pieces within it
come first, after the opening.

Example:
    >>> text = "Here is the plan. " + "Filler about logging. " * 40 + "Set the timeout to 5 s."
    >>> excerpt(text, {"timeout"}, 20)
    'Here is the plan. … Set the timeout to 5 s.'
"""

from __future__ import annotations

from collections.abc import Set

from langgraph_memory.core.tokens import count_cjk, count_tokens, tokenize
from langgraph_memory.extraction.entities import sentence_spans

__all__ = ["excerpt", "GAP"]

#: Marks the text left out between two kept pieces.
GAP = " … "


def excerpt(
    text: str, terms: Set[str], max_tokens: int, focus: tuple[int, int] | None = None
) -> str:
    """``text`` itself when it fits ``max_tokens``, else its excerpt for ``terms``.

    Args:
        text: The message content.
        terms: The query's terms (:func:`~langgraph_memory.core.tokens.tokenize`).
        max_tokens: The excerpt's cap (``0`` or less: never cut).
        focus: The ``(start, end)`` characters of the passage that matched: its pieces
            go in first after the opening (a text of one piece is cut from its start).

    Returns:
        The opening piece, then the pieces with the most query terms (earlier first on
        ties) that fit, in text order, joined with :data:`GAP` where text was left out.
    """
    if max_tokens <= 0 or count_tokens(text) <= max_tokens:
        return text
    pieces = [(at, piece.strip()) for at, piece in sentence_spans(text) if piece.strip()]
    if len(pieces) <= 1:
        if focus is not None and focus[0] > 0:
            return GAP.lstrip() + _cut(text[focus[0] :].strip(), max_tokens - 1)
        return _cut(text.strip(), max_tokens)
    scores = [len(terms & set(tokenize(p))) for _, p in pieces]
    if focus is not None:  # the matched passage first: its pieces outrank every other
        lo, hi = focus
        bonus = len(terms) + 1
        for i, (at, piece) in enumerate(pieces):
            if at < hi and at + len(piece) > lo:
                scores[i] += bonus
    order = [0] + sorted(range(1, len(pieces)), key=lambda i: (-scores[i], i))
    kept: list[int] = []
    used = 0
    for i in order:
        if i > 0 and scores[i] == 0 and kept:
            break  # nothing else shares a term: the opening says what the rest is
        cost = count_tokens(pieces[i][1]) + 1
        if used + cost > max_tokens:
            continue
        kept.append(i)
        used += cost
    if not kept:
        return _cut(pieces[0][1], max_tokens)
    out = ""
    last = -1
    for i in sorted(kept):
        out += (GAP if out and i != last + 1 else " " if out else "") + pieces[i][1]
        last = i
    return out + (GAP.rstrip() if last != len(pieces) - 1 else "")


def _cut(text: str, max_tokens: int) -> str:
    """The start of ``text`` within ``max_tokens`` (a token is a CJK character or about
    four other characters)."""
    out, used = [], 0
    for ch in text:
        used += 4 if count_cjk(ch) else 1
        if used > 4 * max_tokens - 4:
            break
        out.append(ch)
    return "".join(out).rstrip() + GAP.rstrip()
