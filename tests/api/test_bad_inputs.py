"""Inputs that once gave a 500 (issue 8): each is a 4xx problem+json that points at what is wrong,
on SQLite and PostgreSQL alike; a failed commit is never a 2xx; a 405 says which methods exist."""

import json

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from tests.helpers import AUTH, tournament_body

NUL = "a\x00b"


def _with_nul_name() -> dict:
    return tournament_body(name=NUL)


def _with_nul_player() -> dict:
    body = tournament_body()
    body["players"][0]["surname"] = NUL
    return body


def _with_nul_round() -> dict:
    body = tournament_body()
    body["games"][2]["round"] = NUL
    return body


# (method, path, JSON body or raw text, expected status, expected pointer)
BAD_INPUTS = [
    ("GET", "/v1/tournaments?offset=9223372036854775808", None, 422, "query:offset"),
    ("GET", "/v1/players?offset=9223372036854775808", None, 422, "query:offset"),
    ("GET", "/v1/jobs?offset=9223372036854775808", None, 422, "query:offset"),
    ("GET", "/v1/rating-lists/rif-whr/snapshots?offset=9223372036854775808", None, 422, "query:offset"),
    ("GET", "/v1/rating-lists/rif-whr/ratings?offset=9223372036854775808", None, 422, "query:offset"),
    ("GET", "/v1/jobs/2147483648", None, 422, "path:job_id"),
    ("GET", "/v1/jobs/99999999999999999999999", None, 422, "path:job_id"),
    ("GET", "/v1/rating-lists/rif-whr/snapshots/2147483648", None, 422, "path:snapshot_id"),
    ("GET", "/v1/rating-lists/rif-whr/ratings?snapshot_id=2147483648", None, 422, "query:snapshot_id"),
    ("GET", "/v1/rating-lists/rif-whr/ratings?as_of=0001-01-01", None, 422, "query:as_of"),
    ("GET", "/v1/rating-lists/rif-whr/ratings?as_of=9999-12-31", None, 422, "query:as_of"),
    ("GET", "/v1/tournaments?year=99999999999", None, 422, "query:year"),
    ("POST", "/v1/tournaments", _with_nul_name(), 422, "/name"),
    ("POST", "/v1/tournaments", _with_nul_player(), 422, "/players/0/surname"),
    ("POST", "/v1/tournaments", _with_nul_round(), 422, "/games/2/round"),
    ("POST", "/v1/tournaments", tournament_body(start="0001-01-01"), 422, "/start"),
    ("POST", "/v1/tournaments", tournament_body(time_control_minutes=2**40), 422, "/time_control_minutes"),
    ("POST", "/v1/tournaments", tournament_body(board_size=2**40), 422, "/board_size"),
    ("PUT", "/v1/tournaments/T1", tournament_body(city=NUL), 422, "/city"),
    ("POST", "/v1/players", {"id": "x", "name": NUL}, 422, "/name"),
    ("PATCH", "/v1/players/x", {"city": NUL}, 422, "/city"),
    ("GET", "/v1/players?q=a%00b", None, 422, "query:q"),
    ("GET", "/v1/players/a%00b", None, 422, "path:player_id"),
    ("GET", "/v1/tournaments/a%00b", None, 422, "path:tournament_id"),
    ("GET", "/v1/rating-lists/a%00b/ratings", None, 422, "path:list_id"),
    ("GET", "/v1/players/p1/history?list=a%00b", None, 422, "query:list"),
    ("PATCH", "/v1/rating-lists/rif-whr/params", '{"virtual_rating": NaN}', 422, "/virtual_rating"),
    ("PATCH", "/v1/rating-lists/rif-whr/params", '{"w2": Infinity}', 422, "/w2"),
    ("POST", "/v1/calc/rif-elo/game", '{"rating": NaN, "opponent_rating": 2200, "score": 1}', 422, "/rating"),
    ("POST", "/v1/calc/whr", '{"games": [], "params": {"virtual_rating": -Infinity}}', 422, "/params/virtual_rating"),
    (
        "POST",
        "/v1/calc/whr",
        {"games": [{"black": "a", "white": "b", "result": "B", "date": "0001-01-01"}]},
        422,
        "/games/0/date",
    ),
    (
        "PUT",
        "/v1/rating-lists/rif-elo/seeds",
        {"seeds": [{"player_id": "p1", "rating": 2000, "as_of": "0001-01-01"}]},
        422,
        "/seeds/0/as_of",
    ),
    ("POST", "/v1/tournaments", '{"id": "T9", "name": "a\\u0000b"}', 422, "/name"),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "pointer"),
    BAD_INPUTS,
    ids=[f"{m} {p} {s}" for m, p, _, s, s2 in BAD_INPUTS for s in [str(s2)]],
)
def test_bad_input_is_a_4xx_problem_with_a_pointer(client, method, path, body, status, pointer):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    client.post("/v1/players", json={"id": "x"}, headers=AUTH)
    if isinstance(body, str):
        response = client.request(method, path, content=body, headers={**AUTH, "Content-Type": "application/json"})
    else:
        response = client.request(method, path, json=body, headers=AUTH)
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["status"] == status
    assert pointer in [error["pointer"] for error in problem.get("errors", [])], problem


def test_nothing_of_a_rejected_submission_is_stored(client):
    assert client.post("/v1/tournaments", json=_with_nul_player(), headers=AUTH).status_code == 422
    assert client.get("/v1/tournaments/T1").status_code == 404
    assert client.get("/v1/players/p2").status_code == 404


def test_405_says_which_methods_are_allowed(client):
    response = client.delete("/v1/tournaments")
    assert response.status_code == 405
    assert response.headers["content-type"].startswith("application/problem+json")
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "POST"}


def test_a_failed_commit_is_a_problem_never_a_2xx(client, monkeypatch):
    def failing_commit(self: Session) -> None:
        raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(Session, "commit", failing_commit)
    for method, path, body in (
        ("POST", "/v1/tournaments", tournament_body()),
        ("POST", "/v1/players", {"id": "late"}),
        ("POST", "/v1/rating-lists/rif-whr/recompute", None),
    ):
        response = client.request(method, path, json=body, headers=AUTH)
        assert response.status_code == 503, (path, response.text[:300])
        assert response.headers["retry-after"]
    monkeypatch.undo()
    assert client.get("/v1/tournaments/T1").status_code == 404
    assert client.get("/v1/players/late").status_code == 404
    assert client.get("/v1/jobs").json()["total"] == 0


def test_nan_never_reaches_a_stored_list(client):
    before = client.get("/v1/rating-lists/rif-whr").json()["params"]
    response = client.patch(
        "/v1/rating-lists/rif-whr/params",
        content=json.dumps({"w2": float("nan")}),
        headers={**AUTH, "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    assert client.get("/v1/rating-lists/rif-whr").json()["params"] == before
