"""Two graphs in two processes sharing one memory service.

Process A runs an *intake* graph (``recall → assistant → remember`` over
:class:`~langgraph_memory.RemoteMemory`): the user tells it something. Process B — another
Python process, maybe on another machine — runs a different graph, a *concierge* agent
(``create_agent`` with :class:`~langgraph_memory.MemoryMiddleware` over its own
``RemoteMemory``), and recalls what A was told. Neither process opens a store: both speak
to ``langgraph-memory serve``, and see what their API key's tenant sees (another
tenant's key, nothing). The chat models are LangChain's fake ones (no LLM needed).

Run against a service you started::

    langgraph-memory keys create --tenant acme          # prints KEY on its last line
    langgraph-memory serve --port 8420 &
    export LANGGRAPH_MEMORY_API_KEY=KEY
    python graphs/shared_service.py tell --user alice "I'm allergic to peanuts."  # A
    python graphs/shared_service.py ask --user alice "What am I allergic to?"     # B

or let ``python graphs/shared_service.py demo`` do all of it (a service on a free
loopback port over a temporary directory, then A and B as two processes). Each command
prints one JSON line: the graph's ``memory_context`` (what it recalled) and its reply.
``--url`` (default ``$LANGGRAPH_MEMORY_URL`` or ``http://127.0.0.1:8420``) and
``--api-key`` (default ``$LANGGRAPH_MEMORY_API_KEY``) name the service.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from langgraph_memory import MemoryMiddleware, RemoteMemory
from langgraph_memory.integrations.graph import MemoryMessagesState, recall_node, remember_node

#: The environment variable naming the service's URL.
URL_ENV = "LANGGRAPH_MEMORY_URL"
DEFAULT_URL = "http://127.0.0.1:8420"


def intake_graph(
    memory: RemoteMemory, model: BaseChatModel
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Process A's graph: ``START → recall → assistant → remember → END``."""

    def assistant(state: MemoryMessagesState) -> dict[str, Any]:
        known = state.get("memory_context", "")
        prompt = [SystemMessage(f"Take note of what the user tells you.\n{known}".strip())]
        return {"messages": [model.invoke(prompt + list(state["messages"]))]}

    builder = StateGraph(MemoryMessagesState)
    builder.add_node(recall_node(memory, token_budget=400, as_system_message=False))
    builder.add_node("assistant", assistant)
    builder.add_node(remember_node(memory))
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "assistant")
    builder.add_edge("assistant", "remember")
    builder.add_edge("remember", END)
    return builder.compile(name="intake")


def concierge_agent(memory: RemoteMemory, model: BaseChatModel) -> Any:
    """Process B's graph: a ``create_agent`` agent whose memory is ``MemoryMiddleware``."""
    from langchain.agents import create_agent

    return create_agent(
        model,
        tools=[],
        system_prompt="You are a concierge. Use what you remember about the user.",
        middleware=[MemoryMiddleware(memory, token_budget=400, record_tasks=False)],
        name="concierge",
    )


def tell(memory: RemoteMemory, user: str, text: str, thread: str = "intake") -> dict[str, Any]:
    """Process A: one turn of the intake graph; the service has indexed it on return."""
    model = FakeListChatModel(responses=["Noted — I'll remember that."])
    config: RunnableConfig = {"configurable": {"user_id": user, "thread_id": thread}}
    state = intake_graph(memory, model).invoke({"messages": [("user", text)]}, config)
    memory.flush(timeout=60)  # searchable (also by meaning) for every other process now
    return {
        "memory_context": state.get("memory_context", ""),
        "reply": state["messages"][-1].content,
    }


def ask(memory: RemoteMemory, user: str, text: str, thread: str = "concierge") -> dict[str, Any]:
    """Process B: one turn of the concierge agent, in a thread of its own."""
    model = FakeListChatModel(responses=["Let me take what I know about you into account."])
    config: RunnableConfig = {"configurable": {"user_id": user, "thread_id": thread}}
    state = concierge_agent(memory, model).invoke({"messages": [("user", text)]}, config)
    return {
        "memory_context": state.get("memory_context", ""),
        "reply": state["messages"][-1].content,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def demo() -> int:
    """Start a service over a temporary directory, then run A and B as two processes."""
    import httpx

    from langgraph_memory.integrations.server import KeyFile

    here = Path(__file__).resolve()
    cli = [sys.executable, "-m", "langgraph_memory.integrations.cli.commands"]
    with tempfile.TemporaryDirectory(prefix="lgm-shared-") as tmp:
        key = KeyFile(tmp).create("acme")
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        service = subprocess.Popen(
            [
                *cli,
                "serve",
                "--path",
                tmp,
                "--port",
                str(port),
                "--hashing",
                "--log-level",
                "warning",
            ]
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{url}/v1/health", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if service.poll() is not None or time.monotonic() > deadline:
                    print("the service did not start", file=sys.stderr)
                    return 1
                time.sleep(0.1)
            env = {**os.environ, URL_ENV: url, "LANGGRAPH_MEMORY_API_KEY": key}
            for step, text in (
                ("tell", "I'm allergic to peanuts, and I live in Lyon."),
                ("ask", "Can you suggest a snack near home?"),
            ):
                print(f"$ python {here.name} {step} --user alice {json.dumps(text)}")
                run = [sys.executable, str(here), step, "--user", "alice", text]
                subprocess.run(run, env=env, check=True, timeout=120)
        finally:
            service.terminate()
            service.wait(30)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``tell``, ``ask`` or ``demo`` (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("step", choices=["tell", "ask", "demo"])
    parser.add_argument("text", nargs="?", default="")
    parser.add_argument("--user", default="alice")
    parser.add_argument("--thread", default=None)
    parser.add_argument("--url", default=os.environ.get(URL_ENV) or DEFAULT_URL)
    parser.add_argument("--api-key", default=None, help="default $LANGGRAPH_MEMORY_API_KEY")
    args = parser.parse_intermixed_args(argv)
    if args.step == "demo":
        return demo()
    if not args.text:
        parser.error(f"{args.step} needs the user's message")
    step = tell if args.step == "tell" else ask
    with RemoteMemory(args.url, api_key=args.api_key) as memory:
        kwargs = {"thread": args.thread} if args.thread else {}
        out = step(memory, args.user, args.text, **kwargs)
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
