"""ASGI middleware: request ids and access logs, and the request body size limit (413)."""

import logging
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.logging import request_id
from app.problems import PayloadTooLarge, problem_response

log = logging.getLogger("app.access")


class RequestContextMiddleware:
    """Gives each request an id (the caller's X-Request-ID, else a new one), echoes it in the
    response and logs one access line. It runs on every request, so it copies nothing it can read
    in place and builds the log line only when the level lets it through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        current = _incoming_request_id(scope) or uuid.uuid4().hex
        header = (b"x-request-id", current.encode("latin-1"))
        token = request_id.set(current)
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if log.isEnabledFor(logging.INFO):
                # Never the headers: they carry the API key.
                log.info(
                    "request",
                    extra={
                        "method": scope["method"],
                        "path": scope["path"],
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    },
                )
            request_id.reset(token)


def _incoming_request_id(scope: Scope) -> str:
    headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
    for name, value in headers:
        if name == b"x-request-id":
            return value.decode("latin-1")[:100]
    return ""


class BodySizeLimitMiddleware:
    """413 for a body over the limit: at once when Content-Length declares it, and for a chunked
    body (no Content-Length) once the bytes received pass the limit. A chunked body is read here,
    up to the limit, before the application sees it: raising from inside the application's body
    reader would be turned into a 400 by FastAPI's body parsing."""

    def __init__(self, app: ASGIApp, max_bytes: int, path_limits: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        # Smaller limits under some path prefixes (the anonymous /v1/calc endpoints).
        self.path_limits = path_limits or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        too_large = PayloadTooLarge(f"The request body is larger than the limit of {limit} bytes for {scope['path']}.")
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            if declared.isdigit() and int(declared) > limit:
                await problem_response(too_large)(scope, receive, send)
                return
            # The server (h11, httptools) never delivers more than the declared length.
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            received += len(message.get("body", b""))
            if received > limit:
                await problem_response(too_large)(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        buffered = iter(messages)

        async def replay() -> Message:
            return next(buffered, None) or await receive()

        await self.app(scope, replay, send)

    def _limit(self, path: str) -> int:
        for prefix, limit in self.path_limits.items():
            if path.startswith(prefix):
                return min(limit, self.max_bytes)
        return self.max_bytes
