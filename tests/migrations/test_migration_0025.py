"""Migration 0025 keeps each tournament's played games as one value (played_games), filled from the
stored games: the values give the games' columns, a tournament without a played game has none, and
the downgrade drops them and leaves the games. On a database of its own (the migration_database
fixture)."""

import numpy as np
from sqlalchemy import inspect, text

from app.snapshots.played_games import columns


def test_stored_games_become_one_value_per_tournament(migration_database):  # type: ignore[no-untyped-def]
    engine, run = migration_database
    run("upgrade", "0024")
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO players (id) VALUES ('a'), ('b'), ('c')"))
        for tournament_id in ("t1", "t2", "walkovers"):
            connection.execute(
                text(
                    'INSERT INTO tournaments (id, name, category, rule, start, "end", rated, format, complete_records, '
                    "created_at, updated_at) VALUES (:id, 'T', 'renju', NULL, '2020-01-01', '2020-01-02', true, "
                    "'face-to-face', true, '2020-01-01', '2020-01-01')"
                ),
                {"id": tournament_id},
            )
        games = [
            ("t1", 1, "c", "a", "W", True, "2020-01-02"),
            ("t1", 0, "b", "c", "B", True, "2020-01-01"),
            ("t1", 2, "a", "b", "D", False, "2020-01-02"),
            ("t2", 0, "a", "b", "D", True, "2020-01-02"),
            ("walkovers", 0, "a", "c", "B", False, "2020-01-02"),
        ]
        connection.execute(
            text(
                "INSERT INTO games (tournament_id, seq, black_id, white_id, result, played, date) "
                "VALUES (:t, :seq, :black, :white, :result, :played, :date)"
            ),
            [dict(zip(("t", "seq", "black", "white", "result", "played", "date"), game, strict=True)) for game in games],
        )
    run("upgrade", "0025")
    with engine.connect() as connection:
        values = connection.execute(text("SELECT tournament_id, players, games FROM played_games ORDER BY tournament_id")).all()
    assert [row[0] for row in values] == ["t1", "t2"]
    read = columns([(players, bytes(games)) for _, players, games in values])
    assert read.player_ids == ["b", "c", "a"]  # by first appearance in seq order, black before white
    np.testing.assert_array_equal(read.black, [0, 1, 2])
    np.testing.assert_array_equal(read.white, [1, 2, 0])
    np.testing.assert_array_equal(read.black_score, [1.0, 0.0, 0.5])
    days = [np.datetime64(day).astype(int) + 719163 for day in ("2020-01-01", "2020-01-02", "2020-01-02")]
    np.testing.assert_array_equal(read.day, days)
    np.testing.assert_array_equal(read.tournament, [0, 0, 1])
    run("downgrade", "0024")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM games")).scalar() == 5
    assert "played_games" not in inspect(engine).get_table_names()
