"""Migration 0015 turns each snapshot's rating_points rows into its archive of columns, which the
application reads (app.services.stored_columns), and its downgrade restores the rows; on a database
of its own (SQLite file), never the suite's."""

import datetime as dt
import json
import math

from sqlalchemy import text

from app.services import stored_columns
from tests.test_migration_0004 import migrate_to  # noqa: F401  (the fixture)

ROWS = [  # (snapshot_id, player_id, date, rating, deviation, games, status, last_played, title, counters, tournament_ids)
    (1, "p2", "2020-01-21", 1990.25, 100.0, 11, "active", "2020-01-21", None, None, ["t2", "t3"]),
    (1, "p1", "2020-01-21", 1810.5, None, 4, "provisional", "2020-01-01", "5d", {"norms": [1, 2]}, ["t2"]),
    (1, "p1", "2020-01-01", 1800.0, None, 4, "provisional", None, None, {"norms": [1, 2]}, []),
    (2, "Žofia", "1995-04-30", 2310, None, 3, "active", None, None, {"rif_status": "official"}, ["t1"]),
]


def test_rows_become_one_archive_per_snapshot_and_come_back(migrate_to):  # type: ignore[no-untyped-def]  # noqa: F811
    engine, run = migrate_to
    run("upgrade", "0014")
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO rating_snapshots (id, list_id, list_date, params, players, games, tournaments, notes) "
                                "VALUES (1, 'eru', '2021-01-01', '{}', 2, 7, 2, '[]'), (2, 'rif-elo', '2021-01-01', '{}', 1, 3, 1, '[]'), "
                                "(3, 'rivne', '2021-01-01', '{}', 0, 0, 0, '[]')"))
        connection.execute(text("INSERT INTO rating_entries (snapshot_id, player_id, rating, games, status) VALUES (1, 'p1', 1810.5, 4, 'provisional')"))
        connection.execute(
            text("INSERT INTO rating_points (snapshot_id, player_id, date, rating, deviation, games, status, last_played, title, "
                 "counters, tournament_ids) VALUES (:s, :p, :d, :r, :dev, :g, :st, :lp, :t, :c, :ids)"),
            [dict(zip(("s", "p", "d", "r", "dev", "g", "st", "lp", "t"), row[:9], strict=True),
                  c=None if row[9] is None else json.dumps(row[9]), ids=json.dumps(row[10])) for row in ROWS],
        )
    run("upgrade", "0015")
    with engine.connect() as connection:
        archives = dict(connection.execute(text("SELECT id, point_columns FROM rating_snapshots")).all())
        assert "rating_points" not in {r[0] for r in connection.execute(text("SELECT name FROM sqlite_master"))}
    assert archives[3] is None  # no points: no archive
    first = stored_columns.unpack(archives[1])
    assert first["player_id"].tolist() == ["p1", "p1", "p2"]  # by player, then date
    assert [dt.date.fromordinal(d) for d in first["day"].tolist()] == [dt.date(2020, 1, 1), dt.date(2020, 1, 21), dt.date(2020, 1, 21)]
    assert first["rating"].tolist() == [1800.0, 1810.5, 1990.25]
    assert math.isnan(first["deviation"][0]) and first["deviation"][2] == 100.0
    assert first["games"].tolist() == [4, 4, 11] and first["status"].tolist() == ["provisional", "provisional", "active"]
    assert first["last_played"].tolist() == [0, dt.date(2020, 1, 1).toordinal(), dt.date(2020, 1, 21).toordinal()]
    assert first["title"].tolist() == [None, "5d", None]
    assert first["counters"].tolist() == [{"norms": [1, 2]}, {"norms": [1, 2]}, None]
    assert first["tournament_ids"].tolist() == [[], ["t2"], ["t2", "t3"]]
    second = stored_columns.unpack(archives[2])
    assert second["player_id"].tolist() == ["Žofia"] and second["counters"].tolist() == [{"rif_status": "official"}]

    run("downgrade", "0014")
    with engine.connect() as connection:
        restored = connection.execute(text(
            "SELECT snapshot_id, player_id, date, rating, deviation, games, status, last_played, title, counters, tournament_ids "
            "FROM rating_points ORDER BY snapshot_id, player_id, date"
        )).all()
        entries = connection.execute(text("SELECT count(*) FROM rating_entries")).scalar()
    assert entries == 1  # the snapshots' other rows survive both ways (no copy of rating_snapshots cascading)
    expected = sorted(ROWS, key=lambda row: (row[0], row[1], row[2]))
    assert [(*r[:9], None if r[9] is None else json.loads(r[9]), json.loads(r[10])) for r in restored] == expected
