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
from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined
from jinja2.bccache import Bucket
from sqlalchemy.orm import Session

from app.http import response_cache
from app.http.caching import CURRENT_CACHE, PINNED_CACHE, matches, not_modified
from app.http.negotiation import weighted_values
from app.http.security_headers import PAGE_POLICY
from app.http.session import SessionDep
from app.problems import Problem, problem_response
from app.services import publications
from app.services import rating_lists as lists_service
from app.settings import get_settings
from app.snapshots.current_snapshots import players_edition
from app.web import calculators as web_calculators
from app.web import display, i18n, pages, service_words, why_changed

HERE = Path(__file__).resolve().parent
STATIC = {"site.css": "text/css; charset=utf-8"}
_STATIC_BYTES = {name: (HERE / "static" / name).read_bytes() for name in STATIC}
# Changes with any template, stylesheet or catalogue, so a new release never answers 304 to an old page.
SITE_VERSION = hashlib.sha256(
    b"".join(_STATIC_BYTES.values())
    + b"".join(p.read_bytes() for p in sorted((HERE / "templates").glob("*.html")))
    + b"".join(p.read_bytes() for p in sorted(i18n.LOCALE_DIRECTORY.glob("*/LC_MESSAGES/messages.po")))
).hexdigest()[:16]
CSS_URL = f"/static/site.css?v={hashlib.sha256(_STATIC_BYTES['site.css']).hexdigest()[:12]}"
STATIC_CACHE = "public, max-age=31536000, immutable"

COMMON_GLOBALS: dict[str, Any] = {
    "css_url": CSS_URL,
    "number": display.number,
    "signed": display.signed,
    "shown_change": display.shown_change,
    "score": display.score,
    "day": display.day,
    "data": display.data,
    "full_name": display.full_name,
    "list_path": display.list_path,
    "player_path": display.player_path,
    "tournament_path": display.tournament_path,
    "with_query": display.with_query,
    "page_size": pages.DEFAULT_PAGE_SIZE,
    "languages": i18n.LANGUAGES,
    "status_labels": pages.STATUS_LABELS,
    "categories": pages.CATEGORY_LABELS,
    "fact_values": pages.FACT_VALUE_LABELS,
    "key_columns": pages.KEY_COLUMNS,
    "rating_with_certainty": pages.rating_with_certainty,
    "tie_break": display.tie_break,
    "figure": display.figure,
    "figure_labels": web_calculators.FIGURE_LABELS,
    "why_how": why_changed.HOW_WORDS,
    "figure_symbols": web_calculators.FIGURE_SYMBOLS,
    "value_labels": web_calculators.VALUE_LABELS,
    "worded_figures": web_calculators.WORDED_FIGURES,
}


class _CompiledOnce(BytecodeCache):
    """The templates' compiled code, shared by the languages' environments: a template's code does
    not depend on the language (its messages are looked up when it renders), so each is parsed and
    compiled once per process, not once per language. Kept in memory: a new process compiles again
    (Jinja2 checks each template's source against the code it finds)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledOnce()


def _environment(language: i18n.Language) -> Environment:
    """The templates in one language: its catalogue installed for Jinja2's i18n extension (messages
    trimmed of the templates' line breaks), its date and count formats."""
    environment = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        bytecode_cache=_COMPILED,
        autoescape=True,
        # (No trim_blocks: a block tag ending a line keeps the line's break, so sentences that
        # follow each other on separate lines stay apart.)
        lstrip_blocks=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
    )
    environment.policies["ext.i18n.trimmed"] = True
    translations = i18n.translations(language.code)
    environment.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]  # added by the i18n extension
    environment.globals.update(
        COMMON_GLOBALS,
        **i18n.formatters(language),
        language=language,
        rows_html=lambda columns, rows, anchors=True: pages.rows_html(columns, rows, language, anchors=anchors),
        tournament_rows_html=lambda section, player_id: pages.tournament_rows_html(section, player_id, language),
        game_rows_html=lambda games, opponents, player_id: pages.game_rows_html(games, opponents, language, player_id),
        crosstable_rows_html=pages.crosstable_rows_html,
        change_rows_html=lambda changes, names: pages.change_rows_html(changes, names, language),
        status_word=lambda status: pages.shown_status(status, translations.gettext),
        service_sentence=lambda sentence: service_words.shown_sentence(sentence, language),
    )
    return environment


ENVIRONMENTS = {code: _environment(language) for code, language in i18n.LANGUAGES.items()}


def prepare() -> None:
    """Load every template in every language, and each language's dates and numbers, so that no
    reader's first page pays for it: parsing and compiling the templates a player's page uses is a
    tenth of a second, loading a language's CLDR data a few hundredths. Called when the application
    starts, before it reports ready; once done, a second call costs a file check per template."""
    for code, environment in ENVIRONMENTS.items():
        for name in environment.list_templates(extensions=["html"]):
            environment.get_template(name)
        i18n.prepare(i18n.LANGUAGES[code])


class _WebsiteRoute(APIRoute):
    """Every answer of the website's routes (pages, 304s, errors, the stylesheet) carries the policy
    that fits its pages (app/http/security_headers.py); the other security headers come with every
    answer of the service."""

    def get_route_handler(self) -> Callable[[Request], Any]:
        handle = super().get_route_handler()

        async def with_policy(request: Request) -> Response:
            response = await handle(request)
            response.headers["Content-Security-Policy"] = PAGE_POLICY
            return response

        return with_policy


router = APIRouter(include_in_schema=False, tags=["website"], route_class=_WebsiteRoute)


@router.get("/")
def home(request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    current = [(rating_list.id, rating_list.current_snapshot_id) for rating_list in lists_service.list_rating_lists(session)]
    # The lists' order follows the service's discipline (MAIN_DISCIPLINE, docs/decisions.md 135).
    main = get_settings().main_discipline
    etag = lists_service.list_etag(
        None, {"site": SITE_VERSION, "page": "home", "lists": current, "language": language.code, "main": main}
    )
    return _page(request, language, "home.html", lambda: pages.home(session, language), etag=etag)


@router.get("/language/{code}")
def choose_language(code: str, request: Request) -> Response:
    """The language switch: remembers the choice in a cookie for a year and goes back to the page
    it was chosen on (a path of this site only, never another site's address)."""
    if code not in i18n.LANGUAGES:
        return _error(request, Problem(f"The site has no language {code[:20]!r}."), status=404, title="Not found")
    back = request.query_params.get("next") or "/"
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = "/"
    response = RedirectResponse(back, status_code=303, headers={"Cache-Control": "no-store"})
    response.set_cookie(i18n.COOKIE, code, max_age=i18n.COOKIE_MAX_AGE, path="/", samesite="lax")
    return response


@router.get("/lists/{list_id}")
def rating_list(list_id: str, request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    try:
        pages.check_id("list_id", list_id)
        query = pages.parse_list_query(request.query_params)
        etag, cache = _list_validators(session, list_id, query, "list", language)
        snapshot = lists_service.get_snapshot(session, list_id, query.snapshot)
    except Problem as problem:
        return _error(request, problem)
    # The current list's page belongs to its snapshot, as its ETag says: rendered once per snapshot,
    # query and language. (A pinned snapshot's page says whether it is still current: rendered every time.)
    keep = ("list page", etag, snapshot.id, snapshot.created_at) if snapshot and query.snapshot is None else None
    return _page(
        request,
        language,
        "list.html",
        lambda: pages.rating_list_page(session, list_id, query, language),
        etag=etag,
        cache=cache,
        keep=keep,
    )


@router.get("/lists/{list_id}/ratings.csv")
def rating_list_csv(list_id: str, request: Request, session: SessionDep) -> Response:
    """The rows of the list page with the same query, as CSV: the same columns and rows, as data
    (English column names, ISO dates, status codes) whatever the reader's language."""
    try:
        pages.check_id("list_id", list_id)
        query = pages.parse_list_query(request.query_params)
        etag, cache = _list_validators(session, list_id, query, "csv", i18n.LANGUAGES[i18n.DEFAULT])
        headers = {"ETag": etag, "Cache-Control": cache}
        if matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers=headers)
        context = pages.rating_list_page(session, list_id, query, i18n.LANGUAGES[i18n.DEFAULT])
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
    language = reader_language(request)
    try:
        pages.check_id("list_id", list_id)
        page = pages.parse_page(request.query_params)
        current = lists_service.get_rating_list(session, list_id).current_snapshot_id
    except Problem as problem:
        return _error(request, problem)
    etag = lists_service.list_etag(
        current, {"site": SITE_VERSION, "page": "snapshots", "list": list_id, "n": page, "language": language.code}
    )
    return _page(request, language, "snapshots.html", lambda: pages.snapshots_page(session, list_id, page), etag=etag)


@router.get("/lists/{list_id}/publications")
def publications_index(list_id: str, request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    try:
        pages.check_id("list_id", list_id)
        page = pages.parse_page(request.query_params)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, language, "publications.html", lambda: pages.publications_page(session, list_id, page))


@router.get("/lists/{list_id}/publications/{number}")
def publication(list_id: str, number: str, request: Request, session: SessionDep) -> Response:
    """A publication never changes: its page is cached as a pinned snapshot's is."""
    language = reader_language(request)
    try:
        pages.check_id("list_id", list_id)
        published = pages.parse_number(number)
        query = pages.parse_list_query(request.query_params)
        etag = _publication_etag(session, list_id, published, query, "page", language)
    except Problem as problem:
        return _error(request, problem)
    return _page(
        request,
        language,
        "publication.html",
        lambda: pages.publication_page(session, list_id, published, query, language),
        etag=etag,
        cache=PINNED_CACHE,
    )


@router.get("/lists/{list_id}/publications/{number}/ratings.csv")
def publication_csv(list_id: str, number: str, request: Request, session: SessionDep) -> Response:
    """The rows of the publication's page with the same query, as CSV data, as the live list's."""
    english = i18n.LANGUAGES[i18n.DEFAULT]
    try:
        pages.check_id("list_id", list_id)
        published = pages.parse_number(number)
        query = pages.parse_list_query(request.query_params)
        etag = _publication_etag(session, list_id, published, query, "csv", english)
        headers = {"ETag": etag, "Cache-Control": PINNED_CACHE}
        if matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers=headers)
        context = pages.publication_page(session, list_id, published, query, english)
    except Problem as problem:
        return _error(request, problem)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(pages.csv_rows(context))
    headers["Content-Disposition"] = f'attachment; filename="{list_id}-publication{published}-page{query.page}.csv"'
    return Response(out.getvalue().encode(), media_type="text/csv; charset=utf-8", headers=headers)


@router.get("/lists/{list_id}/predict")
def prediction(list_id: str, request: Request, session: SessionDep) -> Response:
    """Who is favoured between two players of the list: the predict endpoint's answer in a form. It
    reads the current snapshot and the players' names, and is cached as the current list's page is."""
    language = reader_language(request)
    try:
        pages.check_id("list_id", list_id)
        a, b = pages.parse_prediction_query(request.query_params)
        rating_list = lists_service.get_rating_list(session, list_id)
    except Problem as problem:
        return _error(request, problem)
    current = rating_list.current_snapshot_id
    etag = lists_service.list_etag(
        current,
        {
            "site": SITE_VERSION,
            "page": "predict",
            "list": list_id,
            "language": language.code,
            "stale": rating_list.stale_since,
            "players": players_edition(session),
            "a": a,
            "b": b,
        },
    )
    return _page(
        request,
        language,
        "predict.html",
        lambda: pages.prediction_page(session, list_id, a, b, language),
        etag=etag,
        keep=("predict page", etag) if current is not None else None,
    )


@router.get("/lists/{list_id}/drift")
def drift(list_id: str, request: Request, session: SessionDep) -> Response:
    """How the list's ratings drift: the drift endpoint's answer as a chart and a table. It reads the
    current snapshot and the list's threshold, and is cached as the current list's page is."""
    language = reader_language(request)
    try:
        pages.check_id("list_id", list_id)
        cohort_year = pages.parse_drift_query(request.query_params)
        rating_list = lists_service.get_rating_list(session, list_id)
    except Problem as problem:
        return _error(request, problem)
    current = rating_list.current_snapshot_id
    etag = lists_service.list_etag(
        current,
        {
            "site": SITE_VERSION,
            "page": "drift",
            "list": list_id,
            "language": language.code,
            "stale": rating_list.stale_since,
            "threshold": rating_list.drift_threshold,
            "cohort_year": cohort_year,
        },
    )
    return _page(
        request,
        language,
        "drift.html",
        lambda: pages.drift_page(session, list_id, cohort_year, language),
        etag=etag,
        keep=("drift page", etag) if current is not None else None,
    )


@router.get("/lists/{list_id}/accuracy")
def accuracy(list_id: str, request: Request, session: SessionDep) -> Response:
    """How well the list predicts its own games: its latest evaluations' findings. It reads the list
    and its succeeded evaluations (their count and newest id, which change with each that succeeds),
    and is cached as the drift page is, the rendered page kept for that state."""
    language = reader_language(request)
    try:
        pages.check_id("list_id", list_id)
        rating_list = lists_service.get_rating_list(session, list_id)
    except Problem as problem:
        return _error(request, problem)
    count, newest = pages.evaluations_state(session, list_id)
    etag = lists_service.list_etag(
        rating_list.current_snapshot_id,
        {
            "site": SITE_VERSION,
            "page": "accuracy",
            "list": list_id,
            "name": rating_list.name,
            "language": language.code,
            "evaluations": [count, newest],
        },
    )
    return _page(
        request,
        language,
        "accuracy.html",
        lambda: pages.accuracy_page(session, list_id, language),
        etag=etag,
        keep=("accuracy page", etag),
    )


@router.get("/players")
def player_search(request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    try:
        page = pages.parse_page(request.query_params)
        q = pages.parse_search(request.query_params)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, language, "search.html", lambda: pages.player_search(session, q, page, language))


@router.get("/players/{player_id}")
def player(player_id: str, request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    try:
        pages.check_id("player_id", player_id)
        page = pages.parse_page(request.query_params)
        why = pages.parse_why_query(request.query_params)
    except Problem as problem:
        return _error(request, problem)
    merged_into = pages.merged_into(session, player_id)
    if merged_into is not None:
        # A merged record's page is his player's, at the same page of games; temporary, as an unmerge
        # may undo it (issue 24 item 2).
        return RedirectResponse(
            display.with_query(display.player_path(merged_into), page=page if page != 1 else None), status_code=307
        )
    return _page(request, language, "player.html", lambda: pages.player_page(session, player_id, language, page, why))


@router.get("/players/{player_id}/vs/{opponent_id}")
def head_to_head(player_id: str, opponent_id: str, request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    try:
        pages.check_id("player_id", player_id)
        pages.check_id("opponent_id", opponent_id)
    except Problem as problem:
        return _error(request, problem)
    return _page(
        request, language, "head_to_head.html", lambda: pages.head_to_head_page(session, player_id, opponent_id, language)
    )


@router.get("/tournaments")
def tournament_index(request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    try:
        query = pages.parse_tournament_query(request.query_params)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, language, "tournaments.html", lambda: pages.tournament_index(session, query))


@router.get("/tournaments/{tournament_id}")
def tournament(tournament_id: str, request: Request, session: SessionDep) -> Response:
    language = reader_language(request)
    try:
        pages.check_id("tournament_id", tournament_id)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, language, "tournament.html", lambda: pages.tournament_page(session, tournament_id, language))


@router.get("/tournaments/{tournament_id}/lists/{list_id}/figures")
def tournament_figures(tournament_id: str, list_id: str, request: Request, session: SessionDep) -> Response:
    """Every player's change on one list with the figures the rules computed it from (issue 25 item 5)."""
    language = reader_language(request)
    try:
        pages.check_id("tournament_id", tournament_id)
        pages.check_id("list_id", list_id)
    except Problem as problem:
        return _error(request, problem)
    return _page(request, language, "figures.html", lambda: pages.figures_page(session, tournament_id, list_id))


@router.get("/calculators")
def calculators_page(request: Request) -> Response:
    return _page(
        request,
        reader_language(request),
        "calculators.html",
        lambda: {"forms": web_calculators.forms(), "form": None, "values": {}},
    )


@router.get("/calculators/{slug}")
def calculator_result(slug: str, request: Request) -> Response:
    """A form sent: the calculation's answer above the forms, the form keeping what was typed."""
    every_form = web_calculators.forms()
    form = next((f for f in every_form if f.slug == slug), None)
    if form is None:
        return _error(request, Problem(f"There is no calculator {slug!r}."), status=404, title="Not found")
    query = {key: value for key, value in request.query_params.items()}
    values = {form.slug: {field.name: query.get(field.name, "") for field in form.fields}}
    language = reader_language(request)
    return _page(
        request,
        language,
        "calculators.html",
        lambda: {
            "forms": every_form,
            "form": form,
            "outcome": web_calculators.calculate(form, query, i18n.translations(language.code).gettext),
            "values": values,
        },
    )


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


def reader_language(request: Request) -> i18n.Language:
    return i18n.chosen_language(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))


# A page's language follows these request headers: a shared cache keeps one copy per language.
VARY = "Accept-Language, Cookie"


def _list_validators(
    session: Session, list_id: str, query: pages.ListQuery, kind: str, language: i18n.Language
) -> tuple[str, str]:
    """The ETag and Cache-Control of a list page, from the snapshot it reads, its query and language."""
    rating_list = lists_service.get_rating_list(session, list_id)
    wanted = query.snapshot if query.snapshot is not None else rating_list.current_snapshot_id
    # The current list's page says whether it is stale, which changes without a new snapshot.
    stale = rating_list.stale_since if query.snapshot is None else None
    # ... and names its players as they are stored now.
    players = players_edition(session) if query.snapshot is None else None
    etag = lists_service.list_etag(
        wanted,
        {
            "site": SITE_VERSION,
            "page": kind,
            "list": list_id,
            "language": language.code,
            "stale": stale,
            "players": players,
            **query.params(),
        },
    )
    return etag, PINNED_CACHE if query.snapshot is not None else CURRENT_CACHE


def _publication_etag(
    session: Session, list_id: str, number: int, query: pages.ListQuery, kind: str, language: i18n.Language
) -> str:
    found = publications.get_publication(session, list_id, number)
    described = f"{SITE_VERSION} {kind} {language.code} {sorted(query.params().items())}"
    return publications.publication_etag(found, f"/lists/{list_id}/publications/{number}", described.encode())


def _page(
    request: Request,
    language: i18n.Language,
    template: str,
    build: Callable[[], dict[str, Any]],
    *,
    etag: str | None = None,
    cache: str = CURRENT_CACHE,
    keep: Hashable | None = None,
) -> Response:
    """Answer 304 to a current copy; else build and render (an ETag from the body when none is given).
    A page with a ``keep`` key is rendered once and then sent from the response cache."""
    headers = {"Vary": VARY}
    if etag is not None and matches(request.headers.get("if-none-match"), etag):
        response = not_modified(etag, cache)
        response.headers.update(headers)
        return response
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    try:
        body = response_cache.responses.kept_or_built(
            keep,
            lambda: (
                ENVIRONMENTS[language.code]
                .get_template(template)
                .render(**build(), request_path=request.url.path, here=here)
                .encode()
            ),
        )
    except Problem as problem:
        return _error(request, problem)
    if etag is None:
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        if matches(request.headers.get("if-none-match"), etag):
            response = not_modified(etag, cache)
            response.headers.update(headers)
            return response
    return HTMLResponse(body, headers={"ETag": etag, "Cache-Control": cache, **headers})


def _error(request: Request, problem: Problem, *, status: int | None = None, title: str | None = None) -> Response:
    """The problem as a page in the reader's language: what is wrong, with the status the API would
    answer; as the API's problem+json to a client that asks for JSON (``Accept: application/json``).
    The detail is the service's own sentence, in the reader's language where the page knows it
    (app/web/service_words.py), else in English as the API's, so marked."""
    if status is not None or title is not None:
        problem.status, problem.title = status or problem.status, title or problem.title
        problem.type_slug = {404: "not-found"}.get(problem.status, problem.type_slug)
    if wants_json(request.headers.get("accept", "")):
        response = problem_response(problem)
        response.headers.update({"Cache-Control": "no-store", "Vary": "Accept"})
        return response
    language = reader_language(request)
    body = (
        ENVIRONMENTS[language.code]
        .get_template("error.html")
        .render(
            status=problem.status,
            title=problem.title,
            detail=service_words.shown_detail(problem.detail, language),
            request_path="",
            here="/",
        )
    )
    return HTMLResponse(body, status_code=problem.status, headers={"Cache-Control": "no-store", "Vary": f"Accept, {VARY}"})


def wants_json(accept: str) -> bool:
    """Whether an Accept header prefers JSON (application/json, application/problem+json or another
    +json type) to HTML: by quality, and JSON named outright beats a wildcard. A browser's
    ``text/html,...,*/*;q=0.8`` and a missing header get the page."""
    best_json = best_html = 0.0
    for media_type, quality in weighted_values(accept):
        media_type = media_type.lower()
        if media_type == "application/json" or (media_type.startswith("application/") and media_type.endswith("+json")):
            best_json = max(best_json, quality)
        elif media_type in ("text/html", "application/xhtml+xml", "text/*"):
            best_html = max(best_html, quality)
    return best_json > 0 and best_json >= best_html
