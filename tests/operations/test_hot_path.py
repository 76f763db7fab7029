"""What the hot-path shortcuts must keep: the health check still sees a dead database, and request
ids are echoed and logged on the structured access line."""

import io
import json
import logging

import pytest
from sqlalchemy import create_engine

from app.api import health
from app.db import get_engine


def test_health_answers_503_problem_when_the_database_is_unreachable(client, monkeypatch, tmp_path):
    unreachable = create_engine(f"sqlite:///{tmp_path / 'missing-directory' / 'db.sqlite3'}")
    monkeypatch.setattr(health, "get_engine", lambda: unreachable)
    response = client.get("/v1/health")
    assert response.status_code == 503
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "not reachable: OperationalError" in response.json()["detail"]
    # The cached answer belongs to that engine: the real database is checked afresh.
    monkeypatch.setattr(health, "get_engine", get_engine)
    assert client.get("/v1/health").json()["status"] == "ok"


@pytest.fixture
def app_log_level():
    """Sets the app's log level for one test (the suite runs at WARNING), then puts it back."""
    logger = logging.getLogger("app")
    previous = logger.level
    yield logger.setLevel
    logger.setLevel(previous)


def test_request_id_is_echoed_and_logged_on_the_access_line(client, app_log_level):
    app_log_level(logging.INFO)
    # The app's own handler (JSON formatter, request-id filter), writing where the test can read.
    configured = logging.getLogger("app").handlers[0]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(configured.formatter)
    for record_filter in configured.filters:
        handler.addFilter(record_filter)
    logging.getLogger("app.access").addHandler(handler)
    try:
        response = client.get("/v1/health", headers={"X-Request-ID": "abc-123"})
        generated = client.get("/v1/health").headers["x-request-id"]
    finally:
        logging.getLogger("app.access").removeHandler(handler)
    assert response.headers["x-request-id"] == "abc-123"
    assert len(generated) == 32 and generated != "abc-123"
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    access = [line for line in lines if line["name"] == "app.access"]
    assert [line["request_id"] for line in access] == ["abc-123", generated]
    assert access[0] | {"duration_ms": 0} == access[0] | {
        "levelname": "INFO",
        "message": "request",
        "method": "GET",
        "path": "/v1/health",
        "status": 200,
        "duration_ms": 0,
    }
