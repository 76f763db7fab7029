"""Migration 0031 stores a snapshot's archives after its other columns on SQLite (decision 101): every
value of every snapshot is kept, the entries and the lists that reference the snapshots too (the table
is never dropped, so no foreign key cascades), and the archives are the table's last columns, the
points first. On PostgreSQL nothing changes. On a database of its own (the migration_database fixture)."""

import os

from sqlalchemy import inspect, text

COLUMNS = "id, list_id, list_date, params, players, games, tournaments, notes, system, inputs_digest, point_columns, change_columns, warm_start"


def test_the_archives_move_behind_the_other_columns_and_every_value_stays(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0030")
    # Archives large enough to fill overflow pages, different in every snapshot and column.
    snapshots = [
        {
            "id": number,
            "list_id": "rif-whr",
            "list_date": f"2020-01-0{number}",
            "params": "{}",
            "players": number,
            "games": 10 * number,
            "tournaments": 1,
            "notes": "[]",
            "system": "rif-whr",
            "inputs_digest": f"{number:064x}",
            "point_columns": os.urandom(100_000 + number),
            "change_columns": os.urandom(200_000 + number),
            "warm_start": os.urandom(50_000 + number) if number == 2 else None,
        }
        for number in (1, 2)
    ]
    with engine.begin() as connection:
        connection.execute(
            text(f"INSERT INTO rating_snapshots ({COLUMNS}) VALUES ({', '.join(':' + c.strip() for c in COLUMNS.split(','))})"),
            snapshots,
        )
        connection.execute(
            text(
                "INSERT INTO rating_entries (snapshot_id, player_id, rating, games, status) "
                "VALUES (1, 'a', 1950.0, 1, 'provisional'), (2, 'a', 1960.0, 2, 'provisional')"
            )
        )
        connection.execute(text("UPDATE rating_lists SET current_snapshot_id = 2 WHERE id = 'rif-whr'"))
    run("upgrade", "0031")
    with engine.connect() as connection:
        stored = [dict(row._mapping) for row in connection.execute(text(f"SELECT {COLUMNS} FROM rating_snapshots ORDER BY id"))]
        entries = connection.execute(text("SELECT snapshot_id, rating FROM rating_entries ORDER BY snapshot_id")).all()
        current = connection.execute(text("SELECT current_snapshot_id FROM rating_lists WHERE id = 'rif-whr'")).scalar()
    for row in stored:
        for name in ("point_columns", "change_columns", "warm_start"):
            row[name] = None if row[name] is None else bytes(row[name])
        row["list_date"] = str(row["list_date"])
        row["params"], row["notes"] = "{}", "[]"  # (JSON: read back as text or as values, per database)
    assert stored == snapshots
    assert [tuple(entry) for entry in entries] == [(1, 1950.0), (2, 1960.0)] and current == 2
    order = [column["name"] for column in inspect(engine).get_columns("rating_snapshots")]
    if engine.dialect.name == "sqlite":
        assert order[-3:] == ["point_columns", "change_columns", "warm_start"]
    else:
        assert set(order) >= {"point_columns", "change_columns", "warm_start"}
    run("downgrade", "0030")  # (nothing to undo: the order is no part of the schema)
    run("upgrade", "head")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM rating_entries")).scalar() == 2
