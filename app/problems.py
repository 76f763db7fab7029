"""RFC 9457 problem details. Every error the service answers is one of these classes, rendered as
``application/problem+json`` with ``type``, ``title``, ``status``, ``detail`` and, for invalid
input, ``errors: [{"pointer": "/games/3/white", "detail": "..."}]``. A database error that reaches
the request's edge is answered as the problem ``problem_for`` names (409, 422 or 503)."""

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, InterfaceError, OperationalError

from app.http.security_headers import SECURITY_HEADERS
from app.names import DISPLAY_TEXT_PATTERN, not_displayed
from app.transactions import DEADLOCK_DETECTED, LOCK_NOT_AVAILABLE, SERIALIZATION_FAILURE, is_permanent, sqlstate

# FastAPI and Starlette are imported where a response is made, not with the problems: the services
# raise these without serving HTTP, and a command-line import is 7 MB smaller without them (decisions 7.84).
if TYPE_CHECKING:
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

PROBLEM_MEDIA_TYPE = "application/problem+json"
_MODEL_NAME = re.compile(r"^[A-Z][a-z]+[A-Z][A-Za-z0-9]*$")
TYPE_BASE = "https://renju-rating.example/problems/"
RETRY_AFTER_SECONDS = "1"


@dataclass(frozen=True)
class FieldError:
    pointer: str
    detail: str


class Problem(Exception):
    status: int = 500
    type_slug: str = "internal-error"
    title: str = "Internal error"

    def __init__(self, detail: str, errors: list[FieldError] | None = None, headers: dict[str, str] | None = None):
        super().__init__(detail)
        self.detail = detail
        self.errors = errors or []
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": TYPE_BASE + self.type_slug,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }
        if self.errors:
            body["errors"] = [{"pointer": e.pointer, "detail": e.detail} for e in self.errors]
        return body


class InvalidInput(Problem):
    status, type_slug, title = 422, "invalid-input", "Invalid input"


class BadRequest(Problem):
    status, type_slug, title = 400, "bad-request", "Bad request"


class NotFound(Problem):
    status, type_slug, title = 404, "not-found", "Not found"


class Conflict(Problem):
    status, type_slug, title = 409, "conflict", "Conflict"


class PreconditionFailed(Problem):
    """RFC 9110 13.1.1: the request's If-Match names a version that is no longer the latest."""

    status, type_slug, title = 412, "precondition-failed", "Precondition failed"


class PayloadTooLarge(Problem):
    status, type_slug, title = 413, "payload-too-large", "Payload too large"


class UnsupportedMediaType(Problem):
    status, type_slug, title = 415, "unsupported-media-type", "Unsupported media type"


class Unauthorized(Problem):
    status, type_slug, title = 401, "unauthorized", "Authentication required"


class InvalidKey(Unauthorized):
    """A key that is not one of the service's, or was revoked (RFC 6750 3.1 ``invalid_token``: a
    401, which tells a client to get another key, where a 403 would say the key lacks a right)."""

    type_slug, title = "invalid-key", "The API key is not valid"


class Forbidden(Problem):
    status, type_slug, title = 403, "forbidden", "Forbidden"


class RoleForbidden(Forbidden):
    """A valid key whose role or scope does not allow the operation (the detail says what would);
    RFC 6750 3.1 ``insufficient_scope``."""

    type_slug, title = "role-required", "The key's role does not allow this"


class IdempotencyKeyReused(Problem):
    status, type_slug, title = 422, "idempotency-key-reused", "Idempotency key reused with another body"


class ServiceUnavailable(Problem):
    status, type_slug, title = 503, "unavailable", "Service unavailable"


def problem_response(problem: Problem) -> "JSONResponse":
    from fastapi.responses import JSONResponse

    return JSONResponse(problem.body(), status_code=problem.status, media_type=PROBLEM_MEDIA_TYPE, headers=problem.headers)


def problem_for(error: DBAPIError) -> Problem:
    """The problem response a database error that reached the request's edge stands for."""
    state = sqlstate(error)
    if isinstance(error, IntegrityError):
        if state == "23505" or "UNIQUE constraint failed" in str(error.orig):
            return Conflict("The request conflicts with data another request stored at the same time; retry it.")
        return InvalidInput("The request refers to data that does not exist or violates a constraint.")
    if state == LOCK_NOT_AVAILABLE:
        return Conflict(
            "Another request with the same Idempotency-Key (or on the same data) is still in progress; retry shortly.",
            headers={"Retry-After": RETRY_AFTER_SECONDS},
        )
    if isinstance(error, DataError):
        return InvalidInput("A value in the request cannot be stored (out of range or not representable).")
    if is_permanent(error):
        # The statement can never succeed, however often it is retried: not "busy", a fault to log.
        return Problem("An unexpected database error occurred; it has been logged.")
    if isinstance(error, (OperationalError, InterfaceError)) or state in (SERIALIZATION_FAILURE, DEADLOCK_DETECTED):
        return ServiceUnavailable(
            "The database is unavailable or busy; retry shortly.", headers={"Retry-After": RETRY_AFTER_SECONDS}
        )
    return Problem("An unexpected database error occurred; it has been logged.")


def json_pointer(location: tuple[str | int, ...] | list[str | int]) -> str:
    """A pydantic error location as an RFC 6901 pointer into the request body."""
    parts = list(location)
    if parts and parts[0] == "body":
        parts = parts[1:]
    # A body that may be one of several models (``WhrParamsPatch | EloParamsPatch``) gets the tried
    # model's name in the location; it is no part of the document. Field names are snake_case.
    parts = [p for p in parts if not (isinstance(p, str) and _MODEL_NAME.match(p))]
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts) if parts else ""


def pointer_parts(pointer: str) -> list[str | int]:
    """An RFC 6901 pointer into the body as a pydantic location's parts (``/games/0/black`` ->
    ``games, 0, black``), the inverse of ``json_pointer``."""
    parts = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
    return [int(part) if part.isdigit() else part for part in parts]


def validation_message(error: Mapping[str, Any]) -> str:
    """What a pydantic error says of its field: its own message, except for shown text holding a
    character it cannot hold (the DisplayText pattern, docs/decisions.md 105), where pydantic would
    only quote the pattern and the character is often invisible: that one is named."""
    if error.get("type") == "string_pattern_mismatch" and (error.get("ctx") or {}).get("pattern") == DISPLAY_TEXT_PATTERN:
        return (
            f"holds {not_displayed(str(error.get('input', '')))}: names, titles, labels and reasons are one line of "
            "text, without control characters (TAB, CR and LF among them) or bidirectional formatting characters"
        )
    return str(error.get("msg", "invalid"))


def install(app: "FastAPI") -> None:
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(Problem)
    async def _problem(_: "Request", problem: Problem) -> "JSONResponse":
        return problem_response(problem)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: "Request", error: RequestValidationError) -> "JSONResponse":
        malformed = next((item for item in error.errors() if item.get("type") == "json_invalid"), None)
        if malformed is not None:
            # Not JSON at all: a 400 in words (RFC 9110 15.5.1), not a field pointer made of a character offset.
            location = list(malformed.get("loc", ()))
            offset = location[-1] if len(location) > 1 and isinstance(location[-1], int) else None
            reason = (malformed.get("ctx") or {}).get("error", "JSON decode error")
            where = f" at character {offset} of the body" if offset is not None else ""
            return problem_response(
                BadRequest(f"The body is not valid JSON: {reason}{where}.", [FieldError("/", f"not JSON: {reason}{where}")])
            )
        errors = []
        for item in error.errors():
            location = list(item.get("loc", ()))
            where = location[0] if location else "body"
            pointer = json_pointer(location) if where == "body" else f"{where}:{'.'.join(map(str, location[1:]))}"
            errors.append(FieldError(pointer or "/", validation_message(item)))
        detail = "; ".join(f"{e.pointer}: {e.detail}" for e in errors[:5])
        return problem_response(InvalidInput(f"The request is not valid: {detail}", errors))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: "Request", error: StarletteHTTPException) -> "JSONResponse":
        problem = Problem(str(error.detail))
        problem.status = error.status_code
        problem.type_slug = {404: "not-found", 405: "method-not-allowed"}.get(error.status_code, "http-error")
        problem.title = {404: "Not found", 405: "Method not allowed"}.get(error.status_code, "HTTP error")
        problem.headers = dict(error.headers or {})
        if error.status_code == 405:
            # RFC 9110 15.5.6: every method the path has (Starlette names only its first route's).
            problem.headers["Allow"] = ", ".join(_allowed_methods(request))
        return problem_response(problem)

    @app.exception_handler(DBAPIError)
    async def _database(_: "Request", error: DBAPIError) -> "JSONResponse":
        problem = problem_for(error)
        if problem.status >= 500:
            logging.getLogger("app.database").warning("database error answered %s: %s", problem.status, error.orig)
        return problem_response(problem)

    @app.exception_handler(Exception)
    async def _unexpected(_: "Request", error: Exception) -> "JSONResponse":
        logging.getLogger("app.errors").exception("unexpected error", exc_info=error)
        response = problem_response(Problem("An unexpected error occurred; it has been logged."))
        # Sent by Starlette's outermost error middleware, past the one that adds these to every other answer.
        response.raw_headers += SECURITY_HEADERS
        return response


def _allowed_methods(request: "Request") -> list[str]:
    from starlette.routing import Match

    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed
