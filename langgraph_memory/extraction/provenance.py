"""Provenance of memory: whose words a belief may be made from.

Beliefs (profile entries, facts, agent traits, standing instructions, entities) are
made only from the user's own words. This module holds what the write gate needs to
hold that line, whatever extracted the atoms (rules or an LLM):

- :func:`strip_injected`: the text the library itself put in front of a model — the
  rendered memory context (``Relevant memories:`` and its items), the thread outline,
  memory tools' output, and any line rendered the way a long-term entry renders
  itself — blanked out of a message before anything is read from it, so recalled
  memory pasted back (by an agent echoing its prompt, or a user copying it) is never
  read as something new. The rest of the message keeps its offsets.
- :func:`is_grounded`: whether an atom's value is in the words it is said to come
  from (an LLM that invents a value, or reads it from the assistant's turn, is refused).
- :func:`is_confirmation` and :func:`in_user_voice`: a user's explicit "yes, that's
  right" to what the assistant just said makes the assistant's statement, put in the
  user's voice ("You live in Lyon, right?" → "I live in Lyon."), the user's confirmed
  belief; it cites both messages.

Example:
    >>> pasted = "Relevant memories:\\n- User location Lyon (since 2024-05-01)\\n\\nI love tea."
    >>> strip_injected(pasted).split()
    ['I', 'love', 'tea.']
    >>> is_confirmation("Yes, that's right."), is_confirmation("对，没错"), is_confirmation("No.")
    (True, True, False)
    >>> in_user_voice("Your sister Anna lives in Lisbon, right?")
    'My sister Anna lives in Lisbon.'
    >>> in_user_voice("你住在上海，对吗？")
    '我住在上海。'
"""

from __future__ import annotations

import re

from langgraph_memory.core.context import HEADER
from langgraph_memory.core.tokens import is_cjk_text, tokenize
from langgraph_memory.extraction.atoms import MemoryAtom
from langgraph_memory.extraction.instruction_lookalikes_zh import DEFER as _DEFER_ZH

__all__ = [
    "USER",
    "CONFIRMED",
    "strip_injected",
    "is_injected_line",
    "is_grounded",
    "is_confirmation",
    "in_user_voice",
]

#: Provenance of a belief made from the user's own words.
USER = "user"
#: Provenance of a belief the user confirmed: the assistant said it, the user said yes.
CONFIRMED = "confirmed"

# -- text the library injected ---------------------------------------------------------------
#: Headings that open a block of injected text: the rendered memory context and the
#: memory tools' result lists. Every line after one, up to a blank line, is injected.
_BLOCK_HEADINGS = re.compile(
    rf"^\s*(?:{re.escape(HEADER)}|Archival memories for\b|Past messages for\b|<core_memory>)",
)
_BLOCK_END = re.compile(r"^\s*</core_memory>\s*$")
_DATE = r"\d{4}-\d{2}-\d{2}"
#: Lines rendered the way the library renders an entry, a group heading or an outline
#: line (see the ``text()`` of every long-term kind; ``tests/layers/test_provenance.py``
#: renders each kind and checks it is recognised here).
_RENDERED = re.compile(
    "|".join(
        (
            rf"^\[{_DATE}[^\]]*\]$",  # a group heading of the context
            r"\[ids: [^\]]*\]$",  # a line of the thread outline
            r"^(?:User preference|About the user)(?: \([^)]*\))?: [\"“]",  # profile, quoted
            r"^(?:用户偏好|关于用户)(?:（[^）]*）)?：“",
            r"^(?:In [^:]{1,80}: )?(?:User prefers|User dislikes|User's [^:]{1,60}:) .*"
            r"\((?:[^;()]*; )?(?:explicit|confirmed|inferred), [\d.]+\)$",
            r"^(?:在.{1,40}中，)?(?:用户喜欢|用户不喜欢|用户的).*（(?:[^（）]*)?"
            r"(?:explicit|confirmed|inferred), [\d.]+）$",
            rf"\((?:since {_DATE}|from {_DATE} until {_DATE})(?:; superseded)?\)(?: — \".*\")?$",
            rf"（(?:自 {_DATE} 起|{_DATE} 至 {_DATE})(?:，已被取代)?）(?:：“.*”)?$",  # a fact
            r"^Agent(?: \S+)? trait [^:]+: ",
            r"^助手.*的特征 ",
            r"^\[(?:success|partial|failed)\]",  # an episode
            r"^(?:Lesson(?: \[[^\]]*\])?: |经验(?: \[[^\]]*\])?：)",
            r"^What was said about .{1,80} lately \(\d+ statements\): ",
            r"^最近关于.{1,40}的\d+条信息：",
            r"^(?:Standing instruction \(said |长期指令（)",
            r"^(?:Possible contradiction: on |可能的矛盾：)",
            rf"^Summary of the (?:day {_DATE}|week {_DATE} to {_DATE}) \(\d+ messages\): ",
            rf"^{_DATE} (?:这一天|至 {_DATE} 这一周)（\d+ 条消息）的摘要：",
            r"^.{1,80} \((?:person|place|org|other)\): mentioned \d+ times, ",
            r"^.{1,40}（(?:person|place|org|other)）：提到 \d+ 次，",
        )
    )
)
_BULLET = re.compile(r"^\s*(?:[-*•]\s+|\d+[.)]\s+)?")
#: What the offline example model (and many real ones) put between echoed memories.
_PIECES = re.compile(r"\s+\|\s+")


def is_injected_line(line: str) -> bool:
    """Whether one line (a bullet allowed) is rendered the way the library renders what
    it injects (an entry, a group heading, an outline line).

    Example:
        >>> is_injected_line('- User preference: "I love green tea."')
        True
        >>> is_injected_line("I love green tea.")
        False
    """
    body = _BULLET.sub("", line, count=1).strip()
    return bool(body) and _RENDERED.search(body) is not None


def strip_injected(text: str) -> str:
    """``text`` with what the library injected blanked out: a memory block (its heading
    and every line up to a blank line), and every line — or ``" | "``-separated piece
    of a line — rendered like an entry (:func:`is_injected_line`). Lines are blanked,
    not removed, so what is left keeps its place (spans stay substrings of ``text``).

    Example:
        >>> strip_injected("From what I remember: Agent trait location: Lyon | I like jazz")
        'From what I remember: | I like jazz'
    """
    if not text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    in_block = False
    for line in lines:
        if _BLOCK_HEADINGS.match(line):
            in_block = True
            out.append("")
            continue
        if in_block:
            if _BLOCK_END.match(line):
                in_block = False
                out.append("")
                continue
            if line.strip():
                out.append("")
                continue
            in_block = False
        out.append(_strip_pieces(line))
    return "\n".join(out)


def _strip_pieces(line: str) -> str:
    if is_injected_line(line):
        return ""
    if " | " not in line:
        # "From what I remember: <entry>": a lead-in before an echoed entry
        head, sep, rest = line.partition(": ")
        if sep and len(head) <= 40 and is_injected_line(rest):
            return head + ":"
        return line
    parts: list[str] = []
    at = 0
    for m in _PIECES.finditer(line):
        parts += [line[at : m.start()], m.group(0)]
        at = m.end()
    parts.append(line[at:])
    for i in range(0, len(parts), 2):
        piece = parts[i]
        head, sep, rest = piece.partition(": ")
        if is_injected_line(piece):
            parts[i] = ""
        elif sep and len(head) <= 40 and is_injected_line(rest):
            parts[i] = head + ":"
    return "".join(parts)


# -- grounding -------------------------------------------------------------------------------
def _cjk_chars(text: str) -> set[str]:
    return {c for c in text if "\u4e00" <= c <= "\u9fff"}


def _words_in(value: str, text: str) -> float:
    """The share of ``value``'s words (of its Chinese characters) found in ``text``."""
    if is_cjk_text(value):
        want = _cjk_chars(value)
        return len(want & _cjk_chars(text)) / len(want) if want else 0.0
    words = set(tokenize(value))
    if not words:
        return 0.0
    have = set(tokenize(text))
    found = sum(1 for w in words if w in have or any(h.startswith(w[:5]) for h in have))
    return found / len(words)


def is_grounded(atom: MemoryAtom, text: str) -> bool:
    """Whether ``atom``'s value is in ``text``, the words it is said to come from:
    verbatim (case aside), or at least half of its words (of its Chinese characters)
    are; or its span is verbatim in ``text`` and the value shares a word with that span
    (a model's paraphrase: "keep it to bullets" → "answer in bullet points"). An atom
    whose value is nowhere in those words was invented, or read from someone else's.

    Example:
        >>> a = MemoryAtom("fact", "user", "location", "Lisbon", text="Lisbon")
        >>> is_grounded(a, "Yes, that's right."), is_grounded(a, "I moved to lisbon")
        (False, True)
    """
    value = str(atom.value).strip()
    if not value:
        return False
    if value.casefold() in text.casefold() or _words_in(value, text) >= 0.5:
        return True
    span = atom.text.strip()
    return bool(span) and span in text and _words_in(value, span) > 0


# -- confirmations ---------------------------------------------------------------------------
_YES_EN = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|yea|correct|right|exactly|indeed|absolutely|precisely|"
    r"true|sure|definitely|affirmative|spot on|you got it|you're right|you are right|"
    r"that's (?:right|correct|true|it)|that is (?:right|correct|true)|"
    r"that's exactly right)\b",
    re.I,
)
#: Yes-words that also open ordinary sentences as adverbs or adjectives ("Right now the
#: cache…", "Correct me if…", "Sure enough", "Exactly how…"): they say yes only when they
#: stand alone (a mark or the end after them) or another yes, a pronoun or a thanks follows.
_ADVERB_YES = frozenset(
    "correct right exactly indeed absolutely precisely true sure definitely".split()
)
_AFTER_ADVERB_YES = re.compile(
    r"^(?:\s*(?:[,.!;:…~)\-–—]|$)|\s+(?:yes|yeah|yep|exactly|correct|right|that's|that\s+is|"
    r"it\s+is|it's|i|i'm|i\s+do|we|you|please|thanks|thank|thing|of\s+course)\b)",
    re.I,
)
#: What turns a "yes" into a "no" when it follows it ("yes, but...", "right, no.").
_DENIAL_AFTER = re.compile(
    r"^\s*(?:but\b|not\b|no\s*[,.!]*\s*$|no,|nope\b|never\b|wrong\b|incorrect\b|actually\b)",
    re.I,
)
#: A short answer that says yes anywhere ("still accurate, yes").
_YES_WORD = re.compile(
    r"\b(?:yes|yeah|yep|yup|correct|right|exactly|accurate|true|indeed|confirmed)\b"
    r"(?=\s*(?:[,.!;…~]|$))",  # it ends its clause: "still accurate, yes", not "right now"
    re.I,
)
_NO_WORD = re.compile(
    r"\b(?:no|not|nope|never|wrong|incorrect|actually|guess|maybe|perhaps)\b|n't\b", re.I
)
_YES_ZH = re.compile(
    r"^\s*(?:是的|是啊|是呀|是滴|对的|对啊|对呀|对对|对头|没错|正确|确实|是这样|嗯嗯|嗯|当然|可不是"
    # a bare 对 or 就是 says yes standing alone; before more words it opens a sentence
    # ("对了" by the way, "对我来说" to me, "对面" opposite; "就是有点贵" it is just)
    r"|(?:对|就是)(?=[\s，,。.！!～~…]|$|就是|嘛|啊|呀))"
    r"(?![^，,。！!]{0,3}(?:不|没|错))"
)


#: What turns a Chinese "yes" into a "no" when it follows it ("是啊，不过…", "对，但是…").
_BUT_ZH = ("但", "不过", "可是", "只是", "然而")


#: A put-off after the yes ("yeah, maybe later", "嗯 再说吧"): an acknowledgement, no assent.
_DEFER_EN = re.compile(
    r"^\s*(?:maybe\s+)?(?:later|some other time|another time|not now|not yet|we'll see|"
    r"let me think(?: about it)?|i'll think about it)\s*[.!…]*\s*$",
    re.I,
)


def is_confirmation(text: str) -> bool:
    """Whether a user message confirms what was just said: it opens with a yes ("Yes,
    that's right", "Exactly.", "对，没错") that no denial follows ("yes, but not Lyon"),
    or it is an answer of a few words saying yes and no no ("still accurate, yes").

    Example:
        >>> is_confirmation("Yep, exactly"), is_confirmation("Right, but not Lyon")
        (True, False)
        >>> is_confirmation("correct, no meat please"), is_confirmation("对不起")
        (True, False)
        >>> is_confirmation("嗯 再说吧"), is_confirmation("yeah, maybe later")
        (False, False)
        >>> is_confirmation("Right now the cache is cold."), is_confirmation("对了，还有一件事")
        (False, False)
    """
    head = text.strip()[:120]
    if not head:
        return False
    if is_cjk_text(head[:6]):
        m = _YES_ZH.match(head)
        if m is None or head.startswith(("对不起", "对于", "是不是")):
            return False
        rest = head[m.end() :].lstrip(" ，,。.！!～~")
        return not (_DEFER_ZH.match(rest) or rest.startswith(_BUT_ZH))
    m = _YES_EN.match(head)
    if m is not None:
        if m[0].strip().casefold() in _ADVERB_YES and not _AFTER_ADVERB_YES.match(head[m.end() :]):
            return False  # "Right now…", "Correct me if…": an adverb opening a sentence
        rest = head[m.end() :].lstrip(" ,.!-")
        return not (_DENIAL_AFTER.match(rest) or _DEFER_EN.match(rest))
    return len(head.split()) <= 6 and bool(_YES_WORD.search(head)) and not _NO_WORD.search(head)


_TAG_EN = re.compile(
    r"(?:,|\s[-–—])?\s*(?:right|correct|isn't it|is that (?:still )?(?:right|correct|accurate)|"
    r"am i right|yes|no|still (?:accurate|correct|right|true|the case)|"
    r"don't you|aren't you|didn't you|haven't you|do you|did you|won't you|true)\s*\?\s*$",
    re.I,
)
_TAG_ZH = re.compile(
    r"[，,]?\s*还?(?:对吧|对吗|是吗|是吧|对不对|是不是|没错吧|没错吗|吧|吗)\s*[？?]\s*$"
)
#: A real question (it asks, it does not check): a question word or an inverted verb.
_ASKS_EN = re.compile(
    r"^\s*(?:who|whom|whose|what|which|where|when|why|how|do|does|did|are|is|am|was|were|"
    r"can|could|would|will|should|shall|have|has|had|may|might|must)\b",
    re.I,
)
_ASKS_ZH = re.compile(r"什么|哪|谁|怎么|怎样|多少|几|为什么|为何|是否|吗|呢|么")
_SWAP_EN = {
    "you're": "I'm",
    "you are": "I am",
    "you were": "I was",
    "you've": "I've",
    "you'll": "I'll",
    "you'd": "I'd",
    "your": "my",
    "yours": "mine",
    "yourself": "myself",
    "you": "I",
    "i'm": "you're",
    "i am": "you are",
    "i was": "you were",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "me": "you",
    "i": "you",
}
_SWAP_EN_RE = re.compile(
    r"\b(?:" + "|".join(sorted((re.escape(k) for k in _SWAP_EN), key=len, reverse=True)) + r")\b",
    re.I,
)
_SWAP_ZH = {"你们": "我们", "我们": "你们", "您": "我", "你": "我", "我": "你"}
_SWAP_ZH_RE = re.compile("|".join(sorted(_SWAP_ZH, key=len, reverse=True)))


_OBJECT_BEFORE = re.compile(
    r"\b(?:to|for|with|about|at|from|of|like|than|by|on|tell|told|ask|asked|give|gave|"
    r"show|showed|remind|reminded|thank|help|helped|call|let|see|saw|met|meet|love|hate|"
    r"have|has|had|got|get|put|keep|kept|make|made|want|need|send|sent|bring|brought|take|"
    r"took|know|knew|hear|heard|trust|miss|pay|paid|owe|email|text|ping)\s*$",
    re.I,
)
_OBJECT_AFTER = re.compile(
    r"^\s*(?:$|[.,;:!?)\"”]|(?:that|the|a|an|to|about|for|with|and|or|but|so|too|again|"
    r"yesterday|today|before|once)\b)",
    re.I,
)


def _swap_en(m: re.Match[str]) -> str:
    word = m.group(0)
    out = _SWAP_EN[word.lower()]
    if out == "I" and (
        _OBJECT_BEFORE.search(m.string[: m.start()]) or _OBJECT_AFTER.match(m.string[m.end() :])
    ):
        out = "me"  # "I told you that" -> "you told me that"
    if out[0] == "I":
        return out
    starts = not m.string[: m.start()].strip() or m.string[: m.start()].rstrip()[-1] in '.!?"“'
    return out[0].upper() + out[1:] if starts else out


def in_user_voice(text: str) -> str:
    """What the assistant said, as the user would say it: second and first person
    swapped, and a check made a statement: a tag question ("…, right?", "…，对吗？") and
    a statement asked as a question ("your manager is Rosa?", "你的领导是周姐？"). Real
    questions (a question word, an inverted verb) stay questions, and the extractor
    reads nothing from them.

    Example:
        >>> in_user_voice("So you're allergic to peanuts, correct?")
        "So I'm allergic to peanuts."
        >>> in_user_voice("Just to check - your manager is Rosa?")
        'Just to check - my manager is Rosa.'
        >>> in_user_voice("Do you live in Lyon?")
        'Do I live in Lyon?'
    """
    out: list[str] = []
    for sentence in re.split(r"(?<=[.!?。！？])\s*", text.strip()):
        if not sentence:
            continue
        if is_cjk_text(sentence):
            s = _TAG_ZH.sub("。", sentence)
            if s.endswith(("？", "?")) and not _ASKS_ZH.search(s):
                s = s[:-1] + "。"
            out.append(_SWAP_ZH_RE.sub(lambda m: _SWAP_ZH[m.group(0)], s))
        else:
            s = _TAG_EN.sub(".", sentence)
            clause = re.split(r"[,;:]\s+|\s[-–—]\s", s)[-1]
            if s.endswith("?") and not (_ASKS_EN.match(clause) or _ASKS_EN.match(s)):
                s = s[:-1] + "."
            out.append(_SWAP_EN_RE.sub(_swap_en, s))
    joiner = "" if is_cjk_text(text) else " "
    return joiner.join(out)
