"""A body that is not JSON, or not declared as JSON, is told so in words: 400 or 415 problem+json,
never a 422 pointing at a character offset as if it were a field (issue 23 item 8)."""

import pytest

from tests.helpers import AUTH, tournament_body
from tests.live_server import running_server


@pytest.mark.parametrize(
    ("body", "where"),
    [(b'{"id": "x",', "character 11"), (b"", None), (b"not json at all", "character 0"), (b'{"id": "x"} trailing', "character")],
)
def test_malformed_json_is_a_400_in_words(client, body, where):
    response = client.post("/v1/tournaments", content=body, headers={**AUTH, "Content-Type": "application/json"})
    if not body:
        assert response.status_code == 422  # an empty body is a missing one: the field errors say what is required
        return
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["detail"].startswith("The body is not valid JSON: ") and where in problem["detail"]
    assert [error["pointer"] for error in problem["errors"]] == ["/"]


def test_a_body_without_content_type_is_a_400_and_another_media_type_a_415(client):
    import json

    body = json.dumps(tournament_body()).encode()
    missing = client.post("/v1/tournaments", content=body, headers=AUTH)
    assert missing.status_code == 400 and missing.json()["errors"][0]["pointer"] == "header:content-type"
    other = client.post("/v1/tournaments", content=body, headers={**AUTH, "Content-Type": "text/csv"})
    assert other.status_code == 415 and "'text/csv'" in other.json()["detail"]
    assert client.get("/v1/tournaments/T1").status_code == 404
    # Operations without a body need no Content-Type.
    assert client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202


@pytest.mark.slow
def test_a_live_server_says_the_same():
    import httpx

    with running_server() as server:
        broken = httpx.post(
            f"{server.url}/v1/tournaments", content=b"{", headers={**AUTH, "Content-Type": "application/json"}, timeout=30
        )
        assert broken.status_code == 400 and "not valid JSON" in broken.json()["detail"]
        bare = httpx.post(f"{server.url}/v1/players", content=b'{"id": "p"}', headers=AUTH, timeout=30)
        assert bare.status_code == 400
