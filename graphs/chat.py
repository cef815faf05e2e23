"""A chat assistant with memory: recall → model → remember.

What a user tells it in one thread it recalls in another; another user never sees it.
Run ``python graphs/chat.py`` for a short bilingual transcript (offline, scripted model),
or serve it with ``langgraph dev`` (``langgraph.json`` names it ``chat``). Every run
needs ``config={"configurable": {"user_id": ..., "thread_id": ...}}``.

Environment: ``LANGGRAPH_MEMORY_CHAT_MODEL`` (e.g. ``openai:gpt-4o-mini``; default: a
scripted offline model), ``LANGGRAPH_MEMORY_PATH`` (default: in-memory) and
``LANGGRAPH_MEMORY_EMBEDDINGS`` — see ``graphs/_graph_support.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Checkpointer

from langgraph_memory import MemoryManager
from langgraph_memory.integrations.graph import MemoryMessagesState, recall_node, remember_node

sys.path.insert(0, str(Path(__file__).resolve().parent))  # langgraph dev loads files by path
from _graph_support import (  # noqa: E402
    chat_model_from_env,
    for_agent,
    memory_from_env,
    prompt_with,
    say,
    shared_memory,
)

#: The agent this graph recalls for (unless ``config["configurable"]["agent_id"]`` names
#: another): other agents' traits, episodes and lessons stay out of its context.
AGENT_ID = "chat"

INSTRUCTIONS = (
    "You are a warm, concise assistant. Use the memories below when they help; never "
    "invent memories. Answer in the user's language."
)

#: The replies of the offline model in ``main()`` (after them it answers by rule).
SCRIPT = [
    "Nice to meet you, Alice! I'll keep your peanut allergy in mind.",
    "太好了！成都的美食很有名，祝你旅途愉快。",
    "Since you're allergic to peanuts, pack dried mango or rice crackers instead.",
    "你下个月要去成都旅行。",
]

#: (user, thread, message) of the transcript ``main()`` prints.
TRANSCRIPT = [
    ("alice", "monday", "Hi! I'm Alice and I'm allergic to peanuts."),
    ("alice", "monday", "我下个月要去成都旅行。"),
    ("alice", "friday", "Any snack ideas for my trip? Remember what I'm allergic to."),
    ("alice", "friday", "我下个月要去哪里旅行？"),
    ("bob", "friday", "What am I allergic to?"),
]


def build_graph(
    memory: MemoryManager,
    model: BaseChatModel,
    *,
    token_budget: int = 600,
    checkpointer: Checkpointer = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile ``START → recall → assistant → remember → END``.

    Args:
        memory: The memory to recall from and write to.
        model: Any LangChain chat model.
        token_budget: Most tokens the recalled memories take per turn.
        checkpointer: Keeps each thread's messages between runs (optional).

    Returns:
        The compiled graph.
    """

    def assistant(state: MemoryMessagesState) -> dict[str, Any]:
        prompt = prompt_with(INSTRUCTIONS, state.get("memory_context", ""), state["messages"])
        return {"messages": [model.invoke(prompt)]}

    async def aassistant(state: MemoryMessagesState) -> dict[str, Any]:
        prompt = prompt_with(INSTRUCTIONS, state.get("memory_context", ""), state["messages"])
        return {"messages": [await model.ainvoke(prompt)]}

    builder = StateGraph(MemoryMessagesState)
    recall = recall_node(memory, token_budget=token_budget, as_system_message=False)
    builder.add_node(for_agent(recall, AGENT_ID))
    builder.add_node("assistant", RunnableLambda(assistant, afunc=aassistant))
    builder.add_node(remember_node(memory))
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "assistant")
    builder.add_edge("assistant", "remember")
    builder.add_edge("remember", END)
    return builder.compile(checkpointer=checkpointer, name="chat")


def run_transcript(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    memory: MemoryManager,
    turns: list[tuple[str, str, str]] = TRANSCRIPT,
) -> list[dict[str, Any]]:
    """Run the turns in order, printing each exchange; returns the final states."""
    states = []
    for user, thread, text in turns:
        config: RunnableConfig = {"configurable": {"user_id": user, "thread_id": thread}}
        memory.flush()  # let earlier turns be indexed by meaning too
        state = graph.invoke({"messages": [("user", text)]}, config)
        say(f"{user}/{thread} user", text)
        recalled = [ln[2:] for ln in state["memory_context"].splitlines() if ln.startswith("- ")]
        say("recalled", f"{len(recalled)} memories" if recalled else "(nothing)")
        for line in recalled:
            say("", line if len(line) <= 70 else line[:69] + "…")
        say("assistant", str(state["messages"][-1].content))
        states.append(state)
    return states


def main() -> None:
    """Print a short transcript: a fact told on Monday is recalled on Friday, for Alice only."""
    with memory_from_env() as memory:
        graph = build_graph(memory, chat_model_from_env(SCRIPT), checkpointer=InMemorySaver())
        run_transcript(graph, memory)
        print(f"\nalice's memory: {memory.stats('alice')['messages']} messages")


#: The graph ``langgraph.json`` serves (the platform supplies the checkpointer).
graph = build_graph(shared_memory(), chat_model_from_env())

if __name__ == "__main__":
    main()
