"""The user's statements of the type a question asks for, for a query read by its words.

With the English-only default model a Chinese query has no vector, so it is ranked by its
words alone: a new statement sharing none of them ("来昆明三个月了" for "我现在在哪座城市？")
is never retrieved, and nothing links it to the old one ("我住在杭州"). A question about an
everyday slot names the type of its answer: a place (住哪, 哪座城市, where do I live), an
organisation (哪家公司, 在哪上班, which company), a person (上级, 领导, manager).
:func:`asked_type` reads it; :func:`typed` tells which of the user's statements hold a
value of that type (the entity finder's places, organisations and people, and the slot
reader's location, employer and manager values); :func:`latest_typed` finds the latest
few of them among the user's recent messages, to be added as candidates, and recency
links the typed statements of a context as statements on one question (see
:func:`~langgraph_memory.read.recency.current_first`).

Example:
    >>> asked_type("我现在在哪座城市？"), asked_type("Which company do I work for?")
    ('place', 'org')
    >>> typed("来昆明三个月了", "place"), typed("我妹妹住在杭州", "place")
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from langgraph_memory.config import PackingSection
from langgraph_memory.core.context import ContextItem
from langgraph_memory.core.filters import Predicate
from langgraph_memory.core.records import Message
from langgraph_memory.extraction.entities import SURNAMES, find_entities
from langgraph_memory.extraction.slots import about_others, slots_of
from langgraph_memory.read.candidates import message_item
from langgraph_memory.read.timeline import is_statement

if TYPE_CHECKING:
    from langgraph_memory.storage.base import MemoryBackend

__all__ = ["asked_type", "typed", "states_a", "latest_typed", "add_typed", "RECENT", "LATEST"]

#: What in a question asks for a value of a type (general wording of everyday slots).
_ASKS = (
    (
        "place",
        re.compile(
            r"住哪|住在哪|哪座城|哪个城市|哪一个城市|在哪(?:儿|里)?(?:生活|定居|住)|"
            r"人在哪|现居|\bwhere do i live\b|\bwhich city\b|\bwhat city\b|\bwhere (?:am i|i) liv",
            re.I,
        ),
    ),
    (
        "org",
        re.compile(
            r"哪家公司|哪个公司|什么公司|在哪(?:儿|里)?(?:工作|上班)|哪个单位|什么单位|"
            r"\bwhich company\b|\bwhat company\b|\bwhere do i work\b|"
            r"\bwho do i work for\b|\bemployer\b",
            re.I,
        ),
    ),
    (
        "person",
        re.compile(
            r"上级|上司|领导是谁|老板是谁|经理是谁|主管是谁|谁管我|归谁管|"
            r"\bmy (?:manager|boss|supervisor)\b|\bwho do i report to\b",
            re.I,
        ),
    ),
)
#: The slot reader's keys whose values are of each type.
_SLOT_TYPE = {"location": "place", "employer": "org", "manager": "person"}
#: A change said with no slot named is a change of employer when it speaks of work
#: ("我换到字节了，上周刚入职"), not of anything ("I switched to oat milk").
_WORK = re.compile(
    r"入职|上班|工作|公司|跳槽|单位|offer|\b(?:job|work(?:ing)?|joined|hired|employer)\b", re.I
)
#: The user's most recent messages searched for statements of the asked type.
RECENT = 200
#: The latest typed statements added as candidates.
LATEST = 2


def asked_type(query: str) -> str | None:
    """The type of value ``query`` asks for (``place``, ``org``, ``person``), if any."""
    for kind, rx in _ASKS:
        if rx.search(query):
            return kind
    return None


#: A Chinese person named by surname and title ("何总监", "赵主管", "郑老师", "老杨").
_ZH_TITLED = re.compile(
    rf"(?:[{''.join(sorted(SURNAMES))}](?:总监|总(?![是体共算之结统部数额量价值])|经理|主管|主任|"
    r"老师|处长|科长|部长|组长|姐|哥))"
)
#: The statement's first characters read for a value (a statement of a slot is short; a
#: pasted page is not read whole on every question).
_READ_CHARS = 400


def typed(said: str, kind: str) -> bool:
    """Whether the user's statement ``said`` holds a value of type ``kind`` (a statement
    about someone else's life does not: "我妹妹住在杭州")."""
    said = said[:_READ_CHARS]
    if about_others(said):
        return False
    keys = {key for key, _, _ in slots_of(said)}
    if any(_SLOT_TYPE.get(key) == kind for key in keys):
        return True
    if kind == "org" and "changed to" in keys and _WORK.search(said):
        return True
    if kind == "person" and _ZH_TITLED.search(said):
        return True
    return any(k == kind for _, _, k in find_entities(said))


def states_a(m: Message, kind: str) -> bool:
    """Whether ``m`` is a statement of the user's (not a question) holding a value of type
    ``kind`` (:func:`typed`): what :func:`latest_typed` finds and recency groups."""
    return is_statement(m) and typed(m.content, kind)


def latest_typed(recent: Sequence[Message], kind: str, n: int = LATEST) -> list[Message]:
    """The latest ``n`` of the user's statements in ``recent`` (newest first) holding a
    value of type ``kind``."""
    out: list[Message] = []
    for m in recent:
        if len(out) >= n:
            break
        if states_a(m, kind):
            out.append(m)
    return out


def add_typed(
    storage: MemoryBackend,
    user_id: str,
    query: str,
    cands: list[ContextItem],
    skip: set[str],
    packing: PackingSection,
    terms: frozenset[str],
    keep: Predicate | None = None,
) -> None:
    """Add to ``cands`` the latest of the user's statements holding a value of the type
    ``query`` asks for (:func:`asked_type`; among the :data:`RECENT` latest messages), at
    the best message candidate's score times ``successor_decay``: the new value may share
    no word with the question. Used for a query ranked by its words alone. ``keep``: the
    caller's filter (a statement it refuses is never added)."""
    kind = asked_type(query)
    if kind is None:
        return
    seen = {it.order for it in cands if it.layer in ("message", "neighbor")}
    best = max((it.score for it in cands if it.layer == "message"), default=1.0)
    recent = storage.message_page(user_id, limit=RECENT)
    for m in latest_typed([m for m in recent if keep is None or keep(m)], kind):
        if m.seq in seen or m.id in skip:
            continue
        reason = f"the user's latest statement holding a {kind} (the question asks for one)"
        cands.append(
            message_item(
                m,
                "message",
                best * packing.successor_decay,
                {"asked_type": 1.0},
                reason,
                show_dates=packing.show_dates,
                terms=terms,
                max_tokens=packing.excerpt_tokens,
            )  # fmt: skip
        )
