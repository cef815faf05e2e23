"""MemGPT-style memory tools for an agent: core blocks, archival memory, conversation search.

:func:`create_memory_tools` builds eight ``StructuredTool`` objects (each runs sync and
async) that let a model manage its own memory:

- ``core_memory_append`` / ``core_memory_replace`` edit small named **core blocks**
  (``human``: what the agent knows about the user; ``persona``: who the agent is), each
  with a character limit. Render them into the system prompt with
  :func:`core_memory_blocks`.
- ``archival_memory_insert`` keeps a memory the agent chooses to keep;
  ``archival_memory_search`` finds such memories again (hybrid BM25 + dense search).
- ``conversation_search`` searches past user and assistant messages of every thread.
- ``entity_search`` and ``entity_relations`` walk the user's knowledge graph: entities
  found by name, and each one's relations with their validity (current or superseded,
  and when) and sources (see :mod:`~langgraph_memory.integrations.graph.graph_tools`).

Everything is scoped to one user: the ``user_id`` bound in the factory, or else the
one in ``config["configurable"]["user_id"]`` of the run (as LangMem's tools do).
Mistakes a model can fix (text to replace that is not there, a block over its limit,
an unknown block) come back to it as the tool's answer, with ``status="error"``
on the ``ToolMessage``, instead of raising.

Every write goes through the memory's sensitivity gate (a core block is stored as
:meth:`~langgraph_memory.parts.items.Items.set_core_block` redacts it, an archival memory as
:meth:`MemoryManager.add_message` does).

Example:
    >>> from langgraph_memory import HashingEmbeddings, InMemoryBackend, MemoryManager
    >>> mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    >>> tools = {t.name: t for t in create_memory_tools(mm, user_id="alice")}
    >>> print(tools["core_memory_append"].invoke({"label": "human", "content": "Likes tea."}))
    Appended to the human block (10/2000 characters). It now reads:
    Likes tea.
    >>> print(core_memory_blocks(mm, "alice"))
    <core_memory>
    <human characters="10/2000">
    Likes tea.
    </human>
    <persona characters="0/2000">
    </persona>
    </core_memory>
    >>> _ = tools["archival_memory_insert"].invoke({"content": "Alice's cat is called Miso."})
    >>> print(tools["archival_memory_search"].invoke({"query": "cat name"}))
    Archival memories for 'cat name' (page 0, results 1-1):
    1. Alice's cat is called Miso.
    >>> mm.close()
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import StructuredTool, ToolException
from pydantic import BaseModel, Field, ValidationError, create_model

from langgraph_memory.core.records import MemoryHit
from langgraph_memory.core.validation import check_id, check_positive_int
from langgraph_memory.integrations.graph.graph_tools import (
    ENTITY_RELATIONS,
    ENTITY_SEARCH,
    USER_NAMES,
    EntityRelationsArgs,
    EntitySearchArgs,
    find_nodes,
    name_score,
    render_nodes,
    render_relations,
    walk_relations,
)
from langgraph_memory.integrations.graph.scope import check_memory
from langgraph_memory.manager import MemoryManager

if TYPE_CHECKING:
    from langgraph_memory.integrations.remote import RemoteMemory
from langgraph_memory.parts.items import CORE_BLOCK_KIND
from langgraph_memory.sensitivity.policy import SensitiveContentError

__all__ = [
    "create_memory_tools",
    "core_memory_blocks",
    "get_core_block",
    "set_core_block",
    "CORE_BLOCK_KIND",
    "DEFAULT_CORE_LIMITS",
    "ARCHIVAL_NAME",
    "MEMORY_TOOL_NAMES",
]

#: The core blocks and their character limits (MemGPT's defaults).
DEFAULT_CORE_LIMITS: Mapping[str, int] = {"human": 2000, "persona": 2000}
#: The ``name`` archival memories are stored with (as ``system`` messages).
ARCHIVAL_NAME = "archival"
#: The session archival memories go to when the run has no ``thread_id``.
ARCHIVAL_SESSION = "archival"
#: The tools :func:`create_memory_tools` returns, in order.
MEMORY_TOOL_NAMES = (
    "core_memory_append",
    "core_memory_replace",
    "archival_memory_insert",
    "archival_memory_search",
    "conversation_search",
    "preference_feedback",
    ENTITY_SEARCH,
    ENTITY_RELATIONS,
)
#: Highest page a search tool accepts (each page is one more search of ``page_size``).
MAX_PAGE = 50
_CONVERSATION_ROLES = ["user", "assistant"]
_LOCK = threading.Lock()
#: A knowledge-graph tool's answer: text for the model, the records as the artifact.
Reply = tuple[str, list[dict[str, Any]]]


# -- core blocks ------------------------------------------------------------------------------
def _check_label(label: Any, limits: Mapping[str, int]) -> str:
    if label not in limits:
        raise ToolException(
            f"Error: there is no core memory block {label!r}; the blocks are "
            f"{', '.join(repr(k) for k in limits)}."
        )
    return str(label)


def get_core_block(memory: MemoryManager | RemoteMemory, user_id: str, label: str) -> str:
    """The text of one of a user's core blocks (``""`` when never written).

    Example:
        >>> get_core_block(mm, "alice", "human")  # doctest: +SKIP
        'Likes tea.'
    """
    return memory.items.core_block(user_id, label)


def set_core_block(
    memory: MemoryManager | RemoteMemory,
    user_id: str,
    label: str,
    value: str,
    *,
    limits: Mapping[str, int] | None = None,
) -> str:
    """Overwrite a user's core block (e.g. to seed the ``persona``); returns the text stored
    (through the memory's sensitivity gate).

    Args:
        memory: The memory manager.
        user_id: Whose block.
        label: The block (a key of ``limits``).
        value: The new text.
        limits: Blocks and character limits (default :data:`DEFAULT_CORE_LIMITS`).

    Raises:
        ValueError: When the block is unknown or the text is over its limit.
        TypeError: When ``value`` is not a str.

    Example:
        >>> set_core_block(mm, "alice", "persona", "I am a concise assistant.")  # doctest: +SKIP
    """
    lim = dict(DEFAULT_CORE_LIMITS if limits is None else limits)
    if label not in lim:
        raise ValueError(f"unknown core block {label!r}; the blocks are {list(lim)}")
    if not isinstance(value, str):
        raise TypeError(f"value must be a str, got {type(value).__name__}")
    text = memory.maintenance.redact(value, field=label)
    if len(text) > lim[label]:
        raise ValueError(f"{len(text)} characters is over the {label} block's limit {lim[label]}")
    return memory.items.set_core_block(check_id(user_id, "user_id"), label, text)


def core_memory_blocks(
    memory: MemoryManager | RemoteMemory, user_id: str, *, limits: Mapping[str, int] | None = None
) -> str:
    """Render a user's core blocks for a system prompt, with their fill level.

    Args:
        memory: The memory manager.
        user_id: Whose blocks.
        limits: Blocks and character limits (default :data:`DEFAULT_CORE_LIMITS`).

    Returns:
        ``<core_memory>`` with one ``<label characters="n/limit">`` element per block.

    Example:
        >>> system = "You are a helpful assistant.\\n" + core_memory_blocks(  # doctest: +SKIP
        ...     mm, "alice")
    """
    lim = DEFAULT_CORE_LIMITS if limits is None else limits
    lines = ["<core_memory>"]
    for label, limit in lim.items():
        value = get_core_block(memory, user_id, label)
        lines.append(f'<{label} characters="{len(value)}/{limit}">')
        if value:
            lines.append(value)
        lines.append(f"</{label}>")
    lines.append("</core_memory>")
    return "\n".join(lines)


# -- argument schemas (what the model sees) ---------------------------------------------------
def _core_schemas(labels: tuple[str, ...]) -> tuple[type[BaseModel], type[BaseModel]]:
    """The append and replace argument schemas, the block names as an enum."""
    label_type: Any = Literal[labels]  # type: ignore[valid-type]
    label = (label_type, Field(description=f"The core memory block: one of {list(labels)}."))
    append = create_model(
        "core_memory_append",
        label=label,
        content=(str, Field(description="Text to add at the end of the block.", min_length=1)),
    )
    replace = create_model(
        "core_memory_replace",
        label=label,
        old_content=(str, Field(description="Exact text in the block to replace.", min_length=1)),
        new_content=(str, Field(description="The replacement text ('' deletes old_content).")),
    )
    return append, replace


class _InsertArgs(BaseModel):
    content: str = Field(description="The memory to keep, self-contained.", min_length=1)


class _SearchArgs(BaseModel):
    query: str = Field(description="What to look for (words or a question).", min_length=1)
    page: int = Field(default=0, ge=0, le=MAX_PAGE, description="Result page, from 0.")


class _FeedbackArgs(BaseModel):
    preference: str = Field(
        description="The preference: its id as cited in your memory context, or its key.",
        min_length=1,
    )
    signal: Literal["followed", "corrected"] = Field(
        description="'followed' when the user was happy with it, 'corrected' when they "
        "said it is wrong."
    )
    instead: str | None = Field(
        default=None, description="With 'corrected': what the user prefers instead."
    )


# -- the factory ------------------------------------------------------------------------------
def create_memory_tools(
    memory: MemoryManager | RemoteMemory,
    *,
    user_id: str | None = None,
    core_limits: Mapping[str, int] | None = None,
    page_size: int = 5,
) -> list[StructuredTool]:
    """Build the MemGPT-style memory tools over a :class:`MemoryManager` (or a
    service's :class:`~langgraph_memory.RemoteMemory`).

    Args:
        memory: The memory the tools read and write.
        user_id: The user the tools act for. When ``None``, each call takes it from
            ``config["configurable"]["user_id"]`` (a graph's run config reaches tools
            run by ``ToolNode``).
        core_limits: Core blocks and their character limits (default ``human`` and
            ``persona``, 2000 characters each).
        page_size: Results per page of the search tools.

    Returns:
        ``core_memory_append``, ``core_memory_replace``, ``archival_memory_insert``,
        ``archival_memory_search``, ``conversation_search``, ``preference_feedback`` (see
        :meth:`~langgraph_memory.parts.profile.Profile.feedback`), ``entity_search`` and
        ``entity_relations`` (the knowledge graph, see
        :mod:`~langgraph_memory.integrations.graph.graph_tools`; they answer with the
        records as the ``ToolMessage``'s ``artifact`` too), each with ``func`` and
        ``coroutine``.

    Raises:
        TypeError: When ``memory`` is neither a ``MemoryManager`` nor a ``RemoteMemory``.
        ValueError: When ``user_id``, ``core_limits`` or ``page_size`` is invalid; at
            call time, when no user id is bound and the config has none.

    Example:
        >>> from langgraph.prebuilt import ToolNode
        >>> tools = create_memory_tools(mm)  # doctest: +SKIP
        >>> agent = create_react_agent(model, tools)  # doctest: +SKIP
        >>> agent.invoke({"messages": [("user", "Remember: I'm vegetarian")]},  # doctest: +SKIP
        ...              {"configurable": {"user_id": "alice", "thread_id": "t1"}})
    """
    check_memory(memory)
    bound = None if user_id is None else check_id(user_id, "user_id")
    limits = _check_limits(DEFAULT_CORE_LIMITS if core_limits is None else core_limits)
    size = check_positive_int(page_size, "page_size")
    blocks = ", ".join(repr(k) for k in limits)
    append_args, replace_args = _core_schemas(tuple(limits))

    def user(config: RunnableConfig | None) -> str:
        if bound is not None:
            return bound
        found = ((config or {}).get("configurable") or {}).get("user_id")
        if found is None or found == "":
            raise ValueError(
                "memory tools need a user id: bind one with create_memory_tools(memory, "
                'user_id="alice"), or run the tools with config={"configurable": '
                '{"user_id": "alice"}} (a graph passes its run config to its tools)'
            )
        return check_id(found, "user_id")

    def append(label: str, content: str, *, config: RunnableConfig) -> str:
        uid, name = user(config), _check_label(label, limits)
        with _LOCK:
            old = get_core_block(memory, uid, name)
            new = _redact(memory, f"{old}\n{content}" if old else content, name)
            _fit(name, new, limits[name])
            new = memory.items.set_core_block(uid, name, new)
        return f"Appended to the {name} block ({len(new)}/{limits[name]} characters). " + (
            f"It now reads:\n{new}"
        )

    def replace(label: str, old_content: str, new_content: str, *, config: RunnableConfig) -> str:
        uid, name = user(config), _check_label(label, limits)
        with _LOCK:
            old = get_core_block(memory, uid, name)
            if old_content not in old:
                shown = old if old else "(empty)"
                raise ToolException(
                    f"Error: {old_content!r} is not in the {name} block, so nothing was "
                    f"replaced. Copy the exact text from the block, which reads:\n{shown}"
                )
            new = _redact(memory, old.replace(old_content, new_content), name)
            _fit(name, new, limits[name])
            new = memory.items.set_core_block(uid, name, new)
        return f"Replaced text in the {name} block ({len(new)}/{limits[name]} characters). " + (
            f"It now reads:\n{new}"
        )

    def insert(content: str, *, config: RunnableConfig) -> str:
        uid = user(config)
        thread = ((config or {}).get("configurable") or {}).get("thread_id")
        try:
            mid = memory.add_message(
                uid,
                str(thread) if thread not in (None, "") else ARCHIVAL_SESSION,
                "system",
                content,
                name=ARCHIVAL_NAME,
                metadata={"memory_tool": "archival_memory_insert"},
            )
        except ValueError as exc:  # too long, or refused by the memory's policy
            raise ToolException(f"Error: nothing was stored: {exc}") from exc
        return f"Stored in archival memory (id {mid})."

    def search_archival(query: str, page: int = 0, *, config: RunnableConfig) -> str:
        uid = user(config)
        found = memory.search(uid, query, k=(page + 1) * size + 1, filter={"name": ARCHIVAL_NAME})
        hits = [h for h in found if h.name == ARCHIVAL_NAME and h.role == "system"]
        return _render(hits, page, size, f"Archival memories for {query!r}", _archival_line)

    def search_conversation(query: str, page: int = 0, *, config: RunnableConfig) -> str:
        uid = user(config)
        flt = {"role": {"$in": _CONVERSATION_ROLES}}
        found = memory.search(uid, query, k=(page + 1) * size + 1, filter=flt)
        hits = [h for h in found if h.role in _CONVERSATION_ROLES]
        return _render(hits, page, size, f"Past messages for {query!r}", _message_line)

    def feedback(
        preference: str,
        signal: Literal["followed", "corrected"],
        instead: str | None = None,
        *,
        config: RunnableConfig,
    ) -> str:
        uid = user(config)
        try:
            entries = memory.profile.feedback(uid, preference, signal, value=instead)
        except KeyError as exc:
            raise ToolException(
                f"Error: no preference {preference!r}; use the id or key your context cites."
            ) from exc
        except SensitiveContentError as exc:
            raise ToolException(f"Error: nothing was changed: {exc}") from exc
        shown = "; ".join(f"{e.key}: {e.value} (confidence {e.confidence:.1f})" for e in entries)
        return f"Noted as {signal}. Now: {shown}"

    def search_entities(name: str, page: int = 0, *, config: RunnableConfig) -> Reply:
        uid = user(config)
        nodes = find_nodes(name, memory.profile.entities(uid), memory.profile.facts(uid), 10**6)
        return render_nodes(name, nodes, page, size), nodes[page * size : (page + 1) * size]

    def relations(
        name: str,
        status: Literal["all", "current", "superseded"] = "all",
        hops: int = 1,
        page: int = 0,
        *,
        config: RunnableConfig,
    ) -> Reply:
        uid = user(config)
        node, note = _resolve(memory, uid, name)
        if node is None:
            return f"No entity or relation matches {name!r}; try {ENTITY_SEARCH}.", []
        found = walk_relations(
            node, lambda n: memory.profile.relations(uid, n), status=status, hops=hops
        )
        text = note + render_relations(node, found, page, status, hops)
        return text, found

    specs: list[tuple[str, Callable[..., Any], type[BaseModel], str]] = [
        (
            "core_memory_append",
            append,
            append_args,
            f"Add a line to a core memory block ({blocks}); core memory is always in your "
            "prompt. Use 'human' for lasting facts about the user, 'persona' for yourself.",
        ),
        (
            "core_memory_replace",
            replace,
            replace_args,
            f"Replace exact text in a core memory block ({blocks}); an empty new_content "
            "deletes it. Use it to correct or remove what is no longer true.",
        ),
        (
            "archival_memory_insert",
            insert,
            _InsertArgs,
            "Keep something in archival memory (unlimited, not in your prompt): write it so "
            "it makes sense on its own. Find it later with archival_memory_search.",
        ),
        (
            "archival_memory_search",
            search_archival,
            _SearchArgs,
            f"Search archival memory by meaning and keywords; {size} results per page.",
        ),
        (
            "conversation_search",
            search_conversation,
            _SearchArgs,
            "Search past user and assistant messages of every conversation with this user; "
            f"{size} results per page.",
        ),
        (
            "preference_feedback",
            feedback,
            _FeedbackArgs,
            "Record that the user followed or corrected one of their remembered preferences: "
            "a corrected one loses confidence and leaves your context when it falls too low.",
        ),
        (
            ENTITY_SEARCH,
            search_entities,
            EntitySearchArgs,
            "Find people, places, organisations, projects and things in the user's "
            "long-term knowledge graph by name (or part of one), with how often and when "
            f"they came up; {size} results per page.",
        ),
        (
            ENTITY_RELATIONS,
            relations,
            EntityRelationsArgs,
            "List an entity's relations in the user's knowledge graph, oldest first: each "
            "with whether it still holds (current, or superseded and when) and the ids of "
            "the messages it came from. hops=2 follows the entities it links to.",
        ),
    ]
    graph_tools = (ENTITY_SEARCH, ENTITY_RELATIONS)
    return [
        StructuredTool.from_function(
            func=fn,
            coroutine=_async_twin(fn),
            name=name,
            description=desc,
            args_schema=schema,
            handle_tool_error=True,
            handle_validation_error=_validation_message,
            response_format="content_and_artifact" if name in graph_tools else "content",
        )
        for name, fn, schema, desc in specs
    ]


# -- helpers ----------------------------------------------------------------------------------


def _resolve(
    memory: MemoryManager | RemoteMemory, user_id: str, name: str
) -> tuple[str | None, str]:
    """The graph node ``name`` means: itself when it has relations, the entity of that
    name (case, spacing and accents folded), else the closest name (with a note saying
    so), else ``None``. The user's own words for
    themselves ("me", "我") mean ``user``."""
    folded = " ".join(name.split()).casefold()
    if folded in USER_NAMES:
        return "user", ""
    if memory.profile.relations(user_id, name):
        return name, ""
    entities = memory.profile.entities(user_id)
    for e in entities:
        if name_score(name, e.name) == 1.0:  # the same name, folded
            return e.name, ""
    best = find_nodes(name, entities, memory.profile.facts(user_id), 1)
    if not best:
        return None, ""
    closest = str(best[0]["name"])
    return closest, f"No entity is named {name!r}; the closest is {closest!r}.\n"


def _check_limits(limits: Mapping[str, int]) -> dict[str, int]:
    if not isinstance(limits, Mapping) or not limits:
        raise ValueError("core_limits must be a non-empty mapping of block name to limit")
    out: dict[str, int] = {}
    for label, limit in limits.items():
        if not isinstance(label, str) or not label.isidentifier():
            raise ValueError(f"core block names must be identifiers, got {label!r}")
        out[label] = check_positive_int(limit, f"core_limits[{label!r}]")
    return out


def _redact(memory: MemoryManager | RemoteMemory, text: str, label: str) -> str:
    """A block's new text through the sensitivity gate; a refusal is the tool's answer."""
    try:
        return str(memory.maintenance.redact(text, field=label))
    except ValueError as exc:  # refused by the memory's policy
        raise ToolException(f"Error: nothing was changed: {exc}") from exc


def _fit(label: str, text: str, limit: int) -> None:
    if len(text) > limit:
        raise ToolException(
            f"Error: the {label} block would be {len(text)} characters, over its limit of "
            f"{limit}; nothing was changed. Shorten or remove text first with "
            "core_memory_replace, or keep this in archival memory instead."
        )


def _render(
    hits: list[MemoryHit],
    page: int,
    size: int,
    title: str,
    line: Callable[[MemoryHit], str],
) -> str:
    shown = hits[page * size : (page + 1) * size]
    if not shown:
        where = "" if page == 0 else f" on page {page}"
        return f"{title}: no results{where}."
    first = page * size + 1
    head = f"{title} (page {page}, results {first}-{first + len(shown) - 1}):"
    more = (
        [f"More results: call again with page={page + 1}."] if len(hits) > (page + 1) * size else []
    )
    return "\n".join([head, *(f"{first + i}. {line(h)}" for i, h in enumerate(shown)), *more])


def _when(hit: MemoryHit) -> str:
    return f"[{hit.timestamp:%Y-%m-%d %H:%M}] " if hit.timestamp is not None else ""


def _archival_line(hit: MemoryHit) -> str:
    return hit.text


def _message_line(hit: MemoryHit) -> str:
    return f"{_when(hit)}{hit.role} (thread {hit.session_id}): {hit.text}"


def _validation_message(exc: ValidationError) -> str:
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in exc.errors()
    )
    return f"Error: invalid arguments ({problems}). Fix them and call the tool again."


def _async_twin(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The tool's coroutine: the same work in a worker thread (the store calls block)."""

    async def run(*args: Any, config: RunnableConfig, **kwargs: Any) -> Any:
        return await asyncio.to_thread(fn, *args, config=config, **kwargs)

    run.__name__ = f"a{fn.__name__}"
    return run
