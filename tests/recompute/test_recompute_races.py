"""Every submission a list rates is rated by a recompute that started after it committed, whatever
the interleaving of submissions, claims and reads, and whatever kills a worker mid-job."""

import datetime as dt
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import func, select, update

from app import db
from app.models import Job, RatingList, RatingSnapshot
from app.recompute import jobs
from app.recompute.jobs import run_pending_jobs
from app.services import tournaments as tournament_service
from tests.helpers import AUTH, tournament_body
from tests.live_server import running_server


def _second_tournament(tournament_id: str = "T2") -> dict:
    return tournament_body(
        tournament_id, start="2021-01-01", end="2021-01-01", games=[{"black": "p1", "white": "p4", "result": "B"}]
    )


def _whr_job(response: httpx.Response) -> int:
    assert response.status_code == 201, response.text[:300]
    return next(outcome["job_id"] for outcome in response.json()["lists"] if outcome["id"] == "rif-whr")


def test_a_job_is_not_claimed_while_a_submission_that_joined_it_is_open(client, monkeypatch):
    """The interleaving of the report: a submission joins the queued job; a worker looks for work
    before the submission commits; the submission commits. The job the 201 names must rate it."""
    assert client.post("/v1/tournaments", json=tournament_body(), headers=AUTH).status_code == 201
    joined, release = threading.Event(), threading.Event()
    queue_recomputes = tournament_service.queue_recomputes

    def queue_and_hold(*args, **kwargs):  # type: ignore[no-untyped-def]
        outcomes = queue_recomputes(*args, **kwargs)
        joined.set()  # the submission joined the queued job; its transaction is still open
        assert release.wait(30)
        return outcomes

    monkeypatch.setattr(tournament_service, "queue_recomputes", queue_and_hold)
    submitted: list[httpx.Response] = []
    submission = threading.Thread(
        target=lambda: submitted.append(client.post("/v1/tournaments", json=_second_tournament(), headers=AUTH))
    )
    submission.start()
    assert joined.wait(30)
    worker = threading.Thread(target=run_pending_jobs)
    worker.start()
    worker.join(timeout=1)  # PostgreSQL: the held job is skipped at once; SQLite: the claim waits for the commit
    release.set()
    submission.join(30)
    worker.join(60)
    while run_pending_jobs():
        pass

    job_id = _whr_job(submitted[0])
    with db.session_scope() as session:
        job = session.get(Job, job_id)
        assert job is not None and job.status == "succeeded", (job.status, job.error)
        assert session.get(RatingSnapshot, job.snapshot_id).tournaments == 2
        current = session.get(RatingList, "rif-whr").current_snapshot_id
        assert session.get(RatingSnapshot, current).tournaments == 2
        assert session.scalar(select(func.count()).select_from(Job).where(Job.status.in_(("queued", "running")))) == 0


def test_a_submission_after_the_claim_queues_a_job_of_its_own(client, monkeypatch):
    """The job is held between its claim and its read while another submission commits."""
    first_job = _whr_job(client.post("/v1/tournaments", json=tournament_body(), headers=AUTH))
    with db.session_scope() as session:
        assert jobs.claim_next_job(session, jobs.worker_name()) == first_job
    second_job = _whr_job(client.post("/v1/tournaments", json=_second_tournament(), headers=AUTH))
    assert second_job != first_job
    jobs.run_job(first_job)
    assert run_pending_jobs() == 1
    with db.session_scope() as session:
        snapshot = session.get(Job, second_job).snapshot_id
        assert session.get(RatingSnapshot, snapshot).tournaments == 2


def test_a_job_whose_process_is_gone_is_run_again_without_waiting(client):
    """A server killed mid-job and started again: its job is queued again at the next claim, not
    after the heartbeat timeout (the process named in the job no longer exists on this host)."""
    job_id = _whr_job(client.post("/v1/tournaments", json=tournament_body(), headers=AUTH))
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    dead_worker = f"{jobs.worker_name().rsplit(':', 1)[0]}:{finished.stdout.strip()}:thread"
    with db.session_scope() as session:
        assert jobs.claim_next_job(session, dead_worker) == job_id  # heartbeat: now
    assert run_pending_jobs() == 1
    with db.session_scope() as session:
        job = session.get(Job, job_id)
        assert job.status == "succeeded" and job.attempts == 2


def test_a_job_that_loses_its_database_is_queued_again(client, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from app.recompute import compute

    job_id = _whr_job(client.post("/v1/tournaments", json=tournament_body(), headers=AUTH))
    original = compute.compute_snapshot

    def database_gone(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OperationalError("SELECT", {}, Exception("server closed the connection unexpectedly"))

    monkeypatch.setattr(compute, "compute_snapshot", database_gone)
    with db.session_scope() as session:
        assert jobs.claim_next_job(session, jobs.worker_name()) == job_id
    jobs.run_job(job_id)
    with db.session_scope() as session:
        assert session.get(Job, job_id).status == "queued"
    monkeypatch.setattr(compute, "compute_snapshot", original)
    assert run_pending_jobs() == 1
    with db.session_scope() as session:
        assert session.get(Job, job_id).status == "succeeded"


def test_a_running_job_whose_worker_is_alive_is_left_alone(client):
    job_id = _whr_job(client.post("/v1/tournaments", json=tournament_body(), headers=AUTH))
    with db.session_scope() as session:
        assert jobs.claim_next_job(session, jobs.worker_name()) == job_id
    with db.session_scope() as session:
        session.execute(update(Job).where(Job.id == job_id).values(heartbeat_at=dt.datetime.now(dt.UTC)))
        jobs.requeue_dead_jobs(session)
    with db.session_scope() as session:
        assert session.get(Job, job_id).status == "running"


@pytest.mark.slow
def test_after_a_burst_of_submissions_every_rated_tournament_is_in_the_current_snapshot():
    """A live server with its worker, eight clients submitting at once (one tournament far larger
    than the others), then idle: every job a 201 named succeeded and the current snapshot rates
    every tournament."""
    big_players = [{"id": f"b{i}"} for i in range(60)]
    big_games = [
        {"black": f"b{i}", "white": f"b{j}", "result": "BWD"[(i + j) % 3]}
        for round_ in range(3)
        for i in range(60)
        for j in range(i + 1, 60)
        if (i + j + round_) % 7 == 0
    ]
    bodies = [tournament_body("BIG", players=big_players, games=big_games, start="2020-06-01", end="2020-06-03")]
    bodies += [
        tournament_body(
            f"S{n}",
            start=f"2020-0{1 + n % 8}-1{n % 9}",
            end=f"2020-0{1 + n % 8}-1{n % 9}",
            players=[{"id": f"s{n}a"}, {"id": f"s{n}b"}],
            games=[{"black": f"s{n}a", "white": f"s{n}b", "result": "B"}],
        )
        for n in range(15)
    ]
    with running_server(RUN_WORKER="true", WORKER_POLL_SECONDS="0.2") as server:
        with httpx.Client(base_url=server.url, timeout=60) as http, ThreadPoolExecutor(8) as pool:
            responses = list(pool.map(lambda body: http.post("/v1/tournaments", json=body, headers=AUTH), bodies))
            named = {body["id"]: _whr_job(response) for body, response in zip(bodies, responses)}
            deadline = time.monotonic() + 120
            while (
                http.get("/v1/jobs", params={"status": "queued"}).json()["total"]
                or http.get("/v1/jobs", params={"status": "running"}).json()["total"]
            ):
                assert time.monotonic() < deadline, "the worker did not go idle"
                time.sleep(0.2)
            for tournament_id, job_id in named.items():
                job = http.get(f"/v1/jobs/{job_id}").json()
                assert job["status"] == "succeeded", (tournament_id, job)
            current = http.get("/v1/rating-lists/rif-whr/snapshots", params={"limit": 1}).json()["items"][0]
            assert current["current"] and current["tournaments"] == len(bodies)
