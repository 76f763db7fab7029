"""Nothing grows without bound (issue 22 item 5): N submissions through HTTP into a fresh SQLite file,
each recomputed automatically (the WHR list) and followed by what the worker's loop does after its
jobs (scheduled publications, then pruning to KEEP snapshots). Prints, at checkpoints, the
snapshots kept, their entry rows, and the database's size in use (pages in use × page size, the
file minus its free pages) beside the stored games, which grow with the submissions as they must.

    .venv/bin/python bench/bench_retention.py [--submissions 1000] [--keep 20]
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--submissions", type=int, default=1000)
    parser.add_argument("--keep", type=int, default=20)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="bench-retention-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{directory / 'bench.sqlite3'}"
    os.environ["RATING_API_KEYS"] = "bench:bench-key"
    os.environ["RUN_WORKER"] = "false"
    os.environ["LOG_LEVEL"] = "WARNING"

    from fastapi.testclient import TestClient
    from sqlalchemy import func, select, text

    from app import db
    from app.cli import migrate
    from app.main import create_app
    from app.models import Game, RatingEntry, RatingSnapshot
    from app.recompute.jobs import run_pending_jobs
    from app.recompute.pruning import prune_snapshots
    from app.services.publications import publish_scheduled

    migrate()
    players = [f"p{i}" for i in range(40)]
    checkpoints = {1, 10, 50, 100, 250, 500, 750, args.submissions}
    print(f"{'submissions':>11} {'snapshots':>9} {'entries':>8} {'games':>6} {'in use, KiB':>11}")
    with TestClient(create_app(start_worker=False)) as client:
        for n in range(1, args.submissions + 1):
            four = [players[(n * 7 + k * 11) % len(players)] for k in range(4)]
            day = f"{2000 + n // 300:04d}-{(n // 25) % 12 + 1:02d}-{n % 25 + 1:02d}"
            games = [
                {"black": four[a], "white": four[b], "result": "BWD"[(n + a + b) % 3]} for a in range(4) for b in range(a + 1, 4)
            ]
            body = {"id": f"T{n}", "name": f"Bench {n}", "category": "renju", "rule": "RIF", "start": day, "end": day,
                    "time_control_minutes": 60, "players": [{"id": p} for p in four], "games": games}  # fmt: skip
            answer = client.post("/v1/tournaments", json=body, headers={"Authorization": "Bearer bench-key"})
            assert answer.status_code == 201, answer.text
            run_pending_jobs()
            publish_scheduled()
            prune_snapshots(args.keep)
            if n in checkpoints:
                with db.get_engine().connect() as connection:
                    snapshots = connection.scalar(select(func.count()).select_from(RatingSnapshot))
                    entries = connection.scalar(select(func.count()).select_from(RatingEntry))
                    stored_games = connection.scalar(select(func.count()).select_from(Game))
                    pages = connection.scalar(text("PRAGMA page_count")) - connection.scalar(text("PRAGMA freelist_count"))
                    in_use = pages * connection.scalar(text("PRAGMA page_size")) // 1024
                print(f"{n:>11} {snapshots:>9} {entries:>8} {stored_games:>6} {in_use:>11}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
