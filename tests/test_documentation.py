"""The contract declares every answer, and its documentation works with no network."""

import json
import re
import subprocess
import sys

from app.api.examples import REAL_TOURNAMENT, SUBMIT_TOURNAMENT_EXAMPLES
from app.problems import PROBLEM_MEDIA_TYPE
from app.schemas.tournaments import TournamentIn
from tests.conftest import AUTH, RENJU_CN

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}


def test_docs_and_redoc_load_every_asset_from_the_app_itself(client):
    for page in ("/docs", "/redoc"):
        response = client.get(page)
        assert response.status_code == 200
        html = response.text
        assets = re.findall(r'(?:src|href)\s*=\s*["\']([^"\']+)["\']', html) + re.findall(r"url:\s*'([^']+)'", html)
        assert assets, f"{page} references no asset"
        for asset in assets:
            assert asset.startswith("/"), f"{page} loads {asset} from outside the app"
            fetched = client.get(asset)
            assert fetched.status_code == 200, f"{page}: {asset} -> {fetched.status_code}"
            assert len(fetched.content) > 1000 or asset.endswith("oauth2-redirect"), asset
        assert "cdn" not in html.lower()


def test_every_error_answer_is_one_shared_problem_component(app):
    document = app.openapi()
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas
    assert set(schemas["Problem"]["required"]) == {"type", "title", "status", "detail"}
    assert schemas["ProblemFieldError"]["required"] == ["pointer", "detail"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            for status in ("500", "503"):
                assert status in responses, (method, path, status)
            for status, response in responses.items():
                if int(status) >= 400:
                    assert response["content"] == {PROBLEM_MEDIA_TYPE: {"schema": PROBLEM_REF}}, (method, path, status)
            if operation.get("security"):
                assert {"401", "403"} <= responses.keys(), (method, path)
            if "{" in path:
                assert "404" in responses, (method, path)
            if "requestBody" in operation:
                assert {"413", "422"} <= responses.keys(), (method, path)


def test_declared_problem_shapes_match_what_the_service_sends(client):
    invalid = client.post("/v1/tournaments", json={"id": "x"}, headers=AUTH)
    assert invalid.status_code == 422 and invalid.headers["content-type"] == PROBLEM_MEDIA_TYPE
    assert {"type", "title", "status", "detail", "errors"} <= invalid.json().keys()
    assert all(set(error) == {"pointer", "detail"} for error in invalid.json()["errors"])
    unauthorised = client.post("/v1/players", json={"id": "p1"})
    assert unauthorised.status_code == 401 and unauthorised.headers["www-authenticate"] == "Bearer"
    missing = client.get("/v1/players/nobody")
    assert missing.status_code == 404 and missing.json()["status"] == 404


def test_method_not_allowed_says_which_methods_are(client):
    response = client.delete("/v1/players/p1")
    assert response.status_code == 405
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {"GET", "PATCH"}
    assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE


def test_score_is_a_bounded_number_in_steps_of_a_half(app, client):
    score = app.openapi()["components"]["schemas"]["EloGameIn"]["properties"]["score"]
    assert (score["type"], score["minimum"], score["maximum"], score["multipleOf"]) == ("number", 0, 1, 0.5)
    for value in (0, 1, 0.5, 1.0):
        answer = client.post("/v1/calc/rif-elo/game", json={"rating": 2300, "opponent_rating": 2200, "score": value})
        assert answer.status_code == 200, answer.text
    for value in (0.7, -0.5, 1.5):
        answer = client.post("/v1/calc/rif-elo/game", json={"rating": 2300, "opponent_rating": 2200, "score": value})
        assert answer.status_code == 422 and answer.json()["errors"][0]["pointer"] == "/score", value


def test_rif_1995_needs_end_or_before_1996_as_its_description_says(app, client):
    schema = app.openapi()["components"]["schemas"]["Rif1995TournamentIn"]
    assert "Give `end` or `before_1996`" in schema["description"]
    body = {"players": [{"id": "a", "rating": 2000, "status": "official"}], "games": []}
    rejected = client.post("/v1/calc/rif-1995/tournament", json=body)
    assert rejected.status_code == 422 and rejected.json()["errors"][0]["pointer"] == "/end"
    assert client.post("/v1/calc/rif-1995/tournament", json={**body, "end": "1995-08-06"}).status_code == 200


def test_the_tournament_example_is_real_data_and_valid(app):
    printed = subprocess.run(
        [sys.executable, "-m", "app.cli", "submission", str(RENJU_CN), "--tournament", "T0017"],
        capture_output=True, text=True, check=True,
    ).stdout
    real = json.loads(printed)
    for field in ("id", "name", "category", "start", "end", "games"):
        assert REAL_TOURNAMENT[field] == real[field], field
    assert [player["id"] for player in REAL_TOURNAMENT["players"]] == [player["id"] for player in real["players"]]
    for example in SUBMIT_TOURNAMENT_EXAMPLES.values():
        TournamentIn.model_validate(example["value"])
    operation = app.openapi()["paths"]["/v1/tournaments"]["post"]
    assert operation["requestBody"]["content"]["application/json"]["examples"]["real-2017"]["value"] == REAL_TOURNAMENT


def test_database_ids_out_of_range_are_invalid_input_not_server_errors(client, app):
    for job_id in ("-81181601328073470377984", "0", str(2**31), str(2**63)):
        answer = client.get(f"/v1/jobs/{job_id}")
        assert answer.status_code == 422, (job_id, answer.text)
        assert answer.json()["errors"][0]["pointer"] == "path:job_id"
    assert client.get("/v1/jobs/99").status_code == 404
    schema = app.openapi()["paths"]["/v1/jobs/{job_id}"]["get"]["parameters"][0]["schema"]
    assert (schema["minimum"], schema["maximum"]) == (1, 2**31 - 1)


def test_an_offset_beyond_64_bits_is_invalid_input(client):
    for path in ("/v1/players", "/v1/tournaments", "/v1/rating-lists/rif-whr/snapshots"):
        answer = client.get(path, params={"offset": 10**20})
        assert answer.status_code == 422, (path, answer.text)
        assert answer.json()["errors"][0]["pointer"] == "query:offset"


def test_the_longest_idempotency_key_is_stored_on_every_database(client):
    key = "k" * 200
    first = client.post("/v1/tournaments", json=_small_tournament("idem-long"), headers={**AUTH, "Idempotency-Key": key})
    assert first.status_code == 201, first.text
    replay = client.post("/v1/tournaments", json=_small_tournament("idem-long"), headers={**AUTH, "Idempotency-Key": key})
    assert replay.status_code == 201 and replay.json() == first.json()


def _small_tournament(tournament_id: str) -> dict:
    example = SUBMIT_TOURNAMENT_EXAMPLES["minimal"]["value"]
    return {**example, "id": tournament_id}
