"""Query terms for lexical search: question words dropped, common slots expanded.

A question's own words are often not the answer's: "我在哪里工作？" is answered by
"我是一名软件工程师", "我的孩子多大了？" by "我女儿今年六岁了", "Where does she work?"
by "she is a nurse at ...". :func:`query_terms` turns a query into the terms BM25 reads:

- **Question and function words do not count**: 哪里, 什么, 多大, 几岁, 吗, 呢, 谁, 更, 最 …
  (:data:`QUESTION_WORDS`; English question words are stopwords already). They match
  every other question-like message and nothing of the answer.
- **Common slots are expanded**: a query asking about a slot (work, children, age, home,
  hometown, spouse, parents, siblings, pets, food, hobbies, sport, health, money, prices,
  travel, study, commute, vehicles) gets the words an answer is usually written with,
  from the bilingual slot lexicon (``data/slot_lexicon.txt``). Added words weigh less than
  the query's own: the query's words count :data:`OWN_WEIGHT` times (BM25's query term
  counts), each added word once.
- **A comparison finds both sides**: "A和B哪个更冷？" keeps both names and both nouns; the
  comparative markers (更, 最, 比较, 还是, 哪个) are dropped, so neither side outweighs
  the other.

Only the query changes: the index keeps the terms :func:`~langgraph_memory.core.tokens.tokenize`
gives, so existing stores need no rebuild.

Example:
    >>> terms = query_terms("我在哪里工作？")
    >>> "工程师" in terms and "哪里" not in terms and terms.count("工作") == OWN_WEIGHT
    True
    >>> "女儿" in query_terms("我的孩子多大了？")
    True
    >>> query_terms("what did Ann say about the zoo")
    ('ann', 'say', 'zoo')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from langgraph_memory.core.tokens import load_jieba, tokenize

__all__ = ["OWN_WEIGHT", "QUESTION_WORDS", "Slot", "expand_terms", "query_terms", "slots"]

#: How many times a query's own word counts against one added word.
OWN_WEIGHT = 2

#: Words of a question that no answer carries (Chinese; the English ones are stopwords).
QUESTION_WORDS = frozenset(
    """
    谁 哪 哪里 哪儿 哪个 哪些 哪家 哪所 哪位 哪种 哪天 哪年 哪一个 什么 啥 什么样 怎么 怎么样
    怎样 如何 为什么 为何 为啥 多少 多大 多久 多长 多远 多高 几 几个 几岁 几次 几点 几年
    吗 呢 吧 了 啊 呀 么 是不是 有没有 对不对 能不能 会不会 要不要 更 最 比较 还是 哪个更
    平时 一般 通常 到底 究竟 曾经 之前 以前 请问 告诉 记得 知道 提到 说过 聊 聊过
    """.split()
)

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[a-z]+")
_NUMERALS = "一二两三四五六七八九十"
#: 更大 → 大: a comparison's marker goes, its adjective stays.
_COMPARATIVE = re.compile(r"^(?:更加|更|最|比较)(?=[\u4e00-\u9fff])")


@dataclass(frozen=True)
class Slot:
    """One slot of the lexicon: the cues that ask about it, the words that answer it."""

    name: str
    cjk_cues: tuple[str, ...]
    latin_cues: frozenset[str]
    phrases: tuple[str, ...]
    cjk_words: tuple[str, ...]
    latin_words: tuple[str, ...]


@lru_cache(maxsize=1)
def slots() -> tuple[Slot, ...]:
    """The slots of ``data/slot_lexicon.txt`` (loaded once), their words as index terms.

    Example:
        >>> [s.name for s in slots()][:3]
        ['work', 'child', 'age']
    """
    text = resources.files("langgraph_memory").joinpath("data/slot_lexicon.txt").read_text("utf-8")
    out = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, cues, words = (part.strip() for part in line.split("|"))
        cjk = tuple(c for c in cues.split() if _CJK.search(c))
        latin = [c for c in cues.split() if not _CJK.search(c)]
        single = frozenset(t for c in latin if "_" not in c for t in tokenize(c))
        phrases = tuple(f" {c.replace('_', ' ')} " for c in latin if "_" in c)
        terms = dict.fromkeys(t for w in words.split() for t in _word_terms(w))
        out.append(
            Slot(
                name,
                cjk,
                single,
                phrases,
                tuple(t for t in terms if _CJK.search(t)),
                tuple(t for t in terms if not _CJK.search(t)),
            )
        )
    return tuple(out)


def _parts(term: str) -> list[str]:
    """The two-character ends of a Chinese word jieba made up (not in its dictionary) of
    three or more characters: a name run into the particle or verb after it (林晓是 →
    林晓, 周敏家 → 周敏, 张伟办 → 张伟), which the answer writes apart."""
    if len(term) < 3 or not _CJK.fullmatch(term[0]) or not _CJK.fullmatch(term[-1]):
        return []
    if term in _jieba_words():
        return []
    return list(dict.fromkeys((term[:2], term[-2:])))


@lru_cache(maxsize=1)
def _jieba_words() -> Mapping[str, int]:
    """jieba's dictionary (word → frequency), loaded once."""
    import jieba

    load_jieba()
    return jieba.dt.FREQ  # type: ignore[no-any-return]


def _word_terms(word: str) -> list[str]:
    """A lexicon word as index terms; ``#岁`` stands for a Chinese numeral and the unit
    (一岁 … 十岁, 两岁: with jieba's search mode every Chinese number's last digit and
    unit is a term of its own, 六十五岁 → 五岁), and the unit alone (28岁 → 岁)."""
    if word.startswith("#"):
        unit = word[1:]
        return [f"{n}{unit}" for n in _NUMERALS] + [unit]
    return tokenize(word)


def expand_terms(text: str, terms: Sequence[str]) -> list[str]:
    """The lexicon's words for the slots ``text`` asks about (its ``terms`` given), those
    not among the terms already, in lexicon order: the Chinese ones for a query with
    Chinese in it, the English ones for a query with English words.

    Example:
        >>> expand_terms("Where does Ann work?", ["ann", "work"])[:3]
        ['job', 'company', 'office']
    """
    have = set(terms)
    latin = _LATIN_WORD.findall(text.lower())
    padded = " " + " ".join(latin) + " "
    cjk = _CJK.search(text) is not None
    added: dict[str, None] = {}
    for slot in slots():
        if (
            slot.latin_cues & have
            or any(c in text for c in slot.cjk_cues)
            or any(p in padded for p in slot.phrases)
        ):
            words = (slot.cjk_words if cjk else ()) + (slot.latin_words if latin else ())
            for w in words:
                if w not in have:
                    added[w] = None
    return list(added)


def query_terms(text: str) -> tuple[str, ...]:
    """The terms a query's lexical search reads (see the module docs).

    Args:
        text: The query.

    Returns:
        Its own terms without question words (each :data:`OWN_WEIGHT` times when words
        are added, once otherwise), then the slot words it asks for. A query made only
        of question words keeps them.
    """
    raw = [_COMPARATIVE.sub("", t) for t in tokenize(text)]
    own = [t for t in raw if t and t not in QUESTION_WORDS] or [t for t in raw if t]
    own += [p for t in own for p in _parts(t) if p not in own]
    added = expand_terms(text, own)
    if not added:
        return tuple(own)
    return tuple(t for t in own for _ in range(OWN_WEIGHT)) + tuple(added)
