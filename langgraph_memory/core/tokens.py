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

from langgraph_memory.core.held_texts import register, text_cache

__all__ = [
    "count_tokens",
    "count_cjk",
    "tokenize",
    "tokenize_queued",
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

#: Characters of queued message texts whose terms wait for the worker (see
#: :func:`tokenize_queued`): some 16,000 chat messages of 60 characters, about 10 MB
#: with their terms (the bound, when nothing takes them: a process placing no messages).
QUEUED_CHARS = 1_000_000
_queued: dict[str, tuple[str, ...]] = {}
_queued_chars = 0
_queued_lock = threading.Lock()


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
    return list(_terms(text))


def _terms(text: str) -> tuple[str, ...]:
    """:func:`tokenize`'s terms: of a short text from the recent-text cache (the write path
    tokenises each message several times, index, page keywords, extraction, within a few
    seconds), of a long one from the queued hold or read anew."""
    if len(text) <= 2000:
        return _tokenize_cached(text)
    return _take_queued(text) or _tokenize(text)


def tokenize_queued(text: str) -> list[str]:
    """:func:`tokenize` for a message entering the embedding queue: its terms are also
    held (by text, the oldest dropped past :data:`QUEUED_CHARS`) until the next
    :func:`tokenize` of that text past the recent-text cache takes them.

    Bulk loading runs ``add_message`` thousands of messages ahead of the worker, past
    that cache, so the worker tokenised every message a second time (page keywords). A
    text's terms depend on the text alone: whatever the user or message, a held entry
    is exact.

    Example:
        >>> tokenize_queued("The cats are sleeping")
        ['cat', 'sleeping']
    """
    terms = _terms(text)
    global _queued_chars
    with _queued_lock:
        if text not in _queued:
            _queued[text] = terms
            _queued_chars += len(text)
            while _queued_chars > QUEUED_CHARS:
                _queued_chars -= len(oldest := next(iter(_queued)))
                del _queued[oldest]
    return list(terms)


def _take_queued(text: str) -> tuple[str, ...] | None:
    """The terms :func:`tokenize_queued` holds for ``text``, taken out of the hold."""
    global _queued_chars
    with _queued_lock:
        terms = _queued.pop(text, None)
        if terms is not None:
            _queued_chars -= len(text)
    return terms


def _forget_queued() -> None:
    """Drop every text the tokenizer holds in this process (the recent-text cache and
    the queued messages' terms): :func:`~langgraph_memory.core.held_texts.forget_texts`
    calls it, as a deletion does, so no deleted message's text stays in memory by way
    of its terms. Only speed is lost; the terms are read again when asked.

    Example:
        >>> from langgraph_memory.core.held_texts import forget_texts
        >>> _ = tokenize_queued("a text about to be deleted " * 100)
        >>> forget_texts()
        >>> "a text about to be deleted " * 100 in _queued
        False
    """
    global _queued_chars
    with _queued_lock:
        _queued.clear()
        _queued_chars = 0


register("langgraph_memory.core.tokens._queued", _forget_queued)


def terms_of(query: str | Collection[str]) -> set[str]:
    """The distinct terms of a query given as text, or as its terms (tokenised once by
    the caller: the read path hands every ranker one query value).

    Example:
        >>> sorted(terms_of("Where do the bees live?")), terms_of({"bee"})
        (['bee', 'live'], {'bee'})
    """
    return set(tokenize(query)) if isinstance(query, str) else set(query)


@text_cache(maxsize=8192)
def _tokenize_cached(text: str) -> tuple[str, ...]:
    return _take_queued(text) or _tokenize(text)


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
