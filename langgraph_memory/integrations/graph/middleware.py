"""``MemoryMiddleware``: memory for LangChain v1 agents built with ``create_agent``.

Needs ``langchain>=1`` (``pip install "langgraph-memory[agents]"``).

Example:
    >>> from langchain.agents import create_agent  # doctest: +SKIP
    >>> from langgraph.checkpoint.memory import InMemorySaver
    >>> agent = create_agent(  # doctest: +SKIP
    ...     model, tools, system_prompt="You are a helpful assistant.",
    ...     middleware=[MemoryMiddleware(mm)], checkpointer=InMemorySaver())
    >>> agent.invoke({"messages": [("user", "What am I allergic to?")]},  # doctest: +SKIP
    ...              {"configurable": {"user_id": "alice", "thread_id": "t2"}})
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, NamedTuple

from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse
from langchain.agents.middleware.types import OmitFromInput, ToolCallRequest
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.config import get_config
from langgraph.types import Command
from typing_extensions import NotRequired

from langgraph_memory.core.validation import check_id, check_positive_int
from langgraph_memory.integrations.graph.messages import (
    content_text,
    last_human_index,
    latest_human_text,
    render_message,
)
from langgraph_memory.integrations.graph.nodes import aremember_exchange, remember_exchange
from langgraph_memory.integrations.graph.prompting import (
    context_items,
    drop_visible,
    merge_system,
    visible_ids,
)
from langgraph_memory.integrations.graph.scope import DEFAULT_SESSION, check_memory
from langgraph_memory.integrations.graph.thread import (
    OUTLINE_KEY,
    OUTLINE_SHARE,
    ThreadTrim,
    message_tokens,
    outline_tokens,
    trim_thread,
)
from langgraph_memory.manager import MemoryManager

__all__ = ["MemoryMiddleware", "MemoryAgentState"]

_MAX_OPEN_TASKS = 1024


class MemoryAgentState(AgentState[Any]):
    """The agent's state plus what the memory recalled for the current turn."""

    memory_context: NotRequired[Annotated[str, OmitFromInput]]
    """The rendered memory context of this turn (``""`` when nothing was recalled)."""

    memory_sources: NotRequired[Annotated[list[str], OmitFromInput]]
    """Ids of the stored messages the context cites, in prompt order."""

    memory_items: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput]]
    """The recalled items: ``{"layer", "text", "source_ids", "score"}`` each."""

    memory_thread_outline: NotRequired[Annotated[str, OmitFromInput]]
    """One line per exchange trimmed from the thread (with ``thread_token_budget``)."""


class MemoryMiddleware(AgentMiddleware[MemoryAgentState, Any, Any]):
    """Long-term memory for a ``create_agent`` agent, in one middleware.

    - **Before the agent** runs a turn, the memory is asked about the latest human
      message (``build_context`` within ``token_budget``); the rendered context is
      kept in the state (``memory_context``, ``memory_sources``).
    - **Each model call** gets that context appended to the agent's own system
      prompt, so the model reads exactly one system message, first (nothing is
      added to the thread).
    - **Each tool call** (with ``record_tasks``) becomes a step of a task opened
      for the turn: its tool, arguments, status and result.
    - **After the agent** finishes the turn, the exchange (the human message, the
      model's replies and tool calls, and the tool results) is stored, and an open
      task is completed as an episode (outcome from its steps, the final answer
      as its summary), which the reflection layer learns lessons from. The task
      belongs to the run's ``agent_id`` when one is given: its episode and lesson
      then reach only that agent's contexts.
    - With ``thread_token_budget``, the thread the model reads, the outline of what
      left it included, is kept within that many tokens: the oldest exchanges leave
      the ``messages`` channel (never a tool call without its result, never the
      current turn), stored in memory first and still searchable, and an outline of
      them takes their place in the system prompt, within a quarter of the budget
      (the newest lines whole, older ones compacted, the oldest left out).

    The user comes from ``config["configurable"]["user_id"]`` (or a ``user_id``
    in the run's ``context``), the session from ``config["configurable"]["thread_id"]``,
    the preference scope from ``config["configurable"]["scope"]``, the agent the memory
    is recalled for from ``config["configurable"]["agent_id"]`` (or an ``agent_id`` in the
    run's ``context``; the traits of other agents then stay out). Sync and async
    agents are both served.

    Args:
        memory: The memory to read and write.
        token_budget: Most tokens of recalled memory per turn.
        remember: Store each finished exchange.
        record_tasks: Turn tool runs into task steps and episodes.
        skip_visible: Leave out recalled messages the thread already shows.
        thread_token_budget: Keep the thread within this many tokens (``None``:
            never trim).

    Raises:
        TypeError: When ``memory`` is not a ``MemoryManager``.
        ValueError: At run time, when no user id is given.

    Example:
        >>> from langchain.agents import create_agent  # doctest: +SKIP
        >>> agent = create_agent(model, tools, system_prompt="Be brief.",  # doctest: +SKIP
        ...                      middleware=[MemoryMiddleware(mm, token_budget=800)])
    """

    state_schema = MemoryAgentState

    def __init__(
        self,
        memory: MemoryManager,
        *,
        token_budget: int = 1000,
        remember: bool = True,
        record_tasks: bool = True,
        skip_visible: bool = True,
        thread_token_budget: int | None = None,
    ) -> None:
        super().__init__()
        check_memory(memory)
        check_positive_int(token_budget, "token_budget")
        if thread_token_budget is not None:
            check_positive_int(thread_token_budget, "thread_token_budget")
        self.memory = memory
        self.token_budget = token_budget
        self.remember = bool(remember)
        self.record_tasks = bool(record_tasks)
        self.skip_visible = bool(skip_visible)
        self.thread_token_budget = thread_token_budget
        self.tools = []
        self._tasks: dict[tuple[str, str, str], str] = {}
        self._lock = threading.Lock()

    # -- before the agent: recall ---------------------------------------------------------
    def before_agent(self, state: MemoryAgentState, runtime: Any) -> dict[str, Any] | None:
        messages, args = self._request(state, runtime)
        if args is None:
            return {"memory_context": "", "memory_sources": [], "memory_items": []}
        return self._recalled(self.memory.build_context(**args), messages)

    async def abefore_agent(self, state: MemoryAgentState, runtime: Any) -> dict[str, Any] | None:
        messages, args = self._request(state, runtime)
        if args is None:
            return {"memory_context": "", "memory_sources": [], "memory_items": []}
        return self._recalled(await self.memory.aio.build_context(**args), messages)

    def _request(
        self, state: MemoryAgentState, runtime: Any
    ) -> tuple[list[BaseMessage], dict[str, Any] | None]:
        """The thread's messages and this run's ``build_context`` arguments (``None``: no
        human message to recall for)."""
        run = _run(runtime)
        messages = list(state["messages"])
        query = latest_human_text(messages, self.memory.config.write.max_content_chars)
        if not query:
            return messages, None
        return messages, {
            "user_id": run.user_id,
            "session_id": run.session_id,
            "query": query,
            "token_budget": self.token_budget,
            "scope": run.scope,
            "agent_id": run.agent_id,
            "shown_ids": visible_ids(messages) if self.skip_visible else None,
        }

    def _recalled(self, ctx: Any, messages: list[BaseMessage]) -> dict[str, Any]:
        if self.skip_visible:
            ctx = drop_visible(ctx, messages)
        return {
            "memory_context": ctx.to_prompt(),
            "memory_sources": ctx.source_ids,
            "memory_items": context_items(ctx),
        }

    # -- before each model call: keep the thread in budget ----------------------------------
    def before_model(self, state: MemoryAgentState, runtime: Any) -> dict[str, Any] | None:
        trim = self._trim(state)
        if trim is None:
            return None
        user_id, session_id, *_ = _run(runtime)
        for chunk in trim.exchanges:
            remember_exchange(self.memory, user_id, session_id, chunk)
        return trim.update(str(state.get(OUTLINE_KEY) or ""), self._outline_tokens())

    async def abefore_model(self, state: MemoryAgentState, runtime: Any) -> dict[str, Any] | None:
        trim = self._trim(state)
        if trim is None:
            return None
        user_id, session_id, *_ = _run(runtime)
        for chunk in trim.exchanges:
            await aremember_exchange(self.memory, user_id, session_id, chunk)
        return trim.update(str(state.get(OUTLINE_KEY) or ""), self._outline_tokens())

    def _outline_tokens(self) -> int:
        """The tokens the outline may take: :data:`OUTLINE_SHARE` of the thread budget."""
        return int((self.thread_token_budget or 0) * OUTLINE_SHARE)

    def _trim(self, state: MemoryAgentState) -> ThreadTrim | None:
        """The exchanges to trim once the thread and its outline are over the budget:
        the messages then go down to the budget less the outline's share."""
        if self.thread_token_budget is None:
            return None
        messages = list(state["messages"])
        held = outline_tokens(str(state.get(OUTLINE_KEY) or ""))
        if sum(message_tokens(m) for m in messages) + held <= self.thread_token_budget:
            return None
        return trim_thread(messages, self.thread_token_budget - self._outline_tokens())

    # -- each model call: one leading system message -------------------------------------------
    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        return handler(self._with_memory(request))

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelResponse:
        return await handler(self._with_memory(request))

    def _with_memory(self, request: ModelRequest) -> ModelRequest:
        parts = (request.state.get(OUTLINE_KEY), request.state.get("memory_context"))
        prompt = "\n\n".join(str(p) for p in parts if p)
        if not prompt:
            return request
        return request.override(system_message=merge_system(request.system_message, prompt))

    # -- each tool call: a task step ------------------------------------------------------------
    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        if not self.record_tasks:
            return handler(request)
        task = self._open_step(request)
        try:
            result = handler(request)
        except Exception as exc:
            self._close_step(task, "failed", f"{type(exc).__name__}: {exc}")
            raise
        self._close_step(task, *_outcome(result))
        return result

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        if not self.record_tasks:
            return await handler(request)
        task = await asyncio.to_thread(self._open_step, request)
        try:
            result = await handler(request)
        except Exception as exc:
            await asyncio.to_thread(
                self._close_step, task, "failed", f"{type(exc).__name__}: {exc}"
            )
            raise
        await asyncio.to_thread(self._close_step, task, *_outcome(result))
        return result

    def _open_step(self, request: ToolCallRequest) -> tuple[str, str, int]:
        user_id, session_id, _, agent_id = _run(request.runtime)
        messages = list((request.state or {}).get("messages") or [])
        key = (user_id, session_id, _turn_key(messages))
        call = request.tool_call
        name = str(call.get("name") or "tool")
        args = dict(call.get("args") or {})
        with self._lock:
            task_id = self._tasks.get(key)
            if task_id is None:
                i = last_human_index(messages)
                ask = render_message(messages[i]) if i is not None else ""
                task_id = self.memory.tasks.start(
                    user_id, session_id, ask or f"run {name}", agent_id=agent_id
                )
                if len(self._tasks) >= _MAX_OPEN_TASKS:  # a turn that never finished
                    self._tasks.pop(next(iter(self._tasks)))
                self._tasks[key] = task_id
            text = json.dumps(args, ensure_ascii=False, default=str)
            step = self.memory.tasks.step(
                user_id, task_id, f"{name}({text})", tool_name=name, args=_json_safe(args)
            )
            self.memory.tasks.update_step(user_id, task_id, step, status="in_progress")
        return user_id, task_id, step

    def _close_step(self, task: tuple[str, str, int], status: str, result: str) -> None:
        user_id, task_id, step = task
        with self._lock:
            self.memory.tasks.update_step(user_id, task_id, step, status=status, result=result)

    # -- after the agent: remember, close the task -------------------------------------------------
    def after_agent(self, state: MemoryAgentState, runtime: Any) -> dict[str, Any] | None:
        user_id, session_id, *_ = _run(runtime)
        messages = list(state["messages"])
        if self.remember:
            remember_exchange(self.memory, user_id, session_id, messages)
        self._finish_task(user_id, session_id, messages)
        return None

    async def aafter_agent(self, state: MemoryAgentState, runtime: Any) -> dict[str, Any] | None:
        user_id, session_id, *_ = _run(runtime)
        messages = list(state["messages"])
        if self.remember:
            await aremember_exchange(self.memory, user_id, session_id, messages)
        await asyncio.to_thread(self._finish_task, user_id, session_id, messages)
        return None

    def _finish_task(self, user_id: str, session_id: str, messages: list[BaseMessage]) -> None:
        with self._lock:
            task_id = self._tasks.pop((user_id, session_id, _turn_key(messages)), None)
            if task_id is None:
                return
            task = self.memory.tasks.get(user_id, task_id)
            statuses = [s.status for s in task.steps]
            if all(s == "completed" for s in statuses):
                outcome = "success"
            elif statuses and statuses[-1] == "completed":
                outcome = "partial"
            else:
                outcome = "failed"
            last = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
            summary = content_text(last.content).strip() if last is not None else ""
            tools = Counter(s.tool_name for s in task.steps if s.tool_name)
            self.memory.tasks.complete(
                user_id,
                task_id,
                outcome=outcome,
                summary=summary[:2000] or "(no answer)",
                target=tools.most_common(1)[0][0] if tools else "",
            )


class _Run(NamedTuple):
    """Whose memory a run reads and writes."""

    user_id: str
    session_id: str
    scope: str | None
    agent_id: str | None


def _run(runtime: Any) -> _Run:
    """The user, session, preference scope and agent of the current run: from
    ``config["configurable"]``, the user and the agent also from the run's context."""
    try:
        configurable: Mapping[str, Any] = get_config().get("configurable") or {}
    except RuntimeError:  # called outside a graph run
        configurable = {}
    user_id = _given(configurable, runtime, "user_id")
    if user_id in (None, ""):
        raise ValueError(
            'MemoryMiddleware needs a user id: run the agent with config={"configurable": '
            '{"user_id": "alice", "thread_id": "1"}} (or a context with a user_id). '
            "Memory is always scoped to one user."
        )
    thread = configurable.get("thread_id")
    scope = configurable.get("scope")
    agent = _given(configurable, runtime, "agent_id")
    return _Run(
        check_id(user_id, "user_id"),
        DEFAULT_SESSION if thread in (None, "") else str(thread),
        None if scope in (None, "") else check_id(scope, "configurable scope"),
        None if agent in (None, "") else check_id(agent, "agent_id"),
    )


def _given(configurable: Mapping[str, Any], runtime: Any, key: str) -> Any:
    """``configurable[key]``, else the run context's ``key`` (a mapping's item or an
    object's attribute), else ``None``."""
    found = configurable.get(key)
    if found not in (None, ""):
        return found
    context = getattr(runtime, "context", None)
    return context.get(key) if isinstance(context, Mapping) else getattr(context, key, None)


def _turn_key(messages: list[BaseMessage]) -> str:
    """What names the current turn: its human message's id (or position)."""
    i = last_human_index(messages)
    if i is None:
        return ""
    return str(messages[i].id or i)


def _outcome(result: ToolMessage | Command[Any]) -> tuple[str, str]:
    """A step's status and result text from what the tool returned."""
    if isinstance(result, ToolMessage):
        failed = result.status == "error"
        return ("failed" if failed else "completed"), content_text(result.content)[:100_000]
    return "completed", ""


def _json_safe(args: dict[str, Any]) -> dict[str, Any]:
    """Tool arguments as plain JSON (what a task step stores)."""
    loaded = json.loads(json.dumps(args, ensure_ascii=False, default=str))
    return loaded if isinstance(loaded, dict) else {}
