"""End to end: a RIF-sized history stored in SQLite or PostgreSQL, then POST
/v1/rating-lists/rif-whr/recompute until the job succeeds, cold (no previous snapshot) several times,
then warm (one more tournament, warm-started from the previous snapshot's fit). Target (issue 10): a
cold recompute in at most 0.35 s, reading the games and writing the snapshot no slower than the
computation.

    .venv/bin/python bench/bench_recompute.py [--database sqlite|postgresql] [--postgresql-url URL]
                                              [--size rif|small] [--repeat 5] [--reuse DIR] [--compare]

Prints the import time, then each recompute with the job's own read / compute / write split
(``timings_s`` of the job's result: "read" is the eligible games, seeds and the previous fit;
"compute" the rating system's replay and the snapshot's rows; "write" the snapshot's transaction up
to its commit), the medians of the cold runs, and the load average before and after (the machine's
other work shows in every figure). Each cold run first deletes the list's snapshots, so every run
writes into the same tables. With --compare, the largest difference to the `whr` package's
converged ratings on the same games. With --stages, each part of the job timed on its own in this
process (CPU and wall, best of --repeat): the read, the fit, the replay, building each table's rows,
and writing each table (rolled back).

PostgreSQL: the database named by the URL is emptied (its `public` schema dropped and recreated)
before the import; never point it at a database you care about. --reuse DIR keeps the generated
history and the SQLite file in DIR and imports only when DIR has no import for that database yet.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_POSTGRESQL_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test_perf"
LIST_ID = "rif-whr"
EXTRA_TOURNAMENT = "bench-one-more"
TARGET_S = 0.35


def history_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a bench that works on an imported history (``imported_history``)."""
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--postgresql-url", default=DEFAULT_POSTGRESQL_URL, help=f"default {DEFAULT_POSTGRESQL_URL}")
    parser.add_argument("--size", choices=["rif", "small"], default="rif")
    parser.add_argument("--reuse", type=Path, metavar="DIR", help="keep the history and the import in DIR")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    history_arguments(parser)
    parser.add_argument("--repeat", type=int, default=5, help="cold recomputes (default 5; the median is reported)")
    parser.add_argument("--compare", action="store_true", help="also run the whr package (about 13 s on rif)")
    parser.add_argument(
        "--stages", action="store_true", help="also time each stage of the job in this process (CPU, best of --repeat)"
    )
    args = parser.parse_args()

    history, workdir = imported_history(args, prefix="bench-recompute-")

    from fastapi.testclient import TestClient
    from sqlalchemy import delete, update

    from app import db
    from app.main import create_app
    from app.models import RatingList, RatingSnapshot, Tournament
    from app.recompute.jobs import run_pending_jobs

    client = TestClient(create_app(start_worker=False))
    auth = {"Authorization": "Bearer bench-key"}

    def reset() -> None:
        """No snapshot of the list, no extra tournament: the state right after the import."""
        with db.session_scope() as session:
            session.execute(update(RatingList).where(RatingList.id == LIST_ID).values(current_snapshot_id=None))
            session.execute(delete(RatingSnapshot).where(RatingSnapshot.list_id == LIST_ID))
            session.execute(delete(Tournament).where(Tournament.id == EXTRA_TOURNAMENT))

    def recompute(label: str) -> dict:
        started = time.perf_counter()
        job_id = client.post(f"/v1/rating-lists/{LIST_ID}/recompute", headers=auth).json()["job_id"]
        run_pending_jobs()
        job = client.get(f"/v1/jobs/{job_id}").json()
        total = time.perf_counter() - started
        assert job["status"] == "succeeded", job
        split = job["result"]["timings_s"]
        print(
            f"{label:<7} recompute: {total:.3f} s  read {split['read']:.3f}  compute {split['compute']:.3f}  "
            f"write {split['write']:.3f}  [{job['result']['players']} players, {job['result']['games']} games; "
            f"{'; '.join(job['result']['notes'])}]"
        )
        return {"total": total, **split}

    cold = []
    for run in range(args.repeat):
        reset()
        cold.append(recompute(f"cold {run + 1}"))
    medians = {key: statistics.median(r[key] for r in cold) for key in ("total", "read", "compute", "write")}
    print(
        f"cold, median of {len(cold)}: {medians['total']:.3f} s (target <= {TARGET_S} s: "
        f"{'met' if medians['total'] <= TARGET_S else 'not met'})  read {medians['read']:.3f}  "
        f"compute {medians['compute']:.3f}  write {medians['write']:.3f}  "
        f"(read + write {'<=' if medians['read'] + medians['write'] <= medians['compute'] else '>'} compute)"
    )

    end = date.fromordinal(max(history.day.tolist())) + timedelta(days=7)
    players = [str(p) for p in range(10)]
    games = [
        {"black": a, "white": b, "result": "BWD"[(i + j) % 3]}
        for i, a in enumerate(players)
        for j, b in enumerate(players)
        if i < j
    ]
    body = {
        "id": EXTRA_TOURNAMENT,
        "name": "One more",
        "category": "renju",
        "start": end.isoformat(),
        "end": end.isoformat(),
        "games": games,
    }
    assert client.post("/v1/tournaments", json=body, headers=auth).status_code == 201
    recompute("warm")
    if args.stages:
        reset()
        _stages(args.repeat)
    print(f"load average after: {_load()}")

    if args.compare:
        _compare(history, games, end, client)


def imported_history(args: argparse.Namespace, *, prefix: str):  # type: ignore[no-untyped-def]
    """The history of ``args.size`` imported into ``args.database`` (an SQLite file in the work
    directory, or the PostgreSQL URL) with the CLI, or the import ``--reuse`` kept; the environment
    set for an in-process app without a worker. Returns the history and the work directory."""
    workdir = args.reuse or Path(tempfile.mkdtemp(prefix=prefix))
    workdir.mkdir(parents=True, exist_ok=True)
    database_url = f"sqlite:///{workdir / 'bench.sqlite3'}" if args.database == "sqlite" else args.postgresql_url
    os.environ["DATABASE_URL"] = database_url
    os.environ["RATING_API_KEYS"] = "bench:bench-key"
    os.environ["RUN_WORKER"] = "false"
    os.environ["LOG_LEVEL"] = "WARNING"
    print(f"load average before: {_load()}")
    history = _history(args.size, workdir)
    marker = workdir / f"imported-{args.database}-{args.size}"
    if args.reuse is None or not marker.exists() or marker.read_text().strip() != database_url:
        _import(history, workdir, args.database, database_url)
        marker.write_text(database_url + "\n")
    else:
        print(f"reusing the import in {workdir} ({args.database})")
    return history, workdir


def _history(size: str, workdir: Path):  # type: ignore[no-untyped-def]
    from bench.histories import History, federation_history, rif_sized

    saved = workdir / f"history-{size}.npz"
    if saved.exists():
        return History.load(saved)
    history = rif_sized() if size == "rif" else federation_history(n_players=500, n_games=10_000, years=10)
    history.save(saved)
    return history


def _import(history, workdir: Path, database: str, database_url: str) -> None:  # type: ignore[no-untyped-def]
    from bench.results_file import write_results_file

    if database == "postgresql":
        from sqlalchemy import create_engine, text

        engine = create_engine(database_url)
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
        engine.dispose()
    else:
        for stale in workdir.glob("bench.sqlite3*"):
            stale.unlink()
    source = workdir / "results.tsv"
    write_results_file(history, source)
    print(
        f"history: {history.n_players} players, {len(history.black)} games, "
        f"{len(set(history.tournament.tolist()))} tournaments -> {source}"
    )
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", str(source)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
    )
    print(f"import through the submission service (CLI): {time.perf_counter() - started:.1f} s")


def _compare(history, games: list[dict], end: date, client) -> None:  # type: ignore[no-untyped-def]
    import whr

    from bench.results_file import RESULT_CODE

    base = whr.Base(config={"w2": 12.9, "virtual_games": 2})
    for b, w, s, d in zip(history.black.tolist(), history.white.tolist(), history.score.tolist(), history.day.tolist()):
        base.create_game(str(b), str(w), RESULT_CODE[s], d)
    for game in games:
        base.create_game(game["black"], game["white"], game["result"], end.toordinal())
    started = time.perf_counter()
    base.iterate_until_converge(verbose=False)
    reference_time = time.perf_counter() - started
    worst = 0.0
    for p in sorted(set(history.black.tolist()) | set(history.white.tolist())):
        points = client.get(f"/v1/players/{p}/history").json()["points"]
        for point, (_, elo, _) in zip(points, base.ratings_for_player(str(p))):
            worst = max(worst, abs(point["rating"] - (elo + 1900)))
    print(f"whr iterate_until_converge on the same games: {reference_time:.1f} s; largest difference {worst:.2e} Elo")


def _stages(repeat: int) -> None:
    """The job's parts one by one, as the worker runs them, each timed by this process's CPU time
    (best of ``repeat``; the database server's own work on PostgreSQL is not in it, hence the wall
    time beside it). The write is rolled back."""
    import datetime as dt
    import gc

    from app import db
    from app.models import RatingEntry, RatingList, RatingSnapshot
    from app.rating import whr
    from app.rating.registry import get_system
    from app.rating.system import ReplayInput
    from app.recompute import compute

    best: dict[str, tuple[float, float]] = {}

    def timed(name, work, *args, **kwargs):  # type: ignore[no-untyped-def]
        wall, cpu = time.perf_counter(), time.process_time()
        result = work(*args, **kwargs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        previous = best.get(name, (float("inf"), float("inf")))
        best[name] = (min(previous[0], cpu), min(previous[1], wall))
        return result

    gc.disable()  # as the job does (app.performance.cyclic_gc_paused)
    try:
        for _ in range(repeat):
            with db.session_scope() as session:
                rating_list = session.get(RatingList, LIST_ID)
                system = get_system(rating_list.system)
                params = system.params(rating_list.params)
                tournaments, columns = timed("read: eligible games", compute.eligible_games, session, rating_list)
                timed(
                    "compute: the fit alone",
                    whr.fit,
                    columns.black,
                    columns.white,
                    columns.black_score,
                    columns.day,
                    len(columns.player_ids),
                    params.engine(),
                )
                given = ReplayInput(tournaments, [], params, dt.date.today(), None, columns)
                replayed = timed("compute: replay (fit, entries, points, changes)", system.replay, given)
                entries = timed("compute: entry rows", compute.entry_rows, replayed)
                points = timed("compute: point archive", compute.point_archive, replayed)
                changes = timed("compute: change archive", compute.change_archive, replayed)
            with db.session_scope() as session:
                snapshot = RatingSnapshot(
                    list_id=LIST_ID, list_date=dt.date.today(), point_columns=points, change_columns=changes
                )
                session.add(snapshot)
                timed(
                    f"write: snapshot, {len(replayed.points)} points, {len(replayed.changes)} changes "
                    f"({(len(points) + len(changes)) / 1e6:.1f} MB)",
                    session.flush,
                )
                timed(
                    f"write: {len(entries)} rating_entries",
                    db.insert_rows,
                    session,
                    RatingEntry.__table__,
                    compute.ENTRY_COLUMNS,
                    entries,
                    same={"snapshot_id": snapshot.id},
                )
                session.rollback()
    finally:
        gc.enable()
    print(f"stages, best of {repeat} (ms):  cpu  wall")
    for name, (cpu, wall) in best.items():
        print(f"  {name:<48} {cpu * 1000:6.1f} {wall * 1000:6.1f}")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
