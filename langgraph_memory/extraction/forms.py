"""A user's message read for what the rules miss: standing instructions, preferences and
slots recognised by their form (see :mod:`.instructions`, :mod:`.preferences`,
:mod:`.slots`), added to the rules' atoms by :func:`form_atoms`.

What the rules read is tidied too: Chinese particles come off values ("海鲜也" → "海鲜"),
"my go-to is X" is a taste, not a fact. Material handed over to work on ("Translate
this: …", "翻译成英文：…") and messages said in jest make no beliefs. A preference about the
replies themselves ("I'd rather you didn't use jargon", "我希望你的回答短一点") is also a
standing instruction. Assistant and tool messages get nothing added here.

Example:
    >>> [(a.kind, a.value, a.polarity) for _, a in form_atoms("Don't use emojis.", [], "user")]
    [('instruction', 'use emojis', -1)]
    >>> form_atoms("Don't use emojis.", [], "assistant")
    []
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace

from langgraph_memory.core.held_texts import text_cache
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.atoms import CONFIDENCE, MemoryAtom
from langgraph_memory.extraction.before import Spans
from langgraph_memory.extraction.clauses import (
    JOKE,
    NOW_ONLY,
    SERIOUS,
    is_question,
    other_subject,
    spaced_clauses,
    split_clauses,
    taste_in_clause,
    tidy_value,
)
from langgraph_memory.extraction.cues import gated
from langgraph_memory.extraction.entities import find_entities, sentence_spans
from langgraph_memory.extraction.instruction_frames import untag
from langgraph_memory.extraction.instructions import (
    RULE_REACH,
    instruction_in,
    lasting_scope,
    one_thing,
    said_by_another,
)
from langgraph_memory.extraction.leanings import instead, specified
from langgraph_memory.extraction.preferences import preferences_of
from langgraph_memory.extraction.recogniser import SETTINGS, second_opinion, unlikely
from langgraph_memory.extraction.referents import with_referent
from langgraph_memory.extraction.slots import (
    is_profile_key,
    names_department,
    names_someone,
    slots_of,
    within_clause,
)

__all__ = ["form_atoms"]

Found = list[tuple[int, MemoryAtom]]

# -- atoms ------------------------------------------------------------------------------------
#: A preference about the assistant's own replies: a standing instruction too.
_ABOUT_REPLIES = re.compile(
    r"^you\s+(?:(?:didn't|did not|don't|do not|wouldn't|would|could|always|never|just|only)\s+)*"
    r"(?:use|answer|reply|respond|write|keep|give|include|add|avoid|stop|explain|cite|format|"
    r"put|start|end|call|address|skip|show|list|be|talk|speak)\b|"
    r"\b(?:answers?|repl(?:y|ies)|responses?|explanations?)\b|"
    r"^(?:你|您)(?:的)?(?:回答|回复|答复|用|说|写|别|不要)|回答|回复|答复",
    re.I,
)


#: What the rules read that the learned second opinion leaves alone: a sentence with a rule
#: or a taste read in it is asked nothing more (an instruction added to a taste would hide it),
#: nor one holding a task ("你提醒我买礼物": a reminder, one request, not a standing rule).
_READ = ("instruction", "preference", "task")
#: A clause opening a condition: the rest of its sentence may be its rule.
_CONDITION = re.compile(
    r"\s*(?:for|when|whenever|if|every time|each time|any ?time|once|unless)\b|"
    r"\s*(?:如果|要是|只要|当|每当|凡是|一旦|遇到|碰到)",
    re.I,
)

#: "it when you use bullet points" of "I love it when you…": what is liked is what follows.
_IT_WHEN = re.compile(r"^(?:it|that)\s+(?:when|if)\s+(?=you\b)", re.I)

#: Keys of "my X is Y" that name a choice, not a fact: "my go-to is…", "我的首选是…".
_CHOICE_KEY = re.compile(
    r"(?:go-to|go to|usual|default|pick|choice|top pick|first choice|poison|staple|jam|"
    r"comfort food|guilty pleasure|首选|最爱|心头好|必点|标配)",
    re.I,
)
#: Relation keys that name who the user reports to: the ``manager`` slot (one value at a
#: time) stands for them, so "Sofia is my boss" is one fact, not a ``boss`` and a ``manager``.
_MANAGER_KEY = re.compile(
    r"(?:boss|manager|supervisor|team lead|line manager|领导|上级|经理|老板|主管)", re.I
)
#: The rules' keys of "my X is Y" that a slot stands for ("my team is Payments": the
#: ``department``; "our company is Acme": the ``employer``), by the slot.
_SLOT_ALIASES = {
    "manager": _MANAGER_KEY,
    "department": re.compile(r"(?:team|department|dept|division|squad|group|部门|团队)", re.I),
    "employer": re.compile(r"(?:company|employer|firm|startup|公司|单位|东家)", re.I),
}
_BARE_VERB = re.compile(r"(?:go|use|take|have|get|do|eat|drink|play|buy|order|watch|read)", re.I)


#: Where a message hands over material to work on ("Translate this: …", "翻译成英文：…"):
#: what follows is not the user's own words.
_MATERIAL = gated(
    r"\b(?:translate|summari[sz]e|proofread|rewrite|paraphrase|polish|correct|fix|check|"
    r"reply to|respond to|answer|explain|edit|shorten)\b[^:\n]{0,60}?:\s*(?=\S)"
    r"|\b(?:this|the following|below|here it is|here's the \w+)\s*:\s*(?=\S)"
    r"|(?:翻译|总结|概括|改写|润色|检查|修改|解释|回复|看看|缩写|扩写)[^：:\n]{0,20}?[：:]\s*(?=\S)"
    r"|(?:这段话?|以下|如下|下面这段)[^：:\n]{0,10}?[：:]\s*(?=\S)",
    re.I,
)


#: A sentence set in an unreal world (a wish, a supposition, "if I were/had…"): its clauses
#: say nothing of the user's tastes even when one of them reads like one.
_UNREAL = gated(
    r"\b(?:if I (?:were|was|had(?! to (?:choose|pick)\b)|could|won|lived|didn't have|ever)|"
    r"if only|imagine|suppose|"
    r"if (?:I|we) (?!(?:have|had) to (?:choose|pick)\b)(?:\w+ )?"
    r"(?:become|retire|move|win|get rich)|"
    r"once I (?:retire|move|get rich)|when I (?:retire|grow old|get rich)|someday|one day|"
    r"supposing|pretend|in another life|I wish|I'd love to someday|hypothetically|"
    r"in theory|what if)\b"
    r"|(?:要是|如果|假如|假设|假使|倘若|万一)(?:我|咱|哪天|有一天|有钱|中了)|(?:^|[，,])(?:要是|"
    r"假如|假设|倘若)|我(?:真)?希望(?:我|自己)|下辈子|想象一下",
    re.I,
)
#: Time words a rule may take for a person ("现在在美团上班"): the user is meant.
_NOW_WORD = re.compile(r"现在|目前|如今|最近|今年|去年|上月|后来|然后|之后|以后|已经")
#: A liking said to be over: "I was a huge coffee drinker until last year", "以前我特别爱熬夜，
#: 现在改了". A dislike that lasts ("I don't eat meat anymore") is no such thing.
_ENDED = gated(
    r"\b(?:used to|until (?:last|this|a few|recently|\d)|not anymore|no longer|any ?more|quit|"
    r"gave (?:it|that|them) up|stopped|kicked the habit|back then|in the past)\b"
    r"|(?:以前|之前|曾经|原来|过去|那时候)[^。！!？?]*(?:现在|后来|如今|已经)[^。！!？?]{0,6}"
    r"(?:改了|戒了|不[^，,。]{0,4}了|换了|没[^，,。]{0,4}了)"
    r"|(?:后来|以后|之后)[^。！!？?]{0,8}(?:再也没|没再|再没)(?!完)[^，,。]{0,4}了",
    re.I,
)

#: How far before a clause a lasting scope ("from now on, …", "以后…") is looked for: the
#: words just before it, so a sentence of thousands of clauses is read in linear time.
_SCOPE_REACH = 200
#: A Chinese clause that opens on the past ("以前你老用英文"): it tells what was.
_WAS = re.compile(r"\s*(?:以前|之前|曾经|原来|过去|那时候)")


def _over(atom: MemoryAtom) -> bool:
    """Whether ``atom`` is an instruction read from words that say a habit of the user's
    ended ("换工作以后就没再用了"): no rule for the replies."""
    return atom.kind == "instruction" and bool(_ENDED.search(atom.text or ""))


#: What follows the name of a place or a company: "Shopify on the payments team".
_PLACE_TAIL = re.compile(
    r"\s+(?:on|in|as|at|with|for|since|where|doing|and)\s+(?:the|a|an|my|our)\b.*$", re.I
)
#: Code pasted in a message: fenced blocks and inline spans.
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]+`", re.S)


#: "anymore" in a clause of its own: what that clause says is over, not the whole sentence.
_ANYMORE = re.compile(r"\b(?:any ?more|no longer)\b", re.I)


def _over_in(sentence: str, clauses: list[tuple[int, str]]) -> tuple[int, int] | None:
    """The span of the one clause of ``sentence`` that says something is over, when that
    is the sentence's only sign of it ("anymore", "no longer") and other clauses stand
    beside it ("Boutique hotels, always — I can't sleep in dorms anymore"); else ``None``."""
    if len(clauses) < 2:
        return None
    found = [m for m in _ENDED.finditer(sentence)]
    if not found or not all(_ANYMORE.fullmatch(m.group(0)) for m in found):
        return None
    spans = {
        (off, off + len(c))
        for off, c in clauses
        for m in found
        if off <= m.start() < off + len(c) and len(c.split()) >= 4
    }
    return spans.pop() if len(spans) == 1 else None


def _no_liking_in(lo: int, hi: int) -> Callable[[int, MemoryAtom], bool]:
    """Whether an atom is no liking read between offsets ``lo`` and ``hi``."""
    return lambda at, a: not (lo <= at < hi and a.kind == "preference" and a.polarity > 0)


class _BySentence:
    """The atoms of a message filed by the sentence their offset falls in, so each sentence
    reads and drops its own without a pass over all of them (a message of thousands of
    sentences is read in linear time). :meth:`found` gives them back in the order one list
    of them would have: those filed first, then those added, each in its order."""

    def __init__(self, spans: Sequence[tuple[int, str]], found: Found) -> None:
        self._spans = spans
        self._starts = [b for b, _ in spans]
        self._order = list(found)
        self._of: list[Found] = [[] for _ in range(len(spans) + 1)]  # the last: in none
        for item in found:
            self._of[self._index(item[0])].append(item)

    def _index(self, at: int) -> int:
        i = bisect_right(self._starts, at) - 1
        if i >= 0 and at < self._starts[i] + len(self._spans[i][1]):
            return i
        return len(self._spans)

    def sentence(self, at: int) -> str | None:
        """The sentence offset ``at`` falls in."""
        i = self._index(at)
        return self._spans[i][1] if i < len(self._spans) else None

    def of(self, i: int) -> Found:
        """The atoms of sentence ``i``."""
        return self._of[i]

    def keep(self, i: int, which: Callable[[int, MemoryAtom], bool]) -> None:
        """Keep only the atoms of sentence ``i`` ``which`` says to keep."""
        self._of[i] = [item for item in self._of[i] if which(*item)]

    def add(self, at: int, atom: MemoryAtom) -> None:
        """File ``atom``, read at offset ``at``."""
        item = (at, atom)
        self._order.append(item)
        self._of[self._index(at)].append(item)

    def found(self) -> Found:
        """Every atom kept, in order."""
        alive = {id(item) for items in self._of for item in items}
        return [item for item in self._order if id(item) in alive]


def _material_from(text: str) -> int:
    """Where the material handed over in ``text`` starts (its length when there is none)."""
    m = _MATERIAL.search(text)
    return m.end() if m else len(text)


def _atom(
    kind: str, value: str, polarity: int, source: str, span: str, lang: str, key: str
) -> MemoryAtom:
    return MemoryAtom(
        kind=kind, subject="user", key=key, value=value, polarity=polarity,
        source=source, confidence=CONFIDENCE[source], text=span.strip(), language=lang,
    )  # fmt: skip


def form_atoms(
    text: str,
    found: Sequence[tuple[int, MemoryAtom]],
    role: str,
    key_of: Callable[[str], str] = str.lower,
) -> Found:
    """``found`` (the rules' atoms of ``text`` with their offsets) with tidy values, and,
    for a user's message, the standing instructions and preferences the rules missed,
    read by their form (see the module docs).

    Args:
        text: The message.
        found: The rules' atoms of it, each with its offset in ``text``.
        role: Who said it; only a user's words get atoms added.
        key_of: The key a preference or instruction is filed under, from its value.

    Returns:
        The atoms with their offsets.

    Example:
        >>> [(a.kind, a.value, a.polarity) for _, a in form_atoms("Don't use emojis.", [], "user")]
        [('instruction', 'use emojis', -1)]
        >>> form_atoms("Don't use emojis.", [], "assistant")
        []
    """
    out: Found = []
    for at, a in found:
        value = tidy_value(a.value, a.language) or a.value
        if a.kind == "fact" and is_profile_key(a.key):  # "Boston and work at Google": the
            value = within_clause(value) or value  # value of a slot ends with its clause
        if a.kind == "fact" and a.key in ("employer", "location", "hometown"):
            value = _PLACE_TAIL.sub("", value) or value  # "Shopify on the payments team"
        if a.kind == "relation" and a.key == "works_at" and _NOW_WORD.fullmatch(a.subject):
            # "现在在美团上班": the time word read as who works there; the user does
            a = replace(a, kind="fact", subject="user", key="employer")
        if a.kind == "fact" and a.key == "employer" and _is_place(value):
            a = replace(a, key="location")  # "我在新加坡工作": where the user is, not who pays
        if a.kind == "fact" and a.key == "employer" and names_department(value):
            a = replace(a, key="department")  # "我在用户增长部工作": a department, not who pays
        if (
            a.kind in ("fact", "relation")
            and any(alias.fullmatch(a.key.strip()) for alias in _SLOT_ALIASES.values())
            and not names_someone(value)
        ):
            continue  # "my boss is annoying", "my company is great": no one named
        if a.kind == "fact" and _CHOICE_KEY.match(a.key):  # "my go-to is X": a taste
            a = replace(a, kind="preference", key=key_of(value))
        if a.kind == "preference" and _BARE_VERB.fullmatch(value):
            continue  # "I always go" of "I always go for X": the form below reads it
        if a.kind == "preference" and role == "user" and _no_object(value):
            continue  # "is 90s hip hop" of "what I love is…": the forms below read it
        if a.kind == "preference" and a.language == "zh" and a.value.lstrip().startswith("的"):
            continue  # "最喜欢的运动" of "羽毛球是我最喜欢的运动": a modifier, not the thing
        out.append((at, replace(a, value=value) if value != a.value else a))
    if role != "user":
        return out
    turn = SERIOUS.search(text)  # "…😅 好了说正经的，…": only what follows is meant
    if turn is not None:  # what came before it is taken back, with the turn's own words
        meant = turn.end()
        out = [(at, a) for at, a in out if at >= meant or a.kind in ("entity", "task")]
        text = " " * meant + text[meant:]  # offsets kept
    if JOKE.search(text):  # said in jest: no belief from it
        return [(at, a) for at, a in out if a.kind in ("entity", "task")]
    material = _material_from(text)
    code = Spans(m.span() for m in _CODE.finditer(text))  # pasted code says nothing of the user
    in_code = code.overlaps

    out = [(at, a) for at, a in out if at < material and not in_code(at, at + 1)]
    facts = {a.key for _, a in out if a.kind == "fact"}
    facts |= {f"role of {a.value}" for _, a in out if a.kind == "relation"}  # "Alice is my sister"
    lang = "zh" if is_cjk_text(text) else "en"
    prose = _CODE.sub("\n", text[:material])
    for key, value, _at in slots_of(prose):  # a slot's value said in passing
        span = next(
            (t for b, t in sentence_spans(text) if value in t and not in_code(b, b + len(t))), ""
        )
        if key not in facts and span:
            if key in _SLOT_ALIASES:  # the slot stands for "X is my boss": one statement, one fact
                out = [(at, a) for at, a in out if not _same_slot(a, key, value)]
            out.append((text.find(span), _atom("fact", value, 1, "explicit", span, lang, key)))
    spans = sentence_spans(text[:material])
    filed = _BySentence(spans, out)  # each sentence reads and drops its own atoms only
    for i, (base, sentence) in enumerate(spans):
        end = base + len(sentence)
        if in_code(base, end):
            continue
        kinds = {a.kind for _, a in filed.of(i)}
        lang = "zh" if is_cjk_text(sentence) else "en"
        clauses = split_clauses(sentence)
        once = (NOW_ONLY.search(sentence) or one_thing(sentence)) and not lasting_scope(sentence)
        if lang == "zh":  # "以前每周日都会去爬山，后来再没去过了": a habit that ended, no rule
            filed.keep(i, lambda at, a: not _over(a))
            if said_by_another(sentence):  # "我妈说以后每次…": another's rule, not one for us
                filed.keep(i, lambda at, a: a.kind != "instruction")
            kinds = {a.kind for _, a in filed.of(i)}
        if "instruction" not in kinds and not once:  # "For this answer only, skip…": once
            tries = [(0, sentence, False)]
            if not is_question(untag(sentence)):  # a question's clauses lead up to it
                tries += [
                    (off, c, lasting_scope(sentence[max(0, off - _SCOPE_REACH) : off]))
                    for off, c in clauses
                    if len(clauses) > 1
                ]
                # a condition after a lead-in keeps its rule: "So: for yes/no questions, start…"
                tries += [  # the rest cut past the reach: no rule, and no copy of it
                    (
                        off,
                        sentence[off : off + RULE_REACH + 1],
                        lasting_scope(sentence[max(0, off - _SCOPE_REACH) : off]),
                    )
                    for off, c in clauses[1:-1]
                    if _CONDITION.match(c)
                ]
            for off, clause, scoped in tries:
                try:
                    got = (
                        None  # "以前你老用英文，现在不要用英文了": what was, not the rule
                        if lang == "zh" and (_ENDED.search(clause) or _WAS.match(clause))
                        else instruction_in(clause, scoped)
                    )
                except RecursionError:  # conditions stacked deeper than the reader goes
                    break  # ("When I code, when I code, …" a thousand times): no rule
                if got is not None:
                    at = base + off + len(clause) - len(clause.lstrip())
                    what, sign = got
                    atom = _atom("instruction", what, sign, "explicit", clause, lang, key_of(what))
                    filed.add(at, atom)
                    kinds.add("instruction")
                    break
        if other_subject(sentence):
            continue  # someone else's doing (a rule for the replies may hold a taste too)
        ended = _ENDED.search(sentence) is not None
        over = _over_in(sentence, clauses) if ended else None  # "…, I can't… anymore"
        if _UNREAL.search(sentence) or (ended and over is None):
            # "要是我有钱，我天天吃日料": a taste in an unreal world; "以前我特别爱熬夜，现在改了":
            # one that is over. No liking from it, the rules' ones included.
            filed.keep(i, _no_liking_in(base, end))
            continue
        # each clause, and each piece of one typed with spaces for commas ("我不爱喝白开水 没味道")
        pieces = [(off + c.find(p), p) for off, c in clauses for p in spaced_clauses(c)]
        parts = [(0, sentence)] + [(off, c) for off, c in pieces if len(pieces) > 1]
        if over is not None:  # only the clause saying "anymore" is over; the others stand
            lo, hi = base + over[0], base + over[1]
            filed.keep(i, _no_liking_in(lo, hi))
            before = sentence[: over[0]].rstrip(" ,;—–-")  # the sentence up to that clause
            parts = [(0, before)] if before else []
            parts += [(off, c) for off, c in clauses if not over[0] <= off < over[1]]
        said = Spans((at, at + 1) for at, a in filed.of(i) if a.kind == "preference")
        values: list[str] = []  # values read so far: a clause holding one says nothing new
        for n, (off, clause) in enumerate(parts):  # the sentence, then each clause left
            start = base + off
            if said.overlaps(start, start + len(clause)):
                continue
            if n and any(v in clause for v in values):
                continue
            prefs = preferences_of(clause)
            if not prefs and n > 1:  # "Cilantro tastes like soap to me, I avoid it"
                named = with_referent(clause, parts[n - 1][1])
                prefs = preferences_of(named) if named else []
            liked = [  # the stated liking said last before the clause
                (at, a.polarity)
                for at, a in filed.of(i)
                if a.kind == "preference" and a.source == "explicit" and at < start
            ]
            one = specified(clause) if n and not prefs and liked else None
            if one and one not in values:  # "…喝茶，尤其是乌龙", "…, Catan especially"
                prefs = [(one, max(liked)[1], "explicit")]
            one = instead(clause) if n and not prefs and liked and max(liked)[1] < 0 else None
            if one and one not in values:  # "not a beach person — give me mountains"
                prefs = [(one, 1, "explicit")]
            at = start + len(clause) - len(clause.lstrip())
            for value, pol, source in prefs:
                atom = _atom("preference", value, pol, source, clause, lang, key_of(value))
                filed.add(at, atom)
                said.add(at, at + 1)
                values.append(value)
        if "instruction" not in kinds:  # a preference about the replies is an instruction too
            for at, a in list(filed.of(i)):
                if (
                    a.kind == "preference"
                    and a.source == "explicit"
                    and _ABOUT_REPLIES.search(_IT_WHEN.sub("", a.value))
                    and not is_question(sentence)
                ):
                    what = _IT_WHEN.sub("", a.value)
                    filed.add(at, replace(a, kind="instruction", value=what))
                    break
        if not once and not any(a.kind in _READ for _, a in filed.of(i)):
            got = second_opinion(sentence)  # the learned second opinion (see its module)
            if got is not None:
                what, sign = got
                at = base + len(sentence) - len(sentence.lstrip())
                atom = _atom("instruction", what, sign, "explicit", sentence, lang, key_of(what))
                filed.add(at, atom)
    kept: Found = []
    sentences = _BySentence(sentence_spans(text), [])
    for at, a in filed.found():
        if a.kind == "preference":
            cut = taste_in_clause(a.value)  # "coffee, it wakes me up", "tea, e" (of "e.g.")
            if cut and cut != a.value:  # the key follows a value it was made of
                key = key_of(cut) if a.key == key_of(a.value) else a.key
                a = replace(a, value=cut, key=key)
            if not _taste(a, text, sentences.sentence(at)):
                continue
        if (
            SETTINGS["veto"]
            and a.kind in ("instruction", "preference")
            and unlikely(a.kind, a.text)
        ):
            continue  # the learned second opinion finds the reading very unlikely
        kept.append((at, a))
    return kept


#: What a liked thing never is: the other speaker or their news ("that you chose pottery",
#: "your new car"), a pronoun or a demonstrative ("it teaches me…", "that"), a clause
#: ("needs my mechanical skills", "and the instructor"), "那家面包店".
_NOT_OBJECT = re.compile(
    r"^(?:you|you're|your|yours|it|it's|its|he|she|they|what|and|but|or|so|is|are|was|were|"
    r"has|had|needs|looks|seems|sounds|makes|feels|gets)\b|\b(?:that|this|it|those|these)\s*$"
    # "I hate when that happens": what happened just now, not a kind of thing
    r"|^(?:it\s+)?(?:when|whenever|if)\s+(?:that|this|it)\b"
    r"|^(?:do|does|did|done)\s*$"
    r"|^(?:你|您|他|她|它|那些|这些)",
    re.I,
)
#: A reaction to what the other speaker showed or told: a demonstrative or "your" thing
#: evaluated ("That photo is amazing", "those bowls are amazing", "那张照片好美"), or an
#: exclamation opening with an interjection ("Wow! Winning first place is amazing!").
_REACTION = re.compile(
    r"\b(?:(?:that|this|those|these)\s+(?:\w+\s+)?(?:photos?|pics?|pictures?|paintings?|drawings?|"
    r"videos?|shots?|images?|selfies?|artwork|bowls?|sculptures?)|your\s+(?:\w+\s+)?\w+)"
    r"(?:'s|\s+(?:is|are|looks?|sounds?|seems?))"
    r"\s+(?:so\s+|really\s+|just\s+)?(?:amazing|awesome|great|cool|beautiful|gorgeous|lovely|"
    r"stunning|incredible|fantastic|wonderful|nice|cute|impressive|fun|neat|sweet)\b"
    r"|(?:(?:这|那)(?:一)?(?:张|幅|段)|你(?:的|家|们)?)[^，,。！!]{0,8}?"
    r"(?:好|真|太|很|特别|超)"
    r"(?:美|好看|漂亮|棒|酷|可爱|厉害)",
    re.I,
)
#: A clause said to the other speaker about their doing: "你下次来一定要去那家店尝尝".
_TO_YOU = re.compile(r"^\W*(?:你|您)(?!知道|看|说|猜|懂|别说|还别说)(?!.*我)")
_INTERJECTION = re.compile(r"^\W*(?:wow|whoa|omg|oh my|aww+|yay|congrats|congratulations)\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|me|my|mine|myself)\b|我")


def _no_object(value: str) -> bool:
    """Whether a preference's ``value`` cannot be a liked thing (a verb, a pronoun…)."""
    v = _IT_WHEN.sub("", value.strip())
    return not _ABOUT_REPLIES.search(v) and bool(_NOT_OBJECT.search(v))


def _taste(a: MemoryAtom, text: str, sentence: str | None) -> bool:
    """Whether ``a``, a preference read in ``sentence`` of ``text`` (``None``: in none of
    its sentences), names a liked thing or activity, not a reaction to what the other
    speaker showed or told."""
    v = _IT_WHEN.sub("", a.value.strip())
    if _ABOUT_REPLIES.search(v):
        return True  # "I prefer you use tabs": what the assistant should do stays
    if _NOT_OBJECT.search(v) or _TO_YOU.match(a.text) or re.search(r"\byou\b", v, re.I):
        return False
    reacts, exclaims = _reaction(text if sentence is None else sentence)
    if reacts and (re.match(r"(?:the|all the|all those|all these)\b", v, re.I) or is_cjk_text(v)):
        return False  # "That photo is amazing, I love the colours": a part of what was shown
    # "Wow! Winning first place is amazing!": an exclamation at the other speaker's news
    return not (exclaims and _INTERJECTION.match(text))


@text_cache(maxsize=64)
def _reaction(sentence: str) -> tuple[bool, bool]:
    """Whether ``sentence`` reacts to what the other speaker showed (:data:`_REACTION`), and
    whether it exclaims with no word of the user's own; read once for all its atoms."""
    exclaims = sentence.rstrip().endswith(("!", "！")) and not _FIRST_PERSON.search(sentence)
    return _REACTION.search(sentence) is not None, exclaims


def _is_place(value: str) -> bool:
    """Whether ``value`` is the name of a place (a city, a country), not of an employer."""
    return any(kind == "place" and name == value.strip() for _, name, kind in find_entities(value))


def _same_slot(a: MemoryAtom, key: str, value: str) -> bool:
    """Whether ``a`` is the rules' "``value`` is my boss" ("my team is ``value``"…) that the
    slot ``key`` reads."""
    return (
        a.kind in ("relation", "fact")
        and a.subject == "user"
        and _SLOT_ALIASES[key].fullmatch(re.sub(r"^(?:new|current|新的?)\s*", "", a.key.strip()))
        is not None
        and within_clause(a.value.strip()).casefold() == value.strip().casefold()
    )
