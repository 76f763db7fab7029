"""Every answer carries the security headers (app/http/security_headers.py), whoever made it: the API's
data and its errors, the 404 of a path nobody serves (it had none), a 405, the 413, 415 and 400 the
body's middleware answers before routing, the 304s answered before routing and by the website, the
website's pages and error pages, the documentation pages, the static files, the metrics, a CORS
preflight and the 500 of an unexpected error. Each with the Content-Security-Policy that fits it: the
website's pages theirs, the documentation pages theirs (their inline scripts by hash), everything
else the data's. Through the application in this process and once against a live server, where
uvicorn's own framing is on the wire too."""

import base64
import hashlib
import json
import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from app.http.security_headers import DATA_POLICY, PAGE_POLICY
from tests.helpers import AUTH, recompute_now, tournament_body
from tests.live_server import running_server

OTHER_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
}
JSON = {"Content-Type": "application/json"}
HTML = {"Accept": "text/html"}
Send = Callable[[httpx.Client | TestClient], httpx.Response]


def _conditional(path: str) -> Send:
    """The same read again with the ETag it answered: a 304."""

    def send(client: httpx.Client | TestClient) -> httpx.Response:
        etag = client.get(path).headers["etag"]
        return client.get(path, headers={"If-None-Match": etag})

    return send


# (what, the request, the status it answers, the policy it carries)
ANSWERS: list[tuple[str, Send, int, str]] = [
    ("an API read", lambda c: c.get("/v1/rating-lists"), 200, DATA_POLICY),
    ("the 404 of an unknown path under /v1", lambda c: c.get("/v1/nope"), 404, DATA_POLICY),
    ("the 404 of an unknown path", lambda c: c.get("/nope"), 404, DATA_POLICY),
    ("the 404 of an unknown path, asked by a browser", lambda c: c.get("/nope/deeper", headers=HTML), 404, DATA_POLICY),
    ("the 404 of a resource", lambda c: c.get("/v1/players/nobody"), 404, DATA_POLICY),
    ("a 405", lambda c: c.delete("/v1/health"), 405, DATA_POLICY),
    ("a 405 of a page", lambda c: c.post("/lists/rif-whr"), 405, DATA_POLICY),
    ("a 401", lambda c: c.post("/v1/players", json={"id": "p9"}), 401, DATA_POLICY),
    ("a 422", lambda c: c.get("/v1/rating-lists/rif-whr/ratings", params={"limit": 0}), 422, DATA_POLICY),
    (
        "the 413 of a declared length",
        lambda c: c.post("/v1/calc/whr", content=b"{" + b" " * (3 << 20) + b"}", headers=JSON),
        413,
        DATA_POLICY,
    ),
    (
        "the 415 of another media type",
        lambda c: c.post("/v1/calc/whr", content=b"games", headers={"Content-Type": "text/plain"}),
        415,
        DATA_POLICY,
    ),
    (
        "the 415 of another charset",
        lambda c: c.post("/v1/calc/whr", content=b"{}", headers={"Content-Type": "application/json; charset=latin-1"}),
        415,
        DATA_POLICY,
    ),
    (
        "the 400 of a body not in UTF-8",
        lambda c: c.post("/v1/calc/whr", content='{"a": "é"}'.encode("latin-1"), headers=JSON),
        400,
        DATA_POLICY,
    ),
    ("the 400 of a body that is not JSON", lambda c: c.post("/v1/calc/whr", content=b"{games", headers=JSON), 400, DATA_POLICY),
    ("the 304 answered before routing", _conditional("/v1/rating-lists/rif-whr/ratings"), 304, DATA_POLICY),
    ("the 304 of a player's history", _conditional("/v1/players/p1/history"), 304, DATA_POLICY),
    ("a page", lambda c: c.get("/lists/rif-whr"), 200, PAGE_POLICY),
    ("the 304 of a page", _conditional("/"), 304, PAGE_POLICY),
    ("the website's 404 page", lambda c: c.get("/lists/nope", headers=HTML), 404, PAGE_POLICY),
    ("the website's 404 as JSON", lambda c: c.get("/lists/nope", headers={"Accept": "application/json"}), 404, PAGE_POLICY),
    ("the website's 422 page", lambda c: c.get("/lists/rif-whr", params={"as_of": "0001-01-01"}, headers=HTML), 422, PAGE_POLICY),
    ("the website's CSV", lambda c: c.get("/lists/rif-whr/ratings.csv"), 200, PAGE_POLICY),
    ("the contract", lambda c: c.get("/openapi.json"), 200, DATA_POLICY),
    ("a documentation asset", lambda c: c.get("/docs-assets/swagger-ui.css"), 200, DATA_POLICY),
    ("the metrics", lambda c: c.get("/metrics"), 200, DATA_POLICY),
]


def _assert_secured(response: httpx.Response, status: int, policy: str) -> None:
    assert response.status_code == status, (response.status_code, response.text[:300])
    assert response.headers["content-security-policy"] == policy
    for name, value in OTHER_HEADERS.items():
        assert response.headers[name] == value, name
    assert len(response.headers.get_list("content-security-policy")) == 1


@pytest.fixture
def rated(client: TestClient) -> TestClient:
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    recompute_now(client)
    return client


@pytest.mark.parametrize(("what", "send", "status", "policy"), ANSWERS, ids=[answer[0] for answer in ANSWERS])
def test_every_answer_carries_the_security_headers(rated: TestClient, what: str, send: Send, status: int, policy: str):
    _assert_secured(send(rated), status, policy)


def test_the_500_of_an_unexpected_error_carries_them_too():
    """Starlette's outermost middleware answers it, outside every middleware of the application."""
    from app.main import create_app

    broken = create_app(start_worker=False)

    def fails() -> None:
        raise RuntimeError("a bug")

    broken.add_api_route("/v1/fails", fails, include_in_schema=False)
    with TestClient(broken, raise_server_exceptions=False) as client:
        response = client.get("/v1/fails")
    _assert_secured(response, 500, DATA_POLICY)
    assert response.json()["status"] == 500


def test_a_cors_preflight_carries_them_too():
    from app.main import create_app
    from app.settings import Settings

    with TestClient(create_app(Settings(cors_origins=["https://site.example"]), start_worker=False)) as client:
        preflight = client.options(
            "/v1/rating-lists", headers={"Origin": "https://site.example", "Access-Control-Request-Method": "GET"}
        )
    _assert_secured(preflight, 200, DATA_POLICY)
    assert preflight.headers["access-control-allow-origin"] == "https://site.example"


def _inline(page: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.DOTALL)


def _sha256(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


@pytest.mark.parametrize("path", ["/docs", "/docs/oauth2-redirect", "/redoc"])
def test_each_documentation_page_allows_what_it_runs_and_nothing_else(client: TestClient, path: str):
    """Its scripts from this site and its own inline script by hash, never an inline script
    otherwise; ReDoc writes its styles as it renders, so it alone takes inline styles. (That the
    pages work under these policies in a browser: tests/web/test_website_browser.py.)"""
    response = client.get(path)
    assert response.status_code == 200 and {name: response.headers[name] for name in OTHER_HEADERS} == OTHER_HEADERS
    directives = dict(part.strip().split(" ", 1) for part in response.headers["content-security-policy"].split(";"))
    assert directives["default-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert directives["script-src"] == " ".join(["'self'", *map(_sha256, _inline(response.text, "script"))])
    assert "unsafe" not in directives["script-src"] and "unsafe-eval" not in json.dumps(directives)
    if path == "/redoc":
        assert directives["style-src"] == "'self' 'unsafe-inline'"
    else:
        assert directives["style-src"] == " ".join(["'self'", *map(_sha256, _inline(response.text, "style"))])
    assert directives["connect-src"] == "'self'" and directives["img-src"] == "'self' data:"


@pytest.fixture
def live_rated(rated: TestClient) -> Iterator[httpx.Client]:
    """A live server on the stored tournament and its snapshot."""
    with running_server() as server, httpx.Client(base_url=server.url) as client:
        yield client


@pytest.mark.slow
def test_every_answer_carries_them_from_a_live_server(live_rated: httpx.Client):
    for what, send, status, policy in ANSWERS:
        response = send(live_rated)
        assert response.status_code == status, what
        assert response.headers["content-security-policy"] == policy, what
        assert {name: response.headers.get(name) for name in OTHER_HEADERS} == OTHER_HEADERS, what

    # A chunked body over the limit, which the middleware counts as it reads it.
    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b" " * 65536

    chunked = live_rated.post("/v1/calc/whr", content=chunks(), headers=JSON)
    _assert_secured(chunked, 413, DATA_POLICY)
    # A HEAD of an unknown path: the headers without a body.
    head = live_rated.head("/nope")
    _assert_secured(head, 404, DATA_POLICY)
