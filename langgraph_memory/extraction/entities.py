"""Named entities for the extractor: capitalised names in English, jieba in Chinese.

English names are runs of capitalised words; a capitalised first word of a
sentence counts only when it is also capitalised elsewhere or part of a longer
name. Types come from the words around a name ("in Paris" → place, "at Google"
→ org, "is my sister" → person). Chinese entities are jieba's ``nr`` (person),
``ns`` (place) and ``nt`` (org) words, plus words ending in an organisation
suffix (公司, 大学, 银行...).

Example:
    >>> find_entities("I met Alice Smith in Paris.")
    [(6, 'Alice Smith', 'person'), (21, 'Paris', 'place')]
    >>> [(name, kind) for _, name, kind in find_entities("我住在上海")]
    [('上海', 'place')]
"""

from __future__ import annotations

import re
import threading

from langgraph_memory.core.held_texts import text_cache
from langgraph_memory.core.tokens import is_cjk_text, load_jieba, stopwords
from langgraph_memory.extraction.rules import KIN_ZH

__all__ = ["SURNAMES", "find_entities", "sentence_spans", "zh_tags"]

#: A sentence ends at its terminator, not at a title's dot ("Dr. Okafor", "Mr. Ortiz").
#: The lookahead first: the titles are looked behind only where a terminator is, not at
#: every position (a third of the time of a split).
_SENTENCE_END = re.compile(
    r"(?=[.!?])(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bProf)(?<!\bSt)"
    r"(?<!\besp)(?<!\bvs)(?<!\be\.g)(?<!\bi\.e)[.!?]+(?=\s|$)"  # "…, esp. Coltrane": one sentence
    r"|[。！？；\n]+|;+(?![A-Za-z0-9])"  # "TL;DR" is a word, not two sentences
)


def sentence_spans(text: str) -> list[tuple[int, str]]:
    """Sentences with their offsets; terminators stay with their sentence.

    Example:
        >>> sentence_spans("I like tea. 我住在上海。")
        [(0, 'I like tea.'), (11, ' 我住在上海。')]
    """
    return list(_spans(text))


@text_cache(maxsize=16)
def _spans(text: str) -> tuple[tuple[int, str], ...]:
    """:func:`sentence_spans`, kept for the last few texts: the readers of one message
    (rules, slots, forms, entities) each split it."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        out.append((start, text[start : m.end()]))
        start = m.end()
    if start < len(text):
        out.append((start, text[start:]))
    return tuple((s, t) for s, t in out if t.strip())


_EN_ENTITY = re.compile(
    r"\b(?:[A-Z][a-zA-Z'&.-]*[a-zA-Z]|[A-Z])(?:\s+(?:of|de|van|von|the)?\s*[A-Z][a-zA-Z'&.-]*[a-zA-Z])*"
)
_NOT_ENTITY = frozenset(
    "i i'm i've i'd i'll monday tuesday wednesday thursday friday saturday sunday january "
    "february march april may june july august september october november december ok okay "
    "yes no hi hello hey thanks please sorry mr mrs ms dr".split()
)
_ORG_SUFFIX = re.compile(
    r"\b(?:Inc|Corp|Corporation|Ltd|LLC|GmbH|University|College|Bank|Company|Group|Labs?|"
    r"Institute|Hospital|School|Foundation|Agency|Studio|Studios)\b\.?$"
)
_PLACE_BEFORE = re.compile(r"\b(?:in|from|to|near|visit(?:ed|ing)?|around|across)\s+$", re.I)
_ORG_BEFORE = re.compile(r"\b(?:at|for|join(?:ed)?|with the)\s+$", re.I)
_PERSON_AROUND = re.compile(
    r"(?:\b(?:named|called|met|with|and|friend|sister|brother|mom|dad|wife|husband|boss)\s+$)",
    re.I,
)
_PERSON_AFTER = re.compile(r"\s*(?:is my|'s\b|said|says|told|and I\b|works|lives)")
_ZH_ORG = re.compile(r"(?:公司|集团|大学|学院|银行|医院|研究院|研究所|科技|中学|小学|实验室)$")
#: Common surnames: a word jieba tags ``nr`` must start with one to count as a name.
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃"
    "武戴莫孔向汤小老阿欧司诸上"
)
#: Common Chinese surnames (and the 小/老/阿 of a familiar name).
SURNAMES = _SURNAMES
_KIN = frozenset(KIN_ZH.split("|"))
_ZH_POS = {"nr": "person", "nrfg": "person", "nrt": "person", "ns": "place", "nt": "org"}
_jieba_lock = threading.Lock()


def _entity_type_en(name: str, before: str, after: str) -> str:
    if _ORG_SUFFIX.search(name) or (name.isupper() and len(name) > 1):
        return "org"
    if _ORG_BEFORE.search(before):
        return "org"
    if _PLACE_BEFORE.search(before):
        return "place"
    if _PERSON_AROUND.search(before) or _PERSON_AFTER.match(after):
        return "person"
    return "other"


def _entities_en(text: str) -> list[tuple[int, str, str]]:
    stop = stopwords()
    starts = {s for s, _ in sentence_spans(text)}
    caps_mid = {
        m.group()
        for m in _EN_ENTITY.finditer(text)
        if m.start() not in starts and text[: m.start()].rstrip()[-1:] not in ".!?"
    }
    out = []
    for m in _EN_ENTITY.finditer(text):
        name = m.group().strip()
        low = name.lower()
        if low in _NOT_ENTITY or low in stop or len(name) < 2:
            continue
        at_start = m.start() in starts or text[: m.start()].rstrip()[-1:] in ("", ".", "!", "?")
        before, after = text[max(0, m.start() - 30) : m.start()], text[m.end() : m.end() + 20]
        lone = " " not in name and name not in caps_mid and not _PERSON_AFTER.match(after)
        if at_start and lone:
            continue  # a capitalised first word is not a name on its own evidence
        out.append((m.start(), name, _entity_type_en(name, before, after)))
    return out


def zh_tags(text: str) -> list[tuple[str, str]]:
    """``(word, part-of-speech)`` of a Chinese text by jieba's dictionary (no HMM pass).

    Example:
        >>> zh_tags("安娜调去数据组了")[:2]
        [('安娜', 'nr'), ('调', 'v')]
    """
    load_jieba()
    import jieba.posseg as pseg

    with _jieba_lock:
        return [(p.word, p.flag) for p in pseg.cut(text, HMM=False)]


def _entities_zh(text: str) -> list[tuple[int, str, str]]:
    load_jieba()  # the dictionary posseg shares (thread-safe, once)
    import jieba.posseg as pseg

    out = []
    pos = 0
    with _jieba_lock:
        pairs = [(p.word, p.flag) for p in pseg.cut(text, HMM=False)]
    for word, flag in _with_names(pairs):
        at = text.find(word, pos)
        if at < 0:
            continue
        pos = at + len(word)
        if not is_cjk_text(word) or len(word) < 2:
            continue
        kind = _ZH_POS.get(flag)
        if flag == "nr" and (word[0] not in _SURNAMES or word in _KIN):
            kind = None  # jieba tags many ordinary words nr
        if _ZH_ORG.search(word):
            kind = "org"
        if kind:
            out.append((at, word, kind))
    return out


def _with_names(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``pairs`` with each run of single characters that starts a name tagged again
    by jieba's HMM, the only pass that finds names there ("小白" in "猫叫小白").

    The HMM pass is ~20x slower than the dictionary's (about 0.25 ms a character) and
    only changes such runs, so it runs on the run alone; a name comes back often in a
    conversation, so runs are cached.
    """
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and len(pairs[j][0]) == 1 and is_cjk_text(pairs[j][0]):
            j += 1
        run = pairs[i:j]
        if any(a[0] in _SURNAMES for a, _ in zip(run, run[1:], strict=False)):
            out.extend(_hmm_tags("".join(w for w, _ in run)))
        else:
            out.extend(run)
        if j < len(pairs):
            out.append(pairs[j])
        i = j + 1
    return out


@text_cache(maxsize=4096)
def _hmm_tags(run: str) -> tuple[tuple[str, str], ...]:
    import jieba.posseg as pseg

    with _jieba_lock:
        return tuple((p.word, p.flag) for p in pseg.cut(run))


def load_chinese() -> None:
    """Load jieba's dictionaries (segmentation and part-of-speech tags) now.

    Both load on first use otherwise: ~1 s for the first Chinese message and
    ~0.5 s more for the first Chinese memory extracted.
    """
    _entities_zh("初始化")


def find_entities(text: str) -> list[tuple[int, str, str]]:
    """Named entities of ``text``: ``(offset, name, type)`` with type person/place/org/other."""
    found = _entities_zh(text) if is_cjk_text(text) else []
    return sorted(found + _entities_en(text))
