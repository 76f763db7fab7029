"""The website's routes: read the query, answer 304 when the caller's copy is current, else build the
page (``app.web.pages``) and render it. None is in the OpenAPI document.

Caching is as the API's (``app.http.caching``, which both use): pages of a list's current snapshot may
be cached for a minute and served stale while revalidating; a pinned snapshot never changes. A list
page's ETag is computed from the snapshot and the query before any row is read, as the API's is; pages
that also show stored tournaments and games (a player, a tournament, search, the index) carry the
hash of their body, since a submission changes them without a new snapshot."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from sqlalchemy.orm import Session

from app.http import response_cache
from app.http.caching import CURRENT_CACHE, PINNED_CACHE, matches, not_modified
from app.http.session import SessionDep
from app.problems import Problem, problem_response
from app.services import rating_lists as lists_service
from app.web import display, pages

HERE = Path(__file__).resolve().parent
STATIC = {"site.css": "text/css; charset=utf-8"}
_STATIC_BYTES = {name: (HERE / "static" / name).read_bytes() for name in STATIC}
# Changes with any template or stylesheet, so a new release never answers 304 to an old page.
SITE_VERSION = hashlib.sha256(
    b"".join(_STATIC_BYTES.values()) + b"".join(p.read_bytes() for p in sorted((HERE / "templates").glob("*.html")))
).hexdigest()[:16]
CSS_URL = f"/static/site.css?v={hashlib.sha256(_STATIC_BYTES['site.css']).hexdigest()[:12]}"
STATIC_CACHE = "public, max-age=31536000, immutable"

templates = Environment(
    loader=FileSystemLoader(HERE / "templates"), autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=StrictUndefined
)
templates.globals.update(
    css_url=CSS_URL,
    number=display.number,
    signed=display.signed,
    shown_change=display.shown_change,
    score=display.score,
    day=display.day,
    full_name=display.full_name,
    list_path=display.list_path,
    player_path=display.player_path,
    tournament_path=display.tournament_path,
    with_query=display.with_query,
    page_size=pages.DEFAULT_PAGE_SIZE,
    rows_html=pages.rows_html,
)

# What a public site is expected to send (OWASP secure headers). The policy fits what the templates
# load: the one stylesheet from this site, inline SVG charts (no style attributes), the favicon as a
# data: URL, forms posting nowhere but here; no script, frame, font or connection at all.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}


class _WebsiteRoute(APIRoute):
    """Every answer of the website's routes (pages, 304s, errors, the stylesheet) carries the
    security headers."""

    def get_route_handler(self) -> Callable[[Request], Any]:
        handle = super().get_route_handler()

        async def with_headers(request: Request) -> Response:
            response = await handle(request)
            response.headers.update(SECURITY_HEADERS)
            return response

        return with_headers


router = APIRouter(include_in_schema=False, tags=["website"], route_class=_WebsiteRoute)


@router.get("/")
def home(request: Request, session: SessionDep) -> Response:
    current = [(rating_list.id, rating_list.current_snapshot_id) for rating_list in lists_service.list_rating_lists(session)]
    etag = lists_service.list_etag(None, {"site": SITE_VERSION, "page": "home", "lists": current})
    return _page(request, "home.html", lambda: pages.home(session), etag=etag)


@router.get("/lists/{list_id}")
def rating_list(list_id: str, request: Request, session: SessionDep) -> Response:
    try:
        pages.check_id("list_id", list_id)
        query = pages.parse_list_query(request.query_params)
        etag, cache = _list_validators(session, list_id, query, "list")
        snapshot = lists_service.get_snapshot(session, list_id, query.snapshot)
    except Problem as problem:
        return _error(request, problem)
    # The current list's page belongs to its snapshot, as its ETag says: rendered once per snapshot
    # and query. (A pinned snapshot's page says whether it is still current: rendered every time.)
    keep = ("list page", etag, snapshot.id, snapshot.created_at) if snapshot and query.snapshot is None else None
    return _page(request, "list.html", lambda: pages.rating_list_page(session, list_id, query), etag=etag, cache=cache, keep=keep)


@router.get("/lists/{list_id}/ratings.csv")
def rating_list_csv(list_id: str, request: Request, session: SessionDep) -> Response:
    """The rows of the list page with the same query, as CSV: the same columns, the same cells."""
    try:
        pages.check_id("list_id", list_id)
        query = pages.parse_list_query(request.query_params)
        etag, cache = _list_validators(session, list_id, query, "csv")
        headers = {"ETag": etag, "Cache-Control": cache}
        if matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers=headers)
        context = pages.rating_list_page(session, list_id, query)
    except Problem as problem:
        return _error(request, problem)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(pages.csv_rows(context))
    snapshot = context["snapshot"]
    name = f"{list_id}-{snapshot.list_date if snapshot else 'empty'}-page{query.page}.csv"
    headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return Response(out.getvalue().encode(), media_type="text/csv; charset=utf-8", headers=headers)


@router.get("/lists/{list_id}/snapshots")
def snapshots(list_id: str, request: Request, session: SessionDep) -> Response:
    try:
        pages.check_id("list_id", list_id)
        page = pages.parse_page(request.query_params)
        current = lists_service.get_rating_list(session, list_id).current_snapshot_id
    except Problem as problem:
        return _error(request, problem)
    etag = lists_service.list_etag(current, {"site": SITE_VERSION, "page": "snapshots", "list": list_id, "n": page})
    return _page(request, "snapshots.html", lambda: pages.snapshots_page(session, list_id, page), etag=etag)


@router.get("/players")
def player_search(request: Request, session: SessionDep) -> Response:
    try:
        page = pages.parse_page(request.query_params)
        q = pages.parse_search(request.query_params)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, "search.html", lambda: pages.player_search(session, q, page))


@router.get("/players/{player_id}")
def player(player_id: str, request: Request, session: SessionDep) -> Response:
    try:
        pages.check_id("player_id", player_id)
    except Problem as problem:
        return _error(request, problem)
    merged_into = pages.merged_into(session, player_id)
    if merged_into is not None:
        # A merged record's page is his player's; temporary, as an unmerge may undo it (issue 24 item 2).
        return RedirectResponse(f"/players/{merged_into}", status_code=307)
    return _page(request, "player.html", lambda: pages.player_page(session, player_id))


@router.get("/tournaments")
def tournament_index(request: Request, session: SessionDep) -> Response:
    try:
        page = pages.parse_page(request.query_params)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, "tournaments.html", lambda: pages.tournament_index(session, page))


@router.get("/tournaments/{tournament_id}")
def tournament(tournament_id: str, request: Request, session: SessionDep) -> Response:
    try:
        pages.check_id("tournament_id", tournament_id)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, "tournament.html", lambda: pages.tournament_page(session, tournament_id))


@router.get("/static/{name}")
def static(name: str, request: Request) -> Response:
    if name not in STATIC:
        return _error(request, Problem(f"There is no static file {name!r}."), status=404, title="Not found")
    body = _STATIC_BYTES[name]
    cache = STATIC_CACHE if request.query_params.get("v") else CURRENT_CACHE
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": cache}
    if matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=STATIC[name], headers=headers)


# --- helpers -----------------------------------------------------------------------------------


def _list_validators(session: Session, list_id: str, query: pages.ListQuery, kind: str) -> tuple[str, str]:
    """The ETag and Cache-Control of a list page, from the snapshot it reads and its query alone."""
    rating_list = lists_service.get_rating_list(session, list_id)
    wanted = query.snapshot if query.snapshot is not None else rating_list.current_snapshot_id
    etag = lists_service.list_etag(wanted, {"site": SITE_VERSION, "page": kind, "list": list_id, **query.params()})
    return etag, PINNED_CACHE if query.snapshot is not None else CURRENT_CACHE


def _page(
    request: Request,
    template: str,
    build: Callable[[], dict[str, Any]],
    *,
    etag: str | None = None,
    cache: str = CURRENT_CACHE,
    keep: Hashable | None = None,
) -> Response:
    """Answer 304 to a current copy; else build and render (an ETag from the body when none is given).
    A page with a ``keep`` key is rendered once and then sent from the response cache."""
    if etag is not None and matches(request.headers.get("if-none-match"), etag):
        return not_modified(etag, cache)
    try:
        body = response_cache.responses.kept_or_built(
            keep, lambda: templates.get_template(template).render(**build(), request_path=request.url.path).encode()
        )
    except Problem as problem:
        return _error(request, problem)
    if etag is None:
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        if matches(request.headers.get("if-none-match"), etag):
            return not_modified(etag, cache)
    return HTMLResponse(body, headers={"ETag": etag, "Cache-Control": cache})


def _error(request: Request, problem: Problem, *, status: int | None = None, title: str | None = None) -> Response:
    """The problem as a page: what is wrong, with the status the API would answer; as the API's
    problem+json to a client that asks for JSON (``Accept: application/json``)."""
    if status is not None or title is not None:
        problem.status, problem.title = status or problem.status, title or problem.title
        problem.type_slug = {404: "not-found"}.get(problem.status, problem.type_slug)
    if wants_json(request.headers.get("accept", "")):
        response = problem_response(problem)
        response.headers.update({"Cache-Control": "no-store", "Vary": "Accept"})
        return response
    body = templates.get_template("error.html").render(
        status=problem.status, title=problem.title, detail=problem.detail, request_path=""
    )
    return HTMLResponse(body, status_code=problem.status, headers={"Cache-Control": "no-store", "Vary": "Accept"})


def wants_json(accept: str) -> bool:
    """Whether an Accept header prefers JSON (application/json, application/problem+json or another
    +json type) to HTML: by quality, and JSON named outright beats a wildcard. A browser's
    ``text/html,...,*/*;q=0.8`` and a missing header get the page."""
    best_json = best_html = 0.0
    for item in accept.split(","):
        media_type, *parameters = (part.strip() for part in item.split(";"))
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        media_type = media_type.lower()
        if media_type == "application/json" or (media_type.startswith("application/") and media_type.endswith("+json")):
            best_json = max(best_json, quality)
        elif media_type in ("text/html", "application/xhtml+xml", "text/*"):
            best_html = max(best_html, quality)
    return best_json > 0 and best_json >= best_html
