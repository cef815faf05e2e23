"""Optional LLM steps: structured output from any LangChain chat model, never required.

Every caller has a rule-based fallback; :func:`structured_call` returns ``None``
when the model cannot answer in the schema (no tool calling, malformed JSON,
an exception), and the caller falls back.

Example:
    >>> from pydantic import BaseModel
    >>> from langchain_core.language_models.fake_chat_models import FakeListChatModel
    >>> class Topic(BaseModel):
    ...     topic: str
    >>> structured_call(FakeListChatModel(responses=['{"topic": "nginx"}']), Topic, "?")
    Topic(topic='nginx')
    >>> structured_call(FakeListChatModel(responses=["no idea"]), Topic, "?") is None
    True
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["structured_call"]

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)


def structured_call(llm: BaseChatModel, schema: type[M], prompt: str) -> M | None:
    """Ask ``llm`` for an answer shaped like ``schema``.

    Tries the model's native structured output first, then JSON in plain text.

    Returns:
        The parsed answer, or ``None`` when the model gives nothing usable.
    """
    try:
        out: Any = llm.with_structured_output(schema).invoke(prompt)
        if isinstance(out, schema):
            return out
        if isinstance(out, dict):
            return schema.model_validate(out)
    except NotImplementedError:
        pass  # no tool calling: ask for JSON instead
    except (ValidationError, ValueError, TypeError) as exc:
        log.info("structured output was malformed (%s); trying JSON", exc)
    except Exception as exc:  # a provider error must not break the memory system
        log.warning("LLM structured output failed: %s", exc)
        return None
    try:
        fields = ", ".join(schema.model_fields)
        msg = llm.invoke(f"{prompt}\n\nAnswer with one JSON object with the keys: {fields}.")
    except Exception as exc:
        log.warning("LLM call failed: %s", exc)
        return None
    text = msg.content if isinstance(msg.content, str) else json.dumps(msg.content)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        return schema.model_validate_json(text[start : end + 1])
    except (ValidationError, ValueError):
        return None
