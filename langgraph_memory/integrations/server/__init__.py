"""Memory as a service: ``langgraph-memory serve`` (FastAPI on uvicorn, the ``server`` extra).

:func:`create_app` builds the ASGI application over a manager; :class:`KeyFile` keeps
the API keys (hashed) that bind callers to tenants. The client is
:class:`~langgraph_memory.RemoteMemory`.

Example:
    >>> from langgraph_memory.integrations.server import create_app  # doctest: +SKIP
"""

from __future__ import annotations

from langgraph_memory.integrations.server.app import ServiceSettings, create_app
from langgraph_memory.integrations.server.keys import KeyFile

__all__ = ["create_app", "ServiceSettings", "KeyFile"]
