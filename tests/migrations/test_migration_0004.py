"""Migration 0004 converts the per-day JSON blobs of existing snapshots into rating_points rows,
and its downgrade rebuilds them; on a database of its own (SQLite file), never the suite's."""

import json

import pytest
from sqlalchemy import text

from app.db import make_engine
from tests.helpers import alembic_runner

WHR_BLOB = {"date": ["2020-01-01", "2020-01-21"], "rating": [1950.5, 1990.25], "deviation": [120.0, 100.0], "games": [4, 7]}
ELO_BLOB = {
    "date": ["1994-12-31", "1995-04-30", "1995-04-30"],
    "rating": [2300, 2290, 2310],
    "deviation": [None, None, None],
    "games": [0, 3, 3],
    "status": ["official", "official", "official"],
}


@pytest.fixture
def migrate_to(tmp_path):  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite:///{tmp_path / 'migrations.sqlite3'}")
    yield engine, alembic_runner(engine)
    engine.dispose()


def test_blobs_become_rows_and_come_back(migrate_to):  # type: ignore[no-untyped-def]
    engine, run = migrate_to
    run("upgrade", "0003")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO rating_snapshots (id, list_id, list_date, params, players, games, tournaments, notes) "
                "VALUES (1, 'rif-whr', '2021-01-01', '{}', 1, 7, 2, '[]'), (2, 'rif-elo', '2021-01-01', '{}', 1, 3, 1, '[]')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rating_entries (snapshot_id, player_id, rating, deviation, games, last_played, status, history) "
                "VALUES (1, 'p1', 1990.25, 100.0, 11, '2020-01-21', 'active', :whr), (2, 'a', 2310, NULL, 3, '1995-03-05', 'active', :elo)"
            ),
            {"whr": json.dumps(WHR_BLOB), "elo": json.dumps(ELO_BLOB)},
        )
    run("upgrade", "0004")
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT snapshot_id, player_id, date, rating, games, status, counters FROM rating_points ORDER BY snapshot_id, date"
            )
        ).all()
    assert [(r.snapshot_id, r.date, r.rating, r.games, r.status) for r in rows] == [
        (1, "2020-01-01", 1950.5, 4, "provisional"),
        (1, "2020-01-21", 1990.25, 11, "active"),  # 4 + 7 games: established
        (2, "1994-12-31", 2300, 0, "active"),
        (2, "1995-04-30", 2310, 3, "active"),  # the day's last point holds
    ]
    assert json.loads(rows[-1].counters) == {"rif_status": "official"}
    run("downgrade", "0003")
    with engine.connect() as connection:
        blobs = {
            r.player_id: json.loads(r.history) for r in connection.execute(text("SELECT player_id, history FROM rating_entries"))
        }
    assert blobs["p1"] == WHR_BLOB
    assert blobs["a"]["rating"] == [2300, 2310] and blobs["a"]["status"] == ["official", "official"]
