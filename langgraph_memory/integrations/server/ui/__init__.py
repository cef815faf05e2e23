"""The memory inspector: pages served by ``langgraph-memory serve`` under ``/ui``.

See, explain and correct what the memory holds, in a browser: a user's overview and
latest messages, sessions, segments and their heat, tasks and knowledge, documents,
"why would the model see this?" (``build_context(..., explain=True)`` item by item) and
corrections (delete a message, confirm or correct a preference) with an audit list.
Server-rendered (Jinja2), no build step, no CDN: the package's own small script and
style sheet. Behind the service's keys: the ``Authorization: Bearer KEY`` header, or the
login form's session cookie.

Example:
    >>> from langgraph_memory.integrations.server import create_app
    >>> app = create_app("./.langgraph_memory")  # doctest: +SKIP
    >>> # open http://127.0.0.1:8420/ui/ and paste a key
"""

from langgraph_memory.integrations.server.ui.app import create_ui

__all__ = ["create_ui"]
