"""The request-body limit, enforced before a route (or the JSON parser) sees the body.

A declared ``Content-Length`` over the limit is answered 413 at once; a body sent without
one is counted as it arrives and refused the moment it passes the limit (the body, at most
the limit, is read before the application runs).

Example:
    >>> BodyLimit(app=None, max_bytes=1024).max_bytes  # doctest: +SKIP
    1024
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from langgraph_memory.integrations.server.problems import PROBLEM_JSON

__all__ = ["BodyLimit"]


class BodyLimit:
    """ASGI middleware refusing bodies over ``max_bytes`` with a 413 problem.

    Args:
        app: The application it wraps.
        max_bytes: The largest body accepted.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def _refuse(self, scope: Scope, send: Send) -> None:
        body: dict[str, Any] = {
            "type": "/problems/body-too-large",
            "title": "Content too large",
            "status": 413,
            "detail": f"the request body is larger than {self.max_bytes} bytes",
            "instance": scope.get("path", ""),
            "field": "body",
        }
        raw = json.dumps(body).encode()
        headers = [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", b"%d" % len(raw))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": raw})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.max_bytes + 1
                if declared > self.max_bytes:
                    await self._refuse(scope, send)
                    return
        # read the whole body first (it is at most max_bytes), then hand it on
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await self._refuse(scope, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
