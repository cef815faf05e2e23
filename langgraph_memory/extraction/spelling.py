"""Chat spellings read as the words they stand for, before a clause's form is read.

People type fast: "pls alwys include sources w/ links when u cite studies", "i realy dont
like mushrooms", "我灰常喜欢周杰伦". The readers of instructions and preferences
(:mod:`.instructions`, :mod:`.preferences`) know the words' standard spellings, so a
clause is put in them first. Only whole words in lower case change, and only spellings
with one reading ("u" → "you", "dont" → "don't"); a word that may be meant as written
("id", "ill", "were", "IM", "U.S.") or read two ways ("yr": year or your; "ur": your or
you're; "cuz": because or cousin; "yu": a name) stays.

Example:
    >>> plain_spelling("pls alwys include sources w/ links when u cite studies")
    'please always include sources with links when you cite studies'
    >>> plain_spelling("i realy dont like mushrooms")
    "I really don't like mushrooms"
    >>> plain_spelling("我灰常喜欢周杰伦的歌")
    '我非常喜欢周杰伦的歌'
"""

from __future__ import annotations

import re

__all__ = ["plain_spelling"]

#: Chat spellings with one reading, by their standard word.
_EN_WORDS = {
    "please": "pls|plz|pleeease|pleease|pleez",
    "always": "alwys|allways|alway|alwayz|alwasy",
    "never": "nevr|neva",
    "you": "u",
    "you're": "youre",
    "with": "w/",
    "without": "w/o",
    "don't": "dont",
    "doesn't": "doesnt",
    "didn't": "didnt",
    "can't": "cant",
    "won't": "wont",
    "isn't": "isnt",
    "I'm": "im",
    "I've": "ive",
    "I": "i",
    "really": "realy|rly|reallly|realllly",
    "love": "luv|looove|loooove",
    "because": "coz",
    "anymore": "anymroe|anymoar",
    "thanks": "thx|thnx|tnx",
}
_EN_STANDARD = {v.lower(): k for k, vs in _EN_WORDS.items() for v in vs.split("|")}
_EN_FIND = re.compile(
    r"(?<![\w/'’.-])(?:"
    + "|".join(sorted(_EN_STANDARD, key=len, reverse=True))
    + r")(?![\w/'’]|[.-]\w)"
)  # lower case only: "IM", "BC", "U.S." are words of their own
#: Chinese homophone spellings of intensifiers: "灰常" for "非常".
_ZH_WORDS = re.compile(r"灰常|飞常|肥常")


#: Every chat spelling, for a quick test of a text's words before any search.
_EN_KEYS = frozenset(_EN_STANDARD)
_LOWER_WORD = re.compile(r"[a-z/]+")


def plain_spelling(text: str) -> str:
    """``text`` with chat spellings replaced by the standard words (see the module docs)."""
    if not text.isascii():
        text = _ZH_WORDS.sub("非常", text)
    if _EN_KEYS.isdisjoint(_LOWER_WORD.findall(text)):
        return text  # most texts: no chat spelling at all
    return _EN_FIND.sub(lambda m: _EN_STANDARD[m.group(0)], text)
