"""A tournament's changes made against the version read (issue 23, "exactly one wins";
docs/decisions.md 7.32): its ETag names its version, If-Match makes a correction, withdrawal or
restore conditional (412 when stale), and every refused attempt is in the audit. Through HTTP on the
suite's database; the race itself, against a live server with real threads, is in
tests/services/test_exactly_one_wins.py."""

from fastapi.testclient import TestClient

from tests.helpers import AUTH, tournament_body

OTHER = {"Authorization": "Bearer second-secret"}  # RATING_API_KEYS' second key, "other"


def _etag(client: TestClient, tournament_id: str = "T1") -> str:
    response = client.get(f"/v1/tournaments/{tournament_id}")
    assert response.status_code == 200
    return response.headers["ETag"]


def test_a_change_against_the_version_read_is_made_and_one_against_an_older_is_412(client: TestClient) -> None:
    submitted = client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH)
    first = _etag(client)
    assert first == '"v1"' and submitted.status_code == 201

    corrected = client.put(
        "/v1/tournaments/T1", json=tournament_body("T1", name="Corrected"), headers={**AUTH, "If-Match": first}
    )
    assert corrected.status_code == 200 and corrected.headers["ETag"] == '"v2"' == _etag(client)

    stale = client.delete("/v1/tournaments/T1", params={"reason": "twice"}, headers={**OTHER, "If-Match": first})
    assert stale.status_code == 412 and stale.headers["content-type"] == "application/problem+json"
    problem = stale.json()
    assert problem["type"].endswith("/precondition-failed") and problem["status"] == 412
    assert '"v2"' in problem["detail"] and "corrected by 'tester'" in problem["detail"]
    assert problem["errors"] == [{"pointer": "header:If-Match", "detail": 'the tournament\'s version is "v2"'}]
    read = client.get("/v1/tournaments/T1").json()
    assert read["withdrawn_at"] is None and read["name"] == "Corrected", "nothing changed"
    assert _etag(client) == '"v2"', "a refused attempt is no version"

    # The refused attempt is in the audit, after the change that made it stale.
    audit = client.get("/v1/audit", headers=AUTH).json()["items"]
    assert [(r["kind"], r["actor"]) for r in audit[:2]] == [("refused", "other"), ("corrected", "tester")]
    assert audit[0]["summary"].startswith("withdrawal refused (412): Tournament 'T1' has changed")
    revisions = client.get("/v1/tournaments/T1/revisions").json()["items"]
    assert [r["kind"] for r in revisions] == ["submitted", "corrected", "refused"]
    assert client.get("/v1/tournaments/T1/revisions/3").json()["previous"]["name"] == "Corrected"

    # The current version, a list of versions or * is met; a weak tag never is (RFC 9110 13.1.1).
    weak = client.delete("/v1/tournaments/T1", params={"reason": "twice"}, headers={**AUTH, "If-Match": 'W/"v2"'})
    assert weak.status_code == 412
    assert _etag(client) == '"v2"'
    withdrawn = client.delete("/v1/tournaments/T1", params={"reason": "twice"}, headers={**AUTH, "If-Match": '"v1", "v2"'})
    # A version is its revision's number: the two refused attempts took numbers 3 and 4.
    assert withdrawn.status_code == 200 and withdrawn.headers["ETag"] == '"v5"' == _etag(client)
    restored = client.post("/v1/tournaments/T1/restore", headers={**AUTH, "If-Match": "*"})
    assert restored.status_code == 200 and restored.headers["ETag"] == '"v6"'


def test_changes_without_if_match_still_work_and_a_409_is_audited_too(client: TestClient) -> None:
    client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH)
    assert client.put("/v1/tournaments/T1", json=tournament_body("T1", name="Renamed"), headers=AUTH).status_code == 200
    assert client.delete("/v1/tournaments/T1", params={"reason": "twice"}, headers=AUTH).status_code == 200
    again = client.delete("/v1/tournaments/T1", params={"reason": "twice"}, headers=OTHER)
    assert again.status_code == 409
    refused = client.get("/v1/audit", params={"kind": "refused"}, headers=AUTH).json()["items"]
    assert [(r["subject_id"], r["actor"]) for r in refused] == [("T1", "other")]
    assert refused[0]["summary"].startswith("withdrawal refused (409): Tournament 'T1' was withdrawn already")
    assert _etag(client) == '"v3"'


def test_if_match_on_a_tournament_that_does_not_exist_is_a_404_and_records_nothing(client: TestClient) -> None:
    missing = client.post("/v1/tournaments/NOPE/restore", headers={**AUTH, "If-Match": '"v1"'})
    assert missing.status_code == 404
    assert client.get("/v1/audit", headers=AUTH).json()["total"] == 0


def test_the_contract_declares_the_etag_if_match_and_412(app) -> None:  # type: ignore[no-untyped-def]
    paths = app.openapi()["paths"]
    assert "ETag" in paths["/v1/tournaments/{tournament_id}"]["get"]["responses"]["200"]["headers"]
    for method, path in (
        ("put", "/v1/tournaments/{tournament_id}"),
        ("delete", "/v1/tournaments/{tournament_id}"),
        ("post", "/v1/tournaments/{tournament_id}/restore"),
    ):
        operation = paths[path][method]
        assert "if-match" in [p["name"] for p in operation["parameters"] if p["in"] == "header"], (method, path)
        assert operation["responses"]["412"]["content"]["application/problem+json"]["schema"] == {
            "$ref": "#/components/schemas/Problem"
        }
        assert "ETag" in operation["responses"]["200"]["headers"]
