"""An ops agent whose tool runs become tasks → episodes → knowledge.

The first tool call of a request opens a task in working memory (for the agent
``ops``, or the ``agent_id`` the run's config names); every tool call the model makes
is a step (``add_step``, then ``update_step`` with its result or failure); when the
model answers, the task becomes an episode (``complete_task``), and the maintenance
node consolidates episodes that share a target into knowledge, which the next
request's prompt shows as a runbook. A request the model answers without running a
tool leaves no task, so no episode and no lesson: a reply is not work done. The
episodes, lessons and knowledge belong to the agent: another agent's context (the chat
graph's, say) never shows them. The tools act on a small simulated infrastructure.

Run ``python graphs/ops_agent.py`` (offline, scripted model) or serve it with
``langgraph dev`` (``langgraph.json`` names it ``ops``). Environment as for
``graphs/chat.py``.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from langgraph_memory import MemoryManager
from langgraph_memory.integrations.graph import (
    MemoryMessagesState,
    memory_maintenance_node,
    recall_node,
    remember_node,
)
from langgraph_memory.integrations.graph.messages import content_text, last_human_index

sys.path.insert(0, str(Path(__file__).resolve().parent))  # langgraph dev loads files by path
from _graph_support import (  # noqa: E402
    chat_model_from_env,
    for_agent,
    memory_from_env,
    prompt_with,
    say,
    shared_memory,
)

INSTRUCTIONS = (
    "You are an on-call ops agent. Use the tools to diagnose and fix what the user reports, "
    "then say in one sentence what you did. Follow the runbooks below when they apply."
)
MAX_STEPS = 8
#: The agent whose tasks this graph runs (unless the run's config names another).
AGENT_ID = "ops"


class OpsState(MemoryMessagesState, total=False):
    """The chat state plus the task this run works on."""

    task_id: str
    task_user: str
    task_agent: str
    task_request: str
    episode_id: str


class Infrastructure:
    """A tiny simulated fleet: services that are ``up`` or ``down`` (with a reason)."""

    def __init__(self) -> None:
        self.status: dict[str, str] = {"nginx": "up", "postgres": "up", "redis": "up"}
        self.reason: dict[str, str] = {}

    def break_service(self, service: str, reason: str) -> None:
        self.status[service], self.reason[service] = "down", reason

    def tools(self) -> list[BaseTool]:
        """``check_service``, ``read_logs`` and ``restart_service`` over this fleet."""

        def known(service: str) -> str:
            if service not in self.status:
                raise ValueError(f"unknown service {service!r}; known: {sorted(self.status)}")
            return service

        def check_service(service: str) -> str:
            """Report whether a service is up or down."""
            return f"{known(service)} is {self.status[service]}"

        def read_logs(service: str) -> str:
            """Read the last lines of a service's log."""
            return self.reason.get(known(service), "no errors")

        def restart_service(service: str) -> str:
            """Restart a service."""
            self.status[known(service)] = "up"
            self.reason.pop(service, None)
            return f"{service} restarted; health check passed"

        return [
            StructuredTool.from_function(f) for f in (check_service, read_logs, restart_service)
        ]


def build_graph(
    memory: MemoryManager,
    model: BaseChatModel,
    infra: Infrastructure | None = None,
    *,
    checkpointer: Any = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile recall → open_task → agent ⇄ tools → close_task → maintenance → remember.

    Args:
        memory: The memory tasks, episodes and knowledge go to.
        model: Any chat model that supports tool calling.
        infra: The simulated fleet the tools act on (a new one when omitted).
        checkpointer: Passed to ``compile``.
    """
    tools = {t.name: t for t in (infra or Infrastructure()).tools()}
    bound = model.bind_tools(list(tools.values()))

    def scope(config: RunnableConfig) -> tuple[str, str, str]:
        conf = config.get("configurable") or {}
        agent_id = str(conf.get("agent_id") or AGENT_ID)
        return conf["user_id"], str(conf.get("thread_id") or "default"), agent_id

    def open_task(state: OpsState, config: RunnableConfig) -> dict[str, Any]:
        """Note the request; the task itself opens at the first tool call."""
        user, _, agent_id = scope(config)
        i = last_human_index(state["messages"])
        request = content_text(state["messages"][i].content) if i is not None else "(no request)"
        return {"task_id": "", "task_user": user, "task_agent": agent_id, "task_request": request}

    def agent(state: OpsState, config: RunnableConfig) -> dict[str, Any]:
        user, _, agent_id = scope(config)
        mine = [k for k in memory.tasks.knowledge(user) if k.agent_id in (None, agent_id)]
        runbooks = "\n".join(f"- runbook: {k.text()}" for k in mine[-3:])
        context = "\n".join(x for x in (state.get("memory_context", ""), runbooks) if x)
        return {"messages": [bound.invoke(prompt_with(INSTRUCTIONS, context, state["messages"]))]}

    def run_tools(state: OpsState, config: RunnableConfig) -> dict[str, Any]:
        call_msg, user = state["messages"][-1], state["task_user"]
        assert isinstance(call_msg, AIMessage)
        task_id = state.get("task_id") or memory.tasks.start(
            user, scope(config)[1], state["task_request"], agent_id=state["task_agent"]
        )
        results: list[BaseMessage] = []
        for call in call_msg.tool_calls:
            args = dict(call["args"])
            step = memory.tasks.step(
                user, task_id, f"{call['name']}({args})", tool_name=call["name"], args=args
            )
            memory.tasks.update_step(user, task_id, step, status="in_progress")
            try:
                if call["name"] not in tools:
                    raise ValueError(f"no tool named {call['name']!r}")
                out, status = str(tools[call["name"]].invoke(args)), "completed"
            except Exception as exc:  # the model sees the failure and may try another way
                out, status = f"Error: {exc}", "failed"
            memory.tasks.update_step(user, task_id, step, status=status, result=out)
            results.append(
                ToolMessage(
                    out,
                    tool_call_id=call["id"],
                    name=call["name"],
                    status="success" if status == "completed" else "error",
                )
            )
        return {"messages": results, "task_id": task_id}

    def route(state: OpsState) -> Literal["tools", "close_task"]:
        last = state["messages"][-1]
        task_id = state.get("task_id")
        steps = len(memory.tasks.get(state["task_user"], task_id).steps) if task_id else 0
        if isinstance(last, AIMessage) and last.tool_calls and steps < MAX_STEPS:
            return "tools"
        return "close_task"

    def close_task(state: OpsState) -> dict[str, Any]:
        user = state["task_user"]
        if not state.get("task_id"):  # answered without running a tool: no work, no episode
            return {"episode_id": ""}
        task = memory.tasks.get(user, state["task_id"])
        statuses = [s.status for s in task.steps]
        if all(s == "completed" for s in statuses):
            outcome = "success"
        elif statuses[-1] == "completed":
            outcome = "partial"
        else:
            outcome = "failed"
        targets = Counter(str(s.args["service"]) for s in task.steps if "service" in s.args)
        episode = memory.tasks.complete(
            user,
            task.id,
            outcome=outcome,
            summary=content_text(state["messages"][-1].content) or "(no summary)",
            target=targets.most_common(1)[0][0] if targets else "",
        )
        return {"episode_id": episode.id}

    builder = StateGraph(OpsState)
    builder.add_node(
        for_agent(recall_node(memory, token_budget=500, as_system_message=False), AGENT_ID)
    )
    builder.add_node("open_task", open_task)
    builder.add_node("agent", agent)
    builder.add_node("tools", run_tools)
    builder.add_node("close_task", close_task)
    builder.add_node("maintenance", memory_maintenance_node(memory, forget=False))
    builder.add_node(remember_node(memory))
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "open_task")
    builder.add_edge("open_task", "agent")
    builder.add_conditional_edges("agent", route)
    builder.add_edge("tools", "agent")
    builder.add_edge("close_task", "maintenance")
    builder.add_edge("maintenance", "remember")
    builder.add_edge("remember", END)
    return builder.compile(checkpointer=checkpointer, name="ops")


def incident_script(service: str, n: int) -> list[AIMessage]:
    """The scripted model's replies for one incident: check, read logs, restart, report."""

    def call(name: str, i: int) -> AIMessage:
        return AIMessage(
            content="",
            tool_calls=[{"name": name, "args": {"service": service}, "id": f"{service}-{n}-{i}"}],
        )

    return [
        call("check_service", 0),
        call("read_logs", 1),
        call("restart_service", 2),
        AIMessage(content=f"{service} was down (out of memory); I restarted it and it is healthy."),
    ]


def main() -> None:
    """Three nginx incidents become three episodes, then one piece of knowledge."""
    infra = Infrastructure()
    script = [m for n in range(4) for m in incident_script("nginx", n)]
    with memory_from_env() as memory:
        graph = build_graph(memory, chat_model_from_env(script), infra)
        for n in range(4):
            infra.break_service("nginx", "worker process killed: out of memory (exit 137)")
            config: RunnableConfig = {"configurable": {"user_id": "ops", "thread_id": f"inc-{n}"}}
            request = f"Incident {n + 1}: nginx on web-1 returns 502s"
            state = graph.invoke({"messages": [("user", request)]}, config)
            say("user", request)
            for m in state["messages"]:
                if isinstance(m, AIMessage) and m.tool_calls:
                    say("tool call", ", ".join(f"{c['name']}({c['args']})" for c in m.tool_calls))
            say("agent", str(state["messages"][-1].content))
            episode = next(e for e in memory.tasks.episodes("ops") if e.id == state["episode_id"])
            say(
                "episode", f"{episode.outcome}, target {episode.target}, {len(episode.steps)} steps"
            )
            for kid in state["memory_maintenance"]["knowledge"]:
                knowledge = next(k for k in memory.tasks.knowledge("ops") if k.id == kid)
                say("new knowledge", knowledge.text()[:160])
        stats = memory.stats("ops")["layers"]
        print(f"\nops memory: {stats['episode']} episodes, {stats['knowledge']} knowledge")


#: The graph ``langgraph.json`` serves.
graph = build_graph(shared_memory(), chat_model_from_env())

if __name__ == "__main__":
    main()
