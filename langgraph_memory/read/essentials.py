"""What rides along in every context, at every budget: anchors and the user profile.

The anchors (standing instructions, and those the caller pins) and the profile entries
in context are packed before anything retrieved. Each kind first takes whole lines
within its own share of the budget (``instruction_share``, ``profile_share``); a kind
whose share holds no whole line (a small budget) gets its closest line shortened to
:data:`MIN_LINE_TOKENS` (:func:`shorten`: its label, then the sentences closest to the
query), so every context from about 100 tokens on carries them. Below a large budget a
profile none of whose entries is related to the query rides along as one line (a
pointer line at a small budget: :func:`brief_unrelated`), leaving the room to what the
query needs. With
``essential_tokens`` the other lines left out are shortened too and packed within that
many tokens (at most half the budget, at least what the shares give), the room shared
among the lines still waiting (an anchor's part twice a profile entry's), best first,
until the room is spent: each line takes at least :data:`MIN_LINE_TOKENS`, so a long
profile rides along in part, its entries closest to the query first.

Example:
    >>> from langgraph_memory.core.context import ContextItem
    >>> from langgraph_memory.read.packing import Packer
    >>> text = ('Standing instruction (said 2024-03-04): Yes, an important one: I am '
    ...         'allergic to peanuts. Even peanut oil gives me hives, so please never '
    ...         'suggest satay or anything with peanut sauce.')
    >>> a = ContextItem("anchor", text, 40, 1.0, {}, ["s1"], "rides along")
    >>> p = Packer(250)
    >>> taken = pack_essentials(p, [([a], 0.15)], 0, {"peanut"})
    >>> [it.text for _, it in taken]
    ['Standing instruction: Yes, an important one: I am allergic to peanuts. …']
    >>> p.tokens <= 0.15 * 250
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from dataclasses import replace

from langgraph_memory.core.context import ContextItem, item_tokens
from langgraph_memory.core.tokens import count_cjk, count_tokens, tokenize
from langgraph_memory.extraction.entities import sentence_spans
from langgraph_memory.read.excerpts import GAP
from langgraph_memory.read.packing import Packer

__all__ = [
    "pack_essentials",
    "shorten",
    "essential_limit",
    "brief_unrelated",
    "MIN_LINE_TOKENS",
    "POINTER_TOKENS",
    "RELATED",
    "WHOLE_LINES",
]

#: The shortest a shortened line is made (its label and a few words).
MIN_LINE_TOKENS = 20
#: The line a kind none of whose lines is related to the query shrinks to at a small
#: budget (:func:`brief_unrelated`): its label and its first words.
POINTER_TOKENS = 10
#: A kind whose share holds this many of the shortest lines rides along in whole lines
#: even when the query is not about it; below, an unrelated kind is one line
#: (:func:`brief_unrelated`).
WHOLE_LINES = 4
#: The relevance (calibrated, in [0, 1]: see :mod:`~langgraph_memory.read.relevance`)
#: from which a line is related to the query: the calibration's midpoint.
RELATED = 0.5
#: A label that opens a line ("Standing instruction (said …):", "User preference:",
#: "关于用户（职业）：") is kept whole when the line is shortened.
_LABEL = re.compile(r"^(.{1,60}?[:：])\s*(.+)$", re.S)
_WORD = re.compile(r"\w")
_ASIDE = re.compile(r"\s*[(（][^()（）]*[)）]")
_QUOTES = ('""', "“”", "「」", "''")


def essential_limit(tokens_now: int, budget: int, essential_tokens: int, shares: float) -> int:
    """The most tokens the context may hold once the shortened essentials are packed:
    ``essential_tokens`` (at most half the budget, at least ``shares`` of it) beyond
    ``tokens_now``; with ``essential_tokens`` 0 no more than it holds (only the one line
    each kind is sure of).

    Example:
        >>> essential_limit(0, 300, 150, 0.25), essential_limit(0, 2000, 150, 0.25)
        (150, 500)
        >>> essential_limit(40, 300, 0, 0.25)
        40
    """
    if essential_tokens <= 0:
        return tokens_now
    room = max(min(essential_tokens, budget // 2), int(budget * shares))
    return tokens_now + room


def brief_unrelated(
    items: Sequence[ContextItem], budget: int, share: float, terms: Set[str]
) -> list[ContextItem]:
    """What of a kind rides along at ``budget``: ``items`` (best first) themselves,
    unless none of them is related to the query (``relevance`` below :data:`RELATED`)
    and the budget is not large (``share`` of it holds fewer than :data:`WHOLE_LINES`
    of the shortest lines, :data:`MIN_LINE_TOKENS`). Then only the best goes: at a
    middling budget (the share holds two shortest lines or more) as one line of at most
    :data:`MIN_LINE_TOKENS` (shortened when longer); at a small one, when it does not
    fit the share whole, as one pointer line of :data:`POINTER_TOKENS` (its label and
    first words). The kind still rides along, and the room lines the query does not
    need would take goes to what it does need (on LoCoMo the profile's whole line cost
    0.009 of the evidence recall at 256 tokens, and its 30-40 token line about 0.006 at
    512).

    Example:
        >>> text = 'User preference: "I mostly cook on weekends and I love spicy food."'
        >>> it = ContextItem("profile", text, 18, 1.0, {}, ["m1"], "rides along")
        >>> [x.text for x in brief_unrelated([it], 150, 0.1, set())]
        ['User preference: "I mostly …"']
        >>> brief_unrelated([it], 256, 0.1, set())[0] is it  # it fits the share whole
        True
        >>> long = ContextItem("profile", text[:-2] + ', above all Sichuan dishes."', 22,
        ...                    1.0, {}, ["m2"], "rides along")
        >>> [x.text for x in brief_unrelated([long, it], 500, 0.1, {"spicy"})]
        ['User preference: "I mostly cook on weekends and I love spicy food, …"']
        >>> len(brief_unrelated([long, it], 800, 0.1, set()))  # a large budget: whole lines
        2
        >>> it.relevance = 0.8  # related: it goes as it is
        >>> brief_unrelated([it], 150, 0.1, set())[0] is it
        True
    """
    held = budget * share
    if not items or held >= WHOLE_LINES * MIN_LINE_TOKENS:
        return list(items)
    if any(it.relevance >= RELATED for it in items):
        return list(items)
    if held >= 2 * MIN_LINE_TOKENS:  # a middling budget: one short line
        short = _shortened(items[0], terms, MIN_LINE_TOKENS)
        reason = "; unrelated to the query: one short line at this budget"
        return [replace(short, reason=items[0].reason + reason)]
    if items[0].tokens + 2 <= held:  # its closest line fits whole: it goes
        return list(items)
    short = _shortened(items[0], terms, POINTER_TOKENS, floor=POINTER_TOKENS)
    reason = "; unrelated to the query: one pointer line at this budget"
    return [replace(short, reason=items[0].reason + reason)]


def pack_essentials(
    packer: Packer,
    groups: Sequence[tuple[Sequence[ContextItem], float | None]],
    limit: int,
    terms: Set[str],
) -> list[tuple[ContextItem, ContextItem]]:
    """Pack what rides along: each group's whole lines within its own share of the
    budget, then the lines left out, shortened, within ``limit``.

    Args:
        packer: The context being packed.
        groups: ``(items best first, share)`` per kind, in priority order; a group's
            whole lines may take ``share`` of the budget beyond what the context holds
            when its turn comes (``None``: the whole budget).
        limit: The most tokens the context may hold after the shortened lines
            (:func:`essential_limit`).
        terms: The query's terms (the sentences sharing most of them are kept).

    Returns:
        ``(item, as packed)`` for each item taken (``as packed`` is the item itself, or
        its shortened copy).
    """
    taken: list[tuple[ContextItem, ContextItem]] = []
    waiting: list[ContextItem] = []
    for items, share in groups:
        own = packer.budget if share is None else packer.share(share)
        before = len(taken)
        left = []
        for it in items:
            if packer.add(it, own):
                taken.append((it, it))
            elif not packer.covers(it):
                left.append(it)
        if len(taken) == before and left:
            # no whole line of this kind fits its share: its best, shortened to one
            # short line (the rest of the share stays with what is retrieved)
            best = left.pop(0)
            cap = packer.tokens + MIN_LINE_TOKENS + (2 if packer.items else 7)
            short = _shortened(best, terms, MIN_LINE_TOKENS)
            if packer.add(short, cap):
                taken.append((best, short))
            else:
                left.insert(0, best)
        waiting += left
    weights = [2 if it.layer == "anchor" else 1 for it in waiting]
    for n, it in enumerate(waiting):
        room = limit - packer.tokens
        if room <= MIN_LINE_TOKENS:
            break
        # the room shared among the lines still waiting, an anchor's part twice a
        # profile entry's (a line costs 2 for "- " and the newline)
        part = room * weights[n] // sum(weights[n:])
        short = _shortened(it, terms, part - 2)
        if packer.add(short, limit):
            taken.append((it, short))
    return taken


def _shortened(
    it: ContextItem, terms: Set[str], max_tokens: int, floor: int = MIN_LINE_TOKENS
) -> ContextItem:
    """``it`` itself when it fits ``max_tokens`` (at least ``floor``), else a copy of it
    shortened (see :func:`shorten`)."""
    text = shorten(it.text, terms, max(max_tokens, floor))
    if text == it.text:
        return it
    return replace(
        it,
        text=text,
        tokens=item_tokens(text),
        score_parts={**it.score_parts, "shortened_from_tokens": float(it.tokens)},
        reason=it.reason + "; shortened to fit the budget",
    )


def shorten(text: str, terms: Set[str], max_tokens: int) -> str:
    """``text`` within ``max_tokens``: its label kept, then its sentences with the most
    query ``terms`` (then the earliest that say something), in their order, gaps marked
    ``…``; the best sentence is cut at a word when none fits whole.

    Example:
        >>> shorten('User preference: "Thanks. I mostly cook on weekends and I love '
        ...         'spicy food, especially Sichuan dishes."', {"spicy"}, 20)
        'User preference: "… I mostly cook on weekends and I love spicy food, …"'
    """
    if count_tokens(text) <= max_tokens:
        return text
    label, body = "", text.strip()
    m = _LABEL.match(body)
    if m is not None:
        head = m.group(1)
        if count_tokens(head) > max_tokens // 3:  # its asides go first ("(said …)")
            head = _ASIDE.sub("", head)
        if count_tokens(head) <= max_tokens * 0.6:
            label = head + (" " if head.endswith(":") else "")
            body = m.group(2).strip()
    opening = closing = ""
    for pair in _QUOTES:
        if len(body) >= 2 and body[0] == pair[0] and body[-1] == pair[1]:
            opening, closing, body = pair[0], pair[1], body[1:-1].strip()
            break
    room = max_tokens - count_tokens(label + opening + closing) - 1
    pieces = [p.strip() for _, p in sentence_spans(body) if _WORD.search(p)] or [body]
    scores = []
    for p in pieces:
        words = set(tokenize(p))
        scores.append((len(words & terms), len(words)))
    # the query's words first; else the text's own order (its point comes early), past
    # pieces too short to say anything ("Hi!", "Thanks.")
    order = sorted(range(len(pieces)), key=lambda i: (-scores[i][0], scores[i][1] < 3, i))
    kept: list[int] = []
    used = 0
    for i in order:
        cost = count_tokens(pieces[i]) + 1
        if used + cost <= room and (scores[i][0] or scores[i][1] >= 3):  # no filler
            kept.append(i)
            used += cost
    if not kept:
        best = order[0]
        lead = GAP.lstrip() if best > 0 else ""
        return label + opening + lead + _cut(pieces[best], room - 1) + GAP.rstrip() + closing
    out, last = "", -1
    for i in sorted(kept):
        gap = GAP if out and i != last + 1 else (" " if out else "")
        out += gap + pieces[i]
        last = i
    lead = GAP.lstrip() if min(kept) > 0 else ""
    tail = GAP.rstrip() if last != len(pieces) - 1 else ""
    return label + opening + lead + out + tail + closing


def _cut(text: str, max_tokens: int) -> str:
    """The start of ``text`` within ``max_tokens`` (a CJK character is a token, other
    characters a quarter), cut at a word where there is one."""
    out: list[str] = []
    used = 0.0
    for ch in text:
        used += 1.0 if count_cjk(ch) else 0.25
        if used > max_tokens:
            break
        out.append(ch)
    cut = "".join(out)
    if " " in cut and len(cut) < len(text) and text[len(cut)] != " ":
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip()
