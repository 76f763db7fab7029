"""Inputs of issue 28 that once broke a rule (a 500, a guess, an answer in the wrong form): dates at
the ends of the calendar on every page and operation that takes one, one id rule in bodies, paths
and pages, JSON in UTF-8 only, a seed list of 120,000 rows, the website's errors as problem+json to a
client asking for JSON, times with their time zone, a player search that takes % and _ as written,
and the website's security headers. On SQLite and PostgreSQL alike: 4xx problem+json saying what and
where, never a 5xx, nothing half-stored."""

import datetime as dt
import json
import re
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select, text
from sqlalchemy.exc import OperationalError

from app import db
from app.models import Job, Player, RatingSeed, Tournament
from app.problems import problem_for
from app.schemas.common import ID_PATTERN
from tests.helpers import AUTH, recompute_now, tournament_body

PROBLEM = "application/problem+json"
JSON_ACCEPT = {"Accept": "application/json"}
BROWSER_ACCEPT = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
CALENDAR_ENDS = ["0001-01-01", "9999-12-31"]
LISTS = ["rif-whr", "rif-elo", "eru", "rivne", "olufsen"]


@pytest.fixture
def rated(client: TestClient) -> TestClient:
    """A stored tournament and a snapshot of every list (rif-elo started from its bootstrap rating)."""
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    assert client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH).status_code == 200
    for list_id in LISTS:
        recompute_now(client, list_id)
    return client


def assert_problem(response, status: int, pointer: str | None = None) -> dict:  # type: ignore[no-untyped-def]
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"].startswith(PROBLEM), response.headers["content-type"]
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"] and body["type"].startswith("https://")
    if pointer is not None:
        assert pointer in [e["pointer"] for e in body.get("errors", [])], body
    return body


# --- dates at the ends of the calendar ------------------------------------------------------------


@pytest.mark.parametrize("day", CALENDAR_ENDS)
@pytest.mark.parametrize("list_id", LISTS)
def test_dates_at_the_ends_of_the_calendar_on_every_page_and_operation(rated: TestClient, list_id: str, day: str):
    client = rated
    for path in (f"/lists/{list_id}?as_of={day}", f"/lists/{list_id}/ratings.csv?as_of={day}"):
        page = client.get(path, headers=BROWSER_ACCEPT)
        assert page.status_code == 422 and "as_of" in page.text, (path, page.status_code, page.text[:300])
        assert_problem(client.get(path, headers=JSON_ACCEPT), 422, "query:as_of")
    assert_problem(client.get(f"/v1/rating-lists/{list_id}/ratings", params={"as_of": day, "status": "all"}), 422, "query:as_of")
    # The bounds themselves are dates a list is read on.
    for bound in ("1900-01-01", "2199-12-31"):
        assert client.get(f"/lists/{list_id}?as_of={bound}").status_code == 200
        assert client.get(f"/v1/rating-lists/{list_id}/ratings", params={"as_of": bound}).status_code == 200


@pytest.mark.parametrize("day", CALENDAR_ENDS)
def test_dates_at_the_ends_of_the_calendar_in_bodies(rated: TestClient, day: str):
    client = rated
    game_dated = tournament_body("T2")
    game_dated["games"][0]["date"] = day
    for body, pointer in (
        (tournament_body("T2", start=day, end=day), "/start"),
        (tournament_body("T2", end=day), "/end"),
        (game_dated, "/games/0/date"),
    ):
        assert_problem(client.post("/v1/tournaments", json=body, headers=AUTH), 422, pointer)
        assert_problem(client.put("/v1/tournaments/T1", json={**body, "id": "T1"}, headers=AUTH), 422, pointer)
    seeds = {"seeds": [{"player_id": "p1", "rating": 2000, "as_of": day}]}
    assert_problem(client.put("/v1/rating-lists/rif-elo/seeds", json=seeds, headers=AUTH), 422, "/seeds/0/as_of")
    whr = {"games": [{"black": "a", "white": "b", "result": "B", "date": day}]}
    assert_problem(client.post("/v1/calc/whr", json=whr), 422, "/games/0/date")
    assert_problem(client.get("/v1/tournaments", params={"year": day[:4]}), 422, "query:year")
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Tournament)) == 1  # T1 only, unchanged
        assert session.get(Tournament, "T1").end == dt.date(2020, 5, 3)


# --- one id rule -----------------------------------------------------------------------------------

NOT_IDS = ["Tö1", "T١", "Ｔ1", "T 1", "-T1", "T1\n", "x" * 65, "T1\u0301", "ǅ"]


@pytest.mark.parametrize("bad", NOT_IDS)
def test_one_id_rule_for_bodies_paths_and_pages(client: TestClient, bad: str):
    from urllib.parse import quote

    assert_problem(client.post("/v1/tournaments", json=tournament_body(bad), headers=AUTH), 422, "/id")
    assert_problem(client.post("/v1/players", json={"id": bad}, headers=AUTH), 422, "/id")
    path = quote(bad, safe="")
    assert_problem(client.get(f"/v1/tournaments/{path}"), 422, "path:tournament_id")
    assert_problem(client.get(f"/v1/players/{path}"), 422, "path:player_id")
    assert_problem(client.get(f"/v1/rating-lists/{path}/ratings"), 422, "path:list_id")
    for page, name in (
        (f"/tournaments/{path}", "tournament_id"),
        (f"/players/{path}", "player_id"),
        (f"/lists/{path}", "list_id"),
    ):
        assert client.get(page).status_code == 422
        assert_problem(client.get(page, headers=JSON_ACCEPT), 422, f"path:{name}")
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Tournament)) == 0


def test_an_id_of_every_allowed_character_is_read_back_everywhere(client: TestClient):
    tournament_id = "Aa0.b_c:d-" + "z" * 54  # 64 characters
    body = json.loads(json.dumps(tournament_body(tournament_id)).replace('"p1"', '"P.1_a:b-C"'))
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    assert client.get(f"/v1/tournaments/{tournament_id}").status_code == 200
    assert client.get(f"/tournaments/{tournament_id}").status_code == 200
    assert client.get("/v1/players/P.1_a:b-C").status_code == 200
    assert client.get("/players/P.1_a:b-C").status_code == 200


def test_every_id_in_the_contract_has_the_one_pattern(client: TestClient):
    document = client.get("/openapi.json").json()
    patterns: dict[str, set[str]] = {}
    for path, operations in document["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"].endswith("_id") and parameter["schema"].get("type") == "string":
                    patterns.setdefault(f"{path} {parameter['name']}", set()).add(parameter["schema"].get("pattern", ""))
    for name, schema in document["components"]["schemas"].items():
        for field, spec in schema.get("properties", {}).items():
            for option in spec.get("anyOf", [spec]):
                if option.get("pattern") and (field == "id" or field.endswith("_id") or field in ("black", "white")):
                    patterns.setdefault(f"{name}.{field}", set()).add(option["pattern"])
    assert len(patterns) > 10
    assert {name: found for name, found in patterns.items() if found != {ID_PATTERN}} == {}


# --- JSON bodies in UTF-8 --------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "latin-1"])
def test_a_json_body_not_in_utf8_is_refused_not_guessed(client: TestClient, encoding: str):
    body = json.dumps(tournament_body("T1"), ensure_ascii=False).encode(encoding)
    headers = {**AUTH, "Content-Type": "application/json"}
    problem = assert_problem(client.post("/v1/tournaments", content=body, headers=headers), 400, "/")
    assert "UTF-8" in problem["detail"]
    if encoding != "latin-1":  # (ASCII text is the same bytes in Latin-1 and UTF-8)
        calc = '{"rating": 2300, "opponent_rating": 2200, "score": 1}'.encode(encoding)
        assert_problem(client.post("/v1/calc/rif-elo/game", content=calc, headers=headers), 400)
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Tournament)) == 0


def test_a_declared_charset_other_than_utf8_is_415(client: TestClient):
    body = json.dumps(tournament_body("T1")).encode("utf-16")
    response = client.post("/v1/tournaments", content=body, headers={**AUTH, "Content-Type": "application/json; charset=utf-16"})
    assert_problem(response, 415, "header:content-type")
    # UTF-8, declared or not, with or without the byte order mark RFC 8259 lets a parser ignore.
    utf8 = json.dumps(tournament_body("T1"), ensure_ascii=False).encode()
    assert (
        client.post(
            "/v1/tournaments", content=utf8, headers={**AUTH, "Content-Type": "application/json; charset=UTF-8"}
        ).status_code
        == 201
    )
    bom = json.dumps(tournament_body("T2"), ensure_ascii=False).encode("utf-8-sig")
    assert (
        client.post(
            "/v1/tournaments", content=bom, headers={**AUTH, "Content-Type": "application/json"}, params={"duplicate": "intended"}
        ).status_code
        == 201
    )
    assert client.get("/v1/players/p1").json()["surname"] == "Soosõrv"


# --- seeds: 120,000 rows -----------------------------------------------------------------------------


@pytest.mark.slow  # seconds: a large body or a CLI subprocess over real data
def test_120000_seeds_are_stored_in_one_request(client: TestClient):
    """Beyond PostgreSQL's 65,535 parameters a statement: the ids are looked up in pieces. The body
    limit (MAX_BODY_BYTES) is what bounds a request's rows."""
    count = 120_000
    with db.session_scope() as session:
        session.execute(insert(Player), [{"id": f"s{i}"} for i in range(count)])
    try:
        _store_and_refuse_seeds(client, count)
    finally:
        if db.get_engine().dialect.name == "postgresql":
            # Deleting 120,000 players row by row runs a foreign-key check per row and table;
            # the suite's cleaning would take minutes. TRUNCATE empties them at once.
            with db.get_engine().begin() as connection:
                connection.execute(text("TRUNCATE players CASCADE"))


def _store_and_refuse_seeds(client: TestClient, count: int) -> None:
    seeds = [{"player_id": f"s{i}", "rating": 1500 + i % 900, "as_of": "2009-11-01"} for i in range(count)]
    response = client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": seeds}, headers=AUTH)
    assert response.status_code == 200, response.text[:500]
    assert len(response.json()["seeds"]) == count
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(RatingSeed)) == count
    # One unknown player among them: a 422 naming it, nothing replaced.
    seeds[-1]["player_id"] = "nobody"
    assert_problem(
        client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": seeds}, headers=AUTH), 422, f"/seeds/{count - 1}/player_id"
    )
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(RatingSeed)) == count


def test_a_permanent_database_error_is_never_a_503():
    for message in (
        "sending query and params failed: number of parameters must be between 0 and 65535",
        "too many SQL variables",
    ):
        problem = problem_for(OperationalError("SELECT ...", {}, Exception(message)))
        assert problem.status == 500
    assert problem_for(OperationalError("SELECT ...", {}, Exception("connection refused"))).status == 503


# --- the website's errors as problem+json --------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "status", "pointer"),
    [
        ("/lists/nope", 404, None),
        ("/lists/nope/ratings.csv", 404, None),
        ("/lists/nope/snapshots", 404, None),
        ("/players/nobody", 404, None),
        ("/tournaments/none", 404, None),
        ("/static/nothing.css", 404, None),
        ("/lists/rif-whr?status=best", 422, "query:status"),
        ("/lists/rif-whr?page=0", 422, "query:page"),
        ("/lists/rif-whr?per_page=" + "9" * 5000, 422, "query:per_page"),
        ("/players?page=x", 422, "query:page"),
        ("/players/nobody?page=0", 422, "query:page"),
        ("/tournaments?page=-1", 422, "query:page"),
        ("/players?q=a%00b", 422, "query:q"),
        ("/players/a%00b", 422, "path:player_id"),
    ],
)
def test_website_errors_answer_problem_json_to_a_client_asking_for_json(
    client: TestClient, path: str, status: int, pointer: str | None
):
    for accept in ("application/json", "application/problem+json", "text/html;q=0.5, application/json"):
        assert_problem(client.get(path, headers={"Accept": accept}), status, pointer)
    for accept in (BROWSER_ACCEPT["Accept"], "*/*", ""):
        page = client.get(path, headers={"Accept": accept} if accept else {})
        assert page.status_code == status and page.headers["content-type"].startswith("text/html"), accept


# --- times with their time zone ----------------------------------------------------------------------


def test_times_carry_their_time_zone_on_every_database(client: TestClient):
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    job = recompute_now(client)
    moments = [job["created_at"], job["started_at"], job["finished_at"]]
    snapshot = client.get("/v1/rating-lists/rif-whr/snapshots").json()["items"][0]
    moments.append(snapshot["created_at"])
    for moment in moments:
        # RFC 3339 date-time: a time zone, UTC.
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)", moment), moment
        parsed = dt.datetime.fromisoformat(moment)
        assert parsed.utcoffset() == dt.timedelta(0)
        assert abs(dt.datetime.now(dt.UTC) - parsed) < dt.timedelta(minutes=5)
    with db.session_scope() as session:  # the model's type: every operation reads the same
        stored = session.get(Job, job["id"])
        assert stored.created_at.tzinfo is not None and stored.finished_at.utcoffset() == dt.timedelta(0)
        assert session.scalar(select(func.count()).select_from(Job).where(Job.created_at <= dt.datetime.now(dt.UTC))) >= 1


# --- player search takes % and _ as written --------------------------------------------------------


def test_player_search_takes_percent_and_underscore_literally(client: TestClient):
    players = [
        {"id": "a", "name": "First1", "surname": "Last"},
        {"id": "b", "name": "F_rst1%", "surname": "Last"},
        {"id": "c", "name": "100%", "surname": "Sure"},
        {"id": "d", "name": "Snake", "surname": "under_score"},
        {"id": "e", "name": "Back\\slash", "surname": "x"},
    ]
    for player in players:
        assert client.post("/v1/players", json=player, headers=AUTH).status_code == 201

    def found(q: str) -> set[str]:
        return {p["id"] for p in client.get("/v1/players", params={"q": q}).json()["items"]}

    assert found("F_rst1%Last") == set()
    assert found("F_rst1% Last") == {"b"}
    assert found("%") == {"b", "c"}
    assert found("_") == {"b", "d"}
    assert found("first") == {"a"}
    assert found("\\") == {"e"}
    page = client.get("/players", params={"q": "%"})
    assert page.status_code == 200 and "100%" in page.text and "First1" not in page.text


# --- the website's security headers ------------------------------------------------------------------


class _Resources(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            self.found.append((tag, name, value or ""))


def test_the_website_sends_security_headers_that_fit_its_pages(rated: TestClient):
    client = rated
    pages = ["/", "/lists/rif-whr", "/lists/rif-whr/ratings.csv", "/lists/rif-whr/snapshots", "/players?q=a", "/players/p1"]
    pages += ["/tournaments", "/tournaments/T1", "/lists/nope", "/lists/rif-whr?as_of=0001-01-01"]
    home = client.get("/")
    css = re.search(r'href="(/static/site\.css\?v=[0-9a-f]+)"', home.text).group(1)
    pages.append(css)
    for path in pages:
        for headers in ({}, JSON_ACCEPT):
            response = client.get(path, headers=headers)
            assert response.status_code < 500
            csp = response.headers["content-security-policy"]
            assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "style-src 'self'" in csp
            assert response.headers["x-frame-options"] == "DENY"
            assert response.headers["x-content-type-options"] == "nosniff"
            assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"
        # A 304 carries them too.
        if "etag" in response.headers:
            again = client.get(path, headers={"If-None-Match": response.headers["etag"]})
            assert again.status_code == 304 and "content-security-policy" in again.headers
        # The policy fits what the pages load: no script, no inline style, nothing from elsewhere.
        if response.headers["content-type"].startswith("text/html"):
            parser = _Resources()
            parser.feed(client.get(path).text)
            assert not [
                f
                for f in parser.found
                if f[0] in ("script", "iframe", "object", "embed") or f[1] == "style" or f[1].startswith("on")
            ]
            loaded = [value for tag, name, value in parser.found if (tag, name) in (("link", "href"), ("img", "src"))]
            assert all(value.startswith(("/", "data:")) for value in loaded), loaded
            assert "<style" not in client.get(path).text


def test_markup_in_names_rounds_and_ranks_is_shown_as_text_in_every_row(client: TestClient):
    """The rows the pages build in Python (a player's tournaments and games, a crosstable, a list's
    changes: decision 95) escape what a submission wrote, as the templates do."""
    hostile = '<img src=x onerror="alert(1)">'
    body = tournament_body("T1", name=f"Open {hostile}")
    body["players"][0] |= {"name": "<script>alert('x')</script>", "surname": 'O\'Brien & "Co"'}
    body["players"][1] |= {"name": hostile}
    for game in body["games"]:
        game["round"] = f"<b>{game['round']}</b>"
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    recompute_now(client, "rif-whr")
    for path in ("/tournaments/T1", "/players/p1", "/players/p2"):
        html = client.get(path).text
        assert "<script>alert" not in html and "<img src=x" not in html and "<b>" not in html, path
        text = _Text(html)
        assert "<script>alert('x')</script> O'Brien & \"Co\"" in text.words or path == "/players/p2", path
        assert hostile in text.words, path


class _Text(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.feed(html)
        self.words = " ".join(" ".join(self.parts).split())

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
