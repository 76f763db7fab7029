"""The compose topology as processes (issue 27, "how it is checked"): two API processes without a
worker and one `python -m app.cli worker --metrics-port`, on the suite's database (PostgreSQL in
CI's second pass), take the durability tests' load of concurrent submissions sharing new players with
no 5xx; every recompute job is run once, each logged as claimed and finished in JSON; `/metrics` of
the replicas and of the worker report the requests and the jobs, and each replica the snapshots it
read before its readers asked."""

import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from app import db
from app.models import Job, RatingList, RatingSnapshot
from tests.helpers import AUTH, ROOT, metric_sum, tournament_body
from tests.live_server import free_port, running_server

pytestmark = pytest.mark.slow

SHARED_PLAYERS = [f"new{i:02d}" for i in range(12)]
SUBMISSIONS = 40


def _tournament_sharing_players(number: int) -> dict:
    chosen = [SHARED_PLAYERS[(number * 7 + k * 5) % len(SHARED_PLAYERS)] for k in range(5)]
    if number % 2:
        chosen.reverse()
    players = [{"id": p, "name": f"Name {p}", "country": "EST"} for p in chosen]
    games = [
        {"black": a, "white": b, "result": "BWD"[(i + j) % 3]}
        for i, a in enumerate(chosen)
        for j, b in enumerate(chosen)
        if i < j
    ]
    return tournament_body(f"P{number:03d}", players=players, games=games)


def test_two_api_processes_and_a_worker_take_concurrent_submissions_and_run_each_job_once(tmp_path: Path):
    worker_log = tmp_path / "worker.log"
    metrics_port = free_port()
    replica = {"RUN_WORKER": "false", "SNAPSHOT_WATCH_SECONDS": "0.2"}
    with running_server(**replica) as api_1, running_server(**replica) as api_2:
        with open(worker_log, "w") as log_file:
            worker = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "worker", "--metrics-port", str(metrics_port)],
                cwd=ROOT,
                env={**os.environ, "LOG_LEVEL": "INFO"},
                stdout=subprocess.DEVNULL,
                stderr=log_file,
            )
            try:
                barrier = threading.Barrier(SUBMISSIONS)

                def post(number: int) -> httpx.Response:
                    url = (api_1, api_2)[number % 2].url
                    with httpx.Client(timeout=120) as client:
                        barrier.wait()
                        return client.post(
                            f"{url}/v1/tournaments",
                            json=_tournament_sharing_players(number),
                            headers=AUTH,
                            params={"duplicate": "intended"},
                        )

                with ThreadPoolExecutor(SUBMISSIONS) as pool:
                    responses = list(pool.map(post, range(SUBMISSIONS)))
                statuses = Counter(response.status_code for response in responses)
                assert statuses == {201: SUBMISSIONS}, {r.status_code: r.text[:300] for r in responses if r.status_code != 201}
                jobs = _wait_until_the_queue_is_drained()
                worker_url = f"http://127.0.0.1:{metrics_port}"
                worker_succeeded = metric_sum(worker_url, "rating_jobs_total", list="rif-whr", outcome="succeeded")
            finally:
                worker.terminate()
                worker.wait(timeout=30)
        served_201 = sum(
            metric_sum(api.url, "rating_http_requests_total", method="POST", route="/v1/tournaments", status="201")
            for api in (api_1, api_2)
        )
        # Each replica read a snapshot the worker wrote before its readers asked (decision 99).
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not all(_prepared(api.url) for api in (api_1, api_2)):
            time.sleep(0.2)
        assert all(_prepared(api.url) for api in (api_1, api_2))
        server_errors = sum(
            metric_sum(api.url, "rating_http_requests_total", status=str(status))
            for api in (api_1, api_2)
            for status in range(500, 505)
        )
    assert served_201 == SUBMISSIONS and server_errors == 0
    # Each job ran once, by the worker, to success; the last one rated every submission.
    assert jobs and all(job.status == "succeeded" and job.attempts == 1 for job in jobs), [
        (j.id, j.status, j.attempts) for j in jobs
    ]
    whr_jobs = [job for job in jobs if job.list_id == "rif-whr"]
    assert worker_succeeded == len(whr_jobs)
    with db.session_scope() as session:
        current = session.scalar(select(RatingList.current_snapshot_id).where(RatingList.id == "rif-whr"))
        assert session.scalar(select(RatingSnapshot.tournaments).where(RatingSnapshot.id == current)) == SUBMISSIONS
    events = [json.loads(line) for line in worker_log.read_text().splitlines() if line.startswith("{")]
    claimed = Counter(event["job_id"] for event in events if event.get("event") == "claimed")
    finished = Counter(event["job_id"] for event in events if event.get("event") == "finished")
    assert claimed == finished == Counter(job.id for job in jobs)
    assert all(event["duration_s"] >= 0 for event in events if event.get("event") == "finished")


def _prepared(url: str) -> float:
    return metric_sum(url, "rating_snapshot_preparation_seconds_count", list="rif-whr")


def _wait_until_the_queue_is_drained(timeout: float = 120) -> list[Job]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with db.session_scope() as session:
            jobs = list(session.scalars(select(Job).order_by(Job.id)))
            session.expunge_all()
        if jobs and all(job.status in ("succeeded", "failed") for job in jobs):
            return jobs
        time.sleep(0.5)
    raise AssertionError(f"jobs still queued or running after {timeout} s: {[(j.id, j.status) for j in jobs]}")
