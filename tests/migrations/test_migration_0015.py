"""Migration 0015 turns each snapshot's rating_points and tournament_rating_changes rows into its
archives of columns, which the application reads (app.snapshots.stored_columns), and its downgrade
restores the rows. On a database of its own, never the suite's: a SQLite file, or on PostgreSQL (the
suite's second pass) a scratch database on the same server, where JSONB and bytea are what is read."""

import datetime as dt
import io
import json
import math

import numpy as np
from sqlalchemy import inspect, text

from app.snapshots import stored_columns

ROWS = [  # (snapshot_id, player_id, date, rating, deviation, games, status, last_played, title, counters, tournament_ids)
    (1, "p2", "2020-01-21", 1990.25, 100.0, 11, "active", "2020-01-21", None, None, ["t2", "t3"]),
    (1, "p1", "2020-01-21", 1810.5, None, 4, "provisional", "2020-01-01", "5d", {"norms": [1, 2]}, ["t2"]),
    (1, "p1", "2020-01-01", 1800.0, None, 4, "provisional", None, None, {"norms": [1, 2]}, []),
    (2, "Žofia", "1995-04-30", 2310, None, 3, "active", None, None, {"rif_status": "official"}, ["t1"]),
]

CHANGES = [  # (snapshot_id, tournament_id, player_id, system, before, after, change, unrounded, games, status, title, details)
    (1, "t2", "p2", "eru", 1950.0, 1990.25, 40.25, 40.25, 5, "active", None, None),
    (1, "t2", "p1", "eru", None, 1810.5, None, None, 4, "provisional", "5d", {"norm": "4d"}),
    (2, "t1", "Žofia", "rif-1997", 2300, 2310, 10, 9.6, 3, "established", None, None),
]


def test_rows_become_one_archive_per_snapshot_and_come_back(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0014")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO rating_snapshots (id, list_id, list_date, params, players, games, tournaments, notes) "
                "VALUES (1, 'eru', '2021-01-01', '{}', 2, 7, 2, '[]'), (2, 'rif-elo', '2021-01-01', '{}', 1, 3, 1, '[]'), "
                "(3, 'rivne', '2021-01-01', '{}', 0, 0, 0, '[]')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rating_entries (snapshot_id, player_id, rating, games, status) VALUES (1, 'p1', 1810.5, 4, 'provisional')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rating_points (snapshot_id, player_id, date, rating, deviation, games, status, last_played, title, "
                "counters, tournament_ids) VALUES (:s, :p, :d, :r, :dev, :g, :st, :lp, :t, :c, :ids)"
            ),
            [
                dict(
                    zip(("s", "p", "d", "r", "dev", "g", "st", "lp", "t"), row[:9], strict=True),
                    c=None if row[9] is None else json.dumps(row[9]),
                    ids=json.dumps(row[10]),
                )
                for row in ROWS
            ],
        )
        connection.execute(
            text(
                "INSERT INTO tournament_rating_changes (snapshot_id, tournament_id, player_id, system, rating_before, rating_after, "
                "change, change_unrounded, games_counted, status_after, title_after, details) "
                "VALUES (:s, :t, :p, :sys, :b, :a, :c, :u, :g, :st, :ti, :d)"
            ),
            [
                dict(
                    zip(("s", "t", "p", "sys", "b", "a", "c", "u", "g", "st", "ti"), row[:11], strict=True),
                    d=None if row[11] is None else json.dumps(row[11]),
                )
                for row in CHANGES
            ],
        )
    run("upgrade", "0015")
    with engine.connect() as connection:
        archives = dict(connection.execute(text("SELECT id, point_columns FROM rating_snapshots")).all())
        change_archives = dict(connection.execute(text("SELECT id, change_columns FROM rating_snapshots")).all())
        tables = set(inspect(connection).get_table_names())
    assert "rating_points" not in tables and "tournament_rating_changes" not in tables
    if engine.dialect.name == "postgresql":  # the archives compressed with lz4, as fast as writing them raw
        with engine.connect() as connection:
            compression = connection.execute(
                text(
                    "SELECT attname, attcompression FROM pg_attribute WHERE attrelid = 'rating_snapshots'::regclass "
                    "AND attname IN ('point_columns', 'change_columns')"
                )
            ).all()
        assert dict(compression) == {"point_columns": "l", "change_columns": "l"}
    assert archives[3] is None  # no points: no archive
    first = stored_columns.unpack(bytes(archives[1]))
    assert first["player_id"].tolist() == ["p1", "p1", "p2"]  # by player, then date
    assert [dt.date.fromordinal(d) for d in first["day"].tolist()] == [
        dt.date(2020, 1, 1),
        dt.date(2020, 1, 21),
        dt.date(2020, 1, 21),
    ]
    assert first["rating"].tolist() == [1800.0, 1810.5, 1990.25]
    assert math.isnan(first["deviation"][0]) and first["deviation"][2] == 100.0
    assert first["games"].tolist() == [4, 4, 11] and first["status"].tolist() == ["provisional", "provisional", "active"]
    assert first["last_played"].tolist() == [0, dt.date(2020, 1, 1).toordinal(), dt.date(2020, 1, 21).toordinal()]
    assert first["title"].tolist() == [None, "5d", None]
    assert first["counters"].tolist() == [{"norms": [1, 2]}, {"norms": [1, 2]}, None]
    assert first["tournament_ids"].tolist() == [[], ["t2"], ["t2", "t3"]]
    second = stored_columns.unpack(bytes(archives[2]))
    assert second["player_id"].tolist() == ["Žofia"] and second["counters"].tolist() == [{"rif_status": "official"}]
    changes = stored_columns.unpack(bytes(change_archives[1]))
    assert changes["player_id"].tolist() == ["p1", "p2"] and changes["tournament_id"].tolist() == ["t2", "t2"]
    assert math.isnan(changes["rating_before"][0]) and changes["rating_after"].tolist() == [1810.5, 1990.25]
    assert changes["games_counted"].tolist() == [4, 5] and changes["details"].tolist() == [{"norm": "4d"}, None]
    assert changes["title_after"].tolist() == ["5d", None] and change_archives[3] is None

    # The downgrade reads what the application itself writes too: its JSON-array and per-key layouts.
    repacked = {
        snapshot_id: (
            stored_columns.pack(stored_columns.unpack(bytes(archives[snapshot_id]))),
            stored_columns.pack(stored_columns.unpack(bytes(change_archives[snapshot_id]))),
        )
        for snapshot_id in (1, 2)
    }
    assert "counters.json" in np.load(io.BytesIO(repacked[1][0])).files
    assert "details.fields" in np.load(io.BytesIO(repacked[1][1])).files
    with engine.begin() as connection:
        for snapshot_id, (points_archive, changes_archive) in repacked.items():
            connection.execute(
                text("UPDATE rating_snapshots SET point_columns = :p, change_columns = :c WHERE id = :i"),
                {"p": points_archive, "c": changes_archive, "i": snapshot_id},
            )

    run("downgrade", "0014")
    with engine.connect() as connection:
        restored = connection.execute(
            text(
                "SELECT snapshot_id, player_id, date, rating, deviation, games, status, last_played, title, counters, tournament_ids "
                "FROM rating_points ORDER BY snapshot_id, player_id, date"
            )
        ).all()
        restored_changes = connection.execute(
            text(
                "SELECT snapshot_id, tournament_id, player_id, system, rating_before, rating_after, change, change_unrounded, "
                "games_counted, status_after, title_after, details FROM tournament_rating_changes ORDER BY snapshot_id, player_id"
            )
        ).all()
        entries = connection.execute(text("SELECT count(*) FROM rating_entries")).scalar()
    assert entries == 1  # the snapshots' other rows survive both ways (no copy of rating_snapshots cascading)
    expected = sorted(ROWS, key=lambda row: (row[0], row[1], row[2]))
    assert [tuple(map(_plain, r)) for r in restored] == expected
    assert [tuple(map(_plain, r)) for r in restored_changes] == sorted(CHANGES, key=lambda row: (row[0], row[2]))


def _plain(value):  # type: ignore[no-untyped-def]
    """A value read back as the rows were written: SQLite gives dates and JSON as text, PostgreSQL as
    dates and Python values."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str) and (value[:1] in ("[", "{") or value == "null"):
        return json.loads(value)
    return value
