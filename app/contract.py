"""The published contract and its documentation pages, derived from the routes in one place.

FastAPI's generated document declares only the success response and its own ``HTTPValidationError``
for 422, while the service answers every error as RFC 9457 problem+json (app/problems.py). ``install``
replaces ``app.openapi`` with a version that declares one shared ``Problem`` component and, for every
operation, each error status it can answer, read from the route itself: writes (the Bearer security
requirement) can answer 401 and 403, a path with an id 404, a request body 400, 413 and 415, a stored write 409,
an `If-Match` header 412, anything with input 422, and every operation 500 and 503. New routers are covered without being edited. The
document's description ends with the limits every operation shares (``LIMITS``).

An endpoint's docstring documents its operation: the first line is the summary (a short title that
Swagger UI and ReDoc list), the paragraphs after it the description.

``/docs`` and ``/redoc`` are served from the pinned ``fastapi-offline`` package's copies of Swagger UI
and ReDoc, so the pages work with no network.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.routing import APIRoute, RouteContext, iter_route_contexts
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.routing import compile_path

from app.http.headers import RETRY_AFTER
from app.http.security_headers import documentation_policy
from app.names import DISPLAY_TEXT_PATTERN
from app.problems import PROBLEM_MEDIA_TYPE, TYPE_BASE, problem_response
from app.problems import Problem as ProblemError
from app.schemas.common import DISPLAY_TEXT_RULE, EARLIEST_DATE, ID_PATTERN, ID_RULE, LATEST_DATE, MAX_PAGE_SIZE
from app.settings import Settings


class Problem405(ProblemError):
    status, type_slug, title = 405, "method-not-allowed", "Method not allowed"


DOCS_ASSETS_PATH = "/docs-assets"
DOCS_ASSETS_DIRECTORY = Path(fastapi_offline.__file__).resolve().parent / "static"
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class ProblemFieldError(BaseModel):
    """One invalid input: where it is and what is wrong with it."""

    pointer: str = Field(
        description="RFC 6901 JSON pointer into the request body (`/games/3/white`); a query or header "
        "parameter is named `query:name` or `header:name`",
        examples=["/games/0/white"],
    )
    detail: str = Field(description="What is wrong there, in words", examples=["unknown player 'p9'"])


class Problem(BaseModel):
    """An RFC 9457 problem details object: the body of every error response."""

    type: str = Field(description="A URI naming the kind of problem", examples=[TYPE_BASE + "invalid-input"])
    title: str = Field(description="Short summary of that kind of problem", examples=["Invalid input"])
    status: int = Field(ge=100, le=599, description="The HTTP status code", examples=[422])
    detail: str = Field(
        description="What went wrong in this request",
        examples=["The request is not valid: /games/0/white: unknown player 'p9'"],
    )
    errors: list[ProblemFieldError] | None = Field(
        None, description="For invalid input: every offending field (absent for other problems)"
    )


# Why each status can happen, in the words every operation's contract uses.
ERROR_DESCRIPTIONS = {
    400: "Bad request: the request cannot be read as the operation expects (e.g. a body that is not UTF-8 JSON)",
    401: "No API key, or one that is not valid for this service or was revoked (RFC 6750: `WWW-Authenticate` says "
    '`Bearer`, or `Bearer error="invalid_token"` with why): send `Authorization: Bearer <key>` with a valid key',
    403: "The API key is valid, but its role or limits do not allow this operation (the detail says which role it needs)",
    404: "The resource named in the path does not exist",
    409: "Conflicts with the stored state (e.g. the id exists already)",
    412: "`If-Match` names a version of the resource that is no longer its latest: nothing changed",
    413: "The request body (or the number of games) is larger than the service's limit (see Limits in the description)",
    415: "The body declares a charset other than UTF-8: JSON is exchanged in UTF-8 (RFC 8259, 8.1)",
    422: "Invalid input: `errors[]` points at every offending field",
    500: "Unexpected error; it has been logged",
    503: "The service or its database is unavailable; retry later",
}


def _mib(name: str) -> str:
    return f"{Settings.model_fields[name].default / 1024 / 1024:g} MiB"


# The rules every operation shares, with the defaults of their settings (README: Configuration).
LIMITS = f"""

**Limits**, the same in every operation and on every database:
- Ids of players, tournaments, games and rating lists: {ID_RULE} (pattern `{ID_PATTERN}`), in bodies, paths
  and queries alike; anything else is a 422 pointing at it.
- Request bodies: JSON in UTF-8 (RFC 8259), sent with `Content-Type: application/json`: a body that is not
  JSON, or has no Content-Type, is a 400 that says so in words; another media type or declared charset a
  415; a body in another encoding a 400. At most {_mib("max_body_bytes")} (`MAX_BODY_BYTES`), {_mib("max_calc_body_bytes")} under `/v1/calc/`
  (`MAX_CALC_BODY_BYTES`); beyond, a 413. A tournament has at most
  {Settings.model_fields["max_games_per_tournament"].default:,} games (`MAX_GAMES_PER_TOURNAMENT`, 413 beyond).
  A seed list (`PUT /v1/rating-lists/{{list_id}}/seeds`) is bounded by the body limit alone (some 120,000
  seeds in 10 MiB), stored all or nothing.
- Names, titles, labels and reasons (players' and tournaments' names, cities, clubs, round labels, tie-break
  names, publication titles, review and withdrawal reasons): {DISPLAY_TEXT_RULE} (pattern
  `{DISPLAY_TEXT_PATTERN}`); anything else is a 422 pointing at it.
- Scores (`score` of a calculation, an olufsen seed's recorded results): 0, 0.5 or 1 exactly; `minimum`,
  `maximum` and `multipleOf` say the range and the step, and a float next to one of them (1e-300,
  0.5000000000000001) is a 422 pointing at it.
- Dates: `YYYY-MM-DD` from {EARLIEST_DATE} to {LATEST_DATE}; times: RFC 3339 date-times in UTC.
- Pages: `limit` 1 to {MAX_PAGE_SIZE}.
- A 503 means a transient condition (the database busy or unreachable) and carries `Retry-After`; a request
  that can never succeed is never a 503."""


def install(app: FastAPI) -> None:
    """Publish the problem-aware contract and the offline documentation pages on ``app``."""
    app.openapi = lambda: _contract(app)  # type: ignore[method-assign]  # replacing app.openapi is FastAPI's documented hook
    app.add_exception_handler(405, _method_not_allowed)
    _serve_offline_documentation(app)


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """Every method some route answers on ``path`` (RFC 9110 15.5.6: a 405 carries ``Allow``)."""
    methods: set[str] = set()
    for route in iter_route_contexts(app.routes):
        path_format = route.path_format  # (None only for a route that is not an APIRoute)
        if isinstance(route.original_route, APIRoute) and path_format and compile_path(path_format)[0].fullmatch(path):
            methods |= route.methods or set()
    if "GET" in methods:
        methods.add("HEAD")  # (app.middleware.HeadAsGetMiddleware)
    return sorted(methods)


async def _method_not_allowed(request: Request, _: Exception) -> JSONResponse:
    allow = ", ".join(allowed_methods(request.app, request.url.path))
    problem = Problem405(f"{request.method} is not allowed here; allowed: {allow}.", headers={"Allow": allow})
    return problem_response(problem)


def error_statuses(route: RouteContext, operation: dict[str, Any]) -> list[int]:
    """The error statuses an operation can answer, read from its method, path, body and security."""
    dependant = route.dependant
    methods = route.methods or set()
    statuses = {500, 503}
    needs_key = bool(operation.get("security"))  # the Bearer key of app/security.py
    if needs_key:
        statuses |= {401, 403}
    if dependant.path_params:
        statuses.add(404)
    if dependant.body_params:
        statuses |= {400, 413, 415}
    if needs_key and methods & WRITE_METHODS:  # stored writes; the open calculations store nothing
        statuses.add(409)
    if any(parameter.alias.lower() == "if-match" for parameter in dependant.header_params):
        statuses.add(412)  # RFC 9110 13.1.1
    if dependant.body_params or dependant.query_params or dependant.header_params or dependant.path_params:
        statuses.add(422)
    return sorted(statuses)


def _contract(app: FastAPI) -> dict[str, Any]:
    document = FastAPI.openapi(app)  # cached by FastAPI until the routes change
    if "Problem" in document.get("components", {}).get("schemas", {}):
        return document
    document["info"]["description"] = document["info"].get("description", "") + LIMITS
    # The document is served by the service it describes: its paths are relative to where it was read.
    document["servers"] = [{"url": "/", "description": "The service that serves this document"}]
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    problem_schema = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    # ``errors`` is absent from a problem that is not about input, never null (issue 44 item 1).
    errors_schema = problem_schema["properties"]["errors"]
    problem_schema["properties"]["errors"] = {
        "description": errors_schema["description"],
        "items": {"$ref": "#/components/schemas/ProblemFieldError"},
        "title": errors_schema["title"],
        "type": "array",
    }
    schemas.update(problem_schema.pop("$defs", {}))
    schemas["Problem"] = problem_schema
    for route in iter_route_contexts(app.routes):
        if not isinstance(route.original_route, APIRoute) or not route.include_in_schema:
            continue
        for method in route.methods or ():
            operation = document["paths"].get(route.path_format, {}).get(method.lower())
            if operation is None:
                continue
            if not route.summary:
                _summary_from_docstring(operation)
            _restore_nulls_in_examples(route, operation)
            responses = operation.setdefault("responses", {})
            # Those derived from the route, and any other error it declares itself (what-if's 409).
            declared_errors = {int(code) for code in responses if code.isdigit() and int(code) >= 400}
            for status in sorted(set(error_statuses(route, operation)) | declared_errors):
                declared = responses.get(str(status), {})
                responses[str(status)] = {
                    "description": declared.get("description") or ERROR_DESCRIPTIONS[status],
                    **({"headers": declared["headers"]} if "headers" in declared else {}),
                    "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
                }
            if "503" in responses:
                responses["503"]["headers"] = RETRY_AFTER
            if "401" in responses:
                responses["401"]["headers"] = {
                    "WWW-Authenticate": {
                        "description": '`Bearer` without a key; `Bearer error="invalid_token", error_description="…"` for '
                        "an unknown or revoked one (RFC 6750 3)",
                        "schema": {"type": "string"},
                    }
                }
            operation["responses"] = dict(sorted(responses.items()))
            # A read anyone may send says so (OpenAPI 3.1 4.8.10: an empty list), rather than leaving a
            # linter and a generated client to guess.
            operation.setdefault("security", [])
    # FastAPI's own validation-error shapes are never sent: the service answers problem+json.
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    _sent_fields_required(document)
    document["components"]["schemas"] = dict(sorted(schemas.items()))
    return document


def _sent_fields_required(document: dict[str, Any]) -> None:
    """Every field an answer always sends is required in its schema (issue 44 item 1): a generated
    client then types it as present, not as optional. The service sends every field of its answers
    (their defaults included), so each schema only answers use (none of a request body's or a
    parameter's) requires all its properties; a schema both use keeps the request's optional fields
    optional; a problem's ``errors``, sent only for invalid input, stays optional."""
    schemas = document["components"]["schemas"]
    used_by_requests = _referenced(
        schemas,
        [
            part
            for operations in document["paths"].values()
            for op in operations.values()
            for part in (op.get("requestBody"), op.get("parameters"))
        ],
    )
    for name in _referenced(
        schemas, [op.get("responses") for operations in document["paths"].values() for op in operations.values()]
    ):
        schema = schemas[name]
        if name in used_by_requests or name == "Problem" or "properties" not in schema:
            continue
        schema["required"] = list(schema["properties"])
    for name in used_by_requests:
        _defaults_in_words(schemas[name])


def _defaults_in_words(schema: dict[str, Any]) -> None:
    """A request's optional field states its default in its description, not as JSON Schema's
    ``default``: openapi-typescript (7, with its defaults) types a component's property that has a
    ``default`` as always present, request or not, so a generated TypeScript client had to send
    ``rated``, ``format``, a game's ``played``, … in every submission (issue 44 item 1). The service
    applies the default as before; a field's description names it."""
    required = set(schema.get("required", ()))
    for field, declared in schema.get("properties", {}).items():
        if field in required or "default" not in declared:
            continue
        default = declared.pop("default")
        description = declared.get("description", "")
        if "default" not in description.lower():
            said = json.dumps(default, ensure_ascii=False)
            declared["description"] = f"{description} (default {said})" if description else f"Default {said}"


def _referenced(schemas: dict[str, Any], roots: list[Any]) -> set[str]:
    """The component schemas these parts of the document name, and those they name in turn."""
    found: set[str] = set()
    pending = list(roots)
    while pending:
        part = pending.pop()
        if isinstance(part, dict):
            reference = part.get("$ref")
            if isinstance(reference, str) and reference.startswith("#/components/schemas/"):
                name = reference.rsplit("/", 1)[1]
                if name not in found:
                    found.add(name)
                    pending.append(schemas.get(name))
            pending.extend(value for key, value in part.items() if key != "$ref")
        elif isinstance(part, list):
            pending.extend(part)
    return found


def _summary_from_docstring(operation: dict[str, Any]) -> None:
    """The docstring's first line becomes the summary; FastAPI would title the operation after the
    function's name and repeat the whole docstring as its description."""
    summary, _, description = operation.pop("description", "").partition("\n")
    if summary.strip():
        operation["summary"] = summary.strip()
    if description.strip():
        operation["description"] = description.strip()


def _restore_nulls_in_examples(route: RouteContext, operation: dict[str, Any]) -> None:
    """FastAPI writes its document without null values, and so drops every null from the examples
    too: an answer's example would lack the nullable fields its schema requires. The examples are
    put back as the route declares them."""
    body_field = getattr(route, "body_field", None)
    field_info = body_field.field_info if body_field is not None else None
    examples = getattr(field_info, "openapi_examples", None)
    if examples:
        media_type = getattr(field_info, "media_type", "application/json")
        operation["requestBody"]["content"][media_type]["examples"] = jsonable_encoder(examples)
    for status, declared in (getattr(route, "responses", None) or {}).items():
        for media_type, content in declared.get("content", {}).items():
            if "examples" in content:
                operation["responses"][str(status)]["content"][media_type]["examples"] = jsonable_encoder(content["examples"])


def _serve_offline_documentation(app: FastAPI) -> None:
    """The pages are the same for every request: each is made once, with the policy that fits it
    (its own inline script or style by its hash, app/http/security_headers.py)."""
    app.mount(DOCS_ASSETS_PATH, StaticFiles(directory=DOCS_ASSETS_DIRECTORY), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    oauth2_redirect_url = "/docs/oauth2-redirect"
    swagger = _with_its_policy(
        get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=oauth2_redirect_url,
            swagger_js_url=f"{DOCS_ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS_PATH}/favicon.png",
        )
    )
    swagger_redirect = _with_its_policy(get_swagger_ui_oauth2_redirect_html())
    redoc_page = _with_its_policy(
        get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{DOCS_ASSETS_PATH}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_ASSETS_PATH}/favicon.png",
            with_google_fonts=False,
        ),
        styles_made_by_its_script=True,
    )

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return HTMLResponse(*swagger)

    @app.get(oauth2_redirect_url, include_in_schema=False)
    def swagger_ui_redirect() -> HTMLResponse:
        return HTMLResponse(*swagger_redirect)

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return HTMLResponse(*redoc_page)


def _with_its_policy(page: HTMLResponse, *, styles_made_by_its_script: bool = False) -> tuple[bytes, int, dict[str, str]]:
    """A documentation page's body, status and the headers that say what it may load."""
    body = bytes(page.body)
    policy = documentation_policy(body, styles_made_by_its_script=styles_made_by_its_script)
    return body, page.status_code, {"Content-Security-Policy": policy}
