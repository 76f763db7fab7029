"""POST /v1/rating-lists/rif-whr/what-if on the RIF-sized history (issue 25 item 4): a tournament of
ten players added in memory to the list's 100,167 stored games and the whole WHR fit run again,
warm-started from the list's current snapshot, nothing stored. Target: under 1 s a request.

    .venv/bin/python bench/bench_what_if.py [--database sqlite|postgresql] [--postgresql-url URL]
                                            [--size rif|small] [--repeat 7] [--reuse DIR]

Imports the history (as bench/bench_recompute.py does, and into the same kind of DIR with --reuse),
recomputes the list once so that it has a snapshot to warm-start from, then sends the what-if
--repeat times through the application (TestClient: the HTTP stack without a socket) and prints each
request's wall time, their median, and the load average before and after. It checks that nothing was
stored. PostgreSQL: the database named by the URL is emptied first; never point it at a database you
care about.
"""

import argparse
import os
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_recompute import _load, history_arguments, imported_history  # noqa: E402

LIST_ID = "rif-whr"
TARGET_S = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    history_arguments(parser)
    parser.add_argument("--repeat", type=int, default=7, help="what-if requests (default 7; the median is reported)")
    args = parser.parse_args()

    os.environ.setdefault("CALC_TIME_BUDGET_SECONDS", "60")  # measure the request, not the budget
    history, _ = imported_history(args, prefix="bench-what-if-")

    from fastapi.testclient import TestClient
    from sqlalchemy import func, select

    from app import db
    from app.main import create_app
    from app.models import Game, Tournament
    from app.recompute.jobs import run_pending_jobs

    client = TestClient(create_app(start_worker=False))
    auth = {"Authorization": "Bearer bench-key"}
    job_id = client.post(f"/v1/rating-lists/{LIST_ID}/recompute", headers=auth).json()["job_id"]
    run_pending_jobs()
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "succeeded", job
    print(f"the list recomputed: {job['result']['players']} players, {job['result']['games']} games")

    end = date.fromordinal(max(history.day.tolist())) + timedelta(days=7)
    players = [str(p) for p in range(10)]
    games = [
        {"black": a, "white": b, "result": "BWD"[(i + j) % 3]}
        for i, a in enumerate(players)
        for j, b in enumerate(players)
        if i < j
    ]
    body = {"id": "bench-what-if", "name": "What if", "category": "renju", "start": end.isoformat(), "end": end.isoformat()}
    body["games"] = games

    def stored() -> tuple[int, int]:
        with db.session_scope() as session:
            return (
                session.scalar(select(func.count()).select_from(Tournament)) or 0,
                session.scalar(select(func.count()).select_from(Game)) or 0,
            )

    before = stored()
    times = []
    for run in range(args.repeat):
        started = time.perf_counter()
        response = client.post(f"/v1/rating-lists/{LIST_ID}/what-if", json=body)
        elapsed = time.perf_counter() - started
        assert response.status_code == 200, response.text
        answer = response.json()
        times.append(elapsed)
        print(f"what-if {run + 1}: {elapsed:.3f} s  [{len(answer['players'])} players changed, rated {answer['rated']}]")
    assert stored() == before, "a what-if stored something"
    median = statistics.median(times)
    print(
        f"median of {len(times)}: {median:.3f} s (target < {TARGET_S} s: {'met' if median < TARGET_S else 'not met'}); "
        f"tournaments and games stored before and after: {before}"
    )
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
