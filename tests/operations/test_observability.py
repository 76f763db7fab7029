"""What an operator watches (issue 27 item 4): `/metrics` in Prometheus's text format (requests by
route template and status with latency histograms, jobs by list and outcome with durations, the
connection pool), liveness and readiness apart, and every job's claim, end and failure logged as
JSON with its timings."""

import io
import json
import logging
from collections.abc import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine

from app.api import health
from app.recompute import compute
from app.recompute.jobs import run_pending_jobs
from tests.helpers import AUTH, recompute_now, tournament_body


def samples(client, name: str) -> dict[tuple[tuple[str, str], ...], float]:  # type: ignore[no-untyped-def]
    """The samples of one metric on /metrics, by their sorted labels."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=")
    found = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] = sample.value
    return found


def test_requests_are_counted_by_route_template_and_status(client):
    counted = ("method", "GET"), ("route", "/v1/players/{player_id}"), ("status", "404")
    before = samples(client, "rating_http_requests_total").get(counted, 0.0)
    for player_id in ("nobody-1", "nobody-2", "nobody-3"):
        assert client.get(f"/v1/players/{player_id}").status_code == 404
    after = samples(client, "rating_http_requests_total")
    assert after[counted] == before + 3  # one series for the three paths: the template, not the path
    assert not any(dict(labels)["route"].startswith("/v1/players/nobody") for labels in after)
    assert client.get("/no/such/page").status_code == 404
    assert samples(client, "rating_http_requests_total")[("method", "GET"), ("route", "unmatched"), ("status", "404")] >= 1
    latencies = samples(client, "rating_http_request_duration_seconds_count")
    assert latencies[("method", "GET"), ("route", "/v1/players/{player_id}")] >= 3
    buckets = samples(client, "rating_http_request_duration_seconds_bucket")
    assert buckets[("le", "+Inf"), ("method", "GET"), ("route", "/v1/players/{player_id}")] >= 3


def test_a_conditional_read_answered_before_routing_is_counted_under_its_route(client):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client)
    first = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"})
    counted = ("method", "GET"), ("route", "/v1/rating-lists/{list_id}/ratings"), ("status", "304")
    before = samples(client, "rating_http_requests_total").get(counted, 0.0)
    again = client.get(
        "/v1/rating-lists/rif-whr/ratings", params={"status": "all"}, headers={"If-None-Match": first.headers["etag"]}
    )
    assert again.status_code == 304
    assert samples(client, "rating_http_requests_total")[counted] == before + 1


def test_jobs_are_counted_by_list_and_outcome_with_durations(client, monkeypatch):
    succeeded = ("list", "rif-whr"), ("outcome", "succeeded")
    failed = ("list", "rif-whr"), ("outcome", "failed")
    before = samples(client, "rating_jobs_total")
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    recompute_now(client)

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the computation broke")

    monkeypatch.setattr(compute, "compute_snapshot", broken)
    assert client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202
    run_pending_jobs()
    after = samples(client, "rating_jobs_total")
    assert after[succeeded] >= before.get(succeeded, 0.0) + 1
    assert after[failed] == before.get(failed, 0.0) + 1
    durations = samples(client, "rating_job_duration_seconds_sum")
    assert durations[succeeded] > 0
    assert samples(client, "rating_job_queued_seconds_count")[(("list", "rif-whr"),)] >= 2


def test_the_connection_pool_is_reported(client):
    client.get("/v1/rating-lists")
    for name in ("rating_db_pool_size", "rating_db_pool_checked_out", "rating_db_pool_idle", "rating_db_pool_overflow"):
        assert () in samples(client, name), name
    assert samples(client, "rating_db_pool_size")[()] >= 1
    assert samples(client, "rating_db_pool_checked_out")[()] == 0  # /metrics reads the pool without a connection


@pytest.fixture
def job_log() -> Iterator[io.StringIO]:
    """What the app's JSON log handler writes for the jobs, at INFO."""
    handler = logging.getLogger("app").handlers[0]
    stream = io.StringIO()
    jobs = logging.getLogger("app.jobs")
    previous_stream, previous_level = handler.setStream(stream), jobs.level  # type: ignore[attr-defined]
    jobs.setLevel(logging.INFO)
    yield stream
    handler.setStream(previous_stream)  # type: ignore[attr-defined]
    jobs.setLevel(previous_level)


def test_every_job_logs_its_claim_and_its_end_as_json_with_timings(client, monkeypatch, job_log):
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    job = recompute_now(client)

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the computation broke")

    monkeypatch.setattr(compute, "compute_snapshot", broken)
    failing = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).json()["job_id"]
    run_pending_jobs()
    lines = [json.loads(line) for line in job_log.getvalue().splitlines()]
    events = [(line["event"], line["job_id"]) for line in lines if line.get("name") == "app.jobs"]
    assert events == [("claimed", job["id"]), ("finished", job["id"]), ("claimed", failing), ("failed", failing)]
    claimed, finished, _, failure = (line for line in lines if line.get("name") == "app.jobs")
    assert claimed["list_id"] == "rif-whr" and claimed["queued_s"] >= 0 and claimed["worker"]
    assert (finished["players"], finished["games"]) == (job["result"]["players"], job["result"]["games"])
    assert all(finished[key] >= 0 for key in ("read_s", "compute_s", "write_s", "duration_s"))
    assert finished["duration_s"] >= finished["compute_s"]
    assert failure["levelname"] == "ERROR" and "the computation broke" in failure["error"] and failure["duration_s"] >= 0


def test_readiness_checks_the_migrations_while_liveness_does_not(client, monkeypatch, tmp_path):
    ready = client.get("/v1/health/ready")
    assert ready.status_code == 200, ready.text
    assert ready.json()["status"] == "ready" and ready.json()["revision"]
    # A reachable database nobody has migrated: alive, not ready.
    empty = create_engine(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    monkeypatch.setattr(health, "get_engine", lambda: empty)
    assert client.get("/v1/health").status_code == 200
    not_ready = client.get("/v1/health/ready")
    assert not_ready.status_code == 503
    assert not_ready.headers["retry-after"] == "5"
    assert "no revision" in not_ready.json()["detail"] and "python -m app.cli migrate" in not_ready.json()["detail"]
    # An unreachable one: neither.
    unreachable = create_engine(f"sqlite:///{tmp_path / 'missing-directory' / 'db.sqlite3'}")
    monkeypatch.setattr(health, "get_engine", lambda: unreachable)
    assert client.get("/v1/health").status_code == 503
    assert "not reachable" in client.get("/v1/health/ready").json()["detail"]
