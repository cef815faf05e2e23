"""Whether a statement says where the user lives now, or a trip, a plan or a past story.

"上周去上海出差了", "下周去上海出差", "下个月搬去成都", "小时候在北京长大", "Flying to Tokyo for a
conference", "I'm moving to Denver next month": each names a place, and none is where the
user lives now. The slot reader (:mod:`.slots`) reads no location from such a place, and
the read path (:mod:`~langgraph_memory.read.slot_types`) no statement of a home. A
message may say both ("我住在杭州，下周去上海出差"), and a home may share its clause with
another doing ("I live in Boston and will start a new job soon"), so a place is read by
the words that govern it (:func:`not_lived_at`): its clause (:func:`clause_at`, cut as
:func:`~langgraph_memory.extraction.clauses.split_clauses` cuts), and after a home verb
("live in", "住在") only a past story ("when I was a kid") still counts.

Example:
    >>> said = "我住在杭州，下周去上海出差。"
    >>> not_lived_at(said, 3), not_lived_at(said, 9)
    (False, True)
    >>> not_lived_at("I live in Boston and will start a new job soon.", 10)
    False
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.clauses import ZH_GAP, split_clauses
from langgraph_memory.extraction.entities import sentence_spans

__all__ = ["not_lived", "not_lived_at", "clause_at", "homes_named"]


def not_lived(said: str) -> bool:
    """Whether a statement naming a place says a trip ("上周去上海出差了", "Flying to Tokyo
    for a conference"), a plan ("下个月搬去成都", "moving to Denver next month") or a past
    story ("小时候在北京长大", "I used to live in Rome") rather than where the user lives now.

    Example:
        >>> not_lived("上周去上海出差了"), not_lived("下周去上海出差"), not_lived("来昆明三个月了")
        (True, True, False)
        >>> not_lived("I'm moving to Denver next month."), not_lived("We moved to Porto.")
        (True, False)
    """
    return bool(_AWAY.search(said) or _PAST.search(said))


def not_lived_at(text: str, at: int) -> bool:
    """Whether the place at offset ``at`` of ``text`` is no home of the user's now, read
    by the words that govern it: the words of its clause before it, and after it those of
    its own verb phrase (up to "and", 然后…). After a home verb ("live in", "settled in",
    "住在", "搬到") only a past story counts ("I lived in Rome when I was a kid"), not
    another doing ("住在杭州准备考研", "settled in Lisbon after a long trip").

    Example:
        >>> not_lived_at("我住在杭州准备考研。", 3), not_lived_at("上周去上海出差了", 3)
        (False, True)
        >>> not_lived_at("I lived in Rome when I was a kid.", 11)
        True
    """
    clause, start = _clause(text, at)
    before, after = clause[: at - start], clause[at - start :]
    after = _NEXT_VERB.split(after, maxsplit=1)[0]
    if _HOME_VERB.search(before):
        return bool(_AWAY.search(before) or _PAST.search(before) or _PAST.search(after))
    return not_lived(before + after)


def clause_at(text: str, at: int) -> str:
    """The clause of ``text`` around offset ``at`` (its sentence cut by
    :func:`~langgraph_memory.extraction.clauses.split_clauses`: at commas, semicolons,
    dashes, and before "but", "so", "because").

    Example:
        >>> clause_at("我住在杭州，下周去上海出差。", 10)
        '下周去上海出差。'
        >>> clause_at("I live in Austin but I am flying to Tokyo tomorrow.", 10)
        'I live in Austin'
    """
    return _clause(text, at)[0]


def _clause(text: str, at: int) -> tuple[str, int]:
    """The clause around ``at`` and its offset in ``text`` (in Chinese chat, a space
    between words ends a clause too: "我住大连 想周末带娃去海边玩" is two)."""
    for s, sentence in sentence_spans(text):
        if s <= at < s + len(sentence):
            for c, part in reversed(split_clauses(sentence)):
                if s + c <= at:
                    return _gap_piece(part, s + c, at)
            return _gap_piece(sentence, s, at)
    return "", at


def _gap_piece(clause: str, start: int, at: int) -> tuple[str, int]:
    """The piece of ``clause`` (at offset ``start``) around ``at`` between the spaces
    that stand for commas in Chinese chat (:data:`~.clauses.ZH_GAP`), and its offset."""
    cut = [m.end() for m in ZH_GAP.finditer(clause) if start + m.end() <= at]
    begin = max(cut, default=0)
    end = next((m.start() for m in ZH_GAP.finditer(clause, begin) if start + m.start() > at), None)
    return clause[begin:end], start + begin


#: A trip, a plan, or a place only passed through: said anywhere around the place when no
#: home verb governs it (see :func:`not_lived_at`).
_AWAY = re.compile(
    r"出差|旅游|旅行|度假|游玩|出游|去玩|玩了?[一两几三四五]?[天趟圈]|探亲|看望|转机|路过|开会|参会|"
    r"下周|下个?月|明年|明天|后天|过几天|打算|准备|计划|想去|要去|将要|即将|快要|"
    r"\b(?:trip|vacation|holiday|visit(?:ing|ed)?|went to|conference|layover|"
    r"next (?:week|month|year)|tomorrow|will|going to|planning|plan to|about to)\b",
    re.I,
)
#: A past story: said even after a home verb ("I lived in Rome when I was a kid").
_PAST = re.compile(
    # (not "走之前", "出发之前": before a doing, said of now or later)
    r"(?<!比)以前|(?<![\u4e00-\u9fff])之前|(?<=[在久年早])之前|曾经|小时候|当年|那时候|那会儿|"
    r"\b(?:used to|years ago|last year|when I was|grew up|as a kid|back then)\b",
    re.I,
)
#: A verb saying the place is the user's home, right before it ("live in", "住在").
_HOME_VERB = re.compile(
    r"(?:\b(?:live|living|lived|based|settled|settling|moved|relocated|staying)\s+"
    r"(?:down\s+)?(?:in|to|into)\s+|住在|定居在?|安家在?|落户|搬到了?|搬来了?|搬回了?)$",
    re.I,
)
#: Where the place's own verb phrase ends: another verb joined on ("and will start…").
_NEXT_VERB = re.compile(r"\s+(?:and|but|then|so)\s+|然后|而且|并且|准备|打算|计划|下周|明天", re.I)


#: A city named by a thing of the user's home or of living there: the dwelling it
#: qualifies ("the Spokane apartment", "the new Edinburgh flat", "my Perth address"), a
#: paper of residence ("residency permit for Lisbon", "杭州的居住证", "落户成都"), or a
#: home said "here" after it ("苏州这边的新房子", "大连新房子", "合肥的住处", "成都的租房合同").
_HOME_OF = (
    re.compile(
        r"\b(?i:the|my|our)\s+(?i:new\s+)?(?P<v>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s+"
        r"(?i:apartment|flat|condo|house|address|lease)\b(?!\s+(?i:of|for)\b)"
    ),
    re.compile(
        r"\b(?i:residency|residence|resident)\s+(?i:permit|card|visa|status)?\s*(?i:for|in)\s+"
        r"(?P<v>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)"
    ),
    re.compile(
        r"(?:这边|那边)?的?(?:新)?(?:房子|住处|新家|出租屋|公寓|居住证|户口|租房合同|租的房)"
    ),
)
#: Settling a household in a city ("落户成都", "落户到了苏州"): the city after it.
_SETTLED = re.compile(r"落户(?:到了?|在)?")


def homes_named(said: str, places: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The cities ``said`` names by a thing of the user's home there (see
    :data:`_HOME_OF`), not in a trip, a plan or a past story (:func:`not_lived_at`). A
    Chinese name counts only among ``places`` (the entity finder's): "新房子" follows many
    words that are no city.

    Example:
        >>> homes_named("the movers left and the Tacoma apartment is chaos")
        ['Tacoma']
        >>> homes_named("我在济南的新房子装好了", {"济南"})
        ['济南']
        >>> homes_named("我们的新房子装好了", {"济南"})
        []
        >>> homes_named("the Denver apartment of my aunt is free"), homes_named(
        ...     "next month we fly to Oslo and rent the Bergen flat for a week")
        ([], [])
    """
    out = []
    for rx in _HOME_OF:
        for m in rx.finditer(said):
            if "v" in rx.groupindex:
                name, at = m["v"], m.start("v")
            else:  # a Chinese thing of a home: the city right before it
                name = next(
                    (
                        said[m.start() - n : m.start()]
                        for n in (3, 2)
                        if said[m.start() - n : m.start()] in places
                    ),
                    "",
                )
                at = m.start() - len(name)
            if name and not _not_lived_in_piece(said, at):
                out.append(name)
    for m in _SETTLED.finditer(said):
        name = next(
            (said[m.end() : m.end() + n] for n in (3, 2) if said[m.end() : m.end() + n] in places),
            "",
        )
        if name:
            out.append(name)
    return out


#: A space between Chinese words: in chat, where a comma would be ("搬完了 苏州这边的新房子…").
_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


def _not_lived_in_piece(said: str, at: int) -> bool:
    """:func:`not_lived_at` for the place at ``at``, read in the piece of ``said`` between
    the spaces that stand for commas in Chinese chat around it."""
    start = max((m.end() for m in _CJK_SPACE.finditer(said, 0, at)), default=0)
    end = next((m.start() for m in _CJK_SPACE.finditer(said, at)), len(said))
    return not_lived_at(said[start:end], at - start)
