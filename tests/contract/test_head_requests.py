"""HEAD answers every resource that answers GET (issue 44 item 6; RFC 9110 9.3.2): the GET's status
and headers, no body; a 405 lists HEAD beside GET."""

from fastapi.testclient import TestClient

from tests.helpers import AUTH, recompute_now, tournament_body

PATHS = (
    "/v1/health",
    "/v1/rating-lists",
    "/v1/rating-lists/rif-whr",
    "/v1/rating-lists/rif-whr/ratings?status=all",
    "/v1/players/p1",
    "/v1/players/p1/history",
    "/v1/tournaments/T1",
    "/v1/tournaments?limit=5",
    "/",
    "/players/p1",
    "/tournaments/T1",
    "/lists/rif-whr",
)


def test_head_is_the_get_without_its_body(client: TestClient) -> None:
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    recompute_now(client)
    for path in PATHS:
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"", path
        for name in ("content-type", "content-length", "etag", "cache-control", "content-security-policy"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)


def test_head_of_nothing_is_a_404_and_a_405_names_head(client: TestClient) -> None:
    assert client.head("/v1/tournaments/nope").status_code == 404
    refused = client.delete("/v1/rating-lists")
    assert refused.status_code == 405 and "HEAD" in refused.headers["allow"].split(", ")
    assert client.head("/v1/rating-lists/rif-whr/recompute").status_code == 405
