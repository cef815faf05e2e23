"""A password written on the line below the words that name it, when its label's line
gives no value (for the label reader, :mod:`~langgraph_memory.sensitivity.labels`):
``password for the NAS`` then ``hunter22``, ``wifi password below`` then a blank line
and ``Moose2024``, ``Here is the root password for the staging box, use it carefully:``
then ``Tr0ub4dor&3``, ``服务器root密码如下`` then ``Tr0ub4dor&3``.

The label's line holds a password's or a key's name (a label word of
:mod:`~langgraph_memory.sensitivity.label_words`, not glued to a name), at most eight
words after it, and no value: no digit, no ``=``, nothing after a colon, no question, no
word saying the password is talked about (``forgot``, ``reset``, ``重置``...). The next
line (one blank line may come first) is one token of 6 to 64 characters that mixes
letters with digits or symbols and is no link, path, e-mail address, version,
placeholder or row of a table. A label's line that says where its value stands (``on
the next line``, ``写在最后一行``) may say anything else: its value is that line's token.

Example:
    >>> from langgraph_memory.sensitivity.label_words import label_matches
    >>> text = "password for the NAS\\nhunter22"
    >>> [text[a:b] for a, b, _ in values_below(text, label_matches(text, text.lower()))]
    ['hunter22']
    >>> text = "I forgot my password\\nhelp2024"
    >>> list(values_below(text, label_matches(text, text.lower())))
    []
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.label_values import VERSION
from langgraph_memory.sensitivity.label_words import read_label
from langgraph_memory.sensitivity.no_value import rejected

__all__ = ["values_below"]

#: Label kinds whose value may stand on the next line: a password's and a key's.
_KINDS = frozenset(("pw", "pwzh", "key", "keyzh"))
#: The rest of the label's line: no digit (a value), ``=`` (code), question or second line.
_REST = re.compile(r"[^\d=?？\n]{0,80}?[ \t]*(?=\r?\n)")
#: A colon with something after it on the label's line: a value given there (rejected
#: or not: ``password: !vault |`` then the vault's lines).
_GIVEN = re.compile(r"[:：][ \t]*\S")
#: The next line (after at most one blank line): one token alone on its line.
_NEXT = re.compile(r"\r?\n(?:[ \t]*\r?\n)?[ \t]*(?P<value>[\x21-\x7e]{6,64})[ \t]*(?=\r?\n|$)")
#: Words saying the password is talked about, not given (``I forgot my password``).
_TALK = re.compile(
    r"(?i:forg[eo]t|reset|change|expired?|wrong|incorrect|invalid|manager|policy|rules?|hint"
    r"|requirements?|length|strength|strong|weak|hash|field|prompt|required|enter[ \t]+your"
    r"|how|what|where|why|which|can't|cannot|don't|doesn't)(?![a-z])"
    r"|忘|重置|修改|改了|错误|錯誤|不对|不對|过期|過期|要求|规则|規則|长度|長度|怎么|怎麼|什么|什麼|哪"
)
#: Words saying where the value stands: on the next line (any words then), on the last.
_POINTER = re.compile(
    r"(?i:(?:on|in)[ \t]+the[ \t]+(?P<next>next|following)[ \t]+line"
    r"|(?:on|in)[ \t]+the[ \t]+(?P<last>last|final|bottom)[ \t]+line)"
    r"|(?P<next_zh>下一行|下一行|下面一行)|(?P<last_zh>最后一行|最後一行|最下面一行|末行)"
)
#: The text's last line: one token alone on it.
_LAST = re.compile(r"\n[ \t]*(?P<value>[\x21-\x7e]{6,64})[ \t]*\Z")
#: What the token below must not be: a link, a path (``~`` opening it: a ``~`` inside is a
#: password's symbol), an e-mail address.
_NOT_VALUE = re.compile(r"(?i:[a-z][a-z0-9+.\-]*://|www\.)|[/\\]|^~|^[^@]+@[^@]+\.[A-Za-z]{2,}$")


def _mixed(value: str) -> bool:
    """Letters with digits or symbols (``hunter22``, ``Tr0ub4dor&3``, ``Xk9#mQ2v``)."""
    value = value.rstrip(".,;:!?")  # (a sentence's end is no symbol: "Thanks!")
    letters = any(c.isalpha() for c in value)
    return letters and any(c.isdigit() or not c.isalnum() for c in value)


def values_below(text: str, labels: list[re.Match[str]]) -> Iterator[tuple[int, int, str]]:
    """``(start, end, "keyword")`` of each password on the line below a label of
    ``labels`` (the label words of ``text``) whose own line gives no value."""
    for m in labels:
        label = read_label(text, m)
        if label is None or label[0] not in _KINDS or label[2]:
            continue
        rest = _REST.match(text, m.end())
        point = _POINTER.search(rest.group()) if rest is not None else None
        if point is not None and rest is not None:  # "(password on the next line, ...)"
            if _TALK.search(text, text.rfind("\n", 0, m.start()) + 1, m.start()):
                continue  # "I forgot the password on the next line": talked about
            last = point.group("last") or point.group("last_zh")
            below = _LAST.search(text, rest.end()) if last else _NEXT.match(text, rest.end())
        elif rest is None or len(rest.group().split()) > 8 or _GIVEN.search(rest.group()):
            continue
        else:
            line = text[text.rfind("\n", 0, m.start()) + 1 : rest.end()]
            if len(line) > 120 or "|" in line or "\t" in line or _TALK.search(line):
                continue  # (a table's header: its columns are read apart)
            below = _NEXT.match(text, rest.end())
        if below is None:
            continue
        value = below.group("value")
        a, b = below.span("value")
        if "," in value or not _mixed(value) or _NOT_VALUE.search(value):
            continue  # (a comma-separated row of cells, read apart)
        if VERSION.fullmatch(value):
            continue
        if rejected(value, ":", text, b):
            continue
        yield a, b, "keyword"
