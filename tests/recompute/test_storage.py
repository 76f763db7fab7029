"""Storage proportional to what is kept (issue 48 item 2): once its lists hold their retained
snapshots, a database under steady submit-and-recompute rounds stops growing, on both databases:
what a pruning deleted is reused by the next snapshots (app.recompute.pruning.reclaim_pruned_space)."""

import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url

from app import db
from app.models import RatingSnapshot
from app.recompute import pruning
from app.services.importing import import_results_file
from app.settings import get_settings
from app.worker import work_once
from tests.helpers import AUTH, RENJU_CN, tournament_body

KEEP = 3
ROUNDS_BEYOND = 12
# The database's size after the last round against its size after the first round past retention:
# each round adds a snapshot and prunes one, so without reuse the size grows by about a snapshot a
# round (PostgreSQL without the VACUUM after a pruning: +212 % in 12 rounds); with it, by what the
# rounds' games and the indexes' page splits add (+2.1 % SQLite, +3.3 % PostgreSQL, measured).
MARGIN = 0.10


def submit_and_recompute(client, number: int) -> None:  # type: ignore[no-untyped-def]
    """One round: a small tournament submitted (rif-whr recomputes itself), then the worker's rounds
    until nothing is queued: each one job, the publications and the pruning."""
    day = f"2020-{number % 12 + 1:02d}-{number % 27 + 1:02d}"
    games = [{k: v for k, v in game.items() if k != "date"} for game in tournament_body()["games"]]
    body = tournament_body(f"S{number}", start=day, end=day, games=games)
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    while work_once("storage-test"):
        pass


def stored_bytes() -> int:
    """What the database takes on disk for its snapshots. SQLite: its file (free pages included: a
    pruning's pages left free and never reused would show) and its write-ahead log. PostgreSQL: the
    snapshots' and the entries' tables, each with its TOAST table (the archives) and its indexes, dead
    rows included."""
    engine = db.get_engine()
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            return int(connection.scalar(text("PRAGMA page_count")) * connection.scalar(text("PRAGMA page_size"))) + wal_bytes()
        return int(
            connection.scalar(
                text("SELECT pg_total_relation_size('rating_snapshots') + pg_total_relation_size('rating_entries')")
            )
        )


def wal_bytes() -> int:
    url = make_url(get_settings().database_url)
    wal = Path(f"{url.database}-wal")
    return wal.stat().st_size if wal.exists() else 0


@pytest.mark.slow
def test_a_database_stops_growing_once_its_lists_hold_their_retained_snapshots(client, monkeypatch):
    monkeypatch.setattr(get_settings(), "keep_snapshots", KEEP)
    monkeypatch.setattr(pruning, "VACUUM_EVERY_SECONDS", 0.0)  # every pruning reclaims here (a minute in service)
    import_results_file(RENJU_CN)  # 59 real tournaments: snapshots of 1,200 players' entries and archives
    while work_once("storage-test"):
        pass
    for number in range(KEEP):
        submit_and_recompute(client, number)
    submit_and_recompute(client, KEEP)  # the first round past retention: one snapshot pruned
    first = stored_bytes()
    with db.session_scope() as session:
        snapshot_bytes = session.scalar(
            select(func.sum(func.length(RatingSnapshot.point_columns) + func.length(RatingSnapshot.change_columns)))
        ) / session.scalar(select(func.count()).select_from(RatingSnapshot))
    assert snapshot_bytes > 100_000  # not tiny: a round churns more than the database's own slack

    sizes = []
    for number in range(KEEP + 1, KEEP + 1 + ROUNDS_BEYOND):
        submit_and_recompute(client, number)
        sizes.append(stored_bytes())
        if db.get_engine().dialect.name == "sqlite":
            assert wal_bytes() == 0  # the log copied and emptied after the pruning (no reader in the way)
    with db.session_scope() as session:
        kept = session.scalar(select(func.count()).select_from(RatingSnapshot).where(RatingSnapshot.list_id == "rif-whr"))
    assert kept == KEEP
    assert sizes[-1] <= first * (1 + MARGIN), (first, sizes)


ON_SQLITE = make_url(get_settings().database_url).get_backend_name() == "sqlite"


@pytest.mark.skipif(not ON_SQLITE, reason="SQLite's write-ahead log (PostgreSQL's VACUUM: the next test)")
def test_the_checkpoint_after_a_pruning_gives_up_on_a_reader_instead_of_waiting_for_it(client):
    """A reader of an older state keeps the log from being emptied: the checkpoint after a pruning
    waits a moment for it (``CHECKPOINT_WAIT_MS``), not the busy timeout (30 s), and says it gave up."""
    import_results_file(RENJU_CN)
    url = make_url(get_settings().database_url)
    reader = sqlite3.connect(url.database, isolation_level=None)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM rating_lists").fetchone()  # reads the state before the job's
        while work_once("storage-test"):
            pass
        started = time.perf_counter()
        assert pruning.reclaim_pruned_space() is False
        assert time.perf_counter() - started < 2
        assert wal_bytes() > 0
    finally:
        reader.execute("COMMIT")
        reader.close()
    assert pruning.reclaim_pruned_space() is True
    assert wal_bytes() == 0


@pytest.mark.skipif(ON_SQLITE, reason="PostgreSQL's VACUUM (SQLite's log: the test before)")
def test_the_pruned_tables_are_vacuumed_at_most_once_a_minute(client, monkeypatch):
    """A VACUUM reads the tables' indexes whole: after a pruning, then not again within
    ``VACUUM_EVERY_SECONDS``; the one that ran left no dead entry row."""
    monkeypatch.setattr(pruning, "_last_vacuum", None)
    monkeypatch.setattr(get_settings(), "keep_snapshots", 1)
    import_results_file(RENJU_CN)
    while work_once("storage-test"):
        pass
    submit_and_recompute(client, 0)  # its pruning vacuumed (the first of this process)
    assert pruning._last_vacuum is not None
    with db.get_engine().connect() as connection:
        dead = connection.scalar(text("SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'rating_entries'"))
    assert dead == 0
    assert pruning.reclaim_pruned_space() is False  # within the minute
    monkeypatch.setattr(pruning, "_last_vacuum", time.monotonic() - pruning.VACUUM_EVERY_SECONDS)
    assert pruning.reclaim_pruned_space() is True
