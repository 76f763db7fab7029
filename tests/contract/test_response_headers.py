"""The headers the service sends are in the contract (issue 44 item 2), and the 201 of a submission
carries the ETag a client sends with its first correction."""

import json

from fastapi.testclient import TestClient

from tests.helpers import AUTH, ROOT, tournament_body

CONTRACT = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))


def _headers(path: str, method: str, status: str) -> set[str]:
    return set(CONTRACT["paths"][path][method]["responses"][status].get("headers", {}))


def test_a_submission_s_201_carries_its_version_and_a_correction_needs_no_read_first(client: TestClient) -> None:
    submitted = client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH)
    assert submitted.status_code == 201 and submitted.headers["etag"] == '"v1"'
    assert submitted.headers["location"] == "/v1/tournaments/T1"
    corrected = client.put("/v1/tournaments/T1", json=tournament_body("T1", name="Renamed"), headers={**AUTH, "If-Match": '"v1"'})
    assert corrected.status_code == 200 and corrected.headers["etag"] == '"v2"'
    assert _headers("/v1/tournaments", "post", "201") == {"Location", "ETag"}


def test_the_contract_names_every_header_sent() -> None:
    assert _headers("/v1/players", "post", "201") == {"Location"}
    assert _headers("/v1/rating-lists/{list_id}/recompute", "post", "202") == {"Location"}
    assert _headers("/v1/rating-lists/{list_id}/publications", "post", "201") == {"Location"}
    for path in ("/v1/rating-lists/{list_id}/ratings", "/v1/players/{player_id}/history"):
        assert _headers(path, "get", "200") == _headers(path, "get", "304") == {"ETag", "Cache-Control"}
    for method in ("put", "delete"):
        assert _headers("/v1/tournaments/{tournament_id}", method, "200") == {"ETag"}
    for path, operations in CONTRACT["paths"].items():
        for method, operation in operations.items():
            assert "Retry-After" in operation["responses"]["503"].get("headers", {}), (method, path)


def test_one_version_everywhere_and_the_changelog_says_what_it_changed() -> None:
    """The contract's version is the service's (app/version.py), recorded by every snapshot, and
    docs/changelog.md has its section."""
    from app.recompute.provenance import service_version
    from app.version import VERSION

    assert CONTRACT["info"]["version"] == VERSION == service_version()
    assert f"\n## {VERSION}\n" in (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
