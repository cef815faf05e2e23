"""Knowledge-graph tools (seed 001: long-term knowledge-graph memory is reached through tools).

The memory keeps a small knowledge graph per user: entities (people, places,
organisations, things the user mentions; :meth:`~langgraph_memory.parts.profile.Profile.entities`)
and the facts that link them (``subject —relation→ object`` triples, each with the span
of time it held and the messages it came from;
:meth:`~langgraph_memory.parts.profile.Profile.relations`). A superseded fact is kept,
closed, so the graph remembers what changed and when. Two tools let a model walk it:

- ``entity_search`` finds the nodes whose names match what the model asks for
  (folded case and spacing, whole names, parts of names, shared words or Chinese
  characters), with how often and when each came up;
- ``entity_relations`` lists a node's edges: each relation with its validity
  (``current`` since a date, or ``superseded`` with the span it held and the fact that
  replaced it) and its sources (message ids); with ``hops=2`` the edges of the nodes at
  the other end as well, so the model can follow a chain ("Analysis A depends on
  Experiment B, which uses the Lyon dataset").

Both answer as text for the model and carry the same records, structured, as the
``ToolMessage``'s ``artifact``. :func:`create_memory_tools
<langgraph_memory.integrations.graph.tools.create_memory_tools>` returns them with the
other memory tools, scoped to one user like them.

Example:
    >>> from datetime import datetime, timezone
    >>> from types import SimpleNamespace as NS
    >>> at = datetime(2024, 3, 1, tzinfo=timezone.utc)
    >>> lisbon = NS(id="f1", subject="Sofia", relation="lives_in", object="Lisbon",
    ...     valid_from=datetime(2024, 1, 1, tzinfo=timezone.utc), valid_to=at,
    ...     superseded_by="f2", source_ids=["m1"], quote=None, confidence=1.0)
    >>> relation_record(lisbon, hop=1)["status"]
    'superseded'
    >>> relation_line(relation_record(lisbon, hop=1))
    'Sofia —lives in→ Lisbon [superseded: held 2024-01-01 to 2024-03-01, replaced by f2] (fact f1; sources: m1)'
    >>> name_score("sofia", "Sofia"), name_score("Acme", "Acme Corp") > 0, name_score("x", "Sofia")
    (1.0, True, 0.0)
"""  # noqa: E501

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from langgraph_memory.core.tokens import is_cjk_text, tokenize

__all__ = [
    "ENTITY_SEARCH",
    "ENTITY_RELATIONS",
    "MAX_HOPS",
    "MAX_NEIGHBOURS",
    "RELATIONS_PER_PAGE",
    "EntitySearchArgs",
    "EntityRelationsArgs",
    "name_score",
    "relation_record",
    "relation_line",
    "find_nodes",
    "walk_relations",
    "render_nodes",
    "render_relations",
]

ENTITY_SEARCH = "entity_search"
ENTITY_RELATIONS = "entity_relations"
#: The farthest ``entity_relations`` walks from the named node.
MAX_HOPS = 2
#: At most this many neighbours are walked for a second hop (the most connected first).
MAX_NEIGHBOURS = 10
#: Relations shown per page of ``entity_relations``.
RELATIONS_PER_PAGE = 20
#: A node matches a name when its score reaches this (see :func:`name_score`).
MIN_NAME_SCORE = 0.3
#: What the user is called as the subject of their own facts.
USER_NAMES = ("user", "the user", "me", "i", "myself", "我", "用户")


class EntitySearchArgs(BaseModel):
    name: str = Field(
        description="A name or part of one: a person, place, organisation, project or thing.",
        min_length=1,
        max_length=200,
    )
    page: int = Field(default=0, ge=0, le=50, description="Result page, from 0.")


class EntityRelationsArgs(BaseModel):
    name: str = Field(
        description="The entity, as entity_search or a relation names it ('user' for the "
        "user themselves).",
        min_length=1,
        max_length=200,
    )
    status: Literal["all", "current", "superseded"] = Field(
        default="all",
        description="'current': what holds now; 'superseded': what no longer holds; 'all'.",
    )
    hops: int = Field(
        default=1,
        ge=1,
        le=MAX_HOPS,
        description="1: the entity's own relations; 2: also those of the entities they link to.",
    )
    page: int = Field(default=0, ge=0, le=50, description="Result page, from 0.")


# -- names ----------------------------------------------------------------------------------
def _fold(text: str) -> str:
    """Case, spacing and accents folded ("Sofía" is "sofia")."""
    plain = unicodedata.normalize("NFKD", " ".join(str(text).split()).casefold())
    return unicodedata.normalize("NFC", "".join(c for c in plain if not unicodedata.combining(c)))


def _grams(text: str) -> set[str]:
    """Characters and character pairs of a Chinese name (a name's words are not reliably
    segmented: 王伟 and 王伟老师 share their characters)."""
    chars = [c for c in text if not c.isspace()]
    return set(chars) | {a + b for a, b in zip(chars, chars[1:], strict=False)}


def name_score(query: str, name: str) -> float:
    """How well ``name`` matches what was asked for, in [0, 1]: 1 for the same name
    (case, spacing and accents folded), 0.8 when one holds the other, else the share of words
    (Chinese: characters and character pairs) they have in common.

    Example:
        >>> name_score("wang wei", "Wang  Wei"), name_score("王伟", "王伟老师")
        (1.0, 0.8)
    """
    q, n = _fold(query), _fold(name)
    if not q or not n:
        return 0.0
    if q == n:
        return 1.0
    if min(len(q), len(n)) >= 2 and (q in n or n in q):
        return 0.8
    if is_cjk_text(q) or is_cjk_text(n):
        a, b = _grams(q), _grams(n)
    else:
        a, b = set(tokenize(q)), set(tokenize(n))
    if not a or not b:
        return 0.0
    return 0.7 * len(a & b) / len(a | b)


def _iso(when: datetime | None) -> str | None:
    return when.date().isoformat() if when is not None else None


def find_nodes(
    query: str, entities: Sequence[Any], facts: Sequence[Any], k: int
) -> list[dict[str, Any]]:
    """The graph's nodes matching ``query``, best first (then the most mentioned): the
    user's entities, and the subjects and objects of their facts that are no entity
    (a project or an analysis named only in a relation). Each as a record: ``name``,
    ``type``, ``mentions``, ``first_mentioned``, ``last_mentioned``, ``relations``,
    ``current_relations``, ``source_ids``, ``score``."""
    nodes: dict[str, dict[str, Any]] = {}
    for e in entities:
        nodes[_fold(e.name)] = {
            "name": e.name,
            "type": e.type,
            "mentions": e.count,
            "first_mentioned": _iso(e.first_at),
            "last_mentioned": _iso(e.last_at),
            "source_ids": [m[0] for m in e.mentions],
        }
    for f in facts:
        for end in (f.subject, f.object):
            key = _fold(end)
            if key and key not in nodes and key not in USER_NAMES:
                nodes[key] = {
                    "name": end,
                    "type": "other",
                    "mentions": 0,
                    "first_mentioned": None,
                    "last_mentioned": None,
                    "source_ids": [],
                }
    found = []
    for key, node in nodes.items():
        score = name_score(query, node["name"])
        if score < MIN_NAME_SCORE:
            continue
        edges = [f for f in facts if _touches(f, key)]
        found.append(
            {
                **node,
                "relations": len(edges),
                "current_relations": sum(1 for f in edges if f.valid_to is None),
                "score": round(score, 3),
            }
        )
    found.sort(key=lambda n: (-n["score"], -n["mentions"], -n["relations"], _fold(n["name"])))
    return found[:k]


def _touches(fact: Any, key: str) -> bool:
    """Whether a fact is an edge of the node ``key`` (as
    :meth:`~langgraph_memory.parts.profile.Profile.relations` reads it)."""
    return _fold(fact.subject) == key or key in _fold(fact.object)


# -- relations ------------------------------------------------------------------------------
def relation_record(fact: Any, *, hop: int) -> dict[str, Any]:
    """A fact as an edge: ``id``, ``subject``, ``relation``, ``object``, ``status``
    (``current`` or ``superseded``), ``valid_from``, ``valid_to`` (ISO, or ``None`` while
    it holds), ``superseded_by``, ``source_ids``, ``quote``, ``confidence`` and ``hop``
    (1: an edge of the node asked about; 2: of a node it links to)."""
    return {
        "id": fact.id,
        "subject": fact.subject,
        "relation": fact.relation,
        "object": fact.object,
        "status": "current" if fact.valid_to is None else "superseded",
        "valid_from": fact.valid_from.isoformat(),
        "valid_to": fact.valid_to.isoformat() if fact.valid_to is not None else None,
        "superseded_by": fact.superseded_by,
        "source_ids": list(fact.source_ids),
        "quote": fact.quote,
        "confidence": fact.confidence,
        "hop": hop,
    }


def relation_line(r: dict[str, Any]) -> str:
    """One edge for the model: the triple, its validity, its fact id and sources, and
    the words it was read from."""
    start = r["valid_from"][:10]
    if r["status"] == "current":
        validity = f"current since {start}"
    else:
        validity = f"superseded: held {start} to {r['valid_to'][:10]}"
        if r["superseded_by"]:
            validity += f", replaced by {r['superseded_by']}"
    sources = ", ".join(r["source_ids"]) or "none"
    relation = r["relation"].replace("_", " ").strip()
    said = f' — said: "{r["quote"]}"' if r.get("quote") else ""
    return (
        f"{r['subject']} —{relation}→ {r['object']} [{validity}] "
        f"(fact {r['id']}; sources: {sources}){said}"
    )


def walk_relations(
    name: str,
    relations_of: Callable[[str], Sequence[Any]],
    *,
    status: str = "all",
    hops: int = 1,
) -> list[dict[str, Any]]:
    """The edges of node ``name``, oldest first, and with ``hops=2`` then those of the
    nodes at their other ends (at most :data:`MAX_NEIGHBOURS`, the most connected
    first), each edge once; ``status`` keeps ``current`` or ``superseded`` ones only
    (``all``: both). ``relations_of`` lists a node's facts (the user's, scoped by the
    caller)."""
    if hops < 1 or hops > MAX_HOPS:
        raise ValueError(f"hops must be 1 to {MAX_HOPS}, got {hops}")
    if status not in ("all", "current", "superseded"):
        raise ValueError(f"status must be 'all', 'current' or 'superseded', got {status!r}")
    seen: set[str] = set()
    out: list[dict[str, Any]] = []

    def take(facts: Sequence[Any], hop: int) -> list[Any]:
        kept = []
        for f in sorted(facts, key=lambda f: (f.valid_from, f.id)):
            if f.id in seen:
                continue
            seen.add(f.id)
            kept.append(f)
            if status == "all" or relation_record(f, hop=hop)["status"] == status:
                out.append(relation_record(f, hop=hop))
        return kept

    first = take(relations_of(name), 1)
    if hops >= 2:
        key = _fold(name)
        ends: dict[str, str] = {}
        for f in first:
            other = f.object if _fold(f.subject) == key else f.subject
            if _fold(other) != key and _fold(other) not in USER_NAMES:
                ends.setdefault(_fold(other), other)
        reached = [(end, relations_of(end)) for end in ends.values()]
        reached.sort(key=lambda x: -len(x[1]))
        for _, facts in reached[:MAX_NEIGHBOURS]:
            take(facts, 2)
    return out


# -- rendering ------------------------------------------------------------------------------
def _paged(
    items: list[dict[str, Any]],
    page: int,
    size: int,
    title: str,
    empty: str,
    line: Callable[[dict[str, Any]], str],
) -> tuple[str, int]:
    """One page of ``items`` as numbered lines under ``title`` (``empty`` when the page
    has none), with a pointer to the next page; and how many were shown."""
    shown = items[page * size : (page + 1) * size]
    if not shown:
        return empty + ("" if page == 0 else f" on page {page}") + ".", 0
    first = page * size + 1
    lines = [f"{title} (page {page}, results {first}-{first + len(shown) - 1}):"]
    lines += [f"{first + i}. {line(item)}" for i, item in enumerate(shown)]
    if len(items) > (page + 1) * size:
        lines.append(f"More results: call again with page={page + 1}.")
    return "\n".join(lines), len(shown)


def _node_line(n: dict[str, Any]) -> str:
    times = "time" if n["mentions"] == 1 else "times"
    seen = (
        f"mentioned {n['mentions']} {times}, {n['first_mentioned']} to {n['last_mentioned']}"
        if n["mentions"]
        else "named in relations only"
    )
    return (
        f"{n['name']} ({n['type']}; {seen}; {n['relations']} relations, "
        f"{n['current_relations']} current)"
    )


def render_nodes(query: str, nodes: list[dict[str, Any]], page: int, size: int) -> str:
    """``entity_search``'s answer."""
    title, empty = f"Entities matching {query!r}", f"No entity matches {query!r}"
    text, shown = _paged(nodes, page, size, title, empty, _node_line)
    if not shown:
        return text
    return f"{text}\nList an entity's relations with {ENTITY_RELATIONS}(name=...)."


def render_relations(
    name: str, relations: list[dict[str, Any]], page: int, status: str, hops: int
) -> str:
    """``entity_relations``' answer."""
    which = "relations" if status == "all" else f"{status} relations"
    reach = "" if hops == 1 else f" (and of the entities they link to, {hops} hops)"

    def line(r: dict[str, Any]) -> str:
        return relation_line(r) + (" (via a linked entity)" if r["hop"] > 1 else "")

    title = f"{which.capitalize()} of {name!r}{reach}, oldest first"
    empty = f"No {which} of {name!r}{reach}"
    return _paged(relations, page, RELATIONS_PER_PAGE, title, empty, line)[0]
