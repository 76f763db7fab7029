"""ASGI middleware: request ids and access logs, the security headers of every answer, the request
body size limit (413), JSON bodies in UTF-8 only (400 / 415), and HEAD answered as GET."""

import logging
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics
from app.http.security_headers import SECURITY_HEADERS
from app.logging import request_id
from app.problems import BadRequest, FieldError, PayloadTooLarge, Problem, UnsupportedMediaType, problem_response
from app.warm_up import WARM_UP

log = logging.getLogger("app.access")


class RequestContextMiddleware:
    """Gives each request an id (the caller's X-Request-ID, else a new one), echoes it in the
    response and logs one access line. It runs on every request, so it copies nothing it can read
    in place and builds the log line only when the level lets it through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or WARM_UP in scope.get("extensions", ()):
            await self.app(scope, receive, send)  # (a process's own warm-up reads: no client's request)
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
            seconds = time.perf_counter() - started
            metrics.observe_request(scope["method"], route_template(scope), status, seconds)
            if log.isEnabledFor(logging.INFO):
                # Never the headers: they carry the API key.
                log.info(
                    "request",
                    extra={
                        "method": scope["method"],
                        "path": scope["path"],
                        "status": status,
                        "duration_ms": round(seconds * 1000, 2),
                    },
                )
            request_id.reset(token)


def route_template(scope: Scope) -> str:
    """The path template of the route that answered (``/v1/players/{player_id}``), as the router left
    it in the scope, or the one a middleware answering before routing names (``metrics_route``)."""
    route = scope.get("route")
    template = getattr(route, "path", None) or scope.get("metrics_route")
    return template if isinstance(template, str) else metrics.UNMATCHED


def _incoming_request_id(scope: Scope) -> str:
    headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
    for name, value in headers:
        if name == b"x-request-id":
            return value.decode("latin-1")[:100]
    return ""


class SecurityHeadersMiddleware:
    """Adds the security headers (app/http/security_headers.py) to every answer that lacks them,
    whoever made it: a route, the router's 404 and 405, or a middleware inside this one answering
    before routing (the body's 413, 415 and 400, a conditional read's 304, a CORS preflight). An
    answer with a Content-Security-Policy of its own (a page of the website or of the documentation)
    keeps it. (The 500 of an unexpected error is made outside every middleware: app/problems.py
    gives it the headers itself.)"""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", ())
                named = {name.lower() for name, _ in headers}
                message["headers"] = [*headers, *(header for header in SECURITY_HEADERS if header[0] not in named)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HeadAsGetMiddleware:
    """HEAD on every resource that answers GET (RFC 9110 9.3.2): the GET's answer, its status and
    headers (Content-Length, ETag, Cache-Control included), without its body. The routes declare GET
    only, so that the contract names one operation a path and method; a HEAD without this was a 405."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)


class BodySizeLimitMiddleware:
    """413 for a body over the limit: at once when Content-Length declares it, and for a chunked
    body (no Content-Length) once the bytes received pass the limit. A chunked body is read here,
    up to the limit, before the application sees it: raising from inside the application's body
    reader would be turned into a 400 by FastAPI's body parsing.

    A JSON body (``application/json``, a ``+json`` type, or no Content-Type, which FastAPI reads as
    JSON) is read here too and must be UTF-8, as RFC 8259 (8.1) requires of JSON exchanged between
    systems: another declared charset is a 415, bytes that are not UTF-8 a 400 saying where, never a
    guess (Python's json would read UTF-16 and UTF-32 by their byte patterns)."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        path_limits: dict[str, int] | None = None,
        suffix_limits: dict[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        # Smaller limits under some path prefixes (the anonymous /v1/calc endpoints) and for paths
        # ending in some suffixes (the anonymous /v1/rating-lists/{list_id}/what-if).
        self.path_limits = path_limits or {}
        self.suffix_limits = suffix_limits or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        too_large = PayloadTooLarge(f"The request body is larger than the limit of {limit} bytes for {scope['path']}.")
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        json_body = scope["method"] in BODY_METHODS and is_json_type(headers.get(b"content-type"))
        if declared is not None:
            if declared.isdigit() and int(declared) > limit:
                await problem_response(too_large)(scope, receive, send)
                return
            if scope["method"] in BODY_METHODS and declared not in (b"", b"0") and scope["path"].startswith("/v1/"):
                problem = not_declared_json(headers.get(b"content-type"))
                if problem is not None:
                    await problem_response(problem)(scope, receive, send)
                    return
            if not json_body:
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
        if json_body:
            problem = not_utf8_json(headers.get(b"content-type"), b"".join(m.get("body", b"") for m in messages))
            if problem is not None:
                await problem_response(problem)(scope, receive, send)
                return
        buffered = iter(messages)

        async def replay() -> Message:
            return next(buffered, None) or await receive()

        await self.app(scope, replay, send)

    def _limit(self, path: str) -> int:
        for prefix, limit in self.path_limits.items():
            if path.startswith(prefix):
                return min(limit, self.max_bytes)
        for suffix, limit in self.suffix_limits.items():
            if path.endswith(suffix):
                return min(limit, self.max_bytes)
        return self.max_bytes


BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def not_declared_json(content_type: bytes | None) -> Problem | None:
    """The problem with a body the API would not read as JSON, or None: every API body is JSON, so a
    body without a Content-Type is a 400 and one of another media type a 415, before a validation
    error about its fields could mislead."""
    if not content_type:
        return BadRequest(
            "The request has a body but no Content-Type: send it as JSON with Content-Type: application/json.",
            [FieldError("header:content-type", "missing; expected application/json")],
        )
    if not is_json_type(content_type):
        media_type = content_type.split(b";", 1)[0].strip().decode("latin-1")
        return UnsupportedMediaType(
            f"The API reads JSON bodies only, not {media_type!r}: send Content-Type: application/json.",
            [FieldError("header:content-type", f"{media_type!r} is not application/json")],
        )
    return None


def is_json_type(content_type: bytes | None) -> bool:
    """Whether FastAPI reads a body of this Content-Type as JSON (none given counts)."""
    if not content_type:
        return True
    media_type = content_type.split(b";", 1)[0].strip().lower()
    return media_type == b"application/json" or (media_type.startswith(b"application/") and media_type.endswith(b"+json"))


def not_utf8_json(content_type: bytes | None, body: bytes) -> Problem | None:
    """The problem with a JSON body that is not UTF-8, or None. A UTF-8 byte order mark is allowed
    (RFC 8259 lets a parser ignore it); a NUL byte is not: JSON text never holds one raw, and UTF-16
    or UTF-32 text of ASCII characters is exactly UTF-8 bytes with NULs between them."""
    for parameter in (content_type or b"").split(b";")[1:]:
        name, _, value = parameter.partition(b"=")
        charset = value.strip().strip(b'"').decode("latin-1").lower()
        if name.strip().lower() == b"charset" and charset not in ("utf-8", "utf8"):
            return UnsupportedMediaType(
                f"JSON is exchanged in UTF-8 (RFC 8259, 8.1), not {charset!r}: send the body in UTF-8.",
                [FieldError("header:content-type", f"charset must be utf-8, not {charset!r}")],
            )
    try:
        text = body.decode("utf-8")
        position = text.find("\x00")
        if position >= 0:
            raise UnicodeDecodeError("utf-8", body, len(text[:position].encode()), len(text[:position].encode()) + 1, "NUL")
    except UnicodeDecodeError as error:
        return BadRequest(
            f"The body is not UTF-8 JSON (byte {error.start}): JSON is exchanged in UTF-8 (RFC 8259, 8.1); "
            "UTF-16 and other encodings are refused, never guessed.",
            [FieldError("/", f"not UTF-8 at byte {error.start}")],
        )
    return None
