"""The memory as MCP tools: ``langgraph-memory mcp`` (the ``mcp`` SDK: stdio, or streamable HTTP).

Example:
    >>> from langgraph_memory.integrations.mcp import create_mcp_server  # doctest: +SKIP
"""

from __future__ import annotations

from langgraph_memory.integrations.mcp.server import (
    MCP_PATH,
    create_mcp_http_app,
    create_mcp_server,
)

__all__ = ["create_mcp_server", "create_mcp_http_app", "MCP_PATH"]
