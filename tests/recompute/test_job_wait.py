"""`GET /v1/jobs/{id}?wait=N` (long polling): the answer comes once the job has succeeded or failed,
woken by this process's worker the moment it ends the job, or by the request's own look at the
database when another process runs it; after N seconds it is the job as it then is. A waiting
request holds no database connection."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from app.recompute import jobs
from app.recompute.jobs import run_pending_jobs
from tests.helpers import AUTH, metric_sum, tournament_body
from tests.live_server import running_server


def _queued_job(client) -> int:  # type: ignore[no-untyped-def]
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201
    accepted = client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH)
    assert accepted.status_code == 202
    return accepted.json()["job_id"]


def test_a_wait_answers_once_this_processs_worker_has_ended_the_job(client, monkeypatch):
    job_id = _queued_job(client)
    # Only the worker's wake-up can end the wait before its 20 s: the request's own look is made rare.
    monkeypatch.setattr(jobs, "RECHECK_SECONDS", 60.0)
    answer, waited = _waited_while_this_process_runs_it(client, job_id)
    assert answer.status_code == 200 and answer.json()["status"] == "succeeded", answer.text
    assert answer.json()["snapshot_id"] is not None
    assert waited < 15  # woken, not timed out


def test_a_wait_answers_once_this_processs_worker_has_failed_the_job(client, monkeypatch):
    job_id = _queued_job(client)
    monkeypatch.setattr(jobs, "RECHECK_SECONDS", 60.0)

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(jobs.compute, "compute_snapshot", broken)
    answer, waited = _waited_while_this_process_runs_it(client, job_id)
    assert answer.status_code == 200 and answer.json()["status"] == "failed", answer.text
    assert "the engine broke" in answer.json()["error"]
    assert waited < 15  # woken, not timed out


def _waited_while_this_process_runs_it(client, job_id: int) -> tuple[httpx.Response, float]:  # type: ignore[no-untyped-def]
    """``GET /v1/jobs/{job_id}?wait=20`` while this process's worker runs the job half a second later;
    the answer and the seconds it took."""
    runner = threading.Timer(0.5, run_pending_jobs)
    started = time.monotonic()
    runner.start()
    try:
        answer = client.get(f"/v1/jobs/{job_id}", params={"wait": 20})
    finally:
        runner.join()
    return answer, time.monotonic() - started


@pytest.mark.slow
def test_a_wait_on_a_job_another_process_runs_answers_once_it_has_succeeded(client):
    job_id = _queued_job(client)
    with running_server() as server:  # no worker: this test's process runs the job
        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(httpx.get, f"{server.url}/v1/jobs/{job_id}", params={"wait": 20}, timeout=30)
            time.sleep(0.5)
            assert not waiting.done()
            # While it waits, the request holds no connection of the server's pool.
            assert metric_sum(server.url, "rating_db_pool_checked_out") == 0
            run_pending_jobs()
            answer = waiting.result()
    assert answer.status_code == 200 and answer.json()["status"] == "succeeded", answer.text
    assert answer.json() == client.get(f"/v1/jobs/{job_id}").json() | {"result": answer.json()["result"]}


def test_a_wait_that_runs_out_answers_the_job_as_it_is(client):
    job_id = _queued_job(client)
    started = time.monotonic()
    answer = client.get(f"/v1/jobs/{job_id}", params={"wait": 0.6})
    assert time.monotonic() - started >= 0.6
    assert answer.status_code == 200 and answer.json()["status"] == "queued"
    assert client.get(f"/v1/jobs/{job_id}").json()["status"] == "queued"  # (no wait: at once)


def test_a_wait_for_an_unknown_job_or_out_of_range_is_a_problem_at_once(client):
    job_id = _queued_job(client)
    missing = client.get(f"/v1/jobs/{job_id + 1}", params={"wait": 20})
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"
    for wait in ("31", "-1", "soon"):
        answer = client.get(f"/v1/jobs/{job_id}", params={"wait": wait})
        assert answer.status_code == 422, answer.text
        assert [error["pointer"] for error in answer.json()["errors"]] == ["query:wait"]


def test_an_import_waits_for_the_job_another_worker_claimed_until_it_has_ended(client):
    """The import's promise (issue 47 item 7): its recomputes have run when it returns, whoever ran
    them. A job the service's worker claimed first is not this process's to run: it waits for it."""
    job_id = _queued_job(client)
    with jobs.session_scope() as session:
        assert jobs.claim_next_job(session, "the-service:1") == job_id
    runner = threading.Timer(0.5, jobs.run_job, args=(job_id,))
    started = time.monotonic()
    runner.start()
    try:
        ended = jobs.run_or_await_jobs([job_id], poll_seconds=0.05)
    finally:
        runner.join()
    assert time.monotonic() - started >= 0.5
    assert ended.statuses == {job_id: "succeeded"} and ended.ran_here == set()
    assert client.get(f"/v1/jobs/{job_id}").json()["status"] == "succeeded"


def test_an_import_runs_the_queued_jobs_itself(client):
    job_id = _queued_job(client)
    ended = jobs.run_or_await_jobs([job_id])
    assert ended.statuses == {job_id: "succeeded"} and ended.ran_here == {job_id}
