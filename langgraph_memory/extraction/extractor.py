"""Extraction of memory atoms: facts, preferences, decisions, tasks, entities, relations.

The first step of the write gate. With an LLM, the model extracts the atoms
(structured output through :func:`~langgraph_memory.core.llm.structured_call`);
without one, or when its answer is malformed, rules for English and Chinese do
(:mod:`langgraph_memory.extraction.rules`). Rules skip questions ("do I
like tea?", "我喜欢什么？") and hypotheticals ("if I liked tea", "如果我喜欢"),
read negations ("I don't like", "我不喜欢" → polarity −1) and hedges ("I don't
think I like jazz" → −1, inferred), and pick up scopes ("for coffee", "at work",
"工作的时候").

Sources and confidences follow the design documents: a direct first-person
statement is ``explicit`` (1.0), a habit the user states ("I usually drink
tea", "我平时喝绿茶") included; anything else — hedges ("I think I like jazz"),
the dispreferred side of a comparison, what an assistant says — is ``inferred``
(0.6).

Example:
    >>> [(a.kind, a.key, a.value, a.polarity) for a in extract_atoms("I'm allergic to peanuts.")]
    [('fact', 'allergy', 'peanuts', 1)]
    >>> [(a.value, a.polarity, a.source) for a in extract_atoms("我不喜欢香菜")]
    [('香菜', -1, 'explicit')]
    >>> extract_atoms("If I liked jazz, I'd go to the concert.")
    []
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from langgraph_memory.core.llm import structured_call
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.atoms import CONFIDENCE, KINDS, MemoryAtom
from langgraph_memory.extraction.before import Before, Spans
from langgraph_memory.extraction.cues import Cued, opened, scan
from langgraph_memory.extraction.entities import find_entities, sentence_spans
from langgraph_memory.extraction.forms import form_atoms
from langgraph_memory.extraction.llm import PROMPT, AtomDraft, ExtractionDraft, from_draft
from langgraph_memory.extraction.rules import KIN_EN, RULES, Rule

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "MemoryAtom",
    "Extractor",
    "extract_atoms",
    "aextract_atoms",
    "KINDS",
    "CONFIDENCE",
    "AtomDraft",
    "ExtractionDraft",
]

log = logging.getLogger(__name__)

# -- text helpers -----------------------------------------------------------------------------
_ZH_QUESTION = re.compile(r"什么|哪|谁|吗|啥|怎么|多少|为何|是否")
_EN_QUESTION_VALUE = re.compile(r"^(?:what|which|who|whom|whatever|anything)\b", re.I)
_PRONOUNS = frozenset(
    "it that this them you him her those these one so too ones i me we us".split()
    + "你 他 她 它 你们 他们 这个 那个".split()
)
# A liking whose object is the other speaker or theirs ("I love your turtles", "I love
# you guys", "我喜欢你做的菜": a compliment) or a pronoun that a new clause follows ("I
# love it and that'll keep me going"): nothing about the user's own tastes. "I prefer
# you use tabs" (what the other should do) stays.
_NO_OBJECT_EN = re.compile(
    r"^(?:(?:your|yours|ur)\b|(?:you|ya)(?:\s+(?:guys|all|two|both))?\s*(?:$|[,;:!.]|"
    r"\b(?:and|but|so|too|because)\b)|(?:it|that|this|them|those|these)\s*(?:[,;:]|"
    r"\b(?:and|but|so|because|which|since|as)\b))",
    re.I,
)
_NO_OBJECT_ZH = re.compile(r"^(?:你|您)们?(?:的|做的|家|这|那|$)")
_EN_TRAIL = re.compile(
    r"(?:\s+(?:a lot|very much|so much|too|anymore|any more|at all|either|as well|"
    r"the most|more|better|best|really|though|now|instead))+$",
    re.I,
)
_ZH_TRAIL = re.compile(r"[了的啊呀呢吧哦嘛啦哈]+$")
_EN_SCOPE_SUFFIX = re.compile(
    r"\s+(?P<scope>(?:at|for|when|while|during|on)\s+(?:work|home|the office|school|weekends?|"
    r"breakfast|lunch|dinner|the morning|the evening|night|(?:my|our|this|the)\s+[\w -]{1,25}|"
    r"[\w'-]+(?:ing)?(?:\s[\w'-]+){0,2})|in the (?:morning|evening|afternoon|summer|winter))$",
    re.I,
)
_COMPARE_EN = re.compile(r"\s+(?:over|rather than|instead of|more than|than|to)\s+", re.I)
_COMPARE_ZH = re.compile(r"而不是|而非|胜过|多过|多于")
_LEAD_EN = re.compile(r"^(?:to\s+|the\s+|a\s+|an\s+|my\s+|some\s+)+", re.I)
_KEY_VERBS_EN = re.compile(
    r"^(?:to\s+)?(?:drink(?:ing)?|eat(?:ing)?|watch(?:ing)?|listen(?:ing)? to|play(?:ing)?|"
    r"read(?:ing)?|us(?:e|ing)|wear(?:ing)?|cook(?:ing)?|have|having)\s+",
    re.I,
)
_KEY_VERBS_ZH = re.compile(r"^(?:吃|喝|看|听|玩|用|穿)(?=[\u4e00-\u9fff\w]{2})")
_TIME_TAIL = re.compile(
    r"\s+(?:(?:last|this|next)\s+(?:year|month|week|weekend|night|\w+day)|yesterday|today|"
    r"tomorrow|tonight|recently|lately|(?:a|two|three|a few|\d+)\s+\w+\s+ago|in \d{4})$"
    r"|(?:去年|今年|前年|上个月|上周|最近|昨天|前天)$",
    re.I,
)
_NEG_LEAD_ZH = re.compile(r"^(?:不要|别|不用|不必|无需|避免)(?:再)?")
# A standing instruction is about what the assistant says or makes: "always use APA",
# "never use emojis", "give me the commands first". "Never give up!" and "Always be
# yourself" are advice between people, not instructions to remember.
_ADDRESSED = re.compile(
    r"\b(?:answers?|answering|repl(?:y|ies|ying)|respond|responses?|code|coding|snippets?|"
    r"examples?|format(?:ting)?|cite|citations?|references?|sources?|use|using|write|writing|"
    r"wrote|explain|explanations?|show|give me|tell me|call me|address me|list|lists|summar\w*|"
    r"comments?|bullets?|tables?|markdown|emojis?|tone|style|words|sentences?|paragraphs?|"
    r"language|english|chinese|french|spanish|german|japanese|commits?|tests?|type hints?|"
    r"naming|names?|units?|metric|imperial|dates?|times?|currency|recommend\w*|suggest\w*|"
    r"remind me|ask me|tell|mention|include|add|avoid|keep|start|begin|end|sql|python|"
    r"query|queries|functions?|docs?|documentation|output|print|concise|brief|short|terse|"
    r"detailed|verbose|formal|informal|casual|polite)\b"
    r"|回答|回复|答复|答案|用|写|给我|加上|附上|加|附|列出|列|总结|解释|注释|代码|格式|中文|英文|"
    r"叫我|称呼|引用|标注|推荐|提醒|说明|先|语言|单位|日期|表格|要点|例子|示例|简洁|详细",
    re.I,
)


def _language(text: str) -> str:
    return "zh" if is_cjk_text(text) else "en"


def normalize_key(value: str) -> str:
    """The key a preference or fact value is filed under (lower-cased, articles dropped).

    Example:
        >>> normalize_key("drinking the green tea"), normalize_key("喝咖啡")
        ('green tea', '咖啡')
    """
    key = value.strip().lower()
    key = _KEY_VERBS_EN.sub("", key)
    key = _LEAD_EN.sub("", key)
    key = _KEY_VERBS_ZH.sub("", key)
    return re.sub(r"\s+", " ", key).strip(" ,.'\"") or value.strip().lower()


def _clean_value(value: str, lang: str) -> str:
    value = value.strip(" \t,，:：\"'“”")
    if lang == "zh":  # (a taste said as a kind keeps its 的: "甜的", "吃辣的")
        kind = re.search(r"[甜辣酸咸苦凉冰热烫素荤]的", value)
        cut = _ZH_TRAIL.sub("", value).strip()
        return cut + "的" if kind and kind.end() == len(cut) + 1 else cut
    value = _EN_TRAIL.sub("", value).strip()
    return re.sub(r"^(?:to|that)\s+", "", value, flags=re.I).strip()


# -- the rule engine --------------------------------------------------------------------------
class _Match:
    """One accepted rule match inside a sentence, resolved to atoms."""

    def __init__(self, before: Before, rule: Rule, m: re.Match[str]):
        self.before, self.sentence, self.rule, self.m = before, before.sentence, rule, m
        names = m.re.groupindex
        self.group = next(g for g in ("v", "v2", "s") if g in names and m.group(g) is not None)

    def atoms(self, subject: str, inferred_only: bool) -> list[MemoryAtom]:
        rule, m, lang = self.rule, self.m, self.rule.lang
        raw = m.group(self.group)
        value = _clean_value(raw, lang)
        polarity = rule.polarity
        if "neg" in m.re.groupindex and m.group("neg"):
            polarity = -1
        if lang == "zh" and _NEG_LEAD_ZH.match(value):
            polarity, value = -polarity, _NEG_LEAD_ZH.sub("", value)
        scope, scope_start = self.before.scope(m.start(), lang)
        if scope is None and lang == "en" and rule.kind in ("preference", "fact"):
            sm = _EN_SCOPE_SUFFIX.search(value)
            if sm and sm.start() > 0 and rule.key not in ("location", "employer", "hometown"):
                scope, value = sm.group("scope"), value[: sm.start()].rstrip(" ,")
        if rule.kind in ("preference", "fact", "relation"):
            value = _TIME_TAIL.sub("", value).strip() or value
        if not self._valid(value, lang):
            return []
        if rule.kind == "instruction" and not _ADDRESSED.search(m.group(0)):
            return []  # advice between people, not an instruction to the assistant
        others: list[str] = []
        if rule.compare:
            value, others = self._compare(value, self.before.compared(m.start()), lang)
        subj = subject
        if "s" in m.re.groupindex and m.group("s"):
            subj = m.group("s").strip()
        key = rule.key
        kind = rule.kind
        if key is None:
            if "k" in m.re.groupindex and m.group("k"):
                key = normalize_key(m.group("k"))
            else:
                key = normalize_key(value)
        if rule.kind == "fact" and rule.key is None:  # "my X is Y"
            kind, key = self._my_x_is_y(key, value, lang)
        if kind == "relation" and "s" in m.re.groupindex and rule.key is None:
            subj, value = "user", m.group("s").strip()  # "Alice is my sister"
        source = "inferred" if inferred_only else rule.source
        start = min(m.start(), scope_start) if scope_start is not None else m.start()
        span = self.sentence[start : m.end()].strip()
        atom = MemoryAtom(
            kind=kind,
            subject=subj,
            key=key,
            value=value,
            polarity=polarity,
            scope=scope,
            source=source,
            confidence=CONFIDENCE[source],
            text=span,
            language=lang,
        )
        out = [atom]
        for other in others:
            out.append(
                replace(
                    atom,
                    key=normalize_key(other),
                    value=other,
                    polarity=-polarity,
                    source="inferred",
                    confidence=CONFIDENCE["inferred"],
                )
            )
        return out

    @staticmethod
    def _valid(value: str, lang: str) -> bool:
        if not value or value.lower() in _PRONOUNS or len(value) > 120:
            return False
        if lang == "zh":
            return (
                not _ZH_QUESTION.search(value)
                and not value.endswith(("不", "没", "没有"))
                and not _NO_OBJECT_ZH.match(value)
            )
        return (
            not _EN_QUESTION_VALUE.match(value)
            and not _NO_OBJECT_EN.match(value)
            and bool(re.search(r"\w", value))
        )

    @staticmethod
    def _compare(value: str, before: str | None, lang: str) -> tuple[str, list[str]]:
        """``value`` without the side it is preferred to, and that side (said after it, or
        ``before`` it in Chinese: "比起茶，")."""
        others: list[str] = []
        if lang == "zh":
            parts = _COMPARE_ZH.split(value, maxsplit=1)
            if before is not None:
                others.append(before.strip())
        elif value.lower().startswith("to "):
            parts = [value]
        else:
            parts = _COMPARE_EN.split(value, maxsplit=1)
        if len(parts) == 2 and parts[1].strip():
            others.append(_clean_value(parts[1], lang))
        return _clean_value(parts[0], lang), [o for o in others if o]

    @staticmethod
    def _my_x_is_y(key: str, value: str, lang: str) -> tuple[str, str]:
        if re.match(r"^(?:favou?rite|最喜欢)", key):
            return "preference", key
        kin = re.fullmatch(KIN_EN, key, re.I) if lang == "en" else None
        if kin and value[:1].isupper():
            return "relation", key
        return "fact", key


def _rules_for(lang: str) -> tuple[list[Rule], list[Cued]]:
    """The rules tried on a sentence in ``lang`` (English ones run on Chinese too), in
    order, and each one's pattern behind the gate of its cues (:mod:`.cues`).

    A sentence opens a few gates of the dozens (one look-up of its cues, see
    :func:`~langgraph_memory.extraction.cues.opened`), and only those rules are
    searched: one pattern of every rule's branches, searched first to rule most
    sentences out, cost more than the few searches it saved (~47 µs a sentence).
    """
    rules = [r for r in RULES if r.lang == lang or (lang == "zh" and r.lang == "en")]
    return rules, [Cued(r.pattern) for r in rules]


class _RulesByLang(dict[str, tuple[list[Rule], list[Cued]]]):
    """``_rules_for(lang)``, built on first use (the gates' cues take a moment to read
    off the patterns, which a process that never extracts should not pay at import)."""

    def __missing__(self, lang: str) -> tuple[list[Rule], list[Cued]]:
        value = self[lang] = _rules_for(lang)
        return value


_RULES_BY_LANG = _RulesByLang()


def load_rules() -> None:
    """Build the rules' gates now, not on the first message."""
    for lang in ("en", "zh"):
        _RULES_BY_LANG[lang]  # noqa: B018 - built on first use


def _rule_atoms(text: str, subject: str, inferred_only: bool) -> list[tuple[int, MemoryAtom]]:
    found: list[tuple[int, MemoryAtom]] = []
    for base, sentence in sentence_spans(text):
        rules, gates = _RULES_BY_LANG[_language(sentence)]
        before = Before(sentence)  # the words before each match, read once for them all
        taken = Spans()
        for i in opened(gates, sentence):  # the rules whose cues the sentence holds
            rule = rules[i]
            for m in rule.pattern.finditer(sentence):
                s, e = m.span()
                if s == e or taken.overlaps(s, e):
                    continue
                taken.add(s, e)
                # "When I ask about X, do Y" opens like a question but is none.
                asks = before.ends_asking() if rule.kind == "instruction" else before.question(s)
                if before.hypothetical(s) or asks:
                    continue
                if rule.kind and rule.polarity > 0 and before.negated(s):
                    continue
                if not rule.kind:
                    continue  # a blocker
                for atom in _Match(before, rule, m).atoms(subject, inferred_only):
                    found.append((base + s, atom))
    return found


def _entity_atoms(text: str, subject: str) -> list[tuple[int, MemoryAtom]]:
    found = find_entities(text)
    seen: set[str] = set()
    out = []
    for at, name, kind in sorted(found):
        if name in seen:
            continue
        seen.add(name)
        lang = _language(name)
        out.append(
            (
                at,
                MemoryAtom("entity", name, kind, name, text=name, language=lang),
            )
        )
    return out


# -- public API -------------------------------------------------------------------------------
class Extractor:
    """Extracts :class:`MemoryAtom` s from messages, by an LLM or by rules.

    Args:
        llm: Optional chat model; ``None`` uses the rules only.
        entities: Also extract named entities (capitalised names; jieba's
            ``nr``/``ns``/``nt`` in Chinese).

    Example:
        >>> ex = Extractor()
        >>> [(a.kind, a.key, a.value) for a in ex.extract("Alice is my sister.")]
        [('relation', 'sister', 'Alice'), ('entity', 'person', 'Alice')]
    """

    def __init__(self, llm: BaseChatModel | None = None, *, entities: bool = True) -> None:
        self.llm = llm
        self.entities = entities

    def rules(self, text: str, *, role: str = "user") -> list[MemoryAtom]:
        """Extract with the rules only (never raises, never calls a model)."""
        if not text or not text.strip():
            return []
        role = {"human": "user", "ai": "assistant"}.get(role, role)
        found: list[tuple[int, MemoryAtom]] = []
        if role in ("user", "assistant"):
            scan(text)  # one pass for the cues of the text and of all its parts
            found += form_atoms(text, _rule_atoms(text, role, role != "user"), role, normalize_key)
        if self.entities:
            found += _entity_atoms(text, role)
        found.sort(key=lambda x: x[0])
        return _dedup(a for _, a in found)

    def extract(
        self, text: str, *, role: str = "user", timestamp: datetime | None = None
    ) -> list[MemoryAtom]:
        """Extract the atoms of one message.

        Args:
            text: The message content.
            role: Its role; first-person statements are about ``"user"`` in
                user messages and about ``"assistant"`` (inferred) in assistant
                messages; system and tool messages yield entities only.
            timestamp: When it was said (copied onto every atom).

        Returns:
            The atoms in text order; every ``text`` is a substring of ``text``.
        """
        atoms = self._llm(text, role) if self.llm is not None else None
        if atoms is None:
            atoms = self.rules(text, role=role)
        return [replace(a, timestamp=timestamp) for a in atoms] if timestamp else atoms

    async def aextract(
        self, text: str, *, role: str = "user", timestamp: datetime | None = None
    ) -> list[MemoryAtom]:
        """Async :meth:`extract` (the model and the rules run off the event loop)."""
        return await asyncio.to_thread(self.extract, text, role=role, timestamp=timestamp)

    def _llm(self, text: str, role: str) -> list[MemoryAtom] | None:
        if self.llm is None or not text.strip():
            return None
        draft = structured_call(self.llm, ExtractionDraft, PROMPT.format(role=role, text=text))
        if draft is None:
            log.info("extraction: no usable LLM answer; using the rules")
            return None
        subject = {"human": "user", "ai": "assistant"}.get(role, role)
        atoms = from_draft(draft, text, subject)
        if len(atoms) < sum(1 for d in draft.atoms if d.value.strip() and d.key.strip()):
            # a model that invents (a value not in the message) is not trusted with the rest
            log.info("extraction: the LLM's answer says what the message does not; using the rules")
            return None
        return _dedup(a for a in atoms if self.entities or a.kind != "entity")


def _dedup(atoms: object) -> list[MemoryAtom]:
    seen: set[tuple[str, str, str, str, int, str | None]] = set()
    out = []
    for a in atoms:  # type: ignore[attr-defined]
        sig = (a.kind, a.subject, a.key, a.value, a.polarity, a.scope)
        if sig not in seen:
            seen.add(sig)
            out.append(a)
    return out


def extract_atoms(
    text: str,
    *,
    role: str = "user",
    timestamp: datetime | None = None,
    llm: BaseChatModel | None = None,
) -> list[MemoryAtom]:
    """Extract memory atoms from one message (see :class:`Extractor`).

    Example:
        >>> for a in extract_atoms("For coffee, I prefer oat milk. Remind me to buy beans."):
        ...     print(a.kind, a.key, a.value, a.scope, sep=" | ")
        preference | oat milk | oat milk | For coffee
        task | reminder | buy beans | None
    """
    return Extractor(llm).extract(text, role=role, timestamp=timestamp)


async def aextract_atoms(
    text: str,
    *,
    role: str = "user",
    timestamp: datetime | None = None,
    llm: BaseChatModel | None = None,
) -> list[MemoryAtom]:
    """Async :func:`extract_atoms`.

    Example:
        >>> import asyncio
        >>> [a.value for a in asyncio.run(aextract_atoms("我住在上海"))
        ...  if a.kind == "fact"]
        ['上海']
    """
    return await Extractor(llm).aextract(text, role=role, timestamp=timestamp)
