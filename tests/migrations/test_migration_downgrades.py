"""Downgrading the schema step by step keeps the rows of the tables that stay: a downgrade that drops
a column of a referenced table (tournaments, rating_lists, rating_snapshots) must not copy the table,
because with foreign keys on, dropping the old copy cascades to every game, entry and change."""

from sqlalchemy import text


def test_downgrading_to_the_first_schemas_keeps_every_game_and_entry(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "head")
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO players (id, name) VALUES ('a', 'A'), ('b', 'B')"))
        connection.execute(
            text(
                'INSERT INTO tournaments (id, name, category, rule, start, "end", rated, format, complete_records, created_at, updated_at) '
                "VALUES ('t', 'T', 'renju', 'RIF', '2020-01-01', '2020-01-02', true, 'swiss', true, '2020-01-01', '2020-01-01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO games (tournament_id, seq, black_id, white_id, result, played, date) "
                "VALUES ('t', 0, 'a', 'b', 'B', true, '2020-01-01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rating_snapshots (id, list_id, list_date, params, players, games, tournaments, notes) "
                "VALUES (1, 'rif-whr', '2020-01-02', '{}', 1, 1, 1, '[]')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rating_entries (snapshot_id, player_id, rating, games, status, last_played) "
                "VALUES (1, 'a', 1950.0, 1, 'provisional', '2020-01-01')"
            )
        )
        connection.execute(text("UPDATE rating_lists SET current_snapshot_id = 1 WHERE id = 'rif-whr'"))
    run("downgrade", "0002")  # through 0013 (rating_lists), 0007 and 0006 (tournaments), 0003 (rating_snapshots)
    with engine.connect() as connection:
        counts = [
            connection.execute(text(f"SELECT count(*) FROM {table}")).scalar()
            for table in ("games", "rating_entries", "rating_lists")
        ]
    assert counts[:2] == [1, 1] and counts[2] >= 3
