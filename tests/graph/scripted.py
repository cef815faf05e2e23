"""The scripted chat model the graph tests drive agents with: it replies from its script,
records every prompt it is given, and binds tools to itself."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import Field


class Scripted(GenericFakeChatModel):
    """Replies from a script, records every prompt; tools bind to itself. (An async call
    runs ``_generate`` on a thread, so it is recorded there, once.)"""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Scripted:  # type: ignore[override]
        return self


def scripted(*replies: AIMessage | str) -> Scripted:
    """A model that gives ``replies`` in order (a str is an ``AIMessage`` of it)."""
    return Scripted(
        messages=iter([r if isinstance(r, AIMessage) else AIMessage(r) for r in replies])
    )
