"""The current value leads: a latest statement that opens on the value it replaced.

People say a change old value first: "陈教授退休了，我转到了李老师组里", "Jake moved away,
so my new gym partner is my neighbour Sam", "Scrap the grey, we're going with sage green".
Marked as the latest statement (:mod:`~langgraph_memory.read.recency`), the line still
shows the old value before the new one, and a reader skimming it takes the first name.

:func:`current_leads` turns such a statement around: the clauses after the last one that
names the earlier value (a word it shares with the older statements of the same question,
which no later clause repeats and the question does not ask about) come first, and the
clauses naming the earlier value follow, said to be about it. Nothing is dropped; a
statement whose last clause names the earlier value, or whose later clauses add no word
of their own, is left as it was.

Example:
    >>> current_leads("Jake moved away, so my new gym partner is my neighbour Sam.",
    ...               ["My best friend Jake is my gym buddy."], "Who do I work out with?")
    'my new gym partner is my neighbour Sam. (on the earlier one: Jake moved away)'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from langgraph_memory.core.tokens import tokenize

__all__ = ["clauses", "current_leads", "lead_with"]

#: Where a statement splits into clauses: after a comma, semicolon or full stop (not one
#: inside a number: "1,000"), at a dash, or before an English "and"/"so"/"but" ("left Acme
#: and joined Globex"; "Lena and I" stays whole: a piece of one word is no clause).
_BREAK = re.compile(
    r"(?<=[,，;；。！？、])(?!\d)\s*|(?<=[.!?])\s+|\s+[—–-]+\s+|\s+(?=(?:and|so|but)\s)"
    # an emoji or a space between Chinese words ends a clause too ("老周被优化了😅 现在…")
    r"|(?<=[\u2600-\u27bf\U0001f300-\U0001faff])\s*(?=[\u4e00-\u9fff])"
    r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])",
    re.I,
)
#: A head clause saying the earlier value still holds ("I still live in Lisbon, but…",
#: "我还在腾讯，…"), or later clauses saying the change did not happen ("…但我没去").
_HOLDS = re.compile(r"\b(?:I|I'm|I am|we|we're|we are)\s+still\b|还在|还是在|仍然?在|依然在", re.I)
_DECLINED = re.compile(
    r"\b(?:didn't|did not|won't|will not) (?:go|take|join|accept|move)\b|\bdeclined\b|"
    r"\bturned (?:it |them |the offer )?down\b|没去|没有去|没答应|拒绝了?|不去了",
    re.I,
)
#: A full stop that ends a title or an initial, not a clause ("Dr. Okafor", "J. Smith").
_ABBREVIATION = re.compile(r"(?<!\w)(?:Dr|Mr|Mrs|Ms|Mx|Prof|St|Mt|Jr|Sr|vs|etc|e\.g|i\.e|[A-Z])\.$")
#: What a clause's head ends on that is no part of what it says.
_TRAIL = " \t,，;；、—–-"
#: A joining word that opens the clauses put first.
_JOIN = re.compile(r"^(?:and|so|but)\s+", re.I)


def clauses(text: str) -> list[str]:
    """``text`` cut into clauses, each with its closing punctuation; a piece of one Latin
    word ("Lena", "Marisol,") joins the clause before it (the first one, the next).

    Example:
        >>> clauses("Gerald retired on Friday and his replacement, Marisol, starts Monday.")
        ['Gerald retired on Friday', 'and his replacement, Marisol,', 'starts Monday.']
        >>> clauses("Okafor moved practices so I'm seeing Dr. Lindqvist now.")
        ['Okafor moved practices', "so I'm seeing Dr. Lindqvist now."]
        >>> clauses("陈教授退休了，我转到了李老师组里。")
        ['陈教授退休了，', '我转到了李老师组里。']
        >>> clauses("老周被优化了😅 现在孙经理直接管我们")
        ['老周被优化了😅', '现在孙经理直接管我们']
    """
    pieces, prev = [], 0
    for cut in _BREAK.finditer(text):
        if cut.start() > prev:
            pieces.append(text[prev : cut.start()].strip())
        prev = max(prev, cut.end())
    pieces.append(text[prev:].strip())
    out: list[str] = []
    lone = False  # the last clause is a single word still waiting for the next piece
    for piece in filter(None, pieces):
        title = _ABBREVIATION.search(piece)  # "Dr.": the start of what follows
        if out and (lone or (_one_word(piece) and not title) or _ABBREVIATION.search(out[-1])):
            out[-1] = _join(out[-1], piece)
        else:
            out.append(piece)
        lone = len(out) == 1 and _one_word(out[0])
    return out


def _one_word(piece: str) -> bool:
    """A Latin piece of one word ("Lena", "Marisol,") is no clause of its own."""
    return len(re.findall(r"[^\W\d_]+", piece)) == 1 and not re.search(r"[\u4e00-\u9fff]", piece)


def _join(left: str, right: str) -> str:
    """Two pieces of a statement joined again (no space after CJK punctuation)."""
    return left + right if re.search(r"[\u3000-\u303f\uff00-\uffef]$", left) else f"{left} {right}"


def _words(text: str) -> set[str]:
    """The words of ``text`` and, in Chinese, every two characters side by side: the
    segmenter cuts one name differently in different sentences ("小陈调走了": 小, 陈调;
    "我师傅是小陈": 小, 陈), and only whole it names the value.

    Example:
        >>> sorted(w for w in _words("小陈调走了") if len(w) > 1)
        ['小陈', '调走', '走了', '陈调']
    """
    out = {t for t in tokenize(text) if t.strip()}
    for run in _CJK_RUN.findall(text):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return out


_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")


def current_leads(text: str, older: Sequence[str], query: str = "") -> str:
    """``text`` (the latest statement on a question) with its clauses that come after the
    earlier value's first, and those naming it after them, said to be about the earlier
    one; ``text`` itself when it does not open on the earlier value (see the module docs).

    Args:
        text: The latest statement.
        older: The older statements on the same question.
        query: The question (its words name the thing asked about, not a value).

    Example:
        >>> current_leads("陈教授退休了，我转到了李老师组里。", ["我的导师是陈教授，做材料的。"])
        '我转到了李老师组里。 (on the earlier one: 陈教授退休了)'
        >>> current_leads("I moved from Lisbon to Porto.", ["I live in Lisbon."])
        'I moved from Lisbon to Porto.'
        >>> current_leads("I still live in Lisbon, but I work in Porto now.", ["I live in Lisbon."])
        'I still live in Lisbon, but I work in Porto now.'
    """
    parts = clauses(text)
    if len(parts) < 2:
        return text
    before = {w for o in older for w in _words(o)}
    # (a word of one character names no value: the 号 of "6月14号", "9月20号")
    shared = {w for w in (_words(text) & before) - _words(query) if len(w) > 1}
    words = [_words(p) for p in parts]
    head = -1
    for j, ws in enumerate(words[:-1]):
        later = set().union(*words[j + 1 :])
        if (ws & shared) - later:
            head = j
    if head < 0 or not set().union(*words[head + 1 :]) - before:
        return text
    said_before = " ".join(older)
    if any(n not in said_before for p in parts[: head + 1] for n in re.findall(r"\d+", p)):
        return text  # a number new in the head may be the new value ("9月20号有空")
    lead, back = _split_at(parts, head + 1, _TRAIL)
    if _HOLDS.search(back) or _DECLINED.search(lead):
        return text  # the value said first still holds: nothing to turn around
    return _turned(lead, back)


def lead_with(text: str, value: str) -> str:
    """``text`` with the clauses from the first one naming ``value`` (the new value, known
    by other means) first, and those before it after them, said to be about the earlier
    one; ``text`` itself when its first clause names it, or none does.

    Example:
        >>> lead_with("Ravi left in May, we had a party. Omar runs the team now.", "Omar")
        'Omar runs the team now. (on the earlier one: Ravi left in May, we had a party)'
    """
    parts = clauses(text)
    at = next((j for j, p in enumerate(parts) if value in p), 0)
    if at == 0:
        return text
    return _turned(*_split_at(parts, at, _TRAIL + ".。"))


def _split_at(parts: Sequence[str], at: int, trail: str) -> tuple[str, str]:
    """The clauses from ``at`` on (the lead, its joining word dropped) and those before
    it (``trail`` stripped), each joined back as said."""
    lead = _JOIN.sub("", functools.reduce(_join, parts[at:]))
    return lead, functools.reduce(_join, parts[:at]).strip(trail)


def _turned(lead: str, back: str) -> str:
    """The lead first, then what it turned from, said to be about the earlier value."""
    return f"{lead} (on the earlier one: {back})"
