"""Storage proportional to what is kept (issue 48 item 2): a generated history imported with the CLI
(as bench_recompute.py does), then

1. the bytes of one `rif-whr` snapshot: its archives (`point_columns`, `change_columns`,
   `warm_start`, as stored and as zlib would compress them, with the time that takes) and its entry
   rows (what one recompute adds to the `rating_entries` table and its indexes);
2. with `--rounds N`: N rounds of what the service does under steady submissions, each a small
   tournament submitted (`rif-whr` recomputes itself) and the worker's rounds until nothing is queued
   (`work_once`: one job, the scheduled publications, the pruning to `--keep` snapshots and what
   reclaims the pruned space), printing the snapshots' storage after the first round past retention
   and every `--report-every` rounds: SQLite its file and write-ahead log, PostgreSQL the two tables'
   `pg_total_relation_size` (TOAST and indexes included) and their dead rows.

    .venv/bin/python bench/bench_storage.py [--database sqlite|postgresql] [--reuse DIR]
    .venv/bin/python bench/bench_storage.py --database postgresql --rounds 200 --keep 5 [--no-reclaim]
        [--autovacuum-scale-factor 0.01]

`--vacuum-every S`: the worker's VACUUMs at most every S seconds instead of the service's
`VACUUM_EVERY_SECONDS`; `--no-reclaim`: the worker's rounds without `reclaim_pruned_space` (what the service did before:
autovacuum alone on PostgreSQL); `--autovacuum-scale-factor F`: the two tables and their TOAST tables
given `autovacuum_vacuum_scale_factor` F (and a threshold of 1,000 rows) first, the storage
parameters' alternative to the worker's VACUUM. PostgreSQL: the database named is emptied (its
`public` schema dropped and recreated) unless `--reuse` keeps the import.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_recompute import LIST_ID, history_arguments, imported_history  # noqa: E402

ARCHIVES = ("point_columns", "change_columns", "warm_start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    history_arguments(parser)
    parser.add_argument("--rounds", type=int, default=0, help="submit-and-recompute rounds past retention (default 0: none)")
    parser.add_argument("--keep", type=int, default=5, help="snapshots a list keeps in the rounds (default 5)")
    parser.add_argument("--report-every", type=int, default=20, help="rounds between two reports (default 20)")
    parser.add_argument("--no-reclaim", action="store_true", help="the worker's rounds without reclaim_pruned_space")
    parser.add_argument("--vacuum-every", type=float, help="seconds between the worker's VACUUMs (default: the service's)")
    parser.add_argument("--autovacuum-scale-factor", type=float, help="PostgreSQL: the tables' storage parameter first")
    args = parser.parse_args()
    imported_history(args, prefix="bench-storage-")

    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(start_worker=False)) as client:
        _drain()
        _snapshot_bytes(client)
        if args.rounds:
            _rounds(client, args)
    return 0


def _drain() -> None:
    from app.worker import work_once

    while work_once("bench-storage"):
        pass


def _snapshot_bytes(client) -> None:  # type: ignore[no-untyped-def]
    """One recompute of the list: its archives' sizes and what its entries added."""
    from sqlalchemy import func, select

    from app import db
    from app.models import RatingEntry, RatingList, RatingSnapshot

    before = _entries_bytes()
    assert client.post(f"/v1/rating-lists/{LIST_ID}/recompute", headers={"Authorization": "Bearer bench-key"}).status_code == 202
    _drain()
    after = _entries_bytes()
    with db.session_scope() as session:
        snapshot_id = session.get(RatingList, LIST_ID).current_snapshot_id
        row = session.execute(
            select(*(getattr(RatingSnapshot, name) for name in ARCHIVES)).where(RatingSnapshot.id == snapshot_id)
        ).one()
        entries = session.scalar(select(func.count()).select_from(RatingEntry).where(RatingEntry.snapshot_id == snapshot_id))
        stored = _stored_archive_bytes(session, snapshot_id)
    print(f"snapshot {snapshot_id} of {LIST_ID}: {entries:,} entries")
    print(f"{'part':<16} {'bytes':>11} {'stored':>11} {'zlib 1':>11} {'[ms]':>6} {'zlib 6':>11} {'[ms]':>6} {'inflate [ms]':>12}")
    total = 0
    for name, value in zip(ARCHIVES, row, strict=True):
        value = value or b""
        total += len(value)
        figures = []
        for level in (1, 6):
            started = time.perf_counter()
            packed = zlib.compress(value, level)
            figures += [len(packed), (time.perf_counter() - started) * 1000]
        started = time.perf_counter()
        zlib.decompress(packed)
        inflate = (time.perf_counter() - started) * 1000
        kept = stored.get(name)
        print(
            f"{name:<16} {len(value):>11,} {'' if kept is None else f'{kept:,}':>11} {figures[0]:>11,} {figures[1]:>6.1f}"
            f" {figures[2]:>11,} {figures[3]:>6.1f} {inflate:>12.1f}"
        )
    print(f"{'archives':<16} {total:>11,}")
    print(
        f"{'entries':<16} {after - before:>11,} (the rows and their indexes: {(after - before) / max(entries, 1):.0f} bytes an entry)"
    )


def _stored_archive_bytes(session, snapshot_id: int) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """PostgreSQL: each archive as TOAST keeps it (pglz-compressed where that gains a quarter)."""
    from sqlalchemy import text

    if session.get_bind().dialect.name != "postgresql":
        return {}
    sizes = session.execute(
        text(f"SELECT {', '.join(f'pg_column_size({name})' for name in ARCHIVES)} FROM rating_snapshots WHERE id = :id"),
        {"id": snapshot_id},
    ).one()
    return {name: int(size or 0) for name, size in zip(ARCHIVES, sizes, strict=True)}


def _entries_bytes() -> int:
    """The entry table's bytes with its indexes: SQLite's pages (dbstat), PostgreSQL's relation size
    (after a VACUUM, so that the next rows do not reuse dead space)."""
    from sqlalchemy import text

    from app import db

    engine = db.get_engine()
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            return int(
                connection.scalar(
                    text(
                        "SELECT sum(pgsize) FROM dbstat WHERE name IN"
                        " (SELECT name FROM sqlite_master WHERE tbl_name = 'rating_entries')"
                    )
                )
            )
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM rating_entries")
        return int(connection.scalar(text("SELECT pg_total_relation_size('rating_entries')")))


def _rounds(client, args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    from app import db
    from app.recompute import pruning
    from app.settings import get_settings

    get_settings().keep_snapshots = args.keep
    if args.vacuum_every is not None:
        pruning.VACUUM_EVERY_SECONDS = args.vacuum_every
    if args.no_reclaim:
        import app.worker

        app.worker.reclaim_pruned_space = lambda engine=None: False
    if args.autovacuum_scale_factor is not None:
        with db.get_engine().begin() as connection:
            for table in ("rating_snapshots", "rating_entries"):
                connection.exec_driver_sql(
                    f"ALTER TABLE {table} SET (autovacuum_vacuum_scale_factor = {args.autovacuum_scale_factor},"
                    f" autovacuum_vacuum_threshold = 1000, toast.autovacuum_vacuum_scale_factor = {args.autovacuum_scale_factor},"
                    " toast.autovacuum_vacuum_threshold = 1000)"
                )
    print(
        f"rounds: keep {args.keep}, reclaim {'off' if args.no_reclaim else f'on (VACUUM at most every {pruning.VACUUM_EVERY_SECONDS:.0f} s)'}"
        + ("" if args.autovacuum_scale_factor is None else f", autovacuum_vacuum_scale_factor {args.autovacuum_scale_factor}")
    )
    print(f"{'round':>6} {'seconds':>8} {'storage, MB':>12} {'dead rows':>10}")
    started = time.perf_counter()
    first = None
    for number in range(args.keep + args.rounds):
        _submit(client, number)
        _drain()
        past = number - args.keep + 1  # rounds past retention
        if past == 1 or (past > 0 and (past % args.report_every == 0 or past == args.rounds)):
            size, dead = _storage()
            first = first or size
            print(f"{past:>6} {time.perf_counter() - started:>8.0f} {size / 1e6:>12.1f} {dead:>10,}", flush=True)
    assert first is not None
    print(f"last against first: {size / first:.2f} x")


def _submit(client, number: int) -> None:  # type: ignore[no-untyped-def]
    day = (dt.date(2025, 1, 1) + dt.timedelta(days=number)).isoformat()  # a day of its own: no repeat of another
    players = [{"id": f"storage-{i}", "name": f"Player {i}"} for i in range(4)]
    games = [
        {
            "id": f"g{a}{b}",
            "round": str(a + b),
            "black": f"storage-{a}",
            "white": f"storage-{b}",
            "result": "BWD"[(number + a + b) % 3],
        }
        for a in range(4)
        for b in range(a + 1, 4)
    ]
    body = {"id": f"storage-{number}", "name": f"Storage {number}", "category": "renju", "rule": "RIF", "start": day,
            "end": day, "time_control_minutes": 60, "players": players, "games": games}  # fmt: skip
    answer = client.post("/v1/tournaments", json=body, headers={"Authorization": "Bearer bench-key"})
    assert answer.status_code == 201, answer.text


def _storage() -> tuple[int, int]:
    """The snapshots' storage now, and PostgreSQL's dead rows in the two tables (SQLite: 0)."""
    from sqlalchemy import text

    from app import db
    from app.settings import get_settings

    engine = db.get_engine()
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            database = Path(get_settings().database_url.split("///", 1)[-1])
            wal = database.with_name(database.name + "-wal")
            return database.stat().st_size + (wal.stat().st_size if wal.exists() else 0), 0
        size = connection.scalar(
            text("SELECT pg_total_relation_size('rating_snapshots') + pg_total_relation_size('rating_entries')")
        )
        dead = connection.scalar(
            text("SELECT sum(n_dead_tup) FROM pg_stat_user_tables WHERE relname IN ('rating_snapshots', 'rating_entries')")
        )
        return int(size), int(dead or 0)


if __name__ == "__main__":
    sys.exit(main())
