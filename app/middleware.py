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
    for name, value in scope.get("headers") or ():
        if name == b"x-request-id":
            return value.decode("latin-1")[:100]
    return ""


class BodySizeLimitMiddleware:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = PayloadTooLarge(f"The request body is larger than the limit of {self.max_bytes} bytes.")
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await problem_response(too_large)(scope, receive, send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise too_large
            return message

        await self.app(scope, counting_receive, send)
