"""`python -m app.cli worker` processes beside the API: each job is run by exactly one of them."""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import AUTH, ROOT, tournament_body

# Two worker processes started and polled until they drain the queue.
pytestmark = pytest.mark.slow


def test_two_worker_processes_share_the_queue(client):
    client.post("/v1/tournaments", json=tournament_body(), headers=AUTH)
    client.post("/v1/tournaments", json=tournament_body("G", category="gomoku", rule=None), headers=AUTH)
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "app.cli", "worker"],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    try:
        job_ids = [
            client.post(f"/v1/rating-lists/{list_id}/recompute", headers=AUTH).json()["job_id"]
            for list_id in ("rif-whr", "rif-whr-gomoku", "rif-elo")
        ]
        deadline = time.monotonic() + 60
        jobs = []
        while time.monotonic() < deadline:
            jobs = [client.get(f"/v1/jobs/{job_id}").json() for job_id in job_ids]
            if all(job["status"] in ("succeeded", "failed") for job in jobs):
                break
            time.sleep(0.2)
        assert [job["status"] for job in jobs] == ["succeeded"] * 3, jobs
        assert client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"}).json()["total"] == 4
        assert client.get("/v1/rating-lists/rif-whr-gomoku/ratings", params={"status": "all"}).json()["total"] == 4
        snapshots = client.get("/v1/rating-lists/rif-whr/snapshots").json()
        assert snapshots["total"] == 1  # run once, not once per worker
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGINT)
        for worker in workers:
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()
