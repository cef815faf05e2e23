"""The memory as MCP tools: ``langgraph-memory mcp`` (the ``mcp`` SDK, stdio).

Example:
    >>> from langgraph_memory.integrations.mcp import create_mcp_server  # doctest: +SKIP
"""

from __future__ import annotations

from langgraph_memory.integrations.mcp.server import create_mcp_server

__all__ = ["create_mcp_server"]
