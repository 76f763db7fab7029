import logging

from tests.helpers import AUTH, tournament_body


def test_writes_need_a_key(client):
    response = client.post("/v1/tournaments", json=tournament_body())
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"].startswith("application/problem+json")


def test_wrong_key_is_a_401_with_an_invalid_token_challenge(client):
    """RFC 6750 3.1: a key presented and refused is a 401 (invalid_token); a 403 is for a valid key
    without the right."""
    response = client.post("/v1/tournaments", json=tournament_body(), headers={"Authorization": "Bearer secret-kez"})
    assert response.status_code == 401 and response.json()["type"].endswith("/invalid-key")
    assert response.headers["www-authenticate"] == 'Bearer error="invalid_token", error_description="the key is unknown"'
    assert client.post("/v1/players", json={"id": "x"}, headers={"Authorization": "Bearer "}).status_code in (401, 403)
    assert client.patch("/v1/players/x", json={}, headers={"Authorization": "Basic c2VjcmV0LWtleQ=="}).status_code == 401


def test_every_configured_key_works_and_reads_are_open(client):
    assert client.post("/v1/players", json={"id": "a"}, headers={"Authorization": "Bearer second-secret"}).status_code == 201
    assert client.get("/v1/players/a").status_code == 200
    assert client.get("/v1/tournaments").status_code == 200


def test_secret_never_logged(client, caplog):
    with caplog.at_level(logging.DEBUG):
        client.post("/v1/players", json={"id": "b"}, headers=AUTH)
        client.post("/v1/players", json={"id": "c"}, headers={"Authorization": "Bearer wrong-secret-value"})
    logged = " ".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert "secret-key" not in logged and "wrong-secret-value" not in logged


def test_idempotent_replay_returns_the_first_response(client):
    headers = {**AUTH, "Idempotency-Key": "abc-1"}
    first = client.post("/v1/tournaments", json=tournament_body(), headers=headers)
    assert first.status_code == 201
    # A changed player in between: the replay still answers with the first response.
    client.patch("/v1/players/p1", json={"name": "Changed"}, headers=AUTH)
    replay = client.post("/v1/tournaments", json=tournament_body(), headers=headers)
    assert replay.status_code == 201
    assert replay.content == first.content  # the same bytes: its keys in their order too (PostgreSQL's jsonb reordered them)
    assert replay.headers["Location"] == "/v1/tournaments/T1"
    # Without the key, the same body is a duplicate.
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 409


def test_same_key_other_body_is_422(client):
    headers = {**AUTH, "Idempotency-Key": "abc-2"}
    assert client.post("/v1/tournaments", json=tournament_body(), headers=headers).status_code == 201
    response = client.post("/v1/tournaments", json=tournament_body(name="Other"), headers=headers)
    assert response.status_code == 422
    assert "Idempotency-Key" in response.json()["detail"]


def test_failed_request_does_not_consume_the_key(client):
    headers = {**AUTH, "Idempotency-Key": "abc-3"}
    bad = tournament_body()
    bad["games"][0]["white"] = "ghost"
    assert client.post("/v1/tournaments", json=bad, headers=headers).status_code == 422
    assert client.post("/v1/tournaments", json=tournament_body(), headers=headers).status_code == 201


def test_cors_origins_from_settings():
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings

    app = create_app(Settings(cors_origins="https://renju.example"), start_worker=False)
    with TestClient(app) as client:
        response = client.options(
            "/v1/tournaments",
            headers={"Origin": "https://renju.example", "Access-Control-Request-Method": "POST"},
        )
        assert response.headers["access-control-allow-origin"] == "https://renju.example"
        # A correction from a browser: DELETE, PUT and If-Match are allowed, ETag readable.
        correction = client.options(
            "/v1/tournaments/T1",
            headers={
                "Origin": "https://renju.example",
                "Access-Control-Request-Method": "DELETE",
                "Access-Control-Request-Headers": "if-match, authorization",
            },
        )
        assert correction.status_code == 200, correction.text
        assert "DELETE" in correction.headers["access-control-allow-methods"]
        assert "if-match" in correction.headers["access-control-allow-headers"].lower()
        read = client.get("/v1/tournaments", headers={"Origin": "https://renju.example"})
        assert "etag" in read.headers["access-control-expose-headers"].lower()
        other = client.get("/v1/tournaments", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
