"""Token counting and lexical tokenisation, in English and Chinese.

Token counting follows the project's convention: a CJK character counts as one
token, any other text four characters per token (rounded up). Lexical
tokenisation lower-cases, splits Latin text on word boundaries, drops English
stopwords, folds plurals, and cuts CJK runs with jieba.

Example:
    >>> count_tokens("hello world")
    3
    >>> count_tokens("你好")
    2
    >>> tokenize("The cats are sleeping")
    ['cat', 'sleeping']
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections.abc import Collection
from functools import lru_cache
from importlib import resources

__all__ = [
    "count_tokens",
    "count_cjk",
    "tokenize",
    "terms_of",
    "is_cjk_text",
    "content_words",
    "stopwords",
    "jieba_cut",
    "load_jieba",
]

_CJK_RE = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
    r"\U00020000-\U0002ffff]"
)
_CJK_RUN_RE = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
    r"\U00020000-\U0002ffff]+"
)
_WORD_RE = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)

_jieba_lock = threading.Lock()
_jieba_ready = False


def count_tokens(text: str) -> int:
    """Count tokens: a CJK character is 1 token, other text 4 characters per token.

    Args:
        text: Any text.

    Returns:
        The token count (0 for empty text).
    """
    if not text:
        return 0
    cjk = count_cjk(text)
    return cjk + math.ceil((len(text) - cjk) / 4)


def count_cjk(text: str) -> int:
    """Number of CJK characters in ``text``."""
    if text.isascii():  # a flag of the string: no scan (the read path counts thousands)
        return 0
    return len(_CJK_RE.findall(text))


def is_cjk_text(text: str) -> bool:
    """Whether ``text`` contains any CJK character."""
    return not text.isascii() and _CJK_RE.search(text) is not None


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    """The English and Chinese stopwords the tokeniser drops (loaded once)."""
    data = resources.files("langgraph_memory").joinpath("data/stopwords.txt").read_text("utf-8")
    return frozenset(
        w.strip().lower() for w in data.splitlines() if w.strip() and not w.startswith("#")
    )


def load_jieba() -> None:
    """Load jieba's dictionary unless it is loaded (once per process, thread-safe)."""
    global _jieba_ready
    if not _jieba_ready:
        import jieba

        with _jieba_lock:
            if not _jieba_ready:
                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba_ready = True


def jieba_cut(text: str) -> list[str]:
    """jieba's search-mode segmentation of ``text`` (jieba initialised once, thread-safe)."""
    import jieba

    load_jieba()
    return list(jieba.cut_for_search(text))


def _fold(word: str) -> str:
    """A light English stemmer: folds plurals and possessives."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Split text into lexical terms for BM25 (English and Chinese).

    Args:
        text: Any text.

    Returns:
        Lower-cased terms, stopwords removed, in text order (with repeats).
    """
    # The write path tokenises each message several times (index, page keywords,
    # extraction) within a few seconds: a small cache of recent texts saves that.
    if len(text) <= 2000:
        return list(_tokenize_cached(text))
    return list(_tokenize(text))


def terms_of(query: str | Collection[str]) -> set[str]:
    """The distinct terms of a query given as text, or as its terms (tokenised once by
    the caller: the read path hands every ranker one query value).

    Example:
        >>> sorted(terms_of("Where do the bees live?")), terms_of({"bee"})
        (['bee', 'live'], {'bee'})
    """
    return set(tokenize(query)) if isinstance(query, str) else set(query)


@lru_cache(maxsize=8192)
def _tokenize_cached(text: str) -> tuple[str, ...]:
    return _tokenize(text)


def _tokenize(text: str) -> tuple[str, ...]:
    stop = stopwords()
    out: list[str] = []
    pos = 0
    text = text.lower()
    for m in _CJK_RUN_RE.finditer(text):
        out.extend(_latin_terms(text[pos : m.start()], stop))
        out.extend(t for t in jieba_cut(m.group()) if t.strip() and t not in stop)
        pos = m.end()
    out.extend(_latin_terms(text[pos:], stop))
    return tuple(out)


def _latin_terms(text: str, stop: frozenset[str]) -> list[str]:
    return [_fold(w) for w in _WORD_RE.findall(text) if w not in stop]


def content_words(text: str) -> set[str]:
    """The set of content words of ``text`` (its terms without stopwords)."""
    return set(tokenize(text))
