"""What an explanation of a rating change costs (issue 22 item 4): a generated history imported with
the CLI into a new SQLite file (or the PostgreSQL database named), `rif-whr` published as of a year
before its last tournament, one tournament early in the history withdrawn and the list recomputed, then
`GET /v1/players/{id}/changes` (since that publication, to the live list) asked for players of the
list through the application in this process. Prints the time of the first answer (the two
snapshots' columns decoded) and the median and 95th percentile of the others.

    .venv/bin/python bench/bench_changes.py [--size rif|small] [--players 200] [--database-url URL]

PostgreSQL: the database named is emptied (its `public` schema dropped and recreated) first; never
point it at a database you care about. About 2 minutes on rif (the import and two recomputes).
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

API_KEY = "bench-key"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=("rif", "small"), default="rif")
    parser.add_argument("--players", type=int, default=200, help="players whose change is explained")
    parser.add_argument("--database-url", help="a PostgreSQL database to empty and use (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-changes-") as workdir:
        url = args.database_url or f"sqlite:///{workdir}/bench.sqlite3"
        os.environ.update({"DATABASE_URL": url, "RATING_API_KEYS": f"bench:{API_KEY}", "RUN_WORKER": "false"})
        if args.database_url:
            _empty(url)
        _import(args.size, Path(workdir))
        _explain(args.players)


def _empty(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def _import(size: str, workdir: Path) -> None:
    from bench.histories import federation_history, rif_sized
    from bench.results_file import write_results_file

    history = rif_sized() if size == "rif" else federation_history(n_players=500, n_games=10_000, years=10)
    source = workdir / "results.tsv"
    write_results_file(history, source)
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", str(source)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
    )
    print(
        f"history: {history.n_players} players, {len(history.black)} games, "
        f"{len(set(history.tournament.tolist()))} tournaments; imported in {time.perf_counter() - started:.1f} s"
    )


def _explain(players: int) -> None:
    from fastapi.testclient import TestClient
    from sqlalchemy import select

    from app.db import session_scope
    from app.main import create_app
    from app.models import Tournament
    from app.recompute.jobs import run_pending_jobs

    logging.disable(logging.INFO)  # the access log of every request
    headers = {"Authorization": f"Bearer {API_KEY}"}
    with session_scope() as session:
        tournaments = session.execute(select(Tournament.id, Tournament.end).order_by(Tournament.end, Tournament.id)).all()
    client = TestClient(create_app())
    a_year_before = tournaments[-1].end.toordinal() - 365
    published = client.post(
        "/v1/rating-lists/rif-whr/publications",
        json={"date": dt.date.fromordinal(a_year_before).isoformat(), "title": "bench"},
        headers=headers,
    )
    assert published.status_code == 201, published.text
    early = tournaments[len(tournaments) // 10].id
    withdrawn = client.delete(f"/v1/tournaments/{early}", params={"reason": "bench"}, headers=headers)
    assert withdrawn.status_code == 200, withdrawn.text
    started = time.perf_counter()
    run_pending_jobs()
    print(f"withdrew tournament {early} and recomputed rif-whr in {time.perf_counter() - started:.1f} s")
    rows = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": players}).json()["items"]
    times, steps, listed = [], [], 0
    for row in rows:
        started = time.perf_counter()
        answer = client.get(f"/v1/players/{row['player_id']}/changes", params={"list": "rif-whr"})
        times.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.text
        steps.append(len(answer.json()["steps"]))
        listed = len(answer.json()["tournaments"])
    later = sorted(times[1:])
    print(
        f"GET /v1/players/{{id}}/changes, {len(times)} players ({statistics.mean(steps):.1f} steps, {listed} tournaments "
        f"listed each): first {times[0] * 1000:.0f} ms (the snapshots' columns decoded), then median "
        f"{statistics.median(later) * 1000:.1f} ms, 95th percentile {later[int(len(later) * 0.95)] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
