"""What the words before a rule's match in a sentence say, read once per sentence.

A rule's match is void when the words before it make it hypothetical ("if I liked tea"),
negate it ("I don't think I like jazz") or ask ("do I like tea?"), and its scope is what
ends just before it ("For coffee, I prefer…", "工作的时候…"). A long sentence holds
thousands of matches; reading the words before each one anew is quadratic work (a
20,000-character message took seconds). :class:`Before` answers each question about
``sentence[:at]`` from what it found once in the sentence, plus a look at the few
characters just before ``at`` — with the answers the same as a search of the prefix.

How: a pattern of words with at most a word boundary after them matches in
``sentence[:at]`` exactly when one of its matches in the whole sentence ends before
``at`` (the match that ends first is found once), or one ends at ``at`` itself, which a
search of the last few characters before ``at`` finds (the pattern is no longer than them).

Example:
    >>> b = Before("If I had time, I would read. I like tea")
    >>> b.hypothetical(0), b.hypothetical(2), b.hypothetical(31)
    (False, True, True)
    >>> Before("I don't think I like jazz").negated(15)
    True
    >>> Before("For coffee, I prefer oat milk").scope(12, "en")
    ('For coffee', 0)
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable

__all__ = ["Before", "Spans", "first_end", "HYPOTHETICAL", "NEGATED_BEFORE", "ZH_SCOPE_PREFIX"]

_QUESTION_START = re.compile(
    r"^\s*(?:do|does|did|can|could|would|should|will|is|are|am|was|were|what|which|who|"
    r"where|when|why|how|have|has)\b",
    re.I,
)
_HYPOTHETICAL_EN = (
    "if", "suppose", "supposing", "imagine", "what if", "wish", "assuming", "hypothetically",
    "pretend", "unless", "whether", "even if", "in case",
)  # fmt: skip
_HYPOTHETICAL_ZH = ("如果", "假如", "要是", "假设", "万一", "倘若", "若是", "想象", "假使")
#: Words that make what follows them hypothetical.
HYPOTHETICAL = re.compile(
    rf"\b(?:{'|'.join(_HYPOTHETICAL_EN)})\b|{'|'.join(_HYPOTHETICAL_ZH)}", re.I
)
_NEGATORS_EN = (
    "don't", "do not", "doesn't", "didn't", "never said", "not sure", "doubt", "no one said",
)  # fmt: skip
_NEGATORS_ZH = ("不觉得", "不认为", "不确定", "没说", "并非", "不是说")
_NEGATOR_EN = re.compile(rf"\b(?:{'|'.join(_NEGATORS_EN)})\b", re.I)
#: What, ending a prefix, negates what follows it: an English negator with no comma after
#: it ("I don't think I like jazz"), or a Chinese one right before ("不觉得我喜欢").
NEGATED_BEFORE = re.compile(
    rf"(?:\b(?:{'|'.join(_NEGATORS_EN)})\b[^,]*|{'|'.join(_NEGATORS_ZH)})$", re.I
)
_EN_SCOPE_PREFIX = re.compile(
    r"^\s*(?P<scope>(?:for|at|when|while|during|on|in)\s+[^,]{1,40}),\s*$", re.I
)
#: A Chinese scope ending a prefix: "工作的时候，", "在家".
ZH_SCOPE_PREFIX = re.compile(
    r"(?P<scope>(?:在|对于|关于)?[\u4e00-\u9fff\w]{1,10}?(?:的时候|时候|时|方面|上)"
    r"|工作日|周末|平时|早上|晚上|上班时|在家|在公司|喝咖啡时)[，,]?\s*$"
)
#: The other side of a Chinese comparison ending a prefix: "比起茶，".
ZH_COMPARE_PREFIX = re.compile(r"(?:比起|相比于?|与其说?)(?P<other>[^，,]{1,12}?)[，,]?\s*$")
#: How many characters before the trailing whitespace a match of :data:`ZH_SCOPE_PREFIX`
#: or :data:`ZH_COMPARE_PREFIX` spans at most (2 + 10 + 3 + a comma; 3 + 12 + a comma).
_TAIL_WIDTH = 16
_HYPOTHETICAL_WIDTH = max(map(len, _HYPOTHETICAL_EN + _HYPOTHETICAL_ZH))
_NEGATOR_WIDTH = max(map(len, _NEGATORS_EN))


def first_end(rx: re.Pattern[str], text: str, start: int = 0, end: int | None = None) -> int | None:
    """Where the match of ``rx`` in ``text[start:end]`` that ends first ends (``None`` when
    there is none), for a pattern of words (at most one match starts at each point).

    The leftmost match is found by one search; a match ending earlier lies inside it, so
    the rest of the search stays within its span.

    Example:
        >>> first_end(re.compile(r"\\b(?:what if|if)\\b"), "so what if it rains")
        10
    """
    stop = len(text) if end is None else end
    m = rx.search(text, start, stop)
    if m is None:
        return None
    best, at = m.end(), m.start() + 1
    while at < best:
        n = rx.search(text, at, best)
        if n is None:
            break
        best, at = min(best, n.end()), n.start() + 1
    return best


class Before:
    """What the words before each point of one sentence say (see the module docs).

    Args:
        sentence: The sentence.
    """

    def __init__(self, sentence: str) -> None:
        self.sentence = sentence
        self._end = len(sentence.rstrip())  # where its trailing whitespace starts
        commas = [i for i, c in enumerate(sentence) if c in ",，"]
        self._first_comma = commas[0] if commas else len(sentence)
        self._last_comma = max((i for i in commas if i < self._end), default=-1)
        self._commas = [i for i in commas if sentence[i] == ","]  # the ASCII ones
        self._asks = _QUESTION_START.match(sentence) is not None
        self._hypothetical_end = first_end(HYPOTHETICAL, sentence)
        self._negator_ends: dict[int, int | None] = {}  # by the comma-free stretch's start
        self._stripped: list[int] = []  # len(sentence[:at].rstrip()) by at, built on first use

    def stripped(self, at: int) -> int:
        """``len(sentence[:at].rstrip())``."""
        if not self._stripped:
            ends, last = [0], 0
            for i, c in enumerate(self.sentence):
                if not c.isspace():
                    last = i + 1
                ends.append(last)
            self._stripped = ends
        return self._stripped[at]

    def ends_asking(self) -> bool:
        """Whether the sentence ends with a question mark."""
        return self._end > 0 and self.sentence[self._end - 1] in "?？"

    def question(self, at: int) -> bool:
        """Whether the match at ``at`` is in a question: the rest of the sentence asks with
        no comma in it ("…tea?", "…吗"), or the sentence opens like a question with no comma
        before ``at``."""
        s, end = self.sentence, self._end
        if self._last_comma < at < end and (
            s[end - 1] in "?？"
            or s[end - 1] in "吗呢"
            or (end - 2 >= at and s[end - 1] in "。！" and s[end - 2] in "吗呢")
        ):
            return True
        return self._asks and self._first_comma >= at

    def hypothetical(self, at: int) -> bool:
        """Whether a word before ``at`` makes what follows it hypothetical."""
        if self._hypothetical_end is not None and self._hypothetical_end < at:
            return True
        lo = max(0, at - _HYPOTHETICAL_WIDTH)
        return HYPOTHETICAL.search(self.sentence, lo, at) is not None

    def negated(self, at: int) -> bool:
        """Whether the words before ``at`` negate what follows (:data:`NEGATED_BEFORE` at the
        end of ``sentence[:at].rstrip()``)."""
        end = self.stripped(at)
        if self.sentence.endswith(_NEGATORS_ZH, 0, end):
            return True
        i = bisect_left(self._commas, end)
        lo = self._commas[i - 1] + 1 if i else 0  # the comma-free stretch that ``end`` closes
        if lo not in self._negator_ends:
            hi = self._commas[i] if i < len(self._commas) else len(self.sentence)
            self._negator_ends[lo] = first_end(_NEGATOR_EN, self.sentence, lo, hi)
        first = self._negator_ends[lo]
        if first is not None and first < end:
            return True
        return _NEGATOR_EN.search(self.sentence, max(lo, end - _NEGATOR_WIDTH), end) is not None

    def scope(self, at: int, lang: str) -> tuple[str | None, int | None]:
        """The scope ending right before ``at`` ("For coffee, ", "工作的时候") and where it
        starts."""
        if lang == "zh":
            pm = ZH_SCOPE_PREFIX.search(self.sentence, max(0, self.stripped(at) - _TAIL_WIDTH), at)
        else:
            pm = _EN_SCOPE_PREFIX.search(self.sentence, 0, at)
        if pm is None:
            return None, None
        return pm.group("scope").strip(), pm.start("scope")

    def compared(self, at: int) -> str | None:
        """What a Chinese comparison ending right before ``at`` sets against what follows
        ("比起茶，" → "茶")."""
        lo = max(0, self.stripped(at) - _TAIL_WIDTH)
        pm = ZH_COMPARE_PREFIX.search(self.sentence, lo, at)
        return pm.group("other") if pm else None


class Spans:
    """Spans of a text none of which overlaps another, kept sorted: whether a span
    overlaps one is a look-up in their starts, not a pass over all of them (the spans
    accepted rule matches took in a sentence, the code pasted in a message).

    Example:
        >>> taken = Spans([(3, 8)])
        >>> taken.overlaps(0, 4), taken.overlaps(8, 9)
        (True, False)
    """

    def __init__(self, spans: Iterable[tuple[int, int]] = ()) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for start, end in spans:
            self.add(start, end)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` overlaps one of the spans."""
        i = bisect_left(self._starts, end)  # the spans starting before ``end``
        return i > 0 and self._ends[i - 1] > start  # the last of them ends latest

    def add(self, start: int, end: int) -> None:
        """Add ``[start, end)``, which overlaps none of the spans."""
        i = bisect_right(self._starts, start)
        self._starts.insert(i, start)
        self._ends.insert(i, end)
