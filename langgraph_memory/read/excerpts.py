"""Excerpts of long messages: the part that answers the query, not the whole paste.

A long assistant reply (an explanation with code, a pasted log) can hold one relevant
sentence in thousands of tokens; packed whole it crowds the user's own words out of
the budget. :func:`excerpt` keeps a message's opening sentence and then its sentences
(or lines of code) sharing the most terms with the query, in their original order,
within a token cap; gaps are marked with ``…``. Given the span of the passage that
matched the query (see :mod:`~langgraph_memory.layers.index.passages`), the pieces within it
come first, after the opening.

When the context is nearly full, the best candidate that no longer fits whole goes in as
its excerpt for the room left (:func:`take_excerpting`) rather than being passed over for
smaller, lower-ranked ones: what rides along at every budget (anchors, the profile)
takes its tokens from the end of the context, not from its best retrieved message.

Example:
    >>> text = "Here is the plan. " + "Filler about logging. " * 40 + "Set the timeout to 5 s."
    >>> excerpt(text, {"timeout"}, 20)
    'Here is the plan. … Set the timeout to 5 s.'
    >>> excerpt(text, {"timeout"}, 20, fill=True)
    'Here is the plan. Filler about logging. … Set the timeout to 5 s.'
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import replace

from langgraph_memory.core.context import ContextItem, item_tokens
from langgraph_memory.core.tokens import count_cjk, count_tokens, tokenize
from langgraph_memory.extraction.entities import sentence_spans
from langgraph_memory.read.packing import Packer

__all__ = ["excerpt", "take_excerpting", "GAP", "TAIL_KEEP", "TAIL_MIN_TOKENS"]

#: Marks the text left out between two kept pieces.
GAP = " … "
#: The least share of a candidate's tokens the room left must hold for the candidate
#: to go in as its excerpt (:func:`take_excerpting`): less, and it is mostly cut away.
TAIL_KEEP = 2 / 3
#: The least room (tokens) worth an excerpt at the end of a context.
TAIL_MIN_TOKENS = 12


def excerpt(
    text: str,
    terms: Set[str],
    max_tokens: int,
    focus: tuple[int, int] | None = None,
    *,
    fill: bool = False,
) -> str:
    """``text`` itself when it fits ``max_tokens``, else its excerpt for ``terms``.

    Args:
        text: The message content.
        terms: The query's terms (:func:`~langgraph_memory.core.tokens.tokenize`).
        max_tokens: The excerpt's cap (``0`` or less: never cut).
        focus: The ``(start, end)`` characters of the passage that matched: its pieces
            go in first after the opening (a text of one piece is cut from its start).
        fill: Fill the cap: after the pieces sharing query terms, the others that fit,
            earlier first (without it, pieces sharing no term are left out).

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
        if i > 0 and scores[i] == 0 and kept and not fill:
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


def take_excerpting(
    packer: Packer,
    ordered: Iterable[ContextItem],
    terms: Set[str],
    layers: Set[str],
) -> list[ContextItem]:
    """Take ``ordered`` (best first) as :meth:`Packer.take` does, except that a candidate
    of ``layers`` that does not fit whole, when the room left holds at least
    :data:`TAIL_KEEP` of it (and :data:`TAIL_MIN_TOKENS`), goes in as its excerpt for
    the query's ``terms`` filling that room (``fill``), before any smaller candidate
    ranked below it, provided the excerpt keeps :data:`TAIL_KEEP` of it or a word of
    the query (an opening line alone says little). Greedy packing would pass it over
    for those; then the few tokens the essentials take at the top of every context (the
    profile line, an anchor) cost the best message left instead of the end of the list.

    Returns:
        The items taken by this call (an excerpt in place of its candidate).

    Example:
        >>> from langgraph_memory.read.packing import Packer
        >>> long = ContextItem("message", "Ann: We moved to Lyon in May. " + "It rained. " * 12,
        ...                    0, 2.0, {}, ["m1"], "retrieved")
        >>> small = ContextItem("message", "Bob: ok", 0, 1.0, {}, ["m2"], "retrieved")
        >>> p = Packer(30)
        >>> [it.text for it in take_excerpting(p, [long, small], {"lyon"}, {"message"})]
        ['Ann: We moved to Lyon in May. It rained. It rained. It rained. It rained. …', 'Bob: ok']
        >>> p.tokens <= 30
        True
    """
    taken: list[ContextItem] = []
    for it in ordered:
        if packer.add(it):
            taken.append(it)
            continue
        if it.layer not in layers or packer.covers(it):
            continue
        room = packer.budget - packer.tokens - 2  # "- " and the newline
        if room < TAIL_MIN_TOKENS or room < TAIL_KEEP * it.tokens:
            continue
        whole = it.score_parts.get("excerpt_of_tokens", float(count_tokens(it.text)))
        parts = {**it.score_parts, "excerpt_of_tokens": whole}
        reason = it.reason + "; its excerpt for the room left"
        for _ in range(8):  # a date line may open its group: shrink until it fits
            text = excerpt(it.text, terms, room, fill=True)
            if item_tokens(text) < TAIL_KEEP * it.tokens and not terms & set(tokenize(text)):
                break  # mostly cut away, the query's words too: the room goes on
            short = replace(
                it, text=text, tokens=item_tokens(text), score_parts=parts, reason=reason
            )
            if packer.add(short):
                taken.append(short)
                break
            room -= 2
            if room < TAIL_MIN_TOKENS:
                break
    return taken
