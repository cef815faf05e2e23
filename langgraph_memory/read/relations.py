"""Who a person is to the user, named with the relation a question asks about.

"Who is my roommate?" / "我的室友是谁？" ask for the person in a relation; the user's
statements naming someone in it ("my roommate Chloe is a night owl", "new roommate Sam
moved in", "我室友小雨是个夜猫子", "新室友佳佳昨天搬进来了") hold that value, though the entity
finder knows none of the names. :func:`names_relation` tells them, so recency links the
old and the new statement (:func:`~langgraph_memory.read.slot_types.typed`). A statement
naming someone by a title (蒋医生, 钱医生) in a relation said in other words ("我的牙医是谁":
"找蒋医生看牙") shares a character of the relation with it.

Example:
    >>> names_relation("new roommate Sam moved in yesterday", "Who is my roommate?")
    True
    >>> names_relation("my roommate is a night owl", "Who is my roommate?")
    False
    >>> names_relation("新室友佳佳昨天搬进来了", "我的室友是谁？")
    True
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.entities import SURNAMES

__all__ = ["asked_relation", "names_relation"]

_ASKED = (
    re.compile(
        r"\bwho(?:'s| is| are) (?:my|our) (?:new |current )?(?P<r>[a-z][a-z -]{1,20}?)s?\s*\??$",
        re.I,
    ),
    re.compile(r"我(?:现在|目前)?的(?:新)?(?P<r>[\u4e00-\u9fff]{1,4}?)(?:是谁|叫什么)"),
)
_SUR = "".join(sorted(SURNAMES))
#: A Chinese given name: 小/老/阿 and one, a surname and one or two, or a doubled one (佳佳).
_ZH_NAME = rf"(?:[小老阿][\u4e00-\u9fff]|[{_SUR}][\u4e00-\u9fff]{{1,2}}|([\u4e00-\u9fff])\1)"
_ZH_TITLED = re.compile(rf"[{_SUR}](?:医生|大夫|老师|教练|师傅|律师|教授)")
_NOT_NAME = re.compile(
    r"(?:I|I'm|The|He|She|They|It|This|That|And|But|So|Monday|Tuesday|"
    r"Wednesday|Thursday|Friday|Saturday|Sunday)$"
)


def asked_relation(query: str) -> str | None:
    """The relation a question asks the person in ("roommate", "室友"), if any."""
    for rx in _ASKED:
        m = rx.search(query.strip())
        if m:
            return m["r"].strip()
    return None


def names_relation(said: str, query: str) -> bool:
    """Whether the user's statement ``said`` names someone in the relation ``query`` asks
    about (see the module docs)."""
    rel = asked_relation(query)
    if not rel:
        return False
    if re.search(r"[\u4e00-\u9fff]", rel):
        if re.search(rf"{re.escape(rel)}(?:是|叫|换成了?|变成了?)?{_ZH_NAME}", said):
            return True
        rest = _ZH_TITLED.sub("", said)  # (the 医 of 钱医生 is no word of 牙医's)
        return rest != said and any(c in rest for c in rel)
    for m in re.finditer(
        rf"\b{re.escape(rel)}s?\b(?:\s+(?:is|was|'s|named|called)|,)?\s+"
        r"(?P<n>[A-Z][a-z][\w'-]*)",
        said,
        re.I,
    ):
        if not _NOT_NAME.match(m["n"]) and m["n"][0].isupper():
            return True
    return False
