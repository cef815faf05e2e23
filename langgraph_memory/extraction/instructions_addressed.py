"""Whether a user's sentence is said *to* the assistant at all: the gates the learned second
opinion (:mod:`.recogniser`) passes a sentence through before it scores it.

A standing instruction asks the assistant for something. Three things keep a sentence
that cannot be one away from the model, cheapest first:

- :func:`cue`: nothing in it speaks to anyone — no second person, no "please", no lasting
  scope, no prohibition, no word for what the assistant writes, and no clause that opens
  on an imperative (English). Most chat fails here at the cost of one regex, so the model
  is asked about few sentences;
- :func:`own_life`: advice about the addressee's own life — "your mum", "your videos",
  things an assistant does not have (a "your" naming none of what the assistant writes,
  and no "me" the advice is for);
- :func:`told_not_asked`: the user tells of themself or another and asks nothing — every
  clause opens on its subject ("每次算账的时候我都头疼", "Sometimes it's hard…, but I'm sure…,
  I'll reach my dreams!"), with no one addressed;
- :func:`made_said_of`: what the assistant made for the user, said of, with no word that
  makes it a rule ("你给我推荐的电影很好看"; the rules' own test, :mod:`.instructions_zh`).

Example:
    >>> mum = "Whenever you get a chance, call your mum."
    >>> cue(mum), own_life(mum)
    (True, True)
    >>> told_not_asked("每次算账的时候我都头疼。"), told_not_asked("我是色弱，以后图表别用红绿配色")
    (True, False)
    >>> cue("We went hiking last weekend."), cue("Skip the small talk.")
    (False, True)
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import split_clauses
from langgraph_memory.extraction.instructions_zh import zh_made_said_of
from langgraph_memory.extraction.reply_words import EN_MANNER, EN_OWN_OUTPUT, EN_VERBS

__all__ = ["addressed", "cue", "made_said_of", "own_life", "told_not_asked"]

#: A word that speaks to someone, sets a lasting scope, forbids, or names what the
#: assistant writes (English).
_EN_CUE = frozenset(
    "you your yours you're you'll you'd you've u ur please pls plz kindly always never whenever "
    "every each everytime anytime henceforth default future any anything anyone anymore all "
    "only don't dont not no stop avoid answer answers reply replies response responses "
    "explanation explanations summary summaries output code example examples".split()
)
#: A word or a clause boundary, in English.
_EN_TOKEN = re.compile(r"[a-z][a-z'-]*|[,;:—–()]")
#: What may open a clause before its verb: "ok so please just use…".
_EN_BEFORE = frozenset(
    "ok okay also and so then but please pls just oh btw hey well actually kindly simply "
    "really do".split()
)


def _verbs(alternatives: str) -> frozenset[str]:
    """The first words of the verbs of :data:`~.reply_words.EN_VERBS` (its few optional
    letters spelt out: "summari[sz]e", "favou?r")."""
    out: set[str] = set()
    for verb in alternatives.split("|"):
        word = verb.split()[0]
        for w in (word.replace("[sz]", "s"), word.replace("[sz]", "z")):
            out |= {w.replace("u?", "u"), w.replace("u?", "")}
    return frozenset(out)


_EN_VERB = _verbs(EN_VERBS)


def _imperative_clause(words: list[str]) -> bool:
    """Whether a clause of these words (and boundaries) opens on an imperative verb."""
    start = True
    for w in words:
        if w in ",;:—–()" or w in ("so", "and", "then", "but"):
            start = True
        elif start and w in _EN_BEFORE:
            continue
        elif start and w in _EN_VERB:
            return True
        else:
            start = False
    return False


#: The same in Chinese: a second person, a request, a lasting scope, a prohibition, a
#: condition the rule is for ("…的时候", "…的话"), what the assistant writes.
_ZH_CUE = re.compile(
    r"你|您|请|麻烦|拜托|给我|帮我|问我|告诉我|提醒我|叫我|教我|以后|今后|往后|每次|每回|每当|总是|"
    r"一律|始终|默认|所有|凡是|只要|任何|都|别|不要|不用|不必|无需|记得|记住|一直|就行|就好|"
    r"的时候|的话|之前|先|要|得|按|用|回答|回复|答案|代码|推荐|解释|总结|格式"
)


def cue(sentence: str) -> bool:
    """Whether anything in ``sentence`` could speak to the assistant (see the module).

    Example:
        >>> cue("From now on, keep it short."), cue("I went to the beach yesterday.")
        (True, False)
        >>> cue("I'm tracking my intake so include rough calories"), cue("以后都用中文")
        (True, True)
    """
    if is_cjk_text(sentence):
        return _ZH_CUE.search(sentence) is not None
    low = sentence.casefold()
    words = _EN_TOKEN.findall(low)
    return not _EN_CUE.isdisjoint(words) or "from now on" in low or _imperative_clause(words)


_YOUR = re.compile(r"\byour\s+((?:[\w'-]+\s*){1,3})|你的\s*(.{1,4})", re.I)
_ME = re.compile(r"\b(?:me|my|mine|i|i'm|i'd|i've|i'll)\b|我", re.I)
_ZH_WRITES = re.compile(r"回答|回复|答案|建议|推荐|代码|解释|总结|格式|语气|例子|说法|意见")


def own_life(sentence: str) -> bool:
    """Whether ``sentence`` is advice about the addressee's own life: it names something
    of "yours" that is none of what an assistant writes ("call your mum", "your videos"),
    and no "me" the advice is for ("give me your top pick" is for the user).

    Example:
        >>> own_life("That way your videos don't flop when you post them.")
        True
        >>> own_life("Keep your answers short.")
        False
        >>> own_life("Double-check your arithmetic before giving me a number.")
        False
    """
    found = list(_YOUR.finditer(sentence))
    if not found or _ME.search(sentence):
        return False
    return not any(
        EN_MANNER.search(m[1]) if m[1] is not None else _ZH_WRITES.search(m[2]) for m in found
    )


_SECOND = re.compile(r"\b(?:you|your|yours|you'\w+|u|ur)\b|你|您", re.I)
#: A request, or a want said of the user's own ("I don't want reminders", "我希望…").
_REQUEST = re.compile(
    r"\b(?:please|pls|plz|kindly|let's|want|wants|need|needs|'d like|would like|prefer|rather)\b|"
    r"请|麻烦|拜托|记得|记住|希望|想要|需要",
    re.I,
)
#: An English clause opening on its subject: the user, another, "it", "there".
_EN_TOLD = re.compile(
    r"^(?:(?:so|but|and|because|cause|though|although|actually|honestly|sometimes|usually|"
    r"often|really|well|oh|anyway|now|then|also|still|yet|plus|lol|haha|yeah|yes|no|ok|okay)"
    r"\b[\s,]*)*(?:i|i'm|i've|i'll|i'd|im|my|we|we're|we've|our|he|he's|she|she's|they|"
    r"they're|their|his|her|it|it's|its|there|there's|that's|this is|things|everything|"
    r"nothing|life)\b",
    re.I,
)
#: A Chinese clause opening on its subject (after a connective or a time word).
_ZH_TOLD = re.compile(
    r"^(?:(?:所以|但是|但|可是|不过|而且|因为|其实|反正|然后|有时候?|平时|最近|今天|昨天|每天)\s*)*"
    r"(?:我|他|她|它)"
)
#: The end of a Chinese time clause: what follows is the clause's own ("每次算账的时候|我都头疼").
_ZH_WHEN = re.compile(r"的时候|时候")
_ZH_PARTS = re.compile(r"[，,；;：:。！!～~\s]+")


def told_not_asked(sentence: str) -> bool:
    """Whether ``sentence`` tells of the user (or another) and asks nothing: no one is
    addressed, no request word, nothing of what the assistant writes, and every clause
    opens on its subject.

    Example:
        >>> told_not_asked("Sometimes it's hard, but I'm sure I'll reach my dreams!")
        True
        >>> told_not_asked("I'm vegetarian, so never suggest meat.")
        False
        >>> told_not_asked("我问单词的时候顺便给个例句")
        False
    """
    if _SECOND.search(sentence) or _REQUEST.search(sentence):
        return False
    if is_cjk_text(sentence):
        if _ZH_WRITES.search(sentence):
            return False
        parts = [_ZH_WHEN.split(p)[-1] for p in _ZH_PARTS.split(sentence)]
        told = _ZH_TOLD
    else:
        if EN_OWN_OUTPUT.search(sentence):
            return False
        parts = [c for _, c in split_clauses(sentence)]
        told = _EN_TOLD
    parts = [p.strip() for p in parts if p.strip()]
    return bool(parts) and all(told.match(p) for p in parts)


def made_said_of(sentence: str) -> bool:
    """Whether ``sentence`` says something of what the assistant made for the user, and no
    rule ("给我推荐的书都挺好看的"; Chinese: the rules' own reading of it).

    Example:
        >>> made_said_of("你给我推荐的电影很好看"), made_said_of("给我推荐的菜谱都要少盐")
        (True, False)
    """
    return is_cjk_text(sentence) and zh_made_said_of(sentence.strip())


def addressed(sentence: str) -> bool:
    """Whether ``sentence`` may be said to the assistant: it has a :func:`cue`, is not
    advice about the addressee's :func:`own_life`, is not :func:`told_not_asked`, and
    not :func:`made_said_of`.

    Example:
        >>> addressed("Never use emojis."), addressed("Whenever you get a chance, call your mum.")
        (True, False)
    """
    if not cue(sentence) or own_life(sentence) or told_not_asked(sentence):
        return False
    return not made_said_of(sentence)
